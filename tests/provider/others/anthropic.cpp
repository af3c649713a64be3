// SPDX-License-Identifier: BSL-1.0
#include "stream_check.hpp"

#include <agentry/provider/anthropic.hpp>
#include <agentry/provider/detail/wire_common.hpp>
#include <agentry/registry.hpp>
#include <agentry/tool.hpp>

#include <doctest/doctest.h>

#include <cstdlib>
#include <atomic>
#include <string>
#include <type_traits>
#include <vector>

static_assert(agentry::provider<agentry::anthropic>);
static_assert(std::is_same_v<agentry::anthropic::dialect, agentry::dialect::anthropic>);

using agentry::chat_request;
using agentry::message;
using agentry::tool_call;
using agentry::tool_choice;

namespace {

/// Prompt caching off: most tests are about the rest of the body; caching has tests of its own.
agentry::anthropic uncached() {
    agentry::anthropic p{.model = "claude-sonnet-4-5", .api_key = "sk-test"};
    p.cache = agentry::anthropic::cache_ttl::off;
    return p;
}

const agentry::anthropic claude = uncached();

constexpr std::string_view tools =
    R"([{"name":"get_weather","description":"Weather","input_schema":{"type":"object","properties":{"city":{"type":"string"}},"required":["city"]}}])";

agentry::http_response response(int status, std::string body, std::vector<agentry::http_header> headers = {}) {
    return {status, std::move(headers), std::move(body)};
}

const std::vector<message> hello{message::user("Hi")};

/// The body of a request for `hello` with the tools and `choice`, after the tools.
std::string choice_tail(tool_choice choice, std::optional<bool> parallel = std::nullopt) {
    const std::string body =
        claude.request({.messages = hello, .tools = tools, .tool_choice = choice, .parallel_tool_calls = parallel}).body;
    const std::string head = R"({"model":"claude-sonnet-4-5","max_tokens":4096,"messages":[{"role":"user","content":"Hi"}],"tools":)" +
                             std::string(tools);
    REQUIRE(body.substr(0, head.size()) == head);
    return body.substr(head.size());
}

} // namespace

TEST_CASE("request: system at top level, default max_tokens, headers and URL") {
    const std::vector<message> history{message::system("Be brief."), message::user("Hi"), message::system("Use metric.")};
    const agentry::http_request http = claude.request({.messages = history});
    CHECK(http.method == "POST");
    CHECK(http.url == "https://api.anthropic.com/v1/messages");
    CHECK(http.body ==
          R"({"model":"claude-sonnet-4-5","max_tokens":4096,"system":"Be brief.\n\nUse metric.","messages":[{"role":"user","content":"Hi"}]})");
    REQUIRE(http.headers.size() == 3);
    CHECK(http.headers[0].name == "content-type");
    CHECK(http.headers[0].value == "application/json");
    CHECK(http.headers[1].name == "x-api-key");
    CHECK(http.headers[1].value == "sk-test");
    CHECK(http.headers[2].name == "anthropic-version");
    CHECK(http.headers[2].value == "2023-06-01");
}

TEST_CASE("request: a multi-turn conversation with tool calls, results in call order, errors flagged") {
    const std::vector<message> history{
        message::system("S"),
        message::user("Weather in Paris and Rome?"),
        message::assistant("Checking.", {{"toolu_1", "get_weather", R"({"city":"Paris"})", {}},
                                         {"toolu_2", "get_weather", R"({"city":"Rome"})", {}}}),
        message::tool_result({"toolu_2", "get_weather", {}, {}}, "18C"),
        message::tool_result({"toolu_1", "get_weather", {}, {}}, "no data", true),
        message::user("Thanks; and tomorrow?"),
        message::assistant("", {{"toolu_3", "get_weather", "", {}}}),
        message::tool_result({"toolu_3", "get_weather", {}, {}}, R"({"t":1})"),
    };
    const std::string expected =
        R"({"model":"claude-sonnet-4-5","max_tokens":4096,"system":"S","messages":[)"
        R"({"role":"user","content":"Weather in Paris and Rome?"},)"
        R"({"role":"assistant","content":[{"type":"text","text":"Checking."},)"
        R"({"type":"tool_use","id":"toolu_1","name":"get_weather","input":{"city":"Paris"}},)"
        R"({"type":"tool_use","id":"toolu_2","name":"get_weather","input":{"city":"Rome"}}]},)"
        R"({"role":"user","content":[{"type":"tool_result","tool_use_id":"toolu_1","content":"no data","is_error":true},)"
        R"({"type":"tool_result","tool_use_id":"toolu_2","content":"18C"},{"type":"text","text":"Thanks; and tomorrow?"}]},)"
        R"({"role":"assistant","content":[{"type":"tool_use","id":"toolu_3","name":"get_weather","input":{}}]},)"
        R"({"role":"user","content":[{"type":"tool_result","tool_use_id":"toolu_3","content":"{\"t\":1}"}]}],)"
        R"("tools":)" + std::string(tools) + "}";
    CHECK(claude.request({.messages = history, .tools = tools}).body == expected);
}

TEST_CASE("request: arguments that are not a JSON object are sent as {}") {
    const std::vector<message> history{message::user("x"),
                                       message::assistant("", {{"toolu_1", "f", "{\"a\":", {}}, {"toolu_2", "g", "[1]", {}}})};
    CHECK(claude.request({.messages = history}).body ==
          R"({"model":"claude-sonnet-4-5","max_tokens":4096,"messages":[{"role":"user","content":"x"},)"
          R"({"role":"assistant","content":[{"type":"tool_use","id":"toolu_1","name":"f","input":{}},)"
          R"({"type":"tool_use","id":"toolu_2","name":"g","input":{}}]}]})");
}

TEST_CASE("request: each tool_choice, and parallel tool calls turned off") {
    CHECK(choice_tail(tool_choice::automatic()) == "}");
    CHECK(choice_tail(tool_choice::automatic(), true) == "}");
    CHECK(choice_tail(tool_choice::automatic(), false) == R"(,"tool_choice":{"type":"auto","disable_parallel_tool_use":true}})");
    CHECK(choice_tail(tool_choice::none()) == R"(,"tool_choice":{"type":"none"}})");
    CHECK(choice_tail(tool_choice::none(), false) == R"(,"tool_choice":{"type":"none"}})");
    CHECK(choice_tail(tool_choice::required()) == R"(,"tool_choice":{"type":"any"}})");
    CHECK(choice_tail(tool_choice::required(), false) == R"(,"tool_choice":{"type":"any","disable_parallel_tool_use":true}})");
    CHECK(choice_tail(tool_choice::one("get_weather")) == R"(,"tool_choice":{"type":"tool","name":"get_weather"}})");
    // Without tools there is no tool_choice.
    CHECK(claude.request({.messages = hello, .tool_choice = tool_choice::required()}).body ==
          R"({"model":"claude-sonnet-4-5","max_tokens":4096,"messages":[{"role":"user","content":"Hi"}]})");
}

