// SPDX-License-Identifier: BSL-1.0
// agentry::agent over agentry::curl_transport against model_server.mjs, the same scenarios in
// the OpenAI, Anthropic, Gemini and Ollama formats: run_result, and what the server received.
// Nothing is timed: limits are asserted by stop reason and status, with wide margins.

#include "harness.hpp"
#include "tools.hpp"

#include <agentry/agent.hpp>

#include <doctest/doctest.h>

#include <chrono>
#include <string>
#include <thread>
#include <type_traits>
#include <vector>

using namespace agentry_test;
using agentry::stop_reason;
using agentry::tool_status;

#define ALL_APIS openai_api, anthropic_api, gemini_api, ollama_api

namespace {

/// The options of the agents of these tests: `options` with the system prompt "You are a test.".
agentry::agent_options test_options(agentry::agent_options options = {}) {
    options.system_prompt = "You are a test.";
    return options;
}

/// An agent on scenario `<what>-<api>`, scripted with `turns`.
template <class Api, agentry::loop_config Config = agentry::loop_config{}>
struct run_on {
    std::string name;
    agentry::agent<Config> agent;

    run_on(const std::string& what, const std::string& turns, agentry::agent_options options = {})
        : name(what + "-" + Api::name),
          agent{Api::make(name), tools, test_options(std::move(options)), agentry::curl_transport{}} {
        script(name, turns);
    }

    std::vector<sent_request> sent() const { return requests<Api>(name); }
};

template <class Api>
void check_error_mark(const sent_result& r, bool error) {
    if constexpr (Api::marks_errors) CHECK(r.is_error == error);
    else CHECK_FALSE(r.is_error.has_value());
}

} // namespace

TEST_CASE_TEMPLATE("a multi-turn run with parallel calls: steps, usage sums, the history sent back", Api, ALL_APIS) {
    run_on<Api, agentry::loop_config{.parallel_tool_calls = true, .max_parallelism = 3}> t("parallel", R"([
        {"calls":[{"name":"get_weather","args":{"city":"Paris"}},{"name":"add","args":{"a":1,"b":2}},{"name":"slow","args":{"ms":30}}],
         "usage":{"input":11,"output":3}},
        {"calls":[{"name":"add","args":{"a":3,"b":4}}],"usage":{"input":25,"output":4}},
        {"text":"Rain in Paris; 3, then 7.","usage":{"input":40,"output":6}}])");
    const agentry::run_result r = t.agent.run("Umbrella in Paris? And 1+2, then 3+4.");
    CHECK(r.stop == stop_reason::completed);
    CHECK(r.text == "Rain in Paris; 3, then 7.");
    CHECK(r.turns == 3);
    CHECK(r.usage == agentry::token_usage{76, 13});
    CHECK(r.turn_usage == std::vector<agentry::token_usage>{{11, 3}, {25, 4}, {40, 6}});
    REQUIRE(r.steps.size() == 4);
    const std::vector<std::string> names{"get_weather", "add", "slow", "add"};
    const std::vector<std::string> results{"Paris: 18 C, rain", "3", "30", "7"};
    for (std::size_t i = 0; i != 4; ++i) {
        CHECK(r.steps[i].tool == names[i]);
        CHECK(r.steps[i].status == tool_status::ok);
        CHECK(r.steps[i].result_excerpt == results[i]);
        CHECK(r.steps[i].turn == (i < 3 ? 1u : 2u));
    }

    const auto sent = t.sent();
    REQUIRE(sent.size() == 3);
    for (const sent_request& s : sent) {
        CHECK(s.system == "You are a test.");
        CHECK(s.tools);
        CHECK_FALSE(s.stream);
        check_pairs<Api>(s);
        REQUIRE(!s.messages.empty());
        CHECK(s.messages[0].role == "user");
        CHECK(s.messages[0].text == "Umbrella in Paris? And 1+2, then 3+4.");
    }
    CHECK(sent[0].messages.size() == 1);
    REQUIRE(sent[1].messages.size() == 3);
    const auto& calls = sent[1].messages[1].calls;
    REQUIRE(calls.size() == 3);
    CHECK(calls[0].arguments == R"({"city":"Paris"})");
    CHECK(calls[2].arguments == R"({"ms":30})");
    const auto& first = sent[1].last_results();
    for (std::size_t i = 0; i != 3; ++i) {
        CHECK(first[i].content == results[i]);
        check_error_mark<Api>(first[i], false);
        if constexpr (Api::ids) CHECK(first[i].id == r.steps[i].id);
    }
    REQUIRE(sent[2].messages.size() == 5);
    CHECK(sent[2].messages[3].calls[0].arguments == R"({"a":3,"b":4})");
    CHECK(sent[2].last_results()[0].content == "7");
}

