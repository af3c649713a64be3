// SPDX-License-Identifier: BSL-1.0
#ifndef AGENTRY_TELEMETRY_METRICS_HPP
#define AGENTRY_TELEMETRY_METRICS_HPP

// agentry::metrics: an observer (telemetry/observer.hpp) that counts tool calls, provider
// requests and runs, shared by any number of agents and MCP servers, read as plain structs
// (snapshot()), as JSON (json()) or in the Prometheus text format (prometheus()), and summed up
// as the figures of a dashboard (figures(), alerts()). docs/observability.md lists every metric.
//
//   agentry::metrics metrics{{.prices = {.models = {{"gpt-4o-mini", {0.15, 0.60, 0.075}}}}}};
//   agentry::agent agent{model, tools, {.observer = &metrics}};
//   mcp::http_options http;
//   http.metrics = &metrics;                             // GET /metrics on the MCP HTTP server
//
// Recording is lock-free: names live in fixed-capacity tables (detail/metrics_table.hpp), a
// name past a table's capacity is counted under "_other", and every counter is a
// std::atomic<std::uint64_t> kept once per lane (detail/metrics_lanes.hpp): a thread records into
// a lane of its own with relaxed loads and stores, threads past metrics_options::lanes into a
// shared lane with relaxed atomic additions. A tool call costs one hash of its name, one probe
// and about eight additions, with no allocation once the name is known. Costs are computed when
// read, from the price table given at construction. Reading is consistent per counter, not
// across counters: a reader racing writers may see a call counted and its duration not yet.

#include <agentry/telemetry/detail/metrics_table.hpp>
#include <agentry/telemetry/detail/metrics_text.hpp>
#include <agentry/telemetry/observer.hpp>

#include <agentry/json/writer.hpp>

#include <algorithm>
#include <array>
#include <chrono>
#include <cmath>
#include <cstddef>
#include <cstdint>
#include <functional>
#include <limits>
#include <map>
#include <memory>
#include <string>
#include <string_view>
#include <tuple>
#include <vector>

namespace agentry {

/// Dollars per million tokens of a model.
struct model_price {
    double input_per_million = 0;
    double output_per_million = 0;
    /// Input tokens read from the prompt cache (the rest of the input costs input_per_million).
    double cached_input_per_million = 0;
};

struct price_table {
    /// By model name (gen_ai.request.model).
    std::map<std::string, model_price, std::less<>> models;
    /// Tool name -> dollars per call.
    std::map<std::string, double, std::less<>> per_call;
    /// The model whose prices tools' tokens cost: argument tokens as its output, result tokens
    /// as its input. Empty: tools' tokens cost nothing.
    std::string tool_tokens_model;
};

struct metrics_options {
    /// Tool names kept; more are counted under "_other".
    std::size_t max_tools = 1024;
    /// (provider, model) pairs kept; more are counted under ("_other", "_other").
    std::size_t max_providers = 64;
    /// (agent, stop reason) pairs kept; more are counted under ("_other", "_other").
    std::size_t max_runs = 256;
    /// Threads that record at once, each into counters of its own with plain stores; a thread
    /// takes a lane when it first records and gives it back when it exits. Threads past this
    /// number share one more lane, with atomic additions. Every name's counters are kept once
    /// per lane, plus the shared one (about 300 bytes for a tool).
    std::size_t lanes = 8;
    price_table prices{};
};

/// A histogram read: counts[i] holds the observations in (bounds[i-1], bounds[i]] (not
/// cumulative); counts.back() those above the last bound.
struct histogram_snapshot {
    std::vector<double> bounds;
    std::vector<std::uint64_t> counts;
    double sum = 0;
    std::uint64_t count = 0;

