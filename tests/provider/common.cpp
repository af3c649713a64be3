// SPDX-License-Identifier: BSL-1.0
#include <agentry/provider/anthropic.hpp>
#include <agentry/provider/detail/sse.hpp>
#include <agentry/provider/gemini.hpp>
#include <agentry/provider/ollama.hpp>
#include <agentry/provider/openai.hpp>
#include <agentry/provider/provider.hpp>
#include <agentry/provider/scripted.hpp>
#include <agentry/transport/replay.hpp>

#include <doctest/doctest.h>

#include <chrono>
#include <optional>
#include <string>
#include <vector>

using agentry::detail::ndjson_parser;
using agentry::detail::sse_event;
using agentry::detail::sse_parser;

namespace {

std::vector<std::string> events_of(std::string_view text, std::size_t split) {
    sse_parser p;
    std::vector<std::string> out;
    for (std::size_t i = 0; i < text.size(); i += split)
        p.feed(text.substr(i, split), [&](const sse_event& e) { out.push_back(e.name + "|" + e.data); });
    return out;
}

} // namespace

TEST_CASE("sse: events, multi-line data, comments and every line ending, at any split") {
    const std::string_view stream = ": comment\r\nevent: a\r\ndata: 1\r\ndata:2\r\n\r\ndata: x\n\nretry: 5\rdata: y\r\r"
                                    "data: a line of more than eight bytes,\twith a tab, \xC3\xA9 and \x01\r\n\n";
    const std::vector<std::string> expected{"a|1\n2", "|x", "|y", "|a line of more than eight bytes,\twith a tab, \xC3\xA9 and \x01"};
    for (std::size_t split = 1; split <= stream.size(); ++split) CHECK(events_of(stream, split) == expected);
    sse_parser cut;
    cut.feed("data: {\"a\"", [](const sse_event&) {});
    CHECK(cut.pending());
}

TEST_CASE("ndjson: lines at any split, the unterminated rest") {
    const std::string_view stream = "{\"a\":1}\n\r\n{\"b\":2}\r\n{\"c\"";
    for (std::size_t split = 1; split <= stream.size(); ++split) {
        ndjson_parser p;
        std::vector<std::string> lines;
        for (std::size_t i = 0; i < stream.size(); i += split)
            p.feed(stream.substr(i, split), [&](std::string_view l) { lines.emplace_back(l); });
        CHECK(lines == std::vector<std::string>{"{\"a\":1}", "{\"b\":2}"});
        CHECK(p.rest() == "{\"c\"");
    }
}

TEST_CASE("http errors: kind, retryability, Retry-After in seconds and as a date") {
    agentry::http_response r;
    r.status = 429;
    r.headers = {{"Retry-After", "2"}};
    auto e = agentry::detail::http_error(r, "slow down", "rate_limit_error");
    CHECK(e.kind == agentry::provider_error_kind::rate_limited);
    CHECK(e.retryable);
    REQUIRE(e.retry_after);
    CHECK(e.retry_after->count() == 2000);
    CHECK(e.message == "slow down");
    r.status = 401;
    r.headers.clear();
    r.body = "nope";
    e = agentry::detail::http_error(r, "", "");
    CHECK(e.kind == agentry::provider_error_kind::authentication);
    CHECK_FALSE(e.retryable);
    CHECK(e.message == "nope");
    r.status = 503;
    r.body.clear();
    e = agentry::detail::http_error(r, "", "");
    CHECK(e.kind == agentry::provider_error_kind::server);
    CHECK(e.retryable);
    CHECK(e.message == "HTTP 503 with an empty body");
    const auto now = std::chrono::system_clock::from_time_t(784111777);  // Sun, 06 Nov 1994 08:49:37 GMT
    const auto later = agentry::detail::parse_retry_after("Sun, 06 Nov 1994 08:50:07 GMT", now);
    REQUIRE(later);
    CHECK(later->count() == 30000);
    CHECK_FALSE(agentry::detail::parse_retry_after("soon", now));
    CHECK_FALSE(agentry::detail::parse_retry_after("", now));
}

TEST_CASE("headers are found whatever their case") {
    const std::vector<agentry::http_header> h{{"Content-Type", "text/event-stream"}};
    CHECK(agentry::find_header(h, "content-type") == "text/event-stream");
    CHECK(agentry::find_header(h, "accept").empty());
}

