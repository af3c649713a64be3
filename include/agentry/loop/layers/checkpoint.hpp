// SPDX-License-Identifier: BSL-1.0
#ifndef AGENTRY_LOOP_LAYERS_CHECKPOINT_HPP
#define AGENTRY_LOOP_LAYERS_CHECKPOINT_HPP

// The checkpoint layer, the first of the call pipeline (policy/pipeline.hpp) when the agent has
// a checkpointer: before a call, a result the checkpointer kept (a call that finished before a
// crash, or one whose outcome is unknown) answers in place of the tool; after a call that ran,
// its result is handed to the checkpointer.

#include <agentry/loop/checkpoint.hpp>
#include <agentry/policy/pipeline.hpp>

namespace agentry {

class checkpoint_layer final : public call_layer {
public:
    /// `keeper` is read at each call (a durable run sets its own for the run).
    explicit checkpoint_layer(checkpointer* const* keeper) noexcept : keeper_(keeper) {}

    tool_result call(tool_invocation& call, const call_chain& next) const override {
        checkpointer* keeper = *keeper_;
        if (!keeper) return next(call);
        const bool idempotent = call.rules.policy && call.rules.policy->idempotent;
        if (std::optional<tool_result> kept = keeper->before_call(call.call, idempotent)) return std::move(*kept);
        const tool_call asked = call.call;  // as the model made it, whatever a layer changes
        tool_result out = next(call);
        keeper->after_call(asked, out);
        return out;
    }

private:
    checkpointer* const* keeper_;
};

} // namespace agentry

#endif
