// SPDX-License-Identifier: BSL-1.0
// agentry_dispatch_profile CASE [CALLS]: runs one agentry case CALLS times (default 1000000)
// with no benchmark framework around it, for profilers:
//
//   perf record -g build/agentry_dispatch_profile call_flight
//   valgrind --tool=callgrind build/agentry_dispatch_profile call_flight 10000
//
// CASE: read_flight, call_flight, read_fare, call_fare, read_ticket, call_ticket, read_views,
// call_views, write_offer. Prints the allocations per call.

#include "alloc_counter.hpp"
#include "fixture.hpp"

#include <agentry/agentry.hpp>

#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string>

namespace {

constexpr agentry::registry tools{
    agentry::tool<"search_flights", "Search flight offers from an airport; returns the cheapest matching offer.">(
        bench::search_flights),
    agentry::tool<"quote_fare", "Total fare of a group booking, taxes included.">(bench::quote_fare),
    agentry::tool<"open_ticket", "Open a support ticket; returns its number and place in the queue.">(bench::open_ticket),
    agentry::tool<"email_domain_length", "Length of the domain of a contact's email address.">(
        bench::email_domain_length),
};

template <class F>
void repeat(long calls, F&& f) {
    const bench::allocation_counts before = bench::allocations();
    for (long i = 0; i < calls; ++i) benchmark::DoNotOptimize(f());
    const bench::allocation_counts after = bench::allocations();
    std::printf("%.2f allocations, %.0f bytes per call\n", double(after.calls - before.calls) / double(calls),
                double(after.bytes - before.bytes) / double(calls));
}

} // namespace

int main(int argc, char** argv) {
    using bench::opaque;
    const char* which = argc > 1 ? argv[1] : "call_flight";
    const long calls = argc > 2 ? std::atol(argv[2]) : 1000000;
    const std::string_view flight = bench::flight_args;
    const std::string_view fare = bench::fare_args;
    if (std::strcmp(which, "read_flight") == 0) {
        repeat(calls, [&] { return agentry::json::read<bench::flight_search>(opaque(flight)); });
    } else if (std::strcmp(which, "call_flight") == 0) {
        repeat(calls, [&] { return tools.call(opaque(std::string_view("search_flights")), opaque(flight)); });
    } else if (std::strcmp(which, "read_fare") == 0) {
        repeat(calls, [&] { return agentry::json::read<bench::fare_quote>(opaque(fare)); });
    } else if (std::strcmp(which, "call_fare") == 0) {
        repeat(calls, [&] { return tools.call(opaque(std::string_view("quote_fare")), opaque(fare)); });
    } else if (std::strcmp(which, "read_ticket") == 0) {
        repeat(calls, [&] { return agentry::json::read<bench::support_ticket>(opaque(bench::ticket_args)); });
    } else if (std::strcmp(which, "call_ticket") == 0) {
        repeat(calls, [&] { return tools.call(opaque(std::string_view("open_ticket")), opaque(bench::ticket_args)); });
    } else if (std::strcmp(which, "read_views") == 0) {
        repeat(calls, [&] { return agentry::json::read<bench::contact_views>(opaque(bench::contact_args)); });
    } else if (std::strcmp(which, "call_views") == 0) {
        repeat(calls, [&] {
            return tools.call(opaque(std::string_view("email_domain_length")), opaque(bench::contact_args));
        });
    } else if (std::strcmp(which, "write_offer") == 0) {
        const bench::flight_offer offer = bench::search_flights(agentry::json::read<bench::flight_search>(flight).value);
        repeat(calls, [&] {
            std::string out;
            agentry::json::write(out, offer);
            return out;
        });
    } else {
        std::fprintf(stderr, "usage: agentry_dispatch_profile read_flight|call_flight|read_fare|call_fare|read_ticket|call_ticket|read_views|call_views|write_offer [calls]\n");
        return 2;
    }
}
