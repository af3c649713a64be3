// SPDX-License-Identifier: BSL-1.0
#ifndef AGENTRY_LOOP_CONFIG_HPP
#define AGENTRY_LOOP_CONFIG_HPP

// agentry::loop_config: the limits and features of an agent's loop, as a template argument
// (a structural aggregate), so that each is a constant and a feature switched off costs
// nothing.
//
//   using namespace std::chrono_literals;
//   constexpr agentry::loop_config config{.max_turns = 8, .max_total_time = 2min, .parallel_tool_calls = true};
//   agentry::agent<config> agent{...};
//
// Every time is an agentry::fixed_duration (whole milliseconds, made from any std::chrono
// duration that converts to milliseconds without loss); zero means "no limit" where it says so.

#include <agentry/detail/chrono.hpp>
#include <agentry/loop/fixed_duration.hpp>
#include <agentry/loop/stop.hpp>
#include <agentry/policy/tool_policy.hpp>
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
/// from initial_backoff, doubled each time up to max_backoff, with jitter of +-50 %. A delay
/// the provider asks for (Retry-After, Gemini's retryDelay, ...) is honoured instead when it
/// is longer, up to max_server_delay included (a negative hint counts as none). A server
/// asking for a longer wait is not retried: the run stops at once with
/// stop_reason::provider_error, and run_result::error->retry_after holds the delay asked for.
/// A wait that would pass loop_config::max_total_time is not made either.
struct retry_policy {
    std::uint32_t max_retries = 3;
    fixed_duration initial_backoff = std::chrono::milliseconds(500);
    fixed_duration max_backoff = std::chrono::seconds(16);
    fixed_duration max_server_delay = std::chrono::minutes(1);
};

/// What loop_config::context_budget_tokens does with history past it (see context.hpp).
enum class context_compression {
    trim,     // leave the oldest messages out of each request; the conversation keeps them
    summary,  // replace them in the conversation by a summary the model writes (one extra request)
};

/// What happens to a tool result longer than loop_config::max_result_size (docs/large-results.md).
enum class large_result {
    cut,      // cut at the cap, ending with a marker that says so and gives the cap
    page,     // kept whole; the model gets the first page, a note, and the tool read_result for the others
    summary,  // kept whole; the model gets a summary it writes (one extra request), a note, and read_result
};

/// What a planned run (agentry::planned) does when a step of a plan fails (its tool answers with an error,
/// is denied, rate limited or times out).
enum class plan_failure {
    stop,             // run nothing more: the run stops with stop_reason::plan_failed
    skip_dependents,  // skip the steps that depend on it (directly or not), run the others, then answer
    replan,           // run nothing more of this plan; the model gets the failure and plans the rest
};

/// The AI-planned mode (agent::run(agentry::planned{...}), loop/plan.hpp).
struct plan_options {
    /// Generates the plan schema and enables planned runs (nothing is generated without it).
    bool enabled = false;
    plan_failure on_failure = plan_failure::replan;
    /// Plans refused in one run (invalid, or with arguments invalid once the inputs are set)
    /// that the model is asked to fix; one more stops the run with stop_reason::plan_invalid.
    std::uint32_t max_repairs = 3;
    /// Re-plans after failed steps (plan_failure::replan) in one run; one more failure stops
    /// the run with stop_reason::plan_failed.
    std::uint32_t max_replans = 2;
    /// Steps one plan may have; a longer plan is refused.
    std::uint32_t max_steps = 32;
    /// Inputs (results of earlier steps set into its arguments) one step may have.
    std::uint32_t max_inputs_per_step = 16;
    /// Bytes a step's arguments may reach once its inputs are set; past it the plan is sent
    /// back to the model, to point its inputs at smaller parts of the results.
    std::size_t max_arguments_size = 256 * 1024;
};

struct loop_config {
    /// Model turns before the run stops (see early_stopping).
    std::uint32_t max_turns = 10;
    /// Wall time of a whole run; 0: none.
    fixed_duration max_total_time{};
    /// Time one tool call may take; past it the model gets a tool_error and the run goes on
    /// (the call is abandoned, not stopped: C++ cannot stop a thread; the agent's destructor
    /// waits for abandoned calls to end). 0: none.
    fixed_duration tool_timeout{};
    /// Run the tool calls of one turn concurrently, at most max_parallelism at a time.
    bool parallel_tool_calls = false;
    std::uint32_t max_parallelism = 4;
    /// Tool calls run per model turn (at least 1). Past it the model gets, for its next call,
    /// an error result saying how many calls were not run and to make fewer; the calls after
    /// that one are left out of the history, which stays bounded whatever the model sends.
    std::uint32_t max_tool_calls_per_turn = 32;
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
    /// What a successful result over max_result_size becomes (large_result; docs/large-results.md).
    /// Paging and summaries keep the whole result for the run and add the tool read_result to
    /// every request; cut adds nothing.
    large_result large_results = large_result::cut;
    agentry::retry_policy retry{};
    /// Estimated tokens of history sent per turn (see agent_options::token_estimator); 0: no
    /// budget. Past it the oldest turns are left out, never splitting a tool call from its
    /// results, always keeping the system prompt and the latest user message.
    std::size_t context_budget_tokens = 0;
    /// How the history is fitted into context_budget_tokens: trimmed per request, or the oldest
    /// turns replaced by a model-written summary (falling back to trimming when that fails).
    context_compression compression = context_compression::trim;
    /// Output token limit per model turn; 0: the provider's default.
    std::uint32_t max_output_tokens = 0;
    /// The highest permission level of a tool the agent may call without approval: an agent
    /// whose registry holds a tool above it that does not need approval does not compile
    /// (a tool without a policy counts as destructive).
    permission max_permission = permission::destructive;
    /// Longest wait for a rate-limited tool (tool_policy::rate) before the call answers the
    /// model with tool_status::rate_limited; 0: answer at once.
    fixed_duration max_rate_wait{};
    /// Tools (checked against the registry at compile time) whose successful call ends the run
    /// with its result as the answer (stop_reason::stop_at_tool).
    stop_tool_names stop_at_tools{};
    /// Input and output tokens of a whole run (run_result::usage); past it no further model
    /// request is made (stop_reason::token_budget). 0: no budget.
    std::uint64_t max_total_tokens = 0;
    /// Tool calls run in a whole run; the model asking for more stops it
    /// (stop_reason::tool_call_budget). 0: no budget.
    std::uint32_t max_tool_calls = 0;
    /// For an agent with a typed output: how many times an answer that does not validate is
    /// sent back to the model with the reader's errors before the run stops with
    /// stop_reason::invalid_output_exhausted.
    std::uint32_t max_output_repairs = 2;
    /// The AI-planned mode; see plan_options.
    plan_options planning{};
};

} // namespace agentry

#endif
