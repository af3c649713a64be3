// SPDX-License-Identifier: BSL-1.0
#ifndef AGENTRY_POLICY_IMPL_TOKEN_BUCKET_IPP
#define AGENTRY_POLICY_IMPL_TOKEN_BUCKET_IPP

// The definitions of the rate limits (policy/token_bucket.hpp): included by it header-only, and by
// <agentry/src.hpp> in separate compilation (detail/separate.hpp).

#include <agentry/detail/chrono.hpp>
#include <agentry/detail/separate.hpp>
#include <agentry/policy/token_bucket.hpp>
#include <agentry/policy/tool_policy.hpp>

#include <algorithm>
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

AGENTRY_DECL token_bucket::token_bucket(rate_limit limit) noexcept
    : capacity_(static_cast<double>(limit.calls)),
      per_ns_(capacity_ / (static_cast<double>(limit.per_ms < 1 ? 1 : limit.per_ms) * 1e6)),
      level_(capacity_) {}

AGENTRY_DECL std::chrono::nanoseconds token_bucket::try_take(clock::time_point now) noexcept {
    std::lock_guard lock(mutex_);
    advance(now);
    const std::chrono::nanoseconds wait = wait_for_token();
    if (wait.count() == 0) take();
    return wait;
}

AGENTRY_DECL token_bucket::wait_pair try_take_both(token_bucket& a, token_bucket& b,
                                                   token_bucket::clock::time_point now) noexcept {
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

AGENTRY_DECL void token_bucket::advance(clock::time_point now) noexcept {
    if (started_ && now > last_) {
        const auto elapsed = std::chrono::duration_cast<std::chrono::nanoseconds>(now - last_);
        level_ = std::min(capacity_, level_ + static_cast<double>(elapsed.count()) * per_ns_);
    }
    if (!started_ || now > last_) last_ = now;
    started_ = true;
}

AGENTRY_DECL std::chrono::nanoseconds token_bucket::wait_for_token() const noexcept {
    if (level_ >= 1.0 - epsilon) return std::chrono::nanoseconds::zero();
    const double wait = std::ceil((1.0 - level_) / per_ns_);
    constexpr double longest = 9.0e18;
    return std::chrono::nanoseconds(wait >= longest ? static_cast<std::int64_t>(longest)
                                                    : static_cast<std::int64_t>(wait));
}

AGENTRY_DECL rate_limiter::rate_limiter(std::span<const tool_policy> tools, rate_limit shared)
    : tools_(tools.begin(), tools.end()), shared_limit_(shared) {
    buckets_.resize(tools_.size());
    for (std::size_t i = 0; i != tools_.size(); ++i)
        if (tools_[i].rate.limited()) buckets_[i] = std::make_unique<token_bucket>(tools_[i].rate);
    if (shared.limited()) shared_ = std::make_unique<token_bucket>(shared);
}

AGENTRY_DECL rate_limiter::verdict rate_limiter::try_take(std::size_t index, clock::time_point now) noexcept {
    token_bucket* own = index < buckets_.size() ? buckets_[index].get() : nullptr;
    if (!shared_ || index >= buckets_.size())
        return {own ? own->try_take(now) : std::chrono::nanoseconds{}, false};
    if (!own) return {shared_->try_take(now), true};
    const auto [wait_shared, wait_own] = try_take_both(*shared_, *own, now);
    if (wait_shared >= wait_own) return {wait_shared, wait_shared.count() != 0};
    return {wait_own, false};
}

AGENTRY_DECL std::string rate_limiter::refusal(std::string_view tool, std::size_t index, const verdict& refused) const {
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

AGENTRY_DECL void token_bucket::take() noexcept { level_ = std::max(0.0, level_ - 1.0); }

} // namespace agentry

#endif
