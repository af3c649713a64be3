// SPDX-License-Identifier: BSL-1.0
// agentry_loop_profile [RUNS]: agent.restore + agent.run (2 turns) RUNS times (default 50000)
// in a plain loop, for perf:
//
//   perf record -g agentry_loop_profile
//   perf report --no-children --stdio
//
// Prints the allocations per run.

#include "alloc_counter.hpp"
#include "loop_fixture.hpp"

#include <cstdio>
#include <cstdlib>

int main(int argc, char** argv) {
    const long runs = argc > 1 ? std::atol(argv[1]) : 50000;
    auto agent = bench::make_agent<bench::sequential>();
    const std::string saved = bench::saved_conversation();
    const std::string input = bench::last_user_input();
    const bench::heap_counts before = bench::heap();
    std::uint32_t turns = 0;
    for (long i = 0; i < runs; ++i) {
        agent.restore(saved);
        turns += agent.run(input).turns;
    }
    const bench::heap_counts after = bench::heap();
    std::printf("%u turns; %.1f allocations, %.0f bytes per run\n", turns,
                double(after.allocations - before.allocations) / double(runs),
                double(after.bytes - before.bytes) / double(runs));
    return turns == 2 * runs ? 0 : 1;
}
