// SPDX-License-Identifier: BSL-1.0
#ifndef AGENTRY_POLICY_TOKEN_BUCKET_HPP
#define AGENTRY_POLICY_TOKEN_BUCKET_HPP

// agentry::token_bucket: the rate limiter behind tool_policy::rate. It holds up to `calls`
// tokens, refilled evenly at `calls` per window; a call takes one. The caller passes the time,
// so that tests drive it without a clock. Safe from several threads at once.

#include <agentry/policy/tool_policy.hpp>

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdint>
#include <mutex>

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
        if (started_ && now > last_) {
            const auto elapsed = std::chrono::duration_cast<std::chrono::nanoseconds>(now - last_);
            level_ = std::min(capacity_, level_ + static_cast<double>(elapsed.count()) * per_ns_);
        }
        if (!started_ || now > last_) last_ = now;
        started_ = true;
        // A token is there up to rounding error, so that a refill of exactly one counts.
        if (level_ >= 1.0 - epsilon) {
            level_ = std::max(0.0, level_ - 1.0);
            return std::chrono::nanoseconds::zero();
        }
        const double wait = std::ceil((1.0 - level_) / per_ns_);
        constexpr double longest = 9.0e18;
        return std::chrono::nanoseconds(wait >= longest ? static_cast<std::int64_t>(longest)
                                                        : static_cast<std::int64_t>(wait));
    }

private:
    static constexpr double epsilon = 1e-9;

    std::mutex mutex_;
    double capacity_;
    double per_ns_;  // tokens added per nanosecond
    double level_;
    clock::time_point last_{};
    bool started_ = false;
};

} // namespace agentry

#endif
