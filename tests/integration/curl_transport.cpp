// SPDX-License-Identifier: BSL-1.0
// agentry::curl_transport against fault_server.mjs on 127.0.0.1: each case checks the exact
// transport_result, and the provider_error that agentry::detail::http_error or
// transport_failure makes of it.

#include "fault_server.hpp"

#include <agentry/provider/provider.hpp>
#include <agentry/transport/curl.hpp>

#include <doctest/doctest.h>

#include <atomic>
#include <chrono>
#include <cstdlib>
#include <functional>
#include <future>
#include <stdexcept>
#include <string>
#include <thread>
#include <vector>

#include <arpa/inet.h>
#include <fcntl.h>
#include <netinet/in.h>
#include <sys/socket.h>
#include <unistd.h>

using namespace std::chrono_literals;
using agentry::curl_options;
using agentry::curl_transport;
using agentry::http_request;
using agentry::provider_error_kind;
using agentry::transport_error_kind;
using agentry::transport_result;
using agentry_test::fault_server;

namespace {

const std::string two_events = "data: {\"n\":0}\n\ndata: {\"n\":1}\n\n";

fault_server& server() { return fault_server::get(); }

http_request get(std::string url) {
    http_request r;
    r.method = "GET";
    r.url = std::move(url);
    return r;
}

http_request post(std::string url, std::string body) {
    http_request r;
    r.url = std::move(url);
    r.headers = {{"Content-Type", "application/json"}};
    r.body = std::move(body);
    return r;
}

/// What stream() delivered.
struct streamed {
    transport_result result;
    std::vector<int> head_statuses;
    std::vector<std::string> chunks;

    std::string joined() const {
        std::string all;
        for (const std::string& c : chunks) all += c;
        return all;
    }
};

streamed stream(curl_transport& t, const http_request& request,
                std::function<bool(const std::vector<std::string>&)> after_chunk = {}) {
    streamed s;
    agentry::stream_handlers handlers;
    handlers.on_head = [&](const agentry::http_response& head) {
        s.head_statuses.push_back(head.status);
        return true;
    };
    handlers.on_chunk = [&](std::string_view chunk) {
        s.chunks.emplace_back(chunk);
        return after_chunk ? after_chunk(s.chunks) : true;
    };
    s.result = t.stream(request, handlers);
    return s;
}

std::string body_of(curl_transport& t, const std::string& url) {
    const transport_result r = t.send(get(url));
    REQUIRE(r.ok());
    return r.response.body;
}

std::string sse_body(int events) {
    std::string all;
    for (int i = 0; i != events; ++i) all += "data: {\"n\":" + std::to_string(i) + "}\n\n";
    return all;
}

/// A socket bound to a port of 127.0.0.1 that does not listen: connecting to it is refused.
struct closed_port {
    int fd = ::socket(AF_INET, SOCK_STREAM, 0);
    int port = 0;

    closed_port() {
        sockaddr_in a{};
        a.sin_family = AF_INET;
        a.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
        REQUIRE(::bind(fd, reinterpret_cast<sockaddr*>(&a), sizeof a) == 0);
        socklen_t n = sizeof a;
        REQUIRE(::getsockname(fd, reinterpret_cast<sockaddr*>(&a), &n) == 0);
        port = ntohs(a.sin_port);
    }
    closed_port(const closed_port&) = delete;
    closed_port& operator=(const closed_port&) = delete;
    ~closed_port() { ::close(fd); }
};

/// A listener on 127.0.0.1 that never accepts, with its queue filled: the kernel drops the
/// handshakes of further connections, which then wait until their connect timeout.
struct full_listener {
    closed_port bound;
    std::vector<int> fillers;

