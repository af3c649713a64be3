// SPDX-License-Identifier: BSL-1.0
// agentry::openai over agentry::curl_transport against @dwmkerr/mock-llm, a third-party
// OpenAI-compatible mock server, with the rules of mock-llm.yaml (launched by launch.mjs).

#include "node_server.hpp"
#include "tools.hpp"

#include <agentry/agent.hpp>
#include <agentry/provider/openai.hpp>
#include <agentry/transport/curl.hpp>

#include <doctest/doctest.h>

#include <chrono>
#include <string>
#include <vector>

using namespace agentry_test;
using agentry::message;

namespace {

node_server& mock_llm() {
    static node_server server(AGENTRY_NODE, AGENTRY_MOCK_LLM_LAUNCHER);
    return server;
}

/// The provider for the rules under /<prefix>/.
agentry::openai model(const std::string& prefix) {
    return {.model = "gpt-mock", .api_key = "sk-mock", .http = {.base_url = mock_llm().url("/" + prefix + "/v1")}};
}

const std::vector<message> question{message::system("Answer briefly."), message::user("What is the capital of France?")};

} // namespace

TEST_CASE("a plain answer, whole: the echoed question, finish and usage") {
    agentry::curl_transport http;
    const agentry::turn_result r = agentry::complete(model("answer"), http, {.messages = question});
    REQUIRE_MESSAGE(r.ok(), r.error.message);
    CHECK(r.value->reply.text == "You said: What is the capital of France?");
    CHECK(r.value->reply.tool_calls.empty());
    CHECK(r.value->finish == agentry::finish_reason::stop);
    CHECK(r.value->provider_finish == "stop");
    CHECK(r.value->usage == agentry::token_usage{21, 7});
}

TEST_CASE("a plain answer, streamed in mock-llm's chunks") {
    agentry::curl_transport http;
    std::vector<std::string> pieces;
    agentry::stream_events events;
    events.on_text = [&](std::string_view t) { pieces.emplace_back(t); };
    const agentry::turn_result r =
        agentry::complete(model("answer"), http, {.messages = question, .stream = true}, events);
    REQUIRE_MESSAGE(r.ok(), r.error.message);
    CHECK(r.value->reply.text == "You said: What is the capital of France?");
    CHECK(pieces == std::vector<std::string>{"You said", ": What i", "s the ca", "pital of", " France?"});
    CHECK(r.value->finish == agentry::finish_reason::stop);
    CHECK(r.value->usage == agentry::token_usage{0, 0});  // mock-llm streams no usage
}

TEST_CASE("two tool calls, whole: ids, names and arguments as mock-llm sent them") {
    agentry::curl_transport http;
    const agentry::chat_request request{.messages = question, .tools = tools.definitions<agentry::openai::dialect>()};
    const agentry::turn_result r = agentry::complete(model("tools"), http, request);
    REQUIRE_MESSAGE(r.ok(), r.error.message);
    CHECK(r.value->finish == agentry::finish_reason::tool_calls);
    CHECK(r.value->reply.text.empty());
    REQUIRE(r.value->reply.tool_calls.size() == 2);
    const auto& calls = r.value->reply.tool_calls;
    CHECK(calls[0].id == "call_w");
    CHECK(calls[0].name == "get_weather");
    CHECK(calls[0].arguments == R"({"city":"Paris"})");
    CHECK(calls[1].id == "call_a");
    CHECK(calls[1].name == "add");
    CHECK(calls[1].arguments == R"({"a":2,"b":3})");
    CHECK(r.value->usage == agentry::token_usage{40, 18});
}

TEST_CASE("mock-llm 0.1.29 cannot stream a tool call: its 500 arrives as a retryable server error") {
    // mock-llm streams choices[0].message.content only; without content its handler throws,
    // and its error handler answers 500 {"error":"TypeError","message":...}.
    agentry::curl_transport http;
    const agentry::chat_request request{.messages = question, .tools = tools.definitions<agentry::openai::dialect>(),
                                        .stream = true};
    const agentry::turn_result r = agentry::complete(model("tools"), http, request);
    REQUIRE_FALSE(r.ok());
    CHECK(r.error.kind == agentry::provider_error_kind::server);
    CHECK(r.error.status == 500);
    CHECK(r.error.retryable);
    CHECK(r.error.message == "TypeError");
}

TEST_CASE("a 401, whole and as the error event of a 200 stream, is an authentication error") {
    agentry::curl_transport http;
    agentry::turn_result r = agentry::complete(model("unauthorized"), http, {.messages = question});
    REQUIRE_FALSE(r.ok());
    CHECK(r.error.kind == agentry::provider_error_kind::authentication);
    CHECK(r.error.status == 401);
    CHECK(r.error.message == "Incorrect API key provided.");
    CHECK(r.error.type == "invalid_api_key");
    CHECK_FALSE(r.error.retryable);

    r = agentry::complete(model("unauthorized"), http, {.messages = question, .stream = true});
    REQUIRE_FALSE(r.ok());
    CHECK(r.error.kind == agentry::provider_error_kind::authentication);
    CHECK(r.error.status == 200);
    CHECK(r.error.message == "Incorrect API key provided.");
    CHECK(r.error.type == "invalid_api_key");
    CHECK_FALSE(r.error.retryable);
}

TEST_CASE("an agent run: mock-llm's second rule matches only the results in call order, then answers") {
    agentry::agent<agentry::loop_config{.parallel_tool_calls = true}> agent{model("agent"), tools, "Answer briefly.",
                                                                            agentry::curl_transport{}};
    const agentry::run_result r = agent.run("Weather in Paris, and 2+3?");
    CHECK(r.stop == agentry::stop_reason::completed);
    CHECK(r.text == "Rain in Paris, and 2+3 is 5.");
    CHECK(r.turns == 2);
    REQUIRE(r.steps.size() == 2);
    CHECK(r.steps[0].id == "call_w");
    CHECK(r.steps[0].result_excerpt == "Paris: 18 C, rain");
    CHECK(r.steps[1].id == "call_a");
    CHECK(r.steps[1].result_excerpt == "5");
    CHECK(r.usage == agentry::token_usage{140, 32});
}

TEST_CASE("an agent run: a 429 is retried, then the run completes") {
    int retries = 0;
    agentry::agent_events events;
    events.on_retry = [&](const agentry::provider_error& e, std::chrono::milliseconds) {
        ++retries;
        CHECK(e.kind == agentry::provider_error_kind::rate_limited);
        CHECK(e.type == "rate_limit_exceeded");
        CHECK(e.message == "Rate limit reached for requests.");
    };
    agentry::agent<agentry::loop_config{.retry = {.max_retries = 2, .initial_backoff = std::chrono::milliseconds(1), .max_backoff = std::chrono::milliseconds(2)}}> agent{
        model("rate_limited"), tools, {.system_prompt = "Answer briefly.", .events = events}, agentry::curl_transport{}};
    const agentry::run_result r = agent.run("Hello?");
    CHECK(r.stop == agentry::stop_reason::completed);
    CHECK(r.text == "Hello again.");
    CHECK(retries == 1);
    CHECK(r.turns == 1);
    CHECK(r.usage == agentry::token_usage{8, 3});
}