TEST_CASE("request: max_tokens, temperature, stream, extra body members, base URL, timeouts") {
    agentry::anthropic p = claude;
    p.http.base_url = "http://127.0.0.1:8080/";
    p.extra_body = R"({"top_k":40, "metadata":{"user_id":"u1"}})";
    p.http.connect_timeout = std::chrono::milliseconds(1500);
    p.http.total_timeout = std::chrono::milliseconds(60000);
    const agentry::http_request http =
        p.request({.messages = hello, .max_tokens = 100, .temperature = 0.25, .stream = true});
    CHECK(http.url == "http://127.0.0.1:8080/v1/messages");
    CHECK(http.body ==
          R"({"model":"claude-sonnet-4-5","max_tokens":100,"messages":[{"role":"user","content":"Hi"}],"temperature":0.25,"stream":true,"top_k":40, "metadata":{"user_id":"u1"}})");
    CHECK(http.connect_timeout.count() == 1500);
    CHECK(http.total_timeout.count() == 60000);
    CHECK(http.cancel == nullptr);
    const std::atomic<bool> mine{false}, turns{false};
    p.http.cancel = &mine;
    CHECK(p.request({.messages = hello}).cancel == &mine);
    CHECK(p.request({.messages = hello, .cancel = &turns}).cancel == &turns);
}

TEST_CASE("request: the key from ANTHROPIC_API_KEY, extra headers replacing agentry's") {
    ::setenv("ANTHROPIC_API_KEY", "sk-env", 1);
    agentry::anthropic p{.model = "m"};
    p.http.headers = {{"Anthropic-Version", "2024-01-01"}, {"anthropic-beta", "x"}};
    agentry::http_request http = p.request({.messages = hello});
    REQUIRE(http.headers.size() == 4);
    CHECK(http.headers[1].name == "x-api-key");
    CHECK(http.headers[1].value == "sk-env");
    CHECK(http.headers[2].name == "Anthropic-Version");
    CHECK(http.headers[2].value == "2024-01-01");
    CHECK(http.headers[3].name == "anthropic-beta");
    ::unsetenv("ANTHROPIC_API_KEY");
    http = p.request({.messages = hello});
    CHECK(agentry::find_header(http.headers, "x-api-key").empty());
}

TEST_CASE("response: text and tool_use blocks, thinking apart from the text, usage with cache tokens") {
    const auto r = claude.parse(response(200, R"({"id":"msg_1","type":"message","role":"assistant","model":"claude-sonnet-4-5",
        "content":[{"type":"thinking","thinking":"hmm","signature":"sig"},{"type":"text","text":"Let me check."},
                   {"type":"tool_use","id":"toolu_1","name":"get_weather","input":{"city": "Paris"}},
                   {"type":"tool_use","id":"toolu_2","name":"now","input":{}}],
        "stop_reason":"tool_use","stop_sequence":null,
        "usage":{"input_tokens":10,"cache_creation_input_tokens":5,"cache_read_input_tokens":100,"output_tokens":20,"service_tier":"standard"}})"));
    CHECK(test::describe(r) ==
          R"(text=Let me check. calls=[toolu_1|get_weather|{"city": "Paris"}|;toolu_2|now|{}|;] finish=tool_calls provider=tool_use usage=115/20 incomplete=0 refusal=)");
    REQUIRE(r.value->reply.parts);
    CHECK(*r.value->reply.parts ==
          std::vector<agentry::provider_part>{{"anthropic", "thinking", R"({"type":"thinking","thinking":"hmm","signature":"sig"})", 0}});
    CHECK(r.value->usage == agentry::token_usage{115, 20, 100, 5, 0});
}

TEST_CASE("response: every stop_reason") {
    const auto finish = [](std::string_view reason) {
        const auto r = claude.parse(response(200, R"({"content":[{"type":"text","text":"x"}],"stop_reason":")" +
                                                      std::string(reason) + R"(","usage":{"input_tokens":1,"output_tokens":2}})"));
        REQUIRE(r.ok());
        CHECK(r.value->provider_finish == reason);
        return r.value->finish;
    };
    CHECK(finish("end_turn") == agentry::finish_reason::stop);
    CHECK(finish("stop_sequence") == agentry::finish_reason::stop);
    CHECK(finish("tool_use") == agentry::finish_reason::tool_calls);
    CHECK(finish("max_tokens") == agentry::finish_reason::max_tokens);
    CHECK(finish("model_context_window_exceeded") == agentry::finish_reason::max_tokens);
    CHECK(finish("refusal") == agentry::finish_reason::refusal);
    CHECK(finish("pause_turn") == agentry::finish_reason::other);
}

TEST_CASE("response: a tool_use block cut off by max_tokens is left out and flagged") {
    const auto r = claude.parse(response(200, R"({"content":[{"type":"text","text":"Writing."},
        {"type":"tool_use","id":"toolu_1","name":"make_file","input":{}}],"stop_reason":"max_tokens","usage":{"input_tokens":3,"output_tokens":9}})"));
    CHECK(test::describe(r) == "text=Writing. calls=[] finish=max_tokens provider=max_tokens usage=3/9 incomplete=1 refusal=");
}

TEST_CASE("response: malformed 2xx bodies") {
    auto r = claude.parse(response(200, "<html>"));
    REQUIRE_FALSE(r.ok());
    CHECK(r.error.kind == agentry::provider_error_kind::malformed);
    CHECK(r.error.message == "anthropic: unreadable response: invalid JSON at byte 0: unexpected character");
    r = claude.parse(response(200, R"({"type":"message","stop_reason":"end_turn"})"));
    CHECK(r.error.message == "anthropic: unreadable response: /content: missing required property");
    r = claude.parse(response(200, R"({"content":[{"type":"tool_use","id":"t","input":{}}]})"));
    CHECK(r.error.kind == agentry::provider_error_kind::malformed);
    CHECK(r.error.message == "agentry: anthropic response: tool call 0 (id t) has no function name; a call must name its tool");
    r = claude.parse(response(200, R"({"content":[{"type":"tool_use","name":"","input":{}}]})"));
    CHECK(r.error.message == "agentry: anthropic response: tool call 0 has no function name; a call must name its tool");
    // No id: one is assigned, as for every provider; no input: {}.
    r = claude.parse(response(200, R"({"content":[{"type":"tool_use","name":"f"}],"stop_reason":"tool_use"})"));
    REQUIRE(r.ok());
    CHECK(r.value->reply.tool_calls.at(0).id == "call_0");
    CHECK(r.value->reply.tool_calls.at(0).arguments == "{}");
    r = claude.parse(response(200, R"({"content":[{"type":"text","text":"x"}],"usage":{"input_tokens":"3"}})"));
    CHECK(r.error.message.substr(0, 51) == "anthropic: unreadable response: /usage/input_tokens");
}

TEST_CASE("errors: status, kind, type, message, retryability, Retry-After") {
    const auto error = [](int status, std::string_view type, std::vector<agentry::http_header> headers = {}) {
        const std::string body = R"({"type":"error","error":{"type":")" + std::string(type) +
                                 R"(","message":"what happened"},"request_id":"req_1"})";
        const auto r = claude.parse(response(status, body, std::move(headers)));
        REQUIRE_FALSE(r.ok());
        CHECK(r.error.status == status);
        CHECK(r.error.type == type);
        CHECK(r.error.message == "what happened");
        return r.error;
    };
    auto e = error(400, "invalid_request_error");
    CHECK(e.kind == agentry::provider_error_kind::bad_request);
    CHECK_FALSE(e.retryable);
    CHECK(error(401, "authentication_error").kind == agentry::provider_error_kind::authentication);
    CHECK(error(403, "permission_error").kind == agentry::provider_error_kind::permission);
    CHECK(error(404, "not_found_error").kind == agentry::provider_error_kind::bad_request);
    CHECK(error(413, "request_too_large").kind == agentry::provider_error_kind::bad_request);
    e = error(429, "rate_limit_error", {{"retry-after", "7"}});
    CHECK(e.kind == agentry::provider_error_kind::rate_limited);
    CHECK(e.retryable);
    REQUIRE(e.retry_after);
    CHECK(e.retry_after->count() == 7000);
    e = error(500, "api_error");
    CHECK(e.kind == agentry::provider_error_kind::server);
    CHECK(e.retryable);
    e = error(529, "overloaded_error");
    CHECK(e.kind == agentry::provider_error_kind::server);
    CHECK(e.retryable);
    // A proxy's page instead of Anthropic's error body: the body is the message.
    const auto r = claude.parse(response(503, "<html>upstream unavailable</html>"));
    CHECK(test::describe(r) == "error server status=503 type= retryable=1 retry_after=- message=<html>upstream unavailable</html>");
}

