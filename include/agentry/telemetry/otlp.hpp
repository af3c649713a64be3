// SPDX-License-Identifier: BSL-1.0
#ifndef AGENTRY_TELEMETRY_OTLP_HPP
#define AGENTRY_TELEMETRY_OTLP_HPP

// agentry::otlp_exporter: spans sent to an OpenTelemetry collector as OTLP/HTTP JSON (POST
// {url}, Content-Type application/json, an ExportTraceServiceRequest), through a transport of
// the caller's (transport/transport.hpp). agentry::tracer makes one from tracer_options::otlp
// and calls it from its own thread; it can also be used alone, from one thread.
//
//   agentry::tracer_options options;
//   options.otlp = agentry::otlp_options{};
//   options.otlp->url = "http://127.0.0.1:4318/v1/traces";
//   options.otlp->send = agentry::send_with(agentry::curl_transport{});
//
// Bounded everywhere: at most max_queue spans wait; a span past that is dropped. A batch goes
// out when max_batch spans wait, when `interval` has passed since the last export, or on a
// flush; one request per batch of at most max_batch spans, abandoned after `timeout`. A batch
// that fails (no connection, a timeout, a status that is not 2xx) is dropped, not retried: its
// spans count in dropped() and the failure in failures().

#include <agentry/telemetry/detail/otlp_json.hpp>
#include <agentry/telemetry/span.hpp>
#include <agentry/transport/transport.hpp>

#include <algorithm>
#include <atomic>
#include <cstddef>
#include <cstdint>
#include <exception>
#include <functional>
#include <memory>
#include <mutex>
#include <stdexcept>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace agentry {

/// Sends one request and returns what came back: a transport's send(), type-erased.
using http_send = std::function<transport_result(const http_request&)>;

/// An http_send that owns `t` (a curl_transport, a test's own transport, ...).
template <transport T>
http_send send_with(T t) {
    auto owned = std::make_shared<T>(std::move(t));
    return [owned](const http_request& request) { return owned->send(request); };
}

struct otlp_options {
    /// The collector's traces endpoint, e.g. "http://127.0.0.1:4318/v1/traces".
    std::string url;
    /// Sent with every request (an API key header, ...); Content-Type is added.
    std::vector<http_header> headers;
    /// Sends a request; required (send_with(curl_transport{}), for one).
    http_send send;
    /// The most spans in one request.
    std::size_t max_batch = 512;
    /// The longest a span waits before its batch goes out.
    std::chrono::milliseconds interval{1000};
    /// The whole of one request; past it the batch is dropped.
    std::chrono::milliseconds timeout{5000};
    /// The most spans waiting to be sent; past it a span is dropped.
    std::size_t max_queue = 4096;
};

class otlp_exporter {
public:
    using clock = std::chrono::steady_clock;

    /// Throws std::invalid_argument when `options` cannot work (no url, no send, a zero bound).
    explicit otlp_exporter(otlp_options options, std::string service_name = "agentry")
        : options_(std::move(options)), service_name_(std::move(service_name)), last_export_(clock::now()) {
        if (options_.url.empty())
            throw std::invalid_argument(
                "agentry: otlp_options::url is empty; give the collector's traces endpoint, e.g. "
                "http://127.0.0.1:4318/v1/traces");
        if (!options_.send)
            throw std::invalid_argument(
                "agentry: otlp_options::send is empty; give it a transport, e.g. "
                "agentry::send_with(agentry::curl_transport{})");
        if (options_.max_batch == 0 || options_.max_queue == 0)
            throw std::invalid_argument(
                "agentry: otlp_options::max_batch and max_queue must be at least 1 (512 and 4096 by default)");
        pending_.reserve(options_.max_queue < 1024 ? options_.max_queue : 1024);
    }

    const otlp_options& options() const noexcept { return options_; }

    /// Queues a span; false, and the span counted as dropped, when max_queue spans wait (or
    /// memory ran out).
    bool add(span s) noexcept {
        if (pending_.size() < options_.max_queue) {
            try {
                pending_.push_back(std::move(s));
                return true;
            } catch (...) {
                // Out of memory: dropped as if the queue were full.
            }
        }
        dropped_.fetch_add(1, std::memory_order_relaxed);
        return false;
    }