TEST_CASE("traces never show credentials") {
    agentry::http_request r;
    r.url = "https://generativelanguage.googleapis.com/v1beta/models/m:generateContent?alt=sse&key=SECRET&x=1";
    r.headers = {{"Authorization", "Bearer sk-SECRET"}, {"X-Api-Key", "SECRET"}, {"x-goog-api-key", "SECRET"},
                 {"Content-Type", "application/json"}};
    const agentry::http_request shown = agentry::redacted(r);
    CHECK(shown.url == "https://generativelanguage.googleapis.com/v1beta/models/m:generateContent?alt=sse&key=[redacted]&x=1");
    CHECK(shown.headers[0].value == "[redacted]");
    CHECK(shown.headers[1].value == "[redacted]");
    CHECK(shown.headers[2].value == "[redacted]");
    CHECK(shown.headers[3].value == "application/json");
}

TEST_CASE("complete: the trace hook sees each exchange, credentials redacted, streamed bodies whole") {
    agentry::openai gpt{.model = "m", .api_key = "sk-SECRET"};
    agentry::replay_transport http{{
        agentry::replay_response::ok(
            R"({"choices":[{"index":0,"message":{"role":"assistant","content":"hi"},"finish_reason":"stop"}]})"),
        agentry::replay_response::streamed({"data: {\"choices\":[{\"index\":0,\"delta\":{\"content\":\"h\"}}]}\n\n",
                                            "data: {\"choices\":[{\"index\":0,\"delta\":{},\"finish_reason\":\"stop\"}]}\n\n",
                                            "data: [DONE]\n\n"}),
    }};
    const std::vector<agentry::message> history{agentry::message::user("hello")};
    std::vector<agentry::trace_record> seen;
    const agentry::trace_hook hook = [&](const agentry::trace_record& r) { seen.push_back(r); };
    agentry::chat_request request;
    request.messages = history;
    auto turn = agentry::complete(gpt, http, request, {}, hook);
    REQUIRE(turn.ok());
    CHECK(turn.value->reply.text == "hi");
    request.stream = true;
    turn = agentry::complete(gpt, http, request, {}, hook);
    REQUIRE(turn.ok());
    CHECK(turn.value->reply.text == "h");
    REQUIRE(seen.size() == 2);
    CHECK(agentry::find_header(seen[0].request.headers, "Authorization") == "[redacted]");
    CHECK(seen[0].request.body.find("\"model\":\"m\"") != std::string::npos);
    CHECK(seen[0].response.status == 200);
    CHECK(seen[0].response.body.find("\"content\":\"hi\"") != std::string::npos);
    CHECK(seen[1].response.body.ends_with("data: [DONE]\n\n"));
    CHECK(seen[1].response.body.starts_with("data: {"));
    CHECK(agentry::find_header(http.requests()[0].headers, "Authorization") == "Bearer sk-SECRET");
}

namespace {

using ms = std::chrono::milliseconds;
using agentry::provider_error_kind;

std::optional<ms> retry_after(std::string_view value) {
    const auto now = std::chrono::system_clock::from_time_t(784111777);  // Sun, 06 Nov 1994 08:49:37 GMT
    return agentry::detail::parse_retry_after(value, now);
}

} // namespace

TEST_CASE("server delays: Retry-After saturates at max_server_delay or is ignored, never undefined") {
    const ms max = agentry::detail::max_server_delay;
    CHECK(max == std::chrono::hours(24));
    CHECK(retry_after("0") == ms(0));
    CHECK(retry_after(" 2 ") == ms(2000));
    CHECK(retry_after("1.5") == ms(1500));
    CHECK(retry_after("86399") == ms(86399000));
    CHECK(retry_after("86400") == max);
    CHECK(retry_after("99999999999") == max);
    CHECK(retry_after("99999999999999999999999999") == max);
    CHECK(retry_after("1e300") == max);
    CHECK(retry_after("1e999") == max);
    CHECK(retry_after("1e-999") == ms(0));
    CHECK(retry_after("0." + std::string(400, '0') + "1") == ms(0));
    CHECK(retry_after(std::string(400, '9')) == max);
    CHECK(retry_after("0.5e400") == max);
    CHECK(retry_after("inf") == max);
    CHECK(retry_after("infinity") == max);
    CHECK(retry_after("nan") == std::nullopt);
    CHECK(retry_after("-nan") == std::nullopt);
    CHECK(retry_after("-5") == std::nullopt);
    CHECK(retry_after("-1e999") == std::nullopt);
    CHECK(retry_after("-inf") == std::nullopt);
    CHECK(retry_after("5s") == std::nullopt);
    CHECK(retry_after("0x10") == std::nullopt);
    CHECK(retry_after("garbage") == std::nullopt);
    // Dates: relative to now, the past is 0, the far future saturates, nonsense is ignored.
    CHECK(retry_after("Sun, 06 Nov 1994 08:50:07 GMT") == ms(30000));
    CHECK(retry_after("Sat, 05 Nov 1994 08:49:37 GMT") == ms(0));
    CHECK(retry_after("Thu, 01 Jan 1970 00:00:00 GMT") == ms(0));
    CHECK(retry_after("Fri, 31 Dec 9999 23:59:59 GMT") == max);
    CHECK(retry_after("Mon, 07 Nov 1994 08:49:37 GMT") == max);
    CHECK(retry_after("Sun, 31 Feb 1994 08:49:37 GMT") == std::nullopt);
    CHECK(retry_after("Sun, 06 Nov 1994 24:00:00 GMT") == std::nullopt);
    CHECK(retry_after("Sun, 06 Nov 1994 08:60:00 GMT") == std::nullopt);
    CHECK(retry_after("Sun, 06 Xyz 1994 08:49:37 GMT") == std::nullopt);
    CHECK(retry_after("Sun, 06 Nov 1994 08:49:37 UTC") == std::nullopt);
    CHECK(retry_after("Sun, -6 Nov 1994 08:49:37 GMT") == std::nullopt);
    CHECK(retry_after("Sunday, 06-Nov-94 08:49:37 GMT") == std::nullopt);
    CHECK(retry_after("Sun, 06 Nov 99999999999 08:49:37 GMT") == std::nullopt);
}

