// SPDX-License-Identifier: BSL-1.0
// The call pipeline (policy/pipeline.hpp): every layer against every source of a call. The same
// tool, under the same policy, is called as a registry tool by the model, as a tool added at
// run time, as a step of a plan and as a fallback, and inside a sub-agent; each guarantee
// (canonical refusal, approval, rate limit, timeout, retry, result cap, checkpoint) must hold
// on each path. A tool reads its run id and call id (agentry::call_info, or the call_scope of a
// tool added at run time) whether the model or a plan calls it.
#include "scripted.hpp"

#include <agentry/agent.hpp>
#include <agentry/loop/agent_tool.hpp>
#include <agentry/registry.hpp>
#include <agentry/stop_token.hpp>

#include <doctest/doctest.h>

#include <atomic>
#include <chrono>
#include <memory>
#include <mutex>
#include <optional>
#include <string>
#include <thread>
#include <utility>
#include <vector>

namespace {

using namespace std::chrono_literals;

// What the tool does when it is reached; counts the calls that reached it.
enum class behaviour { echo, slow, flaky, large };
std::atomic<int> reached{0};
std::atomic<behaviour> mode{behaviour::echo};
std::atomic<int> flaky_failures{0};

agentry::outcome<std::string> act_on(const std::string& text, agentry::stop_token stop) {
    ++reached;
    switch (mode.load()) {
    case behaviour::echo: break;
    case behaviour::slow:
        for (int i = 0; i != 1000 && !stop.stop_requested(); ++i) std::this_thread::sleep_for(10ms);
        break;
    case behaviour::flaky:
        if (flaky_failures.fetch_sub(1) > 0) return agentry::fail(agentry::failure_kind::transient, "busy");
        break;
    case behaviour::large: return std::string(4000, 'x');
    }
    return "acted on " + text;
}

agentry::outcome<std::string> act(std::string text, agentry::stop_token stop) { return act_on(text, stop); }

enum class source { registry, added, planned };
constexpr source all_sources[] = {source::registry, source::added, source::planned};

const char* name_of(source s) {
    switch (s) {
    case source::registry: return "registry";
    case source::added: return "added";
    case source::planned: return "planned";
    }
    return "";
}

// A checkpointer that keeps a result for every call: the tool must not be reached.
struct keeping : agentry::checkpointer {
    int after = 0;
    void state(std::span<const agentry::message>, const agentry::run_result&) override {}
    std::optional<agentry::tool_result> before_call(const agentry::tool_call&, bool) override {
        agentry::tool_result r;
        r.content = "kept before the crash";
        return r;
    }
    void after_call(const agentry::tool_call&, const agentry::tool_result&) override { ++after; }
};

// Runs `calls` calls of the tool (named "act" in the registry, "act_added" when added) from
// `from`, under policy P and loop_config C, with the agent's `options`.
template <agentry::tool_policy P, agentry::loop_config C = agentry::loop_config{}>
struct harness {
    static constexpr agentry::loop_config config = [] {
        agentry::loop_config c = C;
        c.planning.enabled = true;
        return c;
    }();
    static constexpr agentry::registry tools{
        agentry::with_policy<P>(agentry::tool<"act", "Acts on a text", "text">(act)),
    };

    std::shared_ptr<scripted::script> s = std::make_shared<scripted::script>();
    agentry::agent<config> agent;

    explicit harness(agentry::agent_options options = {})
        : agent{scripted::model{s}, tools, std::move(options), scripted::quiet_transport{}} {}

    static agentry::dynamic_tool_source added() {
        return [](const agentry::dynamic_tools_target&) -> agentry::outcome<std::vector<agentry::dynamic_tool>> {
            agentry::dynamic_tool t;
            t.name = "act_added";
            t.definition = R"({"type":"function","function":{"name":"act_added","description":"Acts","parameters":{"type":"object"}}})";
            t.policy = P;
            t.call = [](std::string_view arguments, const agentry::call_scope& scope) {
                agentry::outcome<std::string> r = act_on(std::string(arguments), scope.stop);
                agentry::tool_result out;
                if (r) {
                    out.content = *r;
                } else {
                    out.status = agentry::tool_status::tool_error;
                    out.failure = r.error().kind;
                    out.content = r.error().message;
                }
                return out;
            };
            return std::vector<agentry::dynamic_tool>{t};
        };
    }

