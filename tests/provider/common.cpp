// SPDX-License-Identifier: BSL-1.0
#include <agentry/provider/detail/sse.hpp>
#include <agentry/provider/openai.hpp>
#include <agentry/provider/provider.hpp>
#include <agentry/transport/replay.hpp>

#include <doctest/doctest.h>

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
    const std::string_view stream = ": comment\r\nevent: a\r\ndata: 1\r\ndata:2\r\n\r\ndata: x\n\nretry: 5\rdata: y\r\r";
    const std::vector<std::string> expected{"a|1\n2", "|x", "|y"};
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
