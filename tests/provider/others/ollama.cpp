// SPDX-License-Identifier: BSL-1.0
#include "pieces_check.hpp"
#include "stream_check.hpp"

#include <agentry/provider/ollama.hpp>
#include <agentry/provider/detail/wire_common.hpp>
#include <agentry/registry.hpp>
#include <agentry/tool.hpp>

#include <doctest/doctest.h>

#include <atomic>
#include <string>
#include <type_traits>
#include <vector>

static_assert(agentry::provider<agentry::ollama>);
static_assert(std::is_same_v<agentry::ollama::dialect, agentry::dialect::openai>);

using agentry::chat_request;
using agentry::message;
using agentry::tool_call;
using agentry::tool_choice;

namespace {

const agentry::ollama qwen{.model = "qwen3"};

constexpr std::string_view weather_tool =
    R"({"type":"function","function":{"name":"get_weather","description":"Weather","parameters":{"type":"object","properties":{"city":{"type":"string"}},"required":["city"]}}})";
constexpr std::string_view time_tool =
    R"({"type":"function","function":{"name":"get_time","description":"Time","parameters":{"type":"object","properties":{}}}})";
const std::string tools = "[" + std::string(weather_tool) + "," + std::string(time_tool) + "]";

agentry::http_response response(int status, std::string body, std::vector<agentry::http_header> headers = {}) {
    return {status, std::move(headers), std::move(body)};
}

const std::vector<message> hello{message::user("Hi")};

} // namespace

TEST_CASE("request: URL, headers, stream always written, system messages in place") {
    const std::vector<message> history{message::system("Be brief."), message::user("Hi")};
    agentry::http_request http = qwen.request({.messages = history});
    CHECK(http.method == "POST");
    CHECK(http.url == "http://127.0.0.1:11434/api/chat");
    CHECK(http.body ==
          R"({"model":"qwen3","messages":[{"role":"system","content":"Be brief."},{"role":"user","content":"Hi"}],"stream":false})");
    REQUIRE(http.headers.size() == 1);
    CHECK(http.headers[0].name == "content-type");
    CHECK(http.headers[0].value == "application/json");
    agentry::ollama remote = qwen;
    remote.http.base_url = "https://ollama.example/";
    remote.http.headers = {{"Authorization", "Bearer t"}};
    http = remote.request({.messages = hello, .stream = true});
    CHECK(http.url == "https://ollama.example/api/chat");
    CHECK(http.body == R"({"model":"qwen3","messages":[{"role":"user","content":"Hi"}],"stream":true})");
    REQUIRE(http.headers.size() == 2);
    CHECK(http.headers[1].value == "Bearer t");
}

TEST_CASE("request: calls with object arguments, tool results with tool_name in call order") {
    const std::vector<message> history{
        message::system("S"),
        message::user("Weather in Paris and Rome?"),
        message::assistant("", {{"call_a", "get_weather", R"({"city":"Paris"})", {}},
                                {"call_b", "get_weather", R"({"city": "Rome"})", {}}}),
        message::tool_result({"call_b", "get_weather", {}, {}}, "18C"),
        message::tool_result({"call_a", "get_weather", {}, {}}, "no data", true),
        message::user("Thanks"),
        message::assistant("Sure.", {{"", "get_time", "", {}}}),
        message::tool_result({"", "get_time", {}, {}}, "12:00"),
    };
    const std::string expected =
        R"({"model":"qwen3","messages":[{"role":"system","content":"S"},{"role":"user","content":"Weather in Paris and Rome?"},)"
        R"({"role":"assistant","content":"","tool_calls":[{"id":"call_a","function":{"index":0,"name":"get_weather","arguments":{"city":"Paris"}}},)"
        R"({"id":"call_b","function":{"index":1,"name":"get_weather","arguments":{"city": "Rome"}}}]},)"
        R"({"role":"tool","content":"no data","tool_name":"get_weather","tool_call_id":"call_a"},)"
        R"({"role":"tool","content":"18C","tool_name":"get_weather","tool_call_id":"call_b"},)"
        R"({"role":"user","content":"Thanks"},)"
        R"({"role":"assistant","content":"Sure.","tool_calls":[{"function":{"index":0,"name":"get_time","arguments":{}}}]},)"
        R"({"role":"tool","content":"12:00","tool_name":"get_time"}],)"
        R"("tools":)" + tools + R"(,"stream":false})";
    CHECK(qwen.request({.messages = history, .tools = tools}).body == expected);
}

