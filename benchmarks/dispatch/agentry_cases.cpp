// SPDX-License-Identifier: BSL-1.0
// The agentry cases: read<T> alone (parse + validate) and registry::call (lookup + parse +
// validate + call + write the result), for both fixtures, and json::write of the results
// alone for reference.

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
}

} // namespace bench::agentry_impl
