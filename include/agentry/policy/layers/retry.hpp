// SPDX-License-Identifier: BSL-1.0
#ifndef AGENTRY_POLICY_LAYERS_RETRY_HPP
#define AGENTRY_POLICY_LAYERS_RETRY_HPP

// The retry layer: each try of the call is recorded (step::attempts); a transient failure or a
// timeout of an idempotent tool is tried again after a backoff, while the run has time and
// is not cancelled. A failure's kind is spelled out for the model.

#include <agentry/detail/separate.hpp>
#include <agentry/policy/pipeline.hpp>

namespace agentry {

class retry_layer final : public call_layer {
public:
    tool_result call(tool_invocation& call, const call_chain& next) const override;
};

} // namespace agentry

#if !defined(AGENTRY_SEPARATE_COMPILATION)
#include <agentry/policy/impl/layers.ipp>
#endif

#endif
