// SPDX-License-Identifier: BSL-1.0
// The providers over agentry::curl_transport against model_server.mjs: one turn at a time with
// agentry::complete, whole and streamed, then what the server received.

#include "harness.hpp"
#include "tools.hpp"

#include <agentry/provider/provider.hpp>

#include <doctest/doctest.h>

#include <chrono>
#include <string>
#include <type_traits>
#include <vector>

using namespace agentry_test;
using agentry::message;

namespace {

/// The provider's finish text for an answer.
template <class Api>
std::string stop_text() {
    if constexpr (std::is_same_v<Api, anthropic_api>) return "end_turn";
    else if constexpr (std::is_same_v<Api, gemini_api>) return "STOP";
    else return "stop";
}

/// The credentials and content type each API's requests carry.
template <class Api>
void check_headers(const sent_request& r) {
    CHECK(r.header("content-type") == "application/json");
    if constexpr (std::is_same_v<Api, openai_api>) {
        CHECK(r.header("authorization") == "Bearer sk-test");
    } else if constexpr (std::is_same_v<Api, anthropic_api>) {
        CHECK(r.header("x-api-key") == "ak-test");
        CHECK(r.header("anthropic-version") == "2023-06-01");
    } else if constexpr (std::is_same_v<Api, gemini_api>) {
        CHECK(r.header("x-goog-api-key") == "gk-test");
    } else {
        CHECK(r.header("authorization").empty());
    }
}

struct collected {
    std::vector<std::string> text;
    std::vector<std::string> calls;  // "id name"
    agentry::stream_events events() {
        agentry::stream_events e;
        e.on_text = [this](std::string_view t) { text.emplace_back(t); };
        e.on_tool_call = [this](std::string_view id, std::string_view name) {
            calls.push_back(std::string(id) + " " + std::string(name));
        };
        return e;
    }
};

} // namespace

TEST_CASE_TEMPLATE("a text turn, whole and streamed", Api, openai_api, anthropic_api, gemini_api, ollama_api) {
    const std::string name = std::string("text-") + Api::name;
    script(name, R"([{"text":"Paris is the capital of France.","usage":{"input":17,"output":9}},
                     {"text":"Paris is the capital of France.","usage":{"input":17,"output":9},"pieces":5}])");
    const auto model = Api::make(name);
    agentry::curl_transport http;
    const std::vector<message> history{message::system("Answer briefly."), message::user("Capital of France?")};
    agentry::chat_request request{.messages = history};

    const agentry::turn_result whole = agentry::complete(model, http, request);
    REQUIRE_MESSAGE(whole.ok(), whole.error.message);
    CHECK(whole.value->reply.text == "Paris is the capital of France.");
    CHECK(whole.value->reply.tool_calls.empty());
    CHECK(whole.value->finish == agentry::finish_reason::stop);
    CHECK(whole.value->provider_finish == stop_text<Api>());
    CHECK(whole.value->usage == agentry::token_usage{17, 9});

    request.stream = true;
    collected seen;
    const agentry::turn_result streamed = agentry::complete(model, http, request, seen.events());
    REQUIRE_MESSAGE(streamed.ok(), streamed.error.message);
    CHECK(streamed.value->reply.text == "Paris is the capital of France.");
    CHECK(seen.text == std::vector<std::string>{"Paris", " is t", "he ca", "pital", " of F", "rance", "."});
    CHECK(streamed.value->finish == agentry::finish_reason::stop);
    CHECK(streamed.value->usage == agentry::token_usage{17, 9});

    const auto sent = requests<Api>(name);
    REQUIRE(sent.size() == 2);
    for (const sent_request& r : sent) {
        check_headers<Api>(r);
        CHECK(r.system == "Answer briefly.");
        REQUIRE(r.messages.size() == 1);
        CHECK(r.messages[0].role == "user");
        CHECK(r.messages[0].text == "Capital of France?");
        CHECK_FALSE(r.tools);
    }
    CHECK_FALSE(sent[0].stream);
    CHECK(sent[1].stream);
    if constexpr (std::is_same_v<Api, gemini_api>) {
        CHECK(sent[0].path == "/scenario/" + name + "/v1beta/models/gemini-test:generateContent");
        CHECK(sent[1].path == "/scenario/" + name + "/v1beta/models/gemini-test:streamGenerateContent?alt=sse");
    } else {
        CHECK(sent[0].model == std::string(Api::make(name).model));
    }
}

