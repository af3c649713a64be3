// SPDX-License-Identifier: BSL-1.0
#ifndef AGENTRY_POLICY_IMPL_LAYERS_IPP
#define AGENTRY_POLICY_IMPL_LAYERS_IPP

// The definitions of the call pipeline's layers (policy/layers/*.hpp).

#include <agentry/detail/chrono.hpp>
#include <agentry/stop_token.hpp>
#include <agentry/tool/detail/invoke.hpp>
#include <agentry/detail/separate.hpp>
#include <agentry/json/reader.hpp>
#include <agentry/policy/approval.hpp>
#include <agentry/policy/detail/callback.hpp>
#include <agentry/policy/detail/threads.hpp>
#include <agentry/policy/layers/approval.hpp>
#include <agentry/policy/layers/canonical.hpp>
#include <agentry/policy/layers/ceiling.hpp>
#include <agentry/policy/layers/fallback.hpp>
#include <agentry/policy/layers/rate_limit.hpp>
#include <agentry/policy/layers/result_cap.hpp>
#include <agentry/policy/layers/retry.hpp>
#include <agentry/policy/layers/timeout.hpp>
#include <agentry/schema/raw_json.hpp>

#include <mutex>
#include <optional>
#include <string>
#include <utility>

namespace agentry {

AGENTRY_DECL tool_result result_cap_layer::call(tool_invocation& call, const call_chain& next) const {
    tool_result out = next(call);
    if (detail::cut_text(out.content, cap_)) out.truncated = true;
    return out;
}

AGENTRY_DECL tool_result canonical_layer::call(tool_invocation& call, const call_chain& next) const {
    const bool approving = call.rules.policy && call.rules.policy->needs_approval;
    if (call.rules.typed && !approving) return next(call);
    std::optional<std::string> canonical = detail::canonical_json(call.call.arguments);
    if (!canonical) return detail::not_canonical(call.call.name, call.call.arguments);
    call.canonical = std::move(*canonical);
    return next(call);
}

AGENTRY_DECL tool_result ceiling_layer::call(tool_invocation& call, const call_chain& next) const {
    // A tool without a policy is destructive: the registry refuses one above the ceiling at compile
    // time and add_tools when it joins, so only a name no tool has comes here without one.
    const tool_policy* policy = call.rules.policy;
    if (!policy || policy->level <= ceiling_ || policy->needs_approval) return next(call);
    return detail::refused_call(tool_status::denied,
                                "agentry: " + call.call.name + " is above this agent's permission ceiling "
                                "(loop_config::max_permission) and needs no approval, so it was not run.");
}

AGENTRY_DECL tool_result rate_limit_layer::call(tool_invocation& call, const call_chain& next) const {
    rate_limiter* limits = call.rules.limits;
    if (!limits) return next(call);
    using clock = std::chrono::steady_clock;
    rate_limiter::verdict v = limits->try_take(call.rules.rate_index, clock::now());
    if (!max_wait_.is_zero()) {
        static const std::atomic<bool> never{false};
        const auto until = detail::deadline_after(clock::now(), max_wait_.get());
        while (!v && v.wait <= until - clock::now() &&
               detail::sleep_unless(std::chrono::ceil<std::chrono::milliseconds>(v.wait),
                                    call.run && call.run->cancel ? *call.run->cancel : never))
            v = limits->try_take(call.rules.rate_index, clock::now());
    }
    if (v) return next(call);
    return detail::refused_call(tool_status::rate_limited, limits->refusal(call.call.name, call.rules.rate_index, v));
}

AGENTRY_DECL tool_result approval_layer::call(tool_invocation& call, const call_chain& next) const {
    const tool_policy* policy = call.rules.policy;
    if (!policy || !policy->needs_approval) return next(call);
    approval decision;
    const auto* decided = call.run ? call.run->decided : nullptr;
    if (const auto given = decided ? decided->find(call.call.id) : decltype(decided->end()){};
        decided && given != decided->end()) {
        decision = given->second;
    } else if (decide_ && *decide_) {
        const approval_request request{call.call.id, call.call.name, call.canonical, call.model_text, policy->level};
        std::unique_lock<std::mutex> lock;
        if (call.approving) lock = std::unique_lock<std::mutex>(*call.approving);
        decision = detail::invoke_callback("approver", *decide_, request);
    } else {
        decision = approval::deny("no approver was set and no decision was given for this call");
    }
    if (call.record) call.record->decision = decision.kind;
    switch (decision.kind) {
    case approval_kind::approve: return next(call);
    case approval_kind::edit: {
        call.call.arguments = std::move(decision.arguments);
        if (!call.rules.typed) {
            std::optional<std::string> canonical = detail::canonical_json(call.call.arguments);
            if (!canonical) return detail::not_canonical(call.call.name, call.call.arguments);
            call.canonical = std::move(*canonical);
        }
        if (call.record) call.record->arguments_edited = true;
        tool_result out = next(call);
        out.content = "(Run with arguments changed by the user to " + call.call.arguments + ")\n" + out.content;
        return out;
    }
    case approval_kind::deny: break;
    }
    return detail::refused_call(tool_status::denied,
                                "The user denied this call of " + call.call.name +
                                    (decision.reason.empty() ? std::string(".") : ": " + decision.reason + ".") +
                                    " It was not run; do not make it again unchanged.");
}

AGENTRY_DECL tool_result fallback_layer::call(tool_invocation& call, const call_chain& next) const {
    tool_result out = next(call);
    const tool_policy* policy = call.rules.policy;
    if (!policy || policy->fallback.empty() || out.status != tool_status::tool_error) return out;
    std::string failures;
    for (std::size_t j = 0; j != policy->fallback.size && !(call.run && call.run->cancelled()); ++j) {
        const fallback_tool& f = policy->fallback.tools[j];
        tool_invocation backup = call;
        backup.call.name = std::string(f.name());
        backup.origin = call_origin::fallback;
        backup.rules = lookup_(backup.call.name);
        tool_result r;
        if (f.adapter && !f.adapter->convert(call.call.arguments, arguments_, backup.call.arguments)) {
            r = detail::refused_call(tool_status::invalid_arguments, "its adapter could not convert the arguments");
            if (call.record) call.record->attempts.push_back({backup.call.name, 1, r.status, std::nullopt, false, {}});
        } else if (backup.rules.limits &&
                   !backup.rules.limits->try_take(backup.rules.rate_index, std::chrono::steady_clock::now())) {
            r = detail::refused_call(tool_status::rate_limited, "it is past its rate limit");
            if (call.record) call.record->attempts.push_back({backup.call.name, 1, r.status, std::nullopt, false, {}});
        } else {
            r = next(backup);
        }
        if (r.ok()) {
            if (call.record) call.record->fallback = backup.call.name;
            r.content = "(" + call.call.name + " failed, so its fallback " + backup.call.name + " answered instead.)\n" +
                        r.content;
            return r;
        }
        failures += "\n(Its fallback " + backup.call.name + " failed too: " + r.content + ")";
    }
    out.content += failures;
    return out;
}

AGENTRY_DECL tool_result retry_layer::call(tool_invocation& call, const call_chain& next) const {
    const tool_policy* policy = call.rules.policy;
    const std::uint32_t tries = policy && policy->idempotent ? policy->retry.attempts : 1;
    using clock = std::chrono::steady_clock;
    for (std::uint32_t n = 1;; ++n) {
        call.timed_out = false;
        const auto t0 = clock::now();
        tool_result out = next(call);
        if (call.record) {
            attempt& a = call.record->attempts.emplace_back();
            a.tool = call.call.name;
            a.number = n;
            a.duration = std::chrono::duration_cast<std::chrono::microseconds>(clock::now() - t0);
            a.status = out.status;
            a.failure = out.failure;
            a.timed_out = call.timed_out;
            call.record->timed_out = call.record->timed_out || call.timed_out;
        }
        const bool cancelled = call.run && call.run->cancelled();
        const bool retry = (out.failure == failure_kind::transient || call.timed_out) && n < tries && !cancelled && [&] {
            const std::chrono::milliseconds delay = detail::tool_backoff(policy->retry, n - 1);
            if (call.run && !call.run->has_time_for(delay)) return false;
            static const std::atomic<bool> never{false};
            return detail::sleep_unless(delay, call.run && call.run->cancel ? *call.run->cancel : never);
        }();
        if (retry) continue;
        if (out.status == tool_status::tool_error && out.failure)
            out.content = std::string(to_string(*out.failure)) + ": " + out.content + " (" +
                          std::string(detail::failure_advice(*out.failure)) +
                          (n > 1 ? "; tried " + std::to_string(n) + " times)" : std::string(")"));
        return out;
    }
}

AGENTRY_DECL tool_result timeout_layer::call(tool_invocation& call, const call_chain& next) const {
    const tool_policy* policy = call.rules.policy;
    const fixed_duration timeout = policy && !policy->timeout.is_zero() ? policy->timeout : timeout_;
    if (timeout.is_zero() || !next.at_target()) return next(call);
    // The thread gets its own copy of the call, of the run id and of the tool, so that it can
    // end after the run has moved on.
    tool_invocation own = call;
    own.record = nullptr;
    own.run = nullptr;
    own.approving = nullptr;
    own.model_text = {};
    own.run_id = {};
    return detail::call_on_thread(
        [target = next.target(), own = std::move(own),
         run_id = std::string(call.run_id)](agentry::stop_token stop) mutable {
            own.stop = std::move(stop);
            own.run_id = run_id;
            return target(own);
        },
        call.call.name, call.stop, std::chrono::steady_clock::now(), timeout, running_, call.timed_out);
}

} // namespace agentry

#endif
