// SPDX-License-Identifier: BSL-1.0
// agentry_provider_profile CASE [N]: one case N times (default 200000) in a plain loop, for
// profilers:
//
//   perf record -g agentry_provider_profile turn
//   perf report --no-children --stdio
//
// CASE: request, parse, turn (agentry), nl_request, nl_parse, nl_turn (nlohmann, tools parsed
// for every request), sse (agentry, every recorded stream once per round). Prints the
// allocations per round.

#include "alloc_counter.hpp"
#include "cases.hpp"

#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string>

namespace {

template <class Work>
void repeat(long rounds, Work&& work) {
    const bench::heap_counts before = bench::heap();
    for (long i = 0; i < rounds; ++i) {
        auto r = work();
        benchmark::DoNotOptimize(r);
    }
    const bench::heap_counts after = bench::heap();
    std::printf("%.2f allocations, %.0f bytes per round\n", double(after.allocations - before.allocations) / double(rounds),
                double(after.bytes - before.bytes) / double(rounds));
}

} // namespace

int main(int argc, char** argv) {
    namespace nl = bench::nlohmann_impl;
    const std::string which = argc > 1 ? argv[1] : "turn";
    const long rounds = argc > 2 ? std::atol(argv[2]) : 200000;
    const bench::turn_fixture& f = bench::fixture();
    const auto mode = nl::tools_mode::parse_each_request;
    if (which == "request") {
        repeat(rounds, [&] { return bench::agentry_impl::build(f.request); });
    } else if (which == "parse") {
        repeat(rounds, [&] { return bench::agentry_impl::parse(f.response); });
    } else if (which == "turn") {
        repeat(rounds, [&] {
            auto http = bench::agentry_impl::build(f.request);
            benchmark::DoNotOptimize(http);
            return bench::agentry_impl::parse(f.response);
        });
    } else if (which == "nl_request") {
        repeat(rounds, [&] { return nl::build(f.request, mode); });
    } else if (which == "nl_parse") {
        repeat(rounds, [&] { return nl::parse(f.response); });
    } else if (which == "nl_turn") {
        repeat(rounds, [&] {
            auto http = nl::build(f.request, mode);
            benchmark::DoNotOptimize(http);
            return nl::parse(f.response);
        });
    } else if (which == "sse") {
        std::string directory, why_not;
        const auto streams = bench::load_streams(directory, why_not);
        if (streams.empty()) {
            std::fprintf(stderr, "no streams: %s\n", why_not.c_str());
            return 1;
        }
        repeat(rounds, [&] {
            std::size_t calls = 0;
            for (const auto& s : streams) calls += bench::agentry_impl::assemble(s.body).ok();
            return calls;
        });
    } else {
        std::fprintf(stderr, "usage: agentry_provider_profile request|parse|turn|nl_request|nl_parse|nl_turn|sse [rounds]\n");
        return 2;
    }
}
