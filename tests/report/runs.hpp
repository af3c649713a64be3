// SPDX-License-Identifier: BSL-1.0
#ifndef AGENTRY_TESTS_REPORT_RUNS_HPP
#define AGENTRY_TESTS_REPORT_RUNS_HPP

// The runs the report tests render, made by agents over scripted models (no network):
//
// planned_run(): a planned run of a travel agent. Turn 1 is retried once (HTTP 429), then
// hands over plan 1: weather in Paris (ok) and in Atlantis (fails: not_found), a quote for
// Paris (fails transiently once, retried), a booking for Paris (approved), and a comparison
// after both weathers (not run: the plan stops at the failure and is re-planned). Turn 2's
// plan 2: weather in Rome, research on Rome (an agent as a tool: a sub-run with its own
// lookup call), a booking for Rome of 5 nights (the approver edits it to 2), then in round 2
// the comparison of Paris (plan 1) and Rome. Turn 3 answers.
//
// durable_run(store): the same tools in a durable run of `store` without planning: turn 1
// (retried once) calls weather for Atlantis, a quote for Lyon, a booking for Lyon and
// research on Lyon (the approver edits the booking to 2 nights); turn 2 answers.

#include "../loop/scripted.hpp"

#include <agentry/agent.hpp>
#include <agentry/loop/agent_tool.hpp>
#include <agentry/outcome.hpp>
#include <agentry/policy/tool_policy.hpp>
#include <agentry/registry.hpp>
#include <agentry/store/durable.hpp>

#include <atomic>
#include <chrono>
#include <memory>
#include <string>