    full_listener() {
        REQUIRE(::listen(bound.fd, 0) == 0);
        sockaddr_in a{};
        a.sin_family = AF_INET;
        a.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
        a.sin_port = htons(static_cast<std::uint16_t>(bound.port));
        for (int i = 0; i != 2; ++i) {
            const int fd = ::socket(AF_INET, SOCK_STREAM | SOCK_NONBLOCK, 0);
            (void)::connect(fd, reinterpret_cast<sockaddr*>(&a), sizeof a);
            fillers.push_back(fd);
        }
    }
    full_listener(const full_listener&) = delete;
    full_listener& operator=(const full_listener&) = delete;
    ~full_listener() {
        for (int fd : fillers) ::close(fd);
    }
};

/// Sets an environment variable for the life of the object.
struct scoped_env {
    std::string name;
    scoped_env(std::string n, const std::string& value) : name(std::move(n)) { ::setenv(name.c_str(), value.c_str(), 1); }
    scoped_env(const scoped_env&) = delete;
    scoped_env& operator=(const scoped_env&) = delete;
    ~scoped_env() { ::unsetenv(name.c_str()); }
};

/// What the proxy has received; asked for directly, whatever the environment says.
std::string proxy_log() {
    curl_transport t{curl_options{.proxy = ""}};
    return body_of(t, server().http("/proxy_log"));
}

} // namespace

TEST_CASE("200 JSON: status, headers in their case, body") {
    curl_transport t;
    const transport_result r = t.send(post(server().http("/json"), R"({"model":"m"})"));
    REQUIRE(r.ok());
    CHECK(r.error.message.empty());
    CHECK(r.response.status == 200);
    CHECK(r.response.body == R"({"id":"chat-1","ok":true})");
    CHECK(r.response.header("content-type") == "application/json");
    bool exact_case = false;
    for (const agentry::http_header& h : r.response.headers) exact_case |= h.name == "X-Request-ID" && h.value == "req-123";
    CHECK(exact_case);

    const streamed s = stream(t, post(server().http("/json"), "{}"));
    REQUIRE(s.result.ok());
    CHECK(s.head_statuses == std::vector<int>{200});
    CHECK(s.joined() == R"({"id":"chat-1","ok":true})");
    CHECK(s.result.response.status == 200);
    CHECK(s.result.response.body.empty());
}

TEST_CASE("SSE in many small writes: the chunks assemble to the body") {
    curl_transport t;
    const streamed s = stream(t, post(server().http("/sse?events=40"), "{}"));
    REQUIRE(s.result.ok());
    CHECK(s.head_statuses == std::vector<int>{200});
    CHECK(s.result.response.header("Content-Type") == "text/event-stream");
    CHECK(s.chunks.size() > 1);
    CHECK(s.joined() == sse_body(40));
    CHECK(s.result.response.body.empty());
}

TEST_CASE("429 with Retry-After: status and header, then a retryable rate_limited error") {
    curl_transport t;
    const std::string body = R"({"error":{"message":"status 429","type":"fault"}})";
    const transport_result r = t.send(post(server().http("/status/429?retry_after=7"), "{}"));
    REQUIRE(r.ok());
    CHECK(r.response.status == 429);
    CHECK(r.response.header("Retry-After") == "7");
    CHECK(r.response.body == body);
    const agentry::provider_error e = agentry::detail::http_error(r.response, "", "");
    CHECK(e.kind == provider_error_kind::rate_limited);
    CHECK(e.status == 429);
    CHECK(e.retryable);
    REQUIRE(e.retry_after);
    CHECK(*e.retry_after == 7000ms);
    CHECK(e.message == body);

    // Streamed: the error body comes whole in the response, never to on_chunk.
    const streamed s = stream(t, post(server().http("/status/429?retry_after=7"), "{}"));
    REQUIRE(s.result.ok());
    CHECK(s.head_statuses == std::vector<int>{429});
    CHECK(s.chunks.empty());
    CHECK(s.result.response.body == body);
}

