// SPDX-License-Identifier: BSL-1.0
#ifndef AGENTRY_TELEMETRY_TRACER_HPP
#define AGENTRY_TELEMETRY_TRACER_HPP

// agentry::tracer: the observer that makes OpenTelemetry spans (GenAI and MCP semantic
// conventions) of runs, model turns, plans, tool calls and MCP requests, gives each finished
// span to tracer_options::on_span and, with tracer_options::otlp, exports it as OTLP/HTTP JSON.
//
//   agentry::tracer_options options;
//   options.on_span = [](const agentry::span& s) { std::printf("%s\n", s.name.c_str()); };
//   agentry::tracer tracer{std::move(options)};
//   agent_options.observer = &tracer;
//
// The span tree (docs/observability.md, "Traces", lists every attribute):
//
//   invoke_agent {agent}            internal  a run
//     chat {model}                  client    a model turn
//     plan {agent}                  internal  a plan
//       execute_tool {tool}         internal  a plan's step
//     execute_tool {tool}           internal  a tool call
//       invoke_agent {sub-agent}    internal  an agent called as a tool
//       tools/call {tool}           client    a call to an MCP server
//         tools/call {tool}         server    the server's side, its parent from params._meta
//
// Cost on the caller's thread: begin_* draws ids from a per-thread generator and returns;
// nothing is kept between begin and end. end_* fills a fixed-size record in place in a bounded
// lock-free queue (one compare-and-swap, texts copied into inline buffers and cut past their
// sizes); no allocation (but the arguments and result copied with capture_content), no lock,
// no system call, never a wait. A full queue drops the span and counts it (dropped()).
//
// The tracer's own thread wakes every wake_interval (and on flush()), turns records into
// agentry::span (steady_clock times into Unix time by one pair of readings taken at
// construction), calls on_span (what it throws is caught and counted), and hands spans to the
// OTLP exporter, whose requests it makes. The destructor stops it after a last flush bounded by
// shutdown_timeout; what is still unsent then is dropped and counted.

#include <agentry/telemetry/detail/span_ids.hpp>
#include <agentry/telemetry/detail/span_queue.hpp>
#include <agentry/telemetry/detail/span_record.hpp>
#include <agentry/telemetry/observer.hpp>
#include <agentry/telemetry/otlp.hpp>
#include <agentry/telemetry/span.hpp>

#include <atomic>
#include <condition_variable>
#include <cstddef>
#include <cstdint>
#include <functional>
#include <memory>
#include <mutex>
#include <optional>
#include <stdexcept>
#include <string>
#include <string_view>
#include <thread>
#include <utility>

namespace agentry {

struct tracer_options {
    /// The resource's service.name.
    std::string service_name = "agentry";
    /// Called with each finished span, on the tracer's thread, one at a time.
    std::function<void(const span&)> on_span;
    /// Export to an OTLP/HTTP collector; none when empty.
    std::optional<otlp_options> otlp;
    /// Record gen_ai.tool.call.arguments and gen_ai.tool.call.result (they may hold personal
    /// or secret data; each is copied, an allocation on the caller's thread).
    bool capture_content = false;
    /// With capture_content, the most bytes kept of each (cut at a UTF-8 character boundary).
    std::size_t max_content = 8192;
    /// Finished spans waiting for the tracer's thread (rounded up to a power of two); past it
    /// a span is dropped.
    std::size_t queue_capacity = 4096;
    /// How often the tracer's thread looks at the queue.
    std::chrono::milliseconds wake_interval{50};
    /// The destructor's last delivery and export take at most this long.
    std::chrono::milliseconds shutdown_timeout{5000};
};

class tracer final : public observer {
public:
    /// Starts the tracer's thread. Throws std::invalid_argument for options that cannot work.
    explicit tracer(tracer_options options)
        : options_(std::move(options)), queue_(check(options_).queue_capacity) {
        const auto system_now = std::chrono::system_clock::now();
        const auto steady_now = clock::now();
        offset_ = std::chrono::duration_cast<std::chrono::nanoseconds>(system_now.time_since_epoch()).count() -
                  std::chrono::duration_cast<std::chrono::nanoseconds>(steady_now.time_since_epoch()).count();
        if (options_.otlp) exporter_.emplace(std::move(*options_.otlp), options_.service_name);
        thread_ = std::thread([this] { drain_loop(); });
    }

    tracer(const tracer&) = delete;
    tracer& operator=(const tracer&) = delete;

    ~tracer() override {
        {
            std::lock_guard lock(mutex_);
            stopping_ = true;
        }
        wake_.notify_all();
        thread_.join();
    }

    // ---- observer ---------------------------------------------------------------------------

    span_begun begin_run(const trace_context* parent, const run_event&, clock::time_point start) noexcept override {
        return begin(parent, start);
    }
    void end_run(const span_begun& s, const run_event& e, const run_end_event& end) noexcept override {
        push(s, detail::spans::record_kind::run, end.end, [&](detail::spans::span_record& r) {
            r.set(detail::spans::text::name, e.agent);
            r.set(detail::spans::text::id, e.run_id);
            r.set(detail::spans::text::provider, e.provider);
            r.set(detail::spans::text::model, e.model);
            r.set(detail::spans::text::reason, end.stop);
            r.usage = end.usage;
            r.count = end.turns;
            r.failed = end.failed;
            if (end.failed) r.set(detail::spans::text::error, end.error_type);
        });
    }