TEST_CASE("server delays: OpenAI's x-ratelimit-reset-* and Gemini's retryDelay, saturated or ignored") {
    using agentry::detail::gemini_retry_delay;
    using agentry::detail::openai_impl::parse_reset;
    const ms max = agentry::detail::max_server_delay;
    CHECK(parse_reset("1h2m3.5s") == ms(3723500));
    CHECK(parse_reset("20ms") == ms(20));
    CHECK(parse_reset("6m0s") == ms(360000));
    CHECK(parse_reset("1e300s") == max);
    CHECK(parse_reset("1e308h1e308h") == max);
    CHECK(parse_reset("99999999999h") == max);
    CHECK(parse_reset("1e999s") == max);
    CHECK(parse_reset("infs") == max);
    CHECK(parse_reset("1e-999s") == ms(0));
    CHECK(parse_reset("nans") == std::nullopt);
    CHECK(parse_reset("-1s") == std::nullopt);
    CHECK(parse_reset("1x") == std::nullopt);
    CHECK(parse_reset("") == std::nullopt);
    CHECK(gemini_retry_delay("30s") == ms(30000));
    CHECK(gemini_retry_delay("1.5s") == ms(1500));
    CHECK(gemini_retry_delay("1e300s") == max);
    CHECK(gemini_retry_delay("1e999s") == max);
    CHECK(gemini_retry_delay("1e-999s") == ms(0));
    CHECK(gemini_retry_delay("infs") == max);
    CHECK(gemini_retry_delay("nans") == std::nullopt);
    CHECK(gemini_retry_delay("-3s") == std::nullopt);
    CHECK(gemini_retry_delay("-1e999s") == std::nullopt);
    CHECK(gemini_retry_delay("30") == std::nullopt);
    CHECK(gemini_retry_delay("s") == std::nullopt);
    CHECK(gemini_retry_delay("xs") == std::nullopt);
}

TEST_CASE("urls: the authority's parts, and which hosts are loopback") {
    using agentry::detail::is_loopback_host;
    using agentry::detail::split_url;
    auto u = split_url("http://user:pw@Example.com:8080/v1?key=x");
    CHECK(u.scheme == "http");
    CHECK(u.userinfo == "user:pw");
    CHECK(u.host == "Example.com");
    u = split_url("https://[::1]:443/x");
    CHECK(u.host == "::1");
    CHECK(u.userinfo.empty());
    u = split_url("http://a@b@c/");  // the last '@' ends the userinfo
    CHECK(u.userinfo == "a@b");
    CHECK(u.host == "c");
    CHECK(split_url("no scheme").host.empty());
    for (std::string_view host : {"localhost", "LOCALHOST", "api.localhost", "127.0.0.1", "127.1.2.3", "::1"})
        CHECK(is_loopback_host(host));
    for (std::string_view host : {"", "example.com", "localhost.example.com", "127.0.0.1.example.com", "128.0.0.1",
                                  "127.0.0", "127.0.0.256", "127.0.0.1.", "0127.0.0.1", "::2", "10.0.0.1"})
        CHECK_FALSE(is_loopback_host(host));
}