TEST_CASE("body limits: a body past http_request::max_body, or curl_options::max_body, is too_large") {
    curl_transport t;
    http_request at_limit = get(server().http("/big?bytes=100000"));
    at_limit.max_body = 100000;
    transport_result r = t.send(at_limit);
    REQUIRE(r.ok());
    CHECK(r.response.body.size() == 100000);

    http_request over = get(server().http("/big?bytes=100001"));
    over.max_body = 100000;
    r = t.send(over);
    CHECK(r.error.kind == transport_error_kind::too_large);
    CHECK(r.error.message.find("100000") != std::string::npos);
    CHECK(agentry::detail::transport_failure(r.error).kind == provider_error_kind::too_large);
    CHECK_FALSE(agentry::detail::transport_failure(r.error).retryable);

    // Streamed: the handler never sees more than the limit.
    const streamed s = stream(t, over);
    CHECK(s.result.error.kind == transport_error_kind::too_large);
    CHECK(s.joined().size() <= 100000);
    // An error body counts too.
    http_request error_body = get(server().http("/big?bytes=200000&status=500"));
    error_body.max_body = 100000;
    CHECK(stream(t, error_body).result.error.kind == transport_error_kind::too_large);

    // The transport's own default, when the request sets none: 8 MiB.
    CHECK(curl_options{}.max_body == 8u << 20);
    curl_transport small{{.max_body = 1000}};
    CHECK(small.send(get(server().http("/big?bytes=1001"))).error.kind == transport_error_kind::too_large);
    CHECK(small.send(get(server().http("/big?bytes=1000"))).ok());
}

TEST_CASE("head limit: a response head past 256 KiB is too_large") {
    curl_transport t;
    const transport_result r = t.send(get(server().http("/big_head")));
    CHECK(r.error.kind == transport_error_kind::too_large);
    CHECK(r.error.message == "agentry: the response head passed 256 KiB");
}

TEST_CASE("500 and 503: retryable server errors") {
    curl_transport t;
    const transport_result r500 = t.send(post(server().http("/status/500"), "{}"));
    REQUIRE(r500.ok());
    CHECK(r500.response.status == 500);
    CHECK(r500.response.body == R"({"error":{"message":"status 500","type":"fault"}})");
    agentry::provider_error e = agentry::detail::http_error(r500.response, "", "");
    CHECK(e.kind == provider_error_kind::server);
    CHECK(e.retryable);
    CHECK(!e.retry_after);

    const streamed s503 = stream(t, post(server().http("/status/503?retry_after=30"), "{}"));
    REQUIRE(s503.result.ok());
    CHECK(s503.chunks.empty());
    CHECK(s503.result.response.status == 503);
    CHECK(s503.result.response.body == R"({"error":{"message":"status 503","type":"fault"}})");
    e = agentry::detail::http_error(s503.result.response, "", "");
    CHECK(e.kind == provider_error_kind::server);
    CHECK(e.retryable);
    REQUIRE(e.retry_after);
    CHECK(*e.retry_after == 30000ms);
}

TEST_CASE("connection refused: connect, retryable") {
    closed_port closed;
    curl_transport t;
    const transport_result r = t.send(post("http://127.0.0.1:" + std::to_string(closed.port) + "/json", "{}"));
    CHECK(r.error.kind == transport_error_kind::connect);
    CHECK(r.error.message.find("127.0.0.1 port " + std::to_string(closed.port)) != std::string::npos);
    CHECK(r.response.status == 0);
    CHECK(r.response.headers.empty());
    const agentry::provider_error e = agentry::detail::transport_failure(r.error);
    CHECK(e.kind == provider_error_kind::transport);
    CHECK(e.type == "connect");
    CHECK(e.status == 0);
    CHECK(e.retryable);
    CHECK(e.message == r.error.message);
}

TEST_CASE("connection reset mid-stream: the events before it, then reset") {
    curl_transport t;
    curl_transport side;
    const streamed s = stream(t, post(server().http("/reset/r1"), "{}"), [&](const std::vector<std::string>& got) {
        std::string all;
        for (const std::string& c : got) all += c;
        if (all == two_events) body_of(side, server().http("/release/r1"));
        return true;
    });
    CHECK(s.result.error.kind == transport_error_kind::reset);
    CHECK(!s.result.error.message.empty());
    CHECK(s.result.response.status == 200);
    CHECK(s.head_statuses == std::vector<int>{200});
    CHECK(s.joined() == two_events);
    const agentry::provider_error e = agentry::detail::transport_failure(s.result.error);
    CHECK(e.kind == provider_error_kind::transport);
    CHECK(e.type == "reset");
    CHECK(e.retryable);
}