TEST_CASE_TEMPLATE("a turn with text and two tool calls, whole and streamed", Api, openai_api, anthropic_api, gemini_api,
                   ollama_api) {
    const std::string name = std::string("calls-") + Api::name;
    const std::string turn = R"({"text":"Let me check.","usage":{"input":30,"output":12},
        "calls":[{"name":"get_weather","args":{"city":"Paris"},"signature":"c2lnLTE="},{"name":"add","args":{"a":1,"b":2}}]})";
    script(name, "[" + turn + "," + turn + "]");
    const auto model = Api::make(name);
    agentry::curl_transport http;
    const std::vector<message> history{message::user("Weather in Paris, and 1+2?")};
    agentry::chat_request request{.messages = history, .tools = tools.definitions<typename Api::provider::dialect>()};

    for (const bool stream : {false, true}) {
        CAPTURE(stream);
        request.stream = stream;
        collected seen;
        const agentry::turn_result r = agentry::complete(model, http, request, seen.events());
        REQUIRE_MESSAGE(r.ok(), r.error.message);
        const agentry::completion& c = *r.value;
        CHECK(c.finish == agentry::finish_reason::tool_calls);
        CHECK(c.reply.text == "Let me check.");
        CHECK(c.usage == agentry::token_usage{30, 12});
        REQUIRE(c.reply.tool_calls.size() == 2);
        CHECK(c.reply.tool_calls[0].name == "get_weather");
        CHECK(c.reply.tool_calls[0].arguments == R"({"city":"Paris"})");
        CHECK(c.reply.tool_calls[1].name == "add");
        CHECK(c.reply.tool_calls[1].arguments == R"({"a":1,"b":2})");
        // The server's ids, or agentry's own where the API sends none.
        const std::string turn_index = stream ? "1" : "0";
        std::vector<std::string> ids{"call_0", "call_1"};
        if constexpr (std::is_same_v<Api, openai_api>) ids = {"call_" + turn_index + "_0", "call_" + turn_index + "_1"};
        if constexpr (std::is_same_v<Api, anthropic_api>) ids = {"toolu_" + turn_index + "_0", "toolu_" + turn_index + "_1"};
        CHECK(c.reply.tool_calls[0].id == ids[0]);
        CHECK(c.reply.tool_calls[1].id == ids[1]);
        CHECK(c.reply.tool_calls[0].signature == (std::is_same_v<Api, gemini_api> ? "c2lnLTE=" : ""));
        CHECK(c.reply.tool_calls[1].signature.empty());
        if (stream) {
            CHECK(seen.calls == std::vector<std::string>{ids[0] + " get_weather", ids[1] + " add"});
            CHECK(seen.text == std::vector<std::string>{"Let ", "me c", "heck", "."});
        }
    }
    const auto sent = requests<Api>(name);
    REQUIRE(sent.size() == 2);
    CHECK(sent[0].tools);
    CHECK(sent[1].tools);
}

TEST_CASE_TEMPLATE("error statuses are typed: 401, 429 with its delay, 500, and 503 on a stream", Api, openai_api,
                   anthropic_api, gemini_api, ollama_api) {
    const std::string name = std::string("errors-") + Api::name;
    script(name, R"([{"status":401,"message":"bad key"},{"status":429,"message":"slow down","retry_after":2},
                     {"status":500,"message":"boom"},{"status":503,"message":"busy"}])");
    const auto model = Api::make(name);
    agentry::curl_transport http;
    const std::vector<message> history{message::user("hi")};
    agentry::chat_request request{.messages = history};

    agentry::turn_result r = agentry::complete(model, http, request);
    REQUIRE_FALSE(r.ok());
    CHECK(r.error.kind == agentry::provider_error_kind::authentication);
    CHECK(r.error.status == 401);
    CHECK(r.error.message == "bad key");
    CHECK_FALSE(r.error.retryable);

    r = agentry::complete(model, http, request);
    REQUIRE_FALSE(r.ok());
    CHECK(r.error.kind == agentry::provider_error_kind::rate_limited);
    CHECK(r.error.message == "slow down");
    CHECK(r.error.retryable);
    CHECK(r.error.retry_after == std::chrono::milliseconds(2000));

    r = agentry::complete(model, http, request);
    REQUIRE_FALSE(r.ok());
    CHECK(r.error.kind == agentry::provider_error_kind::server);
    CHECK(r.error.status == 500);
    CHECK(r.error.message == "boom");
    CHECK(r.error.retryable);

    request.stream = true;
    r = agentry::complete(model, http, request);
    REQUIRE_FALSE(r.ok());
    CHECK(r.error.kind == agentry::provider_error_kind::server);
    CHECK(r.error.status == 503);
    CHECK(r.error.message == "busy");
    CHECK(requests<Api>(name).size() == 4);
}

