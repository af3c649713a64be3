// SPDX-License-Identifier: BSL-1.0
// The agentry cases: openai::request, openai::parse, the two together, and the assembly of
// recorded streams with openai::stream (the whole body fed at once, then finish()).

#include "alloc_counter.hpp"
#include "cases.hpp"

#include <agentry/provider/openai.hpp>

#include <benchmark/benchmark.h>

#include <string>

namespace bench::agentry_impl {

agentry::http_request build(const agentry::chat_request& request) { return fixture().provider.request(request); }

agentry::turn_result parse(const agentry::http_response& response) { return fixture().provider.parse(response); }

agentry::turn_result assemble(std::string_view sse_body) {
    static const agentry::http_response head = stream_head();
    agentry::openai::stream s = fixture().provider.start_stream({});
    s.feed(sse_body);
    return s.finish(head);
}

namespace {

void request_case(benchmark::State& state) {
    const turn_fixture& f = fixture();
    timed(state, [&] { return f.provider.request(f.request); });
}

void parse_case(benchmark::State& state) {
    const turn_fixture& f = fixture();
    timed(state, [&] { return f.provider.parse(f.response); });
}

void turn_case(benchmark::State& state) {
    const turn_fixture& f = fixture();
    timed(state, [&] {
        agentry::http_request http = f.provider.request(f.request);
        benchmark::DoNotOptimize(http);
        return f.provider.parse(f.response);
    });
}

void sse_case(benchmark::State& state, const std::vector<const recorded_stream*>& streams) {
    std::size_t bytes = 0;
    for (const recorded_stream* s : streams) bytes += s->body.size();
    timed(state, [&] {
        std::size_t calls = 0;
        for (const recorded_stream* s : streams) {
            agentry::turn_result r = assemble(s->body);
            calls += r.ok() ? r.value->reply.tool_calls.size() : 100;
        }
        return calls;
    });
    state.SetBytesProcessed(std::int64_t(state.iterations()) * std::int64_t(bytes));
}

} // namespace

void register_benchmarks(const std::vector<recorded_stream>& streams) {
    benchmark::RegisterBenchmark("agentry/request", request_case);
    benchmark::RegisterBenchmark("agentry/parse", parse_case);
    benchmark::RegisterBenchmark("agentry/turn", turn_case);
    std::vector<const recorded_stream*> all;
    for (const recorded_stream& s : streams) {
        all.push_back(&s);
        benchmark::RegisterBenchmark(("agentry/sse/" + s.name).c_str(), sse_case, std::vector{&s});
    }
    if (!all.empty()) benchmark::RegisterBenchmark("agentry/sse/all", sse_case, all);
}

} // namespace bench::agentry_impl