TEST_CASE("redaction: every credential shape, and the secrets a request carried") {
    using agentry::detail::redacted_text;
    CHECK(redacted_text("see http://user:password@host:1/x") == "see http://[redacted]@host:1/x");
    CHECK(redacted_text("GET /v1?alt=sse&key=AIzaSECRET&x=1") == "GET /v1?alt=sse&key=[redacted]&x=1");
    CHECK(redacted_text("u?api_key=abc#frag") == "u?api_key=[redacted]#frag");
    CHECK(redacted_text("u?Token=abc&access_token=def") == "u?Token=[redacted]&access_token=[redacted]");
    CHECK(redacted_text("sent Authorization: Bearer abcd.efgh-ijkl") == "sent Authorization: [redacted]");
    CHECK(redacted_text("token bearer abcdefgh ok") == "token bearer [redacted] ok");
    CHECK(redacted_text(R"({"headers":{"x-api-key":"k1","authorization":"Basic dXNlcjpwYXNz"}})") ==
          R"({"headers":{"x-api-key":"[redacted]","authorization":"[redacted]"}})");
    CHECK(redacted_text("key sk-proj-ABCDEFGHIJKLMNOP1234 used") == "key [redacted] used");
    CHECK(redacted_text("key AIzaSyA-0123456789abcdefghijklmnopqrstu used") == "key [redacted] used");
    CHECK(redacted_text("Incorrect API key provided: sk-abc***xyz.") == "Incorrect API key provided: sk-abc***xyz.");
    CHECK(redacted_text("a task-0123456789abcdefghij and risk") == "a task-0123456789abcdefghij and risk");
    CHECK(redacted_text("plain text, no secrets: https://example.com/a?b=c") ==
          "plain text, no secrets: https://example.com/a?b=c");

    agentry::http_request r;
    r.url = "http://me:pass-word@127.0.0.1/v1?key=query-secret&x=1";
    r.headers = {{"Authorization", "Bearer header-secret"}, {"Accept", "text/plain"}, {"x-api-key", ""}};
    const std::vector<std::string> secrets = agentry::detail::secrets_of(r);
    CHECK(secrets == std::vector<std::string>{"Bearer header-secret", "header-secret", "me:pass-word", "pass-word",
                                              "query-secret"});
    std::string text = "echo: header-secret, pass-word, query-secret; short: me";
    agentry::detail::redact_all(text, secrets);
    CHECK(text == "echo: [redacted], [redacted], [redacted]; short: me");
    const agentry::http_request shown = agentry::redacted(r);
    CHECK(shown.url == "http://[redacted]@127.0.0.1/v1?key=[redacted]&x=1");
    CHECK(agentry::detail::carries_credentials(r));
    agentry::http_request none;
    none.url = "http://127.0.0.1/v1?alt=sse";
    none.headers = {{"Authorization", ""}};
    CHECK_FALSE(agentry::detail::carries_credentials(none));
}

TEST_CASE("sse and ndjson: a line or an event past max_event stops the parser, at any split") {
    const auto sse = [](std::string_view stream, std::size_t split, std::size_t max) {
        sse_parser p(max);
        std::vector<std::string> out;
        for (std::size_t i = 0; i < stream.size(); i += split)
            p.feed(stream.substr(i, split), [&](const sse_event& e) { out.push_back(e.data); });
        return std::pair(out, p.overflowed());
    };
    for (std::size_t split = 1; split <= 40; ++split) {
        CAPTURE(split);
        // Exactly at the limit: read.
        CHECK(sse("data: 0123456789\n\n", split, 16) == std::pair(std::vector<std::string>{"0123456789"}, false));
        // One line past it.
        CHECK(sse("data: 01234567890\n\n", split, 16).second);
        // Data lines that never end their event.
        CHECK(sse("data: 01234\ndata: 56789\ndata: abcde\n", split, 16).second);
        // Comments are lines too, but never accumulate.
        CHECK(sse(": 0123456789\n: 0123456789\n: 0123456789\ndata: x\n\n", split, 16) ==
              std::pair(std::vector<std::string>{"x"}, false));
        // Nothing after the overflow is read.
        CHECK(sse("data: 0123456789abcdefgh\n\ndata: y\n\n", split, 16) == std::pair(std::vector<std::string>{}, true));
    }
    for (std::size_t split = 1; split <= 30; ++split) {
        ndjson_parser p(8);
        std::vector<std::string> lines;
        const std::string_view stream = "{\"a\":1}\n{\"b\":222}\n{\"c\":3}\n";
        for (std::size_t i = 0; i < stream.size(); i += split)
            p.feed(stream.substr(i, split), [&](std::string_view l) { lines.emplace_back(l); });
        CHECK(lines == std::vector<std::string>{"{\"a\":1}"});
        CHECK(p.overflowed());
    }
}