    agentry::run_result run(source from, int calls = 1, std::string arguments = R"({"text":"x"})") {
        reached = 0;
        if (from == source::added) REQUIRE(agent.add_tools(added()).has_value());
        if (from == source::planned) {
            std::string steps;
            for (int i = 0; i != calls; ++i)
                steps += std::string(i ? "," : "") + R"({"id":"s)" + std::to_string(i) +
                         R"(","tool":"act","arguments":)" + arguments + R"(,"depends_on":[],"inputs":[]})";
            s->turns = {scripted::calls({scripted::call("p1", "make_plan", R"({"steps":[)" + steps + "]}")}),
                        scripted::answer("done")};
            return agent.run(agentry::planned{"act"});
        }
        std::vector<agentry::tool_call> made;
        for (int i = 0; i != calls; ++i)
            made.push_back(scripted::call("c" + std::to_string(i), from == source::added ? "act_added" : "act", arguments));
        s->turns = {scripted::calls(std::move(made)), scripted::answer("done")};
        return agent.run("act");
    }
};

constexpr agentry::tool_policy approval{.level = agentry::permission::write, .needs_approval = true};
constexpr agentry::tool_policy limited{.level = agentry::permission::write, .rate = {.calls = 1, .per_ms = 3'600'000}};
constexpr agentry::tool_policy timed{.level = agentry::permission::write, .timeout = std::chrono::milliseconds(20)};
constexpr agentry::tool_policy retried{
    .level = agentry::permission::read_only, .idempotent = true, .retry = {.attempts = 3, .initial_backoff = std::chrono::milliseconds(1), .max_backoff = std::chrono::milliseconds(2)}};
constexpr agentry::tool_policy plain{.level = agentry::permission::write};

} // namespace

TEST_CASE("pipeline matrix: approval denied, on every source") {
    for (source from : all_sources) {
        const std::string path = name_of(from);
        CAPTURE(path);
        int asked = 0;
        harness<approval> h({.approver = [&](const agentry::approval_request&) {
            ++asked;
            return agentry::approval::deny("not today");
        }});
        const agentry::run_result r = h.run(from);
        CAPTURE(r.text);
        CHECK(asked == 1);
        CHECK(reached == 0);
        REQUIRE(r.steps.size() == 1);
        CHECK(r.steps[0].status == agentry::tool_status::denied);
    }
}

TEST_CASE("pipeline matrix: arguments that cannot be canonicalised are refused before approval, on every source") {
    for (source from : all_sources) {
        const std::string path = name_of(from);
        CAPTURE(path);
        int asked = 0;
        harness<approval> h({.approver = [&](const agentry::approval_request&) {
            ++asked;
            return agentry::approval::approve();
        }});
        // On the planned path the plan reader refuses the duplicate key with the plan.
        const std::string hostile = R"({"text":"x","text":"y"})";
        const agentry::run_result r = h.run(from, 1, hostile);
        CHECK(asked == 0);
        CHECK(reached == 0);
    }
}

TEST_CASE("pipeline matrix: the rate limit, on every source") {
    for (source from : all_sources) {
        const std::string path = name_of(from);
        CAPTURE(path);
        harness<limited> h;
        const agentry::run_result r = h.run(from, 2);
        CHECK(reached == 1);
        REQUIRE(r.steps.size() == 2);
        int limited_steps = 0;
        for (const agentry::step& s : r.steps) limited_steps += s.status == agentry::tool_status::rate_limited;
        CHECK(limited_steps == 1);
    }
}

TEST_CASE("pipeline matrix: the policy's timeout, on every source") {
    mode = behaviour::slow;
    for (source from : all_sources) {
        const std::string path = name_of(from);
        CAPTURE(path);
        harness<timed> h;
        const agentry::run_result r = h.run(from);
        REQUIRE(r.steps.size() == 1);
        CHECK(r.steps[0].timed_out);
        CHECK(r.steps[0].status == agentry::tool_status::tool_error);
    }
    mode = behaviour::echo;
}

TEST_CASE("pipeline matrix: retries of an idempotent tool, on every source") {
    mode = behaviour::flaky;
    for (source from : all_sources) {
        const std::string path = name_of(from);
        CAPTURE(path);
        flaky_failures = 1;
        harness<retried> h;
        const agentry::run_result r = h.run(from);
        REQUIRE(r.steps.size() == 1);
        CHECK(r.steps[0].status == agentry::tool_status::ok);
        CHECK(r.steps[0].attempts.size() == 2);
        CHECK(reached == 2);
    }
    mode = behaviour::echo;
}

