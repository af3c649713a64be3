// SPDX-License-Identifier: BSL-1.0
// Context compression by summary: which messages a summary replaces, and the agent asking the
// scripted model for one, keeping it in the conversation, folding an earlier one into the next,
// and falling back to trimming when the summary request fails.
#include "scripted.hpp"

#include <agentry/agent.hpp>
#include <agentry/loop/summary.hpp>
#include <agentry/registry.hpp>

#include <doctest/doctest.h>

#include <memory>
#include <stdexcept>
#include <string>
#include <utility>
#include <vector>

using agentry::message;
using scripted::answer;
using scripted::call;
using scripted::calls;

namespace {

constexpr agentry::registry tools{
    agentry::tool<"add", "Adds two integers.", "a", "b">(+[](int a, int b) { return static_cast<long long>(a) + b; }),
};

// Every message counts 10 tokens.
std::size_t flat(const message&) { return 10; }

constexpr agentry::loop_config summarizing{.context_budget_tokens = 60,
                                           .compression = agentry::context_compression::summary};

struct fixture {
    explicit fixture(agentry::agent_options options = {.system_prompt = "You add.", .token_estimator = flat})
        : agent{scripted::model{s}, tools, std::move(options), scripted::quiet_transport{}} {}
    std::shared_ptr<scripted::script> s = std::make_shared<scripted::script>();
    agentry::agent<summarizing> agent;
};

const std::string heading = "Summary of the earlier conversation (it replaces ";

agentry::tool_call add_call(std::string id, int a, int b) {
    return call(std::move(id), "add", R"({"a":)" + std::to_string(a) + R"(,"b":)" + std::to_string(b) + "}");
}

} // namespace

TEST_CASE("plan_summary: oldest exchanges, then turns after the latest user message, calls with their results") {
    const agentry::tool_call c1{"c1", "add", "{}", {}}, c2{"c2", "add", "{}", {}}, c3{"c3", "add", "{}", {}},
        c4{"c4", "add", "{}", {}};
    const std::vector<message> h{message::system("sys"),          message::user("u1"),
                                 message::assistant("", {c1, c2}), message::tool_result(c1, "r1"),
                                 message::tool_result(c2, "r2"),   message::assistant("a2"),
                                 message::user("u2"),              message::assistant("", {c3}),
                                 message::tool_result(c3, "r3"),   message::assistant("", {c4}),
                                 message::tool_result(c4, "r4")};
    CHECK_FALSE(agentry::detail::plan_summary(h, 110, flat));
    CHECK_FALSE(agentry::detail::plan_summary(h, 0, flat));
    const auto plan = agentry::detail::plan_summary(h, 60, flat);  // 110 tokens down to at most 45
    REQUIRE(plan);
    CHECK(plan->count == 7);
    CHECK(plan->at == 1);
    CHECK(plan->replaced ==
          std::vector<bool>{false, true, true, true, true, true, false, true, true, false, false});
    CHECK(agentry::detail::summary_transcript(h, *plan) ==
          "User: u1\n\nAssistant called add with {}\n\nAssistant called add with {}\n\nResult of add: r1\n\nResult of "
          "add: r2\n\nAssistant: a2\n\nAssistant called add with {}\n\nResult of add: r3");
    const std::vector<message> after = agentry::detail::apply_summary(h, *plan, "They added.");
    REQUIRE(after.size() == 5);
    CHECK(after[0].text == "sys");
    CHECK(after[1].role == agentry::role::system);
    CHECK(after[1].text ==
          heading + "7 messages; the model wrote it to fit the context budget):\nThey added.");
    CHECK(agentry::detail::is_summary(after[1]));
    CHECK_FALSE(agentry::detail::is_summary(after[0]));
    CHECK(after[2].text == "u2");
    CHECK(after[3].tool_calls.size() == 1);
    CHECK(after[4].tool_call_id == "c4");

    // Nothing but the essentials (the latest user message, the last turn) and an earlier summary:
    // nothing to summarize; the requests are trimmed instead.
    const std::vector<message> bare{message::system("sys"), after[1], message::user("u"), message::assistant("", {c1}),
                                    message::tool_result(c1, "r1")};
    CHECK_FALSE(agentry::detail::plan_summary(bare, 20, flat));

    // A failed result is marked as one in the transcript.
    const std::vector<message> failed{message::user("u0"), message::assistant("", {c1}),
                                      message::tool_result(c1, "no", true), message::user("u1")};
    const auto p = agentry::detail::plan_summary(failed, 20, flat);
    REQUIRE(p);
    CHECK(agentry::detail::summary_transcript(failed, *p) ==
          "User: u0\n\nAssistant called add with {}\n\nResult of add (an error): no");
}

