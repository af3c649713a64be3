// SPDX-License-Identifier: BSL-1.0
// agentry::metrics: what it counts from scripted events, read as structs, JSON and the
// Prometheus text format; the dashboard figures and alerts; counting from several threads; the
// tables' capacity.
#include "events.hpp"

#include <doctest/doctest.h>

#include <cmath>
#include <fstream>
#include <memory>
#include <sstream>
#include <string>
#include <thread>
#include <vector>

using namespace metrics_test;

namespace {

std::string file(const std::string& name) {
    std::ifstream in(std::string(AGENTRY_METRICS_TEST_DIR) + "/" + name, std::ios::binary);
    REQUIRE_MESSAGE(in, name);
    std::ostringstream text;
    text << in.rdbuf();
    return text.str();
}

} // namespace

TEST_CASE("metrics: the exposition of a scripted sequence, exactly") {
    agentry::metrics m{priced()};
    script(m);
    // script.prom: the calls, requests and runs of script(), checked by hand: search has 3 calls
    // (ok twice, a fallback's answer included, and one tool_error not_found), 5 tries, 1 retry,
    // 1 timeout, 1 fallback, 4 + 4 + 3 argument tokens and 3 + 3 + 2 result tokens, durations
    // 0.02 s, 2 s and 40 s; its cost is 3 x $0.001 + 11 x $0.60/M + 8 x $0.15/M = $0.0030078.
    // gpt-4o-mini: 1800 uncached input x $0.15/M + 200 cached x $0.075/M + 70 output x $0.60/M.
    CHECK(m.prometheus() == file("script.prom"));
}

TEST_CASE("metrics: the snapshot as structs and as JSON") {
    agentry::metrics m{priced()};
    script(m);
    const agentry::metrics_snapshot s = m.snapshot();
    REQUIRE(s.tools.size() == 3);
    const agentry::tool_snapshot& search = s.tools[1];
    CHECK(search.tool == "search");
    CHECK(search.calls == 3);
    REQUIRE(search.outcomes.size() == 2);
    CHECK(search.outcomes[0].outcome == "ok");
    CHECK(search.outcomes[0].count == 2);
    CHECK(search.outcomes[1].outcome == "tool_error");
    CHECK(search.outcomes[1].failure == "not_found");
    CHECK(search.attempts == 5);
    CHECK(search.retries == 1);
    CHECK(search.timeouts == 1);
    CHECK(search.fallbacks == 1);
    CHECK(search.argument_tokens == 11);
    CHECK(search.result_tokens == 8);
    CHECK(search.duration.count == 3);
    CHECK(search.duration.sum == doctest::Approx(42.02));
    CHECK(search.cost == doctest::Approx(0.0030078));
    REQUIRE(s.providers.size() == 1);
    CHECK(s.providers[0].requests == 3);
    CHECK(s.providers[0].retries == 1);
    REQUIRE(s.providers[0].errors.size() == 1);
    CHECK(s.providers[0].errors[0].kind == "rate_limited");
    CHECK(s.providers[0].tokens == usage(2000, 70, 200, 0, 10));
    CHECK(s.providers[0].cost == doctest::Approx(0.000327));
    REQUIRE(s.runs.size() == 2);
    CHECK(s.runs[0].stop == "completed");
    CHECK(s.runs[0].count == 2);
    CHECK(m.json() == file("script.json"));
}

TEST_CASE("metrics: nothing counted gives the families without samples") {
    const agentry::metrics m;
    CHECK(m.json() == R"({"tools":[],"providers":[],"runs":[]})");
    const std::string text = m.prometheus();
    CHECK(text.starts_with("# HELP agentry_tool_calls_total Tool calls by outcome (failure: the failure kind of a "
                           "tool_error).\n# TYPE agentry_tool_calls_total counter\n# HELP agentry_tool_attempts_total"));
    CHECK(text.ends_with("# HELP agentry_runs_total Agent runs by stop reason.\n# TYPE agentry_runs_total counter\n"));
    CHECK(text.find("{") == std::string::npos);
}

