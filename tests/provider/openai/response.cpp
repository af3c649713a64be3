// SPDX-License-Identifier: BSL-1.0
// agentry::openai::parse: whole responses and error bodies.

#include <agentry/provider/openai.hpp>

#include <doctest/doctest.h>

#include <string>

using agentry::finish_reason;
using agentry::provider_error_kind;

namespace {

const agentry::openai gpt{.model = "gpt-4o-mini"};

agentry::turn_result parse(int status, std::string body, std::vector<agentry::http_header> headers = {}) {
    agentry::http_response r;
    r.status = status;
    r.body = std::move(body);
    r.headers = std::move(headers);
    return gpt.parse(r);
}

// A response as the API sends it, members agentry does not read included.
std::string completion_body(std::string message, std::string finish, std::string usage = "") {
    return R"({"id":"chatcmpl-B9MBs8CjcvOU2jLn4n570S5qMJKcT","object":"chat.completion","created":1741569952,)"
           R"("model":"gpt-4o-2024-08-06","choices":[{"index":0,"message":)" +
           message + R"(,"logprobs":null,"finish_reason":)" + finish + "}]," +
           (usage.empty() ? std::string(R"("usage":{"prompt_tokens":19,"completion_tokens":10,"total_tokens":29,)"
                                        R"("prompt_tokens_details":{"cached_tokens":0,"audio_tokens":0},)"
                                        R"("completion_tokens_details":{"reasoning_tokens":0,"audio_tokens":0,)"
                                        R"("accepted_prediction_tokens":0,"rejected_prediction_tokens":0}},)")
                          : usage + ",") +
           R"("service_tier":"default","system_fingerprint":"fp_fc9f1d7035"})";
}

} // namespace

TEST_CASE("response: text, usage, unknown members skipped") {
    const auto r = parse(200, completion_body(R"({"role":"assistant","content":"Hello! How can I help?","refusal":null,)"
                                              R"("annotations":[]})",
                                              R"("stop")"));
    REQUIRE(r.ok());
    CHECK(r.value->reply.role == agentry::role::assistant);
    CHECK(r.value->reply.text == "Hello! How can I help?");
    CHECK(r.value->reply.tool_calls.empty());
    CHECK(r.value->finish == finish_reason::stop);
    CHECK(r.value->provider_finish == "stop");
    CHECK(r.value->refusal.empty());
    CHECK(r.value->usage == agentry::token_usage{19, 10});
    CHECK_FALSE(r.value->incomplete_tool_call);
}

TEST_CASE("response: cached, cache-write and reasoning tokens") {
    const auto r = parse(200, completion_body(R"({"role":"assistant","content":"4"})", R"("stop")",
                                              R"("usage":{"prompt_tokens":2006,"completion_tokens":300,"total_tokens":2306,)"
                                              R"("prompt_tokens_details":{"cached_tokens":1920,"cache_write_tokens":0},)"
                                              R"("completion_tokens_details":{"reasoning_tokens":256}})"));
    REQUIRE(r.ok());
    agentry::token_usage expected;
    expected.input_tokens = 2006;
    expected.output_tokens = 300;
    expected.cached_input_tokens = 1920;
    expected.reasoning_tokens = 256;
    CHECK(r.value->usage == expected);
}

TEST_CASE("response: parallel tool calls, content null") {
    const auto r = parse(
        200, completion_body(
                 R"({"role":"assistant","content":null,"tool_calls":[)"
                 R"({"id":"call_abc","type":"function","function":{"name":"get_weather","arguments":"{\"city\":\"Paris\"}"}},)"
                 R"({"id":"call_def","type":"function","function":{"name":"add","arguments":"{\"a\":2,\"b\":3}"}}],)"
                 R"("refusal":null,"annotations":[]})",
                 R"("tool_calls")"));
    REQUIRE(r.ok());
    CHECK(r.value->reply.text.empty());
    CHECK(r.value->finish == finish_reason::tool_calls);
    REQUIRE(r.value->reply.tool_calls.size() == 2);
    CHECK(r.value->reply.tool_calls[0].id == "call_abc");
    CHECK(r.value->reply.tool_calls[0].name == "get_weather");
    CHECK(r.value->reply.tool_calls[0].arguments == R"({"city":"Paris"})");
    CHECK(r.value->reply.tool_calls[1].id == "call_def");
    CHECK(r.value->reply.tool_calls[1].arguments == R"({"a":2,"b":3})");
}

