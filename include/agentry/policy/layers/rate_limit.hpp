// SPDX-License-Identifier: BSL-1.0
#ifndef AGENTRY_POLICY_LAYERS_RATE_LIMIT_HPP
#define AGENTRY_POLICY_LAYERS_RATE_LIMIT_HPP

// The rate_limit layer: a call takes a token of its tool's bucket and the registry's shared
// one, waiting for them up to loop_config::max_rate_wait (0: not at all); a call that gets none
// is answered with tool_status::rate_limited, saying when to try again.

#include <agentry/detail/separate.hpp>
#include <agentry/policy/pipeline.hpp>

namespace agentry {

class rate_limit_layer final : public call_layer {
public:
    explicit rate_limit_layer(fixed_duration max_wait) noexcept : max_wait_(max_wait) {}
    tool_result call(tool_invocation& call, const call_chain& next) const override;

private:
    fixed_duration max_wait_;
};

} // namespace agentry

#if !defined(AGENTRY_SEPARATE_COMPILATION)
#include <agentry/policy/impl/layers.ipp>
#endif

#endif
