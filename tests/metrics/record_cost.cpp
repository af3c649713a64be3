// SPDX-License-Identifier: BSL-1.0
// The cost of recording one tool call (end_call) in agentry::metrics, on one thread and on two:
// prints the CPU time per call of each thread (CPU time, not wall time: the machine may be shared).
// Built, not run by the tests (no timed assertions).
#include "events.hpp"

#include <time.h>

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
    constexpr int n = 5'000'000;
    for (int threads : {1, 2, 12}) {
        std::vector<double> ns(static_cast<std::size_t>(threads));
        std::vector<std::thread> pool;
        for (int t = 0; t != threads; ++t)
            pool.emplace_back([&, t] {
                timespec a{}, b{};
                ::clock_gettime(CLOCK_THREAD_CPUTIME_ID, &a);
                for (int i = 0; i != n; ++i) m.end_call(span, e, end);
                ::clock_gettime(CLOCK_THREAD_CPUTIME_ID, &b);
                ns[static_cast<std::size_t>(t)] = (double(b.tv_sec - a.tv_sec) * 1e9 + double(b.tv_nsec - a.tv_nsec)) / n;
            });
        for (std::thread& t : pool) t.join();
        double sum = 0;
        for (double x : ns) sum += x;
        std::printf("%2d thread(s) at once: %.1f ns of CPU time per recorded call\n", threads, sum / threads);
    }
    std::printf("calls counted: %llu\n", static_cast<unsigned long long>(m.snapshot().tools.at(0).calls));
}