    /// The q-quantile (0 <= q <= 1) as Prometheus' histogram_quantile() estimates it: linear
    /// interpolation within the bucket the rank falls in, the first bucket starting at 0, the
    /// last bound when it falls above it. NaN without observations.
    double quantile(double q) const noexcept {
        if (count == 0 || counts.size() != bounds.size() + 1) return std::numeric_limits<double>::quiet_NaN();
        if (q < 0) return -std::numeric_limits<double>::infinity();
        if (q > 1) return std::numeric_limits<double>::infinity();
        const double rank = q * static_cast<double>(count);
        std::uint64_t below = 0;
        for (std::size_t b = 0; b != bounds.size(); ++b) {
            const std::uint64_t cumulative = below + counts[b];
            if (static_cast<double>(cumulative) >= rank) {
                if (b == 0 && bounds[0] <= 0) return bounds[0];
                const double start = b == 0 ? 0 : bounds[b - 1];
                return start + (bounds[b] - start) * (rank - static_cast<double>(below)) /
                                   static_cast<double>(counts[b]);
            }
            below = cumulative;
        }
        return bounds.empty() ? std::numeric_limits<double>::quiet_NaN() : bounds.back();
    }
};

/// Calls that ended with one outcome: to_string(tool_status), and for tool_error the failure
/// kind (to_string(failure_kind), "unclassified" for a tool that threw); empty otherwise.
struct outcome_count {
    std::string outcome;
    std::string failure;
    std::uint64_t count = 0;
};

struct tool_snapshot {
    std::string tool;
    std::uint64_t calls = 0;
    /// The outcomes that occurred, ok first, in tool_status order, then tool_error by kind.
    std::vector<outcome_count> outcomes;
    /// Tries, fallbacks' included.
    std::uint64_t attempts = 0;
    /// Tries of the tool itself after its first.
    std::uint64_t retries = 0;
    std::uint64_t timeouts = 0;
    /// Calls a fallback answered.
    std::uint64_t fallbacks = 0;
    /// Estimated: a token per 4 bytes of the arguments, and of what the model was sent.
    std::uint64_t argument_tokens = 0;
    std::uint64_t result_tokens = 0;
    /// Seconds from begin_call to end_call.
    histogram_snapshot duration;
    /// Dollars, from the price table.
    double cost = 0;
};

struct error_count {
    /// provider_error_kind's name: "transport", "bad_request", "rate_limited", ...
    std::string kind;
    std::uint64_t count = 0;
};

struct provider_snapshot {
    std::string provider;
    std::string model;
    std::uint64_t requests = 0;
    std::vector<error_count> errors;
    std::uint64_t retries = 0;
    /// Seconds per request.
    histogram_snapshot duration;
    /// Input and output tokens per completed request that reported any.
    histogram_snapshot input_tokens;
    histogram_snapshot output_tokens;
    token_usage tokens{};
    double cost = 0;
};

struct run_count {
    std::string agent;
    std::string stop;
    std::uint64_t count = 0;
};

/// Everything counted, each list sorted by name; names never seen, and an unused "_other",
/// are left out.
struct metrics_snapshot {
    std::vector<tool_snapshot> tools;
    std::vector<provider_snapshot> providers;
    std::vector<run_count> runs;
};

/// A tool's figures on a dashboard.
struct tool_figures {
    std::string tool;
    std::uint64_t calls = 0;
    /// Calls with outcome ok, over calls.
    double success_rate = 0;
    /// Seconds.
    double mean_latency = 0;
    double p99_latency = 0;
    /// Calls a fallback answered, over calls.
    double fallback_rate = 0;
    /// This tool's calls over all tools' calls (the usage distribution).
    double share = 0;
};

struct failure_figure {
    std::string tool;
    std::string outcome;
    std::string failure;
    std::uint64_t count = 0;
};

struct dashboard {
    std::uint64_t calls = 0;
    double success_rate = 0;
    double fallback_rate = 0;
    /// Tools by calls, most used first (ties by name).
    std::vector<tool_figures> tools;
    /// Outcomes other than ok, most frequent first (ties by tool, outcome, failure).
    std::vector<failure_figure> top_failures;
};

struct alert_thresholds {
    double min_success_rate = 0.95;
    std::chrono::duration<double> max_p99_latency{30};
    double max_fallback_rate = 0.10;
};

namespace detail {

inline constexpr std::array<double, 15> tool_duration_bounds{0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1,
                                                             2.5,   5,    10,    30,   60,  120,  300};
inline constexpr std::array<double, 14> request_duration_bounds{0.01, 0.02, 0.04, 0.08, 0.16,  0.32,  0.64,
                                                                1.28, 2.56, 5.12, 10.24, 20.48, 40.96, 81.92};
inline constexpr std::array<std::uint64_t, 14> token_bounds{
    1, 4, 16, 64, 256, 1024, 4096, 16384, 65536, 262144, 1048576, 4194304, 16777216, 67108864};

template <std::size_t N>
constexpr std::array<std::uint64_t, N> in_nanoseconds(const std::array<double, N>& seconds) {
    std::array<std::uint64_t, N> out{};
    for (std::size_t i = 0; i != N; ++i) out[i] = static_cast<std::uint64_t>(seconds[i] * 1e9 + 0.5);
    return out;
}
inline constexpr auto tool_duration_edges = in_nanoseconds(tool_duration_bounds);
inline constexpr auto request_duration_edges = in_nanoseconds(request_duration_bounds);

/// The outcomes of a call, as indexes: tool_status's values, then tool_error by failure_kind.
inline constexpr std::size_t status_count = 6;
inline constexpr std::size_t outcome_count = status_count + 5;
inline constexpr std::array<std::string_view, outcome_count> outcome_names{
    "ok", "invalid_arguments", "unknown_tool", "tool_error", "denied", "rate_limited",
    "tool_error", "tool_error", "tool_error", "tool_error", "tool_error"};
inline constexpr std::array<std::string_view, outcome_count> outcome_failures{
    "", "", "", "unclassified", "", "", "transient", "permanent", "invalid_input", "not_found", "permission"};

/// provider_error_kind's values (to_string names them).
inline constexpr std::size_t provider_error_count = std::size_t(provider_error_kind::insecure) + 1;

struct alignas(64) tool_counters {
    std::array<counter, outcome_count> outcomes{};
    counter attempts{0};
    counter retries{0};
    counter timeouts{0};
    counter fallbacks{0};
    counter argument_tokens{0};
    counter result_tokens{0};
    histogram_counts<15> duration{};  // sum in nanoseconds
};

struct alignas(64) provider_counters {
    counter requests{0};
    std::array<counter, provider_error_count> errors{};
    counter retries{0};
    histogram_counts<14> duration{};  // sum in nanoseconds
    histogram_counts<14> input_tokens{};
    histogram_counts<14> output_tokens{};
    counter input{0};
    counter output{0};
    counter cached{0};
    counter cache_write{0};
    counter reasoning{0};
};

struct alignas(64) run_counters {
    counter runs{0};
};

inline std::uint64_t nanoseconds(std::chrono::steady_clock::duration d) noexcept {
    const auto ns = std::chrono::duration_cast<std::chrono::nanoseconds>(d).count();
    return ns > 0 ? static_cast<std::uint64_t>(ns) : 0;
}

/// The sum over the lanes of the counter `get` picks.
template <class Counters, class Get>
std::uint64_t total(const Counters* lanes, std::size_t n, Get get) noexcept {
    std::uint64_t out = 0;
    for (std::size_t i = 0; i != n; ++i) out += read(get(lanes[i]));
    return out;
}

/// The histogram `get` picks, summed over the lanes, its sum divided by `scale`.
template <class Counters, class Get, class Bound, std::size_t N>
histogram_snapshot read_histogram(const Counters* lanes, std::size_t n, Get get, const std::array<Bound, N>& bounds,
                                  double scale) {
    histogram_snapshot out;
    out.bounds.assign(bounds.begin(), bounds.end());
    out.counts.reserve(N + 1);
    for (std::size_t b = 0; b != N + 1; ++b) {
        out.counts.push_back(total(lanes, n, [&](const Counters& c) -> const counter& { return get(c).counts[b]; }));
        out.count += out.counts.back();
    }
    out.sum = static_cast<double>(total(lanes, n, [&](const Counters& c) -> const counter& { return get(c).sum; })) / scale;
    return out;
}

inline double dollars(std::uint64_t tokens, double per_million) noexcept {
    return static_cast<double>(tokens) * per_million / 1e6;
}

/// `n` percent of a rate, with at most one decimal: "95", "92.5".
inline std::string percent(double rate) {
    std::string out;
    append_number(out, std::round(rate * 1000) / 10);
    return out;
}

/// Seconds with at most three decimals: "30", "45.5".
inline std::string seconds_text(double s) {
    std::string out;
    append_number(out, std::round(s * 1000) / 1000);
    return out;
}

} // namespace detail

/// The dashboard's figures from a snapshot; `top` failures at most.
inline dashboard figures(const metrics_snapshot& snapshot, std::size_t top = 10) {
    dashboard out;
    std::uint64_t ok = 0, fallbacks = 0;
    for (const tool_snapshot& t : snapshot.tools) {
        out.calls += t.calls;
        fallbacks += t.fallbacks;
        for (const outcome_count& o : t.outcomes)
            if (o.outcome == "ok") ok += o.count;
    }
    const auto rate = [](std::uint64_t part, std::uint64_t whole) {
        return whole == 0 ? 0.0 : static_cast<double>(part) / static_cast<double>(whole);
    };
    out.success_rate = rate(ok, out.calls);
    out.fallback_rate = rate(fallbacks, out.calls);
    for (const tool_snapshot& t : snapshot.tools) {
        if (t.calls == 0) continue;
        tool_figures f;
        f.tool = t.tool;
        f.calls = t.calls;
        std::uint64_t tool_ok = 0;
        for (const outcome_count& o : t.outcomes) {
            if (o.outcome == "ok") tool_ok += o.count;
            else out.top_failures.push_back({t.tool, o.outcome, o.failure, o.count});
        }
        f.success_rate = rate(tool_ok, t.calls);
        f.mean_latency = t.duration.count == 0 ? 0 : t.duration.sum / static_cast<double>(t.duration.count);
        f.p99_latency = t.duration.count == 0 ? 0 : t.duration.quantile(0.99);
        f.fallback_rate = rate(t.fallbacks, t.calls);
        f.share = rate(t.calls, out.calls);
        out.tools.push_back(std::move(f));
    }
    std::stable_sort(out.tools.begin(), out.tools.end(),
                     [](const tool_figures& a, const tool_figures& b) { return a.calls > b.calls; });
    std::sort(out.top_failures.begin(), out.top_failures.end(), [](const failure_figure& a, const failure_figure& b) {
        return std::tie(b.count, a.tool, a.outcome, a.failure) < std::tie(a.count, b.tool, b.outcome, b.failure);
    });
    if (out.top_failures.size() > top) out.top_failures.resize(top);
    return out;
}

/// The thresholds `d` breaks, one sentence each, tool by tool as `d` lists them.
inline std::vector<std::string> alerts(const dashboard& d, const alert_thresholds& limits = {}) {
    std::vector<std::string> out;
    for (const tool_figures& t : d.tools) {
        const std::string who = "agentry: tool \"" + t.tool + "\": ";
        if (t.success_rate < limits.min_success_rate)
            out.push_back(who + "success rate " + detail::percent(t.success_rate) + "% is below " +
                          detail::percent(limits.min_success_rate) + "% over " + std::to_string(t.calls) +
                          (t.calls == 1 ? " call" : " calls") + "; see its top failures");
        if (t.p99_latency > limits.max_p99_latency.count())
            out.push_back(who + "p99 latency " + detail::seconds_text(t.p99_latency) + " s is above " +
                          detail::seconds_text(limits.max_p99_latency.count()) +
                          " s; give it a timeout or make it faster");
        if (t.fallback_rate > limits.max_fallback_rate)
            out.push_back(who + "fallback rate " + detail::percent(t.fallback_rate) + "% is above " +
                          detail::percent(limits.max_fallback_rate) + "%; its fallbacks answer for it too often");
    }
    return out;
}

class metrics final : public observer {
public:
    explicit metrics(metrics_options options = {})
        : prices_(std::move(options.prices)),
          lanes_(std::make_shared<detail::lane_registry>(options.lanes)),
          tools_(options.max_tools, options.lanes + 1, "_other", ""),
          providers_(options.max_providers, options.lanes + 1, "_other", "_other"),
          runs_(options.max_runs, options.lanes + 1, "_other", "_other") {}

