// SPDX-License-Identifier: BSL-1.0
#ifndef AGENTRY_TRANSPORT_REPLAY_HPP
#define AGENTRY_TRANSPORT_REPLAY_HPP

// agentry::replay_transport: an agentry::transport for tests. It answers each request with the
// next response of a script and keeps every request it was sent, so that providers and the
// agent loop run without a network.
//
//   agentry::replay_transport http{{
//       agentry::replay_response::ok(R"({"choices":[...]})"),
//       agentry::replay_response::streamed({"data: {\"choices\":", "[...]}\n\n", "data: [DONE]\n\n"}),
//       {.status = 429, .headers = {{"Retry-After", "2"}}, .body = R"({"error":{...}})"},
//       agentry::replay_response::failure(agentry::transport_error_kind::reset),
//   }};
//   ... agentry::complete(provider, http, request) ...
//   CHECK(http.requests()[0].body == "...");
//
// It behaves as curl_transport does: stream() gives the head to on_head, then a 2xx body to
// on_chunk piece by piece, and returns any other body whole; http_request::cancel (checked
// before the head and before each piece) and a handler returning false give
// transport_error_kind::cancelled; a body past http_request::max_body (when not 0) gives
// transport_error_kind::too_large at the piece that passes it. A request with no response left
// in the script gets transport_error_kind::other. Calls from several threads are safe; the
// script is consumed in the order the calls arrive.

#include <agentry/transport/transport.hpp>

#include <atomic>
#include <cstddef>
#include <deque>
#include <mutex>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace agentry {

/// One scripted answer.
struct replay_response {
    int status = 200;
    std::vector<http_header> headers{};
    /// The body, when `chunks` is empty.
    std::string body{};
    /// The body in the pieces stream() hands to on_chunk; send() and a non-2xx stream() return
    /// their concatenation. Set either this or `body`.
    std::vector<std::string> chunks{};
    /// A failure. With status 0 nothing is received (refused, timed out, ...); otherwise the
    /// head and the whole body are delivered first, then the exchange fails (a connection
    /// dropped mid-stream).
    transport_error error{};

    /// 200 with this body and Content-Type.
    static replay_response ok(std::string body, std::string content_type = "application/json") {
        replay_response r;
        r.headers.push_back({"Content-Type", std::move(content_type)});
        r.body = std::move(body);
        return r;
    }

    /// 200 with a body streamed in these pieces.
    static replay_response streamed(std::vector<std::string> chunks, std::string content_type = "text/event-stream") {
        replay_response r;
        r.headers.push_back({"Content-Type", std::move(content_type)});
        r.chunks = std::move(chunks);
        return r;
    }

    /// No response: the exchange fails with this error.
    static replay_response failure(transport_error_kind kind, std::string message = "agentry: scripted failure") {
        replay_response r;
        r.status = 0;
        r.error = {kind, std::move(message)};
        return r;
    }
};

class replay_transport {
public:
    replay_transport() = default;
    explicit replay_transport(std::vector<replay_response> script) : script_(script.begin(), script.end()) {}

    /// Appends a response to the script.
    void push(replay_response response) {
        std::lock_guard<std::mutex> lock(mutex_);
        script_.push_back(std::move(response));
    }

    /// The requests received so far, in order.
    std::vector<http_request> requests() const {
        std::lock_guard<std::mutex> lock(mutex_);
        return requests_;
    }

    /// The responses not used yet.
    std::size_t pending() const {
        std::lock_guard<std::mutex> lock(mutex_);
        return script_.size();
    }

    transport_result send(const http_request& request) { return run(request, nullptr); }

    transport_result stream(const http_request& request, stream_handlers& handlers) { return run(request, &handlers); }

private:
    static bool cancelled(const http_request& request) noexcept {
        return request.cancel && request.cancel->load(std::memory_order_acquire);
    }

    transport_result run(const http_request& request, stream_handlers* handlers) {
        transport_result r;
        replay_response next;
        {
            std::lock_guard<std::mutex> lock(mutex_);
            requests_.push_back(request);
            if (script_.empty()) {
                r.error = {transport_error_kind::other,
                           "agentry: replay_transport has no response left for " + request.method + " " + request.url};
                return r;
            }
            next = std::move(script_.front());
            script_.pop_front();
        }
        if (!next.body.empty() && !next.chunks.empty()) {
            r.error = {transport_error_kind::other, "agentry: replay_response sets both body and chunks"};
            return r;
        }
        if (cancelled(request)) {
            r.error = {transport_error_kind::cancelled, "agentry: cancelled by http_request::cancel"};
            return r;
        }
        if (next.status == 0) {
            r.error = std::move(next.error);
            return r;
        }
        r.response.status = next.status;
        r.response.headers = std::move(next.headers);
        if (next.chunks.empty() && !next.body.empty()) next.chunks.push_back(std::move(next.body));
        const bool to_handler = handlers && next.status >= 200 && next.status <= 299;
        if (handlers && handlers->on_head && !handlers->on_head(static_cast<const http_response&>(r.response))) {
            r.error = {transport_error_kind::cancelled, "agentry: cancelled by a stream handler"};
            return r;
        }
        std::size_t received = 0;
        for (const std::string& chunk : next.chunks) {
            received += chunk.size();
            if (request.max_body != 0 && received > request.max_body) {
                r.error = {transport_error_kind::too_large, "agentry: the response body passed its limit of " +
                                                                std::to_string(request.max_body) +
                                                                " bytes (http_request::max_body)"};
                return r;
            }
            if (cancelled(request)) {
                r.error = {transport_error_kind::cancelled, "agentry: cancelled by http_request::cancel"};
                return r;
            }
            if (!to_handler) {
                r.response.body.append(chunk);
            } else if (!chunk.empty() && handlers->on_chunk && !handlers->on_chunk(std::string_view(chunk))) {
                r.error = {transport_error_kind::cancelled, "agentry: cancelled by a stream handler"};
                return r;
            }
        }
        r.error = std::move(next.error);
        return r;
    }

    mutable std::mutex mutex_;
    std::deque<replay_response> script_;
    std::vector<http_request> requests_;
};

static_assert(transport<replay_transport>);

} // namespace agentry

#endif
