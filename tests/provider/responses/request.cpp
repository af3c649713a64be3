// SPDX-License-Identifier: BSL-1.0
// agentry::openai_responses::request and refuse: exact bodies, URL, headers, refusals.

#include "samples.hpp"

#include <agentry/provider/openai_responses.hpp>
#include <agentry/transport/replay.hpp>

#include <doctest/doctest.h>

#include <cstdlib>
#include <optional>
#include <string>
#include <vector>

static_assert(agentry::provider<agentry::openai_responses>);

namespace {

using responses_samples::provider;
using responses_samples::state;

std::string header(const agentry::http_request& r, std::string_view name) {
    return std::string(agentry::find_header(r.headers, name));
}

// Sets OPENAI_API_KEY for one scope.
struct scoped_key {
    explicit scoped_key(const char* value) {
        if (const char* old = std::getenv("OPENAI_API_KEY")) saved = old;
        setenv("OPENAI_API_KEY", value, 1);
    }
    ~scoped_key() {
        if (saved) setenv("OPENAI_API_KEY", saved->c_str(), 1);
        else unsetenv("OPENAI_API_KEY");
    }
    std::optional<std::string> saved;
};

std::optional<agentry::provider_error> refusal(const std::vector<agentry::message>& messages) {
    return provider().refuse(responses_samples::make_request(messages));
}

} // namespace

TEST_CASE("request bodies: exact JSON for each representative request") {
    for (const responses_samples::sample& s : responses_samples::samples()) {
        INFO(s.name);
        const agentry::http_request r = s.provider.request(s.request());
        CHECK(r.body == s.expected);
        CHECK(r.method == "POST");
        CHECK_FALSE(s.provider.refuse(s.request()).has_value());
    }
}

TEST_CASE("request: URL, headers and the key") {
    const std::vector<agentry::message> messages{agentry::message::user("Hi")};
    const agentry::chat_request plain = responses_samples::make_request(messages);
    const agentry::chat_request streamed = responses_samples::make_request(messages, {.stream = true});
    agentry::openai_responses p = provider();
    p.api_key = "sk-test";
    const agentry::http_request r = p.request(plain);
    CHECK(r.url == "https://api.openai.com/v1/responses");
    CHECK(header(r, "Authorization") == "Bearer sk-test");
    CHECK(header(r, "Content-Type") == "application/json");
    CHECK(header(r, "Accept") == "application/json");
    CHECK(header(p.request(streamed), "Accept") == "text/event-stream");
    p.http.base_url = "http://127.0.0.1:8080/v1/";
    CHECK(p.request(plain).url == "http://127.0.0.1:8080/v1/responses");
    const scoped_key key("sk-env");
    CHECK(header(provider().request(plain), "Authorization") == "Bearer sk-env");
}

TEST_CASE("request: a reply read back is sent back item for item, in the order received") {
    // The output of reasoning_turn() as OpenAI returns it, read by parse(), then sent again.
    const std::string body =
        R"({"id":"resp_1","object":"response","status":"completed","output":[)" + responses_samples::reasoning_1 +
        R"(,{"id":"msg_1","type":"message","status":"completed","role":"assistant","content":[{"type":"output_text","text":"Checking both.","annotations":[]}]},)"
        R"({"id":"fc_1","type":"function_call","status":"completed","arguments":"{\"city\":\"Paris\",\"units\":null}","call_id":"call_1","name":"get_weather"},)" +
        responses_samples::reasoning_2 +
        R"(,{"id":"fc_2","type":"function_call","status":"completed","arguments":"{\"a\":2,\"b\":3}","call_id":"call_2","name":"add"}],)"
        R"("usage":{"input_tokens":10,"output_tokens":5}})";
    const agentry::turn_result turn = provider().parse({200, {}, body});
    REQUIRE(turn.ok());
    CHECK(turn.value->reply.parts == responses_samples::reasoning_turn().parts);
    CHECK(turn.value->reply.text == "Checking both.");
    const std::vector<agentry::message> sent{agentry::message::user("Hi"), turn.value->reply};
    const std::vector<agentry::message> written{agentry::message::user("Hi"), responses_samples::reasoning_turn()};
    CHECK(provider().request(responses_samples::make_request(sent)).body ==
          provider().request(responses_samples::make_request(written)).body);
}

