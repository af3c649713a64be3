// SPDX-License-Identifier: BSL-1.0
// agentry::openai::request: exact bodies, URL, headers and request options.

#include "samples.hpp"

#include <agentry/provider/openai.hpp>

#include <doctest/doctest.h>

#include <atomic>
#include <cstdlib>
#include <string>

static_assert(agentry::provider<agentry::openai>);

namespace {

std::string header(const agentry::http_request& r, std::string_view name) {
    return std::string(agentry::find_header(r.headers, name));
}

int count(const agentry::http_request& r, std::string_view name) {
    int n = 0;
    for (const auto& h : r.headers) n += agentry::find_header({h}, name).empty() ? 0 : 1;
    return n;
}

// Sets or clears OPENAI_API_KEY for one scope.
struct scoped_key {
    explicit scoped_key(const char* value) {
        if (const char* old = std::getenv("OPENAI_API_KEY")) saved = old;
        if (value) setenv("OPENAI_API_KEY", value, 1);
        else unsetenv("OPENAI_API_KEY");
    }
    ~scoped_key() {
        if (saved) setenv("OPENAI_API_KEY", saved->c_str(), 1);
        else unsetenv("OPENAI_API_KEY");
    }
    std::optional<std::string> saved;
};

} // namespace

TEST_CASE("request bodies: exact JSON for each representative chat request") {
    for (const auto& s : openai_samples::samples()) {
        CAPTURE(s.name);
        const agentry::http_request r = s.provider.request(s.request());
        CHECK(r.body == s.expected);
        CHECK(r.method == "POST");
    }
}

TEST_CASE("request: URL from base_url, with or without a trailing slash") {
    agentry::chat_request req;
    CHECK(agentry::openai{.model = "m"}.request(req).url == "https://api.openai.com/v1/chat/completions");
    CHECK(agentry::openai{.model = "m", .http = {.base_url = "http://127.0.0.1:8080/v1"}}.request(req).url ==
          "http://127.0.0.1:8080/v1/chat/completions");
    CHECK(agentry::openai{.model = "m", .http = {.base_url = "http://localhost:11434/v1/"}}.request(req).url ==
          "http://localhost:11434/v1/chat/completions");
}

TEST_CASE("request: the API key from the provider, else OPENAI_API_KEY, else no Authorization") {
    agentry::chat_request req;
    {
        scoped_key env("sk-env");
        CHECK(header(agentry::openai{.model = "m", .api_key = "sk-own"}.request(req), "authorization") ==
              "Bearer sk-own");
        CHECK(header(agentry::openai{.model = "m"}.request(req), "Authorization") == "Bearer sk-env");
    }
    {
        scoped_key env(nullptr);
        const auto r = agentry::openai{.model = "m", .http = {.base_url = "http://127.0.0.1:8080/v1"}}.request(req);
        CHECK(count(r, "Authorization") == 0);
        CHECK(header(r, "Content-Type") == "application/json");
        CHECK(header(r, "Accept") == "application/json");
    }
    {
        scoped_key env("");
        CHECK(count(agentry::openai{.model = "m"}.request(req), "Authorization") == 0);
    }
}

TEST_CASE("request: extra headers are sent, and replace a default of the same name") {
    scoped_key env(nullptr);
    const agentry::openai p{
        .model = "m",
        .api_key = "sk-x",
        .http = {.headers = {{"OpenAI-Organization", "org-1"}, {"authorization", "Bearer proxy-token"}}}};
    agentry::chat_request req;
    req.stream = true;
    const auto r = p.request(req);
    CHECK(header(r, "OpenAI-Organization") == "org-1");
    CHECK(count(r, "Authorization") == 1);
    CHECK(header(r, "Authorization") == "Bearer proxy-token");
    CHECK(header(r, "Accept") == "text/event-stream");
}

TEST_CASE("request: timeouts and the cancel flag are copied") {
    std::atomic<bool> stop{false};
    const agentry::openai p{.model = "m",
                            .http = {.connect_timeout = std::chrono::milliseconds(1500),
                                     .total_timeout = std::chrono::milliseconds(60000),
                                     .cancel = &stop}};
    const auto r = p.request({});
    CHECK(r.connect_timeout.count() == 1500);
    CHECK(r.total_timeout.count() == 60000);
    CHECK(r.cancel == &stop);
}

TEST_CASE("request: an empty tools array counts as no tools") {
    const std::vector<agentry::message> m{agentry::message::user("x")};
    const auto req = openai_samples::make_request(m, {.tools = " [] ", .tool_choice = agentry::tool_choice::none()});
    CHECK(agentry::openai{.model = "m"}.request(req).body ==
          R"({"model":"m","messages":[{"role":"user","content":"x"}]})");
}

