// SPDX-License-Identifier: BSL-1.0
// What an agent tells its observer (telemetry/observer.hpp, agent_options::observer): the run,
// each turn with its provider requests and retries, each call with its record, a plan and its
// steps' calls, a sub-run nested in the call that runs it; the traceparent header each provider
// request carries; nothing sent or told without an observer.
#include "scripted.hpp"

#include <agentry/agent.hpp>
#include <agentry/loop/agent_tool.hpp>
#include <agentry/registry.hpp>
#include <agentry/telemetry/observer.hpp>

#include <doctest/doctest.h>

#include <memory>
#include <mutex>
#include <string>
#include <vector>

using scripted::answer;
using scripted::call;
using scripted::calls;

namespace {

// Spans numbered in the order begun: "s1", "s2", ...; every log line names them.
struct recording_observer final : agentry::observer {
    std::mutex mutex;
    std::vector<std::string> log;
    std::uint8_t next = 0;

    agentry::span_begun make(const agentry::trace_context* parent, clock::time_point start) {
        std::lock_guard lock(mutex);
        agentry::span_begun s;
        s.context.trace_id = parent ? parent->trace_id : std::array<std::uint8_t, 16>{0xaa, 1};
        s.context.span_id = {0, 0, 0, 0, 0, 0, 0, ++next};
        if (parent) s.parent = parent->span_id;
        s.start = start;
        return s;
    }
    static std::string name(const std::array<std::uint8_t, 8>& id) {
        return id[7] == 0 ? std::string("none") : "s" + std::to_string(id[7]);
    }
    void add(std::string line) {
        std::lock_guard lock(mutex);
        log.push_back(std::move(line));
    }

    agentry::span_begun begin_run(const agentry::trace_context* parent, const agentry::run_event& e,
                                  clock::time_point start) noexcept override {
        auto s = make(parent, start);
        add("run " + name(s.context.span_id) + " agent=" + std::string(e.agent) + " provider=" +
            std::string(e.provider) + " model=" + std::string(e.model) + " parent=" + name(s.parent) +
            (e.run_id.size() == 32 ? " id" : " no-id"));
        return s;
    }
    void end_run(const agentry::span_begun& s, const agentry::run_event&, const agentry::run_end_event& e) noexcept override {
        add("end run " + name(s.context.span_id) + " stop=" + std::string(e.stop) + " turns=" + std::to_string(e.turns) +
            " input=" + std::to_string(e.usage.input_tokens) + (e.failed ? " failed=" + std::string(e.error_type) : ""));
    }
    agentry::span_begun begin_turn(const agentry::span_begun& run, const agentry::turn_event& e,
                                   clock::time_point start) noexcept override {
        auto s = make(&run.context, start);
        add("turn " + std::to_string(e.turn) + " " + name(s.context.span_id) + " parent=" + name(s.parent));
        return s;
    }
    void end_turn(const agentry::span_begun& s, const agentry::turn_event&, const agentry::turn_end_event& e) noexcept override {
        add("end turn " + name(s.context.span_id) + " retries=" + std::to_string(e.retries) + " finish=" +
            std::string(e.finish_reason) + " output=" + std::to_string(e.usage.output_tokens) +
            (e.error ? " error=" + std::string(agentry::to_string(e.error->kind)) : ""));
    }
    void provider_request(const agentry::request_event& e) noexcept override {
        add(std::string("request") + (e.retry ? " retry" : "") +
            (e.error ? " error=" + std::string(agentry::to_string(e.error->kind)) : " ok"));
    }
    agentry::span_begun begin_plan(const agentry::span_begun& run, const agentry::plan_event& e,
                                   clock::time_point start) noexcept override {
        auto s = make(&run.context, start);
        add("plan " + name(s.context.span_id) + " parent=" + name(s.parent) + " steps=" + std::to_string(e.steps));
        return s;
    }
    void end_plan(const agentry::span_begun& s, const agentry::plan_event&, const agentry::plan_end_event& e) noexcept override {
        add("end plan " + name(s.context.span_id) + " rounds=" + std::to_string(e.rounds) + (e.failed ? " failed" : ""));
    }
    agentry::span_begun begin_call(const agentry::trace_context* parent, const agentry::call_event& e,
                                   clock::time_point start) noexcept override {
        auto s = make(parent, start);
        add("call " + std::string(e.tool) + " " + name(s.context.span_id) + " parent=" + name(s.parent) +
            (e.plan_step.empty() ? "" : " step=" + std::string(e.plan_step) + " round=" + std::to_string(e.round)));
        return s;
    }
    void end_call(const agentry::span_begun& s, const agentry::call_event&, const agentry::call_end_event& e) noexcept override {
        add("end call " + name(s.context.span_id) + " status=" + std::string(agentry::to_string(e.record->status)) +
            " attempts=" + std::to_string(e.record->attempts.size()) + " result=" + std::string(e.result.substr(0, 20)));
    }
};

// Keeps the traceparent header of each request.
struct header_transport {
    std::shared_ptr<std::vector<std::string>> seen = std::make_shared<std::vector<std::string>>();
    agentry::transport_result send(const agentry::http_request& r) {
        seen->push_back(std::string(agentry::find_header(r.headers, "traceparent")));
        return {{200, {}, ""}, {}};
    }
    agentry::transport_result stream(const agentry::http_request& r, agentry::stream_handlers& h) {
        seen->push_back(std::string(agentry::find_header(r.headers, "traceparent")));
        agentry::http_response head{200, {}, ""};
        if (h.on_head) h.on_head(head);
        return {head, {}};
    }
};

struct named_model : scripted::model {
    static constexpr std::string_view provider_name = "openai";
    std::string model = "gpt-test";
};

struct city {
    std::string name;
};
std::string weather(const city& c) { return "Sunny in " + c.name; }
std::string fail_always(const city&) { throw std::runtime_error("no such city"); }

constexpr agentry::registry tools{agentry::tool<"weather", "The weather of a city.">(weather),
                                  agentry::tool<"broken", "Always fails.">(fail_always)};

std::string lines(const std::vector<std::string>& v) {
    std::string out;
    for (const std::string& line : v) out += line + "\n";
    return out;
}

std::string traceparent_of(const std::array<std::uint8_t, 8>& span) {
    agentry::trace_context c;
    c.trace_id = {0xaa, 1};
    c.span_id = span;
    return c.traceparent();
}

} // namespace

