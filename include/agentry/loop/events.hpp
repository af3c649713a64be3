// SPDX-License-Identifier: BSL-1.0
#ifndef AGENTRY_LOOP_EVENTS_HPP
#define AGENTRY_LOOP_EVENTS_HPP

// agentry::agent_events: the callbacks of a run, and how the loop calls them.

#include <agentry/detail/chrono.hpp>
#include <agentry/loop/result.hpp>
#include <agentry/policy/detail/callback.hpp>
#include <agentry/provider/message.hpp>

#include <cstdint>
#include <functional>
#include <string>
#include <string_view>

namespace agentry {

/// Callbacks during a run; each may be empty. With on_text or on_tool_arguments set, model
/// turns are streamed.
struct agent_events {
    std::function<void(std::string_view text)> on_text;
    std::function<void(const tool_call& call)> on_tool_start;
    std::function<void(const step& done)> on_tool_end;
    /// After each model turn: its number and token usage.
    std::function<void(std::uint32_t turn, const token_usage& usage)> on_turn_end;
    /// Before a retry of a transient provider error: the error and the delay.
    std::function<void(const provider_error& error, std::chrono::milliseconds delay)> on_retry;
    /// A piece of a tool call's arguments as the model writes them (stream_events::on_tool_arguments):
    /// the call's id and the piece, which may not be JSON on its own; the pieces of one call
    /// joined are the arguments the call is run with.
    std::function<void(std::string_view id, std::string_view piece)> on_tool_arguments;
};

} // namespace agentry

#endif
