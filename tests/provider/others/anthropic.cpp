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
    p.cache = agentry::cache_ttl::off;
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

TEST_CASE("response: text and tool_use blocks, thinking skipped, usage with cache tokens") {
    const auto r = claude.parse(response(200, R"({"id":"msg_1","type":"message","role":"assistant","model":"claude-sonnet-4-5",
        "content":[{"type":"thinking","thinking":"hmm","signature":"sig"},{"type":"text","text":"Let me check."},
                   {"type":"tool_use","id":"toolu_1","name":"get_weather","input":{"city": "Paris"}},
                   {"type":"tool_use","id":"toolu_2","name":"now","input":{}}],
        "stop_reason":"tool_use","stop_sequence":null,
        "usage":{"input_tokens":10,"cache_creation_input_tokens":5,"cache_read_input_tokens":100,"output_tokens":20,"service_tier":"standard"}})"));
    CHECK(test::describe(r) ==
          R"(text=Let me check. calls=[toolu_1|get_weather|{"city": "Paris"}|;toolu_2|now|{}|;] finish=tool_calls provider=tool_use usage=115/20 incomplete=0 refusal=)");
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

TEST_CASE("stream: text, two tool calls (one with no input), thinking and unknown events skipped, usage updated") {
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
