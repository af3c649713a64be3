// SPDX-License-Identifier: BSL-1.0
#ifndef AGENTRY_PROVIDER_DETAIL_TOOL_CALLS_HPP
#define AGENTRY_PROVIDER_DETAIL_TOOL_CALLS_HPP

// The one rule every provider applies to the tool calls of a turn, read whole or from a
// stream, once the provider's own wire checks are done:
//   - a call without a name (absent or empty) makes the turn malformed: nothing could run or
//     answer it, and the reply could not be sent back;
//   - an absent or empty id becomes "call_<i>", i the call's position in the turn;
//   - absent, null or blank arguments become "{}";
//   - any other arguments are kept as the model wrote them (a JSON string's contents, other
//     JSON as written): text that is not a JSON object is the model's mistake, which the
//     registry answers with an error result the model can act on.
// A tool call whose wire shape is wrong (a call that is not an object, a name that is not a
// string) is already unreadable to the provider's reader: malformed too.

#include <agentry/provider/message.hpp>

#include <cstddef>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace agentry::detail {

/// Applies the rule to `calls`; the message of a malformed turn, or empty. `source` names what
/// was read: "OpenAI response", "anthropic stream", ...
inline std::optional<std::string> settle_tool_calls(std::string_view source, std::vector<tool_call>& calls) {
    for (std::size_t i = 0; i != calls.size(); ++i) {
        tool_call& call = calls[i];
        if (call.name.empty())
            return "agentry: " + std::string(source) + ": tool call " + std::to_string(i) +
                   (call.id.empty() ? std::string{} : " (id " + call.id + ")") +
                   " has no function name; a call must name its tool";
        if (call.id.empty()) call.id = "call_" + std::to_string(i);
        if (call.arguments.find_first_not_of(" \t\r\n") == std::string::npos) call.arguments = "{}";
    }
    return std::nullopt;
}

} // namespace agentry::detail

#endif
