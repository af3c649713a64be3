// SPDX-License-Identifier: BSL-1.0
#ifndef AGENTRY_TESTS_PROVIDER_OTHERS_STREAM_CHECK_HPP
#define AGENTRY_TESTS_PROVIDER_OTHERS_STREAM_CHECK_HPP

// Helpers for the provider tests: a turn_result as one comparable line, and a streamed body fed
// whole, split in two at every byte boundary, and one byte at a time, which must all give the
// same turn and the same streamed text.

#include <agentry/provider/provider.hpp>

#include <doctest/doctest.h>

#include <cstddef>
#include <string>
#include <string_view>
#include <vector>

namespace test {

inline agentry::http_response ok_head() { return {200, {{"content-type", "text/event-stream"}}, {}}; }

inline std::string kind_name(agentry::provider_error_kind k) {
    switch (k) {
    case agentry::provider_error_kind::transport: return "transport";
    case agentry::provider_error_kind::bad_request: return "bad_request";
    case agentry::provider_error_kind::authentication: return "authentication";
    case agentry::provider_error_kind::permission: return "permission";
    case agentry::provider_error_kind::rate_limited: return "rate_limited";
    case agentry::provider_error_kind::server: return "server";
    case agentry::provider_error_kind::malformed: return "malformed";
    case agentry::provider_error_kind::too_large: return "too_large";
    case agentry::provider_error_kind::insecure: return "insecure";
    }
    return "?";
}

inline std::string finish_name(agentry::finish_reason f) {
    switch (f) {
    case agentry::finish_reason::stop: return "stop";
    case agentry::finish_reason::tool_calls: return "tool_calls";
    case agentry::finish_reason::max_tokens: return "max_tokens";
    case agentry::finish_reason::refusal: return "refusal";
    case agentry::finish_reason::content_filter: return "content_filter";
    case agentry::finish_reason::other: return "other";
    }
    return "?";
}

/// Everything a turn_result holds, as one line.
inline std::string describe(const agentry::turn_result& r) {
    if (!r.ok()) {
        const agentry::provider_error& e = r.error;
        return "error " + kind_name(e.kind) + " status=" + std::to_string(e.status) + " type=" + e.type +
               " retryable=" + (e.retryable ? "1" : "0") +
               " retry_after=" + (e.retry_after ? std::to_string(e.retry_after->count()) : "-") + " message=" + e.message;
    }
    const agentry::completion& c = *r.value;
    std::string out = "text=" + c.reply.text + " calls=[";
    for (const agentry::tool_call& call : c.reply.tool_calls)
        out += call.id + "|" + call.name + "|" + call.arguments + "|" + call.signature + ";";
    out += "] finish=" + finish_name(c.finish) + " provider=" + c.provider_finish +
           " usage=" + std::to_string(c.usage.input_tokens) + "/" + std::to_string(c.usage.output_tokens) +
           " incomplete=" + (c.incomplete_tool_call ? "1" : "0") + " refusal=" + c.refusal;
    return out;
}

/// A streamed turn: the result, the text passed to on_text, and "id name" per on_tool_call.
struct streamed {
    agentry::turn_result result;
    std::string text;
    std::vector<std::string> calls;
};

/// Feeds `body` cut at `cuts` (increasing offsets), then finishes with `head`.
template <class P>
streamed run_stream(const P& provider, std::string_view body, const std::vector<std::size_t>& cuts,
                    const agentry::http_response& head = ok_head()) {
    streamed out;
    agentry::stream_events events;
    events.on_text = [&out](std::string_view t) { out.text.append(t); };
    events.on_tool_call = [&out](std::string_view id, std::string_view name) {
        out.calls.push_back(std::string(id) + " " + std::string(name));
    };
    typename P::stream s = provider.start_stream(std::move(events));
    std::size_t at = 0;
    for (std::size_t cut : cuts) {
        s.feed(body.substr(at, cut - at));
        at = cut;
    }
    s.feed(body.substr(at));
    out.result = s.finish(head);
    return out;
}

/// The body fed whole.
template <class P>
streamed run_whole(const P& provider, std::string_view body, const agentry::http_response& head = ok_head()) {
    return run_stream(provider, body, {}, head);
}

/// Feeds `body` whole, in two pieces at every split point, and in 1-byte pieces; every way must
/// give the turn and the streamed text and calls of the whole feed. Returns the whole feed's.
template <class P>
streamed check_every_split(const P& provider, std::string_view body, const agentry::http_response& head = ok_head()) {
    const streamed whole = run_whole(provider, body, head);
    const std::string expected = describe(whole.result);
    std::size_t failures = 0;
    std::string first_failure;
    const auto compare = [&](const streamed& s, const std::string& how) {
        if (describe(s.result) == expected && s.text == whole.text && s.calls == whole.calls) return;
        if (failures++ == 0) first_failure = how + ": " + describe(s.result) + " streamed text=" + s.text;
    };
    for (std::size_t split = 0; split <= body.size(); ++split)
        compare(run_stream(provider, body, {split}, head), "split at " + std::to_string(split));
    std::vector<std::size_t> bytes;
    for (std::size_t i = 1; i < body.size(); ++i) bytes.push_back(i);
    compare(run_stream(provider, body, bytes, head), "1-byte pieces");
    INFO("expected: ", expected);
    INFO("first difference, ", first_failure);
    CHECK(failures == 0);
    return whole;
}

} // namespace test

#endif