namespace {

// `body` streamed to provider P by complete(), in pieces of 7 bytes.
template <class P>
agentry::turn_result stream_through(const P& p, std::string body, const agentry::trace_hook& trace = {}) {
    std::vector<std::string> chunks;
    for (std::size_t i = 0; i < body.size(); i += 7) chunks.push_back(body.substr(i, 7));
    agentry::replay_transport http{{agentry::replay_response::streamed(std::move(chunks))}};
    const std::vector<agentry::message> history{agentry::message::user("hi")};
    agentry::chat_request request{.messages = history};
    request.stream = true;
    return agentry::complete(p, http, request, {}, trace);
}

} // namespace

TEST_CASE("limits: a body or an event past the provider's limits is too_large, not retried, for every provider") {
    const agentry::response_limits small{.max_body = 256, .max_event = 64};
    const std::string long_event = "data: " + std::string(100, 'x') + "\n\n";
    const std::string long_line = std::string(100, 'x') + "\n";
    const auto check = [](const agentry::turn_result& r, std::string_view limit) {
        REQUIRE_FALSE(r.ok());
        CHECK(r.error.kind == provider_error_kind::too_large);
        CHECK_FALSE(r.error.retryable);
        CHECK_MESSAGE(r.error.message.find(limit) != std::string::npos, r.error.message);
    };
    check(stream_through(agentry::openai{.model = "m", .http = {.limits = small}}, long_event), "max_event");
    check(stream_through(agentry::anthropic{.model = "m", .http = {.limits = small}}, long_event), "max_event");
    check(stream_through(agentry::gemini{.model = "m", .http = {.limits = small}}, long_event), "max_event");
    check(stream_through(agentry::ollama{.model = "m", .http = {.limits = small}}, long_line), "max_event");
    std::string many;
    for (int i = 0; i != 20; ++i) many += "data: {\"choices\":[]}\n\n";
    check(stream_through(agentry::openai{.model = "m", .http = {.limits = small}}, many), "max_body");
    // Whole bodies: the request carries the limit, which the transport applies.
    agentry::replay_transport http{{agentry::replay_response::ok(std::string(300, ' ') + "{}")}};
    const std::vector<agentry::message> history{agentry::message::user("hi")};
    const agentry::turn_result r = agentry::complete(agentry::ollama{.model = "m", .http = {.limits = small}}, http,
                                                     agentry::chat_request{.messages = history});
    check(r, "256");
    CHECK(http.requests().at(0).max_body == 256);
    // Within the limits: read.
    CHECK(stream_through(agentry::openai{.model = "m", .http = {.limits = small}},
                         "data: {\"choices\":[{\"index\":0,\"delta\":{\"content\":\"hi\"}}]}\n\ndata: [DONE]\n\n")
              .ok());
}

TEST_CASE("limits: a transport that ignores max_body is still held to it by complete()") {
    struct careless {
        agentry::transport_result send(const agentry::http_request&) {
            agentry::transport_result r;
            r.response.status = 200;
            r.response.body = std::string(1000, ' ');
            return r;
        }
        agentry::transport_result stream(const agentry::http_request&, agentry::stream_handlers& h) {
            agentry::transport_result r;
            r.response.status = 200;
            h.on_head(r.response);
            for (int i = 0; i != 1000; ++i)
                if (!h.on_chunk(": ping\n")) {
                    ++stopped;
                    r.error = {agentry::transport_error_kind::cancelled, "stopped"};
                    return r;
                }
            return r;
        }
        int stopped = 0;
    };
    careless http;
    const std::vector<agentry::message> history{agentry::message::user("hi")};
    const agentry::openai p{.model = "m", .http = {.limits = {.max_body = 100, .max_event = 50}}};
    agentry::chat_request request{.messages = history};
    CHECK(agentry::complete(p, http, request).error.kind == provider_error_kind::too_large);
    request.stream = true;
    std::size_t traced = 0;
    const auto r = agentry::complete(p, http, request, {}, [&](const agentry::trace_record& t) { traced = t.response.body.size(); });
    CHECK(r.error.kind == provider_error_kind::too_large);
    CHECK(http.stopped == 1);
    CHECK(traced <= 100);
}

