// SPDX-License-Identifier: BSL-1.0
#include "pieces_check.hpp"
#include "stream_check.hpp"

#include <agentry/provider/gemini.hpp>
#include <agentry/provider/detail/wire_common.hpp>
#include <agentry/registry.hpp>
#include <agentry/tool.hpp>

#include <doctest/doctest.h>

#include <cstdlib>
#include <atomic>
#include <string>
#include <type_traits>
#include <vector>

static_assert(agentry::provider<agentry::gemini>);
static_assert(std::is_same_v<agentry::gemini::dialect, agentry::dialect::gemini>);

using agentry::chat_request;
using agentry::message;
using agentry::tool_call;
using agentry::tool_choice;

namespace {

const agentry::gemini flash{.model = "gemini-2.5-flash", .api_key = "AIza-test"};

constexpr std::string_view tools =
    R"([{"functionDeclarations":[{"name":"get_weather","description":"Weather","parameters":{"type":"object","properties":{"city":{"type":"string"}},"required":["city"]}}]}])";

agentry::http_response response(int status, std::string body, std::vector<agentry::http_header> headers = {}) {
    return {status, std::move(headers), std::move(body)};
}

const std::vector<message> hello{message::user("Hi")};

/// The body of a request for `hello` with the tools and `choice`, after the tools.
std::string choice_tail(tool_choice choice) {
    const std::string body = flash.request({.messages = hello, .tools = tools, .tool_choice = choice}).body;
    const std::string head = R"({"contents":[{"role":"user","parts":[{"text":"Hi"}]}],"tools":)" + std::string(tools);
    REQUIRE(body.substr(0, head.size()) == head);
    return body.substr(head.size());
}

} // namespace

TEST_CASE("request: URL per model and mode, key header, systemInstruction") {
    const std::vector<message> history{message::system("Be brief."), message::user("Hi"), message::system("Use metric.")};
    agentry::http_request http = flash.request({.messages = history});
    CHECK(http.method == "POST");
    CHECK(http.url == "https://generativelanguage.googleapis.com/v1beta/models/gemini-2.5-flash:generateContent");
    CHECK(http.body ==
          R"({"contents":[{"role":"user","parts":[{"text":"Hi"}]}],"systemInstruction":{"parts":[{"text":"Be brief."},{"text":"Use metric."}]}})");
    REQUIRE(http.headers.size() == 2);
    CHECK(http.headers[0].name == "content-type");
    CHECK(http.headers[0].value == "application/json");
    CHECK(http.headers[1].name == "x-goog-api-key");
    CHECK(http.headers[1].value == "AIza-test");
    http = flash.request({.messages = hello, .stream = true});
    CHECK(http.url ==
          "https://generativelanguage.googleapis.com/v1beta/models/gemini-2.5-flash:streamGenerateContent?alt=sse");
    CHECK(http.body == R"({"contents":[{"role":"user","parts":[{"text":"Hi"}]}]})");
    agentry::gemini tuned = flash;
    tuned.model = "tunedModels/my-model";
    tuned.http.base_url = "http://127.0.0.1:9000/v1/";
    CHECK(tuned.request({.messages = hello}).url == "http://127.0.0.1:9000/v1/tunedModels/my-model:generateContent");
}

TEST_CASE("request: calls with their signatures, function responses in call order, one user content") {
    const std::vector<message> history{
        message::system("S"),
        message::user("Weather in Paris and Rome?"),
        message::assistant("Checking.", {{"call_0", "get_weather", R"({"city":"Paris"})", "CiQBsig=="},
                                         {"call_1", "get_weather", R"({"city":"Rome"})", {}}}),
        message::tool_result({"call_1", "get_weather", {}, {}}, "18"),
        message::tool_result({"call_0", "get_weather", {}, {}}, "no data", true),
        message::user("Thanks"),
        message::assistant("", {{"call_0", "get_weather", "", {}}}),
        message::tool_result({"call_0", "", {}, {}}, R"({"t": [1, 2]})"),
    };
    const std::string expected =
        R"({"contents":[{"role":"user","parts":[{"text":"Weather in Paris and Rome?"}]},)"
        R"({"role":"model","parts":[{"text":"Checking."},)"
        R"({"functionCall":{"name":"get_weather","args":{"city":"Paris"}},"thoughtSignature":"CiQBsig=="},)"
        R"({"functionCall":{"name":"get_weather","args":{"city":"Rome"}}}]},)"
        R"({"role":"user","parts":[{"functionResponse":{"name":"get_weather","response":{"error":"no data"}}},)"
        R"({"functionResponse":{"name":"get_weather","response":{"output":18}}},{"text":"Thanks"}]},)"
        R"({"role":"model","parts":[{"functionCall":{"name":"get_weather","args":{}}}]},)"
        R"({"role":"user","parts":[{"functionResponse":{"name":"get_weather","response":{"output":{"t": [1, 2]}}}}]}],)"
        R"("systemInstruction":{"parts":[{"text":"S"}]},"tools":)" + std::string(tools) + "}";
    CHECK(flash.request({.messages = history, .tools = tools}).body == expected);
}