TEST_CASE("stream: text, two tool calls (one with no input), thinking apart from the text, unknown events skipped, usage updated") {
    const std::string body =
        "event: message_start\n"
        R"(data: {"type":"message_start","message":{"id":"msg_1","type":"message","role":"assistant","content":[],"model":"m","stop_reason":null,"stop_sequence":null,"usage":{"input_tokens":20,"cache_read_input_tokens":2,"output_tokens":1}}})"
        "\n\n"
        "event: content_block_start\n"
        R"(data: {"type":"content_block_start","index":0,"content_block":{"type":"thinking","thinking":"","signature":""}})"
        "\n\n"
        "event: content_block_delta\n"
        R"(data: {"type":"content_block_delta","index":0,"delta":{"type":"thinking_delta","thinking":"Let me think"}})"
        "\n\n"
        "event: content_block_delta\n"
        R"(data: {"type":"content_block_delta","index":0,"delta":{"type":"signature_delta","signature":"EqQB"}})"
        "\n\n"
        "event: content_block_stop\n"
        R"(data: {"type":"content_block_stop","index":0})"
        "\n\n"
        "event: content_block_start\n"
        R"(data: {"type":"content_block_start","index":1,"content_block":{"type":"text","text":""}})"
        "\n\n"
        ": keep-alive comment\n\n"
        "event: content_block_delta\n"
        R"(data: {"type":"content_block_delta","index":1,"delta":{"type":"text_delta","text":"Two \u00e9 calls."}})"
        "\n\n"
        "event: content_block_stop\n"
        R"(data: {"type":"content_block_stop","index":1})"
        "\n\n"
        "event: something_new\n"
        R"(data: {"type":"something_new","index":"x"})"
        "\n\n"
        "event: content_block_start\n"
        R"(data: {"type":"content_block_start","index":2,"content_block":{"type":"tool_use","id":"toolu_a","name":"get_weather","input":{}}})"
        "\n\n"
        "event: content_block_delta\n"
        R"(data: {"type":"content_block_delta","index":2,"delta":{"type":"input_json_delta","partial_json":"{\"city\":"}})"
        "\n\n"
        "event: content_block_delta\n"
        R"(data: {"type":"content_block_delta","index":2,"delta":{"type":"input_json_delta","partial_json":" \"Paris\"}"}})"
        "\n\n"
        "event: content_block_stop\n"
        R"(data: {"type":"content_block_stop","index":2})"
        "\n\n"
        "event: content_block_start\n"
        R"(data: {"type":"content_block_start","index":3,"content_block":{"type":"tool_use","id":"toolu_b","name":"now","input":{}}})"
        "\n\n"
        "event: content_block_delta\n"
        R"(data: {"type":"content_block_delta","index":3,"delta":{"type":"input_json_delta","partial_json":""}})"
        "\n\n"
        "event: content_block_stop\n"
        R"(data: {"type":"content_block_stop","index":3})"
        "\n\n"
        "event: message_delta\n"
        R"(data: {"type":"message_delta","delta":{"stop_reason":"tool_use","stop_sequence":null},"usage":{"input_tokens":21,"output_tokens":42}})"
        "\n\n"
        "event: message_stop\n"
        R"(data: {"type":"message_stop"})"
        "\n\n";
    const test::streamed s = test::check_every_split(claude, body);
    CHECK(test::describe(s.result) ==
          "text=Two \xC3\xA9 calls. calls=[toolu_a|get_weather|{\"city\": \"Paris\"}|;toolu_b|now|{}|;] finish=tool_calls "
          "provider=tool_use usage=23/42 incomplete=0 refusal=");
    CHECK(s.text == "Two \xC3\xA9 calls.");
    CHECK(s.calls == std::vector<std::string>{"toolu_a get_weather", "toolu_b now"});
    REQUIRE(s.result.value->reply.parts);
    CHECK(*s.result.value->reply.parts ==
          std::vector<agentry::provider_part>{
              {"anthropic", "thinking", R"({"type":"thinking","thinking":"Let me think","signature":"EqQB"})", 0}});
}

TEST_CASE("stream: an error event ends the turn with that error") {
    const std::string body =
        "event: message_start\n"
        R"(data: {"type":"message_start","message":{"usage":{"input_tokens":5,"output_tokens":1}}})"
        "\n\n"
        "event: content_block_start\n"
        R"(data: {"type":"content_block_start","index":0,"content_block":{"type":"text","text":""}})"
        "\n\n"
        "event: content_block_delta\n"
        R"(data: {"type":"content_block_delta","index":0,"delta":{"type":"text_delta","text":"Hel"}})"
        "\n\n"
        "event: error\n"
        R"(data: {"type":"error","error":{"type":"overloaded_error","message":"Overloaded"}})"
        "\n\n";
    const test::streamed s = test::check_every_split(claude, body);
    CHECK(test::describe(s.result) == "error server status=200 type=overloaded_error retryable=1 retry_after=- message=Overloaded");
    CHECK(s.text == "Hel");
    const std::string invalid = "event: error\n"
                                R"(data: {"type":"error","error":{"type":"invalid_request_error","message":"bad"}})"
                                "\n\n";
    CHECK(test::describe(test::check_every_split(claude, invalid).result) ==
          "error bad_request status=200 type=invalid_request_error retryable=0 retry_after=- message=bad");
}

TEST_CASE("stream: cut before message_stop, unreadable events, an error status") {
    const std::string start =
        "event: message_start\n"
        R"(data: {"type":"message_start","message":{"usage":{"input_tokens":5,"output_tokens":1}}})"
        "\n\n"
        "event: content_block_start\n"
        R"(data: {"type":"content_block_start","index":0,"content_block":{"type":"text","text":""}})"
        "\n\n";
    const std::string cut = start + "event: content_block_delta\n" +
                            R"(data: {"type":"content_block_delta","index":0,"delta":{"type":"text_delta","text":"Hel)";
    for (std::size_t end = 0; end <= cut.size(); ++end) {
        const auto r = test::run_whole(claude, std::string_view(cut).substr(0, end)).result;
        REQUIRE_FALSE(r.ok());
        CHECK(r.error.kind == agentry::provider_error_kind::malformed);
        CHECK(r.error.message.rfind("anthropic: the stream ended before message_stop", 0) == 0);
    }
    CHECK(test::run_whole(claude, cut).result.error.message ==
          "anthropic: the stream ended before message_stop, inside a content_block_delta event");
    CHECK(test::run_whole(claude, start).result.error.message == "anthropic: the stream ended before message_stop");
    const std::string wrong_type = start + "event: content_block_delta\n" +
                                   R"(data: {"type":"content_block_delta","index":0,"delta":{"type":"text_delta","text":5}})" +
                                   "\n\n";
    CHECK(test::describe(test::check_every_split(claude, wrong_type).result) ==
          "error malformed status=0 type= retryable=0 retry_after=- message=anthropic: unreadable content_block_delta "
          "event: /delta/text: expected a string, got a number 5");
    const std::string no_index = start + "event: content_block_delta\n" +
                                 R"(data: {"type":"content_block_delta","delta":{"type":"text_delta","text":"x"}})" + "\n\n";
    CHECK(test::run_whole(claude, no_index).result.error.message ==
          "anthropic: a content_block_delta event without delta and index");
    const auto failed = test::run_whole(claude, "", response(401, R"({"type":"error","error":{"type":"authentication_error","message":"invalid x-api-key"}})"));
    CHECK(test::describe(failed.result) ==
          "error authentication status=401 type=authentication_error retryable=0 retry_after=- message=invalid x-api-key");
}