TEST_CASE("response: refusal") {
    const auto r = parse(200, completion_body(R"({"role":"assistant","content":null,)"
                                              R"("refusal":"I'm sorry, I can't assist with that request."})",
                                              R"("stop")"));
    REQUIRE(r.ok());
    CHECK(r.value->finish == finish_reason::refusal);
    CHECK(r.value->provider_finish == "stop");
    CHECK(r.value->refusal == "I'm sorry, I can't assist with that request.");
    CHECK(r.value->reply.text.empty());
}

TEST_CASE("response: length, a complete call kept, a cut-off call dropped") {
    auto r = parse(200, completion_body(R"({"role":"assistant","content":"Once upon a"})", R"("length")"));
    REQUIRE(r.ok());
    CHECK(r.value->finish == finish_reason::max_tokens);
    CHECK(r.value->reply.text == "Once upon a");
    CHECK_FALSE(r.value->incomplete_tool_call);

    r = parse(200, completion_body(
                       R"({"role":"assistant","content":null,"tool_calls":[)"
                       R"({"id":"c1","type":"function","function":{"name":"add","arguments":"{\"a\":1,\"b\":2}"}},)"
                       R"({"id":"c2","type":"function","function":{"name":"add","arguments":"{\"a\":3,\"b"}}]})",
                       R"("length")"));
    REQUIRE(r.ok());
    CHECK(r.value->finish == finish_reason::max_tokens);
    CHECK(r.value->incomplete_tool_call);
    REQUIRE(r.value->reply.tool_calls.size() == 1);
    CHECK(r.value->reply.tool_calls[0].id == "c1");
}

TEST_CASE("response: content_filter, unknown finish reasons, a missing finish reason") {
    auto r = parse(200, completion_body(R"({"role":"assistant","content":""})", R"("content_filter")"));
    REQUIRE(r.ok());
    CHECK(r.value->finish == finish_reason::content_filter);
    r = parse(200, completion_body(R"({"role":"assistant","content":"x"})", R"("eos")"));
    REQUIRE(r.ok());
    CHECK(r.value->finish == finish_reason::other);
    CHECK(r.value->provider_finish == "eos");
    r = parse(200, completion_body(R"({"role":"assistant","content":"x"})", "null"));
    REQUIRE(r.ok());
    CHECK(r.value->finish == finish_reason::stop);
}

TEST_CASE("response: tool calls finishing with stop (some servers) finish as tool_calls") {
    const auto r = parse(200, completion_body(R"({"role":"assistant","content":"","tool_calls":[)"
                                              R"({"id":"c1","type":"function","function":{"name":"add","arguments":"{}"}}]})",
                                              R"("stop")"));
    REQUIRE(r.ok());
    CHECK(r.value->finish == finish_reason::tool_calls);
    CHECK(r.value->provider_finish == "stop");
}

TEST_CASE("response: legacy function_call, missing ids, arguments sent as an object") {
    auto r = parse(200, completion_body(R"({"role":"assistant","content":null,)"
                                        R"("function_call":{"name":"add","arguments":"{\"a\":1,\"b\":1}"}})",
                                        R"("function_call")"));
    REQUIRE(r.ok());
    CHECK(r.value->finish == finish_reason::tool_calls);
    REQUIRE(r.value->reply.tool_calls.size() == 1);
    CHECK(r.value->reply.tool_calls[0].id == "call_0");
    CHECK(r.value->reply.tool_calls[0].name == "add");
    CHECK(r.value->reply.tool_calls[0].arguments == R"({"a":1,"b":1})");

    r = parse(200, completion_body(R"({"role":"assistant","tool_calls":[)"
                                   R"({"type":"function","function":{"name":"add","arguments":{"a":1, "b":2}}},)"
                                   R"({"id":"","function":{"name":"add","arguments":"{}"}}]})",
                                   R"("tool_calls")"));
    REQUIRE(r.ok());
    REQUIRE(r.value->reply.tool_calls.size() == 2);
    CHECK(r.value->reply.tool_calls[0].id == "call_0");
    CHECK(r.value->reply.tool_calls[0].arguments == R"({"a":1, "b":2})");
    CHECK(r.value->reply.tool_calls[1].id == "call_1");
}

