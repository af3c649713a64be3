// SPDX-License-Identifier: BSL-1.0
#ifndef AGENTRY_LOOP_IMPL_ENGINE_CALLS_IPP
#define AGENTRY_LOOP_IMPL_ENGINE_CALLS_IPP

// The engine's tool calls (loop/engine.hpp): the call pipeline it builds, and the calls of a
// turn or of a plan's round run through it, one at a time or in parallel.

#include <agentry/detail/separate.hpp>
#include <agentry/loop/context.hpp>
#include <agentry/loop/engine.hpp>
#include <agentry/loop/large_results.hpp>
#include <agentry/loop/summary.hpp>
#include <agentry/loop/layers/checkpoint.hpp>
#include <agentry/policy/layers/approval.hpp>
#include <agentry/policy/layers/canonical.hpp>
#include <agentry/policy/layers/ceiling.hpp>
#include <agentry/policy/layers/fallback.hpp>
#include <agentry/policy/layers/rate_limit.hpp>
#include <agentry/policy/layers/result_cap.hpp>
#include <agentry/policy/layers/retry.hpp>
#include <agentry/policy/layers/timeout.hpp>

#include <algorithm>
#include <atomic>
#include <memory>
#include <mutex>
#include <utility>
#include <vector>

namespace agentry::detail {

AGENTRY_DECL tool_rules engine::rules_of(std::string_view name) const {
    tool_rules rules;
    if (deps_.kept && name == read_result_tool) {  // the built-in reader of kept results
        static const tool_policy reader = [] {
            tool_policy p;
            p.level = permission::read_only;
            p.idempotent = true;
            return p;
        }();
        rules.policy = &reader;
        rules.typed = true;
        return rules;
    }
    // add_tools refuses a name the registry has: a registry name is a registry tool.
    rules.typed = deps_.dynamic.has_static && deps_.dynamic.has_static(name);
    const policy_state* policy = deps_.policy.get();
    if (!policy) return rules;
    const std::size_t index = policy->find(name);
    if (index != policy->table.size()) {
        rules.policy = &policy->table[index];
        rules.limits = policy->limits.get();
        rules.rate_index = index;
    } else if (const dynamic_policy* added = policy->dynamic_for(name)) {
        rules.policy = &added->policy;
        rules.limits = added->limits.get();  // one bucket of its own, index 0
    }
    return rules;
}

AGENTRY_DECL void engine::build_pipeline() {
    const policy_state* policy = deps_.policy.get();
    const engine_features& f = deps_.features;
    const auto any = [&](auto&& pred) {
        if (!policy) return false;
        if (std::any_of(policy->table.begin(), policy->table.end(), pred)) return true;
        return policy->dynamic && std::any_of(policy->dynamic->policies.begin(), policy->dynamic->policies.end(),
                                              [&](const auto& p) { return pred(p.second.policy); });
    };
    const bool rate = policy && (policy->limits || (policy->dynamic && std::any_of(policy->dynamic->policies.begin(),
                                                                                    policy->dynamic->policies.end(),
                                                                                    [](const auto& p) {
                                                                                        return p.second.limits != nullptr;
                                                                                    })));
    const bool approving = policy && policy->any_approval;
    std::vector<std::unique_ptr<call_layer>> layers;
    const auto add = [&](layer_maker make, bool needed) {
        if (make && needed) layers.push_back(make(*this));
    };
    add(f.large_results, deps_.kept != nullptr);
    add(f.checkpoint, true);
    if (!f.large_results || !deps_.kept) layers.push_back(std::make_unique<result_cap_layer>(config_.max_result_size));
    add(f.canonical, approving || dynamic_ != nullptr);
    add(f.ceiling, config_.max_permission != permission::destructive);
    add(f.rate_limit, rate);
    add(f.approval, approving);
    add(f.fallback, any([](const tool_policy& p) { return !p.fallback.empty(); }));
    layers.push_back(std::make_unique<retry_layer>());
    add(f.timeout, !config_.tool_timeout.is_zero() || any([](const tool_policy& p) { return !p.timeout.is_zero(); }));
    // The tool owns what it needs: a call abandoned at its timeout may end after the run.
    call_target target = [fn = deps_.call, nested = nested_](const tool_invocation& call) {
        const nested_call here{nested, call.call.id, call.call.name, call.trace};
        const nested_call_guard in_call(&here);
        call_scope scope;
        scope.stop = call.stop;
        scope.run_id = call.run_id;
        scope.call_id = call.call.id;
        scope.trace = call.trace;
        return fn(call.call.name, call.call.arguments, scope, call.context);
    };
    pipeline_ = call_pipeline(std::move(layers), std::move(target));
}

AGENTRY_DECL void engine::enable(const engine_features& more) {
    engine_features& f = deps_.features;
    const auto take = [](auto& mine, auto theirs) {
        if (theirs) mine = theirs;
    };
    take(f.checkpoint, more.checkpoint);
    take(f.canonical, more.canonical);
    take(f.ceiling, more.ceiling);
    take(f.rate_limit, more.rate_limit);
    take(f.approval, more.approval);
    take(f.fallback, more.fallback);
    take(f.timeout, more.timeout);
    take(f.canonical_text, more.canonical_text);
    take(f.fit, more.fit);
    take(f.compress, more.compress);
    take(f.run_workers, more.run_workers);
    build_pipeline();
}

AGENTRY_DECL engine_features engine_features::all() {
    return {nullptr,                   &engine_parts::checkpoint, &engine_parts::canonical, &engine_parts::ceiling,
            &engine_parts::rate_limit, &engine_parts::approval,  &engine_parts::fallback,
            &engine_parts::timeout,    &canonical_json,          &engine_parts::fit,
            &engine_parts::compress,   &agentry::detail::run_workers};
}

namespace engine_parts {

AGENTRY_DECL std::unique_ptr<call_layer> large_results(engine& e) {
    const run_deps& d = e.deps();
    large_result_layer::summarise_fn summarise;
    if (d.limits.large_results == large_result::summary)
        summarise = [turn = d.turn, runs = e.nested_](const chat_request& request) {
            turn_result r = turn(request, stream_events{}, trace_hook{});
            if (r.ok()) runs->add_summary(r.value->usage);  // counted in the run's usage and budgets
            return r;
        };
    return std::make_unique<large_result_layer>(d.kept, d.limits.max_result_size, std::move(summarise));
}
AGENTRY_DECL std::unique_ptr<call_layer> checkpoint(engine& e) {
    return std::make_unique<checkpoint_layer>(e.checkpointer_of());
}
AGENTRY_DECL std::unique_ptr<call_layer> canonical(engine&) { return std::make_unique<canonical_layer>(); }
AGENTRY_DECL std::unique_ptr<call_layer> ceiling(engine& e) {
    return std::make_unique<ceiling_layer>(e.limits().max_permission);
}
AGENTRY_DECL std::unique_ptr<call_layer> rate_limit(engine& e) {
    return std::make_unique<rate_limit_layer>(e.limits().max_rate_wait);
}
AGENTRY_DECL std::unique_ptr<call_layer> approval(engine& e) { return std::make_unique<approval_layer>(e.approver_of()); }
AGENTRY_DECL std::unique_ptr<call_layer> fallback(engine& e) {
    const policy_state* policy = e.deps().policy.get();
    return std::make_unique<fallback_layer>([&e](std::string_view name) { return e.rules(name); },
                                            policy ? policy->arguments : json::read_options{});
}
AGENTRY_DECL std::unique_ptr<call_layer> timeout(engine& e) {
    return std::make_unique<timeout_layer>(e.limits().tool_timeout, e.running());
}

AGENTRY_DECL std::span<const message> fit(const engine& e, run_result& result, std::vector<message>& trimmed) {
    const token_estimator estimate = [&e](const message& m) { return invoke_callback("token estimator", e.estimator(), m); };
    trimmed_history t = trim_history(e.conversation(), e.limits().context_budget_tokens, estimate);
    if (t.removed != 0) {
        result.trimmed_messages = std::max(result.trimmed_messages, t.removed);
        const std::string note = "(" + std::to_string(t.removed) +
                                 " earlier messages of this conversation were left out to fit the context budget.)";
        if (!t.messages.empty() && t.messages.front().role == role::system)
            t.messages.front().text += "\n\n" + note;
        else
            t.messages.insert(t.messages.begin(), message::system(note));
    }
    trimmed = std::move(t.messages);
    return trimmed;
}

AGENTRY_DECL void compress(engine& e, run_result& result, const agent_events& events,
                           std::chrono::steady_clock::time_point started) {
    const token_estimator estimate = [&e](const message& m) {
        return invoke_callback("token estimator", e.estimator(), m);
    };
    const auto ask_summary = [&](chat_request& request) {
        request.cancel = &e.cancel_;
        std::string why;
        return e.ask(request, events, started, why);
    };
    if (compress_history(e.history_, e.limits().context_budget_tokens, estimate, result, ask_summary) &&
        e.checkpoint_)
        e.checkpoint_->state(e.history_, result);
}

} // namespace engine_parts

AGENTRY_DECL engine::calls_done engine::run_calls(std::span<const tool_call> calls, std::uint32_t turn,
                                                  std::string_view model_text, const agent_events& events,
                                                  const decided_calls* decided, call_origin origin) {
    calls_done out;
    out.done.resize(calls.size());
    std::atomic<bool> failed{false};
    std::mutex mutex;      // for the events and `failure`
    std::mutex approving;  // the approver is asked one call at a time
    const call_run run{&cancel_, run_token_, started_, config_.max_total_time, decided};
    const auto one = [&](std::size_t i, bool parallel) {
        try {
            if (events.on_tool_start) {
                std::unique_lock lock(mutex, std::defer_lock);
                if (parallel) lock.lock();
                invoke_callback("on_tool_start", events.on_tool_start, calls[i]);
            }
            std::pair<step, tool_result>& o = out.done[i].emplace();
            step& s = o.first;
            s.turn = turn;
            s.id = calls[i].id;
            s.tool = calls[i].name;
            tool_invocation invocation{calls[i], origin, rules_of(calls[i].name), model_text, {}, run_token_, false,
                                       parallel ? &approving : nullptr, &run, &s};
            invocation.context = ctx_;
            invocation.run_id = run_id_;
            const auto t0 = clock::now();
            s.started = std::chrono::duration_cast<std::chrono::microseconds>(t0 - started_);
            call_event seen;
            span_begun span;
            if (observer_) {
                seen.tool = calls[i].name;
                seen.call_id = calls[i].id;
                seen.origin = origin;
                seen.arguments = calls[i].arguments;
                if (origin == call_origin::plan) {  // its id is the plan call's id, '/', the step's
                    const std::string_view id = calls[i].id;
                    seen.plan_step = id.substr(id.rfind('/') + 1);
                    seen.round = plan_round_;
                }
                span = observer_->begin_call(call_parent_.valid() ? &call_parent_ : nullptr, seen, t0);
                invocation.trace = span.context;
            }
            try {
                o.second = pipeline_(invocation);
            } catch (const callback_error&) {
                throw;
            } catch (const std::exception& e) {
                o.second =
                    refused_call(tool_status::tool_error, "agentry: " + calls[i].name + " could not be run: " + e.what());
            }
            const auto t1 = clock::now();
            s.arguments = invocation.call.arguments;
            if (!s.attempts.empty()) s.duration = std::chrono::duration_cast<std::chrono::microseconds>(t1 - t0);
            s.status = o.second.status;
            s.result_excerpt = excerpt(o.second.content);
            s.repairs = o.second.repairs;
            s.failure = o.second.failure;
            if (observer_) observer_->end_call(span, seen, {&s, o.second.content, t1});
            if (events.on_tool_end) {
                std::unique_lock lock(mutex, std::defer_lock);
                if (parallel) lock.lock();
                invoke_callback("on_tool_end", events.on_tool_end, std::as_const(s));
            }
        } catch (...) {
            std::lock_guard lock(mutex);
            if (!out.failure) out.failure = std::current_exception();
            failed.store(true);
        }
    };
    std::size_t threads = 1;
    if (config_.parallel_tool_calls && deps_.features.run_workers)
        threads = std::min<std::size_t>(config_.max_parallelism, calls.size());
    if (threads <= 1) {
        for (std::size_t i = 0; i != calls.size() && !cancel_.load() && !failed.load(); ++i) one(i, false);
        return out;
    }
    std::atomic<std::size_t> next{0};
    deps_.features.run_workers(threads, [&] {
        for (std::size_t i; !cancel_.load() && !failed.load() && (i = next.fetch_add(1)) < calls.size();) one(i, true);
    });
    return out;
}

} // namespace agentry::detail

#endif