TEST_CASE("request: an id Gemini sent goes back with its call and response, agentry's do not") {
    const std::vector<message> history{
        message::user("x"),
        message::assistant("", {{"fc_7", "f", "{}", {}}, {"call_1", "g", "{}", {}}}),
        message::tool_result({"fc_7", "f", {}, {}}, "text with \"quotes\""),
        message::tool_result({"call_1", "g", {}, {}}, "ok"),
    };
    CHECK(flash.request({.messages = history}).body ==
          R"({"contents":[{"role":"user","parts":[{"text":"x"}]},)"
          R"({"role":"model","parts":[{"functionCall":{"name":"f","args":{},"id":"fc_7"}},{"functionCall":{"name":"g","args":{}}}]},)"
          R"({"role":"user","parts":[{"functionResponse":{"name":"f","response":{"output":"text with \"quotes\""},"id":"fc_7"}},)"
          R"({"functionResponse":{"name":"g","response":{"output":"ok"}}}]}]})");
}

TEST_CASE("request: each tool_choice, generationConfig, extra body members, timeouts") {
    CHECK(choice_tail(tool_choice::automatic()) == "}");
    CHECK(choice_tail(tool_choice::none()) == R"(,"toolConfig":{"functionCallingConfig":{"mode":"NONE"}}})");
    CHECK(choice_tail(tool_choice::required()) == R"(,"toolConfig":{"functionCallingConfig":{"mode":"ANY"}}})");
    CHECK(choice_tail(tool_choice::one("get_weather")) ==
          R"(,"toolConfig":{"functionCallingConfig":{"mode":"ANY","allowedFunctionNames":["get_weather"]}}})");
    CHECK(flash.request({.messages = hello, .tool_choice = tool_choice::none()}).body ==
          R"({"contents":[{"role":"user","parts":[{"text":"Hi"}]}]})");
    agentry::gemini p = flash;
    p.extra_body = R"({"safetySettings":[{"category":"HARM_CATEGORY_HARASSMENT","threshold":"BLOCK_NONE"}]})";
    p.http.total_timeout = std::chrono::milliseconds(30000);
    const agentry::http_request http = p.request({.messages = hello, .max_tokens = 256, .temperature = 0.5});
    CHECK(http.body ==
          R"({"contents":[{"role":"user","parts":[{"text":"Hi"}]}],"generationConfig":{"maxOutputTokens":256,"temperature":0.5},)"
          R"("safetySettings":[{"category":"HARM_CATEGORY_HARASSMENT","threshold":"BLOCK_NONE"}]})");
    CHECK(http.total_timeout.count() == 30000);
    const std::atomic<bool> stop{false};
    p.http.cancel = &stop;
    CHECK(p.request({.messages = hello}).cancel == &stop);
    CHECK(flash.request({.messages = hello, .temperature = 0}).body ==
          R"({"contents":[{"role":"user","parts":[{"text":"Hi"}]}],"generationConfig":{"temperature":0}})");
}

