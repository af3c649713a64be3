// SPDX-License-Identifier: BSL-1.0
// Tool policies through the agent loop: approval (approve, deny, edit, edit to invalid
// arguments, a throwing approver), pause and resume without an approver (also across save and
// restore), the permission ceiling and rate limits; the same for tools added at run time.
#include "scripted.hpp"

#include <agentry/agent.hpp>
#include <agentry/policy/tool_policy.hpp>
#include <agentry/registry.hpp>
#include <agentry/stop_token.hpp>

#include <doctest/doctest.h>

#include <algorithm>
#include <atomic>
#include <functional>
#include <memory>
#include <mutex>
#include <optional>
#include <span>
#include <stdexcept>
#include <string>
#include <string_view>
#include <thread>
#include <utility>
#include <vector>

using scripted::answer;
using scripted::call;
using scripted::calls;

namespace {

std::vector<std::string> deleted;  // what delete_file removed, in order
std::mutex deleted_mutex;          // calls may run in parallel

std::string delete_file(const std::string& path) {
    const std::lock_guard lock(deleted_mutex);
    deleted.push_back(path);
    return "deleted " + path;
}

constexpr agentry::tool_policy needs_approval{.level = agentry::permission::destructive, .needs_approval = true};
constexpr agentry::tool_policy twice_a_minute{.level = agentry::permission::read_only,
                                              .rate = {.calls = 2, .per_ms = 60'000},
                                              .idempotent = true};

constexpr agentry::registry tools{
    agentry::with_policy<needs_approval>(
        agentry::tool<"delete_file", "Deletes a file", "path">(delete_file)),
    agentry::with_policy<twice_a_minute>(
        agentry::tool<"add", "Add two integers", "a", "b">(+[](int a, int b) { return static_cast<long long>(a) + b; })),
    agentry::with_policy<agentry::tool_policy{}>(
        agentry::tool<"echo", "Echoes its text", "text">(+[](std::string t) { return t; })),
};

// One call per 20 ms, for the bounded wait.
constexpr agentry::registry quick_refill{agentry::with_policy<agentry::tool_policy{.rate = {.calls = 1, .per_ms = 20}}>(
    agentry::tool<"add", "Add two integers", "a", "b">(+[](int a, int b) { return static_cast<long long>(a) + b; }))};

// One call per hour, for a wait that only cancel() ends.
constexpr agentry::registry slow_refill{agentry::with_policy<agentry::tool_policy{.rate = {.calls = 1, .per_ms = 3'600'000}}>(
    agentry::tool<"add", "Add two integers", "a", "b">(+[](int a, int b) { return static_cast<long long>(a) + b; }))};

constexpr agentry::loop_config read_only_ceiling{.max_permission = agentry::permission::read_only};

// The agent's options, with its system prompt when they have none.
agentry::agent_options with_prompt(agentry::agent_options options) {
    if (options.system_prompt.empty()) options.system_prompt = "You are a test.";
    return options;
}

template <agentry::loop_config Config = read_only_ceiling>
struct fixture {
    explicit fixture(agentry::agent_options options = {})
        : agent{scripted::model{s}, tools, with_prompt(std::move(options)), scripted::quiet_transport{}} {
        deleted.clear();
    }
    std::shared_ptr<scripted::script> s = std::make_shared<scripted::script>();
    agentry::agent<Config> agent;
};

agentry::turn_result calls_with_text(std::string text, std::vector<agentry::tool_call> c) {
    agentry::turn_result r = calls(std::move(c));
    r.value->reply.text = std::move(text);
    return r;
}

} // namespace

TEST_CASE("policy: an approved call runs, the approver sees the canonical call and the model's text") {
    std::vector<std::string> seen;
    fixture f({.approver = [&](const agentry::approval_request& r) {
        seen.push_back(std::string(r.call_id) + "|" + std::string(r.tool) + "|" + std::string(r.arguments) + "|" +
                       std::string(r.model_text) + "|" + std::string(agentry::to_string(r.level)));
        return agentry::approval::approve();
    }});
    f.s->turns = {calls_with_text("Removing the old log.", {call("c1", "delete_file", R"({ "path" : "old.log" })")}),
                  answer("Done.")};
    const agentry::run_result r = f.agent.run("Clean up");
    CHECK(r.stop == agentry::stop_reason::completed);
    REQUIRE(seen.size() == 1);
    CHECK(seen[0] == R"(c1|delete_file|{"path":"old.log"}|Removing the old log.|destructive)");
    CHECK(deleted == std::vector<std::string>{"old.log"});
    REQUIRE(r.steps.size() == 1);
    CHECK(r.steps[0].status == agentry::tool_status::ok);
    CHECK_FALSE(r.steps[0].arguments_edited);
    CHECK(f.s->requests[1].messages.back().text == "deleted old.log");
}

TEST_CASE("policy: a denial reaches the model as a tool result and the run goes on") {
    int asked = 0;
    fixture f({.approver = [&](const agentry::approval_request&) {
        ++asked;
        return agentry::approval::deny("keep the logs until Friday");
    }});
    f.s->turns = {calls({call("c1", "delete_file", R"({"path":"old.log"})"), call("c2", "echo", R"({"text":"hi"})")}),
                  answer("I kept the log.")};
    const agentry::run_result r = f.agent.run("Clean up");
    CHECK(r.stop == agentry::stop_reason::completed);
    CHECK(r.text == "I kept the log.");
    CHECK(asked == 1);  // echo needs no approval
    CHECK(deleted.empty());
    REQUIRE(r.steps.size() == 2);
    CHECK(r.steps[0].status == agentry::tool_status::denied);
    CHECK(r.steps[0].arguments == R"({"path":"old.log"})");
    CHECK(r.steps[1].status == agentry::tool_status::ok);
    const auto& sent = f.s->requests[1].messages;
    REQUIRE(sent.size() == 5);
    CHECK(sent[3].tool_call_id == "c1");
    CHECK(sent[3].is_error);
    CHECK(sent[3].text ==
          "The user denied this call of delete_file: keep the logs until Friday. It was not run; do not make it "
          "again unchanged.");
    CHECK(sent[4].text == "hi");
}

TEST_CASE("policy: a denial without a reason") {
    fixture f({.approver = [](const agentry::approval_request&) { return agentry::approval::deny(""); }});
    f.s->turns = {calls({call("c1", "delete_file", R"({"path":"a"})")}), answer("ok")};
    const agentry::run_result r = f.agent.run("go");
    CHECK(r.stop == agentry::stop_reason::completed);
    CHECK(f.s->requests[1].messages.back().text ==
          "The user denied this call of delete_file. It was not run; do not make it again unchanged.");
}

TEST_CASE("policy: edited arguments run instead, and the model is told") {
    fixture f({.approver = [](const agentry::approval_request&) {
        return agentry::approval::edit(R"({"path":"tmp/old.log"})");
    }});
    f.s->turns = {calls({call("c1", "delete_file", R"({"path":"old.log"})")}), answer("Done.")};
    const agentry::run_result r = f.agent.run("Clean up");
    CHECK(r.stop == agentry::stop_reason::completed);
    CHECK(deleted == std::vector<std::string>{"tmp/old.log"});
    REQUIRE(r.steps.size() == 1);
    CHECK(r.steps[0].arguments_edited);
    CHECK(r.steps[0].arguments == R"({"path":"tmp/old.log"})");
    CHECK(r.steps[0].status == agentry::tool_status::ok);
    const auto& sent = f.s->requests[1].messages;
    CHECK(sent[2].tool_calls[0].arguments == R"({"path":"old.log"})");  // the model's call as made
    CHECK(sent.back().text == "(Run with arguments changed by the user to {\"path\":\"tmp/old.log\"})\ndeleted tmp/old.log");
    CHECK_FALSE(sent.back().is_error);
}

TEST_CASE("policy: edited arguments are validated again, invalid ones do not run") {
    fixture f({.approver = [](const agentry::approval_request&) { return agentry::approval::edit(R"({"path":7})"); }});
    f.s->turns = {calls({call("c1", "delete_file", R"({"path":"old.log"})")}), answer("Gave up.")};
    const agentry::run_result r = f.agent.run("Clean up");
    CHECK(r.stop == agentry::stop_reason::completed);
    CHECK(deleted.empty());
    REQUIRE(r.steps.size() == 1);
    CHECK(r.steps[0].status == agentry::tool_status::invalid_arguments);
    CHECK(r.steps[0].arguments_edited);
    const auto& sent = f.s->requests[1].messages;
    CHECK(sent.back().is_error);
    CHECK(sent.back().text ==
          "(Run with arguments changed by the user to {\"path\":7})\ndelete_file: invalid arguments: /path: expected "
          "a string, got a number 7. Fix the arguments and call delete_file again.");
}

TEST_CASE("policy: without an approver the run pauses before the turn's calls, listing the pending ones") {
    fixture f;
    f.s->turns = {calls_with_text("Tidying up.", {call("c1", "delete_file", R"({ "path" : "old.log" })"),
                                                  call("c2", "echo", R"({"text":"hi"})")}),
                  answer("Done.")};
    const agentry::run_result r = f.agent.run("Clean up");
    CHECK(r.stop == agentry::stop_reason::approval_pending);
    CHECK(agentry::to_string(r.stop) == "approval_pending");
    CHECK(r.text == "1 tool calls wait for approval; decide with run(agentry::approvals{decisions}).");
    CHECK(r.steps.empty());  // no call of the turn ran, echo neither
    CHECK(deleted.empty());
    REQUIRE(r.pending.size() == 1);
    CHECK(r.pending[0].call_id == "c1");
    CHECK(r.pending[0].tool == "delete_file");
    CHECK(r.pending[0].arguments == R"({"path":"old.log"})");
    CHECK(r.pending[0].model_text == "Tidying up.");
    CHECK(r.pending[0].level == agentry::permission::destructive);
    CHECK(f.agent.conversation().back().tool_calls.size() == 2);
    CHECK(f.agent.pending_approvals().size() == 1);

    const std::vector<agentry::approval_decision> yes{agentry::decide(r.pending[0], agentry::approval::approve())};
    const agentry::run_result resumed = f.agent.run(agentry::approvals{yes});
    CHECK(resumed.stop == agentry::stop_reason::completed);
    CHECK(resumed.text == "Done.");
    CHECK(deleted == std::vector<std::string>{"old.log"});
    REQUIRE(resumed.steps.size() == 2);
    CHECK(resumed.steps[0].status == agentry::tool_status::ok);
    CHECK(resumed.steps[1].status == agentry::tool_status::ok);
    const auto& sent = f.s->requests[1].messages;
    REQUIRE(sent.size() == 5);
    CHECK(sent[3].tool_call_id == "c1");
    CHECK(sent[3].text == "deleted old.log");
    CHECK(sent[4].text == "hi");
    CHECK(f.agent.pending_approvals().empty());
}

TEST_CASE("policy: a denial given to resume reaches the model and the run goes on") {
    fixture f;
    f.s->turns = {calls({call("c1", "delete_file", R"({"path":"old.log"})")}), answer("I kept it.")};
    const agentry::run_result r = f.agent.run("Clean up");
    REQUIRE(r.pending.size() == 1);
    const std::vector<agentry::approval_decision> no{
        agentry::decide(r.pending[0], agentry::approval::deny("keep the logs until Friday"))};
    const agentry::run_result resumed = f.agent.run(agentry::approvals{no});
    CHECK(resumed.stop == agentry::stop_reason::completed);
    CHECK(resumed.text == "I kept it.");
    CHECK(deleted.empty());
    REQUIRE(resumed.steps.size() == 1);
    CHECK(resumed.steps[0].status == agentry::tool_status::denied);
    CHECK(resumed.steps[0].attempts.empty());
    CHECK(f.s->requests[1].messages.back().text ==
          "The user denied this call of delete_file: keep the logs until Friday. It was not run; do not make it "
          "again unchanged.");
}

TEST_CASE("policy: edited arguments given to resume are validated again") {
    fixture f;
    f.s->turns = {calls({call("c1", "delete_file", R"({"path":"old.log"})")}),
                  calls({call("c2", "delete_file", R"({"path":"new.log"})")}), answer("ok")};
    agentry::run_result r = f.agent.run("Clean up");
    REQUIRE(r.pending.size() == 1);
    std::vector<agentry::approval_decision> edit{
        agentry::decide(r.pending[0], agentry::approval::edit(R"({"path":"tmp/old.log"})"))};
    r = f.agent.run(agentry::approvals{edit});
    CHECK(deleted == std::vector<std::string>{"tmp/old.log"});
    REQUIRE(r.steps.size() == 1);
    CHECK(r.steps[0].arguments_edited);
    CHECK(r.steps[0].arguments == R"({"path":"tmp/old.log"})");
    // The next turn pauses again; an edit to invalid arguments does not run.
    CHECK(r.stop == agentry::stop_reason::approval_pending);
    REQUIRE(r.pending.size() == 1);
    CHECK(r.pending[0].call_id == "c2");
    edit = {agentry::decide(r.pending[0], agentry::approval::edit(R"({"path":7})"))};
    r = f.agent.run(agentry::approvals{edit});
    CHECK(r.stop == agentry::stop_reason::completed);
    CHECK(deleted.size() == 1);
    REQUIRE(r.steps.size() == 1);
    CHECK(r.steps[0].status == agentry::tool_status::invalid_arguments);
}

TEST_CASE("policy: a decision is bound to the canonical arguments of its call") {
    fixture f;
    f.s->turns = {calls({call("c1", "delete_file", R"({"path":"old.log"})")}), answer("ok")};
    const agentry::run_result r = f.agent.run("Clean up");
    REQUIRE(r.pending.size() == 1);
    const std::size_t history = f.agent.conversation().size();

    const std::vector<agentry::approval_decision> other{{"c1", R"({"path":"/etc/passwd"})", agentry::approval::approve()}};
    agentry::run_result refused = f.agent.run(agentry::approvals{other});
    CHECK(refused.stop == agentry::stop_reason::approval_pending);
    CHECK(refused.text ==
          "agentry: agent::run(agentry::approvals{...}): the decision for the call c1 (delete_file) was made for the "
          "arguments {\"path\":\"/etc/passwd\"}, but the call's are {\"path\":\"old.log\"}; decide on the call as it is");
    CHECK(refused.pending.size() == 1);
    CHECK(refused.steps.empty());
    CHECK(deleted.empty());
    CHECK(f.agent.conversation().size() == history);

    // The same arguments spelled otherwise are the same call.
    const std::vector<agentry::approval_decision> same{{"c1", R"({ "path": "old.log" })", agentry::approval::approve()}};
    CHECK(f.agent.run(agentry::approvals{same}).stop == agentry::stop_reason::completed);
    CHECK(deleted == std::vector<std::string>{"old.log"});
}

TEST_CASE("policy: run(approvals) refuses an unknown call, two decisions for one call and a call without one") {
    fixture f;
    f.s->turns = {calls({call("c1", "delete_file", R"({"path":"a"})"), call("c2", "delete_file", R"({"path":"b"})")}),
                  answer("ok")};
    const agentry::run_result r = f.agent.run("Clean up");
    REQUIRE(r.pending.size() == 2);
    const auto yes = agentry::approval::approve();

    std::vector<agentry::approval_decision> d{{"c9", R"({"path":"a"})", yes}};
    agentry::run_result refused = f.agent.run(agentry::approvals{d});
    CHECK(refused.stop == agentry::stop_reason::approval_pending);
    CHECK(refused.text == "agentry: agent::run(agentry::approvals{...}): no pending call has the id \"c9\"");

    d = {agentry::decide(r.pending[0], yes), agentry::decide(r.pending[0], yes), agentry::decide(r.pending[1], yes)};
    refused = f.agent.run(agentry::approvals{d});
    CHECK(refused.text == "agentry: agent::run(agentry::approvals{...}): two decisions for the call c1");

    d = {agentry::decide(r.pending[0], yes)};
    refused = f.agent.run(agentry::approvals{d});
    CHECK(refused.text == "agentry: agent::run(agentry::approvals{...}): no decision for the call c2 (delete_file); "
                          "give one for every pending call");
    CHECK(refused.pending.size() == 2);
    CHECK(deleted.empty());

    d = {agentry::decide(r.pending[0], yes), agentry::decide(r.pending[1], agentry::approval::deny("no"))};
    const agentry::run_result done = f.agent.run(agentry::approvals{d});
    CHECK(done.stop == agentry::stop_reason::completed);
    CHECK(deleted == std::vector<std::string>{"a"});
}

TEST_CASE("policy: run refuses new input while calls wait, run(approvals) refuses when none do") {
    fixture f;
    f.s->turns = {calls({call("c1", "delete_file", R"({"path":"a"})")}), answer("ok")};
    CHECK(f.agent.run(agentry::approvals{}).text ==
          "agentry: agent::run(agentry::approvals{...}): no tool calls wait for a decision");
    const agentry::run_result r = f.agent.run("Clean up");
    const std::size_t history = f.agent.conversation().size();
    const agentry::run_result again = f.agent.run("Something else");
    CHECK(again.stop == agentry::stop_reason::approval_pending);
    CHECK(again.text ==
          "agentry: agent::run: 1 tool calls of the last turn wait for a decision; run(agentry::approvals{decisions}) "
          "first (deny them to drop them); the input was not added");
    CHECK(again.pending.size() == 1);
    CHECK(f.agent.conversation().size() == history);
    CHECK(f.s->requests.size() == 1);
    const std::vector<agentry::approval_decision> d{agentry::decide(r.pending[0], agentry::approval::deny(""))};
    CHECK(f.agent.run(agentry::approvals{d}).stop == agentry::stop_reason::completed);
    const agentry::run_result after = f.agent.run(agentry::approvals{});
    CHECK(after.stop == agentry::stop_reason::approval_pending);
    CHECK(after.pending.empty());
}

TEST_CASE("policy: pause, save, restore in another agent, resume") {
    std::string saved;
    std::vector<agentry::pending_call> pending;
    {
        fixture f;
        f.s->turns = {calls_with_text("Old logs go.", {call("c1", "delete_file", R"({"path":"old.log"})")})};
        const agentry::run_result r = f.agent.run("Clean up");
        REQUIRE(r.stop == agentry::stop_reason::approval_pending);
        pending = r.pending;
        saved = f.agent.save();
    }
    fixture g;
    REQUIRE(g.agent.restore(saved));
    const std::vector<agentry::pending_call> restored = g.agent.pending_approvals();
    REQUIRE(restored.size() == 1);
    CHECK(restored[0].call_id == pending[0].call_id);
    CHECK(restored[0].arguments == pending[0].arguments);
    CHECK(restored[0].model_text == "Old logs go.");
    g.s->turns = {answer("Deleted.")};
    const std::vector<agentry::approval_decision> yes{agentry::decide(pending[0], agentry::approval::approve())};
    const agentry::run_result r = g.agent.run(agentry::approvals{yes});
    CHECK(r.stop == agentry::stop_reason::completed);
    CHECK(r.text == "Deleted.");
    CHECK(deleted == std::vector<std::string>{"old.log"});
    REQUIRE(g.s->requests.size() == 1);
    CHECK(g.s->requests[0].messages.back().text == "deleted old.log");
}

TEST_CASE("policy: a restored pause resumed in an agent with an approver asks it for calls left undecided") {
    std::string saved;
    {
        fixture f;
        f.s->turns = {calls({call("c1", "delete_file", R"({"path":"a"})"), call("c2", "delete_file", R"({"path":"b"})")})};
        REQUIRE(f.agent.run("go").pending.size() == 2);
        saved = f.agent.save();
    }
    std::vector<std::string> asked;
    fixture g({.approver = [&](const agentry::approval_request& r) {
        asked.emplace_back(r.call_id);
        return agentry::approval::deny("no");
    }});
    REQUIRE(g.agent.restore(saved));
    const std::vector<agentry::approval_decision> d{
        agentry::decide(g.agent.pending_approvals()[0], agentry::approval::approve())};
    const agentry::run_result r = g.agent.run(agentry::approvals{d});
    CHECK(r.stop == agentry::stop_reason::completed);
    CHECK(asked == std::vector<std::string>{"c2"});
    CHECK(deleted == std::vector<std::string>{"a"});
}

TEST_CASE("policy: a pause with calls past the per-turn limit keeps the results in the model's order") {
    auto s = std::make_shared<scripted::script>();
    agentry::agent<agentry::loop_config{.max_tool_calls_per_turn = 1}> agent{scripted::model{s}, tools, "You are a test.",
                                                                             scripted::quiet_transport{}};
    deleted.clear();
    s->turns = {calls({call("c1", "delete_file", R"({"path":"a"})"), call("c2", "echo", R"({"text":"x"})")}),
                answer("ok")};
    const agentry::run_result r = agent.run("go");
    REQUIRE(r.stop == agentry::stop_reason::approval_pending);
    CHECK(r.tool_calls_over_limit == 1);
    const std::vector<agentry::approval_decision> d{agentry::decide(r.pending[0], agentry::approval::approve())};
    CHECK(agent.run(agentry::approvals{d}).stop == agentry::stop_reason::completed);
    const auto& sent = s->requests[1].messages;
    REQUIRE(sent.size() == 5);
    CHECK(sent[3].tool_call_id == "c1");
    CHECK(sent[3].text == "deleted a");
    CHECK(sent[4].tool_call_id == "c2");
    CHECK(sent[4].text.starts_with("Not run: at most 1 tool calls are run per turn"));
}

TEST_CASE("policy: arguments that are not JSON go to the registry unapproved and do not run") {
    int asked = 0;
    fixture f({.approver = [&](const agentry::approval_request&) {
        ++asked;
        return agentry::approval::approve();
    }});
    f.s->turns = {calls({call("c1", "delete_file", R"({"path":)")}), answer("oops")};
    const agentry::run_result r = f.agent.run("go");
    CHECK(asked == 0);
    CHECK(deleted.empty());
    REQUIRE(r.steps.size() == 1);
    CHECK(r.steps[0].status == agentry::tool_status::invalid_arguments);
}

TEST_CASE("policy: an approver that throws stops the run with callback_error") {
    fixture f({.approver = [](const agentry::approval_request&) -> agentry::approval {
        throw std::runtime_error("console closed");
    }});
    f.s->turns = {calls({call("c1", "delete_file", R"({"path":"old.log"})")}), answer("never")};
    const agentry::run_result r = f.agent.run("Clean up");
    CHECK(r.stop == agentry::stop_reason::callback_error);
    CHECK(r.text == "agentry: the approver callback threw: console closed; the run stopped");
    CHECK(deleted.empty());
    // The history stays valid: the call has a result.
    CHECK(f.agent.conversation().back().role == agentry::role::tool);
}

TEST_CASE("policy: approvals of parallel calls are asked one at a time") {
    std::atomic<int> inside{0};
    std::atomic<int> most{0};
    fixture<agentry::loop_config{.parallel_tool_calls = true,
                                 .max_parallelism = 3,
                                 .max_permission = agentry::permission::read_only}>
        f({.approver = [&](const agentry::approval_request& r) {
            const int now = ++inside;
            most.store(std::max(most.load(), now));
            std::this_thread::yield();
            --inside;
            return r.arguments == R"({"path":"b"})" ? agentry::approval::deny("no") : agentry::approval::approve();
        }});
    f.s->turns = {calls({call("1", "delete_file", R"({"path":"a"})"), call("2", "delete_file", R"({"path":"b"})"),
                         call("3", "delete_file", R"({"path":"c"})")}),
                  answer("done")};
    const agentry::run_result r = f.agent.run("go");
    CHECK(r.stop == agentry::stop_reason::completed);
    CHECK(most.load() == 1);
    REQUIRE(r.steps.size() == 3);
    CHECK(r.steps[0].status == agentry::tool_status::ok);
    CHECK(r.steps[1].status == agentry::tool_status::denied);
    CHECK(r.steps[2].status == agentry::tool_status::ok);
}

TEST_CASE("policy: past its rate limit a call answers rate_limited and the run goes on") {
    fixture f;
    f.s->turns = {calls({call("1", "add", R"({"a":1,"b":2})"), call("2", "add", R"({"a":2,"b":3})"),
                         call("3", "add", R"({"a":3,"b":4})")}),
                  answer("done")};
    const agentry::run_result r = f.agent.run("go");
    CHECK(r.stop == agentry::stop_reason::completed);
    REQUIRE(r.steps.size() == 3);
    CHECK(r.steps[0].status == agentry::tool_status::ok);
    CHECK(r.steps[1].status == agentry::tool_status::ok);
    CHECK(r.steps[2].status == agentry::tool_status::rate_limited);
    const std::string& text = f.s->requests[1].messages.back().text;
    CHECK(f.s->requests[1].messages.back().is_error);
    // One token comes every 30 s (two per minute): the wait is at most that.
    CHECK(text.starts_with("rate_limited: add may be called at most 2 times per 60000 ms; it was not run. Try "
                           "again in "));
    CHECK(text.ends_with(" ms, or go on without it."));
    const std::string ms = text.substr(text.find("Try again in ") + 13);
    const long wait = std::stol(ms);
    CHECK(wait > 0);
    CHECK(wait <= 30'000);
}

TEST_CASE("policy: a bounded wait for the rate limit that is too short answers rate_limited at once") {
    // The next token comes in about 30 s, past the 1 ms the config allows: no wait happens.
    fixture<agentry::loop_config{.max_permission = agentry::permission::read_only, .max_rate_wait = std::chrono::milliseconds(1)}> f;
    f.s->turns = {calls({call("1", "add", R"({"a":1,"b":2})"), call("2", "add", R"({"a":2,"b":3})"),
                         call("3", "add", R"({"a":3,"b":4})")}),
                  answer("done")};
    const agentry::run_result r = f.agent.run("go");
    REQUIRE(r.steps.size() == 3);
    CHECK(r.steps[2].status == agentry::tool_status::rate_limited);
}

TEST_CASE("policy: with max_rate_wait a call waits for its rate limit, then runs") {
    auto s = std::make_shared<scripted::script>();
    agentry::agent<agentry::loop_config{.max_rate_wait = std::chrono::seconds(30)}> agent{
        scripted::model{s}, quick_refill, "You are a test.", scripted::quiet_transport{}};
    s->turns = {calls({call("1", "add", R"({"a":1,"b":2})"), call("2", "add", R"({"a":2,"b":3})")}), answer("done")};
    const agentry::run_result r = agent.run("go");
    CHECK(r.stop == agentry::stop_reason::completed);
    REQUIRE(r.steps.size() == 2);
    CHECK(r.steps[0].status == agentry::tool_status::ok);
    CHECK(r.steps[1].status == agentry::tool_status::ok);
    CHECK(s->requests[1].messages.back().text == "5");
}

TEST_CASE("policy: cancel() ends a wait for the rate limit") {
    auto s = std::make_shared<scripted::script>();
    agentry::agent<agentry::loop_config{.max_rate_wait = std::chrono::hours(1)}> agent{
        scripted::model{s}, slow_refill, "You are a test.", scripted::quiet_transport{}};
    s->turns = {calls({call("1", "add", R"({"a":1,"b":2})"), call("2", "add", R"({"a":2,"b":3})")}), answer("never")};
    std::thread canceller([&] {
        // Cancel once the first call has run (the second is then waiting, or about to).
        for (int i = 0; i != 20000 && s->requests.size() < 1; ++i) std::this_thread::sleep_for(std::chrono::milliseconds(1));
        std::this_thread::sleep_for(std::chrono::milliseconds(50));
        agent.cancel();
    });
    const agentry::run_result r = agent.run("go");
    canceller.join();
    CHECK(r.stop == agentry::stop_reason::cancelled);
    // The second call was cut short in its wait, or (on a slow machine) not started.
    REQUIRE(r.steps.size() >= 1);
    CHECK(r.steps[0].status == agentry::tool_status::ok);
    if (r.steps.size() == 2) CHECK(r.steps[1].status == agentry::tool_status::rate_limited);
}

TEST_CASE("policy: the rate limit holds across turns and runs of one agent") {
    fixture f;
    f.s->turns = {calls({call("1", "add", R"({"a":1,"b":2})")}), calls({call("2", "add", R"({"a":1,"b":2})")}),
                  answer("first"), calls({call("3", "add", R"({"a":1,"b":2})")}), answer("second")};
    CHECK(f.agent.run("one").steps.size() == 2);
    const agentry::run_result r = f.agent.run("two");
    REQUIRE(r.steps.size() == 1);
    CHECK(r.steps[0].status == agentry::tool_status::rate_limited);
}

TEST_CASE("policy: an unknown tool in a registry with policies is answered by the registry") {
    fixture f;
    f.s->turns = {calls({call("1", "remove", R"({})")}), answer("ok")};
    const agentry::run_result r = f.agent.run("go");
    REQUIRE(r.steps.size() == 1);
    CHECK(r.steps[0].status == agentry::tool_status::unknown_tool);
}

// Tools added at run time (agent::add_tools) with policies given at run time, as an MCP
// toolset gives them: the same approval, pause and resume, rate limits, timeouts, retries,
// permission ceiling, result cap and unknown-tool answer as registry tools.
namespace {

constexpr agentry::registry plain{agentry::tool<"echo", "Echoes its text", "text">(+[](std::string t) { return t; })};

using dynamic_call = std::function<agentry::tool_result(std::string_view, const agentry::call_scope&)>;

agentry::dynamic_tool dynamic(std::string name, std::optional<agentry::tool_policy> policy, dynamic_call call) {
    agentry::dynamic_tool t;
    t.definition = R"({"type":"function","function":{"name":")" + name +
                   R"(","description":"A tool added at run time","parameters":{"type":"object"}}})";
    t.name = std::move(name);
    t.call = std::move(call);
    t.policy = policy;
    return t;
}

