// SPDX-License-Identifier: BSL-1.0
#ifndef AGENTRY_POLICY_LAYERS_CANONICAL_HPP
#define AGENTRY_POLICY_LAYERS_CANONICAL_HPP

// The canonical layer: the arguments are read by the reader's rules (one JSON value, no
// duplicate member, valid UTF-8, within the size and depth limits) and put in canonical form
// for the layers after it. A call whose arguments cannot be is refused with the reader's
// errors, never passed on: approval, checkpoints and an added tool's own parser see only
// arguments that read one way. A registry tool that needs no approval is passed on as it is:
// its typed reader applies the same rules, with its repairs.

#include <agentry/detail/separate.hpp>
#include <agentry/policy/pipeline.hpp>

namespace agentry {

class canonical_layer final : public call_layer {
public:
    tool_result call(tool_invocation& call, const call_chain& next) const override;
};

} // namespace agentry

#if !defined(AGENTRY_SEPARATE_COMPILATION)
#include <agentry/policy/impl/layers.ipp>
#endif

#endif
