// SPDX-License-Identifier: BSL-1.0
#ifndef AGENTRY_BENCH_PROVIDER_ALLOC_COUNTER_HPP
#define AGENTRY_BENCH_PROVIDER_ALLOC_COUNTER_HPP

// Heap allocations of the process. alloc_counter.cpp replaces the global operator new and
// delete (every allocating form, aligned ones included) by versions that count, then call
// malloc and free. The benchmarks run on one thread, so the counters are plain integers.

#include <benchmark/benchmark.h>

#include <cstddef>

namespace bench {

struct heap_counts {
    std::size_t allocations = 0;  // operator new calls
    std::size_t bytes = 0;        // bytes requested by them
    std::size_t frees = 0;        // operator delete calls on a non-null pointer
};

heap_counts heap() noexcept;

/// Runs `work` in the timed loop of `state` and sets the counters "allocs" (operator new calls
/// per iteration) and "alloc_bytes" (bytes requested per iteration).
template <class Work>
void timed(benchmark::State& state, Work&& work) {
    const heap_counts before = heap();
    for (auto _ : state) {
        auto result = work();
        benchmark::DoNotOptimize(result);
        benchmark::ClobberMemory();
    }
    const heap_counts after = heap();
    state.counters["allocs"] =
        benchmark::Counter(double(after.allocations - before.allocations), benchmark::Counter::kAvgIterations);
    state.counters["alloc_bytes"] =
        benchmark::Counter(double(after.bytes - before.bytes), benchmark::Counter::kAvgIterations);
}

/// `value`, hidden from the optimiser (the fixtures are constants).
template <class T>
T opaque(T value) {
    benchmark::DoNotOptimize(value);
    return value;
}

} // namespace bench

#endif