TEST_CASE("observe: a run, its turns with their requests and retries, and its calls, each a span of the run") {
    auto s = std::make_shared<scripted::script>();
    s->turns = {calls({call("c1", "weather", R"({"name":"Paris"})"), call("c2", "broken", R"({"name":"X"})")}),
                scripted::failure(429, true, 0), answer("Sunny.")};
    recording_observer seen;
    header_transport http;
    agentry::agent<agentry::loop_config{.retry = {.max_retries = 2, .initial_backoff = std::chrono::milliseconds(1)}}> agent{
        named_model{{s}}, tools, {.observer = &seen, .name = "forecaster"}, http};
    const agentry::run_result r = agent.run("Weather in Paris?");
    REQUIRE(r.stop == agentry::stop_reason::completed);
    const std::vector<std::string> expected{
        "run s1 agent=forecaster provider=openai model=gpt-test parent=none id",
        "turn 1 s2 parent=s1",
        "request ok",
        "end turn s2 retries=0 finish=tool_calls output=5",
        "call weather s3 parent=s1",
        "end call s3 status=ok attempts=1 result=Sunny in Paris",
        "call broken s4 parent=s1",
        "end call s4 status=tool_error attempts=1 result=broken failed: no su",
        "turn 2 s5 parent=s1",
        "request error=rate_limited",
        "request retry ok",
        "end turn s5 retries=1 finish=stop output=5",
        "end run s1 stop=completed turns=2 input=20",
    };
    CHECK(lines(seen.log) == lines(expected));
    // Each request carries its turn's span; the retry carries the same.
    CHECK(*http.seen == std::vector<std::string>{traceparent_of({0, 0, 0, 0, 0, 0, 0, 2}),
                                                 traceparent_of({0, 0, 0, 0, 0, 0, 0, 5}),
                                                 traceparent_of({0, 0, 0, 0, 0, 0, 0, 5})});
    // The records a report reads: when each turn and call ran.
    REQUIRE(r.turn_timings.size() == 2);
    CHECK(r.turn_timings[0].retries == 0);
    CHECK(r.turn_timings[1].retries == 1);
    CHECK(r.turn_timings[1].started >= r.turn_timings[0].started);
    REQUIRE(r.steps.size() == 2);
    CHECK(r.steps[1].started >= r.steps[0].started);
    CHECK(r.steps[0].started >= r.turn_timings[0].started);
}

TEST_CASE("observe: without an observer no traceparent is sent, and a run that fails ends its span as failed") {
    auto s = std::make_shared<scripted::script>();
    s->turns = {scripted::failure(401, false)};
    header_transport http;
    agentry::agent<agentry::loop_config{}> plain{named_model{{s}}, tools, {}, http};
    CHECK(plain.run("Hi").stop == agentry::stop_reason::provider_error);
    CHECK(*http.seen == std::vector<std::string>{""});

    s->turns = {scripted::failure(401, false)};
    recording_observer seen;
    agentry::agent<agentry::loop_config{}> observed{named_model{{s}}, tools, {.observer = &seen}, http};
    CHECK(observed.run("Hi").stop == agentry::stop_reason::provider_error);
    const std::vector<std::string> expected{
        "run s1 agent=agent provider=openai model=gpt-test parent=none id",
        "turn 1 s2 parent=s1",
        "request error=authentication",
        "end turn s2 retries=0 finish= output=0 error=authentication",
        "end run s1 stop=provider_error turns=0 input=0 failed=provider_error",
    };
    CHECK(lines(seen.log) == lines(expected));
}

