// SPDX-License-Identifier: BSL-1.0
// Stop conditions through the scripted model: a stop-at tool whose result is the answer (set in
// loop_config or at run time), the token and tool-call budgets, and the application's predicate.
#include "scripted.hpp"

#include <agentry/agent.hpp>
#include <agentry/loop/stop.hpp>
#include <agentry/registry.hpp>
#include <agentry/stop_token.hpp>

#include <doctest/doctest.h>

#include <memory>
#include <stdexcept>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

using scripted::answer;
using scripted::call;
using scripted::calls;

namespace {

std::string find_place(const std::string& city) { return "Chez Anna, " + city; }
std::string book_table(const std::string& place) { return "Booked a table at " + place + " for 8 pm."; }

constexpr agentry::registry tools{
    agentry::tool<"find_place", "Finds a restaurant in a city.", "city">(find_place),
    agentry::tool<"book_table", "Books a table; its answer is the final answer.", "place">(book_table),
    agentry::tool<"add", "Adds two integers.", "a", "b">(+[](int a, int b) { return static_cast<long long>(a) + b; }),
};

// The agent's options, with its system prompt when they have none.
agentry::agent_options with_prompt(agentry::agent_options options) {
    if (options.system_prompt.empty()) options.system_prompt = "You book tables.";
    return options;
}

template <agentry::loop_config Config>
struct fixture {
    explicit fixture(agentry::agent_options options = {})
        : agent{scripted::model{s}, tools, with_prompt(std::move(options)), scripted::quiet_transport{}} {}
    std::shared_ptr<scripted::script> s = std::make_shared<scripted::script>();
    agentry::agent<Config> agent;
};

// Every call of every assistant message has exactly one result after it.
bool consistent(const std::vector<agentry::message>& history) {
    for (std::size_t i = 0; i != history.size(); ++i)
        for (const agentry::tool_call& c : history[i].tool_calls) {
            int results = 0;
            for (std::size_t j = i + 1; j != history.size() && history[j].role == agentry::role::tool; ++j)
                results += history[j].tool_call_id == c.id;
            if (results != 1) return false;
        }
    return true;
}

constexpr agentry::loop_config stop_at_book{.stop_at_tools = {"book_table"}};

} // namespace

TEST_CASE("stop names: to_string of the new stop reasons") {
    CHECK(agentry::to_string(agentry::stop_reason::stop_at_tool) == "stop_at_tool");
    CHECK(agentry::to_string(agentry::stop_reason::token_budget) == "token_budget");
    CHECK(agentry::to_string(agentry::stop_reason::tool_call_budget) == "tool_call_budget");
    CHECK(agentry::to_string(agentry::stop_reason::stop_condition) == "stop_condition");
    constexpr agentry::stop_tool_names names{"a", "bc"};
    static_assert(names.size == 2 && names[1] == "bc" && names.contains("a") && !names.contains("b"));
    static_assert(agentry::loop_config{}.stop_at_tools.empty());
}

TEST_CASE("stop_at_tools: the stop tool's result is the answer, after every call of its turn ran") {
    fixture<stop_at_book> f;
    f.s->turns = {calls({call("c1", "find_place", R"({"city":"Lyon"})")}),
                  calls({call("c2", "book_table", R"({"place":"Chez Anna"})"), call("c3", "add", R"({"a":1,"b":2})")}),
                  answer("never asked")};
    const agentry::run_result r = f.agent.run("Book me a table in Lyon.");
    CHECK(r.stop == agentry::stop_reason::stop_at_tool);
    CHECK(r.text == "Booked a table at Chez Anna for 8 pm.");
    CHECK(r.turns == 2);
    CHECK(f.s->requests.size() == 2);
    REQUIRE(r.steps.size() == 3);
    CHECK(r.steps[2].tool == "add");
    CHECK(consistent(f.agent.conversation()));
    CHECK(f.agent.conversation().back().text == "3");
}

