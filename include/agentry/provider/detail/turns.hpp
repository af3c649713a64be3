// SPDX-License-Identifier: BSL-1.0
#ifndef AGENTRY_PROVIDER_DETAIL_TURNS_HPP
#define AGENTRY_PROVIDER_DETAIL_TURNS_HPP

// The conversation as the alternating turns of APIs that want them (Anthropic's messages,
// Gemini's contents): system messages are left to the caller; consecutive user and tool
// messages make one user turn, whose tool results come first and in the order of the calls
// they answer; an assistant's text comes before its calls; a turn never follows one of the
// same role. Each provider supplies how a text, a call and a result become one of its parts.

#include <agentry/provider/detail/wire_common.hpp>
#include <agentry/provider/message.hpp>

#include <cstddef>
#include <iterator>
#include <span>
#include <string_view>
#include <utility>
#include <vector>

namespace agentry::detail {

template <class Part>
struct grouped_turn {
    std::string_view role;
    std::vector<Part> parts;
};

/// `messages` as turns of `user_role` and `assistant_role`, with
///   text(std::string_view) -> Part                          a user's or assistant's text
///   call(const tool_call&) -> Part                          one call of an assistant message
///   result(const message&, std::span<const tool_call>) -> Part   one tool result, with the
///                                                           calls of the turn it answers
/// Empty texts are left out.
template <class Part, class Text, class Call, class Result>
std::vector<grouped_turn<Part>> group_turns(std::span<const message> messages, std::string_view user_role,
                                            std::string_view assistant_role, Text&& text, Call&& call,
                                            Result&& result) {
    // Per turn: its results, which go first, then its other parts.
    struct open_turn {
        std::string_view role;
        std::vector<Part> results;
        std::vector<Part> parts;
    };
    std::vector<open_turn> turns;
    const auto add = [&](std::string_view side, Part part, bool is_result) {
        if (turns.empty() || turns.back().role != side) turns.push_back({side, {}, {}});
        (is_result ? turns.back().results : turns.back().parts).push_back(std::move(part));
    };
    for (std::size_t i = 0; i != messages.size();) {
        const message& m = messages[i];
        if (m.role == role::tool) {
            const std::size_t end = end_of_tool_run(messages, i);
            const std::span<const tool_call> calls = calls_before(messages, i);
            for (const message* r : in_call_order(messages.subspan(i, end - i), calls))
                add(user_role, result(*r, calls), true);
            i = end;
            continue;
        }
        if (m.role == role::user && !m.text.empty()) {
            add(user_role, text(std::string_view(m.text)), false);
        } else if (m.role == role::assistant) {
            if (!m.text.empty()) add(assistant_role, text(std::string_view(m.text)), false);
            for (const tool_call& c : m.tool_calls) add(assistant_role, call(c), false);
        }
        ++i;
    }
    std::vector<grouped_turn<Part>> out;
    out.reserve(turns.size());
    for (open_turn& t : turns) {
        t.results.insert(t.results.end(), std::make_move_iterator(t.parts.begin()), std::make_move_iterator(t.parts.end()));
        out.push_back({t.role, std::move(t.results)});
    }
    return out;
}

} // namespace agentry::detail

#endif
