// SPDX-License-Identifier: BSL-1.0
#ifndef AGENTRY_MCP_DETAIL_SERVED_POLICIES_HPP
#define AGENTRY_MCP_DETAIL_SERVED_POLICIES_HPP

// The policies of a served registry's tools (with_policy<tool_policy{...}>, with_rate_limit),
// applied to their tools/call over MCP by the agent's own call layers (policy/pipeline.hpp), in
// the agent's order: rate_limit (the tool's limit and the registry's shared one; a call past
// either is refused at once, the server does not wait), fallback, retry (an idempotent tool's
// tries after transient failures and timeouts), timeout (the try runs on a thread of its own,
// abandoned at the tool's timeout, its stop token signalled). Approval is asked before them
// (call_approval.hpp); the ceiling is checked at compile time; results are cut at the registry's
// call_options::max_result_size, as without policies.
//
// A registry whose tools declare none of these has `any == false`, and the server compiles none
// of this. A try that runs on a thread of its own reports progress until its call is answered;
// it cannot ask the client (mcp::elicit, mcp::sample answer outside_request there), and what it
// logs through mcp::log is not sent.

#include <agentry/call_scope.hpp>
#include <agentry/policy/layers/fallback.hpp>
#include <agentry/policy/layers/rate_limit.hpp>
#include <agentry/policy/layers/retry.hpp>
#include <agentry/policy/layers/timeout.hpp>
#include <agentry/policy/pipeline.hpp>
#include <agentry/policy/registry_policies.hpp>
#include <agentry/policy/token_bucket.hpp>

#include <cstddef>
#include <memory>
#include <mutex>
#include <string_view>
#include <type_traits>
#include <utility>
#include <vector>

namespace agentry::mcp::detail {

/// Passes a call's progress reports on until the call is answered: a try abandoned at its
/// timeout may still report after that.
class progress_relay {
public:
    explicit progress_relay(progress_sink sink) : sink_(std::move(sink)) {}
    void operator()(const progress_update& update) {
        const std::lock_guard lock(mutex_);
        if (sink_) sink_(update);
    }
    void close() {
        const std::lock_guard lock(mutex_);
        sink_ = nullptr;
    }

private:
    std::mutex mutex_;
    progress_sink sink_;
};

template <class Registry>
class served_policies {
    using policies = registry_policies<std::remove_const_t<Registry>>;

    static constexpr bool has(bool (*pred)(const tool_policy&)) {
        if constexpr (!policies::any) {
            return false;
        } else {
            for (const tool_policy& p : policies::table)
                if (pred(p)) return true;
            return false;
        }
    }

public:
    static constexpr bool rate = policies::any_rate;
    static constexpr bool fallback = has([](const tool_policy& p) { return !p.fallback.empty(); });
    static constexpr bool retry = has([](const tool_policy& p) { return p.idempotent && p.retry.attempts > 1; });
    static constexpr bool timeout = has([](const tool_policy& p) { return !p.timeout.is_zero(); });
    /// Some layer applies to some tool.
    static constexpr bool any = rate || fallback || retry || timeout;

    served_policies() {
        if constexpr (any) {
            if constexpr (rate) limits_ = std::make_unique<rate_limiter>(policies::table, policies::registry_rate);
            if constexpr (rate) layers_.push_back(std::make_unique<rate_limit_layer>(fixed_duration{}));
            if constexpr (fallback)
                layers_.push_back(std::make_unique<fallback_layer>(
                    [this](std::string_view name) { return rules(name); }, json::read_options{}));
            layers_.push_back(std::make_unique<retry_layer>());
            if constexpr (timeout)
                layers_.push_back(std::make_unique<timeout_layer>(fixed_duration{}, agentry::detail::make_running_calls()));
        }
    }
    served_policies(const served_policies&) = delete;
    served_policies& operator=(const served_policies&) = delete;

    /// Calls `name` with `arguments` through the layers; `call(name, arguments, scope)` makes one
    /// try, and owns what it needs (it may run on a thread of its own, past this call's end).
    template <class Call>
    tool_result operator()(std::string_view name, std::string_view arguments, const call_scope& scope,
                           const Call& call) const {
        tool_invocation invocation;
        invocation.call.name = std::string(name);
        invocation.call.arguments = std::string(arguments);
        invocation.rules = rules(name);
        invocation.stop = scope.stop;
        const auto relay = std::make_shared<progress_relay>(scope.on_progress);
        const call_target target = [call, relay](const tool_invocation& c) {
            const call_scope tried{.stop = c.stop, .on_progress = [relay](const progress_update& u) { (*relay)(u); }};
            return call(std::string_view(c.call.name), std::string_view(c.call.arguments), tried);
        };
        tool_result out = call_chain(layers_, target)(invocation);
        relay->close();
        return out;
    }

private:
    tool_rules rules(std::string_view name) const {
        tool_rules out;
        out.typed = true;
        if constexpr (policies::any) {
            const std::size_t index = Registry::find(name);
            if (index >= policies::table.size()) return out;
            out.policy = &policies::table[index];
            out.limits = limits_.get();
            out.rate_index = index;
        }
        return out;
    }

    std::unique_ptr<rate_limiter> limits_;
    std::vector<std::unique_ptr<call_layer>> layers_;
};

} // namespace agentry::mcp::detail

#endif
