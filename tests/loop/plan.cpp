// SPDX-License-Identifier: BSL-1.0
// Planned runs, agent::run(agentry::planned{...}): the plan schema, plan checks answered and
// repaired, the graph run in rounds with concurrency shown by the tools' own records, the
// failure policies, a typed answer read after the plan, and the same runs through each
// provider's wire format over a replay transport.

#include "scripted.hpp"

#include <agentry/agent.hpp>
#include <agentry/outcome.hpp>
#include <agentry/policy/tool_policy.hpp>
#include <agentry/provider/anthropic.hpp>
#include <agentry/provider/gemini.hpp>
#include <agentry/provider/ollama.hpp>
#include <agentry/provider/openai.hpp>
#include <agentry/registry.hpp>
#include <agentry/transport/replay.hpp>

#include <doctest/doctest.h>

#include <algorithm>
#include <chrono>
#include <condition_variable>
#include <stdexcept>
#include <mutex>
#include <string>
#include <type_traits>
#include <vector>

namespace {

using clock_type = std::chrono::steady_clock;

// What the tools record: each call's tool, argument and the times it started and ended.
struct call_span {
    std::string what;
    clock_type::time_point start, end;
};

struct recorder {
    std::mutex mutex;
    std::condition_variable cv;
    std::vector<call_span> spans;
    int weather_started = 0;
    // weather_at waits (at most 10 s, a bound, not a measure) until this many calls of it have
    // started, so that calls run one after the other never overlap.
    int rendezvous = 0;

    void reset(int meet = 0) {
        std::lock_guard lock(mutex);
        spans.clear();
        weather_started = 0;
        rendezvous = meet;
    }
    call_span find(const std::string& what) {
        std::lock_guard lock(mutex);
        for (const call_span& s : spans)
            if (s.what == what) return s;
        return {};
    }
};

recorder rec;

struct city_query {
    std::string city;
};
struct weather {
    double temperature;
    std::string sky;
};

agentry::outcome<weather> weather_at(const city_query& q) {
    const auto start = clock_type::now();
    {
        std::unique_lock lock(rec.mutex);
        ++rec.weather_started;
        rec.cv.notify_all();
        if (rec.rendezvous != 0)
            rec.cv.wait_for(lock, std::chrono::seconds(10), [] { return rec.weather_started >= rec.rendezvous; });
    }
    agentry::outcome<weather> out = q.city == "Atlantis"
                                        ? agentry::outcome<weather>(agentry::fail(agentry::failure_kind::not_found,
                                                                                  "no weather station in Atlantis"))
                                        : weather{q.city == "Paris" ? 18.5 : 24.0, q.city == "Paris" ? "cloudy" : "sunny"};
    std::lock_guard lock(rec.mutex);
    rec.spans.push_back({"weather " + q.city, start, clock_type::now()});
    return out;
}

struct comparison {
    double difference;
};

comparison compare(double a, double b) {
    const auto start = clock_type::now();
    std::lock_guard lock(rec.mutex);
    rec.spans.push_back({"compare", start, clock_type::now()});
    return {b - a};
}

constexpr agentry::registry tools{
    agentry::tool<"weather_at", "Current weather in a city.">(weather_at),
    agentry::tool<"compare", "Difference b - a of two temperatures.", "a", "b">(compare),
};

constexpr agentry::loop_config parallel{.parallel_tool_calls = true, .planning = {.enabled = true}};

// An agent of config C over a scripted model; `options` with the system prompt "You are a test.".
template <agentry::loop_config C = parallel>
struct plan_fixture {
    std::shared_ptr<scripted::script> s = std::make_shared<scripted::script>();
    agentry::agent<C> agent;

    explicit plan_fixture(agentry::agent_options options = {})
        : agent{scripted::model{s}, tools, with_prompt(std::move(options)), scripted::quiet_transport{}} {}

    static agentry::agent_options with_prompt(agentry::agent_options options) {
        options.system_prompt = "You are a test.";
        return options;
    }

    plan_fixture& plan(std::string json) {
        s->turns.push_back(scripted::calls({scripted::call("p" + std::to_string(s->turns.size()), "make_plan", json)}));
        return *this;
    }
    plan_fixture& answer(std::string text) {
        s->turns.push_back(scripted::answer(std::move(text)));
        return *this;
    }
    // The text of the last tool result sent to the model in request `n`.
    std::string told(std::size_t n) const {
        REQUIRE(s->requests.size() > n);
        const auto& m = s->requests[n].messages;
        REQUIRE(!m.empty());
        REQUIRE(m.back().role == agentry::role::tool);
        return m.back().text;
    }
};

bool contains(std::string_view text, std::string_view part) { return text.find(part) != std::string_view::npos; }

// s1, s2 independent; s3 compares their temperatures.
const std::string diamond =
    R"({"steps":[)"
    R"({"id":"s1","tool":"weather_at","arguments":{"city":"Paris"},"depends_on":[],"inputs":[]},)"
    R"({"id":"s2","tool":"weather_at","arguments":{"city":"Rome"},"depends_on":[],"inputs":[]},)"
    R"({"id":"s3","tool":"compare","arguments":{"a":0,"b":0},"depends_on":["s1","s2"],)"
    R"("inputs":[{"argument":"/a","step":"s1","pointer":"/temperature"},)"
    R"({"argument":"/b","step":"s2","pointer":"/temperature"}]}]})";

void check_diamond(const agentry::run_result& r) {
    CHECK(r.stop == agentry::stop_reason::completed);
    CHECK(r.text == "Rome is 5.5 degrees warmer.");
    REQUIRE(r.plans.size() == 1);
    const agentry::plan_record& p = r.plans[0];
    CHECK(p.errors.empty());
    CHECK(p.rounds == 2);
    REQUIRE(p.steps.size() == 3);
    for (const agentry::plan_step_record& s : p.steps) CHECK(s.status == agentry::plan_step_status::ok);
    CHECK(p.steps[0].round == 1);
    CHECK(p.steps[1].round == 1);
    CHECK(p.steps[2].round == 2);
    CHECK(p.steps[2].depends_on == std::vector<std::string>{"s1", "s2"});
    CHECK(p.steps[2].arguments == R"({"a":18.5,"b":24})");
    CHECK(p.steps[2].result == R"({"difference":5.5})");
    CHECK(r.steps.size() == 3);
    // The two independent steps overlapped; the third started after both had ended.
    const call_span paris = rec.find("weather Paris"), rome = rec.find("weather Rome"), both = rec.find("compare");
    CHECK(paris.start < rome.end);
    CHECK(rome.start < paris.end);
    CHECK(both.start >= paris.end);
    CHECK(both.start >= rome.end);
}

} // namespace