TEST_CASE("tool calls: one rule for every provider, whole and streamed") {
    const std::string rule_message = "has no function name; a call must name its tool";
    // A nameless call in a stream.
    auto r = stream_through(agentry::openai{.model = "m"},
                            "data: {\"choices\":[{\"index\":0,\"delta\":{\"tool_calls\":[{\"index\":0,\"function\":{\"arguments\":\"{}\"}}]},"
                            "\"finish_reason\":\"tool_calls\"}]}\n\ndata: [DONE]\n\n");
    CHECK(r.error.kind == provider_error_kind::malformed);
    CHECK(r.error.message.find(rule_message) != std::string::npos);
    r = stream_through(agentry::anthropic{.model = "m"},
                       "event: content_block_start\ndata: {\"type\":\"content_block_start\",\"index\":0,"
                       "\"content_block\":{\"type\":\"tool_use\",\"id\":\"t\",\"input\":{}}}\n\n"
                       "event: content_block_stop\ndata: {\"type\":\"content_block_stop\",\"index\":0}\n\n"
                       "event: message_stop\ndata: {\"type\":\"message_stop\"}\n\n");
    CHECK(r.error.kind == provider_error_kind::malformed);
    CHECK(r.error.message.find(rule_message) != std::string::npos);
    r = stream_through(agentry::gemini{.model = "m"},
                       "data: {\"candidates\":[{\"content\":{\"parts\":[{\"functionCall\":{\"args\":{}}}]},"
                       "\"finishReason\":\"STOP\"}]}\n\n");
    CHECK(r.error.kind == provider_error_kind::malformed);
    CHECK(r.error.message.find(rule_message) != std::string::npos);
    r = stream_through(agentry::ollama{.model = "m"},
                       "{\"message\":{\"role\":\"assistant\",\"content\":\"\",\"tool_calls\":[{}]},\"done\":true}\n");
    CHECK(r.error.kind == provider_error_kind::malformed);
    CHECK(r.error.message.find(rule_message) != std::string::npos);

    // Absent ids become call_<i>, absent or blank arguments {}, other arguments stay as written.
    std::vector<agentry::tool_call> calls{{"", "a", "", ""}, {"x", "b", "  ", ""}, {"", "c", "[1]", ""}, {"", "d", "not json", ""}};
    CHECK_FALSE(agentry::detail::settle_tool_calls("test", calls));
    CHECK(calls[0].id == "call_0");
    CHECK(calls[0].arguments == "{}");
    CHECK(calls[1].id == "x");
    CHECK(calls[1].arguments == "{}");
    CHECK(calls[2].id == "call_2");
    CHECK(calls[2].arguments == "[1]");
    CHECK(calls[3].arguments == "not json");
    std::vector<agentry::tool_call> nameless{{"a", "f", "{}", ""}, {"b", "", "{}", ""}};
    CHECK(agentry::detail::settle_tool_calls("test", nameless) ==
          "agentry: test: tool call 1 (id b) " + rule_message);

    // The same arguments from each provider's response, whole: absent gives {}.
    agentry::http_response ok{200, {}, {}};
    ok.body = R"({"choices":[{"index":0,"message":{"tool_calls":[{"function":{"name":"f"}}]},"finish_reason":"tool_calls"}]})";
    auto whole = agentry::openai{}.parse(ok);
    REQUIRE(whole.ok());
    CHECK(whole.value->reply.tool_calls.at(0).arguments == "{}");
    CHECK(whole.value->reply.tool_calls.at(0).id == "call_0");
    ok.body = R"({"message":{"tool_calls":[{"function":{"name":"f"}}]},"done":true})";
    whole = agentry::ollama{}.parse(ok);
    REQUIRE(whole.ok());
    CHECK(whole.value->reply.tool_calls.at(0).arguments == "{}");
    ok.body = R"({"candidates":[{"content":{"parts":[{"functionCall":{"name":"f"}}]},"finishReason":"STOP"}]})";
    whole = agentry::gemini{}.parse(ok);
    REQUIRE(whole.ok());
    CHECK(whole.value->reply.tool_calls.at(0).arguments == "{}");
}