    span_begun begin_turn(const span_begun& run, const turn_event&, clock::time_point start) noexcept override {
        return begin(&run.context, start);
    }
    void end_turn(const span_begun& s, const turn_event& e, const turn_end_event& end) noexcept override {
        push(s, detail::spans::record_kind::turn, end.end, [&](detail::spans::span_record& r) {
            r.set(detail::spans::text::provider, e.provider);
            r.set(detail::spans::text::model, e.model);
            r.number = e.turn;
            r.usage = end.usage;
            r.retries = end.retries;
            r.set(detail::spans::text::reason, end.finish_reason);
            if (end.error) {
                r.set(detail::spans::text::error, to_string(end.error->kind));
                r.set(detail::spans::text::message, end.error->message);
            }
        });
    }

    span_begun begin_plan(const span_begun& run, const plan_event&, clock::time_point start) noexcept override {
        return begin(&run.context, start);
    }
    void end_plan(const span_begun& s, const plan_event& e, const plan_end_event& end) noexcept override {
        push(s, detail::spans::record_kind::plan, end.end, [&](detail::spans::span_record& r) {
            r.set(detail::spans::text::name, e.agent);
            r.number = e.turn;
            r.count = static_cast<std::uint32_t>(e.steps);
            r.retries = end.rounds;
            r.failed = end.failed;
        });
    }

    span_begun begin_call(const trace_context* parent, const call_event&, clock::time_point start) noexcept override {
        return begin(parent, start);
    }
    void end_call(const span_begun& s, const call_event& e, const call_end_event& end) noexcept override {
        push(s, detail::spans::record_kind::call, end.end, [&](detail::spans::span_record& r) {
            r.set(detail::spans::text::name, e.tool);
            r.set(detail::spans::text::id, e.call_id);
            r.set(detail::spans::text::target, e.plan_step);
            r.number = e.round;
            if (const step* record = end.record) {
                r.has_status = true;
                r.status = record->status;
                r.count = static_cast<std::uint32_t>(record->attempts.size());
                r.timed_out = record->timed_out;
                r.set(detail::spans::text::other, record->fallback);
                if (record->status != tool_status::ok)
                    r.set(detail::spans::text::error, record->timed_out  ? std::string_view("timeout")
                                   : record->failure ? to_string(*record->failure)
                                                     : to_string(record->status));
            }
            if (options_.capture_content) {
                try {
                    r.arguments = new std::string(cut(e.arguments));
                    r.result = new std::string(cut(end.result));
                } catch (...) {
                    // Out of memory: the span goes without its content.
                }
            }
        });
    }

    span_begun begin_mcp(const trace_context* parent, const mcp_event&, clock::time_point start) noexcept override {
        return begin(parent, start);
    }
    void end_mcp(const span_begun& s, const mcp_event& e, const mcp_end_event& end) noexcept override {
        push(s, detail::spans::record_kind::mcp, end.end, [&](detail::spans::span_record& r) {
            r.server = e.server;
            r.set(detail::spans::text::name, e.method);
            r.set(detail::spans::text::target, e.target);
            r.set(detail::spans::text::other, e.session_id);
            r.set(detail::spans::text::id, e.request_id);
            if (end.error_code) {
                r.has_error_code = true;
                r.error_code = *end.error_code;
            }
            r.failed = end.tool_error;
            r.set(detail::spans::text::error, end.error_type);
        });
    }

    // ---- delivery ---------------------------------------------------------------------------

    /// Waits until every span ended before the call has been given to on_span and its OTLP
    /// batch sent (or dropped), at most `timeout`. True when that happened in time; false at
    /// once when called from on_span.
    bool flush(std::chrono::milliseconds timeout = std::chrono::seconds(10)) {
        if (std::this_thread::get_id() == thread_.get_id()) return false;
        const std::size_t target = queue_.claimed();
        std::unique_lock lock(mutex_);
        const std::uint64_t ticket = ++flush_requests_;
        wake_.notify_all();
        return done_.wait_for(lock, timeout, [&] { return flushed_ >= ticket && drained_ >= target; });
    }

    /// Spans dropped because the queue was full.
    std::uint64_t dropped() const noexcept { return dropped_.load(std::memory_order_relaxed); }
    /// Spans given to on_span (or, without one, taken from the queue).
    std::uint64_t delivered() const noexcept { return delivered_.load(std::memory_order_relaxed); }
    /// Calls of on_span that threw.
    std::uint64_t hook_failures() const noexcept { return hook_failures_.load(std::memory_order_relaxed); }
    /// Spans the OTLP collector accepted.
    std::uint64_t exported() const noexcept { return exporter_ ? exporter_->exported() : 0; }
    /// OTLP requests that failed.
    std::uint64_t export_failures() const noexcept { return exporter_ ? exporter_->failures() : 0; }
    /// Spans delivered but not exported: past otlp_options::max_queue, in a failed request, or
    /// left at shutdown.
    std::uint64_t export_dropped() const noexcept { return exporter_ ? exporter_->dropped() : 0; }
    /// The last OTLP failure; empty before any.
    std::string last_export_error() const { return exporter_ ? exporter_->last_error() : std::string(); }

private:
    static const tracer_options& check(const tracer_options& o) {
        if (o.queue_capacity == 0)
            throw std::invalid_argument(
                "agentry: tracer_options::queue_capacity is 0; give it at least 1 (4096 by default)");
        if (o.wake_interval.count() <= 0)
            throw std::invalid_argument(
                "agentry: tracer_options::wake_interval must be positive (50 ms by default)");
        return o;
    }

