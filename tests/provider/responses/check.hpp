// SPDX-License-Identifier: BSL-1.0
// Helpers for the Responses tests: a turn with its parts and every usage count as one line, and
// a stream fed whole, split in two at every byte boundary and one byte at a time, which must all
// give the same turn, the same streamed text, calls and argument pieces.

#ifndef AGENTRY_TESTS_PROVIDER_RESPONSES_CHECK_HPP
#define AGENTRY_TESTS_PROVIDER_RESPONSES_CHECK_HPP

#include "../others/stream_check.hpp"

#include <agentry/provider/openai_responses.hpp>

#include <doctest/doctest.h>

#include <cstddef>
#include <map>
#include <string>
#include <string_view>
#include <vector>

namespace responses_check {

/// test::describe, then the parts (kind@position=raw) and the detailed usage.
inline std::string describe(const agentry::turn_result& r) {
    std::string out = test::describe(r);
    if (!r.ok()) return out;
    const agentry::completion& c = *r.value;
    out += " parts=";
    if (!c.reply.parts) out += "none";
    else
        for (const agentry::provider_part& p : *c.reply.parts)
            out += "[" + p.provider + " " + p.kind + "@" + std::to_string(p.position) + "=" + p.raw + "]";
    out += " cached=" + std::to_string(c.usage.cached_input_tokens) +
           " cache_write=" + std::to_string(c.usage.cache_write_tokens) +
           " reasoning=" + std::to_string(c.usage.reasoning_tokens);
    return out;
}

/// A streamed turn: the result, the text passed to on_text, "id name" per on_tool_call, and the
/// pieces passed to on_tool_arguments joined per id.
struct streamed {
    agentry::turn_result result;
    std::string text;
    std::vector<std::string> calls;
    std::map<std::string, std::string> arguments;
    /// on_tool_arguments for an id before its on_tool_call.
    bool early_arguments = false;
};

inline streamed run(const agentry::openai_responses& p, std::string_view body, const std::vector<std::size_t>& cuts,
                    const agentry::http_response& head = test::ok_head()) {
    streamed out;
    agentry::stream_events events;
    events.on_text = [&out](std::string_view t) { out.text.append(t); };
    events.on_tool_call = [&out](std::string_view id, std::string_view name) {
        out.calls.push_back(std::string(id) + " " + std::string(name));
        out.arguments[std::string(id)];
    };
    events.on_tool_arguments = [&out](std::string_view id, std::string_view piece) {
        const auto it = out.arguments.find(std::string(id));
        if (it == out.arguments.end()) out.early_arguments = true;
        else it->second.append(piece);
    };
    agentry::openai_responses::stream s = p.start_stream(std::move(events));
    std::size_t at = 0;
    for (std::size_t cut : cuts) {
        s.feed(body.substr(at, cut - at));
        at = cut;
    }
    s.feed(body.substr(at));
    out.result = s.finish(head);
    return out;
}

/// Every way of feeding `body` gives what feeding it whole gives; returns that.
inline streamed check_every_split(const agentry::openai_responses& p, std::string_view body,
                                  const agentry::http_response& head = test::ok_head()) {
    const streamed whole = run(p, body, {}, head);
    const std::string expected = describe(whole.result);
    std::size_t failures = 0;
    std::string first_failure;
    const auto compare = [&](const streamed& s, const std::string& how) {
        if (describe(s.result) == expected && s.text == whole.text && s.calls == whole.calls &&
            s.arguments == whole.arguments && !s.early_arguments)
            return;
        if (failures++ == 0) first_failure = how + ": " + describe(s.result) + " streamed text=" + s.text;
    };
    for (std::size_t split = 0; split <= body.size(); ++split)
        compare(run(p, body, {split}, head), "split at " + std::to_string(split));
    std::vector<std::size_t> bytes;
    for (std::size_t i = 1; i < body.size(); ++i) bytes.push_back(i);
    compare(run(p, body, bytes, head), "1-byte pieces");
    INFO("expected: ", expected);
    INFO("first difference, ", first_failure);
    CHECK(failures == 0);
    CHECK_FALSE(whole.early_arguments);
    return whole;
}

} // namespace responses_check

#endif