TEST_CASE("stop_at_tools: a stop tool that fails does not stop the run, the model repairs the call") {
    fixture<stop_at_book> f;
    f.s->turns = {calls({call("c1", "book_table", R"({"place":7})")}),
                  calls({call("c2", "book_table", R"({"place":"Chez Anna"})")})};
    const agentry::run_result r = f.agent.run("Book Chez Anna.");
    CHECK(r.stop == agentry::stop_reason::stop_at_tool);
    CHECK(r.turns == 2);
    REQUIRE(r.steps.size() == 2);
    CHECK(r.steps[0].status == agentry::tool_status::invalid_arguments);
    CHECK(r.text == "Booked a table at Chez Anna for 8 pm.");
}

TEST_CASE("stop_at_tools: a run paused for approval stops at the tool when resumed") {
    constexpr agentry::tool_policy careful{.level = agentry::permission::write, .needs_approval = true};
    constexpr agentry::registry guarded{
        agentry::with_policy<careful>(agentry::tool<"book_table", "Books a table.", "place">(book_table))};
    auto s = std::make_shared<scripted::script>();
    agentry::agent<stop_at_book> agent{scripted::model{s}, guarded, "", scripted::quiet_transport{}};
    s->turns = {calls({call("c1", "book_table", R"({"place":"Chez Anna"})")})};
    agentry::run_result r = agent.run("Book it.");
    REQUIRE(r.stop == agentry::stop_reason::approval_pending);
    const agentry::approval_decision yes{"c1", R"({"place":"Chez Anna"})", agentry::approval::approve()};
    r = agent.run(agentry::approvals{{yes}});
    CHECK(r.stop == agentry::stop_reason::stop_at_tool);
    CHECK(r.text == "Booked a table at Chez Anna for 8 pm.");
    CHECK(s->requests.size() == 1);
}

TEST_CASE("agent_options::stop_at_tools: a name no tool has stops each run at once, nothing sent to the model") {
    fixture<agentry::loop_config{}> f({.stop_at_tools = {"add", "send_mail"}});
    f.s->turns = {calls({call("c1", "add", R"({"a":1,"b":1})")})};
    const agentry::run_result r = f.agent.run("Mail it.");
    CHECK(r.stop == agentry::stop_reason::invalid_input);
    CHECK(agentry::to_string(r.stop) == "invalid_input");
    CHECK(r.text == R"(agentry: agent_options::stop_at_tools names "send_mail", which is no tool of this agent; name a )"
                    R"(registry tool, or add the tool with add_tools first)");
    CHECK(r.turns == 0);
    CHECK(r.steps.empty());
    CHECK(f.s->requests.empty());
    CHECK(f.agent.conversation().size() == 1);  // the system prompt: the input was not added
    // Each run, not only the first.
    CHECK(f.agent.run("Again.").stop == agentry::stop_reason::invalid_input);
    CHECK(f.s->requests.empty());
}

namespace {

agentry::dynamic_tool_source mail_tool() {
    return [](const agentry::dynamic_tools_target&) -> agentry::outcome<std::vector<agentry::dynamic_tool>> {
        agentry::dynamic_tool t{"send_mail",
                                R"({"type":"function","function":{"name":"send_mail","parameters":{"type":"object"}}})",
                                [](std::string_view, const agentry::call_scope&) {
                                    agentry::tool_result out;
                                    out.content = "sent";
                                    return out;
                                }};
        return std::vector<agentry::dynamic_tool>{t};
    };
}

} // namespace