TEST_CASE_TEMPLATE("invalid arguments go back as an error, the repaired call runs", Api, ALL_APIS) {
    run_on<Api> t("repair", R"([{"calls":[{"name":"add","args":{"a":1,"b":"two"}}]},
                                {"calls":[{"name":"add","args":{"a":1,"b":2}}]},{"text":"3"}])");
    const auto r = t.agent.run("1+2?");
    CHECK(r.stop == stop_reason::completed);
    CHECK(r.text == "3");
    REQUIRE(r.steps.size() == 2);
    CHECK(r.steps[0].status == tool_status::invalid_arguments);
    CHECK(r.steps[1].status == tool_status::ok);
    const auto sent = t.sent();
    REQUIRE(sent.size() == 3);
    const sent_result& error = sent[1].last_results().at(0);
    CHECK(error.content ==
          "add: invalid arguments: /b: expected an integer, got a string \"two\". Fix the arguments and call add again.");
    check_error_mark<Api>(error, true);
    CHECK(sent[2].messages.at(1).calls.at(0).arguments == R"({"a":1,"b":"two"})");
    CHECK(sent[2].last_results().at(0).content == "3");
    check_error_mark<Api>(sent[2].last_results()[0], false);
}

TEST_CASE_TEMPLATE("an unknown tool and a throwing tool become error results", Api, ALL_APIS) {
    run_on<Api> t("errors", R"([{"calls":[{"name":"get_wether","args":{"city":"Oslo"}},{"name":"fail","args":{}}]},
                                {"text":"Sorry."}])");
    const auto r = t.agent.run("Weather in Oslo?");
    CHECK(r.stop == stop_reason::completed);
    REQUIRE(r.steps.size() == 2);
    CHECK(r.steps[0].status == tool_status::unknown_tool);
    CHECK(r.steps[1].status == tool_status::tool_error);
    const auto sent = t.sent();
    REQUIRE(sent.size() == 2);
    const auto& results = sent[1].last_results();
    REQUIRE(results.size() == 2);
    CHECK(results[0].content.starts_with("unknown tool \"get_wether\" (did you mean \"get_weather\"?)"));
    CHECK(results[1].content == "fail failed: disk full");
    check_error_mark<Api>(results[0], true);
    check_error_mark<Api>(results[1], true);
    check_pairs<Api>(sent[1]);
}

TEST_CASE_TEMPLATE("a tool past its timeout is abandoned and the model is told", Api, ALL_APIS) {
    slow_release = false;
    run_on<Api, agentry::loop_config{.tool_timeout = std::chrono::milliseconds(50)}> t("tool-timeout", R"([
        {"calls":[{"name":"slow","args":{"ms":2000}},{"name":"add","args":{"a":2,"b":2}}]},{"text":"ok"}])");
    const auto r = t.agent.run("go");
    slow_release = true;  // ends the abandoned call
    CHECK(r.stop == stop_reason::completed);
    REQUIRE(r.steps.size() == 2);
    CHECK(r.steps[0].timed_out);
    CHECK(r.steps[0].status == tool_status::tool_error);
    CHECK_FALSE(r.steps[1].timed_out);
    CHECK(r.steps[1].result_excerpt == "4");
    const auto sent = t.sent();
    REQUIRE(sent.size() == 2);
    const auto& results = sent[1].last_results();
    REQUIRE(results.size() == 2);
    CHECK(results[0].content ==
          "slow did not finish within 50 ms; it was abandoned. Try a narrower request or another tool.");
    check_error_mark<Api>(results[0], true);
    CHECK(results[1].content == "4");
}

