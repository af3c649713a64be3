// SPDX-License-Identifier: BSL-1.0
// agentry::stop_token, stop_source and stop_callback, and agentry's own implementation of them
// (AGENTRY_STOP_TOKEN_TEST_OWN declares it with every standard library): each case runs with
// both. The concurrent cases hold for every interleaving; none measures time.
#define AGENTRY_STOP_TOKEN_TEST_OWN
#include <agentry/stop_token.hpp>

#include <doctest/doctest.h>

#include <atomic>
#include <condition_variable>
#include <cstddef>
#include <functional>
#include <memory>
#include <mutex>
#include <optional>
#include <thread>
#include <type_traits>
#include <vector>

namespace {

struct own_kit {
    using source = agentry::detail::stop::stop_source;
    using token = agentry::detail::stop::stop_token;
    template <class F>
    using callback = agentry::detail::stop::stop_callback<F>;
};

struct agentry_kit {
    using source = agentry::stop_source;
    using token = agentry::stop_token;
    template <class F>
    using callback = agentry::stop_callback<F>;
};

// A one-shot signal between threads.
class signal {
public:
    void set() {
        {
            const std::lock_guard lock(mutex_);
            set_ = true;
        }
        changed_.notify_all();
    }
    void wait() {
        std::unique_lock lock(mutex_);
        changed_.wait(lock, [&] { return set_; });
    }

private:
    std::mutex mutex_;
    std::condition_variable changed_;
    bool set_ = false;
};

} // namespace

// What the std types give with libstdc++ is what the own ones give.
#if defined(__cpp_lib_jthread)
static_assert(std::is_same_v<agentry::stop_token, std::stop_token>);
static_assert(std::is_same_v<agentry::stop_source, std::stop_source>);
#else
static_assert(std::is_same_v<agentry::stop_token, agentry::detail::stop::stop_token>);
#endif

TEST_CASE_TEMPLATE("stop_token: a default token never stops", K, own_kit, agentry_kit) {
    const typename K::token token;
    CHECK_FALSE(token.stop_possible());
    CHECK_FALSE(token.stop_requested());
    bool ran = false;
    const auto note = [&] { ran = true; };
    { const typename K::template callback<decltype(note)> cb(token, note); }
    CHECK_FALSE(ran);
}

TEST_CASE_TEMPLATE("stop_token: request_stop returns true once and signals every token", K, own_kit, agentry_kit) {
    typename K::source source;
    const typename K::token token = source.get_token();
    const typename K::source copy = source;
    CHECK(source.stop_possible());
    CHECK(token.stop_possible());
    CHECK_FALSE(token.stop_requested());
    CHECK(token == copy.get_token());
    CHECK(source.request_stop());
    CHECK_FALSE(source.request_stop());
    CHECK(token.stop_requested());
    CHECK(copy.stop_requested());
    CHECK(typename K::source(copy).stop_requested());
}

TEST_CASE_TEMPLATE("stop_token: a token's stop is possible while a source exists or once requested", K, own_kit,
                   agentry_kit) {
    typename K::token kept;
    {
        typename K::source source;
        kept = source.get_token();
        typename K::source moved = std::move(source);
        CHECK(kept.stop_possible());
    }
    CHECK_FALSE(kept.stop_possible());
    CHECK_FALSE(kept.stop_requested());
    {
        typename K::source source;
        kept = source.get_token();
        source.request_stop();
    }
    CHECK(kept.stop_possible());
    CHECK(kept.stop_requested());
}

TEST_CASE_TEMPLATE("stop_token: callbacks run once, on the thread that requests the stop", K, own_kit, agentry_kit) {
    typename K::source source;
    std::vector<std::thread::id> ran;
    const auto note = [&] { ran.push_back(std::this_thread::get_id()); };
    const typename K::template callback<decltype(note)> first(source.get_token(), note);
    const typename K::template callback<decltype(note)> second(source.get_token(), note);
    bool removed_ran = false;
    const auto never = [&] { removed_ran = true; };
    { const typename K::template callback<decltype(never)> removed(source.get_token(), never); }
    std::thread::id stopper;
    std::thread([&] {
        stopper = std::this_thread::get_id();
        CHECK(source.request_stop());
        CHECK(ran.size() == 2);  // before request_stop returns
    }).join();
    CHECK(ran == std::vector<std::thread::id>{stopper, stopper});
    CHECK_FALSE(removed_ran);
    source.request_stop();
    CHECK(ran.size() == 2);
}

