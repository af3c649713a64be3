// SPDX-License-Identifier: BSL-1.0
#ifndef AGENTRY_BENCH_DISPATCH_ALLOC_COUNTER_HPP
#define AGENTRY_BENCH_DISPATCH_ALLOC_COUNTER_HPP

// Heap allocations made by this process: alloc_counter.cpp replaces every form of the global
// operator new and delete with ones that count and then call malloc and free. The benchmarks
// are single-threaded, so plain counters do.

#include <benchmark/benchmark.h>

#include <cstddef>
#include <utility>

namespace bench {

struct allocation_counts {
    std::size_t calls = 0;  // operator new calls, all forms
    std::size_t bytes = 0;  // bytes they asked for
    std::size_t frees = 0;  // operator delete calls with a non-null pointer
};

allocation_counts allocations() noexcept;

/// `value`, which the optimiser can no longer see through: the tool names and argument texts
/// of the cases are constants, and registry::find is constexpr, so without this a lookup could
/// be folded at compile time, unlike one of a name received at run time.
template <class T>
T opaque(T value) {
    benchmark::DoNotOptimize(value);
    return value;
}

/// Runs `call` in the benchmark loop; sets the counters "allocs" (operator new calls per
/// iteration) and "alloc_bytes" (bytes asked for per iteration).
template <class Call>
void measure(benchmark::State& state, Call&& call) {
    const allocation_counts before = allocations();
    for (auto _ : state) {
        benchmark::DoNotOptimize(call());
        benchmark::ClobberMemory();
    }
    const allocation_counts after = allocations();
    state.counters["allocs"] =
        benchmark::Counter(double(after.calls - before.calls), benchmark::Counter::kAvgIterations);
    state.counters["alloc_bytes"] =
        benchmark::Counter(double(after.bytes - before.bytes), benchmark::Counter::kAvgIterations);
}

} // namespace bench

#endif