TEST_CASE("request: a reasoning item after the last call goes after it") {
    agentry::message m = agentry::message::assistant({}, {responses_samples::add_call()});
    m.parts = std::vector<agentry::provider_part>{responses_samples::part("reasoning", R"({"id":"rs_9","type":"reasoning","summary":[]})", 2)};
    const std::vector<agentry::message> messages{m};
    CHECK(provider().request(responses_samples::make_request(messages)).body ==
          R"({"model":"gpt-5-mini","input":[{"type":"function_call","call_id":"call_2","name":"add","arguments":"{\"a\":2,\"b\":3}"},)"
          R"({"id":"rs_9","type":"reasoning","summary":[]}],"include":["reasoning.encrypted_content"],"store":false})");
}

TEST_CASE("request: a function_call item's id longer than a small string is sent whole") {
    // As long as the API's ids (about 50 characters), so that it lives on the heap.
    const std::string id = "fc_68e4dccf78efc9cc4415a277e95e8e89852d368e8c91906b";
    agentry::message m = agentry::message::assistant({}, {responses_samples::add_call()});
    m.parts = std::vector<agentry::provider_part>{responses_samples::part("function_call_id", "\"" + id + "\"", 1)};
    const std::vector<agentry::message> messages{m};
    CHECK(provider().request(responses_samples::make_request(messages)).body ==
          R"({"model":"gpt-5-mini","input":[{"type":"function_call","id":")" + id +
              R"(","call_id":"call_2","name":"add","arguments":"{\"a\":2,\"b\":3}"}],)"
              R"("include":["reasoning.encrypted_content"],"store":false})");
}

TEST_CASE("request: parts of other providers are not sent") {
    agentry::message m = agentry::message::assistant("Hi.");
    m.parts = std::vector<agentry::provider_part>{{"anthropic", "thinking", R"({"type":"thinking"})", 0},
                                                  {"openai_responses", "response_id", R"("resp_9")", 0}};
    const std::vector<agentry::message> messages{m};
    CHECK(provider().request(responses_samples::make_request(messages)).body ==
          R"({"model":"gpt-5-mini","input":[{"role":"assistant","content":"Hi."}],)"
          R"("include":["reasoning.encrypted_content"],"store":false})");
}

TEST_CASE("refuse: content a function_call_output cannot carry") {
    agentry::message audio = agentry::message::tool_result(
        responses_samples::weather_call(), R"([{"type":"audio","data":"UklGRg==","mimeType":"audio/wav"}])");
    audio.content_blocks = true;
    const auto e = refusal({agentry::message::assistant({}, {responses_samples::weather_call()}), audio});
    REQUIRE(e.has_value());
    CHECK(e->kind == agentry::provider_error_kind::bad_request);
    CHECK(e->type == "refused");
    CHECK(e->message ==
          "agentry: openai_responses: the result of tool 'get_weather' (call call_1) has a content block of type "
          "'audio', which a Responses function_call_output cannot carry (it takes text, images and files); return it "
          "as text or as an embedded resource blob instead");

    agentry::message not_blocks = agentry::message::tool_result(responses_samples::weather_call(), "sunny");
    not_blocks.content_blocks = true;
    const auto e2 = refusal({not_blocks});
    REQUIRE(e2.has_value());
    CHECK(e2->message == "agentry: openai_responses: the result of tool 'get_weather' (call call_1) is marked as MCP "
                         "content blocks but is not a JSON array of them; send it as text (content_blocks unset)");

    agentry::message broken = agentry::message::assistant("Hi.");
    broken.parts = std::vector<agentry::provider_part>{responses_samples::part("reasoning", "{\"id\":", 0)};
    const auto e3 = refusal({broken});
    REQUIRE(e3.has_value());
    CHECK(e3->message == "agentry: openai_responses: a reasoning part of an assistant message is not a JSON object; "
                         "restore the conversation as it was saved, or remove the part");

    agentry::message fine = agentry::message::tool_result(responses_samples::weather_call(), "sunny");
    CHECK_FALSE(refusal({fine}).has_value());
}

TEST_CASE("complete: a refused request is not sent") {
    agentry::message audio = agentry::message::tool_result(
        responses_samples::weather_call(), R"([{"type":"audio","data":"UklGRg==","mimeType":"audio/wav"}])");
    audio.content_blocks = true;
    const std::vector<agentry::message> messages{audio};
    agentry::replay_transport http{{agentry::replay_response::ok("{}")}};
    agentry::openai_responses p = provider();
    p.api_key = "sk-test";
    const agentry::turn_result r = agentry::complete(p, http, responses_samples::make_request(messages));
    CHECK_FALSE(r.ok());
    CHECK(r.error.kind == agentry::provider_error_kind::bad_request);
    CHECK(r.error.message.find("'audio'") != std::string::npos);
    CHECK(http.requests().empty());
}
