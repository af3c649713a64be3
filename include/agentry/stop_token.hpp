// SPDX-License-Identifier: BSL-1.0
#ifndef AGENTRY_STOP_TOKEN_HPP
#define AGENTRY_STOP_TOKEN_HPP

// agentry::stop_token, agentry::stop_source and agentry::stop_callback: std::stop_token,
// std::stop_source and std::stop_callback where the standard library has them
// (__cpp_lib_jthread: libstdc++, and libc++ with -fexperimental-library), so that a tool taking
// std::stop_token is a tool taking agentry::stop_token there. Elsewhere (libc++ 19 without
// -fexperimental-library) they are agentry::detail::stop's own, with the std semantics agentry
// uses:
//   - request_stop() returns true once, for the call that requested the stop, and runs the
//     registered callbacks on its own thread before it returns;
//   - a callback registered after the stop runs at once, on the registering thread;
//   - a stop_callback's destructor deregisters its callback, and waits while it runs on
//     another thread (not when the callback destroys its own stop_callback);
//   - a default stop_token never stops: stop_possible() is false; a token's stop_possible() is
//     true while a stop_source of its state exists or once the stop was requested.
// AGENTRY_STOP_TOKEN_TEST_OWN (tests only) declares agentry::detail::stop's types where the std
// ones are used, so that they are tested with every standard library.

#include <version>

#if !defined(__cpp_lib_jthread) || defined(AGENTRY_STOP_TOKEN_TEST_OWN)
#include <atomic>
#include <condition_variable>
#include <cstddef>
#include <memory>
#include <mutex>
#include <thread>
#include <type_traits>
#include <utility>
#endif
#if defined(__cpp_lib_jthread)
#include <stop_token>
#endif

#if !defined(__cpp_lib_jthread) || defined(AGENTRY_STOP_TOKEN_TEST_OWN)
namespace agentry::detail::stop {

// A registered callback: a node of its state's list, run through `run`.
struct callback_node {
    void (*run)(callback_node&) noexcept = nullptr;
    callback_node* prev = nullptr;
    callback_node* next = nullptr;
    bool listed = false;
};

// What a stop_source, its tokens and their callbacks share.
struct state {
    std::mutex mutex;
    std::condition_variable finished;  // a callback's run ended
    std::atomic<bool> requested{false};
    std::atomic<std::size_t> sources{1};
    callback_node* head = nullptr;        // guarded by mutex
    const callback_node* running = nullptr;  // guarded by mutex
    std::thread::id stopper;              // guarded by mutex: the thread running the callbacks

    // Registers `node`, or runs it at once when the stop was requested.
    void add(callback_node& node) {
        {
            const std::lock_guard lock(mutex);
            if (!requested.load(std::memory_order_relaxed)) {
                node.next = head;
                if (head) head->prev = &node;
                head = &node;
                node.listed = true;
                return;
            }
        }
        node.run(node);
    }

    // Deregisters `node`; waits while another thread runs it.
    void remove(callback_node& node) {
        std::unique_lock lock(mutex);
        if (node.listed) {
            if (node.prev) node.prev->next = node.next;
            else head = node.next;
            if (node.next) node.next->prev = node.prev;
            node.listed = false;
            return;
        }
        if (running == &node && stopper != std::this_thread::get_id())
            finished.wait(lock, [&] { return running != &node; });
    }

    bool request_stop() {
        std::unique_lock lock(mutex);
        if (requested.load(std::memory_order_relaxed)) return false;
        requested.store(true, std::memory_order_release);
        stopper = std::this_thread::get_id();
        while (callback_node* node = head) {
            head = node->next;
            if (head) head->prev = nullptr;
            node->listed = false;
            running = node;
            lock.unlock();
            node->run(*node);  // may destroy *node (its own stop_callback)
            lock.lock();
            running = nullptr;
            finished.notify_all();
        }
        return true;
    }
};

class stop_source;

class stop_token {
public:
    stop_token() noexcept = default;

    [[nodiscard]] bool stop_requested() const noexcept {
        return state_ && state_->requested.load(std::memory_order_acquire);
    }
    [[nodiscard]] bool stop_possible() const noexcept {
        return state_ && (state_->requested.load(std::memory_order_acquire) ||
                          state_->sources.load(std::memory_order_acquire) != 0);
    }
    void swap(stop_token& other) noexcept { state_.swap(other.state_); }
    [[nodiscard]] friend bool operator==(const stop_token& a, const stop_token& b) noexcept {
        return a.state_ == b.state_;
    }
    friend void swap(stop_token& a, stop_token& b) noexcept { a.swap(b); }

private:
    friend class stop_source;
    template <class Callback>
    friend class stop_callback;
    explicit stop_token(std::shared_ptr<state> s) noexcept : state_(std::move(s)) {}
    std::shared_ptr<state> state_;
};

class stop_source {
public:
    stop_source() : state_(std::make_shared<state>()) {}
    stop_source(const stop_source& other) noexcept : state_(other.state_) {
        if (state_) state_->sources.fetch_add(1, std::memory_order_relaxed);
    }
    stop_source(stop_source&& other) noexcept = default;
    stop_source& operator=(const stop_source& other) noexcept {
        if (this != &other) stop_source(other).swap(*this);
        return *this;
    }
    stop_source& operator=(stop_source&& other) noexcept {
        stop_source(std::move(other)).swap(*this);
        return *this;
    }
    ~stop_source() {
        if (state_) state_->sources.fetch_sub(1, std::memory_order_acq_rel);
    }

    bool request_stop() { return state_ && state_->request_stop(); }
    [[nodiscard]] stop_token get_token() const noexcept { return stop_token(state_); }
    [[nodiscard]] bool stop_possible() const noexcept { return state_ != nullptr; }
    [[nodiscard]] bool stop_requested() const noexcept {
        return state_ && state_->requested.load(std::memory_order_acquire);
    }
    void swap(stop_source& other) noexcept { state_.swap(other.state_); }
    [[nodiscard]] friend bool operator==(const stop_source& a, const stop_source& b) noexcept {
        return a.state_ == b.state_;
    }
    friend void swap(stop_source& a, stop_source& b) noexcept { a.swap(b); }

private:
    std::shared_ptr<state> state_;
};

template <class Callback>
class stop_callback : callback_node {
public:
    using callback_type = Callback;

    template <class C>
        requires std::is_constructible_v<Callback, C>
    explicit stop_callback(const stop_token& token, C&& callback) noexcept(std::is_nothrow_constructible_v<Callback, C>)
        : callback_(std::forward<C>(callback)), state_(token.state_) {
        run = [](callback_node& self) noexcept { std::move(static_cast<stop_callback&>(self).callback_)(); };
        if (state_) state_->add(*this);
    }
    stop_callback(const stop_callback&) = delete;
    stop_callback& operator=(const stop_callback&) = delete;
    ~stop_callback() {
        if (state_) state_->remove(*this);
    }

private:
    Callback callback_;
    std::shared_ptr<state> state_;
};

template <class Callback>
stop_callback(stop_token, Callback) -> stop_callback<Callback>;

} // namespace agentry::detail::stop
#endif

namespace agentry {

#if defined(__cpp_lib_jthread)
using std::stop_callback;
using std::stop_source;
using std::stop_token;
#else
using detail::stop::stop_callback;
using detail::stop::stop_source;
using detail::stop::stop_token;
#endif

} // namespace agentry

#endif