TEST_CASE("plan: the schema is a constant per dialect, with the tools as an enum and strict shapes") {
    constexpr std::string_view strict = agentry::plan_definitions<agentry::dialect::openai_strict, decltype(tools)>();
    static_assert(strict.starts_with(R"([{"type":"function","function":{"name":"make_plan",)"));
    static_assert(strict.ends_with(R"("required":["steps"],"additionalProperties":false},"strict":true}}])"));
    CHECK(contains(strict, R"("items":{"anyOf":[{"type":"object","description":"Current weather in a city.")"));
    CHECK(contains(strict, R"("tool":{"type":"string","enum":["weather_at"]},"arguments":{"type":"object","properties":{"city":{"type":"string"}},"required":["city"],"additionalProperties":false})"));
    CHECK(contains(strict, R"("required":["id","tool","arguments","depends_on","inputs"],"additionalProperties":false)"));
    constexpr std::string_view gemini = agentry::plan_definitions<agentry::dialect::gemini, decltype(tools)>();
    CHECK(gemini.starts_with(R"([{"functionDeclarations":[{"name":"make_plan",)"));
    CHECK(contains(gemini, R"("tool":{"type":"STRING","enum":["compare"]})"));
    CHECK_FALSE(contains(gemini, "additionalProperties"));
    constexpr std::string_view anthropic = agentry::plan_definitions<agentry::dialect::anthropic, decltype(tools)>();
    CHECK(anthropic.starts_with(R"([{"name":"make_plan","description":)"));
    CHECK(contains(anthropic, R"(,"input_schema":{"type":"object","properties":{"steps":)"));
}

TEST_CASE("plan: two independent steps run concurrently, the third after both, then the model answers") {
    rec.reset(2);
    plan_fixture<> t;
    t.plan(diamond).answer("Rome is 5.5 degrees warmer.");
    const agentry::run_result r = t.agent.run(agentry::planned{"Which is warmer, Paris or Rome?"});
    check_diamond(r);
    REQUIRE(t.s->requests.size() == 2);
    CHECK(t.s->requests[0].choice == agentry::tool_choice_kind::one);
    CHECK(t.s->requests[1].choice == agentry::tool_choice_kind::none);
    const std::string report = t.told(1);
    // A line, then the JSON array of the steps.
    CHECK(report.starts_with("The plan ran. The steps:\n[{"));
    CHECK(report.ends_with("}]"));
    CHECK(contains(report, R"({"id":"s3","tool":"compare","status":"ok","result":{"difference":5.5}})"));
    CHECK(r.steps[0].id.ends_with("/s1"));
    CHECK(r.turns == 2);
}

// A provider configured so that no request may force a tool (Anthropic with manual thinking).
struct unforced_model : scripted::model {
    bool forces_tools() const noexcept { return false; }
};

TEST_CASE("plan: a provider that takes no forced tool is asked for the plan with the plan tool alone, not forced") {
    rec.reset(2);
    auto s = std::make_shared<scripted::script>();
    agentry::agent<parallel> agent{unforced_model{{s}}, tools, "You are a test.", scripted::quiet_transport{}};
    s->turns.push_back(scripted::calls({scripted::call("p0", "make_plan", diamond)}));
    s->turns.push_back(scripted::answer("Rome is 5.5 degrees warmer."));
    const agentry::run_result r = agent.run(agentry::planned{"Which is warmer, Paris or Rome?"});
    check_diamond(r);
    REQUIRE(s->requests.size() == 2);
    CHECK(s->requests[0].choice == agentry::tool_choice_kind::automatic);
    CHECK(s->requests[1].choice == agentry::tool_choice_kind::none);
}

TEST_CASE("plan: without parallel tool calls the steps of a round run one at a time") {
    rec.reset();
    plan_fixture<agentry::loop_config{.planning = {.enabled = true}}> t;
    t.plan(diamond).answer("Rome is 5.5 degrees warmer.");
    const agentry::run_result r = t.agent.run(agentry::planned{"Which is warmer?"});
    REQUIRE(r.plans.size() == 1);
    CHECK(r.plans[0].rounds == 2);
    const call_span paris = rec.find("weather Paris"), rome = rec.find("weather Rome");
    CHECK((paris.end <= rome.start || rome.end <= paris.start));
}

