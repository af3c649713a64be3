// SPDX-License-Identifier: BSL-1.0
// agentry::replay_transport: scripted answers, recorded requests, the behaviour of stream().

#include <agentry/provider/provider.hpp>
#include <agentry/transport/replay.hpp>

#include <doctest/doctest.h>

#include <atomic>
#include <string>
#include <thread>
#include <vector>

using agentry::http_request;
using agentry::replay_response;
using agentry::replay_transport;
using agentry::transport_error_kind;
using agentry::transport_result;

namespace {

http_request post(std::string url, std::string body) {
    http_request r;
    r.url = std::move(url);
    r.headers = {{"Authorization", "Bearer k"}};
    r.body = std::move(body);
    return r;
}

struct streamed {
    transport_result result;
    std::vector<int> head_statuses;
    std::vector<std::string> chunks;
};

streamed stream(replay_transport& t, const http_request& request, int stop_after_chunks = -1) {
    streamed s;
    agentry::stream_handlers handlers;
    handlers.on_head = [&](const agentry::http_response& head) {
        s.head_statuses.push_back(head.status);
        return true;
    };
    handlers.on_chunk = [&](std::string_view chunk) {
        s.chunks.emplace_back(chunk);
        return static_cast<int>(s.chunks.size()) != stop_after_chunks;
    };
    s.result = t.stream(request, handlers);
    return s;
}

} // namespace

TEST_CASE("replay: the script in order, every request recorded") {
    replay_transport t{{
        replay_response::ok(R"({"a":1})"),
        {.status = 429, .headers = {{"Retry-After", "2"}}, .body = R"({"error":{}})"},
    }};
    CHECK(t.pending() == 2);
    const transport_result first = t.send(post("https://api.example/v1/chat", "one"));
    REQUIRE(first.ok());
    CHECK(first.response.status == 200);
    CHECK(first.response.header("content-type") == "application/json");
    CHECK(first.response.body == R"({"a":1})");
    const transport_result second = t.send(post("https://api.example/v1/chat", "two"));
    REQUIRE(second.ok());
    CHECK(second.response.status == 429);
    const agentry::provider_error e = agentry::detail::http_error(second.response, "", "");
    CHECK(e.kind == agentry::provider_error_kind::rate_limited);
    REQUIRE(e.retry_after);
    CHECK(e.retry_after->count() == 2000);
    CHECK(t.pending() == 0);

    const transport_result none = t.send(post("https://api.example/v1/chat", "three"));
    CHECK(none.error.kind == transport_error_kind::other);
    CHECK(none.error.message == "agentry: replay_transport has no response left for POST https://api.example/v1/chat");

    const std::vector<http_request> seen = t.requests();
    REQUIRE(seen.size() == 3);
    CHECK(seen[0].body == "one");
    CHECK(seen[1].body == "two");
    CHECK(seen[2].body == "three");
    CHECK(seen[0].method == "POST");
    CHECK(seen[0].url == "https://api.example/v1/chat");
    CHECK(agentry::find_header(seen[0].headers, "authorization") == "Bearer k");
}

TEST_CASE("replay: stream() gives the head, then the pieces as scripted") {
    replay_transport t;
    t.push(replay_response::streamed({"data: {\"a\"", ":1}\n\n", "data: [DONE]\n\n"}));
    t.push(replay_response::ok("whole"));
    streamed s = stream(t, post("u://x", ""));
    REQUIRE(s.result.ok());
    CHECK(s.head_statuses == std::vector<int>{200});
    CHECK(s.result.response.header("Content-Type") == "text/event-stream");
    CHECK(s.chunks == std::vector<std::string>{"data: {\"a\"", ":1}\n\n", "data: [DONE]\n\n"});
    CHECK(s.result.response.body.empty());

    s = stream(t, post("u://x", ""));
    REQUIRE(s.result.ok());
    CHECK(s.chunks == std::vector<std::string>{"whole"});

    // send() of a chunked script: the concatenation.
    t.push(replay_response::streamed({"a", "b"}));
    CHECK(t.send(post("u://x", "")).response.body == "ab");
}

TEST_CASE("replay: a non-2xx body comes whole in the response, never to on_chunk") {
    replay_transport t{{{.status = 503, .chunks = {"{\"error\":", "1}"}}}};
    const streamed s = stream(t, post("u://x", ""));
    REQUIRE(s.result.ok());
    CHECK(s.head_statuses == std::vector<int>{503});
    CHECK(s.chunks.empty());
    CHECK(s.result.response.body == "{\"error\":1}");
}

TEST_CASE("replay: failures before the response and mid-stream") {
    replay_transport t{{
        replay_response::failure(transport_error_kind::connect, "refused"),
        {.status = 200, .chunks = {"data: 1\n\n", "data: 2\n\n"}, .error = {transport_error_kind::reset, "dropped"}},
        {.status = 200, .chunks = {"partial"}, .error = {transport_error_kind::timeout, "slow"}},
    }};
    const transport_result refused = t.send(post("u://x", ""));
    CHECK(refused.error.kind == transport_error_kind::connect);
    CHECK(refused.error.message == "refused");
    CHECK(refused.response.status == 0);
    CHECK(agentry::detail::transport_failure(refused.error).retryable);

    const streamed dropped = stream(t, post("u://x", ""));
    CHECK(dropped.result.error.kind == transport_error_kind::reset);
    CHECK(dropped.result.error.message == "dropped");
    CHECK(dropped.result.response.status == 200);
    CHECK(dropped.chunks == std::vector<std::string>{"data: 1\n\n", "data: 2\n\n"});

    const transport_result slow = t.send(post("u://x", ""));
    CHECK(slow.error.kind == transport_error_kind::timeout);
    CHECK(slow.response.status == 200);
    CHECK(slow.response.body == "partial");
}