TEST_CASE("request: tool_choice without a native switch: none, one, required") {
    const auto body = [](tool_choice choice) { return qwen.request({.messages = hello, .tools = tools, .tool_choice = choice}).body; };
    const std::string head = R"({"model":"qwen3","messages":[{"role":"user","content":"Hi"}],)";
    CHECK(body(tool_choice::automatic()) == head + R"("tools":)" + tools + R"(,"stream":false})");
    CHECK(body(tool_choice::required()) == head + R"("tools":)" + tools + R"(,"stream":false})");
    CHECK(body(tool_choice::none()) == head + R"("stream":false})");
    CHECK(body(tool_choice::one("get_time")) == head + R"("tools":[)" + std::string(time_tool) + R"(],"stream":false})");
    CHECK(body(tool_choice::one("unknown")) == head + R"("tools":)" + tools + R"(,"stream":false})");
}

TEST_CASE("request: options from max_tokens, temperature and extra_options, extra body members") {
    agentry::ollama p = qwen;
    p.extra_options = R"({"num_ctx":32768})";
    p.extra_body = R"({"keep_alive":"10m","think":false})";
    p.http.connect_timeout = std::chrono::milliseconds(250);
    agentry::http_request http = p.request({.messages = hello, .max_tokens = 100, .temperature = 0.2});
    CHECK(http.body ==
          R"({"model":"qwen3","messages":[{"role":"user","content":"Hi"}],"stream":false,"options":{"num_predict":100,"temperature":0.2,"num_ctx":32768},"keep_alive":"10m","think":false})");
    CHECK(http.connect_timeout.count() == 250);
    const std::atomic<bool> stop{false};
    p.http.cancel = &stop;
    CHECK(p.request({.messages = hello}).cancel == &stop);
    http = p.request({.messages = hello});
    CHECK(http.body ==
          R"({"model":"qwen3","messages":[{"role":"user","content":"Hi"}],"stream":false,"options":{"num_ctx":32768},"keep_alive":"10m","think":false})");
    CHECK(qwen.request({.messages = hello, .max_tokens = 5}).body ==
          R"({"model":"qwen3","messages":[{"role":"user","content":"Hi"}],"stream":false,"options":{"num_predict":5}})");
}

TEST_CASE("response: calls with and without ids, arguments as an object or a string, usage") {
    const auto r = qwen.parse(response(200, R"({"model":"qwen3","created_at":"2025-10-26T17:15:24.097767Z",
        "message":{"role":"assistant","content":"","thinking":"The user wants...","tool_calls":[
            {"id":"call_x1","function":{"index":0,"name":"get_weather","arguments":{"city":"Paris"}}},
            {"function":{"index":1,"name":"get_time","arguments":{}}},
            {"function":{"index":2,"name":"f","arguments":"{\"a\":1}"}}]},
        "done_reason":"stop","done":true,"total_duration":2347998750,"load_duration":19605625,
        "prompt_eval_count":155,"prompt_eval_duration":321024542,"eval_count":81,"eval_duration":2005950875})"));
    CHECK(test::describe(r) ==
          R"(text= calls=[call_x1|get_weather|{"city":"Paris"}|;call_1|get_time|{}|;call_2|f|{"a":1}|;] finish=tool_calls provider=stop usage=155/81 incomplete=0 refusal=)");
}

TEST_CASE("response: done reasons") {
    const auto finish = [](std::string_view tail) {
        const auto r = qwen.parse(response(200, R"({"message":{"role":"assistant","content":"x"},"done":true)" + std::string(tail) + "}"));
        REQUIRE(r.ok());
        return r.value->finish;
    };
    CHECK(finish(R"(,"done_reason":"stop")") == agentry::finish_reason::stop);
    CHECK(finish(R"(,"done_reason":"length")") == agentry::finish_reason::max_tokens);
    CHECK(finish(R"(,"done_reason":"load")") == agentry::finish_reason::other);
    CHECK(finish("") == agentry::finish_reason::stop);
}

