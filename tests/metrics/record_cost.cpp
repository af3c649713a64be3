// SPDX-License-Identifier: BSL-1.0
// The cost of recording one tool call (end_call) in agentry::metrics, on one thread and on two:
// prints nanoseconds per call. Built, not run by the tests (no timed assertions).
#include "events.hpp"

#include <chrono>
#include <cstdio>
#include <thread>
#include <vector>

int main() {
    using namespace metrics_test;
    agentry::metrics m;
    agentry::step s;
    s.tool = "get_weather";
    s.attempts = {tried("get_weather", 1)};
    agentry::call_event e;
    e.tool = "get_weather";
    e.arguments = R"({"city":"Paris"})";
    agentry::call_end_event end;
    end.record = &s;
    end.result = R"({"temperature":18.5,"condition":"rain"})";
    end.end = t0 + 3ms;
    const agentry::span_begun span = m.begin_call(nullptr, e, t0);
    constexpr int n = 10'000'000;
    for (int threads : {1, 2}) {
        const auto start = std::chrono::steady_clock::now();
        std::vector<std::thread> pool;
        for (int t = 0; t != threads; ++t)
            pool.emplace_back([&] {
                for (int i = 0; i != n; ++i) m.end_call(span, e, end);
            });
        for (std::thread& t : pool) t.join();
        const std::chrono::duration<double, std::nano> took = std::chrono::steady_clock::now() - start;
        std::printf("%d thread(s): %.1f ns per recorded call (per thread)\n", threads, took.count() / n);
    }
}