TEST_CASE("plan: each kind of plan error is answered precisely, and the repaired plan runs") {
    struct error_case {
        const char* name;
        std::string plan;
        std::string expected;
    };
    const std::string ok_step = R"({"id":"s1","tool":"weather_at","arguments":{"city":"Paris"},"depends_on":[],"inputs":[]})";
    const std::vector<error_case> cases{
        {"unreadable", R"({"steps":[{"id":"s1","tool":"weather_at","arguments":{}}]})",
         "the plan cannot be read: /steps/0/depends_on: missing required property"},
        {"no steps", R"({"steps":[]})", "the plan has no steps; give at least one"},
        {"unknown tool",
         R"({"steps":[{"id":"s1","tool":"weather","arguments":{"city":"Paris"},"depends_on":[],"inputs":[]}]})",
         R"(step 0 ("s1"): the tool "weather" does not exist)"},
        {"duplicate id", R"({"steps":[)" + ok_step + "," + ok_step + "]}",
         R"(step 1 ("s1"): the id "s1" is also the id of step 0; give each step a unique id)"},
        {"empty id", R"({"steps":[{"id":"","tool":"weather_at","arguments":{"city":"Paris"},"depends_on":[],"inputs":[]}]})",
         "step 0: its id is empty; give it a unique id"},
        {"dangling dependency",
         R"({"steps":[{"id":"s1","tool":"weather_at","arguments":{"city":"Paris"},"depends_on":["s9"],"inputs":[]}]})",
         R"(step 0 ("s1"): depends_on names "s9", which is not a step of this plan nor one that already ran)"},
        {"dangling input",
         R"({"steps":[{"id":"s1","tool":"compare","arguments":{"a":1,"b":2},"depends_on":[],"inputs":[{"argument":"/a","step":"s7","pointer":""}]}]})",
         R"(step 0 ("s1"): inputs[0]: it reads step "s7", which is not a step of this plan nor one that already ran (a dangling reference))"},
        {"forward reference",
         R"({"steps":[{"id":"s1","tool":"compare","arguments":{"a":1,"b":2},"depends_on":[],"inputs":[{"argument":"/a","step":"s2","pointer":"/temperature"}]},)"
         R"({"id":"s2","tool":"weather_at","arguments":{"city":"Paris"},"depends_on":[],"inputs":[]}]})",
         R"(step 0 ("s1"): inputs[0]: it reads step "s2", which is not in depends_on, so it may not have run yet (a forward reference); add "s2" to depends_on)"},
        {"cycle",
         R"({"steps":[{"id":"s1","tool":"weather_at","arguments":{"city":"Paris"},"depends_on":["s2"],"inputs":[]},)"
         R"({"id":"s2","tool":"weather_at","arguments":{"city":"Rome"},"depends_on":["s1"],"inputs":[]}]})",
         R"(the steps depend on each other in a cycle: "s1" -> "s2" -> "s1"; remove one of these dependencies)"},
        {"self dependency",
         R"({"steps":[{"id":"s1","tool":"weather_at","arguments":{"city":"Paris"},"depends_on":["s1"],"inputs":[]}]})",
         R"(step 0 ("s1"): it depends on itself; remove "s1" from its depends_on)"},
        {"malformed pointer",
         R"({"steps":[)" + ok_step +
             R"(,{"id":"s2","tool":"compare","arguments":{"a":1,"b":2},"depends_on":["s1"],"inputs":[{"argument":"a","step":"s1","pointer":"/x~2"}]}]})",
         R"(step 1 ("s2"): inputs[0]: pointer "/x~2" is not a JSON Pointer)"},
        {"argument without a place",
         R"({"steps":[)" + ok_step +
             R"(,{"id":"s2","tool":"compare","arguments":{"a":1,"b":2},"depends_on":["s1"],"inputs":[{"argument":"/x/y","step":"s1","pointer":""}]}]})",
         R"(step 1 ("s2"): inputs[0]: argument "/x/y" has no place in the step's arguments)"},
        {"nothing at the input pointer",
         R"({"steps":[)" + ok_step +
             R"(,{"id":"s2","tool":"compare","arguments":{"a":1,"b":2},"depends_on":["s1"],"inputs":[{"argument":"/a","step":"s1","pointer":"/wind"}]}]})",
         R"(step "s2", inputs[0]: the result of step "s1" has nothing at "/wind"; its result is {"temperature":18.5,"sky":"cloudy"})"},
        {"arguments invalid after substitution",
         R"({"steps":[)" + ok_step +
             R"(,{"id":"s2","tool":"compare","arguments":{"a":1,"b":2},"depends_on":["s1"],"inputs":[{"argument":"/a","step":"s1","pointer":"/sky"}]}]})",
         R"(step "s2" (compare): its arguments, with the inputs set, are {"a":"cloudy","b":2}, which the tool refuses: compare: invalid arguments: /a: )"},
        {"too many steps", [] {
             std::string p = R"({"steps":[)";
             for (int i = 0; i != 33; ++i)
                 p += (i ? "," : "") + std::string(R"({"id":"s)") + std::to_string(i) +
                      R"(","tool":"weather_at","arguments":{"city":"Paris"},"depends_on":[],"inputs":[]})";
             return p + "]}";
         }(),
         "the plan has 33 steps, more than the 32 allowed; plan fewer steps"},
    };
    for (const error_case& c : cases) {
        const std::string name = c.name;
        CAPTURE(name);
        rec.reset();
        plan_fixture<> t;
        // The repaired plan may reuse s1 only when s1 has not run.
        const bool s1_ran = contains(c.name, "nothing at") || contains(c.name, "substitution");
        const std::string repaired = s1_ran ? R"({"steps":[{"id":"s3","tool":"weather_at","arguments":{"city":"Rome"},"depends_on":["s1"],"inputs":[]}]})"
                                            : diamond;
        t.plan(c.plan).plan(repaired).answer("Rome is 5.5 degrees warmer.");
        const agentry::run_result r = t.agent.run(agentry::planned{"Which is warmer?"});
        CHECK(r.stop == agentry::stop_reason::completed);
        REQUIRE(r.plans.size() == 2);
        REQUIRE_FALSE(r.plans[0].errors.empty());
        CHECK_MESSAGE(contains(r.plans[0].errors.front(), c.expected), r.plans[0].errors.front());
        CHECK(r.plans[1].errors.empty());
        const std::string told = t.told(1);
        CHECK(contains(told, c.expected));
        CHECK(told.starts_with(s1_ran ? "The plan stopped: " : "The plan was not run: "));
        CHECK(contains(told, "Call make_plan again with a corrected plan"));
        for (const agentry::plan_step_record& s : r.plans[1].steps) CHECK(s.status == agentry::plan_step_status::ok);
        CHECK(t.s->requests[1].choice == agentry::tool_choice_kind::one);
    }
}