TEST_CASE("response: malformed 2xx bodies") {
    auto r = qwen.parse(response(200, R"({"done":true})"));
    CHECK(r.error.message == "ollama: unreadable response: /message: missing required property");
    CHECK(r.error.kind == agentry::provider_error_kind::malformed);
    r = qwen.parse(response(200, R"({"message":{"content":1}})"));
    CHECK(r.error.message == "ollama: unreadable response: /message/content: expected a string, got a number 1");
    // A nameless call, as OpenAI's parser rejects the same shape.
    r = qwen.parse(response(200, R"({"message":{"role":"assistant","content":"","tool_calls":[{}]},"done":true})"));
    CHECK(r.error.kind == agentry::provider_error_kind::malformed);
    CHECK(r.error.message == "agentry: ollama response: tool call 0 (id call_0) has no function name; a call must name its tool");
    r = qwen.parse(response(200, R"({"message":{"tool_calls":[{"function":{"name":"","arguments":{}}}]},"done":true})"));
    CHECK(r.error.kind == agentry::provider_error_kind::malformed);
}

TEST_CASE("errors: {\"error\": message} with each status") {
    const auto error = [](int status, std::vector<agentry::http_header> headers = {}) {
        const auto r = qwen.parse(response(status, R"({"error":"what happened"})", std::move(headers)));
        REQUIRE_FALSE(r.ok());
        CHECK(r.error.status == status);
        CHECK(r.error.message == "what happened");
        CHECK(r.error.type.empty());
        return r.error;
    };
    CHECK(error(400).kind == agentry::provider_error_kind::bad_request);
    CHECK(error(401).kind == agentry::provider_error_kind::authentication);
    CHECK(error(403).kind == agentry::provider_error_kind::permission);
    const auto missing = error(404);
    CHECK(missing.kind == agentry::provider_error_kind::bad_request);
    CHECK_FALSE(missing.retryable);
    auto e = error(429, {{"Retry-After", "2"}});
    CHECK(e.kind == agentry::provider_error_kind::rate_limited);
    REQUIRE(e.retry_after);
    CHECK(e.retry_after->count() == 2000);
    e = error(500);
    CHECK(e.kind == agentry::provider_error_kind::server);
    CHECK(e.retryable);
    CHECK(error(502).kind == agentry::provider_error_kind::server);
    CHECK(error(503).retryable);
    const auto plain = qwen.parse(response(404, "404 page not found"));
    CHECK(test::describe(plain) == "error bad_request status=404 type= retryable=0 retry_after=- message=404 page not found");
}

TEST_CASE("stream: text lines, the final line with the counts") {
    const std::string body =
        R"({"model":"qwen3","created_at":"2025-10-26T17:15:24.097767Z","message":{"role":"assistant","content":"The"},"done":false})"
        "\n"
        R"({"model":"qwen3","created_at":"2025-10-26T17:15:24.109172Z","message":{"role":"assistant","content":" sky \u00e9"},"done":false})"
        "\n"
        R"({"model":"qwen3","created_at":"2025-10-26T17:15:24.166576Z","message":{"role":"assistant","content":""},"done":true,"done_reason":"stop","total_duration":10706818083,"prompt_eval_count":26,"eval_count":3,"eval_duration":4232710000})"
        "\n";
    const test::streamed s = test::check_every_split(qwen, body);
    CHECK(test::describe(s.result) == "text=The sky \xC3\xA9 calls=[] finish=stop provider=stop usage=26/3 incomplete=0 refusal=");
    CHECK(s.text == "The sky \xC3\xA9");
    // The last line without its newline is read too.
    CHECK(test::describe(test::check_every_split(qwen, std::string_view(body).substr(0, body.size() - 1)).result) ==
          test::describe(s.result));
}