TEST_CASE("openai: the request carries tools, tool_choice, parallel_tool_calls, the token limit and stream_options") {
    script("openai-body", R"([{"text":"a"},{"text":"b"}])");
    const auto model = openai_api::make("openai-body");
    agentry::curl_transport http;
    const std::vector<message> history{message::user("hi")};
    agentry::chat_request request{.messages = history,
                                  .tools = tools.definitions<agentry::openai::dialect>(),
                                  .tool_choice = agentry::tool_choice::required(),
                                  .parallel_tool_calls = false,
                                  .max_tokens = 64};
    REQUIRE(agentry::complete(model, http, request).ok());
    request.stream = true;
    REQUIRE(agentry::complete(model, http, request).ok());
    const auto sent = requests<openai_api>("openai-body");
    REQUIRE(sent.size() == 2);
    for (const sent_request& r : sent) {
        CHECK(r.body.find(R"("tools":[{"type":"function","function":{"name":"get_weather")") != std::string::npos);
        CHECK(r.body.find(R"("tool_choice":"required","parallel_tool_calls":false)") != std::string::npos);
        CHECK(r.body.find(R"("max_completion_tokens":64)") != std::string::npos);
        CHECK(r.header("accept") == (r.stream ? "text/event-stream" : "application/json"));
    }
    CHECK(sent[0].body.find("stream") == std::string::npos);
    CHECK(sent[1].body.find(R"("stream":true,"stream_options":{"include_usage":true})") != std::string::npos);
}

TEST_CASE("anthropic: the results of a turn go back in one user message, in call order, with is_error") {
    script("anthropic-results", R"([{"text":"Noted."}])");
    const auto model = anthropic_api::make("anthropic-results");
    agentry::curl_transport http;
    const agentry::tool_call weather_call{"toolu_a", "get_weather", R"({"city":"Paris"})", {}};
    const agentry::tool_call add_call{"toolu_b", "add", R"({"a":1,"b":2})", {}};
    // The results arrive out of call order.
    const std::vector<message> history{
        message::system("Be brief."),
        message::user("Weather in Paris, and 1+2?"),
        message::assistant("Checking.", {weather_call, add_call}),
        message::tool_result(add_call, "3"),
        message::tool_result(weather_call, "weather service down", true),
        message::user("Go on."),
    };
    const agentry::chat_request request{.messages = history, .tools = tools.definitions<agentry::anthropic::dialect>()};
    const agentry::turn_result r = agentry::complete(model, http, request);
    REQUIRE_MESSAGE(r.ok(), r.error.message);
    CHECK(r.value->reply.text == "Noted.");

    const auto sent = requests<anthropic_api>("anthropic-results");
    REQUIRE(sent.size() == 1);
    const auto body = read_json<wire_anthropic::body>(sent[0].body);
    REQUIRE(body.system);
    CHECK(body.system->text() == R"([{"type":"text","text":"Be brief.","cache_control":{"type":"ephemeral","ttl":"5m"}}])");
    REQUIRE(body.messages.size() == 3);
    CHECK(body.messages[0].role == "user");
    CHECK(body.messages[0].content.text() == R"("Weather in Paris, and 1+2?")");
    CHECK(body.messages[1].role == "assistant");
    CHECK(body.messages[1].content.text() ==
          R"([{"type":"text","text":"Checking."},)"
          R"({"type":"tool_use","id":"toolu_a","name":"get_weather","input":{"city":"Paris"}},)"
          R"({"type":"tool_use","id":"toolu_b","name":"add","input":{"a":1,"b":2}}])");
    CHECK(body.messages[2].role == "user");
    CHECK(body.messages[2].content.text() ==
          R"([{"type":"tool_result","tool_use_id":"toolu_a","content":"weather service down","is_error":true},)"
          R"({"type":"tool_result","tool_use_id":"toolu_b","content":"3"},)"
          R"({"type":"text","text":"Go on.","cache_control":{"type":"ephemeral","ttl":"5m"}}])");
}

