// SPDX-License-Identifier: BSL-1.0
// What agent::run takes: a prompt of any string type, approvals or a continuation, with the
// tools' context or without; the context checked per run; the run's id, and the ids a tool that
// takes agentry::call_info sees.
#include "scripted.hpp"

#include <agentry/agent.hpp>
#include <agentry/call_scope.hpp>
#include <agentry/json/writer.hpp>
#include <agentry/policy/tool_policy.hpp>
#include <agentry/registry.hpp>

#include <doctest/doctest.h>

#include <atomic>
#include <chrono>
#include <memory>
#include <mutex>
#include <string>
#include <string_view>
#include <thread>
#include <utility>
#include <vector>

using scripted::answer;
using scripted::call;
using scripted::calls;

namespace {

struct session {
    std::string user;
};

struct other {
    int n = 0;
};

std::string whoami(agentry::context<session> s) { return s->user; }

std::string rename_user(agentry::context<session> s, std::string name) {
    s->user = std::move(name);
    return "renamed";
}

std::string ids(const agentry::call_info& info) { return std::string(info.run_id) + " " + std::string(info.call_id); }

constexpr agentry::tool_policy needs_approval{.level = agentry::permission::write, .needs_approval = true};

// Tools that take context<session>.
constexpr agentry::registry session_tools{
    agentry::tool<"whoami", "The user's name.">(whoami),
    agentry::with_policy<needs_approval>(agentry::tool<"rename", "Renames the user.", "name">(rename_user)),
};

// Tools that take no context.
constexpr agentry::registry plain_tools{
    agentry::tool<"ids", "The run's id and the call's.">(ids),
    agentry::with_policy<needs_approval>(
        agentry::tool<"echo", "Echoes its text.", "text">(+[](std::string text) { return text; })),
};

const std::string without_context = "agentry: agent::run(input): this agent's tools take agentry::context<T>; call "
                                    "run(input, ctx) with the T object for the run";
const std::string wrong_context = "agentry: agent::run(input, ctx): ctx is not of the type the tools take (the T of "
                                  "their agentry::context<T>, the registry's context_type); pass that object";
const std::string no_context_taken =
    "agentry: agent::run(input, ctx): no tool of this agent takes agentry::context<T>; call run(input)";

// The agent's options, with its system prompt when they have none.
agentry::agent_options with_prompt(agentry::agent_options options) {
    if (options.system_prompt.empty()) options.system_prompt = "You are a test.";
    return options;
}

template <const auto& Tools>
struct fixture {
    explicit fixture(agentry::agent_options options = {})
        : agent{scripted::model{s}, Tools, with_prompt(std::move(options)), scripted::quiet_transport{}} {}
    std::shared_ptr<scripted::script> s = std::make_shared<scripted::script>();
    agentry::agent<agentry::loop_config{}> agent;

    std::size_t requests() const {
        std::lock_guard lock(s->mutex);
        return s->requests.size();
    }
};

bool hex_id(const std::string& id) {
    if (id.size() != 32) return false;
    for (char c : id)
        if (!((c >= '0' && c <= '9') || (c >= 'a' && c <= 'f'))) return false;
    return true;
}

// A saved conversation that ends with a call of `tool` without its result.
std::string saved_with_open_call(const std::string& tool) {
    const std::vector<agentry::message> m{agentry::message::system("You are a test."), agentry::message::user("go on"),
                                          agentry::message::assistant("", {call("c1", tool, "{}")})};
    std::string out;
    agentry::json::write(out, m);
    return out;
}

void check_refused(const agentry::run_result& r, const std::string& text) {
    CHECK(r.stop == agentry::stop_reason::invalid_input);
    CHECK(r.text == text);
    CHECK(r.turns == 0);
    CHECK(r.steps.empty());
    CHECK(hex_id(r.run_id));
}

} // namespace

TEST_CASE("a prompt to an agent whose tools take a context: refused without one or with another type, run with it") {
    fixture<session_tools> f;
    f.s->turns = {calls({call("c1", "whoami", "{}")}), answer("You are ada.")};
    other o;
    check_refused(f.agent.run("Who am I?"), without_context);
    check_refused(f.agent.run("Who am I?", o), wrong_context);
    CHECK(f.requests() == 0);  // the model was never asked
    CHECK(f.agent.conversation().size() == 1);

    session ada{"ada"};
    const agentry::run_result r = f.agent.run("Who am I?", ada);
    CHECK(r.stop == agentry::stop_reason::completed);
    CHECK(r.text == "You are ada.");
    REQUIRE(r.steps.size() == 1);
    CHECK(r.steps[0].result_excerpt == "ada");
    CHECK(f.requests() == 2);
}

