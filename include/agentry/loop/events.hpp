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

/// Callbacks during a run; each may be empty. With on_text set, model turns are streamed.
struct agent_events {
    std::function<void(std::string_view text)> on_text;
    std::function<void(const tool_call& call)> on_tool_start;
    std::function<void(const step& done)> on_tool_end;
    /// After each model turn: its number and token usage.
    std::function<void(std::uint32_t turn, const token_usage& usage)> on_turn_end;
    /// Before a retry of a transient provider error: the error and the delay.
    std::function<void(const provider_error& error, std::chrono::milliseconds delay)> on_retry;
};

} // namespace agentry

#endif