TEST_CASE("request: the key from GOOGLE_API_KEY, else GEMINI_API_KEY") {
    const agentry::gemini p{.model = "m"};
    ::unsetenv("GOOGLE_API_KEY");
    ::unsetenv("GEMINI_API_KEY");
    CHECK(agentry::find_header(p.request({.messages = hello}).headers, "x-goog-api-key").empty());
    ::setenv("GEMINI_API_KEY", "gemini-key", 1);
    CHECK(agentry::find_header(p.request({.messages = hello}).headers, "x-goog-api-key") == "gemini-key");
    ::setenv("GOOGLE_API_KEY", "google-key", 1);
    CHECK(agentry::find_header(p.request({.messages = hello}).headers, "x-goog-api-key") == "google-key");
    agentry::gemini own = p;
    own.api_key = "own";
    CHECK(agentry::find_header(own.request({.messages = hello}).headers, "x-goog-api-key") == "own");
    ::unsetenv("GOOGLE_API_KEY");
    ::unsetenv("GEMINI_API_KEY");
}

TEST_CASE("response: text, a thought summary skipped, parallel calls numbered, signature kept, usage") {
    const auto r = flash.parse(response(200, R"({"candidates":[{"content":{"parts":[
        {"text":"Planning the calls","thought":true},
        {"text":"Checking both."},
        {"functionCall":{"name":"get_weather","args":{"city":"Paris"}},"thoughtSignature":"CiQBsig=="},
        {"functionCall":{"name":"get_time"}}],"role":"model"},"finishReason":"STOP","index":0}],
        "usageMetadata":{"promptTokenCount":50,"candidatesTokenCount":10,"thoughtsTokenCount":30,"totalTokenCount":90},
        "modelVersion":"gemini-2.5-flash","responseId":"abc"})"));
    CHECK(test::describe(r) ==
          R"(text=Checking both. calls=[call_0|get_weather|{"city":"Paris"}|CiQBsig==;call_1|get_time|{}|;] finish=tool_calls provider=STOP usage=50/40 incomplete=0 refusal=)");
    const auto with_id = flash.parse(response(
        200, R"({"candidates":[{"content":{"parts":[{"functionCall":{"id":"fc_7","name":"f","args":{}}}]},"finishReason":"STOP"}]})"));
    CHECK(test::describe(with_id) == "text= calls=[fc_7|f|{}|;] finish=tool_calls provider=STOP usage=0/0 incomplete=0 refusal=");
}

TEST_CASE("response: finish reasons and a blocked prompt") {
    const auto finish = [](std::string_view reason) {
        const auto r = flash.parse(response(200, R"({"candidates":[{"content":{"parts":[{"text":"x"}]},"finishReason":")" +
                                                     std::string(reason) + R"("}]})"));
        REQUIRE(r.ok());
        CHECK(r.value->provider_finish == reason);
        return r.value->finish;
    };
    CHECK(finish("STOP") == agentry::finish_reason::stop);
    CHECK(finish("MAX_TOKENS") == agentry::finish_reason::max_tokens);
    CHECK(finish("SAFETY") == agentry::finish_reason::content_filter);
    CHECK(finish("RECITATION") == agentry::finish_reason::content_filter);
    CHECK(finish("PROHIBITED_CONTENT") == agentry::finish_reason::content_filter);
    CHECK(finish("MALFORMED_FUNCTION_CALL") == agentry::finish_reason::other);
    CHECK(finish("OTHER") == agentry::finish_reason::other);
    const auto blocked =
        flash.parse(response(200, R"({"promptFeedback":{"blockReason":"SAFETY"},"usageMetadata":{"promptTokenCount":7,"totalTokenCount":7}})"));
    CHECK(test::describe(blocked) == "text= calls=[] finish=content_filter provider=SAFETY usage=7/0 incomplete=0 refusal=");
}

TEST_CASE("response: malformed 2xx bodies") {
    auto r = flash.parse(response(200, "{}"));
    CHECK(test::describe(r) ==
          "error malformed status=0 type= retryable=0 retry_after=- message=gemini: unreadable response: no candidate and no "
          "promptFeedback.blockReason");
    r = flash.parse(response(200, R"({"candidates":[{"content":{"parts":[{"functionCall":{"args":{}}}]},"finishReason":"STOP"}]})"));
    CHECK(r.error.kind == agentry::provider_error_kind::malformed);
    CHECK(r.error.message == "agentry: gemini response: tool call 0 (id call_0) has no function name; a call must name its tool");
    r = flash.parse(response(200, R"({"candidates":[{"content":{"parts":[{"functionCall":{"name":""}}]},"finishReason":"STOP"}]})"));
    CHECK(r.error.kind == agentry::provider_error_kind::malformed);
    r = flash.parse(response(200, R"({"candidates":{}})"));
    CHECK(r.error.message.rfind("gemini: unreadable response: /candidates: expected an array", 0) == 0);
}