TEST_CASE_TEMPLATE("stop_token: a callback registered after the stop runs at once, on its own thread", K, own_kit,
                   agentry_kit) {
    typename K::source source;
    source.request_stop();
    std::thread::id ran_on;
    const auto note = [&] { ran_on = std::this_thread::get_id(); };
    const typename K::template callback<decltype(note)> cb(source.get_token(), note);
    CHECK(ran_on == std::this_thread::get_id());
}

TEST_CASE_TEMPLATE("stop_token: a callback may destroy its own stop_callback", K, own_kit, agentry_kit) {
    typename K::source source;
    struct reset {
        std::function<void()> f;
        void operator()() const { f(); }
    };
    std::optional<typename K::template callback<reset>> cb;
    bool ran = false;
    cb.emplace(source.get_token(), reset{[&] {
                   ran = true;
                   cb.reset();
               }});
    CHECK(source.request_stop());
    CHECK(ran);
    CHECK_FALSE(cb.has_value());
}

// The stop runs the callback on thread A, which holds it there; thread B destroys the
// stop_callback meanwhile. B's destructor returns only after the callback has: the callback
// sees B not finished, whenever B gets to run.
TEST_CASE_TEMPLATE("stop_token: a stop_callback's destructor waits for its callback on another thread", K, own_kit,
                   agentry_kit) {
    typename K::source source;
    signal entered, destroying, finish;
    std::atomic<bool> destroyed{false};
    bool destroyed_while_running = true;
    const auto hold = [&] {
        entered.set();
        finish.wait();
        for (int i = 0; i != 100; ++i) std::this_thread::yield();  // give B every chance to finish wrongly
        destroyed_while_running = destroyed.load();
    };
    auto cb = std::make_unique<typename K::template callback<decltype(hold)>>(source.get_token(), hold);
    std::thread a([&] { source.request_stop(); });
    entered.wait();
    std::thread b([&] {
        destroying.set();
        cb.reset();
        destroyed = true;
    });
    destroying.wait();
    finish.set();
    b.join();
    a.join();
    CHECK(destroyed);
    CHECK_FALSE(destroyed_while_running);
}

// Threads register and deregister callbacks while another requests the stop: each callback
// registered before the stop and not yet removed runs once; each registered after it runs at once.
TEST_CASE_TEMPLATE("stop_token: registering, removing and stopping at once", K, own_kit, agentry_kit) {
    for (int round = 0; round != 20; ++round) {
        typename K::source source;
        const typename K::token token = source.get_token();
        constexpr int threads = 4, per_thread = 200;
        std::atomic<int> runs{0};
        std::atomic<int> twice{0};
        std::atomic<int> missed{0};
        std::atomic<int> stops{0};
        signal go;
        std::vector<std::thread> workers;
        for (int t = 0; t != threads; ++t) {
            workers.emplace_back([&] {
                go.wait();
                for (int i = 0; i != per_thread; ++i) {
                    std::atomic<int> mine{0};
                    const auto count = [&] {
                        if (mine.fetch_add(1) != 0) ++twice;
                        ++runs;
                    };
                    const bool before = token.stop_requested();
                    {
                        const typename K::template callback<decltype(count)> cb(token, count);
                        if (before && mine.load() != 1) ++missed;
                    }
                    if (mine.load() > 1) ++twice;
                }
            });
        }
        std::thread stopper([&] {
            go.wait();
            if (source.request_stop()) ++stops;
        });
        std::thread second([&] {
            go.wait();
            if (source.request_stop()) ++stops;
        });
        go.set();
        for (std::thread& w : workers) w.join();
        stopper.join();
        second.join();
        CHECK(stops == 1);
        CHECK(twice == 0);
        CHECK(missed == 0);
        CHECK(runs <= threads * per_thread);
    }
}

// agentry::stop_callback deduces its callback's type, as std::stop_callback does.
TEST_CASE("stop_token: agentry::stop_callback deduces the callback type") {
    agentry::stop_source source;
    int runs = 0;
    const agentry::stop_callback cb(source.get_token(), [&runs] { ++runs; });
    source.request_stop();
    CHECK(runs == 1);
    agentry::detail::stop::stop_source own;
    const agentry::detail::stop::stop_callback own_cb(own.get_token(), [&runs] { ++runs; });
    own.request_stop();
    CHECK(runs == 2);
}
