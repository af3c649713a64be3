// SPDX-License-Identifier: BSL-1.0
#ifndef AGENTRY_LOOP_OPTIONS_HPP
#define AGENTRY_LOOP_OPTIONS_HPP

// What an agent is given at run time: agentry::agent_options, once, at construction, and what
// each run starts from, the one argument of agent::run:
//
//   agentry::agent<config> agent{model, tools, {.system_prompt = "You book tables.", .approver = ask_user}};
//   agent.run("A table for two in Lyon.");                    // a prompt
//   agent.run(agentry::approvals{{{id, canonical, approval::allow}}});  // decisions on paused calls
//   agent.run(agentry::continuation{progress});               // a restored conversation, on
//   agent.run(agentry::planned{"Compare Paris and Rome."});   // a planned run (loop_config::planning)
//
// The limits known when the program is written stay in loop_config (loop/config.hpp).

#include <agentry/loop/checkpoint.hpp>
#include <agentry/loop/context.hpp>
#include <agentry/loop/events.hpp>
#include <agentry/loop/result.hpp>
#include <agentry/loop/stop.hpp>
#include <agentry/policy/approval.hpp>
#include <agentry/provider/provider.hpp>
#include <agentry/select/catalog.hpp>
#include <agentry/telemetry/observer.hpp>

#include <cstdint>
#include <string>
#include <vector>

namespace agentry {

/// An agent's run-time settings; every member may be left out.
struct agent_options {
    /// The conversation's first message.
    std::string system_prompt{};
    /// The callbacks of every run; with on_text or on_tool_arguments set, model turns are streamed.
    agent_events events{};
    /// Decides on the calls of tools whose policy needs approval, before they run (one at a
    /// time, also with parallel tool calls). Without one the run pauses for decisions
    /// (stop_reason::approval_pending; go on with run(agentry::approvals{...})). An exception
    /// from it stops the run with stop_reason::callback_error.
    agentry::approver approver{};
    /// Called with each request and response, API keys redacted.
    agentry::trace_hook trace{};
    /// Told the run's state after each model turn and each turn's results, and each tool call
    /// before and after it runs (loop/checkpoint.hpp); it must outlive the agent.
    agentry::checkpointer* checkpointer = nullptr;
    /// Checked before each model request; true stops the run with stop_reason::stop_condition,
    /// a throw with stop_reason::callback_error.
    agentry::stop_condition stop_condition{};
    /// A token budget (input + output) per run beside loop_config::max_total_tokens (the smaller
    /// stops the run, with stop_reason::token_budget); 0: none.
    std::uint64_t max_total_tokens = 0;
    /// Tools whose result is the answer, beside loop_config::stop_at_tools: names of the
    /// registry's tools or of tools added by add_tools. A run refuses to start (with
    /// stop_reason::invalid_input) while one names no tool of the agent.
    std::vector<std::string> stop_at_tools{};
    /// The token estimate used for loop_config::context_budget_tokens; empty: about 4 bytes a
    /// token (loop/context.hpp).
    agentry::token_estimator token_estimator{};
    /// Told of every run, model turn, provider request, plan and tool call (agentry::metrics,
    /// agentry::tracer, an observer_list of both: telemetry/observer.hpp); it must outlive the
    /// agent. Null: none, and nothing is measured.
    agentry::observer* observer = nullptr;
    /// The agent's name in traces and metrics (gen_ai.agent.name).
    std::string name = "agent";
    /// Chooses the tools sent on each model turn (select/: agentry::top_k of a selector such as
    /// agentry::bm25, or any function); empty: every tool on every turn. The payload of a choice
    /// is joined from constant fragments in catalog order; the dialect's limit on the tools of one
    /// request applies to each choice (the first chosen are kept). An exception stops the run
    /// with stop_reason::callback_error.
    agentry::tool_chooser select_tools{};
};

/// A run's input: decisions on the calls a run stopped for (stop_reason::approval_pending),
/// one per pending call, each bound to the call's canonical arguments (the approver, when one
/// is set, decides on calls left out). The run runs that turn's calls with them, then loops.
/// Refused, running nothing and stopping with approval_pending again: a decision for a call
/// that is not pending or for other arguments, two for one call, a call left without one.
struct approvals {
    std::vector<approval_decision> decisions{};
    /// The run so far when it stopped in another agent or process (a durable run): the limits
    /// count on from it. Empty: from nothing.
    run_result progress{};
};

/// A run's input: go on with the conversation restore() gave, without a new user message. The
/// calls of its last turn that have no results run first; else the model is asked. The limits
/// count on from `progress` (the run so far). A conversation ending with the model's answer:
/// that answer.
struct continuation {
    run_result progress{};
};

/// A run's input: the AI-planned mode (loop_config::planning, loop/plan.hpp). The model writes
/// a plan of tool calls with dependencies, the agent runs it as a graph and the model answers
/// from the results; the result's `plans` holds each plan with its steps and timings.
struct planned {
    std::string prompt{};
};

} // namespace agentry

#endif