TEST_CASE("pipeline matrix: the result cap, on every source") {
    mode = behaviour::large;
    for (source from : all_sources) {
        const std::string path = name_of(from);
        CAPTURE(path);
        harness<plain, agentry::loop_config{.max_result_size = 300}> h;
        const agentry::run_result r = h.run(from);
        REQUIRE(r.steps.size() == 1);
        CHECK(reached == 1);
        for (const agentry::message& m : h.agent.conversation())
            if (m.role == agentry::role::tool && from != source::planned) CHECK(m.text.size() <= 300);
        if (from == source::planned) {
            REQUIRE(!r.plans.empty());
            CHECK(r.plans.back().steps[0].result.size() <= 300);
        }
    }
    mode = behaviour::echo;
}

TEST_CASE("pipeline matrix: a checkpointer's kept result answers in place of the tool, on every source") {
    for (source from : all_sources) {
        const std::string path = name_of(from);
        CAPTURE(path);
        keeping keeper;
        harness<plain> h({.checkpointer = &keeper});
        const agentry::run_result r = h.run(from);
        CHECK(reached == 0);
        CHECK(keeper.after == 0);
        REQUIRE(r.steps.size() == 1);
        CHECK(r.steps[0].result_excerpt == "kept before the crash");
        CHECK(r.steps[0].attempts.empty());
    }
}

TEST_CASE("pipeline matrix: a tool above the permission ceiling runs only with approval, on every source") {
    // A registry tool above the ceiling without approval does not compile, and an added one is
    // refused by add_tools; with approval it passes the ceiling and reaches the approver.
    for (source from : all_sources) {
        const std::string path = name_of(from);
        CAPTURE(path);
        int asked = 0;
        harness<approval, agentry::loop_config{.max_permission = agentry::permission::read_only}> h(
            {.approver = [&](const agentry::approval_request&) {
                ++asked;
                return agentry::approval::approve();
            }});
        const agentry::run_result r = h.run(from);
        CHECK(asked == 1);
        CHECK(reached == 1);
        REQUIRE(r.steps.size() == 1);
        CHECK(r.steps[0].status == agentry::tool_status::ok);
    }
}

namespace {

std::atomic<int> primary_calls{0};
agentry::outcome<std::string> primary(std::string) {
    ++primary_calls;
    return agentry::fail(agentry::failure_kind::permanent, "down");
}

constexpr agentry::tool_policy with_backup{.level = agentry::permission::write, .fallback = {"act"}};

} // namespace

TEST_CASE("pipeline: a fallback passes the layers after the fallback layer with its own policy") {
    // The fallback "act" has a rate limit of one call: the second failure's fallback is refused.
    static constexpr agentry::registry tools{
        agentry::with_policy<with_backup>(agentry::tool<"primary", "Primary", "text">(primary)),
        agentry::with_policy<limited>(agentry::tool<"act", "Acts on a text", "text">(act)),
    };
    auto s = std::make_shared<scripted::script>();
    agentry::agent<agentry::loop_config{}> agent{scripted::model{s}, tools, "", scripted::quiet_transport{}};
    reached = 0;
    s->turns = {scripted::calls({scripted::call("c1", "primary", R"({"text":"a"})"),
                                 scripted::call("c2", "primary", R"({"text":"b"})")}),
                scripted::answer("done")};
    const agentry::run_result r = agent.run("go");
    REQUIRE(r.steps.size() == 2);
    CHECK(reached == 1);
    CHECK(r.steps[0].status == agentry::tool_status::ok);
    CHECK(r.steps[0].fallback == "act");
    CHECK(r.steps[1].status == agentry::tool_status::tool_error);
    REQUIRE(r.steps[1].attempts.size() == 2);
    CHECK(r.steps[1].attempts[1].status == agentry::tool_status::rate_limited);
}

namespace {

// What keyed read of its call: the run id and the call id.
std::mutex keyed_mutex;
std::vector<std::pair<std::string, std::string>> keyed_calls;

std::string keyed(std::string text, agentry::call_info info) {
    const std::lock_guard lock(keyed_mutex);
    keyed_calls.emplace_back(info.run_id, info.call_id);
    return text;
}

} // namespace