    metrics(const metrics&) = delete;
    metrics& operator=(const metrics&) = delete;

    /// Counts a call by its record (a call without one, end.record null, is not counted) and
    /// its duration from span.start to end.end.
    /// Makes no spans: begin_* are observer's.
    bool makes_spans() const noexcept override { return false; }

    void end_call(const span_begun& span, const call_event& e, const call_end_event& end) noexcept override {
        const step* r = end.record;
        if (!r) return;
        const detail::lane l = detail::current_lane(lanes_);
        detail::tool_counters& c = tools_.find(e.tool, {})[l.index];
        std::size_t outcome = static_cast<std::size_t>(r->status);
        if (r->status == tool_status::tool_error && r->failure)
            outcome = detail::status_count + static_cast<std::size_t>(*r->failure);
        if (outcome >= detail::outcome_count) outcome = static_cast<std::size_t>(tool_status::tool_error);
        detail::add(c.outcomes[outcome], 1, l);
        std::uint64_t retries = 0;
        for (const attempt& a : r->attempts) retries += a.number > 1 && a.tool == e.tool ? 1u : 0u;
        detail::add(c.attempts, r->attempts.size(), l);
        detail::add(c.retries, retries, l);
        detail::add(c.timeouts, r->timed_out ? 1 : 0, l);
        detail::add(c.fallbacks, r->fallback.empty() ? 0 : 1, l);
        detail::add(c.argument_tokens, (e.arguments.size() + 3) / 4, l);
        detail::add(c.result_tokens, (end.result.size() + 3) / 4, l);
        c.duration.observe(detail::tool_duration_edges, detail::nanoseconds(end.end - span.start), l);
    }