agentry::dynamic_tool_source source_of(std::vector<agentry::dynamic_tool> tools) {
    return [tools = std::move(tools)](const agentry::dynamic_tools_target&)
               -> agentry::outcome<std::vector<agentry::dynamic_tool>> { return tools; };
}

agentry::tool_result text_result(std::string text) {
    agentry::tool_result r;
    r.content = std::move(text);
    return r;
}

// Records the arguments of each call of the tool "remote_delete".
struct remote_calls {
    std::mutex mutex;
    std::vector<std::string> arguments;
    dynamic_call recorder() {
        return [this](std::string_view a, const agentry::call_scope&) {
            const std::lock_guard lock(mutex);
            arguments.emplace_back(a);
            return text_result("removed");
        };
    }
};

constexpr agentry::tool_policy remote_approval{.level = agentry::permission::write, .needs_approval = true};

template <agentry::loop_config Config = agentry::loop_config{}, class Registry = decltype(plain)>
struct dynamic_fixture {
    std::shared_ptr<scripted::script> s = std::make_shared<scripted::script>();
    agentry::agent<Config> agent;
    explicit dynamic_fixture(const Registry& r = plain, agentry::agent_options options = {})
        : agent{scripted::model{s}, r, with_prompt(std::move(options)), scripted::quiet_transport{}} {}
    explicit dynamic_fixture(agentry::agent_options options) : dynamic_fixture(plain, std::move(options)) {}
};

} // namespace

