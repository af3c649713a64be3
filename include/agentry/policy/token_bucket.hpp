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

#include <agentry/detail/chrono.hpp>
#include <agentry/detail/separate.hpp>
#include <agentry/policy/tool_policy.hpp>

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
    explicit token_bucket(rate_limit limit) noexcept;

    /// Takes a token at `now`: 0 when one was there, otherwise the wait until one will be
    /// (nothing is taken then). A time before the last one seen counts as that one.
    std::chrono::nanoseconds try_take(clock::time_point now) noexcept;

    /// Takes a token from `a` and one from `b` at `now`, or none: each bucket's wait, both 0
    /// when both had a token. Safe from several threads at once, for any pair of buckets.
    using wait_pair = std::pair<std::chrono::nanoseconds, std::chrono::nanoseconds>;
    friend wait_pair try_take_both(token_bucket& a, token_bucket& b, clock::time_point now) noexcept;

private:
    static constexpr double epsilon = 1e-9;

    // Adds the tokens refilled since the last time seen (under mutex_).
    void advance(clock::time_point now) noexcept;

    // 0 when a token is there (up to rounding error, so that a refill of exactly one counts),
    // otherwise the wait until there is one.
    std::chrono::nanoseconds wait_for_token() const noexcept;

    void take() noexcept;

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
    explicit rate_limiter(std::span<const tool_policy> tools, rate_limit shared = {});

    /// Takes the tokens for a call of tool `index` at `now`: from its bucket and the shared one,
    /// or from neither. An index past the tools (an unknown tool) takes nothing and is admitted.
    verdict try_take(std::size_t index, clock::time_point now) noexcept;

    /// What the model is told of a call of `tool` (at `index`) that `refused` refused, e.g.
    /// "rate_limited: add may be called at most 2 times per 60000 ms; it was not run. Try again
    /// in 30000 ms, or go on without it."
    std::string refusal(std::string_view tool, std::size_t index, const verdict& refused) const;

private:
    std::vector<tool_policy> tools_;
    rate_limit shared_limit_;
    std::vector<std::unique_ptr<token_bucket>> buckets_;
    std::unique_ptr<token_bucket> shared_;
};

} // namespace agentry

#if !defined(AGENTRY_SEPARATE_COMPILATION)
#include <agentry/policy/impl/token_bucket.ipp>
#endif

#endif