TEST_CASE("errors: status, kind, type, an invalid key, RetryInfo, an array body") {
    const auto error = [](int status, std::string_view type, std::string details = "[]",
                          std::vector<agentry::http_header> headers = {}) {
        const std::string body = R"({"error":{"code":)" + std::to_string(status) + R"(,"message":"what happened","status":")" +
                                 std::string(type) + R"(","details":)" + details + "}}";
        const auto r = flash.parse(response(status, body, std::move(headers)));
        REQUIRE_FALSE(r.ok());
        CHECK(r.error.status == status);
        CHECK(r.error.type == type);
        CHECK(r.error.message == "what happened");
        return r.error;
    };
    auto e = error(400, "INVALID_ARGUMENT");
    CHECK(e.kind == agentry::provider_error_kind::bad_request);
    CHECK_FALSE(e.retryable);
    e = error(400, "INVALID_ARGUMENT",
              R"([{"@type":"type.googleapis.com/google.rpc.ErrorInfo","reason":"API_KEY_INVALID","domain":"googleapis.com","metadata":{"service":"generativelanguage.googleapis.com"}}])");
    CHECK(e.kind == agentry::provider_error_kind::authentication);
    CHECK(error(401, "UNAUTHENTICATED").kind == agentry::provider_error_kind::authentication);
    CHECK(error(403, "PERMISSION_DENIED").kind == agentry::provider_error_kind::permission);
    CHECK(error(404, "NOT_FOUND").kind == agentry::provider_error_kind::bad_request);
    e = error(429, "RESOURCE_EXHAUSTED",
              R"([{"@type":"type.googleapis.com/google.rpc.QuotaFailure","violations":[{"quotaId":"q"}]},{"@type":"type.googleapis.com/google.rpc.RetryInfo","retryDelay":"27s"}])");
    CHECK(e.kind == agentry::provider_error_kind::rate_limited);
    CHECK(e.retryable);
    REQUIRE(e.retry_after);
    CHECK(e.retry_after->count() == 27000);
    e = error(429, "RESOURCE_EXHAUSTED", R"([{"@type":"type.googleapis.com/google.rpc.RetryInfo","retryDelay":"27s"}])",
              {{"Retry-After", "3"}});
    REQUIRE(e.retry_after);
    CHECK(e.retry_after->count() == 3000);
    e = error(500, "INTERNAL");
    CHECK(e.kind == agentry::provider_error_kind::server);
    CHECK(e.retryable);
    e = error(503, "UNAVAILABLE");
    CHECK(e.kind == agentry::provider_error_kind::server);
    CHECK(e.retryable);
    const auto listed = flash.parse(response(404, R"([{"error":{"code":404,"message":"models/x is not found","status":"NOT_FOUND"}}])"));
    CHECK(test::describe(listed) == "error bad_request status=404 type=NOT_FOUND retryable=0 retry_after=- message=models/x is not found");
    const auto bare = flash.parse(response(502, "Bad Gateway"));
    CHECK(test::describe(bare) == "error server status=502 type= retryable=1 retry_after=- message=Bad Gateway");
}

