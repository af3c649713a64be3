// SPDX-License-Identifier: BSL-1.0
#ifndef AGENTRY_POLICY_FIXED_DURATION_HPP
#define AGENTRY_POLICY_FIXED_DURATION_HPP

// agentry::fixed_duration: a whole number of milliseconds that can be a member of a template
// argument, a loop_config or a tool_policy (std::chrono::duration cannot: its count is
// private). It is made from any std::chrono duration that converts to milliseconds without
// loss, so that a loop_config reads `.max_total_time = std::chrono::seconds(30)`, and it gives
// back std::chrono::milliseconds.
//
// The arithmetic on durations that the loop does at run time saturates instead of
// overflowing: see detail::deadline_after and detail::elapsed_ms.

#include <agentry/detail/chrono.hpp>

#include <concepts>
#include <cstdint>

namespace agentry {

struct fixed_duration {
    /// Milliseconds; public so that the type is structural.
    std::int64_t ms = 0;

    constexpr fixed_duration() = default;

    template <class Rep, class Period>
        requires std::convertible_to<std::chrono::duration<Rep, Period>, std::chrono::milliseconds>
    constexpr fixed_duration(std::chrono::duration<Rep, Period> d)  // NOLINT: implicit on purpose
        : ms(std::chrono::milliseconds(d).count()) {}

    constexpr std::chrono::milliseconds get() const noexcept { return std::chrono::milliseconds(ms); }
    constexpr bool is_zero() const noexcept { return ms == 0; }
    friend constexpr bool operator==(fixed_duration, fixed_duration) = default;
    friend constexpr auto operator<=>(fixed_duration, fixed_duration) = default;
};

namespace detail {

/// The largest time a loop_config or tool_policy holds: 100 years, so that doubling, jitter
/// and conversion to the clock's nanoseconds never overflow.
inline constexpr std::int64_t max_config_ms = 100LL * 366 * 24 * 3600 * 1000;

constexpr bool valid_config_time(fixed_duration d) noexcept { return d.ms >= 0 && d.ms <= max_config_ms; }

/// `now + delay`, or the clock's last instant when that would overflow; `now` when delay < 0.
inline std::chrono::steady_clock::time_point deadline_after(std::chrono::steady_clock::time_point now,
                                                            std::chrono::milliseconds delay) noexcept {
    using clock = std::chrono::steady_clock;
    if (delay <= std::chrono::milliseconds::zero()) return now;
    // Both sides in milliseconds, the unit with the larger range: no conversion can overflow.
    const auto room = std::chrono::floor<std::chrono::milliseconds>(clock::time_point::max() - now);
    if (delay >= room) return clock::time_point::max();
    return now + std::chrono::duration_cast<clock::duration>(delay);
}

/// Whole milliseconds since `since` (never negative).
inline std::chrono::milliseconds elapsed_ms(std::chrono::steady_clock::time_point since) noexcept {
    const auto d = std::chrono::duration_cast<std::chrono::milliseconds>(std::chrono::steady_clock::now() - since);
    return d < std::chrono::milliseconds::zero() ? std::chrono::milliseconds::zero() : d;
}

} // namespace detail

} // namespace agentry

#endif