TEST_CASE("truncated chunked stream: the events before it, then reset") {
    curl_transport t;
    const streamed s = stream(t, post(server().http("/truncate"), "{}"));
    CHECK(s.result.error.kind == transport_error_kind::reset);
    CHECK(!s.result.error.message.empty());
    CHECK(s.result.response.status == 200);
    CHECK(s.joined() == two_events);
    CHECK(agentry::detail::transport_failure(s.result.error).type == "reset");
}

TEST_CASE("slow server: the total timeout, from the request or from the options") {
    curl_transport t;
    http_request r = post(server().http("/slow?ms=5000"), "{}");
    r.total_timeout = 300ms;
    const transport_result by_request = t.send(r);
    CHECK(by_request.error.kind == transport_error_kind::timeout);
    CHECK(!by_request.error.message.empty());
    CHECK(by_request.response.status == 0);
    const agentry::provider_error e = agentry::detail::transport_failure(by_request.error);
    CHECK(e.kind == provider_error_kind::transport);
    CHECK(e.type == "timeout");
    CHECK(e.retryable);

    curl_transport short_default{curl_options{.total_timeout = 300ms}};
    CHECK(short_default.options().connect_timeout == 10s);
    CHECK(short_default.send(post(server().http("/slow?ms=5000"), "{}")).error.kind == transport_error_kind::timeout);

    // A request's own timeout wins over the options.
    r.url = server().http("/slow?ms=200");
    r.total_timeout = 5000ms;
    const transport_result longer = short_default.send(r);
    REQUIRE(longer.ok());
    CHECK(longer.response.body == "late");
}

TEST_CASE("stalled stream: the events before it, then timeout") {
    curl_transport t;
    http_request r = post(server().http("/stall"), "{}");
    r.total_timeout = 1500ms;
    const streamed s = stream(t, r);
    CHECK(s.result.error.kind == transport_error_kind::timeout);
    CHECK(s.result.response.status == 200);
    CHECK(s.joined() == two_events);
}

TEST_CASE("connect timeout: a listener that never completes the handshake") {
    full_listener full;
    curl_transport t;
    http_request r = post("http://127.0.0.1:" + std::to_string(full.bound.port) + "/json", "{}");
    r.connect_timeout = 200ms;
    r.total_timeout = 5000ms;
    const transport_result result = t.send(r);
    CHECK(result.error.kind == transport_error_kind::timeout);
    // libcurl words it by where the deadline struck: before or after it gave up on the address
    // ("Failed to connect to ... port N ...", "Connection timed out after N milliseconds",
    // "Connection timeout after N ms").
    const std::string& m = result.error.message;
    INFO("the message: " << m);
    CHECK((m.find("Failed to connect to 127.0.0.1 port " + std::to_string(full.bound.port)) == 0 ||
           m.find("timed out") != std::string::npos || m.find("Connection timeout after ") == 0));
    CHECK(result.response.status == 0);
}

TEST_CASE("malformed JSON body: the transport succeeds, the body is as sent") {
    curl_transport t;
    const transport_result r = t.send(post(server().http("/malformed"), "{}"));
    REQUIRE(r.ok());
    CHECK(r.response.status == 200);
    CHECK(r.response.body == R"({"choices":[{"message":)");
    const streamed s = stream(t, post(server().http("/malformed"), "{}"));
    REQUIRE(s.result.ok());
    CHECK(s.joined() == R"({"choices":[{"message":)");
}

TEST_CASE("empty bodies: 200 with Content-Length 0, and 204") {
    curl_transport t;
    for (const char* path : {"/empty", "/no_content"}) {
        CAPTURE(path);
        const transport_result r = t.send(post(server().http(path), "{}"));
        REQUIRE(r.ok());
        CHECK(r.response.body.empty());
        const streamed s = stream(t, post(server().http(path), "{}"));
        REQUIRE(s.result.ok());
        CHECK(s.head_statuses.size() == 1);
        CHECK(s.chunks.empty());
        CHECK(s.result.response.body.empty());
    }
    CHECK(t.send(get(server().http("/empty"))).response.status == 200);
    CHECK(t.send(get(server().http("/no_content"))).response.status == 204);
}