TEST_CASE("plan: an unknown tool is answered with the closest name and the list") {
    plan_fixture<> t;
    t.plan(R"({"steps":[{"id":"s1","tool":"weather_a","arguments":{"city":"Paris"},"depends_on":[],"inputs":[]}]})")
        .plan(diamond)
        .answer("ok");
    const agentry::run_result r = t.agent.run(agentry::planned{"?"});
    REQUIRE(r.plans.size() == 2);
    CHECK(r.plans[0].errors.front() ==
          R"(step 0 ("s1"): the tool "weather_a" does not exist; did you mean "weather_at"? The tools: weather_at, compare)");
}

TEST_CASE("plan: a reply calling another tool than make_plan is answered and asked again") {
    plan_fixture<> t;
    t.s->turns.push_back(scripted::calls({scripted::call("c1", "weather_at", R"({"city":"Paris"})")}));
    t.plan(diamond).answer("Rome is 5.5 degrees warmer.");
    rec.reset();
    const agentry::run_result r = t.agent.run(agentry::planned{"?"});
    CHECK(r.stop == agentry::stop_reason::completed);
    REQUIRE(r.plans.size() == 2);
    CHECK(r.plans[0].errors.front() ==
          R"(the reply called "weather_at", not make_plan; only make_plan can be called in planning mode)");
    CHECK(contains(t.told(1), "only make_plan can be called in planning mode"));
}

TEST_CASE("plan: plans still invalid past max_repairs stop the run") {
    plan_fixture<agentry::loop_config{.planning = {.enabled = true, .max_repairs = 1}}> t;
    t.plan(R"({"steps":[]})").plan(R"({"steps":[]})").answer("never");
    const agentry::run_result r = t.agent.run(agentry::planned{"?"});
    CHECK(r.stop == agentry::stop_reason::plan_invalid);
    CHECK(r.text == "The model's plan was still invalid after 1 repairs: the plan has no steps; give at least one");
    CHECK(r.plans.size() == 2);
    // Every call has its result: the conversation stays valid.
    CHECK(t.agent.conversation().back().role == agentry::role::tool);
}

const std::string with_failure =
    R"({"steps":[)"
    R"({"id":"s1","tool":"weather_at","arguments":{"city":"Paris"},"depends_on":[],"inputs":[]},)"
    R"({"id":"s2","tool":"weather_at","arguments":{"city":"Atlantis"},"depends_on":[],"inputs":[]},)"
    R"({"id":"s3","tool":"compare","arguments":{"a":0,"b":0},"depends_on":["s1","s2"],)"
    R"("inputs":[{"argument":"/a","step":"s1","pointer":"/temperature"},{"argument":"/b","step":"s2","pointer":"/temperature"}]},)"
    R"({"id":"s4","tool":"compare","arguments":{"a":1,"b":0},"depends_on":["s3"],"inputs":[]},)"
    R"({"id":"s5","tool":"weather_at","arguments":{"city":"Rome"},"depends_on":["s1"],"inputs":[]}]})";