TEST_CASE("dynamic policy: the approver sees a call of a tool added at run time, approves one and denies another") {
    remote_calls remote;  // before the agent, which may leave calls running until it ends
    std::vector<std::string> seen;
    dynamic_fixture f({.approver = [&](const agentry::approval_request& r) {
        seen.push_back(std::string(r.call_id) + "|" + std::string(r.tool) + "|" + std::string(r.arguments) + "|" +
                       std::string(agentry::to_string(r.level)));
        return r.call_id == "c1" ? agentry::approval::approve() : agentry::approval::deny("not that one");
    }});  // the registry declares no policies
    REQUIRE(f.agent.add_tools(source_of({dynamic("remote_delete", remote_approval, remote.recorder())})).has_value());
    f.s->turns = {calls({call("c1", "remote_delete", R"({ "path" : "a" })"), call("c2", "remote_delete", R"({"path":"b"})"),
                         call("c3", "echo", R"({"text":"hi"})")}),
                  answer("Done.")};
    const agentry::run_result r = f.agent.run("go");
    CHECK(r.stop == agentry::stop_reason::completed);
    CHECK(seen == std::vector<std::string>{R"(c1|remote_delete|{"path":"a"}|write)", R"(c2|remote_delete|{"path":"b"}|write)"});
    CHECK(remote.arguments == std::vector<std::string>{R"({ "path" : "a" })"});
    REQUIRE(r.steps.size() == 3);
    CHECK(r.steps[0].status == agentry::tool_status::ok);
    CHECK(r.steps[1].status == agentry::tool_status::denied);
    CHECK(r.steps[2].status == agentry::tool_status::ok);
    REQUIRE(f.s->requests.size() == 2);
    const auto& sent = f.s->requests[1].messages;
    REQUIRE(sent.size() == 6);
    CHECK(sent[4].text ==
          "The user denied this call of remote_delete: not that one. It was not run; do not make it again unchanged.");
}