    std::string_view cut(std::string_view text) const noexcept {
        return text.substr(0, agentry::detail::utf8_cut(text, options_.max_content));
    }

    static span_begun begin(const trace_context* parent, clock::time_point start) noexcept {
        span_begun out;
        if (parent && parent->valid()) {
            out.context.trace_id = parent->trace_id;
            out.context.flags = parent->flags;
            out.parent = parent->span_id;
        } else {
            out.context.trace_id = detail::spans::new_trace_id();
        }
        out.context.span_id = detail::spans::new_span_id();
        out.start = start;
        return out;
    }

    template <class Fill>
    void push(const span_begun& s, detail::spans::record_kind kind, clock::time_point end, Fill&& fill) noexcept {
        // Not traced, or not sampled by the caller (W3C trace-flags bit 0): nothing to record.
        if (!s.context.valid() || (s.context.flags & 1) == 0) return;
        const bool queued = queue_.try_push([&](detail::spans::span_record& r) {
            r.clear();
            r.kind = kind;
            r.trace_id = s.context.trace_id;
            r.span_id = s.context.span_id;
            r.parent = s.parent;
            r.start = std::chrono::duration_cast<std::chrono::nanoseconds>(s.start.time_since_epoch()).count();
            r.end = std::chrono::duration_cast<std::chrono::nanoseconds>(end.time_since_epoch()).count();
            fill(r);
        });
        if (!queued) dropped_.fetch_add(1, std::memory_order_relaxed);
    }

    void drain_loop() {
        std::unique_lock lock(mutex_);
        for (;;) {
            wake_.wait_for(lock, options_.wake_interval, [&] { return stopping_ || flush_requests_ > flushed_; });
            const bool stopping = stopping_;
            const std::uint64_t ticket = flush_requests_;
            const bool asked = ticket > flushed_;
            lock.unlock();
            const clock::time_point deadline =
                stopping ? clock::now() + options_.shutdown_timeout : clock::time_point::max();
            drain(deadline);
            if (exporter_ && (stopping || asked || exporter_->due(clock::now()))) exporter_->send_waiting(deadline);
            if (stopping) {
                // Past the deadline: what is left is dropped.
                while (detail::spans::span_record* r = queue_.front()) {
                    r->release_content();
                    queue_.pop();
                    dropped_.fetch_add(1, std::memory_order_relaxed);
                }
            }
            lock.lock();
            drained_ = queue_.popped();
            flushed_ = ticket;
            done_.notify_all();
            if (stopping) return;
        }
    }

    // Takes every published record, until the queue is empty or the deadline passes.
    void drain(clock::time_point deadline) {
        std::size_t n = 0;
        while (detail::spans::span_record* r = queue_.front()) {
            if ((++n & 63) == 0 && clock::now() >= deadline) break;
            if (!options_.on_span && !exporter_) {
                // No one to give it to: not made.
                r->release_content();
                queue_.pop();
                delivered_.fetch_add(1, std::memory_order_relaxed);
                continue;
            }
            std::optional<span> s;
            try {
                s.emplace(detail::spans::to_span(*r, offset_));
            } catch (...) {
                // Out of memory: the span is lost, counted as dropped.
            }
            queue_.pop();
            if (!s) {
                dropped_.fetch_add(1, std::memory_order_relaxed);
                continue;
            }
            if (options_.on_span) {
                try {
                    options_.on_span(*s);
                } catch (...) {
                    hook_failures_.fetch_add(1, std::memory_order_relaxed);
                }
            }
            delivered_.fetch_add(1, std::memory_order_relaxed);
            if (exporter_) {
                exporter_->add(std::move(*s));
                if (exporter_->waiting() >= exporter_->options().max_batch) exporter_->send_waiting(deadline);
            }
        }
    }

    tracer_options options_;
    detail::span_queue<detail::spans::span_record> queue_;
    std::int64_t offset_ = 0;
    std::optional<otlp_exporter> exporter_;

    std::atomic<std::uint64_t> dropped_{0};
    std::atomic<std::uint64_t> delivered_{0};
    std::atomic<std::uint64_t> hook_failures_{0};

    std::mutex mutex_;
    std::condition_variable wake_;
    std::condition_variable done_;
    bool stopping_ = false;
    std::uint64_t flush_requests_ = 0;
    std::uint64_t flushed_ = 0;
    std::size_t drained_ = 0;

    std::thread thread_;
};

} // namespace agentry

#endif