TEST_CASE("request: a registry's tools payload goes in as it is, and the body is JSON") {
    static constexpr agentry::registry registry{
        agentry::tool<"add", "Add two integers", "a", "b">(+[](int a, int b) { return a + b; })};
    constexpr std::string_view payload = registry.definitions<agentry::anthropic::dialect>();
    const std::vector<message> history{message::user("1+2?"), message::assistant("", {{"call_9", "add", R"({"a":1,"b":2})", {}}}),
                                       message::tool_result({"call_9", "add", {}, {}}, "3")};
    const std::string body = claude.request({.messages = history, .tools = payload}).body;
    CHECK(body.find(R"("tools":)" + std::string(payload)) != std::string::npos);
    CHECK(agentry::detail::is_json_object(body));
}

TEST_CASE("request: a structured output goes in output_config.format, with the tools") {
    constexpr std::string_view schema =
        R"({"type":"object","properties":{"city":{"type":"string"}},"required":["city"],"additionalProperties":false})";
    const agentry::http_request http = claude.request(
        {.messages = hello, .tools = tools, .output = agentry::output_format{"final_answer", schema, false}});
    CHECK(http.body == R"({"model":"claude-sonnet-4-5","max_tokens":4096,"messages":[{"role":"user","content":"Hi"}],"tools":)" +
                           std::string(tools) + R"(,"output_config":{"format":{"type":"json_schema","schema":)" +
                           std::string(schema) + "}}}");
    // No beta header: structured outputs are generally available.
    for (const agentry::http_header& h : http.headers) CHECK(h.name != "anthropic-beta");
}

// ---- thinking, prompt caching, content blocks, streamed arguments ----------------------------
//
// The recorded streams in ../shared/testdata have no thinking: the thinking fixtures below are
// written after the shapes of the Messages API documentation's examples (thinking and
// redacted_thinking blocks, thinking_delta and signature_delta events).

namespace {

/// A provider with manual thinking and caching off.
agentry::anthropic thinking_claude(std::uint32_t budget = 2048) {
    agentry::anthropic p = uncached();
    p.thinking = agentry::anthropic_thinking{};
    p.thinking->budget_tokens = budget;
    return p;
}

std::string header(const agentry::http_request& http, std::string_view name) {
    return std::string(agentry::find_header(http.headers, name));
}

/// A turn read from a stream with everything it passed on, arguments per call id included.
struct full_stream {
    std::string described;
    std::optional<std::vector<agentry::provider_part>> parts;
    agentry::token_usage usage;
    std::vector<std::pair<std::string, std::string>> arguments;  // id, pieces joined
    std::size_t pieces = 0;
    std::vector<std::pair<std::string, std::string>> calls;  // id, arguments

    friend bool operator==(const full_stream&, const full_stream&) = default;
};

full_stream feed(const agentry::anthropic& p, std::string_view body, const std::vector<std::size_t>& cuts) {
    full_stream out;
    agentry::stream_events events;
    events.on_tool_arguments = [&out](std::string_view id, std::string_view piece) {
        ++out.pieces;
        if (out.arguments.empty() || out.arguments.back().first != id) out.arguments.emplace_back(std::string(id), "");
        out.arguments.back().second.append(piece);
    };
    agentry::anthropic::stream s = p.start_stream(std::move(events));
    std::size_t at = 0;
    for (std::size_t cut : cuts) {
        s.feed(body.substr(at, cut - at));
        at = cut;
    }
    s.feed(body.substr(at));
    const agentry::turn_result r = s.finish(test::ok_head());
    out.described = test::describe(r);
    if (r.ok()) {
        out.parts = r.value->reply.parts;
        out.usage = r.value->usage;
        for (const agentry::tool_call& c : r.value->reply.tool_calls) out.calls.emplace_back(c.id, c.arguments);
    }
    return out;
}

/// `body` fed whole, split in two at every byte and one byte at a time: the same turn, parts,
/// usage and argument pieces each way (the number of pieces aside). Returns the whole feed's.
full_stream feed_every_split(const agentry::anthropic& p, std::string_view body) {
    full_stream whole = feed(p, body, {});
    std::size_t failures = 0;
    const auto same = [&](full_stream s) {
        s.pieces = whole.pieces;
        if (!(s == whole)) ++failures;
    };
    for (std::size_t split = 0; split <= body.size(); ++split) same(feed(p, body, {split}));
    std::vector<std::size_t> bytes;
    for (std::size_t i = 1; i < body.size(); ++i) bytes.push_back(i);
    same(feed(p, body, bytes));
    CHECK(failures == 0);
    return whole;
}

std::string sse(std::string_view event, std::string_view data) {
    return "event: " + std::string(event) + "\ndata: " + std::string(data) + "\n\n";
}

} // namespace

TEST_CASE("request: manual thinking with its budget, and the interleaved thinking beta header with tools") {
    const agentry::anthropic p = thinking_claude(3000);
    agentry::http_request http = p.request({.messages = hello, .tools = tools, .max_tokens = 8000});
    CHECK(http.body == R"({"model":"claude-sonnet-4-5","max_tokens":8000,"messages":[{"role":"user","content":"Hi"}],"tools":)" +
                           std::string(tools) + R"(,"thinking":{"type":"enabled","budget_tokens":3000}})");
    CHECK(header(http, "anthropic-beta") == "interleaved-thinking-2025-05-14");
    // Without tools there is nothing to interleave: no header.
    http = p.request({.messages = hello});
    CHECK(http.body ==
          R"({"model":"claude-sonnet-4-5","max_tokens":4096,"messages":[{"role":"user","content":"Hi"}],"thinking":{"type":"enabled","budget_tokens":3000}})");
    CHECK(header(http, "anthropic-beta").empty());
    agentry::anthropic off = p;
    off.interleaved_thinking = false;
    CHECK(header(off.request({.messages = hello, .tools = tools}), "anthropic-beta").empty());
}

TEST_CASE("request: adaptive thinking has no budget and no beta header, effort goes in output_config") {
    agentry::anthropic p = uncached();
    p.thinking = agentry::anthropic_thinking{};
    p.thinking->type = agentry::anthropic_thinking::kind::adaptive;
    p.effort = "medium";
    const agentry::http_request http = p.request({.messages = hello, .tools = tools});
    CHECK(http.body == R"({"model":"claude-sonnet-4-5","max_tokens":4096,"messages":[{"role":"user","content":"Hi"}],"tools":)" +
                           std::string(tools) + R"(,"thinking":{"type":"adaptive"},"output_config":{"effort":"medium"}})");
    CHECK(header(http, "anthropic-beta").empty());
    constexpr std::string_view schema = R"({"type":"object"})";
    CHECK(p.request({.messages = hello, .output = agentry::output_format{"answer", schema, false}}).body ==
          R"({"model":"claude-sonnet-4-5","max_tokens":4096,"messages":[{"role":"user","content":"Hi"}],"thinking":{"type":"adaptive"},)"
          R"("output_config":{"effort":"medium","format":{"type":"json_schema","schema":{"type":"object"}}}})");
}

