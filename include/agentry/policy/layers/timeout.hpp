// SPDX-License-Identifier: BSL-1.0
#ifndef AGENTRY_POLICY_LAYERS_TIMEOUT_HPP
#define AGENTRY_POLICY_LAYERS_TIMEOUT_HPP

// The timeout layer, the last one: a call with a timeout (its policy's, else
// loop_config::tool_timeout) runs on a thread of its own with a stop token signalled at the
// timeout; past it the call is abandoned and answered with a tool_error. The thread owns the
// call, so an abandoned call ends on its own after the run moved on.

#include <agentry/detail/separate.hpp>
#include <agentry/policy/pipeline.hpp>
#include <agentry/policy/detail/threads.hpp>

#include <memory>
#include <utility>

namespace agentry {

class timeout_layer final : public call_layer {
public:
    timeout_layer(fixed_duration timeout, std::shared_ptr<detail::running_calls> running)
        : timeout_(timeout), running_(std::move(running)) {}
    tool_result call(tool_invocation& call, const call_chain& next) const override;

private:
    fixed_duration timeout_;
    std::shared_ptr<detail::running_calls> running_;
};

} // namespace agentry

#if !defined(AGENTRY_SEPARATE_COMPILATION)
#include <agentry/policy/impl/layers.ipp>
#endif

#endif