TEST_CASE("secrets: credentials over plain http:// to a host that is not loopback are refused unless allowed") {
    const std::vector<agentry::message> history{agentry::message::user("hi")};
    const agentry::chat_request request{.messages = history};
    const auto sent = [&](const auto& p) {
        agentry::replay_transport http{{agentry::replay_response::ok(
            R"({"choices":[{"index":0,"message":{"content":"ok"},"finish_reason":"stop"}]})")}};
        const agentry::turn_result r = agentry::complete(p, http, request);
        const bool went = http.requests().size() == 1;
        if (!went) {
            CHECK(r.error.kind == provider_error_kind::insecure);
            CHECK_FALSE(r.error.retryable);
            CHECK(r.error.message.find("allow_plain_http_credentials") != std::string::npos);
            CHECK(r.error.message.find("sk-secret") == std::string::npos);
        }
        return went;
    };
    const std::string key = "sk-secret-0123456789";
    CHECK_FALSE(sent(agentry::openai{.model = "m", .api_key = key, .http = {.base_url = "http://gpu.example/v1"}}));
    CHECK_FALSE(sent(agentry::openai{.model = "m", .api_key = key, .http = {.base_url = "HTTP://10.0.0.5:8080/v1"}}));
    CHECK_FALSE(
        sent(agentry::openai{.model = "m", .api_key = key, .http = {.base_url = "http://127.0.0.1.example/v1"}}));
    CHECK_FALSE(sent(agentry::openai{.model = "m", .http = {.base_url = "http://user:pw@gpu.example/v1"}}));
    CHECK_FALSE(sent(
        agentry::openai{.model = "m", .http = {.base_url = "http://gpu.example/v1", .headers = {{"Cookie", "s=1"}}}}));
    CHECK(sent(agentry::openai{.model = "m",
                               .api_key = key,
                               .http = {.base_url = "http://gpu.example/v1", .allow_plain_http_credentials = true}}));
    CHECK(sent(agentry::openai{.model = "m", .api_key = key, .http = {.base_url = "https://gpu.example/v1"}}));
    CHECK(sent(agentry::openai{.model = "m", .api_key = key, .http = {.base_url = "http://127.0.0.1:8080/v1"}}));
    CHECK(sent(agentry::openai{.model = "m", .api_key = key, .http = {.base_url = "http://localhost:8080/v1"}}));
    CHECK(sent(agentry::openai{.model = "m", .api_key = key, .http = {.base_url = "http://[::1]:8080/v1"}}));
    // No key at all (a local server on another machine): sent.
    CHECK(sent(agentry::ollama{.model = "m", .http = {.base_url = "http://gpu.example:11434"}}));
    const agentry::ollama keyed{
        .model = "m",
        .http = {.base_url = "http://gpu.example:11434", .headers = {{"Authorization", "Bearer " + key}}}};
    agentry::replay_transport http;
    CHECK(agentry::complete(keyed, http, request).error.kind == provider_error_kind::insecure);
    CHECK(http.requests().empty());
}

TEST_CASE("secrets: a provider error that echoes the key is redacted before anyone sees it") {
    const std::string key = "my-own-key-42";
    const std::vector<agentry::message> history{agentry::message::user("hi")};
    agentry::replay_transport http{{
        {.status = 401, .body = R"({"error":{"message":"key my-own-key-42 is not valid","type":"invalid_request_error"}})"},
        {.status = 400, .body = R"({"type":"error","error":{"type":"invalid_request_error","message":"x-api-key: my-own-key-42"}})"},
        {.status = 403, .body = R"({"error":{"code":403,"message":"bad key=my-own-key-42","status":"PERMISSION_DENIED"}})"},
    }};
    std::vector<std::string> traced;
    const agentry::trace_hook hook = [&](const agentry::trace_record& t) { traced.push_back(t.response.body); };
    const agentry::chat_request request{.messages = history};
    const auto a = agentry::complete(agentry::openai{.model = "m", .api_key = key}, http, request, {}, hook);
    const auto b = agentry::complete(agentry::anthropic{.model = "m", .api_key = key}, http, request, {}, hook);
    const auto c = agentry::complete(agentry::gemini{.model = "m", .api_key = key}, http, request, {}, hook);
    CHECK(a.error.message == "key [redacted] is not valid");
    CHECK(b.error.message == "x-api-key: [redacted]");
    CHECK(c.error.message == "bad key=[redacted]");
    REQUIRE(traced.size() == 3);
    for (const std::string& body : traced) CHECK(body.find(key) == std::string::npos);
    // The key still went where it belongs.
    CHECK(agentry::find_header(http.requests()[0].headers, "Authorization") == "Bearer " + key);
}

