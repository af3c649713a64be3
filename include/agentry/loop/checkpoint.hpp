// SPDX-License-Identifier: BSL-1.0
#ifndef AGENTRY_LOOP_CHECKPOINT_HPP
#define AGENTRY_LOOP_CHECKPOINT_HPP

// agentry::checkpointer: what an agent tells a store while it runs (agent_options::checkpointer),
// so that the run can go on in another process after a crash. The agent calls it after each
// model turn, before and after each tool call, and after each turn's tool results joined the
// conversation. The durable runs of include/agentry/store/ implement it; the loop knows no
// store.
//
// A member that throws stops the run as any exception in the loop does (the agent's run()
// ends with stop_reason::provider_error and the message); with parallel tool calls the
// members about calls are called from several threads at once.

#include <agentry/loop/result.hpp>
#include <agentry/provider/message.hpp>
#include <agentry/tool_result.hpp>

#include <optional>
#include <span>

namespace agentry {

class checkpointer {
public:
    virtual ~checkpointer() = default;

    /// The run's state after a model turn (the reply is the last message) or after the turn's
    /// tool results (the last messages are the results).
    virtual void state(std::span<const message> conversation, const run_result& progress) = 0;

    /// Before `call` runs. A result returned is used as the call's result and the tool is not
    /// run (a call already finished before a crash, or one whose outcome is unknown);
    /// `idempotent` is the tool's policy flag (false for a tool without a policy).
    virtual std::optional<tool_result> before_call(const tool_call& call, bool idempotent) = 0;

    /// After `call` ran (not after a result before_call gave).
    virtual void after_call(const tool_call& call, const tool_result& result) = 0;
};

} // namespace agentry

#endif