TEST_CASE("request: thinking parts go back in their places, around the text and two calls, before the results") {
    message reply = message::assistant("Checking both.", {{"toolu_1", "get_weather", R"({"city":"Paris"})", {}},
                                                          {"toolu_2", "get_weather", R"({"city":"Rome"})", {}}});
    const std::string first = R"({"type": "thinking", "thinking": "Two cities.", "signature": "c2lnMQ=="})";
    const std::string second = R"({"type":"redacted_thinking","data":"EmwKAhgBEgy3va3p"})";
    const std::string third = R"({"type":"thinking","thinking":"Rome next.","signature":"c2lnMg=="})";
    const std::string last = R"({"type":"thinking","thinking":"","signature":"c2lnMw=="})";
    reply.parts = std::vector<agentry::provider_part>{{"anthropic", "thinking", first, 0},
                                                      {"openai", "reasoning", R"({"type":"reasoning"})", 0},
                                                      {"anthropic", "redacted_thinking", second, 1},
                                                      {"anthropic", "thinking", third, 2},
                                                      {"anthropic", "thinking", last, 3}};
    const std::vector<message> history{message::user("Weather in Paris and Rome?"), reply,
                                       message::tool_result(reply.tool_calls[1], "18C"),
                                       message::tool_result(reply.tool_calls[0], "21C")};
    CHECK(thinking_claude().request({.messages = history, .tools = tools}).body ==
          R"({"model":"claude-sonnet-4-5","max_tokens":4096,"messages":[{"role":"user","content":"Weather in Paris and Rome?"},)"
          R"({"role":"assistant","content":[)" + first + R"(,{"type":"text","text":"Checking both."},)" + second + "," +
              R"({"type":"tool_use","id":"toolu_1","name":"get_weather","input":{"city":"Paris"}},)" + third + "," +
              R"({"type":"tool_use","id":"toolu_2","name":"get_weather","input":{"city":"Rome"}},)" + last + "]}," +
              R"({"role":"user","content":[{"type":"tool_result","tool_use_id":"toolu_1","content":"21C"},)"
              R"({"type":"tool_result","tool_use_id":"toolu_2","content":"18C"}]}],"tools":)" +
              std::string(tools) + R"(,"thinking":{"type":"enabled","budget_tokens":2048}})");
    // An assistant message of parts alone (a reply with neither text nor calls) keeps them.
    message only = message::assistant("");
    only.parts = std::vector<agentry::provider_part>{{"anthropic", "redacted_thinking", second, 0}};
    const std::vector<message> bare{message::user("Hi"), only, message::user("Go on.")};
    CHECK(claude.request({.messages = bare}).body ==
          R"({"model":"claude-sonnet-4-5","max_tokens":4096,"messages":[{"role":"user","content":"Hi"},)"
          R"({"role":"assistant","content":[)" + second + R"(]},{"role":"user","content":"Go on."}]})");
}

TEST_CASE("request: cache breakpoints on the last tool, the system prompt and the last block, in either ttl") {
    static constexpr agentry::registry registry{
        agentry::tool<"add", "Add two integers", "a", "b">(+[](int a, int b) { return a + b; }),
        agentry::tool<"neg", "Negate an integer", "a">(+[](int a) { return -a; })};
    constexpr std::string_view payload = registry.definitions<agentry::anthropic::dialect>();
    agentry::anthropic p{.model = "claude-sonnet-4-5", .api_key = "sk-test"};
    CHECK(p.cache == agentry::anthropic::cache_ttl::five_minutes);
    const std::string five = R"("cache_control":{"type":"ephemeral","ttl":"5m"})";
    std::vector<message> history{message::system("Be brief."), message::user("1+2, negated?")};
    const std::string cached_tools = std::string(payload.substr(0, payload.size() - 2)) + "," + five + "}]";
    CHECK(p.request({.messages = history, .tools = payload}).body ==
          R"({"model":"claude-sonnet-4-5","max_tokens":4096,"system":[{"type":"text","text":"Be brief.",)" + five +
              R"(}],"messages":[{"role":"user","content":[{"type":"text","text":"1+2, negated?",)" + five + "}]}]," +
              R"("tools":)" + cached_tools + "}");
    // Three turns of a tool loop: the tools go out byte for byte the same each time, and the
    // breakpoint moves to the newest block.
    std::vector<std::string> bodies;
    bodies.push_back(p.request({.messages = history, .tools = payload}).body);
    history.push_back(message::assistant("", {{"toolu_1", "add", R"({"a":1,"b":2})", {}}}));
    history.push_back(message::tool_result(history.back().tool_calls[0], "3"));
    bodies.push_back(p.request({.messages = history, .tools = payload}).body);
    history.push_back(message::assistant("", {{"toolu_2", "neg", R"({"a":3})", {}}}));
    history.push_back(message::tool_result(history.back().tool_calls[0], "-3"));
    bodies.push_back(p.request({.messages = history, .tools = payload}).body);
    for (const std::string& body : bodies) {
        const std::size_t at = body.find(R"("tools":)");
        REQUIRE(at != std::string::npos);
        CHECK(body.substr(at) == R"("tools":)" + cached_tools + "}");
        CHECK(agentry::detail::is_json_object(body));
    }
    CHECK(bodies[2].find(R"({"type":"tool_result","tool_use_id":"toolu_1","content":"3"}]})") != std::string::npos);
    CHECK(bodies[2].find(R"({"type":"tool_result","tool_use_id":"toolu_2","content":"-3",)" + five + "}]}]") !=
          std::string::npos);

    p.cache = agentry::anthropic::cache_ttl::one_hour;
    CHECK(p.request({.messages = hello, .tools = tools}).body ==
          R"({"model":"claude-sonnet-4-5","max_tokens":4096,"messages":[{"role":"user","content":[{"type":"text","text":"Hi",)"
          R"("cache_control":{"type":"ephemeral","ttl":"1h"}}]}],"tools":)" +
              std::string(tools.substr(0, tools.size() - 2)) + R"(,"cache_control":{"type":"ephemeral","ttl":"1h"}}]})");
    CHECK(header(p.request({.messages = hello}), "anthropic-beta").empty());  // 1h is generally available
    p.cache = agentry::anthropic::cache_ttl::off;
    CHECK(p.request({.messages = history, .tools = payload}).body.find("cache_control") == std::string::npos);
}

TEST_CASE("request: a thinking part that ends the conversation gets no breakpoint, the block before it does") {
    agentry::anthropic p{.model = "m", .api_key = "k"};
    message prefill = message::assistant("Sure.");
    prefill.parts = std::vector<agentry::provider_part>{{"anthropic", "redacted_thinking", R"({"type":"redacted_thinking","data":"x"})", 1}};
    const std::vector<message> history{message::user("Hi"), prefill};
    CHECK(p.request({.messages = history}).body ==
          R"({"model":"m","max_tokens":4096,"messages":[{"role":"user","content":"Hi"},{"role":"assistant","content":[)"
          R"({"type":"text","text":"Sure.","cache_control":{"type":"ephemeral","ttl":"5m"}},{"type":"redacted_thinking","data":"x"}]}]})");
}