TEST_CASE("stream: calls arrive whole, in their own lines") {
    const std::string body =
        R"({"model":"qwen3","message":{"role":"assistant","content":"","thinking":"Both cities."},"done":false})"
        "\r\n"
        R"({"model":"qwen3","message":{"role":"assistant","content":"","tool_calls":[{"id":"call_k2","function":{"index":0,"name":"get_weather","arguments":{"city":"Paris"}}}]},"done":false})"
        "\r\n"
        R"({"model":"qwen3","message":{"role":"assistant","content":"","tool_calls":[{"function":{"index":1,"name":"get_weather","arguments":{"city":"Rome"}}}]},"done":false})"
        "\r\n"
        R"({"model":"qwen3","message":{"role":"assistant","content":""},"done":true,"done_reason":"stop","prompt_eval_count":155,"eval_count":81})"
        "\r\n";
    const test::streamed s = test::check_every_split(qwen, body);
    CHECK(test::describe(s.result) ==
          R"(text= calls=[call_k2|get_weather|{"city":"Paris"}|;call_1|get_weather|{"city":"Rome"}|;] finish=tool_calls provider=stop usage=155/81 incomplete=0 refusal=)");
    CHECK(s.calls == std::vector<std::string>{"call_k2 get_weather", "call_1 get_weather"});
}

TEST_CASE("stream: an error line, a cut stream, an error status") {
    const std::string first = R"({"model":"qwen3","message":{"role":"assistant","content":"Yes"},"done":false})"
                              "\n";
    const std::string failed = first + R"({"error":"an error was encountered while running the model"})" + "\n";
    const test::streamed s = test::check_every_split(qwen, failed);
    CHECK(test::describe(s.result) ==
          "error server status=200 type= retryable=1 retry_after=- message=an error was encountered while running the model");
    CHECK(s.text == "Yes");
    const std::string whole = first + R"({"model":"qwen3","message":{"role":"assistant","content":""},"done":true,"done_reason":"stop"})";
    for (std::size_t end = 0; end < whole.size(); ++end) {
        const auto r = test::run_whole(qwen, std::string_view(whole).substr(0, end)).result;
        REQUIRE_FALSE(r.ok());
        CHECK(r.error.kind == agentry::provider_error_kind::malformed);
        CHECK(r.error.message.rfind("ollama: the stream ended before its last line (\"done\": true)", 0) == 0);
    }
    CHECK(test::run_whole(qwen, first + "{\"mod").result.error.message ==
          "ollama: the stream ended before its last line (\"done\": true), inside a line");
    CHECK(test::run_whole(qwen, "[1]\n").result.error.message.rfind("ollama: unreadable stream line: ", 0) == 0);
    const auto status = test::run_whole(qwen, "", response(404, R"({"error":"model \"nope\" not found, try pulling it first"})"));
    CHECK(test::describe(status.result) ==
          "error bad_request status=404 type= retryable=0 retry_after=- message=model \"nope\" not found, try pulling it first");
}

TEST_CASE("request: a registry's tools payload goes in as it is, and the body is JSON") {
    static constexpr agentry::registry registry{
        agentry::tool<"add", "Add two integers", "a", "b">(+[](int a, int b) { return a + b; })};
    constexpr std::string_view payload = registry.definitions<agentry::ollama::dialect>();
    const std::vector<message> history{message::user("1+2?"), message::assistant("", {{"call_9", "add", R"({"a":1,"b":2})", {}}}),
                                       message::tool_result({"call_9", "add", {}, {}}, "3")};
    const std::string body = qwen.request({.messages = history, .tools = payload}).body;
    CHECK(body.find(R"("tools":)" + std::string(payload)) != std::string::npos);
    CHECK(agentry::detail::is_json_object(body));
}

TEST_CASE("request: a structured output is format, a JSON Schema, with the tools") {
    constexpr std::string_view schema = R"({"type":"object","properties":{"city":{"type":"string"}},"required":["city"]})";
    const agentry::output_format format{"final_answer", schema, false};
    CHECK(qwen.request({.messages = hello, .tools = tools, .output = format}).body ==
          R"({"model":"qwen3","messages":[{"role":"user","content":"Hi"}],"tools":)" + tools + R"(,"format":)" +
              std::string(schema) + R"(,"stream":false})");
    // tool_choice none leaves the tools out, not the format.
    CHECK(qwen.request({.messages = hello, .tools = tools, .tool_choice = tool_choice::none(), .output = format}).body ==
          R"({"model":"qwen3","messages":[{"role":"user","content":"Hi"}],"format":)" + std::string(schema) +
              R"(,"stream":false})");
}

