// SPDX-License-Identifier: BSL-1.0
// The agentry cases of reasoning.hpp: request, parse, the two together, and the assembly of the
// streamed turn (the whole body fed at once, then finish()), with agentry::openai_responses and
// agentry::anthropic.

#include "alloc_counter.hpp"
#include "reasoning.hpp"

#include <agentry/provider/anthropic.hpp>
#include <agentry/provider/openai_responses.hpp>

#include <benchmark/benchmark.h>

#include <cstdint>
#include <string>

namespace bench::agentry_impl {

agentry::http_request build(const responses_turn& f, const agentry::chat_request& request) {
    return f.provider.request(request);
}

agentry::turn_result parse(const responses_turn& f, const agentry::http_response& response) {
    return f.provider.parse(response);
}

agentry::turn_result assemble(const responses_turn& f, std::string_view sse_body) {
    static const agentry::http_response head = stream_head();
    agentry::openai_responses::stream s = f.provider.start_stream({});
    s.feed(sse_body);
    return s.finish(head);
}

agentry::http_request build(const anthropic_turn& f, const agentry::chat_request& request) {
    return f.provider.request(request);
}

agentry::turn_result parse(const anthropic_turn& f, const agentry::http_response& response) {
    return f.provider.parse(response);
}

agentry::turn_result assemble(const anthropic_turn& f, std::string_view sse_body) {
    static const agentry::http_response head = stream_head();
    agentry::anthropic::stream s = f.provider.start_stream({});
    s.feed(sse_body);
    return s.finish(head);
}

namespace {

template <class Turn>
void request_case(benchmark::State& state, const Turn* f) {
    timed(state, [&] { return build(*f, f->request); });
}

template <class Turn>
void parse_case(benchmark::State& state, const Turn* f) {
    timed(state, [&] { return parse(*f, f->response); });
}

template <class Turn>
void turn_case(benchmark::State& state, const Turn* f) {
    timed(state, [&] {
        agentry::http_request http = build(*f, f->request);
        benchmark::DoNotOptimize(http);
        return parse(*f, f->response);
    });
}

template <class Turn>
void sse_case(benchmark::State& state, const Turn* f) {
    timed(state, [&] { return assemble(*f, f->stream); });
    state.SetBytesProcessed(std::int64_t(state.iterations()) * std::int64_t(f->stream.size()));
}

template <class Turn>
void register_all(const std::string& name, const Turn* f) {
    benchmark::RegisterBenchmark(("agentry/" + name + "/request").c_str(), request_case<Turn>, f);
    benchmark::RegisterBenchmark(("agentry/" + name + "/parse").c_str(), parse_case<Turn>, f);
    benchmark::RegisterBenchmark(("agentry/" + name + "/turn").c_str(), turn_case<Turn>, f);
    benchmark::RegisterBenchmark(("agentry/" + name + "/sse").c_str(), sse_case<Turn>, f);
}

} // namespace

void register_reasoning_benchmarks() {
    register_all("responses", &responses_fixture());
    register_all("anthropic", &anthropic_fixture());
}

} // namespace bench::agentry_impl