TEST_CASE("response: the choice with index 0 is read, usage may be absent") {
    const auto r = parse(200, R"({"choices":[{"index":1,"message":{"content":"second"},"finish_reason":"stop"},)"
                              R"({"index":0,"message":{"content":"first"},"finish_reason":"stop"}]})");
    REQUIRE(r.ok());
    CHECK(r.value->reply.text == "first");
    CHECK(r.value->usage == agentry::token_usage{});
}

TEST_CASE("response: a 2xx body agentry cannot read is malformed, with the reason") {
    const auto check = [](std::string body, std::string_view expected) {
        CAPTURE(body);
        const auto r = parse(200, body);
        REQUIRE_FALSE(r.ok());
        CHECK(r.error.kind == provider_error_kind::malformed);
        CHECK_FALSE(r.error.retryable);
        CHECK(r.error.message == expected);
    };
    check("", "agentry: OpenAI response: the body is empty");
    check("<html>oops</html>", "agentry: OpenAI response is not a JSON object: <html>oops</html>");
    check("  " + std::string(100, 'x'), "agentry: OpenAI response is not a JSON object: " + std::string(60, 'x') + "...");
    check(R"({"choices":[]})", "agentry: OpenAI response: no choices");
    check(R"({"object":"chat.completion"})", "agentry: OpenAI response: no choices");
    check(R"({"choices":[{"index":0,"finish_reason":"stop"}]})", "agentry: OpenAI response: the choice has no message");
    check(R"({"choices":[{"index":0,"message":{"content":42}}]})",
          "agentry: OpenAI response is not a chat completion: /choices/0/message/content: expected a string, got a number 42");
    check(R"({"choices":[{"message":{"tool_calls":[{"id":"c","function":{"arguments":"{}"}}]}}]})",
          "agentry: OpenAI response: tool call 0 (id c) has no function name; a call must name its tool");
    check(R"({"choices":[{"message":{"content":"x"}}]} trailing)",
          "agentry: OpenAI response is not a chat completion: invalid JSON at byte 42: unexpected content after the value");
}

TEST_CASE("response: an error body with a 2xx status is a typed error") {
    const auto r = parse(200, R"({"error":{"message":"The server had an error while processing your request.",)"
                              R"("type":"server_error","param":null,"code":null}})");
    REQUIRE_FALSE(r.ok());
    CHECK(r.error.kind == provider_error_kind::server);
    CHECK(r.error.status == 200);
    CHECK(r.error.retryable);
    CHECK(r.error.type == "server_error");
}

namespace {

struct error_case {
    int status;
    std::vector<agentry::http_header> headers;
    std::string body;
    provider_error_kind kind;
    std::string message;
    std::string type;
    bool retryable;
    long long retry_after_ms;  // -1: none
};

} // namespace

