// SPDX-License-Identifier: BSL-1.0
// Hostile provider endpoints on 127.0.0.1, through agentry::complete and curl_transport: each
// probe names what a server may do to a client and asserts the typed outcome (the error kind,
// the bytes kept), never a duration.

#define DOCTEST_CONFIG_IMPLEMENT
#include "loopback.hpp"

#include <agentry/provider/anthropic.hpp>
#include <agentry/provider/gemini.hpp>
#include <agentry/provider/ollama.hpp>
#include <agentry/provider/openai.hpp>
#include <agentry/transport/curl.hpp>
#include <agentry/transport/replay.hpp>

#include <doctest/doctest.h>

#include <chrono>
#include <cstdlib>
#include <string>
#include <vector>

using agentry::provider_error_kind;
using agentry_test::hostile_reply;
using agentry_test::loopback_server;

#if defined(__SANITIZE_ADDRESS__)
#define AGENTRY_TEST_ASAN 1
#elif defined(__has_feature)
#if __has_feature(address_sanitizer)
#define AGENTRY_TEST_ASAN 1
#endif
#endif
#ifndef AGENTRY_TEST_ASAN
#define AGENTRY_TEST_ASAN 0
#endif

namespace {

constexpr std::size_t mib = std::size_t(1) << 20;

const std::vector<agentry::message> history{agentry::message::user("hi")};

template <class P>
agentry::turn_result turn(const P& p, bool stream, const agentry::trace_hook& trace = {}) {
    agentry::curl_transport http;
    agentry::chat_request request{.messages = history};
    request.stream = stream;
    return agentry::complete(p, http, request, {}, trace);
}

hostile_reply endless(std::string content_type, std::string first, std::string repeat, std::size_t cap = 64 * mib) {
    return {"HTTP/1.1 200 OK\r\nContent-Type: " + content_type + "\r\nConnection: close\r\n\r\n" + first,
            std::move(repeat), cap};
}

hostile_reply answer(int status, std::string headers, std::string body) {
    return {"HTTP/1.1 " + std::to_string(status) + " X\r\nContent-Type: application/json\r\nContent-Length: " +
            std::to_string(body.size()) + "\r\nConnection: close\r\n" + headers + "\r\n" + body};
}

// The four providers pointed at `url`, their stream readers at `max_event`.
agentry::openai openai_at(const std::string& url) {
    return {.model = "m", .api_key = "sk-none", .http = {.base_url = url}};
}
agentry::anthropic anthropic_at(const std::string& url) {
    return {.model = "m", .api_key = "none-key", .http = {.base_url = url}};
}
agentry::gemini gemini_at(const std::string& url) {
    return {.model = "m", .api_key = "none-key", .http = {.base_url = url}};
}
agentry::ollama ollama_at(const std::string& url) { return {.model = "m", .http = {.base_url = url}}; }

} // namespace

TEST_CASE("an endless 200 body stops at limits.max_body, with bounded memory, for every provider") {
    const std::size_t before = agentry_test::resident_bytes();
    for (int which = 0; which != 4; ++which) {
        loopback_server server(endless("application/json", "{\"pad\":\"", std::string(64 * 1024, 'x')));
        agentry::turn_result r;
        if (which == 0) r = turn(openai_at(server.url()), false);
        if (which == 1) r = turn(anthropic_at(server.url()), false);
        if (which == 2) r = turn(gemini_at(server.url()), false);
        if (which == 3) r = turn(ollama_at(server.url()), false);
        CAPTURE(which);
        REQUIRE_FALSE(r.ok());
        CHECK(r.error.kind == provider_error_kind::too_large);
        CHECK_FALSE(r.error.retryable);
        CHECK(server.written() < 64 * mib);
    }
    // The default limit is 8 MiB; the server would have sent 64 MiB to each. (ASan keeps freed
    // memory in quarantine, so its resident size says nothing here.)
#if !AGENTRY_TEST_ASAN
    CHECK(agentry_test::resident_bytes() < before + 48 * mib);
#else
    (void)before;
#endif
}

TEST_CASE("an endless streamed body of valid events stops at limits.max_body") {
    agentry::openai p = {.model = "m", .api_key = "k"};
    p.http.limits.max_body = 2 * mib;
    loopback_server server(endless("text/event-stream", "",
                                   "data: {\"choices\":[{\"index\":0,\"delta\":{\"content\":\"aaaaaaaa\"}}]}\n\n"));
    p.http.base_url = server.url();
    const agentry::turn_result r = turn(p, true);
    REQUIRE_FALSE(r.ok());
    CHECK(r.error.kind == provider_error_kind::too_large);
    CHECK(r.error.message.find("max_body") != std::string::npos);
}

