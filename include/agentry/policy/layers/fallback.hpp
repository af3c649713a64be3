// SPDX-License-Identifier: BSL-1.0
#ifndef AGENTRY_POLICY_LAYERS_FALLBACK_HPP
#define AGENTRY_POLICY_LAYERS_FALLBACK_HPP

// The fallback layer: after a tool_error (a failure after the tool's retries, or a timeout),
// the tools of its fallback chain are tried in order, each with its own rules (its rate limit
// taken without waiting), through the layers after this one, until one succeeds.

#include <agentry/detail/separate.hpp>
#include <agentry/policy/pipeline.hpp>

#include <agentry/json/error.hpp>

#include <utility>

namespace agentry {

class fallback_layer final : public call_layer {
public:
    fallback_layer(tool_rules_lookup lookup, json::read_options arguments)
        : lookup_(std::move(lookup)), arguments_(arguments) {}
    tool_result call(tool_invocation& call, const call_chain& next) const override;

private:
    tool_rules_lookup lookup_;
    json::read_options arguments_;  // how the registry reads arguments, for the adapters
};

} // namespace agentry

#if !defined(AGENTRY_SEPARATE_COMPILATION)
#include <agentry/policy/impl/layers.ipp>
#endif

#endif
