// SPDX-License-Identifier: BSL-1.0
#ifndef AGENTRY_TESTS_PROVIDER_OTHERS_PIECES_CHECK_HPP
#define AGENTRY_TESTS_PROVIDER_OTHERS_PIECES_CHECK_HPP

// stream_events::on_tool_arguments in the provider tests: the pieces a streamed body gives, fed
// whole, split in two at every byte and one byte at a time, which must all give the same
// pieces, each after on_tool_call for its id, joining to each returned call's arguments.

#include <agentry/provider/provider.hpp>

#include <doctest/doctest.h>

#include <cstddef>
#include <string>
#include <string_view>
#include <vector>

namespace test {

/// The pieces of a stream as "id piece", or a line saying what went wrong.
template <class P>
std::vector<std::string> pieces_of(const P& provider, std::string_view body, const std::vector<std::size_t>& cuts) {
    std::vector<std::string> pieces;
    std::vector<std::string> announced;
    agentry::stream_events events;
    events.on_tool_call = [&](std::string_view id, std::string_view) { announced.emplace_back(id); };
    events.on_tool_arguments = [&](std::string_view id, std::string_view piece) {
        bool known = false;
        for (const std::string& a : announced) known = known || a == id;
        pieces.push_back((known ? "" : "(before on_tool_call) ") + std::string(id) + " " + std::string(piece));
    };
    typename P::stream s = provider.start_stream(std::move(events));
    std::size_t at = 0;
    for (std::size_t cut : cuts) {
        s.feed(body.substr(at, cut - at));
        at = cut;
    }
    s.feed(body.substr(at));
    const agentry::turn_result r = s.finish({200, {{"content-type", "text/event-stream"}}, {}});
    if (!r.ok()) return {"error: " + r.error.message};
    for (const agentry::tool_call& call : r.value->reply.tool_calls) {
        std::string joined;
        for (const std::string& p : pieces)
            if (p.starts_with(call.id + " ")) joined += p.substr(call.id.size() + 1);
        if (joined != call.arguments) pieces.push_back("(pieces of " + call.id + " join to " + joined + ")");
    }
    return pieces;
}

/// The pieces of `body` fed whole, checked to be the same at every split and byte by byte.
template <class P>
std::vector<std::string> pieces_at_every_split(const P& provider, std::string_view body) {
    const std::vector<std::string> whole = pieces_of(provider, body, {});
    std::size_t failures = 0;
    for (std::size_t split = 0; split <= body.size(); ++split)
        failures += pieces_of(provider, body, {split}) == whole ? 0 : 1;
    std::vector<std::size_t> bytes;
    for (std::size_t i = 1; i < body.size(); ++i) bytes.push_back(i);
    failures += pieces_of(provider, body, bytes) == whole ? 0 : 1;
    CHECK(failures == 0);
    return whole;
}

} // namespace test

#endif
