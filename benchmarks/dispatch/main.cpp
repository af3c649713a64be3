// SPDX-License-Identifier: BSL-1.0
// agentry_dispatch_bench: checks that every implementation reads the fixtures alike, rejects
// the same invalid arguments, returns the same results and frees what it allocates, then
// runs all the benchmarks (Google Benchmark flags apply; --self-test runs only the checks).
// glaze, when built in (BENCH_GLAZE), must read and answer alike too; the invalid arguments
// it accepts are listed, not counted as failures. BENCH_ONLY_GLAZE_PEERS (the -std=c++2b
// binary) leaves out Boost.JSON and the registries of many tools.

#include "alloc_counter.hpp"
#include "cases.hpp"

#include <agentry/json/writer.hpp>

#include <benchmark/benchmark.h>
#include <nlohmann/json.hpp>

#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <functional>
#include <string>
#include <vector>

#if !defined(BENCH_ONLY_GLAZE_PEERS)
namespace bench {
#define BENCH_REGISTRY(N) many_tools_case register_many_tools_##N();
#include "registries.inc"
#undef BENCH_REGISTRY
} // namespace bench
#endif

namespace {

int failures = 0;

void check(bool ok, const std::string& what) {
    if (!ok) {
        std::fprintf(stderr, "self-test: FAILED: %s\n", what.c_str());
        ++failures;
    }
}

/// Equal JSON values (object member order and number spelling aside).
bool same_json(std::string_view a, std::string_view b) {
    const auto x = nlohmann::json::parse(a, nullptr, false);
    const auto y = nlohmann::json::parse(b, nullptr, false);
    return !x.is_discarded() && x == y;
}

/// `f` frees every allocation it makes.
void check_balanced(const std::string& what, const std::function<void()>& f) {
    const bench::allocation_counts before = bench::allocations();
    f();
    const bench::allocation_counts after = bench::allocations();
    check(after.calls - before.calls == after.frees - before.frees,
          what + ": " + std::to_string(after.calls - before.calls) + " allocations but " +
              std::to_string(after.frees - before.frees) + " frees");
}

struct implementation {
    const char* name;
    bench::parsed<bench::flight_search> (*read_flight)(std::string_view);
    bench::parsed<bench::fare_quote> (*read_fare)(std::string_view);
    bench::parsed<bench::support_ticket> (*read_ticket)(std::string_view);  // null: no ticket case
    bench::outcome (*call)(std::string_view, std::string_view);
    bool checks_everything = true;  // false: the invalid arguments it accepts are listed only
};

constexpr std::string_view flight_result =
    R"({"offer_id":"AF1234","from":"CDG","price":1187.4,"stops":1,"refundable":true,"departs":"08:35"})";
constexpr std::string_view fare_result = R"({"total":1362.75,"taxes":124.5,"passengers":3,"refundable":false})";
constexpr std::string_view ticket_result = R"({"ticket":723456,"queue_position":6,"notified":true})";

void self_test(const std::vector<bench::many_tools_case>& registries) {
    const implementation impls[] = {
        {"agentry", bench::agentry_impl::read_flight, bench::agentry_impl::read_fare, bench::agentry_impl::read_ticket,
         bench::agentry_impl::call},
        {"nlohmann", bench::nlohmann_impl::read_flight, bench::nlohmann_impl::read_fare,
         bench::nlohmann_impl::read_ticket, bench::nlohmann_impl::call},
#if !defined(BENCH_ONLY_GLAZE_PEERS)
        {"boost_json", bench::boost_json_impl::read_flight, bench::boost_json_impl::read_fare, nullptr,
         bench::boost_json_impl::call},
#endif
#if defined(BENCH_GLAZE)
        {BENCH_GLAZE, bench::glaze_impl::read_flight, bench::glaze_impl::read_fare, bench::glaze_impl::read_ticket,
         bench::glaze_impl::call, false},
#endif
    };
    // What each implementation reads, written back by agentry's writer, must be the same.
    const std::string flight_read = agentry::json::to_json(bench::agentry_impl::read_flight(bench::flight_args).value);
    const std::string fare_read = agentry::json::to_json(bench::agentry_impl::read_fare(bench::fare_args).value);
    check(same_json(flight_read, bench::flight_args), "agentry reads back the flight arguments: " + flight_read);
    check(same_json(fare_read, bench::fare_args), "agentry reads back the fare arguments: " + fare_read);
    const std::string ticket_read = agentry::json::to_json(bench::agentry_impl::read_ticket(bench::ticket_args).value);
    check(same_json(ticket_read, bench::ticket_args), "agentry reads back the ticket arguments: " + ticket_read);
    for (const implementation& impl : impls) {
        const std::string who = impl.name;
        const auto flight = impl.read_flight(bench::flight_args);
        check(flight.ok(), who + " accepts the flight arguments");
        check(agentry::json::to_json(flight.value) == flight_read, who + " reads the flight arguments like agentry");
        const auto fare = impl.read_fare(bench::fare_args);
        check(fare.ok(), who + " accepts the fare arguments");
        check(agentry::json::to_json(fare.value) == fare_read, who + " reads the fare arguments like agentry");

        const bench::outcome a = impl.call("search_flights", bench::flight_args);
        check(a.ok && same_json(a.content, flight_result), who + " search_flights result: " + a.content);
        const bench::outcome b = impl.call("quote_fare", bench::fare_args);
        check(b.ok && same_json(b.content, fare_result), who + " quote_fare result: " + b.content);
        check(!impl.call("no_such_tool", "{}").ok, who + " rejects an unknown tool");

        // Each invalid text must be rejected, by reading and by calling.
        const auto rejects = [&](std::string_view what, bool read_ok, bool call_ok, std::string_view text) {
            if (impl.checks_everything) {
                check(!read_ok, who + " rejects " + std::string(what) + " (read)");
                check(!call_ok, who + " rejects " + std::string(what) + " (call)");
            } else if (read_ok || call_ok) {
                std::fprintf(stderr, "self-test: note: %s accepts %.*s: %.*s\n", impl.name, int(what.size()),
                             what.data(), int(text.size()), text.data());
            }
        };
        std::size_t index = 0;
        for (std::string_view bad : bench::flight_args_invalid)
            rejects("invalid flight arguments #" + std::to_string(index++), impl.read_flight(bad).ok(),
                    impl.call("search_flights", bad).ok, bad);
        if (impl.read_ticket != nullptr) {
            const auto ticket = impl.read_ticket(bench::ticket_args);
            check(ticket.ok(), who + " accepts the ticket arguments");
            check(agentry::json::to_json(ticket.value) == ticket_read, who + " reads the ticket arguments like agentry");
            const bench::outcome t = impl.call("open_ticket", bench::ticket_args);
            check(t.ok && same_json(t.content, ticket_result), who + " open_ticket result: " + t.content);
            index = 0;
            for (std::string_view bad : bench::ticket_args_invalid)
                rejects("invalid ticket arguments #" + std::to_string(index++), impl.read_ticket(bad).ok(),
                        impl.call("open_ticket", bad).ok, bad);
            check_balanced(who + " read ticket", [&] { (void)impl.read_ticket(bench::ticket_args); });
            check_balanced(who + " call ticket", [&] { (void)impl.call("open_ticket", bench::ticket_args); });
        }

        check_balanced(who + " read flight", [&] { (void)impl.read_flight(bench::flight_args); });
        check_balanced(who + " read fare", [&] { (void)impl.read_fare(bench::fare_args); });
        check_balanced(who + " call flight", [&] { (void)impl.call("search_flights", bench::flight_args); });
        check_balanced(who + " call fare", [&] { (void)impl.call("quote_fare", bench::fare_args); });
    }
    const std::string differences = bench::agentry_impl::policy_paths_differ();
    check(differences.empty(), "agentry's policy paths answer like registry::call:" + differences);
    for (const bench::many_tools_case& r : registries) {
        const std::string who = "registry of " + std::to_string(r.size) + " tools";
        const bench::outcome a = r.call("search_flights", bench::flight_args);
        check(a.ok && same_json(a.content, flight_result), who + ": search_flights result: " + a.content);
        if (!r.middle_name.empty()) {
            const bench::outcome b = r.call(r.middle_name, r.middle_args);
            check(b.ok && b.content == r.middle_result, who + ": " + std::string(r.middle_name) + " result: " + b.content);
        }
        check(!r.call("no_such_tool", "{}").ok, who + ": rejects an unknown tool");
    }
}

} // namespace