TEST_CASE("plan: replan after a failure shows the failure, and the new plan uses the finished results") {
    rec.reset();
    plan_fixture<> t;
    t.plan(with_failure)
        .plan(R"({"steps":[{"id":"r1","tool":"weather_at","arguments":{"city":"Rome"},"depends_on":[],"inputs":[]},)"
              R"({"id":"r2","tool":"compare","arguments":{"a":0,"b":0},"depends_on":["s1","r1"],)"
              R"("inputs":[{"argument":"/a","step":"s1","pointer":"/temperature"},{"argument":"/b","step":"r1","pointer":"/temperature"}]}]})")
        .answer("Atlantis has no data; Rome is 5.5 degrees warmer than Paris.");
    const agentry::run_result r = t.agent.run(agentry::planned{"Compare Paris with Atlantis, or else Rome."});
    CHECK(r.stop == agentry::stop_reason::completed);
    REQUIRE(r.plans.size() == 2);
    const auto& first = r.plans[0].steps;
    REQUIRE(first.size() == 5);
    CHECK(first[0].status == agentry::plan_step_status::ok);
    CHECK(first[1].status == agentry::plan_step_status::failed);
    CHECK(first[1].call_status == agentry::tool_status::tool_error);
    CHECK(first[1].result == "not_found: weather_at failed: no weather station in Atlantis (what the arguments name does not exist; "
                             "check it or ask the user)");
    CHECK(first[2].status == agentry::plan_step_status::not_run);
    CHECK(first[4].status == agentry::plan_step_status::not_run);  // its round never came
    const std::string told = t.told(1);
    CHECK(told.starts_with("Some steps failed, and the plan stopped there. Call make_plan again with a plan for the rest"));
    CHECK(contains(told, R"({"id":"s2","tool":"weather_at","status":"failed","error":"not_found: weather_at failed: no weather station in Atlantis)"));
    CHECK(contains(told, R"({"id":"s3","tool":"compare","status":"not_run","reason":"the plan stopped before this step"})"));
    REQUIRE(r.plans[1].steps.size() == 2);
    CHECK(r.plans[1].steps[1].arguments == R"({"a":18.5,"b":24})");
    CHECK(r.plans[1].steps[1].status == agentry::plan_step_status::ok);
    CHECK(r.text == "Atlantis has no data; Rome is 5.5 degrees warmer than Paris.");
}

TEST_CASE("plan: failures past max_replans stop the run") {
    rec.reset();
    plan_fixture<agentry::loop_config{.planning = {.enabled = true, .max_replans = 0}}> t;
    t.plan(with_failure).answer("never");
    const agentry::run_result r = t.agent.run(agentry::planned{"?"});
    CHECK(r.stop == agentry::stop_reason::plan_failed);
    CHECK(r.text == R"(A step of the plan failed after 0 re-plans: "s2" (weather_at): not_found: weather_at failed: no )"
                    "weather station in Atlantis (what the arguments name does not exist; check it or ask the user)");
    CHECK(t.agent.conversation().back().role == agentry::role::tool);
}

TEST_CASE("plan: skip_dependents skips what depends on the failure, runs the rest, then answers") {
    rec.reset();
    plan_fixture<agentry::loop_config{.parallel_tool_calls = true,
                                 .planning = {.enabled = true, .on_failure = agentry::plan_failure::skip_dependents}}>
        t;
    t.plan(with_failure).answer("Only Paris and Rome have data.");
    const agentry::run_result r = t.agent.run(agentry::planned{"?"});
    CHECK(r.stop == agentry::stop_reason::completed);
    CHECK(r.text == "Only Paris and Rome have data.");
    REQUIRE(r.plans.size() == 1);
    const auto& steps = r.plans[0].steps;
    CHECK(steps[0].status == agentry::plan_step_status::ok);
    CHECK(steps[1].status == agentry::plan_step_status::failed);
    CHECK(steps[2].status == agentry::plan_step_status::skipped);
    CHECK(steps[2].result == R"(it depends on step "s2", which failed)");
    CHECK(steps[3].status == agentry::plan_step_status::skipped);
    CHECK(steps[3].result == R"(it depends on step "s3", which was skipped)");
    CHECK(steps[4].status == agentry::plan_step_status::ok);
    CHECK(steps[4].round == 2);
    CHECK(r.plans[0].rounds == 2);
    const std::string told = t.told(1);
    CHECK(told.starts_with("The plan ran. The steps:\n"));
    CHECK(contains(told, R"({"id":"s3","tool":"compare","status":"skipped","reason":"it depends on step \"s2\", which failed"})"));
    CHECK(t.s->requests[1].choice == agentry::tool_choice_kind::none);
}

TEST_CASE("plan: stop ends the run at the first failure") {
    rec.reset();
    plan_fixture<agentry::loop_config{.planning = {.enabled = true, .on_failure = agentry::plan_failure::stop}}> t;
    t.plan(with_failure).answer("never");
    const agentry::run_result r = t.agent.run(agentry::planned{"?"});
    CHECK(r.stop == agentry::stop_reason::plan_failed);
    CHECK(r.text == R"(A step of the plan failed: "s2" (weather_at): not_found: weather_at failed: no weather station in Atlantis (what )"
                    "the arguments name does not exist; check it or ask the user)");
    CHECK(r.turns == 1);
    REQUIRE(r.plans.size() == 1);
    CHECK(r.plans[0].steps[4].status == agentry::plan_step_status::not_run);
    CHECK(t.agent.conversation().back().role == agentry::role::tool);
    CHECK(contains(t.agent.conversation().back().text, "Some steps failed, and the plan stopped there. The steps:\n"));
}

TEST_CASE("plan: a model that answers without a plan ends the run with its answer") {
    plan_fixture<> t;
    t.answer("No tools needed.");
    const agentry::run_result r = t.agent.run(agentry::planned{"Hi"});
    CHECK(r.stop == agentry::stop_reason::completed);
    CHECK(r.text == "No tools needed.");
    CHECK(r.plans.empty());
}

namespace {

struct warmer {
    std::string city;
    double difference;
};

} // namespace

TEST_CASE("plan: a planned run of an agent with a typed output returns typed_result, the answer read") {
    rec.reset(2);
    auto s = std::make_shared<scripted::script>();
    agentry::agent<parallel, warmer> agent{scripted::model{s}, tools, "You are a test.", scripted::quiet_transport{}};
    s->turns = {scripted::calls({scripted::call("p1", "make_plan", diamond)}),
                scripted::answer(R"({"city":"Rome","difference":5.5})")};
    const auto r = agent.run(agentry::planned{"Which is warmer, Paris or Rome?"});
    static_assert(std::is_same_v<std::remove_cvref_t<decltype(r)>, agentry::typed_result<warmer>>);
    CHECK(r.stop == agentry::stop_reason::completed);
    REQUIRE(r.output);
    CHECK(r.output->city == "Rome");
    CHECK(r.output->difference == 5.5);
    REQUIRE(r.plans.size() == 1);
    CHECK(r.plans[0].steps.size() == 3);
    CHECK(r.plans[0].steps[2].result == R"({"difference":5.5})");

    // An answer that is not a `warmer` gives no output.
    rec.reset(2);
    s->turns = {scripted::calls({scripted::call("p2", "make_plan", diamond)}), scripted::answer("Rome.")};
    const agentry::typed_result<warmer> bad = agent.run(agentry::planned{"Which is warmer?"});
    CHECK(bad.stop == agentry::stop_reason::invalid_output_exhausted);
    CHECK_FALSE(bad.output);
    CHECK(bad.plans.size() == 1);
}

TEST_CASE("plan: max_turns, provider errors and refusals stop the run with their reasons") {
    plan_fixture<agentry::loop_config{.max_turns = 1, .planning = {.enabled = true}}> turns;
    rec.reset();
    turns.plan(diamond).answer("never");
    agentry::run_result r = turns.agent.run(agentry::planned{"?"});
    CHECK(r.stop == agentry::stop_reason::max_turns);
    CHECK(r.plans.size() == 1);

    plan_fixture<agentry::loop_config{.retry = {.max_retries = 0}, .planning = {.enabled = true}}> failing;
    failing.s->turns.push_back(scripted::failure(401, false));
    r = failing.agent.run(agentry::planned{"?"});
    CHECK(r.stop == agentry::stop_reason::provider_error);
    CHECK(r.text == "HTTP 401");

    plan_fixture<> refusing;
    agentry::completion c;
    c.finish = agentry::finish_reason::refusal;
    c.refusal = "I can't.";
    refusing.s->turns.push_back({c, {}});
    r = refusing.agent.run(agentry::planned{"?"});
    CHECK(r.stop == agentry::stop_reason::refused);
    CHECK(r.text == "I can't.");
}

TEST_CASE("plan: a second input whose place the first one removed is answered as a plan error") {
    rec.reset();
    plan_fixture<> t;
    t.plan(R"({"steps":[{"id":"s1","tool":"weather_at","arguments":{"city":"Paris"},"depends_on":[],"inputs":[]},)"
           R"({"id":"s2","tool":"compare","arguments":{"a":{"x":1},"b":2},"depends_on":["s1"],)"
           R"("inputs":[{"argument":"/a","step":"s1","pointer":"/temperature"},{"argument":"/a/x","step":"s1","pointer":"/temperature"}]}]})")
        .plan(R"({"steps":[{"id":"s3","tool":"compare","arguments":{"a":0,"b":2},"depends_on":["s1"],)"
              R"("inputs":[{"argument":"/a","step":"s1","pointer":"/temperature"}]}]})")
        .answer("done");
    const agentry::run_result r = t.agent.run(agentry::planned{"?"});
    CHECK(r.stop == agentry::stop_reason::completed);
    REQUIRE(r.plans.size() == 2);
    CHECK(r.plans[0].errors.front() ==
          R"(step "s2", inputs[1]: argument "/a/x" has no place in the arguments once the inputs before it are set )"
          R"(({"a":18.5,"b":2}); point at a member of arguments)");
    CHECK(r.plans[1].steps[0].arguments == R"({"a":18.5,"b":2})");
}

constexpr agentry::registry approved_tools{
    agentry::with_policy<agentry::tool_policy{.needs_approval = true}>(
        agentry::tool<"weather_at", "Current weather in a city.">(weather_at)),
};

TEST_CASE("plan: approval applies to steps, and without an approver a step needing it fails as denied") {
    const std::string one = R"({"steps":[{"id":"s1","tool":"weather_at","arguments":{"city":"Paris"},"depends_on":[],"inputs":[]}]})";
    constexpr agentry::loop_config stop_on_failure{
        .planning = {.enabled = true, .on_failure = agentry::plan_failure::stop}};
    rec.reset();
    auto s = std::make_shared<scripted::script>();
    agentry::agent<stop_on_failure> agent{scripted::model{s}, approved_tools, "You are a test.",
                                          scripted::quiet_transport{}};
    s->turns.push_back(scripted::calls({scripted::call("p1", "make_plan", one)}));
    agentry::run_result r = agent.run(agentry::planned{"?"});
    CHECK(r.stop == agentry::stop_reason::plan_failed);
    REQUIRE(r.plans.size() == 1);
    CHECK(r.plans[0].steps[0].call_status == agentry::tool_status::denied);
    CHECK(r.plans[0].steps[0].result ==
          "Not run: weather_at needs approval, and a plan runs only with an approver (agent_options::approver).");
    CHECK(rec.find("weather Paris").what.empty());

    // The same agent with an approver (agent_options::approver) asks it for the step.
    std::vector<std::string> asked;
    agentry::agent<stop_on_failure> approving{
        scripted::model{s}, approved_tools,
        {.system_prompt = "You are a test.",
         .approver =
             [&](const agentry::approval_request& request) {
                 asked.push_back(std::string(request.call_id) + " " + std::string(request.arguments));
                 return agentry::approval::deny("not today");
             }},
        scripted::quiet_transport{}};
    s->turns.push_back(scripted::calls({scripted::call("p2", "make_plan", one)}));
    r = approving.run(agentry::planned{"Again?"});
    CHECK(r.stop == agentry::stop_reason::plan_failed);
    CHECK(asked == std::vector<std::string>{R"(p2/s1 {"city":"Paris"})"});
    CHECK(r.plans[0].steps[0].call_status == agentry::tool_status::denied);
    CHECK(contains(r.plans[0].steps[0].result, "not today"));
    CHECK(rec.find("weather Paris").what.empty());
}

TEST_CASE("plan: a callback that throws during a plan stops the run, the plan call answered") {
    rec.reset();
    agentry::agent_events events;
    events.on_tool_end = [](const agentry::step&) { throw std::runtime_error("boom"); };
    plan_fixture<> t({.events = events});
    t.plan(diamond).answer("never");
    const agentry::run_result r = t.agent.run(agentry::planned{"?"});
    CHECK(r.stop == agentry::stop_reason::callback_error);
    CHECK(r.text == "agentry: the on_tool_end callback threw: boom; the run stopped");
    const auto& history = t.agent.conversation();
    REQUIRE(history.back().role == agentry::role::tool);
    CHECK(history.back().tool_call_id == "p0");
    CHECK(history.back().text.starts_with("The run stopped during the plan. The steps:\n"));
}

TEST_CASE("plan: the events see every step, with the step's call id") {
    rec.reset();
    std::vector<std::string> started;
    std::mutex m;
    agentry::agent_events events;
    events.on_tool_start = [&](const agentry::tool_call& call) {
        std::lock_guard lock(m);
        started.push_back(call.id);
    };
    plan_fixture<> t({.events = events});
    t.plan(diamond).answer("Rome is 5.5 degrees warmer.");
    const agentry::run_result r = t.agent.run(agentry::planned{"?"});
    CHECK(r.stop == agentry::stop_reason::completed);
    std::sort(started.begin(), started.end());
    CHECK(started == std::vector<std::string>{"p0/s1", "p0/s2", "p0/s3"});
    CHECK(r.plans[0].steps[2].started >= r.plans[0].steps[0].started);
    CHECK(r.plans[0].steps[2].started >= r.plans[0].steps[1].started);
}

TEST_CASE("plan: JSON Pointer over JSON text: tokens, lookup and setting") {
    using agentry::detail::json_at;
    using agentry::detail::json_set;
    using agentry::detail::pointer_tokens;
    CHECK(pointer_tokens("")->empty());
    CHECK(*pointer_tokens("/a~1b/~0c/") == std::vector<std::string>{"a/b", "~c", ""});
    CHECK_FALSE(pointer_tokens("a"));
    CHECK_FALSE(pointer_tokens("/a~"));
    CHECK_FALSE(pointer_tokens("/a~2"));
    const std::string doc = R"({"found": [ {"id":"AZ1"}, {"id":"FR2","n":[1,2]} ], "a/b": true})";
    const auto at = [&](std::string_view pointer) -> std::string {
        const auto span = json_at(doc, *pointer_tokens(pointer));
        return span ? doc.substr(span->begin, span->end - span->begin) : "(absent)";
    };
    CHECK(at("/found/1/id") == R"("FR2")");
    CHECK(at("/found/1/n/0") == "1");
    CHECK(at("/a~1b") == "true");
    CHECK(at("") == doc);
    CHECK(at("/found/2") == "(absent)");
    CHECK(at("/found/01") == "(absent)");
    CHECK(at("/found/1/id/x") == "(absent)");
    std::string args = R"({"b":2})";
    CHECK(json_set(args, *pointer_tokens("/a"), "1"));
    CHECK(args == R"({"b":2,"a":1})");
    CHECK(json_set(args, *pointer_tokens("/b"), R"("x")"));
    CHECK(args == R"({"b":"x","a":1})");
    args = R"({"list":[]})";
    CHECK(json_set(args, *pointer_tokens("/list/0"), "5"));
    CHECK(json_set(args, *pointer_tokens("/list/-"), "6"));
    CHECK(json_set(args, *pointer_tokens("/list/0"), "4"));
    CHECK(args == R"({"list":[4,6]})");
    CHECK_FALSE(json_set(args, *pointer_tokens("/list/5"), "7"));
    CHECK_FALSE(json_set(args, *pointer_tokens("/missing/x"), "7"));
    CHECK_FALSE(json_set(args, *pointer_tokens("/list/0/x"), "7"));
    CHECK(args == R"({"list":[4,6]})");
    args = R"({})";
    CHECK(json_set(args, *pointer_tokens("/new \"key\""), "null"));
    CHECK(args == R"({"new \"key\"":null})");
    CHECK(json_set(args, *pointer_tokens(""), "[1]"));
    CHECK(args == "[1]");
}