TEST_CASE_TEMPLATE("loop detection: A,A,A and A,B,A,B,A,B", Api, ALL_APIS) {
    constexpr agentry::loop_config config{.max_turns = 20};
    std::string same, pair;
    for (int i = 0; i != 5; ++i) same += R"({"calls":[{"name":"add","args":{"a":1,"b":1}}]},)";
    for (int i = 0; i != 8; ++i)
        pair += i % 2 ? R"({"calls":[{"name":"add","args":{"a":1,"b":1}}]},)" : R"({"calls":[{"name":"add","args":{"a":2,"b":2}}]},)";
    run_on<Api, config> a("loop-aaa", "[" + same + R"({"text":"never"}])");
    auto r = a.agent.run("loop");
    CHECK(r.stop == stop_reason::loop_detected);
    CHECK(r.text == "The model repeated the same tool calls 3 times.");
    CHECK(r.turns == 3);
    CHECK(a.sent().size() == 3);

    run_on<Api, config> ab("loop-abab", "[" + pair + R"({"text":"never"}])");
    r = ab.agent.run("loop");
    CHECK(r.stop == stop_reason::loop_detected);
    CHECK(r.turns == 6);
    const auto sent = ab.sent();
    REQUIRE(sent.size() == 6);
    check_pairs<Api>(sent.back());
}

TEST_CASE_TEMPLATE("max turns with early_stopping::force", Api, ALL_APIS) {
    run_on<Api, agentry::loop_config{.max_turns = 2}> t("force", R"([
        {"calls":[{"name":"add","args":{"a":0,"b":1}}]},{"calls":[{"name":"add","args":{"a":1,"b":1}}]},
        {"calls":[{"name":"add","args":{"a":2,"b":1}}]},{"text":"never"}])");
    const auto r = t.agent.run("go");
    CHECK(r.stop == stop_reason::max_turns);
    CHECK(r.text == "Stopped after 2 turns without a final answer.");
    CHECK(r.turns == 2);
    CHECK(r.steps.size() == 2);
    CHECK(t.sent().size() == 2);
}

TEST_CASE_TEMPLATE("max turns with early_stopping::generate: one more turn, with tool_choice none", Api, ALL_APIS) {
    run_on<Api, agentry::loop_config{.max_turns = 2, .early_stopping = agentry::early_stopping::generate}> t("generate", R"([
        {"calls":[{"name":"add","args":{"a":1,"b":1}}],"usage":{"input":5,"output":1}},
        {"calls":[{"name":"add","args":{"a":2,"b":1}}],"usage":{"input":6,"output":1}},
        {"text":"It is 3.","usage":{"input":7,"output":2}}])");
    const auto r = t.agent.run("go");
    CHECK(r.stop == stop_reason::max_turns);
    CHECK(r.text == "It is 3.");
    CHECK(r.turns == 3);
    CHECK_FALSE(r.error.has_value());
    CHECK(r.usage == agentry::token_usage{18, 4});
    const auto sent = t.sent();
    REQUIRE(sent.size() == 3);
    CHECK(sent[1].tools);
    REQUIRE(sent[2].messages.size() == 6);
    CHECK(sent[2].messages[4].role == "results");
    CHECK(sent[2].messages[5].role == "user");
    CHECK(sent[2].messages[5].text ==
          "You have used every turn allowed. Give your final answer now from what you have, without tools.");
}

TEST_CASE_TEMPLATE("the total time limit stops the run", Api, ALL_APIS) {
    // The first turn takes 600 ms; the limit is 300 ms.
    run_on<Api, agentry::loop_config{.max_total_time = std::chrono::milliseconds(300)}> t("total-timeout", R"([
        {"calls":[{"name":"add","args":{"a":1,"b":1}}],"delay_ms":600},{"text":"late"}])");
    const auto r = t.agent.run("go");
    CHECK(r.stop == stop_reason::timeout);
    CHECK(r.text == "The run took longer than its time limit of 300 ms.");
    CHECK(r.turns == 1);
    CHECK(r.steps.size() == 1);
    CHECK(t.sent().size() == 1);
}

TEST_CASE_TEMPLATE("a 429 with a delay of 1 s is retried after that delay, then the run completes", Api, ALL_APIS) {
    std::vector<std::chrono::milliseconds> delays;
    agentry::agent_events events;
    events.on_retry = [&](const agentry::provider_error& e, std::chrono::milliseconds delay) {
        CHECK(e.kind == agentry::provider_error_kind::rate_limited);
        CHECK(e.status == 429);
        CHECK(e.message == "slow down");
        delays.push_back(delay);
    };
    run_on<Api, agentry::loop_config{.retry = {.max_retries = 2, .initial_backoff = std::chrono::milliseconds(1), .max_backoff = std::chrono::milliseconds(2)}}> t(
        "rate-limited", R"([{"status":429,"message":"slow down","retry_after":1},{"text":"hello","usage":{"input":7,"output":2}}])",
        {.events = events});
    const auto r = t.agent.run("hi");
    CHECK(r.stop == stop_reason::completed);
    CHECK(r.text == "hello");
    CHECK(r.turns == 1);
    CHECK(r.usage == agentry::token_usage{7, 2});
    CHECK(delays == std::vector<std::chrono::milliseconds>{std::chrono::milliseconds(1000)});
    const auto sent = t.sent();
    REQUIRE(sent.size() == 2);
    CHECK(sent[0].body == sent[1].body);
}