TEST_CASE("errors: OpenAI error bodies for each status") {
    const std::vector<error_case> cases{
        {400, {},
         R"({"error":{"message":"This model's maximum context length is 128000 tokens.","type":"invalid_request_error",)"
         R"("param":"messages","code":"context_length_exceeded"}})",
         provider_error_kind::bad_request, "This model's maximum context length is 128000 tokens.",
         "context_length_exceeded", false, -1},
        {400, {},
         R"({"error":{"message":"Invalid schema for function 'f'.","type":"invalid_request_error","param":"tools[0]",)"
         R"("code":null}})",
         provider_error_kind::bad_request, "Invalid schema for function 'f'.", "invalid_request_error", false, -1},
        {401, {},
         R"({"error":{"message":"Incorrect API key provided: sk-abc. You can find your API key at )"
         R"(https://platform.openai.com/account/api-keys.","type":"invalid_request_error","param":null,)"
         R"("code":"invalid_api_key"}})",
         provider_error_kind::authentication,
         "Incorrect API key provided: sk-abc. You can find your API key at https://platform.openai.com/account/api-keys.",
         "invalid_api_key", false, -1},
        {403, {},
         R"({"error":{"message":"Country, region, or territory not supported","type":"request_forbidden",)"
         R"("param":null,"code":"unsupported_country_region_territory"}})",
         provider_error_kind::permission, "Country, region, or territory not supported",
         "unsupported_country_region_territory", false, -1},
        {404, {},
         R"({"error":{"message":"The model `gpt-9` does not exist or you do not have access to it.",)"
         R"("type":"invalid_request_error","param":null,"code":"model_not_found"}})",
         provider_error_kind::bad_request, "The model `gpt-9` does not exist or you do not have access to it.",
         "model_not_found", false, -1},
        {429, {{"Retry-After", "20"}, {"x-ratelimit-reset-requests", "1s"}},
         R"({"error":{"message":"Rate limit reached for gpt-4o-mini on requests per min (RPM): Limit 3, Used 3.",)"
         R"("type":"requests","param":null,"code":"rate_limit_exceeded"}})",
         provider_error_kind::rate_limited,
         "Rate limit reached for gpt-4o-mini on requests per min (RPM): Limit 3, Used 3.", "rate_limit_exceeded", true,
         20000},
        {429, {{"x-ratelimit-reset-requests", "120ms"}, {"x-ratelimit-reset-tokens", "6m0s"}},
         R"({"error":{"message":"Rate limit reached for gpt-4o on tokens per min (TPM).","type":"tokens",)"
         R"("param":null,"code":"rate_limit_exceeded"}})",
         provider_error_kind::rate_limited, "Rate limit reached for gpt-4o on tokens per min (TPM).",
         "rate_limit_exceeded", true, 360000},
        {429, {{"x-ratelimit-reset-requests", "1.5s"}},
         R"({"error":{"message":"Slow down.","type":"requests","param":null,"code":"rate_limit_exceeded"}})",
         provider_error_kind::rate_limited, "Slow down.", "rate_limit_exceeded", true, 1500},
        {429, {},
         R"({"error":{"message":"You exceeded your current quota, please check your plan and billing details.",)"
         R"("type":"insufficient_quota","param":null,"code":"insufficient_quota"}})",
         provider_error_kind::rate_limited,
         "You exceeded your current quota, please check your plan and billing details.", "insufficient_quota", false,
         -1},
        {500, {},
         R"({"error":{"message":"The server had an error while processing your request. Sorry about that!",)"
         R"("type":"server_error","param":null,"code":null}})",
         provider_error_kind::server, "The server had an error while processing your request. Sorry about that!",
         "server_error", true, -1},
        {503, {{"Retry-After", "3"}},
         R"({"error":{"message":"The engine is currently overloaded, please try again later",)"
         R"("type":"server_error","param":null,"code":null}})",
         provider_error_kind::server, "The engine is currently overloaded, please try again later", "server_error",
         true, 3000},
        // llama.cpp: the status as a numeric code.
        {400, {},
         R"({"error":{"code":400,"message":"the request exceeds the available context size","type":"exceed_context_size_error"}})",
         provider_error_kind::bad_request, "the request exceeds the available context size",
         "exceed_context_size_error", false, -1},
        // Older vLLM: the error at the top level.
        {400, {},
         R"({"object":"error","message":"This model's maximum context length is 4096 tokens.","type":"BadRequestError",)"
         R"("param":null,"code":400})",
         provider_error_kind::bad_request, "This model's maximum context length is 4096 tokens.", "BadRequestError",
         false, -1},
        // Ollama's native shape: a bare message.
        {404, {}, R"({"error":"model \"llama9\" not found, try pulling it first"})", provider_error_kind::bad_request,
         R"(model "llama9" not found, try pulling it first)", "", false, -1},
        // A proxy's page: the body itself.
        {502, {}, "<html><body>Bad Gateway</body></html>", provider_error_kind::server,
         "<html><body>Bad Gateway</body></html>", "", true, -1},
        {503, {}, "", provider_error_kind::server, "HTTP 503 with an empty body", "", true, -1},
    };
    for (const auto& c : cases) {
        CAPTURE(c.status);
        CAPTURE(c.body);
        const auto r = parse(c.status, c.body, c.headers);
        REQUIRE_FALSE(r.ok());
        CHECK(r.error.kind == c.kind);
        CHECK(r.error.status == c.status);
        CHECK(r.error.message == c.message);
        CHECK(r.error.type == c.type);
        CHECK(r.error.retryable == c.retryable);
        if (c.retry_after_ms < 0) {
            CHECK_FALSE(r.error.retry_after.has_value());
        } else {
            REQUIRE(r.error.retry_after.has_value());
            CHECK(r.error.retry_after->count() == c.retry_after_ms);
        }
    }
}