    /// Counts a request; its tokens go to gen_ai_client_token_usage when it completed and
    /// reported any.
    void provider_request(const request_event& e) noexcept override {
        const detail::lane l = detail::current_lane(lanes_);
        detail::provider_counters& c = providers_.find(e.provider, e.model)[l.index];
        detail::add(c.requests, 1, l);
        if (e.error) {
            const auto kind = static_cast<std::size_t>(e.error->kind);
            if (kind < c.errors.size()) detail::add(c.errors[kind], 1, l);
        }
        detail::add(c.retries, e.retry ? 1 : 0, l);
        c.duration.observe(detail::request_duration_edges, detail::nanoseconds(e.duration), l);
        const token_usage& u = e.usage;
        detail::add(c.input, u.input_tokens, l);
        detail::add(c.output, u.output_tokens, l);
        detail::add(c.cached, u.cached_input_tokens, l);
        detail::add(c.cache_write, u.cache_write_tokens, l);
        detail::add(c.reasoning, u.reasoning_tokens, l);
        if (!e.error && (u.input_tokens != 0 || u.output_tokens != 0)) {
            c.input_tokens.observe(detail::token_bounds, u.input_tokens, l);
            c.output_tokens.observe(detail::token_bounds, u.output_tokens, l);
        }
    }