TEST_CASE_TEMPLATE("a 401 stops the run at once", Api, ALL_APIS) {
    int retries = 0;
    agentry::agent_events events;
    events.on_retry = [&](const agentry::provider_error&, std::chrono::milliseconds) { ++retries; };
    run_on<Api> t("unauthorized", R"([{"status":401,"message":"invalid key"},{"text":"never"}])", {.events = events});
    const auto r = t.agent.run("hi");
    CHECK(r.stop == stop_reason::provider_error);
    CHECK(r.text == "invalid key");
    REQUIRE(r.error);
    CHECK(r.error->status == 401);
    CHECK(r.error->kind == agentry::provider_error_kind::authentication);
    CHECK_FALSE(r.error->retryable);
    CHECK(r.turns == 0);
    CHECK(retries == 0);
    CHECK(t.sent().size() == 1);
}

TEST_CASE_TEMPLATE("the context budget trims a long run, never separating calls from their results", Api, ALL_APIS) {
    std::string turns = "[";
    for (int i = 0; i != 12; ++i)
        turns += R"({"calls":[{"name":"add","args":{"a":)" + std::to_string(i) + R"(,"b":100}},{"name":"add","args":{"a":)" +
                 std::to_string(i) + R"(,"b":200}}]},)";
    turns += R"({"text":"finished"}])";
    run_on<Api, agentry::loop_config{.max_turns = 30, .loop_threshold = 0, .context_budget_tokens = 150}> t("budget", turns);
    const std::string input = "Add a long series of numbers, please, and keep going until the end.";
    const auto r = t.agent.run(input);
    CHECK(r.stop == stop_reason::completed);
    CHECK(r.turns == 13);
    CHECK(r.trimmed_messages > 0);
    const auto sent = t.sent();
    REQUIRE(sent.size() == 13);
    std::size_t shortened = 0;
    for (std::size_t n = 0; n != sent.size(); ++n) {
        CAPTURE(n);
        const sent_request& s = sent[n];
        check_pairs<Api>(s);
        CHECK(s.system.starts_with("You are a test."));
        // The user's message is kept, first; then whole turns, the latest ones.
        REQUIRE(!s.messages.empty());
        CHECK(s.messages[0].role == "user");
        CHECK(s.messages[0].text == input);
        if (n != 0) {
            CHECK(s.messages.back().role == "results");
            REQUIRE(s.messages.back().results.size() == 2);
            const int a = static_cast<int>(n) - 1;
            CHECK(s.messages.back().results[0].content == std::to_string(a + 100));
            CHECK(s.messages.back().results[1].content == std::to_string(a + 200));
        }
        if (s.messages.size() < 1 + 2 * n) {
            ++shortened;
            CHECK(s.system.find("earlier messages of this conversation were left out to fit the context budget.") !=
                  std::string::npos);
        } else {
            CHECK(s.system == "You are a test.");
        }
    }
    CHECK(shortened > 5);
    CHECK(t.agent.conversation().size() == 1 + 1 + 12 * 3 + 1);
}