TEST_CASE("errors: an error inside a 2xx body is typed by its documented code, then its type, never by words") {
    struct in_band {
        std::string body;
        provider_error_kind kind;
        bool retryable;
    };
    const std::vector<in_band> cases{
        // OpenAI's codes (the status each is documented with).
        {R"({"error":{"message":"Incorrect API key provided: sk-abc***xyz.","type":"invalid_request_error","param":null,"code":"invalid_api_key"}})",
         provider_error_kind::authentication, false},
        {R"({"error":{"message":"You exceeded your current quota.","type":"insufficient_quota","param":null,"code":"insufficient_quota"}})",
         provider_error_kind::rate_limited, false},
        {R"({"error":{"message":"Rate limit reached for gpt-4o on tokens per min (TPM).","type":"tokens","param":null,"code":"rate_limit_exceeded"}})",
         provider_error_kind::rate_limited, true},
        {R"({"error":{"message":"This model's maximum context length is 128000 tokens.","type":"invalid_request_error","param":"messages","code":"context_length_exceeded"}})",
         provider_error_kind::bad_request, false},
        {R"({"error":{"message":"The model `gpt-9` does not exist.","type":"invalid_request_error","param":null,"code":"model_not_found"}})",
         provider_error_kind::bad_request, false},
        {R"({"error":{"message":"Country, region, or territory not supported","type":"request_forbidden","param":null,"code":"unsupported_country_region_territory"}})",
         provider_error_kind::permission, false},
        {R"({"error":{"message":"The server had an error while processing your request.","type":"server_error","param":null,"code":null}})",
         provider_error_kind::server, true},
        // llama.cpp's server: the status as a number, or only its type.
        {R"({"error":{"code":401,"message":"Invalid API Key","type":"authentication_error"}})",
         provider_error_kind::authentication, false},
        {R"({"error":{"message":"Loading model","type":"unavailable_error"}})", provider_error_kind::server, true},
        {R"({"error":{"message":"the request exceeds the available context size","type":"exceed_context_size_error"}})",
         provider_error_kind::bad_request, false},
        // vLLM's exception names, without a code: no word in them decides.
        {R"({"object":"error","message":"The model `x` does not exist.","type":"NotFoundError","param":null})",
         provider_error_kind::bad_request, false},
        // Ollama's /v1.
        {R"({"error":{"message":"model \"x\" not found, try pulling it first","type":"api_error","param":null,"code":null}})",
         provider_error_kind::server, true},
        // Unknown type and code: a server error, worth another try.
        {R"({"error":{"message":"no permission to authenticate the rate_limit","type":"strange","code":"weird"}})",
         provider_error_kind::server, true},
    };
    for (const in_band& c : cases) {
        CAPTURE(c.body);
        const auto r = parse(200, c.body);
        REQUIRE_FALSE(r.ok());
        CHECK(r.error.kind == c.kind);
        CHECK(r.error.retryable == c.retryable);
        CHECK(r.error.status == 200);
    }
    // The same classes in a stream.
    agentry::openai::stream s = gpt.start_stream({});
    s.feed(R"(data: {"error":{"message":"m","type":"invalid_request_error","code":"invalid_api_key"}})"
           "\n\n");
    const auto streamed = s.finish({200, {}, {}});
    CHECK(streamed.error.kind == provider_error_kind::authentication);
}
