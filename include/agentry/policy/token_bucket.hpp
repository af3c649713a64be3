// SPDX-License-Identifier: BSL-1.0
#ifndef AGENTRY_POLICY_TOKEN_BUCKET_HPP
#define AGENTRY_POLICY_TOKEN_BUCKET_HPP

// agentry::token_bucket: the rate limiter behind tool_policy::rate. It holds up to `calls`
// tokens, refilled evenly at `calls` per window; a call takes one. The caller passes the time,
// so that tests drive it without a clock. Safe from several threads at once.
//
// agentry::rate_limiter: the buckets of a registry, one per tool with a rate limit and one
// shared by all its tools when the registry has its own (with_rate_limit); a call takes a token
// from its tool's bucket and from the shared one, or from neither.

#include <agentry/policy/tool_policy.hpp>

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdint>
#include <memory>
#include <mutex>
#include <span>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace agentry {

class token_bucket {
public:
    using clock = std::chrono::steady_clock;

    /// A full bucket for `limit` (limit.calls must not be 0).
    explicit token_bucket(rate_limit limit) noexcept
        : capacity_(static_cast<double>(limit.calls)),
          per_ns_(capacity_ / (static_cast<double>(limit.per_ms < 1 ? 1 : limit.per_ms) * 1e6)),
          level_(capacity_) {}

    /// Takes a token at `now`: 0 when one was there, otherwise the wait until one will be
    /// (nothing is taken then). A time before the last one seen counts as that one.
    std::chrono::nanoseconds try_take(clock::time_point now) noexcept {
        std::lock_guard lock(mutex_);
        advance(now);
        const std::chrono::nanoseconds wait = wait_for_token();
        if (wait.count() == 0) take();
        return wait;
    }

    /// Takes a token from `a` and one from `b` at `now`, or none: each bucket's wait, both 0
    /// when both had a token. Safe from several threads at once, for any pair of buckets.
    using wait_pair = std::pair<std::chrono::nanoseconds, std::chrono::nanoseconds>;
    friend wait_pair try_take_both(token_bucket& a, token_bucket& b, clock::time_point now) noexcept {
        if (&a == &b) {
            const std::chrono::nanoseconds wait = a.try_take(now);
            return {wait, wait};
        }
        std::scoped_lock lock(a.mutex_, b.mutex_);
        a.advance(now);
        b.advance(now);
        const std::chrono::nanoseconds wait_a = a.wait_for_token();
        const std::chrono::nanoseconds wait_b = b.wait_for_token();
        if (wait_a.count() == 0 && wait_b.count() == 0) {
            a.take();
            b.take();
        }
        return {wait_a, wait_b};
    }

private:
    static constexpr double epsilon = 1e-9;

    // Adds the tokens refilled since the last time seen (under mutex_).
    void advance(clock::time_point now) noexcept {
        if (started_ && now > last_) {
            const auto elapsed = std::chrono::duration_cast<std::chrono::nanoseconds>(now - last_);
            level_ = std::min(capacity_, level_ + static_cast<double>(elapsed.count()) * per_ns_);
        }
        if (!started_ || now > last_) last_ = now;
        started_ = true;
    }

    // 0 when a token is there (up to rounding error, so that a refill of exactly one counts),
    // otherwise the wait until there is one.
    std::chrono::nanoseconds wait_for_token() const noexcept {
        if (level_ >= 1.0 - epsilon) return std::chrono::nanoseconds::zero();
        const double wait = std::ceil((1.0 - level_) / per_ns_);
        constexpr double longest = 9.0e18;
        return std::chrono::nanoseconds(wait >= longest ? static_cast<std::int64_t>(longest)
                                                        : static_cast<std::int64_t>(wait));
    }

    void take() noexcept { level_ = std::max(0.0, level_ - 1.0); }

    std::mutex mutex_;
    double capacity_;
    double per_ns_;  // tokens added per nanosecond
    double level_;
    clock::time_point last_{};
    bool started_ = false;
};

/// The rate limits of a registry: its tools' and its own. Safe from several threads at once.
class rate_limiter {
public:
    using clock = token_bucket::clock;

    /// What try_take answers: admitted, or the wait and the limit that refused.
    struct verdict {
        /// 0 when the call was admitted; otherwise the wait until it would be.
        std::chrono::nanoseconds wait{};
        /// The registry's shared limit refused (or both did, the shared one for longer).
        bool shared = false;

        explicit operator bool() const noexcept { return wait.count() == 0; }
    };

    /// Buckets for `tools` (a registry's policies, in registry order, as
    /// registry_policies<R>::table) and for `shared`, a limit on all their calls together.
    explicit rate_limiter(std::span<const tool_policy> tools, rate_limit shared = {})
        : tools_(tools.begin(), tools.end()), shared_limit_(shared) {
        buckets_.resize(tools_.size());
        for (std::size_t i = 0; i != tools_.size(); ++i)
            if (tools_[i].rate.limited()) buckets_[i] = std::make_unique<token_bucket>(tools_[i].rate);
        if (shared.limited()) shared_ = std::make_unique<token_bucket>(shared);
    }

    /// Takes the tokens for a call of tool `index` at `now`: from its bucket and the shared one,
    /// or from neither. An index past the tools (an unknown tool) takes nothing and is admitted.
    verdict try_take(std::size_t index, clock::time_point now) noexcept {
        token_bucket* own = index < buckets_.size() ? buckets_[index].get() : nullptr;
        if (!shared_ || index >= buckets_.size())
            return {own ? own->try_take(now) : std::chrono::nanoseconds{}, false};
        if (!own) return {shared_->try_take(now), true};
        const auto [wait_shared, wait_own] = try_take_both(*shared_, *own, now);
        if (wait_shared >= wait_own) return {wait_shared, wait_shared.count() != 0};
        return {wait_own, false};
    }

    /// What the model is told of a call of `tool` (at `index`) that `refused` refused, e.g.
    /// "rate_limited: add may be called at most 2 times per 60000 ms; it was not run. Try again
    /// in 30000 ms, or go on without it."
    std::string refusal(std::string_view tool, std::size_t index, const verdict& refused) const {
        const auto ms = std::chrono::ceil<std::chrono::milliseconds>(refused.wait).count();
        std::string text = "rate_limited: ";
        if (refused.shared || index >= tools_.size()) {
            text += "the tools here may be called at most " + std::to_string(shared_limit_.calls) + " times per " +
                    std::to_string(shared_limit_.per_ms) + " ms in all; ";
            text += tool;
            text += " was not run.";
        } else {
            text += tool;
            text += " may be called at most " + std::to_string(tools_[index].rate.calls) + " times per " +
                    std::to_string(tools_[index].rate.per_ms) + " ms; it was not run.";
        }
        text += " Try again in " + std::to_string(ms) + " ms, or go on without it.";
        return text;
    }

private:
    std::vector<tool_policy> tools_;
    rate_limit shared_limit_;
    std::vector<std::unique_ptr<token_bucket>> buckets_;
    std::unique_ptr<token_bucket> shared_;
};

} // namespace agentry

#endif
