// SPDX-License-Identifier: BSL-1.0
// agentry_observe_bench: what observing a tool call costs. Each case makes the dispatch
// benchmark's call of search_flights (registry::call: lookup, read, validate, call, write) inside
// the bracket the engine puts around every call (loop/impl/engine_calls.ipp: the call's event,
// observer::begin_call before it, the step's record, observer::end_call after it; the two
// steady_clock readings are the engine's own, taken with or without an observer):
//
//   observe/call/plain      the call with the engine's clock readings, call_scope and step
//                           record, without any observing statement (the engine before observers)
//   observe/call/off        no observer: the engine's `if (observer_)` tests only
//   observe/call/metrics    agentry::metrics
//   observe/call/tracer     agentry::tracer (spans made on its thread and handed to a hook)
//   observe/call/both       observer_list{&metrics, &tracer}
//   observe/record/...      begin_call + end_call alone, on a finished call's record: the
//                           observer's own cost per call
//
// The tracer's queue is drained (flush) with the timer paused every 1,024 calls, so that no
// span is dropped: a dropped span would cost less than a recorded one. Checks first that an
// observed call answers as a plain one and that every call was recorded (--self-test: only the
// checks).

#include "fixture.hpp"

#include <agentry/registry.hpp>
#include <agentry/telemetry/metrics.hpp>
#include <agentry/telemetry/observer.hpp>
#include <agentry/telemetry/tracer.hpp>

#include <benchmark/benchmark.h>

#include <atomic>
#include <chrono>
#include <cstdio>
#include <cstring>
#include <string>
#include <string_view>
#include <vector>

namespace {

using clock_type = std::chrono::steady_clock;

constexpr agentry::registry tools{
    agentry::tool<"search_flights", "Search flight offers from an airport; returns the cheapest matching offer.">(
        bench::search_flights)};

template <class T>
T opaque(T value) {
    benchmark::DoNotOptimize(value);
    return value;
}

// The run's span, the parent of its calls.
agentry::trace_context run_span() {
    agentry::trace_context c;
    c.trace_id = {0x4b, 0xf9, 0x2f, 0x35, 0x77, 0xb3, 0x4d, 0xa6, 0xa3, 0xce, 0x92, 0x9d, 0x0e, 0x0e, 0x47, 0x36};
    c.span_id = {0x00, 0xf0, 0x67, 0xaa, 0x0b, 0xa9, 0x02, 0xb7};
    return c;
}

// The step's record of a call, as the call pipeline and the engine fill it.
void record(agentry::step& s, const agentry::tool_result& r, clock_type::time_point t0, clock_type::time_point t1) {
    const auto took = std::chrono::duration_cast<std::chrono::microseconds>(t1 - t0);
    s.attempts.clear();
    s.attempts.push_back({s.tool, 1, r.status, r.failure, false, took});
    s.duration = took;
    s.status = r.status;
    s.failure = r.failure;
}

// One call as the engine makes it: the same statements, in the same order.
agentry::tool_result engine_call(agentry::observer* observer, const agentry::trace_context& parent, agentry::step& s,
                                 std::string_view name, std::string_view arguments) {
    const auto t0 = clock_type::now();
    agentry::call_event seen;
    agentry::span_begun span;
    if (observer) {
        seen.tool = name;
        seen.call_id = "call_8f3a";
        seen.origin = agentry::call_origin::model;
        seen.arguments = arguments;
        span = observer->begin_call(parent.valid() ? &parent : nullptr, seen, t0);
    }
    agentry::call_scope scope;
    scope.trace = span.context;
    agentry::tool_result r = tools.call(name, arguments, {.scope = scope});
    const auto t1 = clock_type::now();
    record(s, r, t0, t1);
    if (observer) observer->end_call(span, seen, {&s, r.content, t1});
    return r;
}

// The same call without any observing statement.
agentry::tool_result plain_call(agentry::step& s, std::string_view name, std::string_view arguments) {
    const auto t0 = clock_type::now();
    agentry::call_scope scope;
    agentry::tool_result r = tools.call(name, arguments, {.scope = scope});
    const auto t1 = clock_type::now();
    record(s, r, t0, t1);
    return r;
}

void plain_case(benchmark::State& state) {
    agentry::step s;
    s.tool = "search_flights";
    s.id = "call_8f3a";
    for (auto _ : state) {
        agentry::tool_result r = plain_call(s, opaque(std::string_view("search_flights")), opaque(bench::flight_args));
        benchmark::DoNotOptimize(r);
    }
}

struct observers {
    agentry::metrics metrics;
    agentry::tracer tracer;
    agentry::observer_list both{&metrics, &tracer};
    std::atomic<std::uint64_t> spans{0};

    observers() : tracer(options(spans)) {}

    static agentry::tracer_options options(std::atomic<std::uint64_t>& count) {
        agentry::tracer_options o;
        o.queue_capacity = 1 << 16;
        o.on_span = [&count](const agentry::span& s) {
            if (!s.name.empty()) count.fetch_add(1, std::memory_order_relaxed);
        };
        return o;
    }