TEST_CASE("summary compression: the model summarizes the oldest turns, and the conversation keeps the summary") {
    fixture f;
    f.s->turns = {calls({add_call("c1", 1, 1)}), answer("A1"), calls({add_call("c2", 2, 2)}),
                  answer("Q1 was 1+1, which is 2."), answer("A2")};
    agentry::run_result r = f.agent.run("Q1");  // 50 tokens at most: no summary
    CHECK(r.stop == agentry::stop_reason::completed);
    CHECK(r.summarized_messages == 0);
    REQUIRE(f.s->requests.size() == 2);

    r = f.agent.run("Q2");  // 80 tokens before the last turn: a summary first
    CHECK(r.stop == agentry::stop_reason::completed);
    CHECK(r.text == "A2");
    REQUIRE(f.s->requests.size() == 5);
    const scripted::asked& summary = f.s->requests[3];
    CHECK_FALSE(summary.tools);
    CHECK_FALSE(summary.stream);
    REQUIRE(summary.messages.size() == 2);
    CHECK(summary.messages[0].role == agentry::role::system);
    CHECK(summary.messages[0].text.find("You condense the earlier part of a conversation") == 0);
    CHECK(summary.messages[1].text ==
          "Summarize this part of the conversation:\n\nUser: Q1\n\nAssistant called add with "
          R"({"a":1,"b":1})"
          "\n\nResult of add: 2\n\nAssistant: A1");

    const std::string expected = heading + "4 messages; the model wrote it to fit the context budget):\nQ1 was 1+1, which is 2.";
    const std::vector<message>& sent = f.s->requests[4].messages;
    REQUIRE(sent.size() == 5);
    CHECK(sent[0].text == "You add.");
    CHECK(sent[1].text == expected);
    CHECK(sent[2].text == "Q2");
    CHECK(sent[3].tool_calls.at(0).id == "c2");
    CHECK(sent[4].tool_call_id == "c2");

    CHECK(r.summarized_messages == 4);
    CHECK(r.trimmed_messages == 0);
    CHECK_FALSE(r.summary_error);
    CHECK(r.summary_usage == agentry::token_usage{10, 5});
    CHECK(r.usage == agentry::token_usage{30, 15});  // two turns and the summary
    CHECK(r.turn_usage.size() == 2);
    CHECK(r.turns == 2);
    REQUIRE(f.agent.conversation().size() == 6);
    CHECK(f.agent.conversation()[1].text == expected);
    CHECK(f.agent.save().find("Q1 was 1+1, which is 2.") != std::string::npos);
    CHECK(f.agent.save().find(R"("text":"Q1")") == std::string::npos);

    // The next compression folds this summary into the new one.
    f.s->turns = {answer("Q1 and Q2 were sums."), answer("A3")};
    r = f.agent.run("Q3");  // 70 tokens: a summary before the first request
    CHECK(r.text == "A3");
    REQUIRE(f.s->requests.size() == 7);
    CHECK(f.s->requests[5].messages[1].text ==
          "Summarize this part of the conversation:\n\nSummary of what came before: Q1 was 1+1, which is 2.\n\nUser: "
          "Q2\n\nAssistant called add with "
          R"({"a":2,"b":2})"
          "\n\nResult of add: 4\n\nAssistant: A2");
    CHECK(r.summarized_messages == 5);
    const std::vector<message>& now = f.agent.conversation();
    REQUIRE(now.size() == 4);
    CHECK(now[1].text == heading + "5 messages; the model wrote it to fit the context budget):\nQ1 and Q2 were sums.");
    CHECK(now[2].text == "Q3");
    CHECK(now[3].text == "A3");

    // A restored conversation keeps its summary, which the next compression recognises.
    fixture g;
    REQUIRE(g.agent.restore(f.agent.save()));
    CHECK(agentry::detail::is_summary(g.agent.conversation()[1]));
}