TEST_CASE("stream: each call's arguments are one piece, after its on_tool_call, and absent arguments are {}") {
    const std::string body =
        R"({"model":"qwen3","message":{"role":"assistant","content":"","tool_calls":[{"id":"call_k2","function":{"index":0,"name":"get_weather","arguments":{"city":"Paris"}}}]},"done":false})"
        "\n"
        R"({"model":"qwen3","message":{"role":"assistant","content":"","tool_calls":[{"function":{"index":1,"name":"get_time"}},{"function":{"index":2,"name":"f","arguments":"{\"a\":1}"}}]},"done":false})"
        "\n"
        R"({"model":"qwen3","message":{"role":"assistant","content":""},"done":true,"done_reason":"stop","prompt_eval_count":155,"eval_count":81})"
        "\n";
    CHECK(test::pieces_at_every_split(qwen, body) ==
          std::vector<std::string>{R"(call_k2 {"city":"Paris"})", "call_1 {}", R"(call_2 {"a":1})"});
}

namespace {

message blocks_result(const tool_call& call, std::string blocks) {
    message m = message::tool_result(call, std::move(blocks));
    m.content_blocks = true;
    return m;
}

} // namespace

TEST_CASE("request: a tool result of content blocks: texts as its content, images in its images") {
    const tool_call call{"call_a", "screenshot", "{}", {}};
    const std::vector<message> history{
        message::user("Look."), message::assistant("", {call}),
        blocks_result(call, R"([{"type":"text","text":"The page:"},{"type":"image","data":"iVBORw0KGgo=","mimeType":"image/png"},)"
                            R"({"type":"resource","resource":{"uri":"notes://a","text":"2 tabs"}},)"
                            R"({"type":"image","data":"/9j/4AAQ","mimeType":"image/jpeg"}])")};
    CHECK_FALSE(qwen.refuse({.messages = history}));
    CHECK(qwen.request({.messages = history}).body ==
          R"({"model":"qwen3","messages":[{"role":"user","content":"Look."},)"
          R"({"role":"assistant","content":"","tool_calls":[{"id":"call_a","function":{"index":0,"name":"screenshot","arguments":{}}}]},)"
          R"({"role":"tool","content":"The page:\n2 tabs","images":["iVBORw0KGgo=","/9j/4AAQ"],"tool_name":"screenshot","tool_call_id":"call_a"}],)"
          R"("stream":false})");
}

TEST_CASE("refuse: a tool result holding audio or a binary resource, not one holding a resource link") {
    const tool_call call{"call_a", "record", "{}", {}};
    std::vector<message> history{message::user("x"), message::assistant("", {call}),
                                 blocks_result(call, R"([{"type":"audio","data":"UklGRg==","mimeType":"audio/wav"}])")};
    auto refused = qwen.refuse({.messages = history});
    REQUIRE(refused);
    CHECK(test::describe({std::nullopt, *refused}) ==
          "error bad_request status=0 type=unsupported_content retryable=0 retry_after=- message=agentry: ollama: a tool "
          "message carries text and images only, and the result of tool 'record' (call 'call_a') holds audio; return text or images");
    history.back() = blocks_result(call, R"([{"type":"resource","resource":{"uri":"file:///a.bin","blob":"AAE="}}])");
    REQUIRE(qwen.refuse({.messages = history}));
    CHECK(qwen.refuse({.messages = history})->message.find("holds a binary resource;") != std::string::npos);
    history.back() = blocks_result(call, R"([{"type":"text","text":"ok"}])");
    CHECK_FALSE(qwen.refuse({.messages = history}));
    history.back() = blocks_result(call, R"([{"type":"resource_link","uri":"file:///a.png","name":"a.png"}])");
    CHECK_FALSE(qwen.refuse({.messages = history}));
}