TEST_CASE("replay: cancellation by the flag and by a handler") {
    replay_transport t{{
        replay_response::ok("never"),
        replay_response::streamed({"a", "b", "c"}),
        replay_response::streamed({"a", "b", "c"}),
    }};
    const std::atomic<bool> set{true};
    http_request r = post("u://x", "");
    r.cancel = &set;
    const transport_result flagged = t.send(r);
    CHECK(flagged.error.kind == transport_error_kind::cancelled);
    CHECK(flagged.error.message == "agentry: cancelled by http_request::cancel");
    CHECK(flagged.response.status == 0);

    const streamed stopped = stream(t, post("u://x", ""), 2);
    CHECK(stopped.result.error.kind == transport_error_kind::cancelled);
    CHECK(stopped.result.error.message == "agentry: cancelled by a stream handler");
    CHECK(stopped.chunks == std::vector<std::string>{"a", "b"});

    // The flag set by a handler is seen before the next piece.
    std::atomic<bool> cancel{false};
    http_request flagged_mid = post("u://x", "");
    flagged_mid.cancel = &cancel;
    agentry::stream_handlers handlers;
    std::vector<std::string> chunks;
    handlers.on_chunk = [&](std::string_view c) {
        chunks.emplace_back(c);
        cancel = true;
        return true;
    };
    const transport_result mid = t.stream(flagged_mid, handlers);
    CHECK(mid.error.kind == transport_error_kind::cancelled);
    CHECK(mid.response.status == 200);
    CHECK(chunks == std::vector<std::string>{"a"});
    CHECK(t.pending() == 0);
    CHECK(t.requests().size() == 3);
}

TEST_CASE("replay: on_head returning false, empty handlers, a script with both body and chunks") {
    replay_transport t{{
        replay_response::ok("x"),
        replay_response::ok("y"),
        {.status = 200, .body = "b", .chunks = {"c"}},
    }};
    agentry::stream_handlers refuse;
    refuse.on_head = [](const agentry::http_response&) { return false; };
    const transport_result refused = t.stream(post("u://x", ""), refuse);
    CHECK(refused.error.kind == transport_error_kind::cancelled);
    CHECK(refused.response.status == 200);

    agentry::stream_handlers none;
    CHECK(t.stream(post("u://x", ""), none).ok());

    const transport_result both = t.send(post("u://x", ""));
    CHECK(both.error.kind == transport_error_kind::other);
    CHECK(both.error.message == "agentry: replay_response sets both body and chunks");
}

TEST_CASE("replay: calls from several threads each get one scripted response") {
    replay_transport t;
    for (int i = 0; i != 100; ++i) t.push(replay_response::ok(std::to_string(i)));
    std::vector<std::thread> threads;
    std::atomic<int> ok{0};
    for (int n = 0; n != 4; ++n)
        threads.emplace_back([&] {
            for (int i = 0; i != 25; ++i) ok += t.send(post("u://x", "")).ok() ? 1 : 0;
        });
    for (std::thread& th : threads) th.join();
    CHECK(ok == 100);
    CHECK(t.pending() == 0);
    CHECK(t.requests().size() == 100);
}

namespace {

// The smallest provider: the reply text is the body, streamed or not.
struct echo_provider {
    struct stream {
        std::string text;
        void feed(std::string_view bytes) { text.append(bytes); }
        agentry::turn_result finish(const agentry::http_response&) {
            agentry::completion c;
            c.reply.text = text;
            return {c, {}};
        }
    };
    http_request request(const agentry::chat_request&) const { return post("https://model.example/chat", "turn"); }
    agentry::turn_result parse(const agentry::http_response& r) const {
        if (r.status != 200) return {std::nullopt, agentry::detail::http_error(r, "", "")};
        agentry::completion c;
        c.reply.text = r.body;
        return {c, {}};
    }
    stream start_stream(agentry::stream_events) const { return {}; }
};
static_assert(agentry::provider<echo_provider>);

} // namespace

TEST_CASE("replay under agentry::complete: replies, typed errors, streamed turns") {
    replay_transport t{{
        replay_response::ok("hello"),
        replay_response::streamed({"hel", "lo"}),
        {.status = 429, .headers = {{"Retry-After", "3"}}, .body = "slow down"},
        replay_response::failure(transport_error_kind::timeout, "too slow"),
    }};
    const echo_provider p;
    agentry::chat_request request;
    agentry::turn_result r = agentry::complete(p, t, request);
    REQUIRE(r.ok());
    CHECK(r.value->reply.text == "hello");
    request.stream = true;
    r = agentry::complete(p, t, request);
    REQUIRE(r.ok());
    CHECK(r.value->reply.text == "hello");
    r = agentry::complete(p, t, request);
    CHECK(r.error.kind == agentry::provider_error_kind::rate_limited);
    CHECK(r.error.message == "slow down");
    REQUIRE(r.error.retry_after);
    CHECK(r.error.retry_after->count() == 3000);
    r = agentry::complete(p, t, request);
    CHECK(r.error.kind == agentry::provider_error_kind::transport);
    CHECK(r.error.type == "timeout");
    CHECK(r.error.message == "too slow");
    CHECK(r.error.retryable);
    CHECK(t.requests().size() == 4);
    CHECK(t.requests()[3].body == "turn");
}