TEST_CASE("summary compression: a failed summary request falls back to trimming, once per run") {
    fixture f;
    f.s->turns = {calls({add_call("c1", 1, 1)}), answer("A1"), calls({add_call("c2", 2, 2)}),
                  scripted::failure(401, false), calls({add_call("c3", 3, 3)}), answer("A2")};
    CHECK(f.agent.run("Q1").stop == agentry::stop_reason::completed);
    const agentry::run_result r = f.agent.run("Q2");
    CHECK(r.stop == agentry::stop_reason::completed);
    CHECK(r.text == "A2");
    REQUIRE(r.summary_error);
    CHECK(r.summary_error->message ==
          "agentry: the summary request failed (HTTP 401); the requests were trimmed instead");
    CHECK(r.summary_error->status == 401);
    CHECK(r.summarized_messages == 0);
    CHECK(r.trimmed_messages > 0);
    REQUIRE(f.s->requests.size() == 6);  // 2 + the turn, the failed summary, 2 turns: no second summary
    CHECK_FALSE(f.s->requests[3].tools);
    CHECK(f.s->requests[4].tools);
    CHECK(f.s->requests[5].tools);
    const std::vector<message>& trimmed = f.s->requests[4].messages;
    CHECK(trimmed[0].text.find("earlier messages of this conversation were left out to fit the context budget") !=
          std::string::npos);
    CHECK(f.agent.conversation().size() == 11);  // nothing replaced
    CHECK(f.agent.save().find(heading) == std::string::npos);
}

TEST_CASE("summary compression: an empty or refused summary is a failure too") {
    fixture f;
    f.s->turns = {calls({add_call("c1", 1, 1)}), answer("A1"), calls({add_call("c2", 2, 2)}), answer(""),
                  answer("A2")};
    CHECK(f.agent.run("Q1").stop == agentry::stop_reason::completed);
    agentry::run_result r = f.agent.run("Q2");
    CHECK(r.text == "A2");
    REQUIRE(r.summary_error);
    CHECK(r.summary_error->message ==
          "agentry: the summary request failed (the model wrote no summary); the requests were trimmed instead");
    CHECK(r.summary_usage == agentry::token_usage{10, 5});  // it was used all the same

    agentry::turn_result refused = answer("I cannot help with that.");
    refused.value->finish = agentry::finish_reason::refusal;
    f.s->turns = {refused, answer("A3")};
    r = f.agent.run("Q3");
    CHECK(r.text == "A3");
    REQUIRE(r.summary_error);
    CHECK(r.summary_error->message == "agentry: the summary request failed (the model refused to write the "
                                      "summary); the requests were trimmed instead");
}

TEST_CASE("summary compression: a throwing token estimator stops the run with callback_error") {
    fixture f({.system_prompt = "You add.",
               .token_estimator = [](const message&) -> std::size_t { throw std::runtime_error("no count"); }});
    f.s->turns = {answer("A1")};
    const agentry::run_result r = f.agent.run("Q1");
    CHECK(r.stop == agentry::stop_reason::callback_error);
    CHECK(r.text == "agentry: the token estimator callback threw: no count; the run stopped");
    CHECK(f.s->requests.empty());
}