TEST_CASE("a content type the caller did not ask for is returned as is") {
    curl_transport t;
    const transport_result r = t.send(post(server().http("/html"), "{}"));
    REQUIRE(r.ok());
    CHECK(r.response.status == 200);
    CHECK(r.response.header("content-type") == "text/html; charset=utf-8");
    CHECK(r.response.body == "<html><body>502 Bad Gateway</body></html>");
}

TEST_CASE("interim 103 and a redirect: the final head, redirects not followed") {
    curl_transport t;
    const transport_result hints = t.send(get(server().http("/early_hints")));
    REQUIRE(hints.ok());
    CHECK(hints.response.status == 200);
    CHECK(hints.response.header("X-Final") == "yes");
    CHECK(hints.response.header("Link").empty());
    CHECK(hints.response.body == R"({"final":true})");
    const streamed s = stream(t, get(server().http("/early_hints")));
    CHECK(s.head_statuses == std::vector<int>{200});
    CHECK(s.joined() == R"({"final":true})");

    const transport_result moved = t.send(get(server().http("/redirect")));
    REQUIRE(moved.ok());
    CHECK(moved.response.status == 302);
    CHECK(moved.response.header("Location") == "/json");
    CHECK(moved.response.body == "moved");
}

TEST_CASE("the request as sent: method, headers as given, no Expect, no invented Content-Type, a 2 MB body") {
    curl_transport t;
    http_request big = post(server().http("/echo"), std::string(2 * 1024 * 1024, 'x'));
    big.headers.push_back({"Authorization", "Bearer k"});
    big.headers.push_back({"X-Empty", ""});
    const transport_result r = t.send(big);
    REQUIRE(r.ok());
    const std::string& echo = r.response.body;
    CHECK(echo.rfind("POST /echo HTTP/1.1\n", 0) == 0);
    CHECK(echo.find("\nContent-Type: application/json\n") != std::string::npos);
    CHECK(echo.find("\nAuthorization: Bearer k\n") != std::string::npos);
    CHECK(echo.find("\nX-Empty: \n") != std::string::npos);
    CHECK(echo.find("\nbody length 2097152\n") != std::string::npos);
    CHECK(echo.find("Expect") == std::string::npos);

    http_request bare;
    bare.url = server().http("/echo");
    bare.body = "plain";
    const std::string no_type = body_of(t, bare.url);
    CHECK(no_type.rfind("GET /echo HTTP/1.1\n", 0) == 0);
    const transport_result untyped = t.send(bare);
    REQUIRE(untyped.ok());
    CHECK(untyped.response.body.find("Content-Type") == std::string::npos);
    CHECK(untyped.response.body.find("\nbody plain\n") != std::string::npos);

    http_request head = get(server().http("/json"));
    head.method = "HEAD";
    const transport_result headed = t.send(head);
    REQUIRE(headed.ok());
    CHECK(headed.response.status == 200);
    CHECK(headed.response.header("Content-Length") == "25");
    CHECK(headed.response.body.empty());

    bare.method = "PUT";
    const transport_result put = t.send(bare);
    REQUIRE(put.ok());
    CHECK(put.response.body.rfind("PUT /echo HTTP/1.1\n", 0) == 0);
    CHECK(put.response.body.find("\nbody plain\n") != std::string::npos);
}

TEST_CASE("refused before sending: a URL that is not http(s), a header with a line break") {
    server();
    curl_transport t;
    transport_result r = t.send(get("file:///etc/passwd"));
    CHECK(r.error.kind == transport_error_kind::other);
    CHECK(r.error.message == "agentry: curl_transport takes http:// and https:// URLs only");
    http_request injected = post(server().http("/seen/h1"), "{}");
    injected.headers.push_back({"X-A", "1\r\nX-B: 2"});
    r = t.send(injected);
    CHECK(r.error.kind == transport_error_kind::other);
    CHECK(r.error.message == "agentry: header 'X-A' has an empty name or a line break");
    CHECK(agentry::detail::transport_failure(r.error).retryable == false);
}

