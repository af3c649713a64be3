// SPDX-License-Identifier: BSL-1.0
#ifndef AGENTRY_POLICY_LAYERS_RESULT_CAP_HPP
#define AGENTRY_POLICY_LAYERS_RESULT_CAP_HPP

// The result_cap layer: what the model is sent of a call, its result or the refusal of a layer
// after this one, is cut at loop_config::max_result_size (at a UTF-8 boundary, with the
// truncation marker), whatever the call's source.

#include <agentry/detail/separate.hpp>
#include <agentry/policy/pipeline.hpp>

#include <cstddef>

namespace agentry {

class result_cap_layer final : public call_layer {
public:
    explicit result_cap_layer(std::size_t cap) noexcept : cap_(cap) {}
    tool_result call(tool_invocation& call, const call_chain& next) const override;

private:
    std::size_t cap_;
};

} // namespace agentry

#if !defined(AGENTRY_SEPARATE_COMPILATION)
#include <agentry/policy/impl/layers.ipp>
#endif

#endif