TEST_CASE("request: an assistant turn with neither text nor calls sends empty content") {
    const std::vector<agentry::message> m{agentry::message::user("x"), agentry::message::assistant("")};
    CHECK(agentry::openai{.model = "m"}.request(openai_samples::make_request(m)).body ==
          R"({"model":"m","messages":[{"role":"user","content":"x"},{"role":"assistant","content":""}]})");
}

TEST_CASE("refuse: a tool result holding an image or audio, while text blocks and resource links are sent") {
    using agentry::message;
    const agentry::openai p{.model = "m"};
    const agentry::tool_call call = openai_samples::paris_call();
    std::vector<message> m{message::user("Show me Paris."), message::assistant("", {call}),
                           openai_samples::blocks_result(call, R"([{"type":"text","text":"Here:"},)"
                                                               R"({"type":"image","data":"iVBORw0KGgo=","mimeType":"image/png"}])")};
    auto refused = p.refuse(openai_samples::make_request(m));
    REQUIRE(refused);
    CHECK(refused->kind == agentry::provider_error_kind::bad_request);
    CHECK_FALSE(refused->retryable);
    CHECK(refused->type == "unsupported_content");
    CHECK(refused->message ==
          "agentry: openai: Chat Completions takes only text in a tool message, and the result of tool 'get_weather' "
          "(call 'call_a1') holds an image; use agentry::openai_responses, anthropic or gemini for tools that return "
          "images, or return text");

    m.back() = openai_samples::blocks_result(call, R"([{"type":"audio","data":"UklGRg==","mimeType":"audio/wav"}])");
    refused = p.refuse(openai_samples::make_request(m));
    REQUIRE(refused);
    CHECK(refused->message == "agentry: openai: Chat Completions takes only text in a tool message, and the result of "
                              "tool 'get_weather' (call 'call_a1') holds audio; return text instead");
    // A resource link is text: its JSON.
    m.back() = openai_samples::blocks_result(call, R"([{"type":"resource_link","uri":"file:///a.png","name":"a.png"}])");
    CHECK_FALSE(p.refuse(openai_samples::make_request(m)));
    CHECK(p.request(openai_samples::make_request(m)).body.find(
              R"("content":"{\"type\":\"resource_link\",\"uri\":\"file:///a.png\",\"name\":\"a.png\"}")") !=
          std::string::npos);
    m.back() = openai_samples::blocks_result(call, R"([{"type":"resource","resource":{"uri":"file:///a.bin","blob":"AAE="}}])");
    CHECK(p.refuse(openai_samples::make_request(m))->message.find("holds a binary resource;") != std::string::npos);

    // Text blocks only, the same text without content_blocks, and text that is not a block array.
    m.back() = openai_samples::blocks_result(call, R"([{"type":"text","text":"a"},{"type":"text","text":"b"}])");
    CHECK_FALSE(p.refuse(openai_samples::make_request(m)));
    CHECK(p.request(openai_samples::make_request(m)).body.find(R"({"role":"tool","content":"a\nb","tool_call_id":"call_a1"})") !=
          std::string::npos);
    m.back() = message::tool_result(call, R"([{"type":"image","data":"iVBORw0KGgo=","mimeType":"image/png"}])");
    CHECK_FALSE(p.refuse(openai_samples::make_request(m)));
    m.back() = openai_samples::blocks_result(call, "not blocks");
    CHECK_FALSE(p.refuse(openai_samples::make_request(m)));
    CHECK(p.request(openai_samples::make_request(m)).body.find(R"({"role":"tool","content":"not blocks",)") !=
          std::string::npos);
}

namespace {

struct counting_transport {
    int sent = 0;
    agentry::transport_result send(const agentry::http_request&) {
        ++sent;
        return {{200, {}, "{}"}, {}};
    }
    agentry::transport_result stream(const agentry::http_request&, agentry::stream_handlers&) {
        ++sent;
        return {{200, {}, {}}, {}};
    }
};

} // namespace

TEST_CASE("refuse: complete() returns the refusal and sends nothing, whole or streamed") {
    const agentry::tool_call call = openai_samples::paris_call();
    const std::vector<agentry::message> m{
        agentry::message::user("Show me Paris."), agentry::message::assistant("", {call}),
        openai_samples::blocks_result(call, R"([{"type":"image","data":"iVBORw0KGgo=","mimeType":"image/png"}])")};
    counting_transport t;
    for (const bool stream : {false, true}) {
        const auto r = agentry::complete(agentry::openai{.model = "m"}, t, openai_samples::make_request(m, {.stream = stream}));
        REQUIRE_FALSE(r.ok());
        CHECK(r.error.kind == agentry::provider_error_kind::bad_request);
        CHECK(r.error.message.starts_with("agentry: openai: Chat Completions takes only text in a tool message"));
    }
    CHECK(t.sent == 0);
}