TEST_CASE("stream: text in three chunks (CRLF events), usage from the last") {
    const std::string body =
        "data: {\"candidates\": [{\"content\": {\"parts\": [{\"text\": \"The\"}],\"role\": \"model\"},\"index\": 0}],"
        "\"usageMetadata\": {\"promptTokenCount\": 8,\"totalTokenCount\": 8},\"modelVersion\": \"gemini-2.5-flash\"}\r\n\r\n"
        "data: {\"candidates\": [{\"content\": {\"parts\": [{\"text\": \" quick brown fox\"}],\"role\": \"model\"},\"index\": 0}],"
        "\"usageMetadata\": {\"promptTokenCount\": 8,\"totalTokenCount\": 8},\"modelVersion\": \"gemini-2.5-flash\"}\r\n\r\n"
        "data: {\"candidates\": [{\"content\": {\"parts\": [{\"text\": \" jumps.\"}],\"role\": \"model\"},\"finishReason\": \"STOP\","
        "\"index\": 0}],\"usageMetadata\": {\"promptTokenCount\": 8,\"candidatesTokenCount\": 12,\"totalTokenCount\": 20,"
        "\"promptTokensDetails\": [{\"modality\": \"TEXT\",\"tokenCount\": 8}]},\"modelVersion\": \"gemini-2.5-flash\"}\r\n\r\n";
    const test::streamed s = test::check_every_split(flash, body);
    CHECK(test::describe(s.result) ==
          "text=The quick brown fox jumps. calls=[] finish=stop provider=STOP usage=8/12 incomplete=0 refusal=");
    CHECK(s.text == "The quick brown fox jumps.");
}

TEST_CASE("stream: calls across chunks, numbered in the turn, signature kept") {
    const std::string body =
        R"(data: {"candidates":[{"content":{"parts":[{"text":"Thinking it over","thought":true}],"role":"model"},"index":0}]})"
        "\r\n\r\n"
        R"(data: {"candidates":[{"content":{"parts":[{"functionCall":{"name":"get_weather","args":{"city":"Paris"}},"thoughtSignature":"CiQBsig=="}],"role":"model"},"index":0}]})"
        "\r\n\r\n"
        R"(data: {"candidates":[{"content":{"parts":[{"functionCall":{"name":"get_weather","args":{"city":"Rome"}}}],"role":"model"},"finishReason":"STOP","index":0}],"usageMetadata":{"promptTokenCount":50,"candidatesTokenCount":10,"thoughtsTokenCount":30}})"
        "\r\n\r\n";
    const test::streamed s = test::check_every_split(flash, body);
    CHECK(test::describe(s.result) ==
          R"(text= calls=[call_0|get_weather|{"city":"Paris"}|CiQBsig==;call_1|get_weather|{"city":"Rome"}|;] finish=tool_calls provider=STOP usage=50/40 incomplete=0 refusal=)");
    CHECK(s.calls == std::vector<std::string>{"call_0 get_weather", "call_1 get_weather"});
    CHECK(s.text.empty());
}

TEST_CASE("stream: an error chunk, a cut stream, an error status") {
    const std::string first =
        R"(data: {"candidates":[{"content":{"parts":[{"text":"Once"}],"role":"model"},"index":0}]})"
        "\r\n\r\n";
    const std::string failed = first + R"(data: {"error":{"code":503,"message":"The model is overloaded.","status":"UNAVAILABLE"}})" + "\r\n\r\n";
    const test::streamed s = test::check_every_split(flash, failed);
    CHECK(test::describe(s.result) ==
          "error server status=200 type=UNAVAILABLE retryable=1 retry_after=- message=The model is overloaded.");
    CHECK(s.text == "Once");
    const std::string whole = first + R"(data: {"candidates":[{"content":{"parts":[{"text":" upon"}],"role":"model"},"finishReason":"STOP","index":0}]})";
    CHECK(test::describe(test::check_every_split(flash, whole).result) ==
          "text=Once upon calls=[] finish=stop provider=STOP usage=0/0 incomplete=0 refusal=");
    for (std::size_t end = 0; end + 1 < whole.size(); ++end) {
        const auto r = test::run_whole(flash, std::string_view(whole).substr(0, end)).result;
        REQUIRE_FALSE(r.ok());
        CHECK(r.error.kind == agentry::provider_error_kind::malformed);
        CHECK(r.error.message.rfind("gemini: the stream ended before a finishReason", 0) == 0);
    }
    CHECK(test::run_whole(flash, first).result.error.message == "gemini: the stream ended before a finishReason");
    CHECK(test::run_whole(flash, first + "data: {\"candidates\":[").result.error.message ==
          "gemini: the stream ended before a finishReason, inside an event");
    CHECK(test::run_whole(flash, "data: [1]\r\n\r\n").result.error.message.rfind("gemini: unreadable stream chunk: ", 0) == 0);
    const auto status = test::run_whole(flash, "", response(429, R"({"error":{"code":429,"message":"quota","status":"RESOURCE_EXHAUSTED"}})"));
    CHECK(test::describe(status.result) == "error rate_limited status=429 type=RESOURCE_EXHAUSTED retryable=1 retry_after=- message=quota");
}

