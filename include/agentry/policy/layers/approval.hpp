// SPDX-License-Identifier: BSL-1.0
#ifndef AGENTRY_POLICY_LAYERS_APPROVAL_HPP
#define AGENTRY_POLICY_LAYERS_APPROVAL_HPP

// The approval layer: a call of a tool whose policy needs approval runs only once decided:
// by the decision given to resume for it, else by the approver (one call at a time). Denied,
// it is answered with tool_status::denied; edited, its arguments are replaced (read again by
// the tool's reader, or put in canonical form for an added tool) and the model is told.

#include <agentry/detail/separate.hpp>
#include <agentry/policy/pipeline.hpp>

namespace agentry {

class approval_layer final : public call_layer {
public:
    /// `decide` is the agent's approver, read at each call (it may be set between runs).
    explicit approval_layer(const approver* decide) noexcept : decide_(decide) {}
    tool_result call(tool_invocation& call, const call_chain& next) const override;

private:
    const approver* decide_;
};

} // namespace agentry

#if !defined(AGENTRY_SEPARATE_COMPILATION)
#include <agentry/policy/impl/layers.ipp>
#endif

#endif