    /// Counts a run by its agent and stop reason.
    void end_run(const span_begun&, const run_event& e, const run_end_event& end) noexcept override {
        const detail::lane l = detail::current_lane(lanes_);
        detail::add(runs_.find(e.agent, end.stop)[l.index].runs, 1, l);
    }

    /// Everything counted so far, with costs from the price table.
    metrics_snapshot snapshot() const {
        metrics_snapshot out;
        using detail::total;
        using tc = detail::tool_counters;
        using pc = detail::provider_counters;
        const std::size_t n_lanes = tools_.lanes();
        tools_.each([&](const auto& entry) {
            const tc* c = entry.lanes.get();
            const auto sum = [&](auto get) { return total(c, n_lanes, get); };
            tool_snapshot t;
            t.tool = entry.first;
            for (std::size_t i = 0; i != detail::outcome_count; ++i)
                if (const std::uint64_t n = sum([i](const tc& x) -> const detail::counter& { return x.outcomes[i]; });
                    n != 0) {
                    t.outcomes.push_back({std::string(detail::outcome_names[i]),
                                          std::string(detail::outcome_failures[i]), n});
                    t.calls += n;
                }
            if (t.calls == 0) return;
            t.attempts = sum([](const tc& x) -> const detail::counter& { return x.attempts; });
            t.retries = sum([](const tc& x) -> const detail::counter& { return x.retries; });
            t.timeouts = sum([](const tc& x) -> const detail::counter& { return x.timeouts; });
            t.fallbacks = sum([](const tc& x) -> const detail::counter& { return x.fallbacks; });
            t.argument_tokens = sum([](const tc& x) -> const detail::counter& { return x.argument_tokens; });
            t.result_tokens = sum([](const tc& x) -> const detail::counter& { return x.result_tokens; });
            t.duration = detail::read_histogram(
                c, n_lanes, [](const tc& x) -> const auto& { return x.duration; }, detail::tool_duration_bounds, 1e9);
            if (const auto it = prices_.per_call.find(t.tool); it != prices_.per_call.end())
                t.cost += static_cast<double>(t.calls) * it->second;
            if (const auto it = prices_.models.find(prices_.tool_tokens_model); it != prices_.models.end())
                t.cost += detail::dollars(t.argument_tokens, it->second.output_per_million) +
                          detail::dollars(t.result_tokens, it->second.input_per_million);
            out.tools.push_back(std::move(t));
        });
        providers_.each([&](const auto& entry) {
            const pc* c = entry.lanes.get();
            const auto sum = [&](auto get) { return total(c, n_lanes, get); };
            provider_snapshot p;
            p.requests = sum([](const pc& x) -> const detail::counter& { return x.requests; });
            if (p.requests == 0) return;
            p.provider = entry.first;
            p.model = entry.second;
            for (std::size_t i = 0; i != detail::provider_error_count; ++i)
                if (const std::uint64_t n = sum([i](const pc& x) -> const detail::counter& { return x.errors[i]; }); n != 0)
                    p.errors.push_back({std::string(to_string(provider_error_kind(i))), n});
            p.retries = sum([](const pc& x) -> const detail::counter& { return x.retries; });
            p.duration = detail::read_histogram(
                c, n_lanes, [](const pc& x) -> const auto& { return x.duration; }, detail::request_duration_bounds, 1e9);
            p.input_tokens = detail::read_histogram(
                c, n_lanes, [](const pc& x) -> const auto& { return x.input_tokens; }, detail::token_bounds, 1);
            p.output_tokens = detail::read_histogram(
                c, n_lanes, [](const pc& x) -> const auto& { return x.output_tokens; }, detail::token_bounds, 1);
            p.tokens.input_tokens = sum([](const pc& x) -> const detail::counter& { return x.input; });
            p.tokens.output_tokens = sum([](const pc& x) -> const detail::counter& { return x.output; });
            p.tokens.cached_input_tokens = sum([](const pc& x) -> const detail::counter& { return x.cached; });
            p.tokens.cache_write_tokens = sum([](const pc& x) -> const detail::counter& { return x.cache_write; });
            p.tokens.reasoning_tokens = sum([](const pc& x) -> const detail::counter& { return x.reasoning; });
            if (const auto it = prices_.models.find(p.model); it != prices_.models.end()) {
                const std::uint64_t cached = std::min(p.tokens.cached_input_tokens, p.tokens.input_tokens);
                p.cost = detail::dollars(p.tokens.input_tokens - cached, it->second.input_per_million) +
                         detail::dollars(cached, it->second.cached_input_per_million) +
                         detail::dollars(p.tokens.output_tokens, it->second.output_per_million);
            }
            out.providers.push_back(std::move(p));
        });
        runs_.each([&](const auto& entry) {
            if (const std::uint64_t n = total(entry.lanes.get(), n_lanes,
                                              [](const detail::run_counters& x) -> const detail::counter& { return x.runs; });
                n != 0)
                out.runs.push_back({entry.first, entry.second, n});
        });
        std::sort(out.tools.begin(), out.tools.end(),
                  [](const tool_snapshot& a, const tool_snapshot& b) { return a.tool < b.tool; });
        std::sort(out.providers.begin(), out.providers.end(), [](const provider_snapshot& a, const provider_snapshot& b) {
            return std::tie(a.provider, a.model) < std::tie(b.provider, b.model);
        });
        std::sort(out.runs.begin(), out.runs.end(), [](const run_count& a, const run_count& b) {
            return std::tie(a.agent, a.stop) < std::tie(b.agent, b.stop);
        });
        return out;
    }

