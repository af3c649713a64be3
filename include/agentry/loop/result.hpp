// SPDX-License-Identifier: BSL-1.0
#ifndef AGENTRY_LOOP_RESULT_HPP
#define AGENTRY_LOOP_RESULT_HPP

// What agent::run returns: the answer, why the run stopped, every tool call made, token usage.

#include <agentry/detail/chrono.hpp>
#include <agentry/outcome.hpp>
#include <agentry/policy/approval.hpp>
#include <agentry/policy/step.hpp>
#include <agentry/provider/message.hpp>
#include <agentry/tool_result.hpp>

#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace agentry {

enum class stop_reason {
    completed,                    // the model answered without calling tools
    max_turns,                    // loop_config::max_turns was reached
    timeout,                      // loop_config::max_total_time was reached
    loop_detected,                // the same calls kept repeating
    invalid_arguments_exhausted,  // a tool kept getting invalid arguments
    provider_error,               // a provider error that retries did not cure
    cancelled,                    // agent::cancel()
    refused,                      // the model refused
    callback_error,               // a callback of the application threw (agent_events, token estimator)
    approval_pending,             // calls wait for a decision (no approver): see run_result::pending, agentry::approvals
    stop_at_tool,                 // a tool of loop_config::stop_at_tools ran: its result is the answer
    token_budget,                 // loop_config::max_total_tokens was used up
    tool_call_budget,             // the model asked for more tool calls than loop_config::max_tool_calls
    stop_condition,               // the application's stop condition (agent_options::stop_condition) said stop
    invalid_output_exhausted,     // the typed answer stayed invalid after loop_config::max_output_repairs repairs
    plan_invalid,                 // a planned run: the model's plans stayed invalid past plan_options::max_repairs
    plan_failed,                  // a planned run: a step failed (plan_failure::stop, or past max_replans)
    invalid_input,                // agent::run refused its input: a context of another type, a stop tool no tool has
};

constexpr std::string_view to_string(stop_reason r) noexcept {
    switch (r) {
    case stop_reason::completed: return "completed";
    case stop_reason::max_turns: return "max_turns";
    case stop_reason::timeout: return "timeout";
    case stop_reason::loop_detected: return "loop_detected";
    case stop_reason::invalid_arguments_exhausted: return "invalid_arguments_exhausted";
    case stop_reason::provider_error: return "provider_error";
    case stop_reason::cancelled: return "cancelled";
    case stop_reason::refused: return "refused";
    case stop_reason::callback_error: return "callback_error";
    case stop_reason::approval_pending: return "approval_pending";
    case stop_reason::stop_at_tool: return "stop_at_tool";
    case stop_reason::token_budget: return "token_budget";
    case stop_reason::tool_call_budget: return "tool_call_budget";
    case stop_reason::stop_condition: return "stop_condition";
    case stop_reason::invalid_output_exhausted: return "invalid_output_exhausted";
    case stop_reason::plan_invalid: return "plan_invalid";
    case stop_reason::plan_failed: return "plan_failed";
    case stop_reason::invalid_input: return "invalid_input";
    }
    return "unknown";
}

enum class plan_step_status {
    ok,        // ran, and its tool answered
    failed,    // ran, and its tool failed (see the step's tool_status)
    skipped,   // not run: a step it depends on failed (plan_failure::skip_dependents)
    not_run,   // not run: the plan was stopped or handed back to the model before it
};

constexpr std::string_view to_string(plan_step_status s) noexcept {
    switch (s) {
    case plan_step_status::ok: return "ok";
    case plan_step_status::failed: return "failed";
    case plan_step_status::skipped: return "skipped";
    case plan_step_status::not_run: return "not_run";
    }
    return "unknown";
}