TEST_CASE("gemini: function responses by name in call order, thoughtSignature and Gemini's own ids sent back") {
    script("gemini-results", R"([
        {"calls":[{"name":"get_weather","args":{"city":"Paris"},"signature":"c2lnL+1/Zz0="},{"name":"add","args":{"a":1,"b":2}}]},
        {"calls":[{"name":"add","args":{"a":3,"b":4},"id":"fc-7","signature":"c2lnLTI="}]},
        {"text":"Done."}])");
    const auto model = gemini_api::make("gemini-results");
    agentry::curl_transport http;
    std::vector<message> history{message::user("Weather in Paris, and 1+2?")};
    const auto ask = [&](bool stream) {
        const agentry::chat_request request{.messages = history, .tools = tools.definitions<agentry::gemini::dialect>(),
                                            .stream = stream};
        agentry::turn_result r = agentry::complete(model, http, request);
        REQUIRE_MESSAGE(r.ok(), r.error.message);
        history.push_back(r.value->reply);
        return r.value->reply.tool_calls;
    };
    const auto first = ask(true);
    REQUIRE(first.size() == 2);
    history.push_back(message::tool_result(first[1], "3"));
    history.push_back(message::tool_result(first[0], "no data for Paris", true));
    const auto second = ask(false);
    REQUIRE(second.size() == 1);
    CHECK(second[0].id == "fc-7");
    history.push_back(message::tool_result(second[0], "7"));
    ask(false);

    const auto sent = requests<gemini_api>("gemini-results");
    REQUIRE(sent.size() == 3);
    const auto body = read_json<wire_gemini::body>(sent[2].body);
    REQUIRE(body.contents.size() == 5);
    const auto& calls = body.contents[1];
    CHECK(calls.role == "model");
    REQUIRE(calls.parts.size() == 2);
    REQUIRE(calls.parts[0].functionCall);
    CHECK(calls.parts[0].functionCall->name == "get_weather");
    CHECK(calls.parts[0].functionCall->args->text() == R"({"city":"Paris"})");
    CHECK_FALSE(calls.parts[0].functionCall->id);  // agentry's call_0 is not sent
    CHECK(calls.parts[0].thoughtSignature == "c2lnL+1/Zz0=");
    CHECK_FALSE(calls.parts[1].thoughtSignature);
    const auto& results = body.contents[2];
    CHECK(results.role == "user");
    REQUIRE(results.parts.size() == 2);
    REQUIRE(results.parts[0].functionResponse);
    CHECK(results.parts[0].functionResponse->name == "get_weather");
    CHECK(results.parts[0].functionResponse->response.text() == R"({"error":"no data for Paris"})");
    CHECK_FALSE(results.parts[0].functionResponse->id);
    CHECK(results.parts[1].functionResponse->name == "add");
    CHECK(results.parts[1].functionResponse->response.text() == R"({"output":3})");
    REQUIRE(body.contents[3].parts.size() == 1);
    CHECK(body.contents[3].parts[0].functionCall->id == "fc-7");
    CHECK(body.contents[3].parts[0].thoughtSignature == "c2lnLTI=");
    CHECK(body.contents[4].parts[0].functionResponse->id == "fc-7");
    CHECK(body.contents[4].parts[0].functionResponse->response.text() == R"({"output":7})");
}

TEST_CASE("ollama: arguments go as objects, results name their tool, stream is always written") {
    script("ollama-objects", R"([{"calls":[{"name":"add","args":{"a":1,"b":2}},{"name":"get_weather","args":{"city":"Oslo"}}]},
                                 {"text":"Oslo: rain; 3."}])");
    const auto model = ollama_api::make("ollama-objects");
    agentry::curl_transport http;
    std::vector<message> history{message::user("1+2, and the weather in Oslo?")};
    agentry::chat_request request{.messages = history, .tools = tools.definitions<agentry::ollama::dialect>(), .max_tokens = 64};
    agentry::turn_result r = agentry::complete(model, http, request);
    REQUIRE_MESSAGE(r.ok(), r.error.message);
    const auto calls = r.value->reply.tool_calls;
    REQUIRE(calls.size() == 2);
    CHECK(calls[0].arguments == R"({"a":1,"b":2})");
    CHECK(calls[1].arguments == R"({"city":"Oslo"})");
    history.push_back(r.value->reply);
    history.push_back(message::tool_result(calls[0], "3"));
    history.push_back(message::tool_result(calls[1], "Oslo: 18 C, rain"));
    request.messages = history;
    request.stream = true;
    collected seen;
    r = agentry::complete(model, http, request, seen.events());
    REQUIRE_MESSAGE(r.ok(), r.error.message);
    CHECK(r.value->reply.text == "Oslo: rain; 3.");
    CHECK(seen.text == std::vector<std::string>{"Oslo", ": ra", "in; ", "3."});

    const auto sent = requests<ollama_api>("ollama-objects");
    REQUIRE(sent.size() == 2);
    CHECK(sent[0].body.find(R"("stream":false)") != std::string::npos);
    CHECK(sent[1].body.find(R"("stream":true)") != std::string::npos);
    CHECK(sent[1].body.find(R"("options":{"num_predict":64})") != std::string::npos);
    const auto body = read_json<wire_ollama::body>(sent[1].body);
    REQUIRE(body.messages.size() == 4);
    REQUIRE(body.messages[1].tool_calls);
    CHECK((*body.messages[1].tool_calls)[0].function.arguments.text() == R"({"a":1,"b":2})");
    CHECK((*body.messages[1].tool_calls)[1].function.arguments.text() == R"({"city":"Oslo"})");
    CHECK(body.messages[2].role == "tool");
    CHECK(body.messages[2].tool_name == "add");
    CHECK(body.messages[2].content == "3");
    CHECK(body.messages[3].tool_name == "get_weather");
}