TEST_CASE("request: a registry's tools payload goes in as it is, and the body is JSON") {
    static constexpr agentry::registry registry{
        agentry::tool<"add", "Add two integers", "a", "b">(+[](int a, int b) { return a + b; })};
    constexpr std::string_view payload = registry.definitions<agentry::gemini::dialect>();
    const std::vector<message> history{message::user("1+2?"), message::assistant("", {{"call_9", "add", R"({"a":1,"b":2})", {}}}),
                                       message::tool_result({"call_9", "add", {}, {}}, "3")};
    const std::string body = flash.request({.messages = history, .tools = payload}).body;
    CHECK(body.find(R"("tools":)" + std::string(payload)) != std::string::npos);
    CHECK(agentry::detail::is_json_object(body));
}

TEST_CASE("request: a structured output is responseMimeType JSON with responseSchema, beside generationConfig") {
    constexpr std::string_view schema = R"({"type":"OBJECT","properties":{"city":{"type":"STRING"}},"required":["city"]})";
    const agentry::output_format format{"final_answer", schema, false};
    CHECK(flash.request({.messages = hello, .output = format}).body ==
          R"({"contents":[{"role":"user","parts":[{"text":"Hi"}]}],"generationConfig":{"responseMimeType":"application/json",)"
          R"("responseSchema":)" + std::string(schema) + "}}");
    CHECK(flash.request({.messages = hello, .tools = tools, .max_tokens = 50, .output = format}).body ==
          R"({"contents":[{"role":"user","parts":[{"text":"Hi"}]}],"tools":)" + std::string(tools) +
              R"(,"generationConfig":{"maxOutputTokens":50,"responseMimeType":"application/json","responseSchema":)" +
              std::string(schema) + "}}");
}

TEST_CASE("stream: each call's arguments are one piece, after its on_tool_call, and absent arguments are {}") {
    const std::string body =
        R"(data: {"candidates":[{"content":{"parts":[{"functionCall":{"name":"get_weather","args":{"city":"Paris"}},"thoughtSignature":"CiQBsig=="}],"role":"model"},"index":0}]})"
        "\r\n\r\n"
        R"(data: {"candidates":[{"content":{"parts":[{"functionCall":{"id":"fc_2","name":"get_time"}},{"functionCall":{"name":"get_weather","args":{"city":"Rome"}}}],"role":"model"},"finishReason":"STOP","index":0}]})"
        "\r\n\r\n";
    CHECK(test::pieces_at_every_split(flash, body) ==
          std::vector<std::string>{R"(call_0 {"city":"Paris"})", "fc_2 {}", R"(call_2 {"city":"Rome"})"});
}

TEST_CASE("usage: cachedContentTokenCount and thoughtsTokenCount, and output tokens include the thoughts") {
    const auto r = flash.parse(response(200, R"({"candidates":[{"content":{"parts":[{"text":"4"}]},"finishReason":"STOP"}],
        "usageMetadata":{"promptTokenCount":2100,"candidatesTokenCount":10,"thoughtsTokenCount":300,
        "cachedContentTokenCount":2048,"totalTokenCount":2410,
        "cacheTokensDetails":[{"modality":"TEXT","tokenCount":2048}]}})"));
    REQUIRE(r.ok());
    agentry::token_usage expected;
    expected.input_tokens = 2100;
    expected.output_tokens = 310;
    expected.cached_input_tokens = 2048;
    expected.reasoning_tokens = 300;
    CHECK(r.value->usage == expected);
}

namespace {

message blocks_result(const tool_call& call, std::string blocks, bool is_error = false) {
    message m = message::tool_result(call, std::move(blocks), is_error);
    m.content_blocks = true;
    return m;
}

} // namespace