TEST_CASE("a prompt with a context to an agent whose tools take none: refused, run without it") {
    fixture<plain_tools> f;
    f.s->turns = {answer("Hello.")};
    session ada{"ada"};
    check_refused(f.agent.run("Hi.", ada), no_context_taken);
    CHECK(f.requests() == 0);
    CHECK(f.agent.conversation().size() == 1);

    const agentry::run_result r = f.agent.run("Hi.");
    CHECK(r.stop == agentry::stop_reason::completed);
    CHECK(r.text == "Hello.");
}

TEST_CASE("approvals to an agent whose tools take a context: refused without one or with another type, the call "
          "still pending, and with it the run goes on under the same run id") {
    fixture<session_tools> f;
    f.s->turns = {calls({call("c1", "rename", R"({"name":"bob"})")}), answer("Renamed.")};
    session ada{"ada"};
    const agentry::run_result paused = f.agent.run("Call me bob.", ada);
    REQUIRE(paused.stop == agentry::stop_reason::approval_pending);
    REQUIRE(paused.pending.size() == 1);
    CHECK(f.requests() == 1);
    const std::vector<agentry::approval_decision> yes{agentry::decide(paused.pending[0], agentry::approval::approve())};

    other o;
    check_refused(f.agent.run(agentry::approvals{yes, paused}), without_context);
    const agentry::run_result refused = f.agent.run(agentry::approvals{yes, paused}, o);
    check_refused(refused, wrong_context);
    CHECK(refused.run_id == paused.run_id);  // a refused run keeps the id of the run it would go on with
    check_refused(f.agent.run(agentry::approvals{yes}), without_context);
    CHECK(f.requests() == 1);
    CHECK(ada.user == "ada");  // the call did not run
    CHECK(f.agent.pending_approvals().size() == 1);

    const agentry::run_result r = f.agent.run(agentry::approvals{yes, paused}, ada);
    CHECK(r.stop == agentry::stop_reason::completed);
    CHECK(r.text == "Renamed.");
    CHECK(ada.user == "bob");
    CHECK(r.run_id == paused.run_id);
    CHECK(f.requests() == 2);
}

TEST_CASE("approvals with a context to an agent whose tools take none: refused, and without it the run keeps the "
          "progress's run id, which the tools see") {
    fixture<plain_tools> f;
    f.s->turns = {calls({call("c1", "echo", R"({"text":"hi"})")}), calls({call("c2", "ids", "{}")}), answer("Done.")};
    const agentry::run_result paused = f.agent.run("Echo hi.");
    REQUIRE(paused.stop == agentry::stop_reason::approval_pending);
    REQUIRE(paused.pending.size() == 1);
    const std::vector<agentry::approval_decision> yes{agentry::decide(paused.pending[0], agentry::approval::approve())};

    session ada{"ada"};
    check_refused(f.agent.run(agentry::approvals{yes, paused}, ada), no_context_taken);
    CHECK(f.requests() == 1);
    CHECK(f.agent.pending_approvals().size() == 1);

    const agentry::run_result r = f.agent.run(agentry::approvals{yes, paused});
    CHECK(r.stop == agentry::stop_reason::completed);
    CHECK(r.run_id == paused.run_id);
    REQUIRE(r.steps.size() == 2);
    CHECK(r.steps[0].tool == "echo");
    CHECK(r.steps[0].result_excerpt == "hi");
    CHECK(r.steps[1].tool == "ids");
    CHECK(r.steps[1].result_excerpt == paused.run_id + " c2");
}

TEST_CASE("a continuation of an agent whose tools take a context: refused without one or with another type, and with "
          "it the open call runs, under the progress's run id") {
    fixture<session_tools> f;
    f.s->turns = {answer("You are ada.")};
    REQUIRE(f.agent.restore(saved_with_open_call("whoami")));
    other o;
    check_refused(f.agent.run(agentry::continuation{}), without_context);
    check_refused(f.agent.run(agentry::continuation{}, o), wrong_context);
    CHECK(f.requests() == 0);
    CHECK(f.agent.conversation().size() == 3);

    agentry::run_result progress;
    progress.run_id = "0123456789abcdef0123456789abcdef";
    session ada{"ada"};
    const agentry::run_result r = f.agent.run(agentry::continuation{progress}, ada);
    CHECK(r.stop == agentry::stop_reason::completed);
    CHECK(r.text == "You are ada.");
    CHECK(r.run_id == progress.run_id);
    REQUIRE(r.steps.size() == 1);
    CHECK(r.steps[0].result_excerpt == "ada");
    CHECK(f.requests() == 1);
}

