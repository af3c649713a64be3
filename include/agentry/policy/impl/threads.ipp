// SPDX-License-Identifier: BSL-1.0
#ifndef AGENTRY_POLICY_IMPL_THREADS_IPP
#define AGENTRY_POLICY_IMPL_THREADS_IPP

#include <agentry/config.hpp>
#include <agentry/detail/chrono.hpp>
#include <agentry/detail/separate.hpp>
#include <agentry/policy/detail/threads.hpp>
#include <agentry/stop_token.hpp>

#include <algorithm>
#include <atomic>
#include <condition_variable>
#include <future>
#include <memory>
#include <mutex>
#include <optional>
#include <random>
#include <string>
#include <thread>
#include <utility>
#include <vector>

namespace agentry::detail {

AGENTRY_DECL bool sleep_unless(std::chrono::milliseconds delay, const std::atomic<bool>& cancel) {
    using clock = std::chrono::steady_clock;
    const clock::time_point until = deadline_after(clock::now(), delay);
    for (;;) {
        if (cancel.load()) return false;
        const clock::time_point now = clock::now();
        if (now >= until) return true;
        std::this_thread::sleep_for(std::min<clock::duration>(std::chrono::milliseconds(20), until - now));
    }
}

/// A thread running `f`, or nothing when one cannot be started.
template <class F>
std::optional<std::thread> try_start_thread(F&& f) noexcept {
    try {
        if (void (*hook)() = before_thread_start.load()) hook();
        return std::optional<std::thread>(std::in_place, std::forward<F>(f));
    } catch (...) {
        return std::nullopt;
    }
}

class running_calls {
public:
    void enter() {
        std::lock_guard lock(mutex_);
        ++count_;
    }
    void leave() {
        std::lock_guard lock(mutex_);
        if (--count_ == 0) idle_.notify_all();
    }
    void wait_idle() {
        std::unique_lock lock(mutex_);
        idle_.wait(lock, [this] { return count_ == 0; });
    }

private:
    std::mutex mutex_;
    std::condition_variable idle_;
    std::size_t count_ = 0;
};

AGENTRY_DECL std::shared_ptr<running_calls> make_running_calls() { return std::make_shared<running_calls>(); }

AGENTRY_DECL void wait_idle(running_calls& calls) { calls.wait_idle(); }

AGENTRY_DECL tool_result call_on_thread(std::function<tool_result(agentry::stop_token)> call, const std::string& name,
                           const agentry::stop_token& run, std::chrono::steady_clock::time_point t0,
                           fixed_duration timeout, const std::shared_ptr<running_calls>& running, bool& timed_out) {
    const auto failed = [](std::string text) {
        tool_result out;
        out.status = tool_status::tool_error;
        out.content = std::move(text);
        return out;
    };
    // The call's own stop source, signalled at its timeout and by cancel().
    agentry::stop_source stop;
    const agentry::stop_callback cancelled(run, [&stop] { stop.request_stop(); });
    // The thread owns the call, so that an abandoned call can finish on its own after the run
    // has moved on; `running` lets the agent's destructor wait for it.
    auto task = std::make_shared<std::packaged_task<tool_result()>>(
        [call = std::move(call), token = stop.get_token()] { return call(token); });
    std::future<tool_result> done = task->get_future();
    running->enter();
    std::optional<std::thread> thread = try_start_thread([task, running] {
        (*task)();
        running->leave();
    });
    if (!thread) {
        running->leave();
        return failed("agentry: could not start a thread to run " + name + "; it was not run. Try again later.");
    }
    thread->detach();
    if (done.wait_until(deadline_after(t0, timeout.get())) == std::future_status::ready) return done.get();
    stop.request_stop();
    timed_out = true;
    return failed(name + " did not finish within " + std::to_string(timeout.ms) +
                  " ms; it was abandoned. Try a narrower request or another tool.");
}

AGENTRY_DECL void run_workers(std::size_t threads, const std::function<void()>& worker) {
    std::vector<std::thread> pool;
    pool.reserve(threads - 1);
    for (std::size_t t = 1; t < threads; ++t)
        if (std::optional<std::thread> started = try_start_thread(worker)) pool.push_back(std::move(*started));
        else break;
    worker();
    for (std::thread& t : pool) t.join();
}

AGENTRY_DECL std::chrono::milliseconds jittered_backoff(std::int64_t initial, std::int64_t ceiling,
                                                        std::uint32_t retry) {
    std::int64_t base = std::min(initial, ceiling);
    for (std::uint32_t i = 0; i != retry && base < ceiling; ++i) base = base > ceiling / 2 ? ceiling : base * 2;
    std::uniform_real_distribution<double> spread(0.5, 1.5);
    std::mt19937 jitter(std::random_device{}());  // made only when a retry happens
    return std::chrono::milliseconds(static_cast<std::int64_t>(static_cast<double>(base) * spread(jitter)));
}

AGENTRY_DECL std::chrono::milliseconds tool_backoff(const tool_retry& rule, std::uint32_t retry) {
    return jittered_backoff(rule.initial_backoff.ms, rule.max_backoff.ms, retry);
}

} // namespace agentry::detail

#endif