namespace report_test {

struct city_query {
    std::string city;
};
struct weather {
    double temperature;
    std::string sky;
};

inline agentry::outcome<weather> weather_at(const city_query& q) {
    if (q.city == "Atlantis") return agentry::fail(agentry::failure_kind::not_found, "no weather station in Atlantis");
    return weather{q.city == "Paris" ? 18.5 : 24.0, q.city == "Paris" ? "cloudy" : "sunny"};
}

/// quote fails transiently on its first call after a reset, then answers.
inline std::atomic<int> quote_calls{0};

inline agentry::outcome<std::string> quote(const city_query& q) {
    if (quote_calls++ == 0) return agentry::fail(agentry::failure_kind::transient, "the quote service is busy");
    return "120 EUR a night in " + q.city;
}

struct booking {
    std::string city;
    int nights;
};

inline std::string book(const booking& b) { return "booked " + std::to_string(b.nights) + " nights in " + b.city; }

inline double compare(double a, double b) { return b - a; }

inline std::string lookup(const std::string& term) { return "Three museums in " + term + " are open <late> & 'free'"; }

struct research_request {
    std::string topic;
};

inline std::string research_prompt(const research_request& r) { return "Research " + r.topic + "."; }

inline constexpr agentry::tool_policy retried{
    .level = agentry::permission::read_only,
    .idempotent = true,
    .retry = {.attempts = 2, .initial_backoff = std::chrono::milliseconds(1), .max_backoff = std::chrono::milliseconds(1)}};
inline constexpr agentry::tool_policy approved{.level = agentry::permission::write, .needs_approval = true};

inline constexpr agentry::loop_config sub_config{};
using sub_agent = agentry::agent<sub_config>;

inline constexpr agentry::registry sub_tools{agentry::tool<"lookup", "Looks a term up.", "term">(lookup)};

template <class Sub>
auto travel_tools(Sub& sub) {
    return agentry::registry{
        agentry::tool<"weather_at", "Current weather in a city.">(weather_at),
        agentry::with_policy<retried>(agentry::tool<"quote", "A hotel quote for a city.">(quote)),
        agentry::with_policy<approved>(agentry::tool<"book", "Books a hotel.">(book)),
        agentry::tool<"compare", "Difference b - a of two temperatures.", "a", "b">(compare),
        agentry::agent_tool<"research", "Researches a topic.">(sub, research_prompt)};
}

inline constexpr agentry::loop_config lead_config{
    .parallel_tool_calls = true,
    .retry = {.max_retries = 2, .initial_backoff = std::chrono::milliseconds(1), .max_backoff = std::chrono::milliseconds(1)},
    .planning = {.enabled = true}};

/// The approver: approves, but books at most 2 nights.
inline agentry::approval approve_short_stays(const agentry::approval_request& r) {
    if (std::string_view(r.arguments).find("\"nights\":2") != std::string_view::npos) return agentry::approval::approve();
    const std::string city = std::string_view(r.arguments).find("Rome") != std::string_view::npos ? "Rome" : "Lyon";
    return agentry::approval::edit(R"({"city":")" + city + R"(","nights":2})");
}

/// A sub-agent whose one run looks `term` up, then answers.
inline std::unique_ptr<sub_agent> make_researcher(const std::string& term) {
    auto s = std::make_shared<scripted::script>();
    s->turns = {scripted::calls({scripted::call("l1", "lookup", R"({"term":")" + term + R"("})")}, {40, 8}),
                scripted::answer(term + " has three open museums.", {60, 12})};
    return std::make_unique<sub_agent>(scripted::model{s}, sub_tools, "You research.", scripted::quiet_transport{});
}

inline agentry::agent_options lead_options(bool approver = true) {
    agentry::agent_options o;
    o.system_prompt = "You plan trips.";
    if (approver) o.approver = approve_short_stays;
    return o;
}

inline agentry::run_result planned_run() {
    quote_calls = 0;
    auto researcher = make_researcher("Rome");
    const auto tools = travel_tools(*researcher);
    auto s = std::make_shared<scripted::script>();
    const std::string plan1 =
        R"({"steps":[)"
        R"({"id":"s1","tool":"weather_at","arguments":{"city":"Paris"},"depends_on":[],"inputs":[]},)"
        R"({"id":"s2","tool":"weather_at","arguments":{"city":"Atlantis"},"depends_on":[],"inputs":[]},)"
        R"({"id":"s3","tool":"quote","arguments":{"city":"Paris"},"depends_on":[],"inputs":[]},)"
        R"({"id":"s4","tool":"book","arguments":{"city":"Paris","nights":2},"depends_on":[],"inputs":[]},)"
        R"({"id":"s5","tool":"compare","arguments":{"a":0,"b":0},"depends_on":["s1","s2"],)"
        R"("inputs":[{"argument":"/a","step":"s1","pointer":"/temperature"},)"
        R"({"argument":"/b","step":"s2","pointer":"/temperature"}]}]})";
    const std::string plan2 =
        R"({"steps":[)"
        R"({"id":"s6","tool":"weather_at","arguments":{"city":"Rome"},"depends_on":[],"inputs":[]},)"
        R"({"id":"s7","tool":"research","arguments":{"topic":"Rome"},"depends_on":[],"inputs":[]},)"
        R"({"id":"s8","tool":"book","arguments":{"city":"Rome","nights":5},"depends_on":[],"inputs":[]},)"
        R"({"id":"s9","tool":"compare","arguments":{"a":0,"b":0},"depends_on":["s1","s6"],)"
        R"("inputs":[{"argument":"/a","step":"s1","pointer":"/temperature"},)"
        R"({"argument":"/b","step":"s6","pointer":"/temperature"}]}]})";
    s->turns = {scripted::failure(429, true, 1),
                scripted::calls({scripted::call("p1", "make_plan", plan1)}, {200, 60}),
                scripted::calls({scripted::call("p2", "make_plan", plan2)}, {320, 70}),
                scripted::answer("Rome is 5.5 degrees warmer; 2 nights booked in Paris and in Rome.", {400, 30})};
    agentry::agent<lead_config> lead(scripted::model{s}, tools, lead_options(), scripted::quiet_transport{});
    return lead.run(agentry::planned{"Plan a warm city break."});
}

/// Starts and runs a durable run of `store` (see the top of this file); returns its id.
/// Without the approver it stops before turn 1's calls, waiting for a decision on the booking.
template <class Store>
std::string durable_run(Store& store, bool approver = true) {
    quote_calls = 0;
    auto researcher = make_researcher("Lyon");
    const auto tools = travel_tools(*researcher);
    auto s = std::make_shared<scripted::script>();
    s->turns = {scripted::failure(429, true, 1),
                scripted::calls({scripted::call("c1", "weather_at", R"({"city":"Atlantis"})"),
                                 scripted::call("c2", "quote", R"({"city":"Lyon"})"),
                                 scripted::call("c3", "book", R"({"city":"Lyon","nights":4})"),
                                 scripted::call("c4", "research", R"({"topic":"Lyon"})")},
                                {150, 40}),
                scripted::answer("Lyon: 2 nights booked; no weather for Atlantis.", {300, 20})};
    agentry::agent<lead_config> lead(scripted::model{s}, tools, lead_options(approver), scripted::quiet_transport{});
    const std::string id = agentry::start_run(store, lead, "Plan a city break in Lyon.");
    agentry::resume_run(store, lead, id);
    return id;
}

/// Keeps the planned run in `store` as a durable run's checkpoints would: a state, then done.
template <class Store>
std::string stored_planned_run(Store& store, const agentry::run_result& r) {
    const std::string id = store.create_run(
        agentry::detail::write_body(agentry::detail::state_of({}, r, r.wall_time)));
    store.finish(id, agentry::detail::write_body(agentry::run_outcome{r.stop, r.text}));
    return id;
}

} // namespace report_test

#endif