TEST_CASE("metrics: traces nothing, and a call without a record is not counted") {
    agentry::metrics m;
    agentry::trace_context parent;
    parent.trace_id[0] = 1;
    parent.span_id[0] = 2;
    agentry::call_event e;
    e.tool = "search";
    const agentry::span_begun span = m.begin_call(&parent, e, t0);
    CHECK(span.context == parent);
    CHECK(span.start == t0);
    m.end_call(span, e, {});
    CHECK(m.snapshot().tools.empty());
}

TEST_CASE("metrics: the dashboard figures and the alerts") {
    agentry::metrics m{priced()};
    script(m);
    const agentry::dashboard d = m.figures();
    CHECK(d.calls == 5);
    CHECK(d.success_rate == 0.6);
    CHECK(d.fallback_rate == 0.2);
    REQUIRE(d.tools.size() == 3);
    CHECK(d.tools[0].tool == "search");
    CHECK(d.tools[0].calls == 3);
    CHECK(d.tools[0].success_rate == doctest::Approx(2.0 / 3));
    CHECK(d.tools[0].mean_latency == doctest::Approx(42.02 / 3));
    // Rank 0.99 x 3 = 2.97 falls in (30, 60] holding the third call: 30 + 30 x 0.97.
    CHECK(d.tools[0].p99_latency == doctest::Approx(59.1));
    CHECK(d.tools[0].fallback_rate == doctest::Approx(1.0 / 3));
    CHECK(d.tools[0].share == 0.6);
    CHECK(d.tools[1].tool == "fetch");
    CHECK(d.tools[1].success_rate == 0);
    CHECK(d.tools[1].p99_latency == doctest::Approx(0.00495));  // 0.005 x 0.99 in the first bucket
    CHECK(d.tools[1].share == 0.2);
    CHECK(d.tools[2].tool == "we\"ird\\\n");
    CHECK(d.tools[2].success_rate == 1);
    CHECK(d.tools[2].mean_latency == doctest::Approx(0.001));
    REQUIRE(d.top_failures.size() == 2);
    CHECK(d.top_failures[0].tool == "fetch");
    CHECK(d.top_failures[0].outcome == "denied");
    CHECK(d.top_failures[0].count == 1);
    CHECK(d.top_failures[1].tool == "search");
    CHECK(d.top_failures[1].outcome == "tool_error");
    CHECK(d.top_failures[1].failure == "not_found");

    CHECK(agentry::alerts(d) ==
          std::vector<std::string>{
              R"(agentry: tool "search": success rate 66.7% is below 95% over 3 calls; see its top failures)",
              R"(agentry: tool "search": p99 latency 59.1 s is above 30 s; give it a timeout or make it faster)",
              R"(agentry: tool "search": fallback rate 33.3% is above 10%; its fallbacks answer for it too often)",
              R"(agentry: tool "fetch": success rate 0% is below 95% over 1 call; see its top failures)"});
    agentry::alert_thresholds lenient;
    lenient.min_success_rate = 0;
    lenient.max_p99_latency = std::chrono::seconds(60);
    lenient.max_fallback_rate = 0.5;
    CHECK(agentry::alerts(d, lenient).empty());
    CHECK(agentry::figures(m.snapshot(), 1).top_failures.size() == 1);
}

TEST_CASE("metrics: histogram quantiles as Prometheus' histogram_quantile") {
    agentry::histogram_snapshot h;
    h.bounds = {1, 2, 4};
    h.counts = {2, 2, 4, 2};
    h.count = 10;
    CHECK(h.quantile(0.5) == doctest::Approx(2.5));  // rank 5: (2, 4], 1 of its 4
    CHECK(h.quantile(0.1) == doctest::Approx(0.5));  // rank 1: (0, 1], 1 of 2
    CHECK(h.quantile(0.99) == 4);                    // rank 9.9: past the last bound
    CHECK(h.quantile(0) == 0);
    CHECK(std::isinf(h.quantile(1.5)));
    h.count = 0;
    CHECK(std::isnan(h.quantile(0.5)));
}