TEST_CASE("an endless SSE event, a line that never ends, data: lines without a blank line") {
    const std::vector<hostile_reply> replies{
        endless("text/event-stream", "data: {\"a\":\"", std::string(4096, 'x')),           // one line, no end
        endless("text/event-stream", "", "data: {\"a\":1}\n"),                              // data lines, no blank line
        endless("text/event-stream", "event: message_start\n", "data: xxxxxxxxxxxxxxxx\n"),  // one event, no end
    };
    for (std::size_t i = 0; i != replies.size(); ++i)
        for (int which = 0; which != 3; ++which) {
            loopback_server server(replies[i]);
            agentry::turn_result r;
            if (which == 0) r = turn(openai_at(server.url()), true);
            if (which == 1) r = turn(anthropic_at(server.url()), true);
            if (which == 2) r = turn(gemini_at(server.url()), true);
            CAPTURE(i);
            CAPTURE(which);
            REQUIRE_FALSE(r.ok());
            CHECK(r.error.kind == provider_error_kind::too_large);
            CHECK(r.error.message.find("max_event") != std::string::npos);
            CHECK(server.written() < 8 * mib);
        }
}

TEST_CASE("an NDJSON line that never ends (Ollama)") {
    loopback_server server(endless("application/x-ndjson", "{\"message\":{\"content\":\"", std::string(4096, 'x')));
    const agentry::turn_result r = turn(ollama_at(server.url()), true);
    REQUIRE_FALSE(r.ok());
    CHECK(r.error.kind == provider_error_kind::too_large);
    CHECK(r.error.message.find("max_event") != std::string::npos);
}

TEST_CASE("a trace hook keeps no more than the limit of an endless stream") {
    agentry::openai p = openai_at("");
    p.http.limits.max_body = mib;
    loopback_server server(endless("text/event-stream", "", ": keep-alive comment\n"));
    p.http.base_url = server.url();
    std::size_t traced = 0;
    int calls = 0;
    const agentry::turn_result r = turn(p, true, [&](const agentry::trace_record& t) {
        traced = t.response.body.size();
        ++calls;
    });
    REQUIRE_FALSE(r.ok());
    CHECK(r.error.kind == provider_error_kind::too_large);
    CHECK(calls == 1);
    CHECK(traced <= mib);
}

TEST_CASE("absurd Retry-After values give no undefined behaviour: saturated or ignored") {
    const auto max = agentry::detail::max_server_delay;
    struct probe {
        std::string value;
        std::optional<std::chrono::milliseconds> expected;
    };
    const std::vector<probe> probes{
        {"99999999999", max},
        {"1e300", max},
        {"1e999", max},
        {"inf", max},
        {"nan", std::nullopt},
        {"-5", std::nullopt},
        {"-1e999", std::nullopt},
        {"garbage", std::nullopt},
        {"Fri, 31 Dec 9999 23:59:59 GMT", max},
        {"Thu, 01 Jan 1970 00:00:00 GMT", std::chrono::milliseconds(0)},
        {"Sun, 99 Nov 1994 08:49:37 GMT", std::nullopt},
        {"Sun, 06 Nov 1994 99:49:37 GMT", std::nullopt},
        {"2", std::chrono::milliseconds(2000)},
    };
    for (const probe& p : probes) {
        loopback_server server(answer(429, "Retry-After: " + p.value + "\r\n", R"({"error":{"message":"slow"}})"));
        const agentry::turn_result r = turn(openai_at(server.url()), false);
        CAPTURE(p.value);
        REQUIRE_FALSE(r.ok());
        CHECK(r.error.kind == provider_error_kind::rate_limited);
        CHECK(r.error.retry_after == p.expected);
    }
}

TEST_CASE("absurd x-ratelimit-reset and retryDelay values are saturated or ignored") {
    for (const std::string value : {"1e300s", "99999999999h", "infs", "nans", "-1s", "1e999ms"}) {
        loopback_server server(answer(429, "x-ratelimit-reset-requests: " + value + "\r\n",
                                      R"({"error":{"message":"slow","type":"requests","code":"rate_limit_exceeded"}})"));
        const agentry::turn_result r = turn(openai_at(server.url()), false);
        CAPTURE(value);
        REQUIRE_FALSE(r.ok());
        if (r.error.retry_after) CHECK(*r.error.retry_after == agentry::detail::max_server_delay);
        else CHECK((value == "nans" || value == "-1s"));
    }
    for (const std::string value : {"1e300s", "99999999999s", "infs", "nans", "-3s", "1e999s", "xs"}) {
        loopback_server server(answer(429, "", R"({"error":{"code":429,"message":"slow","status":"RESOURCE_EXHAUSTED",)"
                                               R"("details":[{"@type":"type.googleapis.com/google.rpc.RetryInfo",)"
                                               R"("retryDelay":")" + value + R"("}]}})"));
        const agentry::turn_result r = turn(gemini_at(server.url()), false);
        CAPTURE(value);
        REQUIRE_FALSE(r.ok());
        if (r.error.retry_after) CHECK(*r.error.retry_after == agentry::detail::max_server_delay);
        else CHECK((value == "nans" || value == "-3s" || value == "xs"));
    }
}