TEST_CASE("agent_options::stop_at_tools: a tool added with add_tools, or a registry tool") {
    fixture<agentry::loop_config{}> f({.stop_at_tools = {"send_mail"}});
    REQUIRE(f.agent.add_tools(mail_tool()).has_value());
    f.s->turns = {calls({call("c1", "add", R"({"a":1,"b":1})")}), calls({call("c2", "send_mail", "{}")})};
    agentry::run_result r = f.agent.run("Mail it.");
    CHECK(r.stop == agentry::stop_reason::stop_at_tool);
    CHECK(r.text == "sent");
    CHECK(r.turns == 2);

    // The same name refused before add_tools is known once the tool is added.
    fixture<agentry::loop_config{}> later({.stop_at_tools = {"send_mail"}});
    REQUIRE(later.agent.run("Mail it.").stop == agentry::stop_reason::invalid_input);
    REQUIRE(later.agent.add_tools(mail_tool()).has_value());
    later.s->turns = {calls({call("c1", "send_mail", "{}")})};
    r = later.agent.run("Mail it.");
    CHECK(r.stop == agentry::stop_reason::stop_at_tool);
    CHECK(r.text == "sent");
    CHECK(r.turns == 1);

    fixture<agentry::loop_config{}> g({.stop_at_tools = {"add"}});
    g.s->turns = {calls({call("c3", "add", R"({"a":2,"b":3})")})};
    r = g.agent.run("Add.");
    CHECK(r.stop == agentry::stop_reason::stop_at_tool);
    CHECK(r.text == "5");
}

TEST_CASE("max_total_tokens: no model request once the run's usage reaches the budget") {
    fixture<agentry::loop_config{.max_total_tokens = 40}> f;
    f.s->turns = {calls({call("c1", "add", R"({"a":1,"b":1})")}, {10, 5}),
                  calls({call("c2", "add", R"({"a":2,"b":2})")}, {20, 6}), answer("never asked")};
    const agentry::run_result r = f.agent.run("Add things.");
    CHECK(r.stop == agentry::stop_reason::token_budget);
    CHECK(r.text == "The run used 41 tokens, its budget being 40.");
    CHECK(r.turns == 2);
    CHECK(r.steps.size() == 2);  // the calls of the turn that passed it still ran
    CHECK(f.s->requests.size() == 2);
    CHECK(consistent(f.agent.conversation()));

    // A turn that stays within it goes on; a final answer past it is still the answer.
    fixture<agentry::loop_config{.max_total_tokens = 40}> g;
    g.s->turns = {calls({call("c1", "add", R"({"a":1,"b":1})")}, {10, 5}), answer("2", {30, 9})};
    const agentry::run_result done = g.agent.run("Add.");
    CHECK(done.stop == agentry::stop_reason::completed);
    CHECK(done.text == "2");

    // The usage a continued run starts from counts.
    fixture<agentry::loop_config{.max_total_tokens = 40}> h;
    agentry::run_result progress;
    progress.usage = {40, 0};
    const agentry::run_result spent = h.agent.run(agentry::continuation{progress});
    CHECK(spent.stop == agentry::stop_reason::token_budget);
    CHECK(h.s->requests.empty());
}

TEST_CASE("max_tool_calls: calls past the budget are answered without running, and the run stops") {
    fixture<agentry::loop_config{.max_tool_calls = 3}> f;
    f.s->turns = {calls({call("c1", "add", R"({"a":1,"b":1})"), call("c2", "add", R"({"a":1,"b":2})")}),
                  calls({call("c3", "add", R"({"a":1,"b":3})"), call("c4", "add", R"({"a":1,"b":4})"),
                         call("c5", "add", R"({"a":1,"b":5})")}),
                  answer("after the stop")};
    agentry::run_result r = f.agent.run("Add many.");
    CHECK(r.stop == agentry::stop_reason::tool_call_budget);
    CHECK(r.text == "The run reached its budget of 3 tool calls; the model asked for 2 more.");
    REQUIRE(r.steps.size() == 3);
    CHECK(r.steps[2].id == "c3");
    const std::vector<agentry::message>& h = f.agent.conversation();
    CHECK(consistent(h));
    REQUIRE(h.size() == 9);
    CHECK(h[6].tool_call_id == "c3");
    CHECK(h[6].text == "4");
    CHECK(h[7].tool_call_id == "c4");
    CHECK(h[7].is_error);
    CHECK(h[7].text == "Not run: this run's budget of 3 tool calls is used up, and the run stops here.");
    CHECK(h[8].tool_call_id == "c5");

    // The next run has a budget of its own, and the conversation is valid to go on with.
    r = f.agent.run("And the answer?");
    CHECK(r.stop == agentry::stop_reason::completed);
    CHECK(r.text == "after the stop");
    CHECK(f.s->requests.back().messages.size() == 10);
}