int main(int argc, char** argv) {
    bool only_self_test = false;
    std::vector<char*> args;
    for (int i = 0; i < argc; ++i) {
        if (std::strcmp(argv[i], "--self-test") == 0) only_self_test = true;
        else args.push_back(argv[i]);
    }
    int count = int(args.size());
    args.push_back(nullptr);

    std::vector<bench::many_tools_case> registries;
    bench::agentry_impl::register_benchmarks();
    bench::nlohmann_impl::register_benchmarks();
#if defined(BENCH_GLAZE)
    bench::glaze_impl::register_benchmarks();
#endif
#if !defined(BENCH_ONLY_GLAZE_PEERS)
    bench::boost_json_impl::register_benchmarks();
#define BENCH_REGISTRY(N) registries.push_back(bench::register_many_tools_##N());
#include "registries.inc"
#undef BENCH_REGISTRY
#endif

    self_test(registries);
    if (failures != 0) {
        std::fprintf(stderr, "self-test: %d failures\n", failures);
        return 1;
    }
    std::fprintf(stderr, "self-test: passed (%zu registry sizes)\n", registries.size());
    if (only_self_test) return 0;

    benchmark::Initialize(&count, args.data());
    if (benchmark::ReportUnrecognizedArguments(count, args.data())) return 1;
    benchmark::RunSpecifiedBenchmarks();
    benchmark::Shutdown();
    return 0;
}
