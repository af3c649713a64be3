// SPDX-License-Identifier: BSL-1.0
#ifndef AGENTRY_LOOP_CONFIG_HPP
#define AGENTRY_LOOP_CONFIG_HPP

// agentry::loop_config: the limits and features of an agent's loop, as a template argument
// (a structural aggregate), so that each is a constant and a feature switched off costs
// nothing.
//
//   constexpr agentry::loop_config config{.max_turns = 8, .parallel_tool_calls = true};
//   agentry::agent<config> agent{...};

#include <agentry/provider/message.hpp>

#include <cstddef>
#include <cstdint>

namespace agentry {

/// What to do when max_turns is reached while the model still calls tools.
enum class early_stopping {
    force,     // stop with a fixed message as the answer
    generate,  // ask the model once more, with tool_choice none, for its final answer
};

/// Retries of transient provider errors (429, 5xx, timeouts, resets): exponential backoff
/// from initial_backoff_ms, doubled each time up to max_backoff_ms, with jitter of +-50 %;
/// a Retry-After from the provider is honoured instead when it is longer.
struct retry_policy {
    std::uint32_t max_retries = 3;
    std::uint32_t initial_backoff_ms = 500;
    std::uint32_t max_backoff_ms = 16'000;
};

struct loop_config {
    /// Model turns before the run stops (see early_stopping).
    std::uint32_t max_turns = 10;
    /// Wall time of a whole run, in milliseconds; 0: none.
    std::uint64_t max_total_time_ms = 0;
    /// Time one tool call may take, in milliseconds; past it the model gets a tool_error and
    /// the run goes on (the call is abandoned, not stopped: C++ cannot stop a thread). 0: none.
    std::uint64_t tool_timeout_ms = 0;
    /// Run the tool calls of one turn concurrently, at most max_parallelism at a time.
    bool parallel_tool_calls = false;
    std::uint32_t max_parallelism = 4;
    /// Consecutive rounds in which a tool gets invalid arguments before the run stops.
    std::uint32_t max_invalid_rounds = 3;
    /// Loop detection over the last loop_window tool calls (name and arguments): the run stops
    /// when a block of calls repeats loop_threshold times in a row (A,A,A or A,B,A,B,A,B).
    /// loop_threshold 0: off.
    std::uint32_t loop_window = 12;
    std::uint32_t loop_threshold = 3;
    agentry::early_stopping early_stopping = agentry::early_stopping::force;
    /// tool_choice sent on every turn (automatic, none or required).
    tool_choice_kind tool_choice = tool_choice_kind::automatic;
    /// Cap on one tool result sent to the model, in bytes.
    std::size_t max_result_size = 16 * 1024;
    agentry::retry_policy retry{};
    /// Estimated tokens of history sent per turn (see agent::set_token_estimator); 0: no
    /// budget. Past it the oldest turns are left out, never splitting a tool call from its
    /// results, always keeping the system prompt and the latest user message.
    std::size_t context_budget_tokens = 0;
    /// Output token limit per model turn; 0: the provider's default.
    std::uint32_t max_output_tokens = 0;
};

} // namespace agentry

#endif