TEST_CASE("max_tool_calls: a turn that uses the budget exactly goes on, so the model can answer") {
    fixture<agentry::loop_config{.max_tool_calls = 2}> f;
    f.s->turns = {calls({call("c1", "add", R"({"a":1,"b":1})"), call("c2", "add", R"({"a":1,"b":2})")}),
                  answer("2 and 3")};
    CHECK(f.agent.run("Add.").stop == agentry::stop_reason::completed);

    // A turn whose every call is past the budget runs none.
    fixture<agentry::loop_config{.max_tool_calls = 1}> g;
    g.s->turns = {calls({call("c1", "add", R"({"a":1,"b":1})")}), calls({call("c2", "add", R"({"a":1,"b":2})")})};
    const agentry::run_result r = g.agent.run("Add.");
    CHECK(r.stop == agentry::stop_reason::tool_call_budget);
    CHECK(r.steps.size() == 1);
    CHECK(consistent(g.agent.conversation()));
}

TEST_CASE("agent_options::stop_condition: checked before each model request with the run so far") {
    std::vector<std::size_t> seen;  // steps, per check
    enum class mode { after_two_steps, always, never } when = mode::after_two_steps;
    fixture<agentry::loop_config{}> f({.stop_condition = [&](const agentry::run_state_view& s) {
        if (when == mode::always) return true;
        if (when == mode::never) return false;
        seen.push_back(s.result.steps.size());
        CHECK(s.conversation.size() >= 2);
        CHECK(s.elapsed.count() >= 0);
        return s.result.steps.size() >= 2;
    }});
    f.s->turns = {calls({call("c1", "find_place", R"({"city":"Lyon"})")}),
                  calls({call("c2", "find_place", R"({"city":"Nice"})")}), answer("never asked")};
    const agentry::run_result r = f.agent.run("Find places.");
    CHECK(r.stop == agentry::stop_reason::stop_condition);
    CHECK(r.text == "The run was stopped by its stop condition after 2 turns.");
    CHECK(seen == std::vector<std::size_t>{0, 1, 2});
    CHECK(f.s->requests.size() == 2);
    CHECK(consistent(f.agent.conversation()));

    // True from the start: no request at all.
    when = mode::always;
    const agentry::run_result none = f.agent.run("Again.");
    CHECK(none.stop == agentry::stop_reason::stop_condition);
    CHECK(none.turns == 0);
    CHECK(f.s->requests.size() == 2);

    when = mode::never;
    CHECK(f.agent.run("Now answer.").stop == agentry::stop_reason::completed);

    // An agent without one is never stopped by it.
    fixture<agentry::loop_config{}> plain;
    plain.s->turns = {calls({call("c1", "find_place", R"({"city":"Lyon"})")}), answer("Chez Anna.")};
    CHECK(plain.agent.run("Find a place.").stop == agentry::stop_reason::completed);
}

TEST_CASE("agent_options::stop_condition: a throw stops the run with callback_error") {
    fixture<agentry::loop_config{}> f({.stop_condition = [](const agentry::run_state_view& s) -> bool {
        if (s.result.turns == 1) throw std::runtime_error("no state");
        return false;
    }});
    f.s->turns = {calls({call("c1", "add", R"({"a":1,"b":1})")}), answer("never asked")};
    agentry::run_result r = f.agent.run("Add.");
    CHECK(r.stop == agentry::stop_reason::callback_error);
    CHECK(r.text == "agentry: the stop condition callback threw: no state; the run stopped");
    CHECK(consistent(f.agent.conversation()));

    fixture<agentry::loop_config{}> g({.stop_condition = [](const agentry::run_state_view&) -> bool { throw 42; }});
    r = g.agent.run("Add.");
    CHECK(r.stop == agentry::stop_reason::callback_error);
    CHECK(r.text == "agentry: the stop condition callback threw an exception that is not a std::exception; the run "
                    "stopped");
}