    std::size_t waiting() const noexcept { return pending_.size(); }

    /// A batch is due: max_batch spans wait, or some have waited `interval` since the last export.
    bool due(clock::time_point now) const noexcept {
        return pending_.size() >= options_.max_batch ||
               (!pending_.empty() && now - last_export_ >= options_.interval);
    }

    /// Sends what waits, in batches of max_batch, each request bounded by `timeout` and by
    /// `deadline`; what a deadline already passed leaves unsent is dropped. True when every
    /// batch was accepted.
    bool send_waiting(clock::time_point deadline = clock::time_point::max()) {
        bool all = true;
        std::size_t at = 0;
        while (at < pending_.size()) {
            const std::size_t n = std::min(options_.max_batch, pending_.size() - at);
            const clock::time_point now = clock::now();
            if (now >= deadline) {
                dropped_.fetch_add(pending_.size() - at, std::memory_order_relaxed);
                failures_.fetch_add(1, std::memory_order_relaxed);
                remember(pending_.size() - at, "its deadline passed (tracer_options::shutdown_timeout)");
                all = false;
                break;
            }
            auto limit = options_.timeout;
            if (deadline != clock::time_point::max()) {
                const auto left = std::chrono::duration_cast<std::chrono::milliseconds>(deadline - now);
                if (left < limit) limit = left.count() > 0 ? left : std::chrono::milliseconds(1);
            }
            all = send_batch(pending_.data() + at, n, limit) && all;
            at += n;
        }
        pending_.clear();
        last_export_ = clock::now();
        return all;
    }

    /// Spans the collector accepted (a 2xx answer).
    std::uint64_t exported() const noexcept { return exported_.load(std::memory_order_relaxed); }
    /// Spans dropped: past max_queue, in a failed batch, or left at a deadline.
    std::uint64_t dropped() const noexcept { return dropped_.load(std::memory_order_relaxed); }
    /// Requests that failed.
    std::uint64_t failures() const noexcept { return failures_.load(std::memory_order_relaxed); }
    /// What the last failure was; empty before any.
    std::string last_error() const {
        std::lock_guard lock(error_mutex_);
        return last_error_;
    }

private:
    bool send_batch(const span* first, std::size_t n, std::chrono::milliseconds limit) {
        std::string_view why;
        std::string text;
        try {
            http_request request;
            request.method = "POST";
            request.url = options_.url;
            request.headers = options_.headers;
            request.headers.push_back({"Content-Type", "application/json"});
            request.body = detail::otlp_request(service_name_, first, n);
            request.connect_timeout = limit;
            request.total_timeout = limit;
            request.max_body = 64 * 1024;
            const transport_result r = options_.send(request);
            if (r.ok() && r.response.status >= 200 && r.response.status < 300) {
                exported_.fetch_add(n, std::memory_order_relaxed);
                return true;
            }
            text = r.ok() ? "HTTP " + std::to_string(r.response.status) + ": " + r.response.body.substr(0, 200)
                          : r.error.message;
            why = text;
        } catch (const std::exception& e) {
            try {
                text = e.what();
                why = text;
            } catch (...) {
                why = "the transport threw";
            }
        } catch (...) {
            why = "the transport threw";
        }
        dropped_.fetch_add(n, std::memory_order_relaxed);
        failures_.fetch_add(1, std::memory_order_relaxed);
        remember(n, why);
        return false;
    }

    // Keeps the message of a failure (none when memory ran out).
    void remember(std::size_t spans, std::string_view why) noexcept {
        try {
            std::string text = "agentry: OTLP export to " + options_.url + " failed, " + std::to_string(spans) +
                               " spans dropped: ";
            text.append(why);
            std::lock_guard lock(error_mutex_);
            last_error_ = std::move(text);
        } catch (...) {
        }
    }

    otlp_options options_;
    std::string service_name_;
    std::vector<span> pending_;
    clock::time_point last_export_;
    std::atomic<std::uint64_t> exported_{0};
    std::atomic<std::uint64_t> dropped_{0};
    std::atomic<std::uint64_t> failures_{0};
    mutable std::mutex error_mutex_;
    std::string last_error_;
};

} // namespace agentry

#endif