namespace {

// A streamed turn through complete() (the body in 5-byte chunks): its calls as "id arguments"
// and the on_tool_arguments pieces of each id joined, as "id joined", in the order of the ids'
// first pieces; each piece must come after on_tool_call for its id.
template <class P, class T>
std::pair<std::vector<std::string>, std::vector<std::string>> arguments_through(const P& p, T& http) {
    std::vector<std::string> announced;
    std::vector<std::pair<std::string, std::string>> joined;
    bool in_order = true;
    agentry::stream_events events;
    events.on_tool_call = [&](std::string_view id, std::string_view) { announced.emplace_back(id); };
    events.on_tool_arguments = [&](std::string_view id, std::string_view piece) {
        bool known = false;
        for (const std::string& a : announced) known = known || a == id;
        in_order = in_order && known;
        for (auto& [key, text] : joined)
            if (key == id) {
                text += piece;
                return;
            }
        joined.emplace_back(std::string(id), std::string(piece));
    };
    const std::vector<agentry::message> history{agentry::message::user("hi")};
    agentry::chat_request request{.messages = history};
    request.stream = true;
    const agentry::turn_result r = agentry::complete(p, http, request, events);
    std::pair<std::vector<std::string>, std::vector<std::string>> out;
    REQUIRE(r.ok());
    CHECK(in_order);
    for (const agentry::tool_call& c : r.value->reply.tool_calls) out.first.push_back(c.id + " " + c.arguments);
    for (const auto& [id, text] : joined) out.second.push_back(id + " " + text);
    return out;
}

template <class P>
std::pair<std::vector<std::string>, std::vector<std::string>> arguments_of_body(const P& p, const std::string& body) {
    std::vector<std::string> chunks;
    for (std::size_t i = 0; i < body.size(); i += 5) chunks.push_back(body.substr(i, 5));
    agentry::replay_transport http{{agentry::replay_response::streamed(std::move(chunks))}};
    return arguments_through(p, http);
}

} // namespace

TEST_CASE("on_tool_arguments: through complete(), each provider's pieces of a call join to its arguments") {
    using calls = std::vector<std::string>;
    auto r = arguments_of_body(
        agentry::openai{.model = "m"},
        "data: {\"choices\":[{\"index\":0,\"delta\":{\"tool_calls\":[{\"index\":0,\"id\":\"c1\",\"function\":{\"name\":\"f\",\"arguments\":\"{\\\"a\\\":\"}}]}}]}\n\n"
        "data: {\"choices\":[{\"index\":0,\"delta\":{\"tool_calls\":[{\"index\":0,\"function\":{\"arguments\":\"1}\"}},"
        "{\"index\":1,\"id\":\"c2\",\"function\":{\"name\":\"g\",\"arguments\":\"\"}}]},\"finish_reason\":\"tool_calls\"}]}\n\n"
        "data: [DONE]\n\n");
    CHECK(r.first == calls{R"(c1 {"a":1})", "c2 {}"});
    CHECK(r.second == r.first);
    r = arguments_of_body(agentry::gemini{.model = "m", .api_key = "k"},
                          "data: {\"candidates\":[{\"content\":{\"parts\":[{\"functionCall\":{\"name\":\"f\",\"args\":{\"a\":1}}},"
                          "{\"functionCall\":{\"name\":\"g\"}}]},\"finishReason\":\"STOP\"}]}\n\n");
    CHECK(r.first == calls{R"(call_0 {"a":1})", "call_1 {}"});
    CHECK(r.second == r.first);
    r = arguments_of_body(agentry::ollama{.model = "m"},
                          "{\"message\":{\"content\":\"\",\"tool_calls\":[{\"function\":{\"name\":\"f\",\"arguments\":{\"a\":1}}},"
                          "{\"id\":\"k\",\"function\":{\"name\":\"g\"}}]},\"done\":false}\n{\"done\":true,\"done_reason\":\"stop\"}\n");
    CHECK(r.first == calls{R"(call_0 {"a":1})", "k {}"});
    CHECK(r.second == r.first);
    const agentry::scripted_model scripted{std::vector<agentry::completion>{
        agentry::scripted_model::calls({{"", "f", R"({"a":1})", {}}, {"c9", "g", "{}", {}}})}};
    agentry::scripted_transport local;
    r = arguments_through(scripted, local);
    CHECK(r.first == calls{R"(call_1 {"a":1})", "c9 {}"});
    CHECK(r.second == r.first);
}

TEST_CASE("refuse: what each provider does with a tool result of content blocks holding an image") {
    const agentry::tool_call call{"c1", "shot", "{}", {}};
    std::vector<agentry::message> history{agentry::message::user("x"), agentry::message::assistant("", {call}),
                                          agentry::message::tool_result(call, R"([{"type":"image","data":"AAAA","mimeType":"image/png"}])")};
    history.back().content_blocks = true;
    const agentry::chat_request request{.messages = history};
    CHECK(agentry::openai{.model = "m"}.refuse(request).has_value());
    CHECK_FALSE(agentry::gemini{.model = "m"}.refuse(request).has_value());
    CHECK_FALSE(agentry::ollama{.model = "m"}.refuse(request).has_value());
}