TEST_CASE("dynamic policy: without an approver the run pauses, then save, restore in another agent, resume") {
    remote_calls remote;
    dynamic_fixture f;
    REQUIRE(f.agent.add_tools(source_of({dynamic("remote_delete", remote_approval, remote.recorder())})).has_value());
    f.s->turns = {calls({call("c1", "remote_delete", R"({"path":"a"})"), call("c2", "echo", R"({"text":"hi"})")})};
    const agentry::run_result r = f.agent.run("go");
    CHECK(r.stop == agentry::stop_reason::approval_pending);
    CHECK(r.steps.empty());
    REQUIRE(r.pending.size() == 1);
    CHECK(r.pending[0].tool == "remote_delete");
    CHECK(r.pending[0].arguments == R"({"path":"a"})");
    CHECK(r.pending[0].level == agentry::permission::write);
    CHECK(remote.arguments.empty());

    dynamic_fixture other;
    REQUIRE(other.agent.add_tools(source_of({dynamic("remote_delete", remote_approval, remote.recorder())})).has_value());
    REQUIRE(other.agent.restore(f.agent.save()));
    const std::vector<agentry::pending_call> pending = other.agent.pending_approvals();
    REQUIRE(pending.size() == 1);
    CHECK(pending[0].call_id == "c1");
    CHECK(pending[0].tool == "remote_delete");
    other.s->turns = {answer("Removed.")};
    const std::vector<agentry::approval_decision> yes{agentry::decide(pending[0], agentry::approval::approve())};
    const agentry::run_result resumed = other.agent.run(agentry::approvals{yes});
    CHECK(resumed.stop == agentry::stop_reason::completed);
    CHECK(resumed.text == "Removed.");
    CHECK(remote.arguments == std::vector<std::string>{R"({"path":"a"})"});
    REQUIRE(resumed.steps.size() == 2);
    CHECK(resumed.steps[0].tool == "remote_delete");
    CHECK(resumed.steps[0].status == agentry::tool_status::ok);

    // A denial given to resume.
    dynamic_fixture third;
    REQUIRE(third.agent.add_tools(source_of({dynamic("remote_delete", remote_approval, remote.recorder())})).has_value());
    REQUIRE(third.agent.restore(f.agent.save()));
    third.s->turns = {answer("Kept.")};
    const std::vector<agentry::approval_decision> no{
        agentry::decide(third.agent.pending_approvals().at(0), agentry::approval::deny("keep it"))};
    const agentry::run_result denied = third.agent.run(agentry::approvals{no});
    CHECK(denied.stop == agentry::stop_reason::completed);
    REQUIRE(denied.steps.size() == 2);
    CHECK(denied.steps[0].status == agentry::tool_status::denied);
    CHECK(third.s->requests[0].messages[3].text ==
          "The user denied this call of remote_delete: keep it. It was not run; do not make it again unchanged.");
    CHECK(remote.arguments.size() == 1);
}