TEST_CASE("a nameless tool call is malformed for every provider") {
    struct probe {
        int which;
        std::string body;
    };
    const std::vector<probe> probes{
        {0, R"({"choices":[{"index":0,"message":{"role":"assistant","tool_calls":[{}]},"finish_reason":"tool_calls"}]})"},
        {1, R"({"content":[{"type":"tool_use","id":"t1","input":{}}],"stop_reason":"tool_use"})"},
        {2, R"({"candidates":[{"content":{"parts":[{"functionCall":{"args":{}}}]},"finishReason":"STOP"}]})"},
        {3, R"({"message":{"role":"assistant","content":"","tool_calls":[{}]},"done":true})"},
    };
    for (const probe& p : probes) {
        loopback_server server(answer(200, "", p.body));
        agentry::turn_result r;
        if (p.which == 0) r = turn(openai_at(server.url()), false);
        if (p.which == 1) r = turn(anthropic_at(server.url()), false);
        if (p.which == 2) r = turn(gemini_at(server.url()), false);
        if (p.which == 3) r = turn(ollama_at(server.url()), false);
        CAPTURE(p.which);
        REQUIRE_FALSE(r.ok());
        CHECK(r.error.kind == provider_error_kind::malformed);
        CHECK(r.error.message.find("has no function name") != std::string::npos);
    }
}

TEST_CASE("an error body that echoes the key or the Authorization header does not carry it further") {
    const std::string key = "custom-secret-0123456789";
    loopback_server server(answer(401, "", R"({"error":{"message":"bad key )" + key +
                                               R"(; you sent Authorization: Bearer )" + key + R"(","type":"invalid_request_error","code":"invalid_api_key"}})"));
    agentry::openai p = openai_at(server.url());
    p.api_key = key;
    std::string traced;
    const agentry::turn_result r = turn(p, false, [&](const agentry::trace_record& t) {
        traced = t.response.body + t.request.url;
        for (const auto& h : t.request.headers) traced += h.value;
    });
    REQUIRE_FALSE(r.ok());
    CHECK(r.error.kind == provider_error_kind::authentication);
    CHECK(r.error.message.find(key) == std::string::npos);
    CHECK(r.error.message.find("[redacted]") != std::string::npos);
    CHECK_FALSE(traced.empty());
    CHECK(traced.find(key) == std::string::npos);
}

TEST_CASE("URL userinfo and key= parameters are redacted from traces and errors") {
    loopback_server server(answer(500, "", R"({"error":{"message":"upstream http://u:pw-0123456@h/?key=AAAAAAAA failed"}})"));
    agentry::gemini p = gemini_at("http://user:password123@" + server.url().substr(7) + "/v1beta?key=k-123456789");
    std::string url;
    const agentry::turn_result r = turn(p, false, [&](const agentry::trace_record& t) { url = t.request.url; });
    REQUIRE_FALSE(r.ok());
    CHECK(r.error.kind == provider_error_kind::server);
    CHECK(r.error.message.find("pw-0123456") == std::string::npos);
    CHECK(r.error.message.find("AAAAAAAA") == std::string::npos);
    CHECK(url.find("password123") == std::string::npos);
    CHECK(url.find("k-123456789") == std::string::npos);
    CHECK(url.find("[redacted]@127.0.0.1") != std::string::npos);
}

TEST_CASE("a key is not sent over plain HTTP to a host that is not loopback unless allowed by name") {
    // A replay transport records what would have gone out: nothing leaves this process.
    agentry::openai p{.model = "m", .api_key = "sk-secret-key-1234", .http = {.base_url = "http://192.0.2.1:9/v1"}};
    agentry::replay_transport refused;
    agentry::chat_request request{.messages = history};
    const agentry::turn_result r = agentry::complete(p, refused, request, {}, {});
    REQUIRE_FALSE(r.ok());
    CHECK(r.error.kind == provider_error_kind::insecure);
    CHECK_FALSE(r.error.retryable);
    CHECK(r.error.message.find("allow_plain_http_credentials") != std::string::npos);
    CHECK(r.error.message.find("sk-secret-key-1234") == std::string::npos);
    CHECK(refused.requests().empty());

    p.http.allow_plain_http_credentials = true;
    agentry::replay_transport allowed{{agentry::replay_response::failure(agentry::transport_error_kind::connect)}};
    CHECK(agentry::complete(p, allowed, request, {}, {}).error.kind == provider_error_kind::transport);
    REQUIRE(allowed.requests().size() == 1);
    CHECK(allowed.requests().front().url == "http://192.0.2.1:9/v1/chat/completions");
}

int main(int argc, char** argv) {
    for (const char* name : {"http_proxy", "HTTP_PROXY", "https_proxy", "HTTPS_PROXY", "all_proxy", "ALL_PROXY",
                             "no_proxy", "NO_PROXY"})
        ::unsetenv(name);
    doctest::Context context(argc, argv);
    return context.run();
}