TEST_CASE("pipeline: a tool reads the run id and its call's id, called by the model, as a planned step and as an added tool") {
    static constexpr agentry::registry tools{agentry::tool<"keyed", "Keys a write", "text">(keyed)};
    auto s = std::make_shared<scripted::script>();
    agentry::agent<agentry::loop_config{.planning = {.enabled = true}}> agent{scripted::model{s}, tools, "",
                                                                              scripted::quiet_transport{}};
    keyed_calls.clear();
    s->turns = {scripted::calls({scripted::call("c1", "keyed", R"({"text":"a"})")}), scripted::answer("done")};
    const agentry::run_result r = agent.run("go");
    CHECK(r.stop == agentry::stop_reason::completed);
    CHECK(r.run_id.size() == 32);
    CHECK(keyed_calls == std::vector<std::pair<std::string, std::string>>{{r.run_id, "c1"}});

    keyed_calls.clear();
    s->turns = {scripted::calls({scripted::call(
                    "p1", "make_plan",
                    R"({"steps":[{"id":"s1","tool":"keyed","arguments":{"text":"b"},"depends_on":[],"inputs":[]}]})")}),
                scripted::answer("done")};
    const agentry::run_result planned = agent.run(agentry::planned{"go"});
    CHECK(planned.stop == agentry::stop_reason::completed);
    CHECK(planned.run_id.size() == 32);
    CHECK(planned.run_id != r.run_id);
    REQUIRE(planned.steps.size() == 1);
    CHECK(keyed_calls == std::vector<std::pair<std::string, std::string>>{{planned.run_id, planned.steps[0].id}});
    CHECK(planned.steps[0].id == "p1/s1");

    // A tool added at run time reads them from its call_scope.
    REQUIRE(agent
                .add_tools([](const agentry::dynamic_tools_target&)
                               -> agentry::outcome<std::vector<agentry::dynamic_tool>> {
                    agentry::dynamic_tool t;
                    t.name = "keyed_added";
                    t.definition = R"({"type":"function","function":{"name":"keyed_added","parameters":{"type":"object"}}})";
                    t.call = [](std::string_view, const agentry::call_scope& scope) {
                        const std::lock_guard lock(keyed_mutex);
                        keyed_calls.emplace_back(scope.run_id, scope.call_id);
                        return agentry::tool_result{};
                    };
                    return std::vector<agentry::dynamic_tool>{t};
                })
                .has_value());
    keyed_calls.clear();
    s->turns = {scripted::calls({scripted::call("d1", "keyed_added", "{}")}), scripted::answer("done")};
    const agentry::run_result added = agent.run("go");
    CHECK(added.stop == agentry::stop_reason::completed);
    CHECK(added.run_id.size() == 32);
    CHECK(keyed_calls == std::vector<std::pair<std::string, std::string>>{{added.run_id, "d1"}});
}

namespace {

struct sub_request {
    std::string text;
};

} // namespace

TEST_CASE("pipeline: a sub-agent's own calls pass its pipeline (approval denied inside it)") {
    static constexpr agentry::registry inner{
        agentry::with_policy<approval>(agentry::tool<"act", "Acts on a text", "text">(act)),
    };
    auto sub_script = std::make_shared<scripted::script>();
    int asked = 0;
    agentry::agent<agentry::loop_config{}> sub{scripted::model{sub_script}, inner,
                                               {.approver =
                                                    [&](const agentry::approval_request&) {
                                                        ++asked;
                                                        return agentry::approval::deny("no");
                                                    }},
                                               scripted::quiet_transport{}};
    const agentry::registry outer{agentry::agent_tool<"delegate", "Delegates">(
        sub, [](const sub_request& r) { return r.text; })};
    auto s = std::make_shared<scripted::script>();
    agentry::agent<agentry::loop_config{}> lead{scripted::model{s}, outer, "", scripted::quiet_transport{}};
    sub_script->turns = {scripted::calls({scripted::call("i1", "act", R"({"text":"x"})")}), scripted::answer("denied")};
    s->turns = {scripted::calls({scripted::call("c1", "delegate", R"({"text":"act on x"})")}), scripted::answer("done")};
    reached = 0;
    const agentry::run_result r = lead.run("go");
    CHECK(r.stop == agentry::stop_reason::completed);
    CHECK(asked == 1);
    CHECK(reached == 0);
    REQUIRE(r.sub_runs.size() == 1);
}