TEST_CASE("a continuation with a context of an agent whose tools take none: refused, and without it the open call sees "
          "the progress's run id and its call id") {
    fixture<plain_tools> f;
    f.s->turns = {answer("Done.")};
    REQUIRE(f.agent.restore(saved_with_open_call("ids")));
    session ada{"ada"};
    check_refused(f.agent.run(agentry::continuation{}, ada), no_context_taken);
    CHECK(f.requests() == 0);
    CHECK(f.agent.conversation().size() == 3);

    agentry::run_result progress;
    progress.run_id = "fedcba9876543210fedcba9876543210";
    CHECK(f.agent.run(agentry::continuation{progress}, ada).run_id == progress.run_id);
    const agentry::run_result r = f.agent.run(agentry::continuation{progress});
    CHECK(r.stop == agentry::stop_reason::completed);
    CHECK(r.run_id == progress.run_id);
    REQUIRE(r.steps.size() == 1);
    CHECK(r.steps[0].result_excerpt == "fedcba9876543210fedcba9876543210 c1");
}

TEST_CASE("run ids: 32 hexadecimal digits, new for each run, and a tool taking call_info sees the run's and the "
          "model's call id") {
    fixture<plain_tools> f;
    f.s->turns = {calls({call("call_7", "ids", "{}")}), answer("First."), answer("Second.")};
    const agentry::run_result first = f.agent.run("Which ids?");
    const agentry::run_result second = f.agent.run("Again.");
    CHECK(first.stop == agentry::stop_reason::completed);
    CHECK(second.stop == agentry::stop_reason::completed);
    CHECK(hex_id(first.run_id));
    CHECK(hex_id(second.run_id));
    CHECK(first.run_id != second.run_id);
    REQUIRE(first.steps.size() == 1);
    CHECK(first.steps[0].result_excerpt == first.run_id + " call_7");

    // A continuation without progress is a run of its own.
    const agentry::run_result third = f.agent.run(agentry::continuation{});
    CHECK(hex_id(third.run_id));
    CHECK(third.run_id != second.run_id);
}

namespace {

// late_ids: waits (bounded) until the test lets it go, then keeps the ids it was given.
std::atomic<bool> late_release{false};
std::atomic<bool> late_done{false};
std::mutex late_mutex;
std::string late_seen;

std::string late_ids(const agentry::call_info& info) {
    for (int i = 0; i != 10'000 && !late_release.load(); ++i) std::this_thread::sleep_for(std::chrono::milliseconds(1));
    {
        const std::lock_guard lock(late_mutex);
        late_seen = std::string(info.run_id) + " " + std::string(info.call_id);
    }
    late_done.store(true);
    return "late";
}

constexpr agentry::registry late_tools{agentry::tool<"late_ids", "The ids, late.">(late_ids)};

} // namespace

TEST_CASE("run ids: a call abandoned at its timeout still reads its own run's id after the next run began") {
    late_release = false;
    late_done = false;
    auto s = std::make_shared<scripted::script>();
    agentry::agent<agentry::loop_config{.tool_timeout = std::chrono::milliseconds(20)}> agent{
        scripted::model{s}, late_tools, "", scripted::quiet_transport{}};
    s->turns = {calls({call("c1", "late_ids", "{}")}), answer("Gave up."), answer("Second.")};
    const agentry::run_result first = agent.run("Which ids?");
    REQUIRE(first.steps.size() == 1);
    CHECK(first.steps[0].timed_out);
    const agentry::run_result second = agent.run("Again.");
    CHECK(second.run_id != first.run_id);
    late_release = true;
    for (int i = 0; i != 10'000 && !late_done.load(); ++i) std::this_thread::sleep_for(std::chrono::milliseconds(1));
    REQUIRE(late_done.load());
    const std::lock_guard lock(late_mutex);
    CHECK(late_seen == first.run_id + " c1");
}

TEST_CASE("a prompt as std::string_view, const char*, std::string (lvalue and rvalue) or a literal") {
    fixture<plain_tools> f;
    f.s->turns = {answer("1"), answer("2"), answer("3"), answer("4"), answer("5")};
    const std::string_view view = "as a string_view";
    const char* pointer = "as a const char*";
    const std::string text = "as a std::string";
    CHECK(f.agent.run(view).text == "1");
    CHECK(f.agent.run(pointer).text == "2");
    CHECK(f.agent.run(text).text == "3");
    CHECK(f.agent.run(std::string("as a temporary std::string")).text == "4");
    CHECK(f.agent.run("as a literal").text == "5");
    std::vector<std::string> sent;
    for (const scripted::asked& a : f.s->requests) sent.push_back(a.messages.back().text);
    CHECK(sent == std::vector<std::string>{"as a string_view", "as a const char*", "as a std::string",
                                           "as a temporary std::string", "as a literal"});
}