TEST_CASE("plan: an input may add an argument the model left out, and read a result that is not JSON") {
    rec.reset();
    plan_fixture<> t;
    t.plan(R"({"steps":[{"id":"s1","tool":"weather_at","arguments":{"city":"Paris"},"depends_on":[],"inputs":[]},)"
           R"({"id":"s2","tool":"compare","arguments":{"b":30},"depends_on":["s1"],)"
           R"("inputs":[{"argument":"/a","step":"s1","pointer":"/temperature"}]}]})")
        .answer("done");
    const agentry::run_result r = t.agent.run(agentry::planned{"?"});
    CHECK(r.stop == agentry::stop_reason::completed);
    REQUIRE(r.plans.size() == 1);
    CHECK(r.plans[0].steps[1].arguments == R"({"a":18.5,"b":30})");
    CHECK(r.plans[0].steps[1].result == R"({"difference":11.5})");
    CHECK(agentry::detail::result_value("booked FR118", {}) == std::optional<std::string>(R"("booked FR118")"));
    CHECK_FALSE(agentry::detail::result_value("booked FR118", {"x"}));
}

TEST_CASE("plan: a step's arguments are kept in RFC 8785's canonical form, with the inputs set or not") {
    rec.reset();
    plan_fixture<agentry::loop_config{.planning = {.enabled = true, .on_failure = agentry::plan_failure::skip_dependents}}>
        t;
    t.plan(R"({"steps":[{"id":"s1","tool":"weather_at","arguments":{ "city" : "Atl\u0061ntis" },"depends_on":[],)"
           R"("inputs":[]},{"id":"s2","tool":"compare","arguments":{ "b" : 3.0e1 ,  "a" : -0 },"depends_on":[],)"
           R"("inputs":[]},{"id":"s3","tool":"compare","arguments":{"b": 1E2, "a":null},"depends_on":["s2"],)"
           R"("inputs":[{"argument":"/a","step":"s2","pointer":"/difference"}]},)"
           R"({"id":"s4","tool":"compare","arguments":{ "b" : 2.50, "a" : 1 },"depends_on":["s1"],"inputs":[]}]})")
        .answer("done");
    const agentry::run_result r = t.agent.run(agentry::planned{"?"});
    CHECK(r.stop == agentry::stop_reason::completed);
    REQUIRE(r.plans.size() == 1);
    const auto& steps = r.plans[0].steps;
    REQUIRE(steps.size() == 4);
    CHECK(steps[0].status == agentry::plan_step_status::failed);
    CHECK(steps[0].arguments == R"({"city":"Atlantis"})");
    CHECK(steps[1].status == agentry::plan_step_status::ok);
    CHECK(steps[1].arguments == R"({"a":0,"b":30})");
    CHECK(steps[2].status == agentry::plan_step_status::ok);
    CHECK(steps[2].arguments == R"({"a":30,"b":100})");
    CHECK(steps[2].result == R"({"difference":70})");
    CHECK(steps[3].status == agentry::plan_step_status::skipped);
    CHECK(steps[3].arguments == R"({"a":1,"b":2.5})");
    // The tools were called with these arguments.
    REQUIRE(r.steps.size() == 3);
    CHECK(r.steps[2].arguments == steps[2].arguments);
}

