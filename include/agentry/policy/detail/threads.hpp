// SPDX-License-Identifier: BSL-1.0
#ifndef AGENTRY_POLICY_DETAIL_THREADS_HPP
#define AGENTRY_POLICY_DETAIL_THREADS_HPP

// The threads of tool calls: a call run on a thread of its own (to abandon it at its timeout),
// the calls of a turn run on several, and the waits between tries.

#include <agentry/detail/chrono.hpp>
#include <agentry/detail/separate.hpp>
#include <agentry/policy/fixed_duration.hpp>
#include <agentry/policy/tool_policy.hpp>
#include <agentry/stop_token.hpp>
#include <agentry/tool_result.hpp>

#include <atomic>
#include <cstddef>
#include <cstdint>
#include <functional>
#include <memory>
#include <string>
#include <string_view>

namespace agentry::detail {

/// Test seam: when set, called before each thread starts; a throw stands for the system
/// refusing a thread (std::thread's constructor throws std::system_error then).
inline std::atomic<void (*)()> before_thread_start{nullptr};

/// Tool calls running on their own thread (those with a timeout), so that their owner can wait
/// for the abandoned ones before the objects they use go away.
class running_calls;

/// A new running_calls, with no call running.
AGENTRY_DECL std::shared_ptr<running_calls> make_running_calls();

/// Waits until no call of `calls` runs.
AGENTRY_DECL void wait_idle(running_calls& calls);

/// Runs `call` on a thread of its own, counted in `running`, with a stop token signalled by
/// `run` and at `timeout` after `t0`; its result, or a tool_error when the timeout passes first
/// (`timed_out` is then set and the call is abandoned) or no thread can be started.
AGENTRY_DECL tool_result call_on_thread(std::function<tool_result(agentry::stop_token)> call, const std::string& name,
                                        const agentry::stop_token& run, std::chrono::steady_clock::time_point t0,
                                        fixed_duration timeout, const std::shared_ptr<running_calls>& running,
                                        bool& timed_out);

/// Runs `worker` on `threads` threads, this one included, and waits for them; a thread that
/// cannot start leaves the work to those that did (at least this one).
AGENTRY_DECL void run_workers(std::size_t threads, const std::function<void()>& worker);

/// Sleeps for `delay` unless `cancel` becomes true first; false when cancelled. Any delay is
/// safe: one past the clock's range sleeps until cancelled, a negative one not at all.
AGENTRY_DECL bool sleep_unless(std::chrono::milliseconds delay, const std::atomic<bool>& cancel);

/// The wait before retry `retry` (from 0): doubling from `initial` up to `ceiling`, with
/// jitter of +-50 %.
AGENTRY_DECL std::chrono::milliseconds jittered_backoff(std::int64_t initial, std::int64_t ceiling,
                                                        std::uint32_t retry);

/// The wait before retry `retry` (from 0) of a tool: doubling from initial_backoff up to
/// max_backoff, with jitter of +-50 %.
AGENTRY_DECL std::chrono::milliseconds tool_backoff(const tool_retry& rule, std::uint32_t retry);

/// What the model is told about a failure of `kind`, in parentheses after the tool's message.
constexpr std::string_view failure_advice(failure_kind kind) noexcept {
    switch (kind) {
    case failure_kind::transient: return "it may succeed if tried again later";
    case failure_kind::permanent: return "it will fail again with the same arguments";
    case failure_kind::invalid_input: return "change the arguments before trying again";
    case failure_kind::not_found: return "what the arguments name does not exist; check it or ask the user";
    case failure_kind::permission: return "this caller is not allowed to do it; do not try again";
    }
    return "";
}

} // namespace agentry::detail

#if !defined(AGENTRY_SEPARATE_COMPILATION)
#include <agentry/policy/impl/threads.ipp>
#endif

#endif