TEST_CASE_TEMPLATE("save after a run, restore in a new agent: the next request has the whole history", Api, ALL_APIS) {
    const std::string turns = R"([{"calls":[{"name":"add","args":{"a":1,"b":2},"signature":"c2lnLWFkZA=="}],"usage":{"input":9,"output":2}},
                                  {"text":"3"},{"text":"6","usage":{"input":30,"output":1}}])";
    run_on<Api> first("restore", turns);
    REQUIRE(first.agent.run("1+2?").text == "3");
    const std::string saved = first.agent.save();

    agentry::agent<agentry::loop_config{}> second{Api::make(first.name), tools, "You are a test.", agentry::curl_transport{}};
    REQUIRE(second.restore(saved));
    const auto r = second.run("And doubled?");
    CHECK(r.stop == stop_reason::completed);
    CHECK(r.text == "6");
    CHECK(r.turns == 1);
    CHECK(r.usage == agentry::token_usage{30, 1});

    const auto sent = first.sent();
    REQUIRE(sent.size() == 3);
    const sent_request& s = sent[2];
    CHECK(s.system == "You are a test.");
    check_pairs<Api>(s);
    REQUIRE(s.messages.size() == 5);
    CHECK(s.messages[0].text == "1+2?");
    REQUIRE(s.messages[1].calls.size() == 1);
    CHECK(s.messages[1].calls[0].name == "add");
    CHECK(s.messages[1].calls[0].arguments == R"({"a":1,"b":2})");
    CHECK(s.messages[1].calls[0].id == sent[1].messages[1].calls[0].id);
    CHECK(s.messages[1].calls[0].signature == (std::is_same_v<Api, gemini_api> ? "c2lnLWFkZA==" : ""));
    CHECK(s.messages[2].results.at(0).content == "3");
    CHECK(s.messages[3].role == "assistant");
    CHECK(s.messages[3].text == "3");
    CHECK(s.messages[4].role == "user");
    CHECK(s.messages[4].text == "And doubled?");
}

TEST_CASE_TEMPLATE("cancel from another thread while the server delays its answer", Api, ALL_APIS) {
    run_on<Api> t("cancel", R"([{"text":"late","delay_ms":30000},{"text":"after"}])");
    std::thread canceller([&] {
        // Once the request has reached the server, which holds it for 30 s.
        while (t.sent().empty()) std::this_thread::sleep_for(std::chrono::milliseconds(5));
        t.agent.cancel();
    });
    auto r = t.agent.run("first");
    canceller.join();
    CHECK(r.stop == stop_reason::cancelled);
    CHECK(r.text == "The run was cancelled.");
    CHECK(r.turns == 0);
    CHECK(t.agent.conversation().back().text == "first");

    // The conversation goes on.
    r = t.agent.run("second");
    CHECK(r.stop == stop_reason::completed);
    CHECK(r.text == "after");
    const auto sent = t.sent();
    REQUIRE(sent.size() == 2);
    CHECK(sent[1].messages.front().text.starts_with("first"));
    CHECK(sent[1].messages.back().text.ends_with("second"));
}

TEST_CASE_TEMPLATE("streamed turns: text events in the server's pieces, tool and turn events, usage", Api, ALL_APIS) {
    std::vector<std::string> pieces, seen;
    agentry::agent_events events;
    events.on_text = [&](std::string_view text) { pieces.emplace_back(text); };
    events.on_tool_start = [&](const agentry::tool_call& c) { seen.push_back("start " + c.name + " " + c.arguments); };
    events.on_tool_end = [&](const agentry::step& s) { seen.push_back("end " + s.tool + " " + s.result_excerpt); };
    events.on_turn_end = [&](std::uint32_t turn, const agentry::token_usage& u) {
        seen.push_back("turn " + std::to_string(turn) + " " + std::to_string(u.input_tokens) + "+" + std::to_string(u.output_tokens));
    };
    run_on<Api> t("streamed", R"([{"text":"Let me add.","calls":[{"name":"add","args":{"a":1,"b":2}}],"usage":{"input":12,"output":4}},
                                  {"text":"The sum is 3.","usage":{"input":20,"output":5}}])",
                  {.events = events});
    const auto r = t.agent.run("1+2?");
    CHECK(r.stop == stop_reason::completed);
    CHECK(r.text == "The sum is 3.");
    CHECK(pieces == std::vector<std::string>{"Let ", "me a", "dd.", "The ", "sum ", "is 3", "."});
    CHECK(seen == std::vector<std::string>{"turn 1 12+4", R"(start add {"a":1,"b":2})", "end add 3", "turn 2 20+5"});
    CHECK(r.usage == agentry::token_usage{32, 9});
    const auto sent = t.sent();
    REQUIRE(sent.size() == 2);
    CHECK(sent[0].stream);
    CHECK(sent[1].stream);
    REQUIRE(sent[1].messages.size() == 3);
    CHECK(sent[1].messages[1].text == "Let me add.");
    CHECK(sent[1].messages[1].calls.at(0).arguments == R"({"a":1,"b":2})");
}