TEST_CASE("request: eager_input_streaming on every tool, spliced into the payload") {
    static constexpr agentry::registry registry{
        agentry::tool<"add", "Add two integers", "a", "b">(+[](int a, int b) { return a + b; }),
        agentry::tool<"neg", "Negate an integer", "a">(+[](int a) { return -a; })};
    constexpr std::string_view payload = registry.definitions<agentry::anthropic::dialect>();
    agentry::anthropic p = uncached();
    p.eager_tool_input = true;
    const std::string body = p.request({.messages = hello, .tools = payload}).body;
    const std::string expected_tools = [&] {
        std::string t(payload);
        const std::size_t second = t.find(R"(},{"name":"neg")");
        REQUIRE(second != std::string::npos);
        t.insert(t.size() - 2, R"(,"eager_input_streaming":true)");
        t.insert(second, R"(,"eager_input_streaming":true)");
        return t;
    }();
    CHECK(body == R"({"model":"claude-sonnet-4-5","max_tokens":4096,"messages":[{"role":"user","content":"Hi"}],"tools":)" +
                      expected_tools + "}");
    p.cache = agentry::anthropic::cache_ttl::five_minutes;
    const std::string both = p.request({.messages = hello, .tools = payload}).body;
    CHECK(both.ends_with(R"(,"eager_input_streaming":true,"cache_control":{"type":"ephemeral","ttl":"5m"}}]})"));
    // Braces inside strings do not count; an empty object and text that is not an array of objects are
    // left alone or completed without a stray comma.
    CHECK(agentry::detail::splice_tools(R"([{"name":"a}{","x":{"y":"}"}}])", R"("e":1)", "") ==
          R"([{"name":"a}{","x":{"y":"}"},"e":1}])");
    CHECK(agentry::detail::splice_tools("[ {} ]", R"("e":1)", R"("l":2)") == R"([ {"e":1,"l":2} ])");
    CHECK(agentry::detail::splice_tools("[1]", R"("e":1)", "") == "[1]");
    CHECK(agentry::detail::splice_tools("{}", R"("e":1)", "") == "{}");
    CHECK(agentry::detail::splice_tools("[]", R"("e":1)", "") == "[]");
    // The last object alone (the cache breakpoint): read from the end.
    CHECK(agentry::detail::splice_tools(R"([{"a":"}"},{"b":{"c":1}}])", "", R"("l":2)") == R"([{"a":"}"},{"b":{"c":1},"l":2}])");
    CHECK(agentry::detail::splice_tools("[ {}\n] ", "", R"("l":2)") == "[ {\"l\":2}\n] ");
    CHECK(agentry::detail::splice_tools("[]", "", R"("l":2)") == "[]");
    CHECK(agentry::detail::splice_tools("[{},1]", "", R"("l":2)") == "[{},1]");
    CHECK(agentry::detail::splice_tools(R"(["}"])", "", R"("l":2)") == R"(["}"])");
}

TEST_CASE("request: MCP content blocks in a tool result become text, image and document blocks") {
    const tool_call call{"toolu_1", "chart", "{}", {}};
    message result = message::tool_result(
        call, R"([{"type":"text","text":"Sales"},{"type":"image","data":"iVBORw0KGgo=","mimeType":"image/png"},)"
              R"({"type":"resource","resource":{"uri":"file:///a.txt","mimeType":"text/plain","text":"notes"}},)"
              R"({"type":"resource","resource":{"uri":"file:///r.pdf","mimeType":"application/pdf","blob":"JVBERi0x"}},)"
              R"({"type":"resource_link","uri":"file:///big.csv","name":"big.csv"}])");
    result.content_blocks = true;
    const std::vector<message> history{message::user("Chart?"), message::assistant("", {call}), result};
    CHECK_FALSE(claude.refuse({.messages = history}));
    CHECK(claude.request({.messages = history}).body ==
          R"({"model":"claude-sonnet-4-5","max_tokens":4096,"messages":[{"role":"user","content":"Chart?"},)"
          R"({"role":"assistant","content":[{"type":"tool_use","id":"toolu_1","name":"chart","input":{}}]},)"
          R"({"role":"user","content":[{"type":"tool_result","tool_use_id":"toolu_1","content":[{"type":"text","text":"Sales"},)"
          R"({"type":"image","source":{"type":"base64","media_type":"image/png","data":"iVBORw0KGgo="}},)"
          R"({"type":"text","text":"notes"},)"
          R"({"type":"document","source":{"type":"base64","media_type":"application/pdf","data":"JVBERi0x"}},)"
          R"({"type":"text","text":"{\"type\":\"resource_link\",\"uri\":\"file:///big.csv\",\"name\":\"big.csv\"}"}]}]}]})");
    // Marked as content blocks but not an array of them: sent as text.
    result.text = "not json";
    const std::vector<message> plain{message::user("Chart?"), message::assistant("", {call}), result};
    CHECK(claude.request({.messages = plain}).body.ends_with(R"({"type":"tool_result","tool_use_id":"toolu_1","content":"not json"}]}]})"));
}

