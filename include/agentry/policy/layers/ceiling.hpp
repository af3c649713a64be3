// SPDX-License-Identifier: BSL-1.0
#ifndef AGENTRY_POLICY_LAYERS_CEILING_HPP
#define AGENTRY_POLICY_LAYERS_CEILING_HPP

// The ceiling layer: a tool whose permission level is above loop_config::max_permission runs
// only with approval. The registry's tools are checked at compile time and added tools when
// they join; this refuses any other way in.

#include <agentry/detail/separate.hpp>
#include <agentry/policy/pipeline.hpp>

namespace agentry {

class ceiling_layer final : public call_layer {
public:
    explicit ceiling_layer(permission ceiling) noexcept : ceiling_(ceiling) {}
    tool_result call(tool_invocation& call, const call_chain& next) const override;

private:
    permission ceiling_;
};

} // namespace agentry

#if !defined(AGENTRY_SEPARATE_COMPILATION)
#include <agentry/policy/impl/layers.ipp>
#endif

#endif