TEST_CASE("cancellation from another thread mid-stream") {
    curl_transport t;
    std::atomic<bool> cancel{false};
    std::promise<void> both_events;
    std::thread canceller([&] {
        both_events.get_future().wait();
        cancel.store(true);
    });
    http_request r = post(server().http("/stall"), "{}");
    r.cancel = &cancel;
    bool signalled = false;
    const streamed s = stream(t, r, [&](const std::vector<std::string>& got) {
        std::string all;
        for (const std::string& c : got) all += c;
        if (all == two_events && !signalled) {
            signalled = true;
            both_events.set_value();
        }
        return true;
    });
    if (!signalled) both_events.set_value();
    canceller.join();
    CHECK(s.result.error.kind == transport_error_kind::cancelled);
    CHECK(s.result.error.message == "agentry: cancelled by http_request::cancel");
    CHECK(s.result.response.status == 200);
    CHECK(s.joined() == two_events);
    const agentry::provider_error e = agentry::detail::transport_failure(s.result.error);
    CHECK(e.type == "cancelled");
    CHECK(!e.retryable);

    // The transport is still usable: the next request opens a new connection.
    CHECK(body_of(t, server().http("/json")) == R"({"id":"chat-1","ok":true})");
}

TEST_CASE("a cancel flag already set: cancelled, nothing sent") {
    curl_transport t;
    const std::atomic<bool> cancel{true};
    http_request r = post(server().http("/wait/c0"), "{}");
    r.cancel = &cancel;
    const transport_result result = t.send(r);
    CHECK(result.error.kind == transport_error_kind::cancelled);
    CHECK(result.response.status == 0);
    CHECK(body_of(t, server().http("/seen/c0")) == "no");
}

TEST_CASE("a handler returning false cancels") {
    curl_transport t;
    agentry::stream_handlers refuse_head;
    int chunks = 0;
    refuse_head.on_head = [](const agentry::http_response&) { return false; };
    refuse_head.on_chunk = [&](std::string_view) { return ++chunks, true; };
    transport_result r = t.stream(post(server().http("/sse?events=5"), "{}"), refuse_head);
    CHECK(r.error.kind == transport_error_kind::cancelled);
    CHECK(r.error.message == "agentry: cancelled by a stream handler");
    CHECK(r.response.status == 200);
    CHECK(chunks == 0);

    const streamed s = stream(t, post(server().http("/sse?events=50"), "{}"),
                              [](const std::vector<std::string>&) { return false; });
    CHECK(s.result.error.kind == transport_error_kind::cancelled);
    CHECK(s.result.error.message == "agentry: cancelled by a stream handler");
    CHECK(s.chunks.size() == 1);
    CHECK(sse_body(50).rfind(s.chunks[0], 0) == 0);
}

TEST_CASE("a handler that throws: the exception comes out, the transport still works") {
    curl_transport t;
    agentry::stream_handlers throwing;
    throwing.on_chunk = [](std::string_view) -> bool { throw std::runtime_error("handler failed"); };
    CHECK_THROWS_WITH_AS(t.stream(post(server().http("/sse?events=3"), "{}"), throwing), "handler failed",
                         std::runtime_error);
    CHECK(body_of(t, server().http("/json")) == R"({"id":"chat-1","ok":true})");
}

TEST_CASE("connection reuse: the requests of one transport share one connection") {
    curl_transport t;
    const std::string first = body_of(t, server().http("/port"));
    CHECK(body_of(t, server().http("/port")) == first);
    CHECK(stream(t, post(server().http("/sse?events=3"), "{}")).result.ok());
    CHECK(t.send(post(server().http("/status/429"), "{}")).response.status == 429);
    CHECK(body_of(t, server().http("/port")) == first);

    curl_transport other;
    CHECK(body_of(other, server().http("/port")) != first);

    curl_transport moved = std::move(t);
    CHECK(body_of(moved, server().http("/port")) == first);
}