TEST_CASE("metrics: 4 threads x 10,000 calls give exact totals, in lanes of their own or shared") {
    // 8 lanes: a lane each; 1: one thread in it, three in the shared lane; 0: all shared.
    for (std::size_t lanes : {8u, 1u, 0u}) {
        CAPTURE(lanes);
        agentry::metrics_options options;
        options.lanes = lanes;
        agentry::metrics m{options};
        constexpr int per_thread = 10'000;
        std::vector<std::thread> threads;
        for (int t = 0; t != 4; ++t)
            threads.emplace_back([&m, t] {
                for (int i = 0; i != per_thread; ++i) {
                    call c{"tool_" + std::to_string(i % 8)};
                    c.attempts = {tried(c.tool, 1)};
                    if (i % 10 == 0) c.attempts.push_back(tried(c.tool, 2));
                    c.arguments = "12345678";  // 2 tokens
                    c.took = std::chrono::milliseconds(t);
                    record(m, c);
                    request(m, "openai", i % 2 ? "a" : "b", 10ms, usage(3, 1));
                }
            });
        for (std::thread& t : threads) t.join();
        const agentry::metrics_snapshot s = m.snapshot();
        REQUIRE(s.tools.size() == 8);
        for (const agentry::tool_snapshot& t : s.tools) {
            CHECK(t.calls == 5'000);
            CHECK(t.duration.count == 5'000);
            CHECK(t.argument_tokens == 10'000);
        }
        CHECK(s.tools[0].attempts == 5'000 + 1'000);  // tool_0: i % 8 == 0; retried: i % 40 == 0, 250 a thread
        CHECK(s.tools[0].retries == 1'000);
        CHECK(s.tools[0].duration.sum == doctest::Approx(1'250 * (0.0 + 0.001 + 0.002 + 0.003)));
        REQUIRE(s.providers.size() == 2);
        for (const agentry::provider_snapshot& p : s.providers) {
            CHECK(p.requests == 20'000);
            CHECK(p.tokens.input_tokens == 60'000);
            CHECK(p.input_tokens.count == 20'000);
        }
    }
}

TEST_CASE("metrics: a thread gives its lane back when it exits") {
    const auto registry = std::make_shared<agentry::detail::lane_registry>(1);
    agentry::detail::lane first{}, second{}, third{};
    std::thread a([&] {
        first = agentry::detail::current_lane(registry);
        std::thread b([&] { second = agentry::detail::current_lane(registry); });  // while a holds the lane
        b.join();
    });
    a.join();
    std::thread c([&] { third = agentry::detail::current_lane(registry); });
    c.join();
    CHECK(!first.shared);
    CHECK(first.index == 0);
    CHECK(second.shared);
    CHECK(second.index == 1);
    CHECK(!third.shared);
    CHECK(third.index == 0);
    CHECK(registry->taken[0].load() == false);

    // A thread that outlives the metrics object it recorded into exits cleanly.
    std::thread d([] {
        {
            agentry::metrics m;
            record(m, {"search"});
            CHECK(m.snapshot().tools.at(0).calls == 1);
        }
        agentry::metrics other;
        record(other, {"search"});
        CHECK(other.snapshot().tools.at(0).calls == 1);
    });
    d.join();
}

TEST_CASE("metrics: names past a table's capacity are counted under _other") {
    agentry::metrics_options options;
    options.max_tools = 2;
    options.max_providers = 1;
    options.max_runs = 1;
    agentry::metrics m{options};
    for (const char* tool : {"a", "b", "c", "a", "d"}) record(m, {tool});
    request(m, "openai", "x", 1ms);
    request(m, "openai", "y", 1ms);
    run(m, "one", "completed");
    run(m, "two", "completed");
    const agentry::metrics_snapshot s = m.snapshot();
    REQUIRE(s.tools.size() == 3);
    CHECK(s.tools[0].tool == "_other");
    CHECK(s.tools[0].calls == 2);
    CHECK(s.tools[1].tool == "a");
    CHECK(s.tools[1].calls == 2);
    CHECK(s.tools[2].tool == "b");
    REQUIRE(s.providers.size() == 2);
    CHECK(s.providers[0].provider == "_other");
    CHECK(s.providers[0].model == "_other");
    CHECK(s.providers[1].model == "x");
    REQUIRE(s.runs.size() == 2);
    CHECK(s.runs[0].agent == "_other");
    CHECK(s.runs[1].agent == "one");
}

TEST_CASE("metrics: shared by several observers of an observer_list") {
    agentry::metrics a, b;
    agentry::observer_list both{&a, &b};
    record(both, {"search"});
    CHECK(a.snapshot().tools.at(0).calls == 1);
    CHECK(b.snapshot().tools.at(0).calls == 1);
}