    agentry::observer* pick(std::string_view which) {
        if (which == "metrics") return &metrics;
        if (which == "tracer") return &tracer;
        if (which == "both") return &both;
        return nullptr;
    }
};

observers& shared() {
    static observers o;
    return o;
}

// Only where a tracer records (the flush costs, paused or not, are the benchmark's, not the call's).
void flush_paused(benchmark::State& state, const agentry::observer* observer, std::size_t done) {
    if (observer == nullptr || observer == &shared().metrics || (done & 1023) != 0) return;
    state.PauseTiming();
    shared().tracer.flush();
    state.ResumeTiming();
}

void call_case(benchmark::State& state, const char* which) {
    agentry::observer* observer = shared().pick(which);
    const agentry::trace_context parent = run_span();
    agentry::step s;
    s.tool = "search_flights";
    s.id = "call_8f3a";
    std::size_t done = 0;
    for (auto _ : state) {
        agentry::tool_result r = engine_call(observer, parent, s, opaque(std::string_view("search_flights")),
                                             opaque(bench::flight_args));
        benchmark::DoNotOptimize(r);
        flush_paused(state, observer, ++done);
    }
    if (observer) shared().tracer.flush();
}

void record_case(benchmark::State& state, const char* which) {
    agentry::observer* observer = shared().pick(which);
    const agentry::trace_context parent = run_span();
    agentry::step s;
    s.tool = "search_flights";
    s.id = "call_8f3a";
    s.attempts.push_back({s.tool, 1, agentry::tool_status::ok, std::nullopt, false, std::chrono::microseconds(12)});
    const std::string result = tools.call("search_flights", bench::flight_args).content;
    agentry::call_event seen;
    seen.tool = "search_flights";
    seen.call_id = "call_8f3a";
    seen.arguments = bench::flight_args;
    std::size_t done = 0;
    const auto t0 = clock_type::now() - std::chrono::microseconds(12);
    for (auto _ : state) {
        const agentry::span_begun span = observer->begin_call(&parent, seen, t0);
        observer->end_call(span, seen, {&s, result, t0 + std::chrono::microseconds(12)});
        benchmark::ClobberMemory();
        flush_paused(state, observer, ++done);
    }
    shared().tracer.flush();
}

int self_test() {
    int failures = 0;
    const auto check = [&](bool ok, const char* what) {
        if (ok) return;
        std::fprintf(stderr, "self-test: FAILED: %s\n", what);
        ++failures;
    };
    observers o;
    const agentry::trace_context parent = run_span();
    agentry::step s;
    s.tool = "search_flights";
    const std::string plain = tools.call("search_flights", bench::flight_args).content;
    for (const char* which : {"off", "metrics", "tracer", "both"})
        check(engine_call(o.pick(which), parent, s, "search_flights", bench::flight_args).content == plain,
              "an observed call answers as a plain one");
    check(plain_call(s, "search_flights", bench::flight_args).content == plain, "the plain call answers alike");
    check(o.tracer.flush(), "the tracer drains");
    check(o.spans.load() == 2, "the tracer made a span for each of its 2 calls");
    check(o.tracer.dropped() == 0, "no span dropped");
    const agentry::metrics_snapshot m = o.metrics.snapshot();
    std::uint64_t calls = 0;
    for (const auto& t : m.tools) calls += t.tool == "search_flights" ? t.calls : 0;
    check(calls == 2, "the metrics counted each of their 2 calls");
    return failures;
}

} // namespace

int main(int argc, char** argv) {
    bool only_self_test = false;
    std::vector<char*> args;
    for (int i = 0; i < argc; ++i) {
        if (std::strcmp(argv[i], "--self-test") == 0) only_self_test = true;
        else args.push_back(argv[i]);
    }
    if (const int failures = self_test(); failures != 0) {
        std::fprintf(stderr, "self-test: %d failures\n", failures);
        return 1;
    }
    std::fprintf(stderr, "self-test: passed\n");
    if (only_self_test) return 0;
    benchmark::RegisterBenchmark("observe/call/plain", plain_case);
    for (const char* which : {"off", "metrics", "tracer", "both"})
        benchmark::RegisterBenchmark((std::string("observe/call/") + which).c_str(), call_case, which);
    for (const char* which : {"metrics", "tracer", "both"})
        benchmark::RegisterBenchmark((std::string("observe/record/") + which).c_str(), record_case, which);
    int count = int(args.size());
    args.push_back(nullptr);
    benchmark::Initialize(&count, args.data());
    benchmark::RunSpecifiedBenchmarks();
    benchmark::Shutdown();
    std::fprintf(stderr, "tracer: %llu dropped\n", static_cast<unsigned long long>(shared().tracer.dropped()));
    return shared().tracer.dropped() == 0 ? 0 : 1;
}
