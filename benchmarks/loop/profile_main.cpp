// SPDX-License-Identifier: BSL-1.0
// agentry_loop_profile [RUNS] [restore]: agent.restore + agent.run (2 turns) RUNS times
// (default 50000) in a plain loop, for perf or callgrind; with `restore`, agent.restore alone.
//
//   perf record -g agentry_loop_profile
//   perf report --no-children --stdio
//
// Prints the allocations per run.

#include "alloc_counter.hpp"
#include "loop_fixture.hpp"

#include <cstdio>
#include <cstdlib>
#include <cstring>

int main(int argc, char** argv) {
    const long runs = argc > 1 ? std::atol(argv[1]) : 50000;
    const bool restore_only = argc > 2 && std::strcmp(argv[2], "restore") == 0;
    if (argc > 2 && !restore_only) {
        std::fprintf(stderr, "usage: agentry_loop_profile [RUNS] [restore]\n");
        return 2;
    }
    auto agent = bench::make_agent<bench::sequential>();
    const std::string saved = bench::saved_conversation();
    const std::string input = bench::last_user_input();
    const bench::heap_counts before = bench::heap();
    long done = 0;
    for (long i = 0; i < runs; ++i) {
        const bool restored = bool(agent.restore(saved));
        done += restore_only ? long(restored) : long(agent.run(input).turns);
    }
    const bench::heap_counts after = bench::heap();
    std::printf("%ld %s; %.1f allocations, %.0f bytes per run\n", done, restore_only ? "restores" : "turns",
                double(after.allocations - before.allocations) / double(runs),
                double(after.bytes - before.bytes) / double(runs));
    return done == (restore_only ? 1 : 2) * runs ? 0 : 1;
}