TEST_CASE("request: a tool result of content blocks: texts in the response, images as its parts") {
    const tool_call shot{"fc_1", "screenshot", "{}", {}};
    const tool_call chart{"call_1", "chart", "{}", {}};
    const std::vector<message> history{
        message::user("Look."),
        message::assistant("", {shot, chart}),
        blocks_result(shot, R"([{"type":"text","text":"The page:"},{"type":"image","data":"iVBORw0KGgo=","mimeType":"image/png"},)"
                            R"({"type":"resource","resource":{"uri":"notes://a","text":"2 tabs"}},)"
                            R"({"type":"image","data":"/9j/4AAQ","mimeType":"image/jpeg"}])"),
        blocks_result(chart, R"([{"type":"image","data":"UklGRg==","mimeType":"image/webp"}])", true),
    };
    CHECK(!flash.refuse({.messages = history}));
    CHECK(flash.request({.messages = history}).body ==
          R"({"contents":[{"role":"user","parts":[{"text":"Look."}]},)"
          R"({"role":"model","parts":[{"functionCall":{"name":"screenshot","args":{},"id":"fc_1"}},{"functionCall":{"name":"chart","args":{}}}]},)"
          R"({"role":"user","parts":[{"functionResponse":{"name":"screenshot","response":{"output":"The page:\n2 tabs"},"id":"fc_1",)"
          R"("parts":[{"inlineData":{"mimeType":"image/png","data":"iVBORw0KGgo="}},{"inlineData":{"mimeType":"image/jpeg","data":"/9j/4AAQ"}}]}},)"
          R"({"functionResponse":{"name":"chart","response":{"error":""},)"
          R"("parts":[{"inlineData":{"mimeType":"image/webp","data":"UklGRg=="}}]}}]}]})");

    // One text block holding JSON goes in as that JSON, as a plain result does.
    const std::vector<message> json_text{message::user("x"), message::assistant("", {chart}),
                                         blocks_result(chart, R"([{"type":"text","text":"{\"bars\":3}"}])")};
    CHECK(flash.request({.messages = json_text}).body.find(R"({"functionResponse":{"name":"chart","response":{"output":{"bars":3}}}})") !=
          std::string::npos);
}

TEST_CASE("refuse: a tool result holding audio or a binary resource, and nothing is sent") {
    const tool_call call{"call_0", "record", "{}", {}};
    std::vector<message> history{message::user("x"), message::assistant("", {call}),
                                 blocks_result(call, R"([{"type":"text","text":"Recorded:"},{"type":"audio","data":"UklGRg==","mimeType":"audio/wav"}])")};
    auto refused = flash.refuse({.messages = history});
    REQUIRE(refused);
    CHECK(test::describe({std::nullopt, *refused}) ==
          "error bad_request status=0 type=unsupported_content retryable=0 retry_after=- message=agentry: gemini: a function "
          "response carries text and images only, and the result of tool 'record' (call 'call_0') holds audio; return text or images");
    history.back() = blocks_result(call, R"([{"type":"resource","resource":{"uri":"file:///a.wav","blob":"UklGRg=="}}])");
    REQUIRE(flash.refuse({.messages = history}));
    CHECK(flash.refuse({.messages = history})->message.find("holds a binary resource;") != std::string::npos);
    // A resource link is text: its JSON (which, being JSON, goes in as that JSON).
    history.back() = blocks_result(call, R"([{"type":"resource_link","uri":"file:///a.wav","name":"a.wav"}])");
    CHECK_FALSE(flash.refuse({.messages = history}));
    CHECK(flash.request({.messages = history}).body.find(
              R"("response":{"output":{"type":"resource_link","uri":"file:///a.wav","name":"a.wav"}})") != std::string::npos);
    history.back() = blocks_result(call, R"([{"type":"audio","data":"UklGRg==","mimeType":"audio/wav"}])");

    struct no_send {
        int sent = 0;
        agentry::transport_result send(const agentry::http_request&) { return ++sent, agentry::transport_result{}; }
        agentry::transport_result stream(const agentry::http_request&, agentry::stream_handlers&) {
            return ++sent, agentry::transport_result{};
        }
    } t;
    const auto r = agentry::complete(flash, t, {.messages = history, .stream = true});
    CHECK(r.error.message.starts_with("agentry: gemini: a function response carries text and images only"));
    CHECK(t.sent == 0);
}