TEST_CASE("dynamic policy: a rate limit of its own, and the registry's shared limit does not count the tool") {
    constexpr auto shared = agentry::with_rate_limit<agentry::rate_limit{.calls = 1, .per_ms = 3'600'000}>(plain);
    int ran = 0;
    dynamic_fixture<agentry::loop_config{}, decltype(shared)> f(shared);
    REQUIRE(f.agent
                .add_tools(source_of({dynamic("remote_add", agentry::tool_policy{.rate = {.calls = 2, .per_ms = 60'000}},
                                              [&](std::string_view, const agentry::call_scope&) {
                                                  ++ran;
                                                  return text_result("3");
                                              }),
                                      dynamic("remote_free", std::nullopt,
                                              [](std::string_view, const agentry::call_scope&) { return text_result("free"); })}))
                .has_value());
    f.s->turns = {calls({call("1", "echo", R"({"text":"a"})"), call("2", "remote_add", R"({"a":1})"),
                         call("3", "remote_add", R"({"a":2})"), call("4", "remote_add", R"({"a":3})"),
                         call("5", "remote_free", "{}"), call("6", "echo", R"({"text":"b"})")}),
                  answer("done")};
    const agentry::run_result r = f.agent.run("go");
    CHECK(r.stop == agentry::stop_reason::completed);
    REQUIRE(r.steps.size() == 6);
    REQUIRE(f.s->requests.size() == 2);
    CHECK(r.steps[0].status == agentry::tool_status::ok);
    CHECK(r.steps[1].status == agentry::tool_status::ok);
    CHECK(r.steps[2].status == agentry::tool_status::ok);
    CHECK(r.steps[3].status == agentry::tool_status::rate_limited);
    CHECK(r.steps[4].status == agentry::tool_status::ok);
    CHECK(r.steps[5].status == agentry::tool_status::rate_limited);  // the registry's one call per hour is used
    CHECK(ran == 2);
    const auto& sent = f.s->requests[1].messages;
    CHECK(sent[6].text.starts_with(
        "rate_limited: remote_add may be called at most 2 times per 60000 ms; it was not run. Try again in "));
    CHECK(sent[8].text.starts_with("rate_limited: the tools here may be called at most 1 times per 3600000 ms in all; "
                                   "echo was not run."));
}

TEST_CASE("dynamic policy: its timeout, and retries of an idempotent tool") {
    std::atomic<int> slow_tries{0};  // the abandoned tries may end after the run: before the agent
    int flaky_tries = 0;
    int once_tries = 0;
    dynamic_fixture f;
    const auto transient = [](std::string text) {
        agentry::tool_result r;
        r.status = agentry::tool_status::tool_error;
        r.failure = agentry::failure_kind::transient;
        r.content = std::move(text);
        return r;
    };
    constexpr agentry::tool_retry quick{.attempts = 2, .initial_backoff = std::chrono::milliseconds(1),
                                        .max_backoff = std::chrono::milliseconds(1)};
    REQUIRE(f.agent
                .add_tools(source_of({
                    // Never answers: ends when its stop token is signalled at the timeout.
                    dynamic("slow", agentry::tool_policy{.idempotent = true, .timeout = std::chrono::milliseconds(20), .retry = quick},
                            [&](std::string_view, const agentry::call_scope& scope) {
                                ++slow_tries;
                                for (int i = 0; i != 20'000 && !scope.stop.stop_requested(); ++i)
                                    std::this_thread::sleep_for(std::chrono::milliseconds(1));
                                return text_result("late");
                            }),
                    dynamic("flaky", agentry::tool_policy{.idempotent = true, .retry = quick},
                            [&](std::string_view, const agentry::call_scope&) {
                                return ++flaky_tries == 1 ? transient("flaky failed: busy") : text_result("fine");
                            }),
                    dynamic("once", agentry::tool_policy{.level = agentry::permission::write},
                            [&](std::string_view, const agentry::call_scope&) {
                                ++once_tries;
                                return transient("once failed: busy");
                            }),
                }))
                .has_value());
    f.s->turns = {calls({call("1", "slow", "{}"), call("2", "flaky", "{}"), call("3", "once", "{}")}), answer("done")};
    const agentry::run_result r = f.agent.run("go");
    REQUIRE(r.steps.size() == 3);
    CHECK(r.steps[0].status == agentry::tool_status::tool_error);
    CHECK(r.steps[0].timed_out);
    CHECK(r.steps[0].attempts.size() == 2);
    CHECK(r.steps[1].status == agentry::tool_status::ok);
    CHECK(r.steps[1].attempts.size() == 2);
    CHECK(flaky_tries == 2);
    CHECK(r.steps[2].attempts.size() == 1);  // not idempotent: not retried
    CHECK(once_tries == 1);
    REQUIRE(f.s->requests.size() == 2);
    const auto& sent = f.s->requests[1].messages;
    CHECK(sent[3].text == "slow did not finish within 20 ms; it was abandoned. Try a narrower request or another tool.");
    CHECK(sent[4].text == "fine");
    CHECK(sent[5].text == "transient: once failed: busy (it may succeed if tried again later)");
}

TEST_CASE("dynamic policy: the checkpointer is told which tools added at run time are idempotent") {
    struct recorder : agentry::checkpointer {
        std::vector<std::string> seen;
        void state(std::span<const agentry::message>, const agentry::run_result&) override {}
        std::optional<agentry::tool_result> before_call(const agentry::tool_call& c, bool idempotent) override {
            seen.push_back(c.name + (idempotent ? " idempotent" : " not idempotent"));
            return std::nullopt;
        }
        void after_call(const agentry::tool_call&, const agentry::tool_result&) override {}
    } checkpoints;
    dynamic_fixture f({.checkpointer = &checkpoints});
    const dynamic_call ok = [](std::string_view, const agentry::call_scope&) { return text_result("ok"); };
    REQUIRE(f.agent
                .add_tools(source_of({dynamic("lookup", agentry::tool_policy{.idempotent = true}, ok),
                                      dynamic("append", agentry::tool_policy{.level = agentry::permission::write}, ok),
                                      dynamic("bare", std::nullopt, ok)}))
                .has_value());
    f.s->turns = {calls({call("1", "lookup", "{}"), call("2", "append", "{}"), call("3", "bare", "{}")}), answer("done")};
    CHECK(f.agent.run("go").stop == agentry::stop_reason::completed);
    CHECK(checkpoints.seen ==
          std::vector<std::string>{"lookup idempotent", "append not idempotent", "bare not idempotent"});
}

TEST_CASE("dynamic policy: the permission ceiling is checked at add_tools") {
    dynamic_fixture<read_only_ceiling, decltype(tools)> f(tools);
    const dynamic_call ok = [](std::string_view, const agentry::call_scope&) { return text_result("ok"); };
    auto bare = f.agent.add_tools(source_of({dynamic("lookup", agentry::tool_policy{}, ok), dynamic("wipe", std::nullopt, ok)}));
    REQUIRE_FALSE(bare.has_value());
    CHECK(bare.error().message ==
          R"(agentry: agent::add_tools: tool "wipe": its permission level, destructive (it has no policy), is above loop_config::max_permission, read_only, and it needs no approval; give it a policy with needs_approval = true or a lower level, or raise the ceiling; nothing was added)");
    auto write = f.agent.add_tools(source_of({dynamic("append", agentry::tool_policy{.level = agentry::permission::write}, ok)}));
    REQUIRE_FALSE(write.has_value());
    CHECK(write.error().message ==
          R"(agentry: agent::add_tools: tool "append": its permission level, write, is above loop_config::max_permission, read_only, and it needs no approval; give it a policy with needs_approval = true or a lower level, or raise the ceiling; nothing was added)");
    // Nothing was added: a later source may use the names.
    REQUIRE(f.agent
                .add_tools(source_of({dynamic("lookup", agentry::tool_policy{}, ok), dynamic("wipe", remote_approval, ok)}))
                .has_value());
}

TEST_CASE("dynamic policy: a policy a tool added at run time cannot have is refused at add_tools, naming the tool") {
    dynamic_fixture f;
    const dynamic_call ok = [](std::string_view, const agentry::call_scope&) { return text_result("ok"); };
    const auto refused = [&](agentry::tool_policy p) {
        auto r = f.agent.add_tools(source_of({dynamic("remote", p, ok)}));
        return r ? std::string("added") : r.error().message;
    };
    const std::string head = R"(agentry: agent::add_tools: tool "remote": )";
    CHECK(refused({.fallback = {"echo"}}) ==
          head + "its policy has a fallback chain, which only registry tools can have (checked at compile time); leave "
                 "tool_policy::fallback empty; nothing was added");
    CHECK(refused({.retry = {.attempts = 3}}) ==
          head + "its policy has retry.attempts 3 without idempotent = true (a retried call may run twice); declare the "
                 "tool idempotent or leave retries out; nothing was added");
    CHECK(refused({.retry = {.attempts = 0}}) ==
          head + "its policy's retry.attempts is 0; it counts every try, the first included, so it must be at least 1 "
                 "(1: no retry); nothing was added");
    CHECK(refused({.rate = {.calls = 1, .per_ms = 0}}) ==
          head + "its policy's rate_limit::per_ms is 0; it must be positive when rate_limit::calls is set; nothing was "
                 "added");
    CHECK(refused({.timeout = std::chrono::milliseconds(-1)}) ==
          head + "its policy's timeout, retry.initial_backoff and retry.max_backoff must be between 0 and 100 years; "
                 "nothing was added");
    CHECK(refused({.idempotent = true, .retry = {.attempts = 3}}) == "added");
}

TEST_CASE("dynamic policy: results are cut at max_result_size as a registry tool's are") {
    const std::string long_text(300, 'x');
    dynamic_fixture<agentry::loop_config{.max_result_size = 100}> f;
    REQUIRE(f.agent
                .add_tools(source_of({dynamic("remote_echo", std::nullopt,
                                              [&](std::string_view, const agentry::call_scope&) { return text_result(long_text); }),
                                      dynamic("remote_fail", std::nullopt, [&](std::string_view, const agentry::call_scope&) {
                                          agentry::tool_result r = text_result(long_text);
                                          r.status = agentry::tool_status::tool_error;
                                          return r;
                                      })}))
                .has_value());
    f.s->turns = {calls({call("1", "echo", R"({"text":")" + long_text + R"("})"), call("2", "remote_echo", "{}"),
                         call("3", "remote_fail", "{}")}),
                  answer("done")};
    CHECK(f.agent.run("go").stop == agentry::stop_reason::completed);
    REQUIRE(f.s->requests.size() == 2);
    const auto& sent = f.s->requests[1].messages;
    REQUIRE(sent.size() == 6);
    CHECK(sent[3].text.size() == 100);
    CHECK(sent[3].text.find("[truncated: the result exceeded the limit of 100 bytes]") != std::string::npos);
    CHECK(sent[4].text == sent[3].text);
    CHECK(sent[5].text == sent[3].text);
    CHECK(sent[5].is_error);
}

TEST_CASE("dynamic policy: the unknown-tool answer lists the tools added at run time") {
    dynamic_fixture<agentry::loop_config{}, decltype(tools)> f(tools);
    const dynamic_call ok = [](std::string_view, const agentry::call_scope&) { return text_result("ok"); };
    REQUIRE(f.agent.add_tools(source_of({dynamic("remote_add", agentry::tool_policy{}, ok)})).has_value());
    REQUIRE(f.agent.add_tools(source_of({dynamic("other_sum", std::nullopt, ok)})).has_value());
    f.s->turns = {calls({call("1", "remote_ad", "{}"), call("2", "nothing_like_it", "{}")}), answer("ok")};
    const agentry::run_result r = f.agent.run("go");
    REQUIRE(r.steps.size() == 2);
    CHECK(r.steps[0].status == agentry::tool_status::unknown_tool);
    REQUIRE(f.s->requests.size() == 2);
    const auto& sent = f.s->requests[1].messages;
    CHECK(sent[3].text == R"(unknown tool "remote_ad" (did you mean "remote_add"?). Available tools: delete_file, add, echo, remote_add, other_sum.)");
    CHECK(sent[4].text == R"(unknown tool "nothing_like_it". Available tools: delete_file, add, echo, remote_add, other_sum.)");
}
