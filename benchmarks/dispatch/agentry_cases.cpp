// SPDX-License-Identifier: BSL-1.0
// The agentry cases: read<T> alone (parse + validate) and registry::call (lookup + parse +
// validate + call + write the result), for the three fixtures, json::write of the results
// alone, and the construction and destruction of an empty tool_result, for reference.

#include "alloc_counter.hpp"
#include "cases.hpp"

#include <agentry/agentry.hpp>

#include <benchmark/benchmark.h>

namespace bench::agentry_impl {

namespace {

constexpr agentry::registry tools{
    agentry::tool<"search_flights", "Search flight offers from an airport; returns the cheapest matching offer.">(
        search_flights),
    agentry::tool<"quote_fare", "Total fare of a group booking, taxes included.">(quote_fare),
    agentry::tool<"open_ticket", "Open a support ticket; returns its number and place in the queue.">(open_ticket),
    agentry::tool<"email_domain_length", "Length of the domain of a contact's email address.">(email_domain_length),
};

template <class T>
parsed<T> convert(agentry::json::read_result<T>&& r) {
    parsed<T> out;
    out.value = std::move(r.value);
    for (const auto& e : r.errors) out.errors.push_back(e.to_string());
    return out;
}

void read_flight_case(benchmark::State& state) {
    measure(state, [] { return agentry::json::read<flight_search>(opaque(flight_args)); });
}
void read_fare_case(benchmark::State& state) {
    measure(state, [] { return agentry::json::read<fare_quote>(opaque(fare_args)); });
}
void read_ticket_case(benchmark::State& state) {
    measure(state, [] { return agentry::json::read<support_ticket>(opaque(ticket_args)); });
}
void call_ticket_case(benchmark::State& state) {
    measure(state, [] { return tools.call(opaque(std::string_view("open_ticket")), opaque(ticket_args)); });
}
void read_views_case(benchmark::State& state) {
    measure(state, [] { return agentry::json::read<contact_views>(opaque(contact_args)); });
}
void call_views_case(benchmark::State& state) {
    measure(state, [] { return tools.call(opaque(std::string_view("email_domain_length")), opaque(contact_args)); });
}
void result_case(benchmark::State& state) {
    measure(state, [] { return agentry::tool_result{}; });
}
void call_flight_case(benchmark::State& state) {
    measure(state, [] { return tools.call(opaque(std::string_view("search_flights")), opaque(flight_args)); });
}
void call_fare_case(benchmark::State& state) {
    measure(state, [] { return tools.call(opaque(std::string_view("quote_fare")), opaque(fare_args)); });
}
void write_offer_case(benchmark::State& state) {
    const flight_offer offer = search_flights(agentry::json::read<flight_search>(opaque(flight_args)).value);
    measure(state, [&] {
        std::string out;
        agentry::json::write(out, offer);
        return out;
    });
}
void write_total_case(benchmark::State& state) {
    const fare_total total = quote_fare(agentry::json::read<fare_quote>(opaque(fare_args)).value);
    measure(state, [&] {
        std::string out;
        agentry::json::write(out, total);
        return out;
    });
}

} // namespace

parsed<flight_search> read_flight(std::string_view text) { return convert(agentry::json::read<flight_search>(text)); }
parsed<fare_quote> read_fare(std::string_view text) { return convert(agentry::json::read<fare_quote>(text)); }
parsed<support_ticket> read_ticket(std::string_view text) { return convert(agentry::json::read<support_ticket>(text)); }

outcome call(std::string_view tool, std::string_view arguments) {
    agentry::tool_result r = tools.call(tool, arguments);
    return {r.ok(), std::move(r.content)};
}

void register_benchmarks() {
    benchmark::RegisterBenchmark("agentry/read/flight_search", read_flight_case);
    benchmark::RegisterBenchmark("agentry/call/flight_search", call_flight_case);
    benchmark::RegisterBenchmark("agentry/write/flight_search", write_offer_case);
    benchmark::RegisterBenchmark("agentry/read/fare_quote", read_fare_case);
    benchmark::RegisterBenchmark("agentry/call/fare_quote", call_fare_case);
    benchmark::RegisterBenchmark("agentry/write/fare_quote", write_total_case);
    benchmark::RegisterBenchmark("agentry/read/ticket", read_ticket_case);
    benchmark::RegisterBenchmark("agentry/call/ticket", call_ticket_case);
    benchmark::RegisterBenchmark("agentry/read/contact_views", read_views_case);
    benchmark::RegisterBenchmark("agentry/call/contact_views", call_views_case);
    benchmark::RegisterBenchmark("agentry/tool_result/construct", result_case);
}

} // namespace bench::agentry_impl