/// One step of a plan the model wrote (a planned run, agentry::planned).
struct plan_step_record {
    std::string id;
    std::string tool;
    /// The arguments as run, in RFC 8785's canonical form (as approval_request::arguments): the
    /// model's, with the inputs set (without them when not run).
    std::string arguments;
    std::vector<std::string> depends_on;
    plan_step_status status = plan_step_status::not_run;
    /// The tool's answer (tool_status::ok when not run).
    tool_status call_status = tool_status::ok;
    /// The round it ran in (from 1; the steps of one round run concurrently); 0 when not run.
    std::uint32_t round = 0;
    /// What the tool returned (capped at loop_config::max_result_size), or why it was not run.
    std::string result;
    /// When it started, from the start of the run, and how long it took.
    std::chrono::microseconds started{0};
    std::chrono::microseconds duration{0};
};

/// One plan the model handed over, in the order of the run.
struct plan_record {
    /// The model turn that wrote it.
    std::uint32_t turn = 0;
    /// The plan as the model sent it (the plan tool's arguments).
    std::string text;
    /// Why it was refused and sent back to be fixed; empty when it ran.
    std::vector<std::string> errors;
    /// Its steps, in the model's order (empty when it could not be read).
    std::vector<plan_step_record> steps;
    /// Rounds run, and the time from the first to the end of the last.
    std::uint32_t rounds = 0;
    std::chrono::microseconds wall_time{0};
};

/// When a model turn ran, from the start of the run, and how long it took (its retries and
/// their waits included).
struct turn_timing {
    std::chrono::microseconds started{0};
    std::chrono::microseconds duration{0};
    /// Transient provider errors retried in the turn.
    std::uint32_t retries = 0;
};

struct sub_run;

struct run_result {
    /// The final answer (or the stop message).
    std::string text;
    /// The run's id: 32 random hexadecimal digits, or the id of the run it goes on with (an
    /// approvals' or continuation's progress; a durable run's id in its store). Tools read it
    /// through agentry::call_info.
    std::string run_id;
    agentry::stop_reason stop = stop_reason::completed;
    /// Model turns taken (retries not counted).
    std::uint32_t turns = 0;
    std::vector<step> steps;
    /// Per turn, then in total.
    std::vector<token_usage> turn_usage;
    token_usage usage;
    /// Per turn (as turn_usage): when it ran.
    std::vector<turn_timing> turn_timings;
    std::chrono::milliseconds wall_time{0};
    /// For stop_reason::provider_error: what the provider said. Its retry_after is the wait the
    /// server asked for; past loop_config::retry.max_server_delay the run stopped without
    /// retrying, and may be continued once that wait is over.
    std::optional<provider_error> error;
    /// Messages left out of requests to fit loop_config::context_budget_tokens.
    std::size_t trimmed_messages = 0;
    /// Messages of the conversation replaced by model-written summaries
    /// (context_compression::summary), and the usage of those summary requests and of the
    /// summaries of large tool results (large_result::summary) (in `usage` too, not in
    /// `turn_usage`).
    std::size_t summarized_messages = 0;
    token_usage summary_usage;
    /// The summary request that failed, when one did: that run trimmed its requests instead.
    std::optional<provider_error> summary_error;
    /// Tool calls past loop_config::max_tool_calls_per_turn, not run (summed over turns).
    std::size_t tool_calls_over_limit = 0;
    /// For stop_reason::approval_pending: the calls waiting for a decision (agentry::approvals).
    std::vector<pending_call> pending;
    /// A planned run (agentry::planned): every plan of the run (the steps' tool calls are also in `steps`).
    std::vector<plan_record> plans;
    /// The runs of agents called as tools (loop/agent_tool.hpp), in the order they ended; their
    /// usage is in `usage` too (not in `turn_usage`).
    std::vector<sub_run> sub_runs;
};

/// The run of an agent called as a tool by this run's model (agentry::agent_tool).
struct sub_run {
    /// The id of the step (the tool call) that ran it, and the tool's name.
    std::string step_id;
    std::string tool;
    /// The sub-agent's run: its answer, stop reason, steps, usage and its own sub_runs.
    run_result result;
};

} // namespace agentry

#endif
