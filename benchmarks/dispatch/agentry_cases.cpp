// SPDX-License-Identifier: BSL-1.0
// The agentry cases: read<T> alone (parse + validate) and registry::call (lookup + parse +
// validate + call + write the result), for the three fixtures, json::write of the results
// alone, and the construction and destruction of an empty tool_result, for reference. Then the
// same calls through the policy paths: a tool taking agentry::context<T> and agentry::stop_token
// called with a call_scope and a context, a tool with a policy, and a policied call admitted by
// a rate_limiter first (as the agent does).

#include "alloc_counter.hpp"
#include "cases.hpp"

#include <agentry/agentry.hpp>
#include <agentry/stop_token.hpp>

#include <agentry/policy/registry_policies.hpp>
#include <agentry/policy/token_bucket.hpp>

#include <benchmark/benchmark.h>

#include <chrono>

namespace bench::agentry_impl {

namespace {

constexpr agentry::registry tools{
    agentry::tool<"search_flights", "Search flight offers from an airport; returns the cheapest matching offer.">(
        search_flights),
    agentry::tool<"quote_fare", "Total fare of a group booking, taxes included.">(quote_fare),
    agentry::tool<"open_ticket", "Open a support ticket; returns its number and place in the queue.">(open_ticket),
    agentry::tool<"email_domain_length", "Length of the domain of a contact's email address.">(email_domain_length),
};

/// What a tool taking agentry::context<session> gets from the caller.
struct session {
    int calls = 0;
};

flight_offer search_flights_scoped(agentry::context<session> s, agentry::stop_token stop, const flight_search& q) {
    s->calls += stop.stop_requested() ? 0 : 1;
    return search_flights(q);
}
fare_total quote_fare_scoped(const fare_quote& q, agentry::context<session> s, agentry::stop_token stop) {
    s->calls += stop.stop_requested() ? 0 : 1;
    return quote_fare(q);
}

constexpr agentry::registry scoped_tools{
    agentry::tool<"search_flights", "Search flight offers from an airport; returns the cheapest matching offer.">(
        search_flights_scoped),
    agentry::tool<"quote_fare", "Total fare of a group booking, taxes included.">(quote_fare_scoped),
};

// Never reached in the benchmark: 10^9 calls per second.
constexpr agentry::rate_limit generous{.calls = 1'000'000'000, .per_ms = 1000};
constexpr agentry::tool_policy read_only{.level = agentry::permission::read_only, .rate = generous};

constexpr auto policied_tools = agentry::with_rate_limit<generous>(agentry::registry{
    agentry::with_policy<read_only>(agentry::tool<"search_flights",
                                                  "Search flight offers from an airport; returns the cheapest "
                                                  "matching offer.">(search_flights)),
    agentry::with_policy<read_only>(
        agentry::tool<"quote_fare", "Total fare of a group booking, taxes included.">(quote_fare)),
});
using policied_type = std::remove_cvref_t<decltype(policied_tools)>;
using policies = agentry::registry_policies<policied_type>;

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

template <std::string_view const& Name, std::string_view const& Args>
void call_scoped_case(benchmark::State& state) {
    session s;
    agentry::stop_source source;
    const agentry::call_scope scope{source.get_token(), {}};
    measure(state, [&] { return scoped_tools.call(opaque(Name), opaque(Args), {.context = s, .scope = scope}); });
}

template <std::string_view const& Name, std::string_view const& Args>
void call_policied_case(benchmark::State& state) {
    measure(state, [] { return policied_tools.call(opaque(Name), opaque(Args)); });
}

// The agent's admission of a call of a policied tool (find, its policy, the two buckets at the
// current time), then the call.
template <std::string_view const& Name, std::string_view const& Args>
void call_admitted_case(benchmark::State& state) {
    agentry::rate_limiter limiter(policies::table, policies::registry_rate);
    measure(state, [&] {
        const std::string_view name = opaque(Name);
        const std::size_t index = policied_type::find(name);
        if (index == policies::size || policies::table[index].needs_approval ||
            !limiter.try_take(index, std::chrono::steady_clock::now()))
            return agentry::tool_result{};
        return policied_tools.call(name, opaque(Args), {.index = index});
    });
}

constexpr std::string_view flight_name = "search_flights";
constexpr std::string_view fare_name = "quote_fare";

} // namespace

parsed<flight_search> read_flight(std::string_view text) { return convert(agentry::json::read<flight_search>(text)); }
parsed<fare_quote> read_fare(std::string_view text) { return convert(agentry::json::read<fare_quote>(text)); }
parsed<support_ticket> read_ticket(std::string_view text) { return convert(agentry::json::read<support_ticket>(text)); }

outcome call(std::string_view tool, std::string_view arguments) {
    agentry::tool_result r = tools.call(tool, arguments);
    return {r.ok(), std::move(r.content)};
}

std::string policy_paths_differ() {
    session s;
    const agentry::call_scope scope{};
    agentry::rate_limiter limiter(policies::table, policies::registry_rate);
    std::string differences;
    for (const auto& [name, args] : {std::pair{flight_name, flight_args}, std::pair{fare_name, fare_args}}) {
        const agentry::tool_result plain = tools.call(name, args);
        const std::size_t index = policied_type::find(name);
        if (scoped_tools.call(name, args, {.context = s, .scope = scope}).content != plain.content)
            differences += " scoped " + std::string(name);
        if (policied_tools.call(name, args).content != plain.content) differences += " policied " + std::string(name);
        if (!limiter.try_take(index, std::chrono::steady_clock::now()) ||
            policied_tools.call(name, args, {.index = index}).content != plain.content)
            differences += " admitted " + std::string(name);
    }
    if (s.calls != 2) differences += " context not reached";
    return differences;
}

void register_benchmarks() {
    benchmark::RegisterBenchmark("agentry/read/flight_search", read_flight_case);
    benchmark::RegisterBenchmark("agentry/call/flight_search", call_flight_case);
    benchmark::RegisterBenchmark("agentry/write/flight_search", write_offer_case);
    benchmark::RegisterBenchmark("agentry/read/fare_quote", read_fare_case);
    benchmark::RegisterBenchmark("agentry/call/fare_quote", call_fare_case);
    benchmark::RegisterBenchmark("agentry/write/fare_quote", write_total_case);
    benchmark::RegisterBenchmark("agentry/call_scoped/flight_search", call_scoped_case<flight_name, flight_args>);
    benchmark::RegisterBenchmark("agentry/call_policied/flight_search", call_policied_case<flight_name, flight_args>);
    benchmark::RegisterBenchmark("agentry/call_admitted/flight_search", call_admitted_case<flight_name, flight_args>);
    benchmark::RegisterBenchmark("agentry/call_scoped/fare_quote", call_scoped_case<fare_name, fare_args>);
    benchmark::RegisterBenchmark("agentry/call_policied/fare_quote", call_policied_case<fare_name, fare_args>);
    benchmark::RegisterBenchmark("agentry/call_admitted/fare_quote", call_admitted_case<fare_name, fare_args>);
    benchmark::RegisterBenchmark("agentry/read/ticket", read_ticket_case);
    benchmark::RegisterBenchmark("agentry/call/ticket", call_ticket_case);
    benchmark::RegisterBenchmark("agentry/read/contact_views", read_views_case);
    benchmark::RegisterBenchmark("agentry/call/contact_views", call_views_case);
    benchmark::RegisterBenchmark("agentry/tool_result/construct", result_case);
}

} // namespace bench::agentry_impl
