// SPDX-License-Identifier: BSL-1.0
#ifndef AGENTRY_TESTS_METRICS_EVENTS_HPP
#define AGENTRY_TESTS_METRICS_EVENTS_HPP

// Events as an agent or an MCP server tells them to an observer, for the metrics tests.

#include <agentry/telemetry/metrics.hpp>

#include <chrono>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace metrics_test {

using namespace std::chrono_literals;
using clock = std::chrono::steady_clock;

inline const clock::time_point t0 = clock::time_point{} + 1h;

struct call {
    std::string tool;
    agentry::tool_status status = agentry::tool_status::ok;
    std::optional<agentry::failure_kind> failure{};
    std::vector<agentry::attempt> attempts{};
    std::string fallback{};
    bool timed_out = false;
    std::string arguments{};
    std::string result{};
    clock::duration took{};
};

inline agentry::attempt tried(std::string tool, std::uint32_t number,
                              agentry::tool_status status = agentry::tool_status::ok) {
    agentry::attempt a;
    a.tool = std::move(tool);
    a.number = number;
    a.status = status;
    return a;
}

/// Tells `o` about the call as the call pipeline does: begin_call, then end_call.
inline void record(agentry::observer& o, const call& c) {
    agentry::step s;
    s.tool = c.tool;
    s.arguments = c.arguments;
    s.status = c.status;
    s.failure = c.failure;
    s.attempts = c.attempts;
    s.fallback = c.fallback;
    s.timed_out = c.timed_out;
    agentry::call_event e;
    e.tool = c.tool;
    e.call_id = "call_1";
    e.arguments = c.arguments;
    const agentry::span_begun span = o.begin_call(nullptr, e, t0);
    agentry::call_end_event end;
    end.record = &s;
    end.result = c.result;
    end.end = t0 + c.took;
    o.end_call(span, e, end);
}

inline void request(agentry::observer& o, std::string_view provider, std::string_view model, clock::duration took,
                    agentry::token_usage usage = {}, const agentry::provider_error* error = nullptr,
                    bool retry = false) {
    agentry::request_event e;
    e.provider = provider;
    e.model = model;
    e.error = error;
    e.retry = retry;
    e.usage = usage;
    e.duration = took;
    o.provider_request(e);
}

inline void run(agentry::observer& o, std::string_view agent, std::string_view stop) {
    agentry::run_event e;
    e.agent = agent;
    e.run_id = "run_1";
    e.provider = "openai";
    e.model = "gpt-4o-mini";
    const agentry::span_begun span = o.begin_run(nullptr, e, t0);
    agentry::run_end_event end;
    end.stop = stop;
    end.end = t0 + 3s;
    o.end_run(span, e, end);
}

inline agentry::token_usage usage(std::uint64_t input, std::uint64_t output, std::uint64_t cached = 0,
                                  std::uint64_t cache_write = 0, std::uint64_t reasoning = 0) {
    agentry::token_usage u;
    u.input_tokens = input;
    u.output_tokens = output;
    u.cached_input_tokens = cached;
    u.cache_write_tokens = cache_write;
    u.reasoning_tokens = reasoning;
    return u;
}

/// The scripted sequence the exposition and JSON tests read back.
inline void script(agentry::observer& o) {
    using agentry::tool_status;
    call ok{"search"};
    ok.arguments = R"({"q":"paris"})";  // 13 bytes: 4 tokens
    ok.result = R"(["a","b"])";         // 9 bytes: 3 tokens
    ok.attempts = {tried("search", 1)};
    ok.took = 20ms;
    record(o, ok);

    call retried{"search"};
    retried.status = tool_status::tool_error;
    retried.failure = agentry::failure_kind::not_found;
    retried.attempts = {tried("search", 1, tool_status::tool_error), tried("search", 2, tool_status::tool_error)};
    retried.arguments = R"({"q":"atlantis"})";  // 16 bytes: 4 tokens
    retried.result = "no such city";              // 12 bytes: 3 tokens
    retried.took = 2s;
    record(o, retried);

    call fell_back{"search"};
    fell_back.attempts = {tried("search", 1, tool_status::tool_error), tried("search_backup", 1)};
    fell_back.fallback = "search_backup";
    fell_back.timed_out = true;
    fell_back.arguments = R"({"q":"rome"})";  // 12 bytes: 3 tokens
    fell_back.result = R"(["c"])";            // 5 bytes: 2 tokens
    fell_back.took = 40s;
    record(o, fell_back);

    call denied{"fetch"};
    denied.status = tool_status::denied;
    denied.result = "denied";
    record(o, denied);

    call odd{"we\"ird\\\n"};
    odd.attempts = {tried(odd.tool, 1)};
    odd.took = 1ms;
    record(o, odd);

    request(o, "openai", "gpt-4o-mini", 500ms, usage(1000, 50, 200, 0, 10));
    agentry::provider_error limited;
    limited.kind = agentry::provider_error_kind::rate_limited;
    limited.status = 429;
    request(o, "openai", "gpt-4o-mini", 100ms, {}, &limited);
    request(o, "openai", "gpt-4o-mini", 1500ms, usage(1000, 20), nullptr, true);

    run(o, "travel", "completed");
    run(o, "travel", "completed");
    run(o, "travel", "max_turns");
}

inline agentry::metrics_options priced() {
    agentry::metrics_options options;
    options.prices.models["gpt-4o-mini"] = {0.15, 0.60, 0.075};
    options.prices.per_call["search"] = 0.001;
    options.prices.tool_tokens_model = "gpt-4o-mini";
    return options;
}

} // namespace metrics_test

#endif