TEST_CASE("observe: a plan is a span of the run, and its steps' calls are spans of the plan with their rounds") {
    constexpr agentry::loop_config config{.planning = {.enabled = true}};
    auto s = std::make_shared<scripted::script>();
    const std::string plan =
        R"({"steps":[{"id":"a","tool":"weather","arguments":{"name":"Oslo"},"depends_on":[],"inputs":[]},)"
        R"({"id":"b","tool":"weather","arguments":{"name":"Rome"},"depends_on":["a"],"inputs":[]}]})";
    s->turns = {calls({call("p1", "make_plan", plan)}), answer("Both sunny.")};
    recording_observer seen;
    agentry::agent<config> agent{named_model{{s}}, tools, {.observer = &seen}, header_transport{}};
    const agentry::run_result r = agent.run(agentry::planned{"Oslo, then Rome."});
    REQUIRE(r.stop == agentry::stop_reason::completed);
    const std::vector<std::string> expected{
        "run s1 agent=agent provider=openai model=gpt-test parent=none id",
        "turn 1 s2 parent=s1",
        "request ok",
        "end turn s2 retries=0 finish=tool_calls output=5",
        "plan s3 parent=s1 steps=2",
        "call weather s4 parent=s3 step=a round=1",
        "end call s4 status=ok attempts=1 result=Sunny in Oslo",
        "call weather s5 parent=s3 step=b round=2",
        "end call s5 status=ok attempts=1 result=Sunny in Rome",
        "end plan s3 rounds=2",
        "turn 2 s6 parent=s1",
        "request ok",
        "end turn s6 retries=0 finish=stop output=5",
        "end run s1 stop=completed turns=2 input=20",
    };
    CHECK(lines(seen.log) == lines(expected));
}

namespace {
struct topic {
    std::string text;
};
std::string ask_about(const topic& t) { return "About " + t.text; }
} // namespace

TEST_CASE("observe: a sub-run's span is a child of the call that runs it") {
    auto sub_script = std::make_shared<scripted::script>();
    sub_script->turns = {calls({call("w1", "weather", R"({"name":"Lima"})")}), answer("Lima is sunny.")};
    recording_observer seen;
    agentry::agent<agentry::loop_config{}> researcher{named_model{{sub_script}}, tools,
                                                       {.observer = &seen, .name = "researcher"}, header_transport{}};
    const agentry::registry lead_tools{agentry::agent_tool<"research", "Researches a topic.">(researcher, ask_about)};
    auto s = std::make_shared<scripted::script>();
    s->turns = {calls({call("r1", "research", R"({"text":"Lima"})")}), answer("Sunny.")};
    agentry::agent<agentry::loop_config{}> lead{named_model{{s}}, lead_tools, {.observer = &seen, .name = "lead"},
                                                 header_transport{}};
    REQUIRE(lead.run("Lima?").stop == agentry::stop_reason::completed);
    const std::vector<std::string> expected{
        "run s1 agent=lead provider=openai model=gpt-test parent=none id",
        "turn 1 s2 parent=s1",
        "request ok",
        "end turn s2 retries=0 finish=tool_calls output=5",
        "call research s3 parent=s1",
        "run s4 agent=researcher provider=openai model=gpt-test parent=s3 id",
        "turn 1 s5 parent=s4",
        "request ok",
        "end turn s5 retries=0 finish=tool_calls output=5",
        "call weather s6 parent=s4",
        "end call s6 status=ok attempts=1 result=Sunny in Lima",
        "turn 2 s7 parent=s4",
        "request ok",
        "end turn s7 retries=0 finish=stop output=5",
        "end run s4 stop=completed turns=2 input=20",
        "end call s3 status=ok attempts=1 result=Lima is sunny.",
        "turn 2 s8 parent=s1",
        "request ok",
        "end turn s8 retries=0 finish=stop output=5",
        "end run s1 stop=completed turns=2 input=40",  // the sub-run's usage included
    };
    CHECK(lines(seen.log) == lines(expected));
}

TEST_CASE("observe: an observer that traces nothing (the base class) sees the run and sends no traceparent") {
    struct counting final : agentry::observer {
        int calls = 0, turns = 0, runs = 0;
        void end_call(const agentry::span_begun& s, const agentry::call_event&, const agentry::call_end_event& e) noexcept override {
            calls += !s.context.valid() && e.end >= s.start ? 1 : 0;
        }
        void end_turn(const agentry::span_begun&, const agentry::turn_event&, const agentry::turn_end_event&) noexcept override {
            ++turns;
        }
        void end_run(const agentry::span_begun&, const agentry::run_event&, const agentry::run_end_event&) noexcept override {
            ++runs;
        }
    } seen;
    auto s = std::make_shared<scripted::script>();
    s->turns = {calls({call("c1", "weather", R"({"name":"Paris"})")}), answer("Sunny.")};
    header_transport http;
    agentry::agent<agentry::loop_config{}> agent{named_model{{s}}, tools, {.observer = &seen}, http};
    REQUIRE(agent.run("Paris?").stop == agentry::stop_reason::completed);
    CHECK(seen.calls == 1);
    CHECK(seen.turns == 2);
    CHECK(seen.runs == 1);
    CHECK(*http.seen == std::vector<std::string>{"", ""});
}