    /// The snapshot as JSON (json::write of metrics_snapshot).
    std::string json() const { return json::to_json(snapshot()); }

    /// The snapshot in the Prometheus text exposition format 0.0.4.
    std::string prometheus() const { return prometheus(snapshot()); }

    static std::string prometheus(const metrics_snapshot& s);

    /// The dashboard's figures of what was counted so far.
    dashboard figures(std::size_t top = 10) const { return agentry::figures(snapshot(), top); }

private:
    price_table prices_;
    std::shared_ptr<detail::lane_registry> lanes_;
    detail::metrics_table<detail::tool_counters> tools_;
    detail::metrics_table<detail::provider_counters> providers_;
    detail::metrics_table<detail::run_counters> runs_;
};

namespace detail {

inline void append_histogram(std::string& out, std::string_view name, std::initializer_list<metric_label> labels,
                             const histogram_snapshot& h) {
    const std::string bucket = std::string(name) + "_bucket";
    std::uint64_t cumulative = 0;
    std::string le;
    for (std::size_t i = 0; i != h.counts.size(); ++i) {
        cumulative += h.counts[i];
        le.clear();
        append_number(le, i < h.bounds.size() ? h.bounds[i] : std::numeric_limits<double>::infinity());
        append_series(out, bucket, labels, {"le", le});
        append_number(out, cumulative);
        out += '\n';
    }
    append_sample(out, std::string(name) + "_sum", labels, h.sum);
    append_sample(out, std::string(name) + "_count", labels, h.count);
}

} // namespace detail

inline std::string metrics::prometheus(const metrics_snapshot& s) {
    using detail::append_family;
    using detail::append_sample;
    std::string out;
    append_family(out, "agentry_tool_calls_total", "counter",
                  "Tool calls by outcome (failure: the failure kind of a tool_error).");
    for (const tool_snapshot& t : s.tools)
        for (const outcome_count& o : t.outcomes)
            append_sample(out, "agentry_tool_calls_total",
                          {{"tool", t.tool}, {"outcome", o.outcome}, {o.failure.empty() ? "" : "failure", o.failure}},
                          o.count);
    const auto per_tool = [&](std::string_view name, std::string_view help, auto member) {
        append_family(out, name, "counter", help);
        for (const tool_snapshot& t : s.tools) append_sample(out, name, {{"tool", t.tool}}, t.*member);
    };
    per_tool("agentry_tool_attempts_total", "Tries of tool calls, fallbacks' included.", &tool_snapshot::attempts);
    per_tool("agentry_tool_retries_total", "Tries of a tool after the first try of its call.", &tool_snapshot::retries);
    per_tool("agentry_tool_timeouts_total", "Tool calls that passed their timeout.", &tool_snapshot::timeouts);
    per_tool("agentry_tool_fallbacks_total", "Tool calls a fallback tool answered.", &tool_snapshot::fallbacks);
    per_tool("agentry_tool_argument_tokens_total", "Estimated tokens of tool call arguments (bytes / 4, rounded up).",
             &tool_snapshot::argument_tokens);
    per_tool("agentry_tool_result_tokens_total", "Estimated tokens of tool results (bytes / 4, rounded up).",
             &tool_snapshot::result_tokens);
    per_tool("agentry_tool_cost_dollars_total", "Cost of tool calls in dollars, from the price table.",
             &tool_snapshot::cost);
    append_family(out, "agentry_tool_duration_seconds", "histogram", "Duration of tool calls in seconds.");
    for (const tool_snapshot& t : s.tools)
        detail::append_histogram(out, "agentry_tool_duration_seconds", {{"tool", t.tool}}, t.duration);

    append_family(out, "agentry_provider_requests_total", "counter", "Requests to model providers, retries included.");
    for (const provider_snapshot& p : s.providers)
        append_sample(out, "agentry_provider_requests_total", {{"provider", p.provider}, {"model", p.model}}, p.requests);
    append_family(out, "agentry_provider_errors_total", "counter", "Provider requests that ended with an error, by kind.");
    for (const provider_snapshot& p : s.providers)
        for (const error_count& e : p.errors)
            append_sample(out, "agentry_provider_errors_total",
                          {{"provider", p.provider}, {"model", p.model}, {"kind", e.kind}}, e.count);
    append_family(out, "agentry_provider_retries_total", "counter", "Provider requests that retried a transient error.");
    for (const provider_snapshot& p : s.providers)
        append_sample(out, "agentry_provider_retries_total", {{"provider", p.provider}, {"model", p.model}}, p.retries);
    append_family(out, "agentry_provider_tokens_total", "counter",
                  "Tokens reported by providers (input and output include cached and reasoning tokens).");
    for (const provider_snapshot& p : s.providers) {
        const std::pair<std::string_view, std::uint64_t> types[] = {{"input", p.tokens.input_tokens},
                                                                    {"output", p.tokens.output_tokens},
                                                                    {"cached", p.tokens.cached_input_tokens},
                                                                    {"cache_write", p.tokens.cache_write_tokens},
                                                                    {"reasoning", p.tokens.reasoning_tokens}};
        for (const auto& [type, n] : types)
            append_sample(out, "agentry_provider_tokens_total",
                          {{"provider", p.provider}, {"model", p.model}, {"type", type}}, n);
    }
    append_family(out, "agentry_provider_cost_dollars_total", "counter",
                  "Cost of provider requests in dollars, from the price table.");
    for (const provider_snapshot& p : s.providers)
        append_sample(out, "agentry_provider_cost_dollars_total", {{"provider", p.provider}, {"model", p.model}}, p.cost);
    append_family(out, "gen_ai_client_operation_duration_seconds", "histogram",
                  "GenAI operation duration (OpenTelemetry gen_ai.client.operation.duration).");
    for (const provider_snapshot& p : s.providers)
        detail::append_histogram(out, "gen_ai_client_operation_duration_seconds",
                                 {{"gen_ai_operation_name", "chat"},
                                  {"gen_ai_provider_name", p.provider},
                                  {"gen_ai_request_model", p.model}},
                                 p.duration);
    append_family(out, "gen_ai_client_token_usage", "histogram",
                  "Tokens used per request (OpenTelemetry gen_ai.client.token.usage).");
    for (const provider_snapshot& p : s.providers) {
        detail::append_histogram(out, "gen_ai_client_token_usage",
                                 {{"gen_ai_operation_name", "chat"},
                                  {"gen_ai_provider_name", p.provider},
                                  {"gen_ai_request_model", p.model},
                                  {"gen_ai_token_type", "input"}},
                                 p.input_tokens);
        detail::append_histogram(out, "gen_ai_client_token_usage",
                                 {{"gen_ai_operation_name", "chat"},
                                  {"gen_ai_provider_name", p.provider},
                                  {"gen_ai_request_model", p.model},
                                  {"gen_ai_token_type", "output"}},
                                 p.output_tokens);
    }

    append_family(out, "agentry_runs_total", "counter", "Agent runs by stop reason.");
    for (const run_count& r : s.runs) append_sample(out, "agentry_runs_total", {{"agent", r.agent}, {"stop", r.stop}}, r.count);
    return out;
}

} // namespace agentry

#endif