TEST_CASE("one transport used by two threads at once: each call gets a connection") {
    curl_transport t;
    curl_transport observer;
    transport_result held;
    std::thread first([&] { held = t.send(get(server().http("/wait/w1"))); });
    bool seen = false;
    for (int i = 0; i != 1000 && !seen; ++i) {
        seen = body_of(observer, server().http("/seen/w1")) == "yes";
        if (!seen) std::this_thread::sleep_for(10ms);
    }
    // The kept handle is busy with /wait/w1: this call runs on a handle of its own.
    const transport_result release = t.send(get(server().http("/release/w1")));
    if (!seen || !release.ok()) body_of(observer, server().http("/release/w1"));
    first.join();
    CHECK(seen);
    REQUIRE(release.ok());
    CHECK(release.response.body == "ok");
    REQUIRE(held.ok());
    CHECK(held.response.body == "released w1");
}

TEST_CASE("proxies: from the environment, from the options, or none") {
    const std::string target = server().http("/json");
    const std::string line = "GET " + target + " HTTP/1.1\n";
    {
        const scoped_env http_proxy("http_proxy", server().proxy());
        const scoped_env no_proxy("no_proxy", "");
        curl_transport from_env;
        const transport_result r = from_env.send(get(target));
        REQUIRE(r.ok());
        CHECK(r.response.body == R"({"id":"chat-1","ok":true})");
        CHECK(proxy_log() == line);

        // "" turns the environment's proxy off.
        curl_transport direct{curl_options{.proxy = ""}};
        REQUIRE(direct.send(get(target)).ok());
        CHECK(proxy_log() == line);
    }
    {
        // no_proxy names the hosts reached directly.
        const scoped_env http_proxy("http_proxy", server().proxy());
        const scoped_env no_proxy("no_proxy", "example.org,127.0.0.1");
        curl_transport t;
        REQUIRE(t.send(get(target)).ok());
        CHECK(proxy_log() == line);
    }
    {
        // HTTP_PROXY in upper case is not read (a CGI program gets it from a request header).
        const scoped_env upper("HTTP_PROXY", server().proxy());
        curl_transport t;
        REQUIRE(t.send(get(target)).ok());
        CHECK(proxy_log() == line);
    }
    curl_transport explicit_proxy{curl_options{.proxy = server().proxy()}};
    REQUIRE(explicit_proxy.send(get(target)).ok());
    CHECK(proxy_log() == line + line);

    // https through the proxy: a CONNECT tunnel; the head returned is the server's, not the proxy's.
    const scoped_env https_proxy("https_proxy", server().proxy());
    curl_transport tunnel{curl_options{.ca_file = AGENTRY_TEST_CA}};
    const transport_result r = tunnel.send(get(server().https("/json")));
    REQUIRE(r.ok());
    CHECK(r.response.status == 200);
    CHECK(r.response.header("X-Request-ID") == "req-123");
    CHECK(r.response.body == R"({"id":"chat-1","ok":true})");
    CHECK(proxy_log() == line + line + "CONNECT 127.0.0.1:" + std::to_string(server().https_port) + " HTTP/1.1\n");
}

TEST_CASE("HTTPS: a server the CA file vouches for, otherwise tls") {
    curl_transport trusting{curl_options{.ca_file = AGENTRY_TEST_CA}};
    const transport_result ok = trusting.send(post(server().https("/json"), "{}"));
    REQUIRE(ok.ok());
    CHECK(ok.response.status == 200);
    CHECK(ok.response.body == R"({"id":"chat-1","ok":true})");
    const streamed s = stream(trusting, post(server().https("/sse?events=10"), "{}"));
    REQUIRE(s.result.ok());
    CHECK(s.joined() == sse_body(10));
    const std::string port = body_of(trusting, server().https("/port"));
    CHECK(body_of(trusting, server().https("/port")) == port);

    curl_transport system_store;
    const transport_result unknown = system_store.send(post(server().https("/json"), "{}"));
    CHECK(unknown.error.kind == transport_error_kind::tls);
    CHECK(!unknown.error.message.empty());
    const agentry::provider_error e = agentry::detail::transport_failure(unknown.error);
    CHECK(e.type == "tls");
    CHECK(!e.retryable);

    // https:// to a port that speaks plain HTTP.
    const std::string plain = "https://127.0.0.1:" + std::to_string(server().http_port) + "/json";
    CHECK(trusting.send(post(plain, "{}")).error.kind == transport_error_kind::tls);
}