// ---- the same runs through each provider's wire format ------------------------------------

namespace {

std::string escaped(const std::string& json) {
    std::string out;
    agentry::json::write(out, json);
    return out;
}

struct openai_wire {
    static agentry::openai provider() { return {.model = "gpt-4o-mini", .api_key = "sk-test"}; }
    static std::string plan(const std::string& json) {
        return R"({"id":"chatcmpl-1","object":"chat.completion","model":"gpt-4o-mini","choices":[{"index":0,"message":{"role":"assistant","content":null,"tool_calls":[{"id":"call_1","type":"function","function":{"name":"make_plan","arguments":)" +
               escaped(json) +
               R"(}}]},"finish_reason":"tool_calls"}],"usage":{"prompt_tokens":10,"completion_tokens":5,"total_tokens":15}})";
    }
    static std::string answer(const std::string& text) {
        return R"({"id":"chatcmpl-2","object":"chat.completion","model":"gpt-4o-mini","choices":[{"index":0,"message":{"role":"assistant","content":)" +
               escaped(text) + R"(},"finish_reason":"stop"}],"usage":{"prompt_tokens":10,"completion_tokens":5,"total_tokens":15}})";
    }
    static constexpr std::string_view forced = R"("tool_choice":{"type":"function","function":{"name":"make_plan"}})";
};

struct anthropic_wire {
    static agentry::anthropic provider() {
        agentry::anthropic p{.model = "claude-sonnet-4-5", .api_key = "sk-ant-test"};
        p.cache = agentry::anthropic::cache_ttl::off;  // the tools payload is compared as the registry wrote it
        return p;
    }
    static std::string plan(const std::string& json) {
        return R"({"id":"msg_1","type":"message","role":"assistant","model":"claude-sonnet-4-5","content":[{"type":"tool_use","id":"toolu_1","name":"make_plan","input":)" +
               json + R"(}],"stop_reason":"tool_use","usage":{"input_tokens":10,"output_tokens":5}})";
    }
    static std::string answer(const std::string& text) {
        return R"({"id":"msg_2","type":"message","role":"assistant","model":"claude-sonnet-4-5","content":[{"type":"text","text":)" +
               escaped(text) + R"(}],"stop_reason":"end_turn","usage":{"input_tokens":10,"output_tokens":5}})";
    }
    static constexpr std::string_view forced = R"("tool_choice":{"type":"tool","name":"make_plan")";
};

struct gemini_wire {
    static agentry::gemini provider() { return {.model = "gemini-2.5-flash", .api_key = "test"}; }
    static std::string plan(const std::string& json) {
        return R"({"candidates":[{"content":{"role":"model","parts":[{"functionCall":{"name":"make_plan","args":)" + json +
               R"(}}]},"finishReason":"STOP"}],"usageMetadata":{"promptTokenCount":10,"candidatesTokenCount":5,"totalTokenCount":15}})";
    }
    static std::string answer(const std::string& text) {
        return R"({"candidates":[{"content":{"role":"model","parts":[{"text":)" + escaped(text) +
               R"(}]},"finishReason":"STOP"}],"usageMetadata":{"promptTokenCount":10,"candidatesTokenCount":5,"totalTokenCount":15}})";
    }
    static constexpr std::string_view forced = R"("allowedFunctionNames":["make_plan"])";
};

struct ollama_wire {
    static agentry::ollama provider() { return {.model = "qwen3"}; }
    static std::string plan(const std::string& json) {
        return R"({"model":"qwen3","created_at":"2025-10-26T17:15:24Z","message":{"role":"assistant","content":"","tool_calls":[{"function":{"name":"make_plan","arguments":)" +
               json + R"(}}]},"done_reason":"stop","done":true,"prompt_eval_count":10,"eval_count":5})";
    }
    static std::string answer(const std::string& text) {
        return R"({"model":"qwen3","created_at":"2025-10-26T17:15:25Z","message":{"role":"assistant","content":)" +
               escaped(text) + R"(},"done_reason":"stop","done":true,"prompt_eval_count":10,"eval_count":5})";
    }
    static constexpr std::string_view forced = R"("tools":[{"type":"function","function":{"name":"make_plan")";
};

} // namespace