TEST_CASE("refuse: content blocks a tool_result cannot carry, named with their tool") {
    const tool_call call{"toolu_1", "record", "{}", {}};
    const auto refusal = [&](std::string content) {
        message result = message::tool_result(call, std::move(content));
        result.tool_name.clear();  // the name comes from the call then
        result.content_blocks = true;
        const std::vector<message> history{message::user("Go"), message::assistant("", {call}), result};
        const auto e = claude.refuse({.messages = history});
        REQUIRE(e);
        CHECK(e->kind == agentry::provider_error_kind::bad_request);
        CHECK(e->type == "refused");
        CHECK(e->status == 0);
        // Sent anyway (without refuse()), the array goes as text.
        CHECK(claude.request({.messages = history}).body.find(R"("content":"[{\"type\")") != std::string::npos);
        return e->message;
    };
    const std::string tail = ", which a tool_result cannot carry (it takes text, JPEG, PNG, GIF and WebP images, and PDF "
                             "documents); have the tool return those, or text in place of the rest";
    CHECK(refusal(R"([{"type":"text","text":"x"},{"type":"audio","data":"UklGRg==","mimeType":"audio/wav"}])") ==
          "agentry: anthropic: the result of tool 'record' holds an audio block" + tail);
    CHECK(refusal(R"([{"type":"image","data":"PHN2Zz4=","mimeType":"image/svg+xml"}])") ==
          "agentry: anthropic: the result of tool 'record' holds an image of type 'image/svg+xml'" + tail);
    CHECK(refusal(R"([{"type":"resource","resource":{"uri":"file:///a.zip","mimeType":"application/zip","blob":"UEs="}}])") ==
          "agentry: anthropic: the result of tool 'record' holds an embedded resource blob of type 'application/zip'" + tail);
    CHECK(refusal(R"([{"type":"hologram"}])") == "agentry: anthropic: the result of tool 'record' holds a block of type 'hologram'" + tail);
}

TEST_CASE("forces_tools: not with manual thinking, with adaptive thinking and without thinking") {
    agentry::anthropic p = thinking_claude(2048);
    CHECK_FALSE(p.forces_tools());
    p.thinking->type = agentry::anthropic_thinking::kind::adaptive;
    CHECK(p.forces_tools());
    p.thinking.reset();
    CHECK(p.forces_tools());
}

TEST_CASE("refuse: forced tool choice, budgets and temperature with thinking") {
    const agentry::anthropic p = thinking_claude(2048);
    const auto message_of = [&](const agentry::anthropic& provider, const chat_request& r) {
        const auto e = provider.refuse(r);
        REQUIRE(e);
        CHECK(e->kind == agentry::provider_error_kind::bad_request);
        return e->message;
    };
    CHECK_FALSE(p.refuse({.messages = hello, .tools = tools}));
    CHECK_FALSE(p.refuse({.messages = hello, .tools = tools, .tool_choice = tool_choice::none()}));
    CHECK(message_of(p, {.messages = hello, .tools = tools, .tool_choice = tool_choice::one("get_weather")}) ==
          "agentry: anthropic: with thinking enabled the Messages API takes tool_choice auto or none only, and this "
          "request forces tool 'get_weather'; leave thinking off for this request, use adaptive thinking "
          "(anthropic_thinking::kind::adaptive) where the model takes a forced tool, or let the model choose "
          "(tool_choice::automatic(); in agent<>: loop_config::tool_choice automatic; planned runs do not force their plan tool with manual thinking)");
    CHECK(message_of(p, {.messages = hello, .tools = tools, .tool_choice = tool_choice::required()}) ==
          "agentry: anthropic: with thinking enabled the Messages API takes tool_choice auto or none only, and this "
          "request forces a tool call; leave thinking off for this request, use adaptive thinking "
          "(anthropic_thinking::kind::adaptive) where the model takes a forced tool, or let the model choose "
          "(tool_choice::automatic(); in agent<>: loop_config::tool_choice automatic; planned runs do not force their plan tool with manual thinking)");
    // Without tools no tool_choice is sent; adaptive thinking takes a forced tool (on the models that refuse
    // one, the API says so).
    CHECK_FALSE(p.refuse({.messages = hello, .tool_choice = tool_choice::required()}));
    agentry::anthropic adaptive = p;
    adaptive.thinking->type = agentry::anthropic_thinking::kind::adaptive;
    adaptive.thinking->budget_tokens = 0;  // not sent, not checked
    CHECK_FALSE(adaptive.refuse({.messages = hello, .tools = tools, .tool_choice = tool_choice::required()}));

    CHECK(message_of(thinking_claude(1000), {.messages = hello}) ==
          "agentry: anthropic: anthropic_thinking::budget_tokens is 1000, under the Messages API's minimum of 1024; set "
          "it to 1024 or more");
    CHECK(message_of(thinking_claude(4096), {.messages = hello}) ==
          "agentry: anthropic: anthropic_thinking::budget_tokens (4096) must be less than max_tokens (4096, the "
          "request's or anthropic::max_tokens); raise max_tokens or lower budget_tokens");
    CHECK(message_of(p, {.messages = hello, .max_tokens = 2000}) ==
          "agentry: anthropic: anthropic_thinking::budget_tokens (2048) must be less than max_tokens (2000, the "
          "request's or anthropic::max_tokens); raise max_tokens or lower budget_tokens");
    CHECK_FALSE(p.refuse({.messages = hello, .max_tokens = 2049}));
    // With tools and interleaved thinking the budget covers the whole turn and may pass max_tokens.
    CHECK_FALSE(p.refuse({.messages = hello, .tools = tools, .max_tokens = 2000}));
    agentry::anthropic plain = p;
    plain.interleaved_thinking = false;
    CHECK(plain.refuse({.messages = hello, .tools = tools, .max_tokens = 2000}));

    const std::string temperature =
        "agentry: anthropic: with thinking the Messages API takes no temperature, and this request sets one; leave "
        "chat_request::temperature unset, or leave thinking off for this request";
    CHECK(message_of(p, {.messages = hello, .temperature = 0.5}) == temperature);
    CHECK(message_of(adaptive, {.messages = hello, .temperature = 1.0}) == temperature);
    CHECK_FALSE(claude.refuse({.messages = hello, .tools = tools, .tool_choice = tool_choice::required(), .temperature = 0.5}));
}

TEST_CASE("refuse: complete() returns the refusal and sends nothing") {
    struct never_sent {
        int calls = 0;
        agentry::transport_result send(const agentry::http_request&) {
            ++calls;
            return {};
        }
        agentry::transport_result stream(const agentry::http_request&, agentry::stream_handlers&) {
            ++calls;
            return {};
        }
    } transport;
    const agentry::turn_result r = agentry::complete(thinking_claude(100), transport, {.messages = hello});
    REQUIRE_FALSE(r.ok());
    CHECK(r.error.message.rfind("agentry: anthropic: anthropic_thinking::budget_tokens is 100", 0) == 0);
    CHECK(transport.calls == 0);
}

TEST_CASE("response: thinking and redacted_thinking blocks become parts, byte for byte, with their positions") {
    const std::string t1 = R"({"type": "thinking", "thinking": "The user wants the GCD.\nUse Euclid.", "signature": "EqQBCgIYAhIM1gbcDa9G"})";
    const std::string r1 = R"({"type":"redacted_thinking","data":"EmwKAhgBEgy3va3pzix/LafPsn4a"})";
    const std::string t2 = R"({"type":"thinking","thinking":"Now Rome \u00e9.","signature":"c2ln"})";
    const std::string t3 = R"({"type":"thinking","thinking":"Done.","signature":"c2lnMw=="})";
    const auto r = claude.parse(response(200, R"({"id":"msg_1","type":"message","role":"assistant","content":[)" + t1 + "," + r1 +
                                                  R"(,{"type":"text","text":"Checking."},{"type":"tool_use","id":"toolu_1","name":"w","input":{"c":"Paris"}},)" +
                                                  t2 + R"(,{"type":"tool_use","id":"toolu_2","name":"w","input":{"c":"Rome"}},)" + t3 +
                                                  R"(],"stop_reason":"tool_use","usage":{"input_tokens":50,"cache_creation_input_tokens":1000,)"
                                                  R"("cache_read_input_tokens":2000,"output_tokens":300,"output_tokens_details":{"thinking_tokens":250}}})"));
    REQUIRE(r.ok());
    CHECK(r.value->reply.text == "Checking.");
    REQUIRE(r.value->reply.tool_calls.size() == 2);
    REQUIRE(r.value->reply.parts);
    CHECK(*r.value->reply.parts == std::vector<agentry::provider_part>{{"anthropic", "thinking", t1, 0},
                                                                       {"anthropic", "redacted_thinking", r1, 0},
                                                                       {"anthropic", "thinking", t2, 2},
                                                                       {"anthropic", "thinking", t3, 3}});
    CHECK(r.value->usage == agentry::token_usage{3050, 300, 2000, 1000, 250});
    // Sent back, the reply's content is what was received, in its order.
    const std::vector<message> history{message::user("GCD?"), r.value->reply};
    const std::string body = claude.request({.messages = history}).body;
    CHECK(body.find(R"("content":[)" + t1 + "," + r1 + R"(,{"type":"text","text":"Checking."},{"type":"tool_use","id":"toolu_1","name":"w","input":{"c":"Paris"}},)" +
                    t2 + R"(,{"type":"tool_use","id":"toolu_2","name":"w","input":{"c":"Rome"}},)" + t3 + "]") != std::string::npos);
    // A thinking block after the text and before the first call; none at all: parts absent.
    const auto after_text = claude.parse(response(200, R"({"content":[{"type":"text","text":"A"},)" + t2 + R"(],"stop_reason":"end_turn"})"));
    REQUIRE(after_text.ok());
    REQUIRE(after_text.value->reply.parts);
    CHECK(after_text.value->reply.parts->at(0).position == 1);
    const auto none = claude.parse(response(200, R"({"content":[{"type":"text","text":"A"}],"stop_reason":"end_turn"})"));
    REQUIRE(none.ok());
    CHECK_FALSE(none.value->reply.parts);
    const auto bad = claude.parse(response(200, R"({"content":[{"type":"text","text":"A"},{"text":"B"}]})"));
    CHECK(bad.error.message == "anthropic: unreadable response: /content/1/type: missing required property");
}

TEST_CASE("stream: thinking assembled from thinking_delta and signature_delta, redacted_thinking whole, usage with cache counts") {
    const std::string redacted = R"({"type": "redacted_thinking", "data": "EmwKAhgBEgy3va3pzix/LafPsn4a"})";
    const std::string body =
        sse("message_start", R"({"type":"message_start","message":{"id":"msg_1","type":"message","role":"assistant","content":[],"model":"m",)"
                             R"("usage":{"input_tokens":10,"cache_creation_input_tokens":100,"cache_read_input_tokens":2000,"output_tokens":1}}})") +
        sse("content_block_start", R"({"type":"content_block_start","index":0,"content_block":{"type":"thinking","thinking":"","signature":""}})") +
        sse("content_block_delta", R"({"type":"content_block_delta","index":0,"delta":{"type":"thinking_delta","thinking":"1071 = 2 \u00d7 462 + 147;"}})") +
        sse("content_block_delta", R"({"type":"content_block_delta","index":0,"delta":{"type":"thinking_delta","thinking":" then \"462\"\n= 3 \u00d7 147 + 21."}})") +
        sse("content_block_delta", R"({"type":"content_block_delta","index":0,"delta":{"type":"signature_delta","signature":"EqQBCgIYAhIM1gbc"}})") +
        sse("content_block_stop", R"({"type":"content_block_stop","index":0})") +
        sse("content_block_start", R"({"type":"content_block_start","index":1,"content_block":)" + redacted + "}") +
        sse("content_block_stop", R"({"type":"content_block_stop","index":1})") +
        sse("content_block_start", R"({"type":"content_block_start","index":2,"content_block":{"type":"text","text":""}})") +
        sse("content_block_delta", R"({"type":"content_block_delta","index":2,"delta":{"type":"text_delta","text":"It is 21."}})") +
        sse("content_block_stop", R"({"type":"content_block_stop","index":2})") +
        sse("content_block_start", R"({"type":"content_block_start","index":3,"content_block":{"type":"tool_use","id":"toolu_1","name":"check","input":{}}})") +
        sse("content_block_delta", R"({"type":"content_block_delta","index":3,"delta":{"type":"input_json_delta","partial_json":"{\"n\": 2"}})") +
        sse("content_block_delta", R"({"type":"content_block_delta","index":3,"delta":{"type":"input_json_delta","partial_json":"1}"}})") +
        sse("content_block_stop", R"({"type":"content_block_stop","index":3})") +
        sse("content_block_start", R"({"type":"content_block_start","index":4,"content_block":{"type":"thinking","thinking":"","signature":""}})") +
        sse("content_block_delta", R"({"type":"content_block_delta","index":4,"delta":{"type":"signature_delta","signature":"c2lnMg=="}})") +
        sse("content_block_stop", R"({"type":"content_block_stop","index":4})") +
        sse("message_delta", R"({"type":"message_delta","delta":{"stop_reason":"tool_use"},"usage":{"output_tokens":90,"output_tokens_details":{"thinking_tokens":70}}})") +
        sse("message_stop", R"({"type":"message_stop"})");
    const full_stream s = feed_every_split(claude, body);
    CHECK(s.described == "text=It is 21. calls=[toolu_1|check|{\"n\": 21}|;] finish=tool_calls provider=tool_use usage=2110/90 "
                         "incomplete=0 refusal=");
    REQUIRE(s.parts);
    CHECK(*s.parts ==
          std::vector<agentry::provider_part>{
              {"anthropic", "thinking",
               "{\"type\":\"thinking\",\"thinking\":\"1071 = 2 \xC3\x97 462 + 147; then \\\"462\\\"\\n= 3 \xC3\x97 147 + 21.\","
               "\"signature\":\"EqQBCgIYAhIM1gbc\"}",
               0},
              {"anthropic", "redacted_thinking", redacted, 0},
              {"anthropic", "thinking", R"({"type":"thinking","thinking":"","signature":"c2lnMg=="})", 2}});
    CHECK(s.usage == agentry::token_usage{2110, 90, 2000, 100, 70});
    CHECK(s.arguments == std::vector<std::pair<std::string, std::string>>{{"toolu_1", "{\"n\": 21}"}});
    CHECK(s.pieces == 2);
    // The assembled thinking block is, as a value, the one the whole response would hold.
    auto read = agentry::json::read<agentry::detail::anthropic_wire::block_in>(s.parts->at(0).raw, agentry::detail::wire_read_options);
    REQUIRE(read.ok());
    CHECK(read.value.thinking == "1071 = 2 \xC3\x97 462 + 147; then \"462\"\n= 3 \xC3\x97 147 + 21.");
    CHECK(read.value.signature == "EqQBCgIYAhIM1gbc");
}