// The agent keeps its transport by value: this one forwards to a replay_transport the test reads.
struct shared_replay {
    std::shared_ptr<agentry::replay_transport> http;
    agentry::transport_result send(const agentry::http_request& r) { return http->send(r); }
    agentry::transport_result stream(const agentry::http_request& r, agentry::stream_handlers& h) {
        return http->stream(r, h);
    }
};

TEST_CASE_TEMPLATE("plan: through the provider's wire format, a refused plan is repaired and the graph runs", wire,
                   openai_wire, anthropic_wire, gemini_wire, ollama_wire) {
    rec.reset(2);
    const std::string cycle =
        R"({"steps":[{"id":"s1","tool":"weather_at","arguments":{"city":"Paris"},"depends_on":["s1"],"inputs":[]}]})";
    auto http = std::make_shared<agentry::replay_transport>(std::vector<agentry::replay_response>{
        agentry::replay_response::ok(wire::plan(cycle)),
        agentry::replay_response::ok(wire::plan(diamond)),
        agentry::replay_response::ok(wire::answer("Rome is 5.5 degrees warmer.")),
    });
    using dialect = typename decltype(wire::provider())::dialect;
    agentry::agent<parallel> agent{wire::provider(), tools, "Plan, then answer.", shared_replay{http}};
    const agentry::run_result r = agent.run(agentry::planned{"Which is warmer, Paris or Rome?"});
    REQUIRE(r.plans.size() == 2);
    CHECK(r.plans[0].errors.front() == R"(step 0 ("s1"): it depends on itself; remove "s1" from its depends_on)");
    agentry::run_result second = r;
    second.plans.erase(second.plans.begin());
    check_diamond(second);
    const auto& sent = agent.conversation();
    REQUIRE(sent.size() == 7);  // system, user, plan, refusal, plan, results, answer
    CHECK(sent[3].is_error);
    CHECK(contains(sent[5].text, R"({"id":"s3","tool":"compare","status":"ok","result":{"difference":5.5}})"));
    // The requests as the provider wrote them: the plan tool in its dialect, forced; then the
    // results, and no forced call for the answer.
    const std::vector<agentry::http_request> requests = http->requests();
    REQUIRE(requests.size() == 3);
    constexpr std::string_view payload = agentry::plan_definitions<dialect, decltype(tools)>();
    const std::string_view tools_sent =
        std::is_same_v<dialect, agentry::dialect::gemini> ? payload.substr(1, payload.size() - 2) : payload;
    for (std::size_t i = 0; i != 2; ++i) {
        CHECK(contains(requests[i].body, tools_sent));
        CHECK(contains(requests[i].body, wire::forced));
    }
    CHECK(contains(requests[1].body, "it depends on itself"));
    CHECK(contains(requests[2].body, "difference"));
    CHECK_FALSE(contains(requests[2].body, wire::forced));
}