TEST_CASE("stream: argument pieces join to each call's arguments, blank input as {}") {
    const std::string body =
        sse("message_start", R"({"type":"message_start","message":{"usage":{"input_tokens":5,"output_tokens":1}}})") +
        sse("content_block_start", R"({"type":"content_block_start","index":0,"content_block":{"type":"tool_use","id":"toolu_a","name":"now","input":{}}})") +
        sse("content_block_delta", R"({"type":"content_block_delta","index":0,"delta":{"type":"input_json_delta","partial_json":""}})") +
        sse("content_block_stop", R"({"type":"content_block_stop","index":0})") +
        sse("content_block_start", R"({"type":"content_block_start","index":1,"content_block":{"type":"tool_use","id":"toolu_b","name":"now","input":{}}})") +
        sse("content_block_delta", R"({"type":"content_block_delta","index":1,"delta":{"type":"input_json_delta","partial_json":"  "}})") +
        sse("content_block_stop", R"({"type":"content_block_stop","index":1})") +
        sse("content_block_start", R"({"type":"content_block_start","index":2,"content_block":{"type":"tool_use","id":"toolu_c","name":"write","input":{}}})") +
        sse("content_block_delta", R"({"type":"content_block_delta","index":2,"delta":{"type":"input_json_delta","partial_json":" "}})") +
        sse("content_block_delta", R"({"type":"content_block_delta","index":2,"delta":{"type":"input_json_delta","partial_json":"{\"lines\": [\"a"}})") +
        sse("content_block_delta", R"({"type":"content_block_delta","index":2,"delta":{"type":"input_json_delta","partial_json":"b\", \"c\"]}"}})") +
        sse("content_block_stop", R"({"type":"content_block_stop","index":2})") +
        sse("message_delta", R"({"type":"message_delta","delta":{"stop_reason":"tool_use"},"usage":{"output_tokens":9}})") +
        sse("message_stop", R"({"type":"message_stop"})");
    agentry::anthropic eager = claude;
    eager.eager_tool_input = true;  // fine-grained pieces (here cut mid-string) assemble the same way
    const full_stream s = feed_every_split(eager, body);
    REQUIRE(s.calls.size() == 3);
    REQUIRE(s.arguments.size() == 3);
    for (std::size_t i = 0; i != 3; ++i) {
        CHECK(s.arguments[i] == s.calls[i]);
    }
    CHECK(s.calls[0].second == "{}");
    CHECK(s.calls[1].second == "{}");
    CHECK(s.calls[2].second == R"( {"lines": ["ab", "c"]})");
    CHECK(s.pieces == 4);
}
