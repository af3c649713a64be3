// SPDX-License-Identifier: BSL-1.0
#ifndef AGENTRY_TRANSPORT_IMPL_REPLAY_IPP
#define AGENTRY_TRANSPORT_IMPL_REPLAY_IPP

// The definitions of agentry::replay_transport: included by transport/replay.hpp (header-only)
// or by src.hpp (separate compilation).

#include <agentry/detail/separate.hpp>
#include <agentry/transport/replay.hpp>
#include <agentry/transport/transport.hpp>

#include <atomic>
#include <cstddef>
#include <deque>
#include <memory>
#include <mutex>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace agentry {

AGENTRY_DECL replay_response replay_response::ok(std::string body, std::string content_type) {
    replay_response r;
    r.headers.push_back({"Content-Type", std::move(content_type)});
    r.body = std::move(body);
    return r;
}

AGENTRY_DECL replay_response replay_response::streamed(std::vector<std::string> chunks, std::string content_type) {
    replay_response r;
    r.headers.push_back({"Content-Type", std::move(content_type)});
    r.chunks = std::move(chunks);
    return r;
}

AGENTRY_DECL replay_response replay_response::failure(transport_error_kind kind, std::string message) {
    replay_response r;
    r.status = 0;
    r.error = {kind, std::move(message)};
    return r;
}

namespace detail {

struct replay_state {
    std::mutex mutex;
    std::deque<replay_response> script;
    std::vector<http_request> requests;
};

inline bool replay_cancelled(const http_request& request) noexcept {
    return request.cancel && request.cancel->load(std::memory_order_acquire);
}

AGENTRY_DECL transport_result replay_run(replay_state* state, const http_request& request,
                                         stream_handlers* handlers) {
    transport_result r;
    replay_response next;
    if (state == nullptr) {
        r.error = {transport_error_kind::other, "agentry: replay_transport was moved from, so it has no script left"};
        return r;
    }
    {
        std::lock_guard<std::mutex> lock(state->mutex);
        state->requests.push_back(request);
        if (state->script.empty()) {
            r.error = {transport_error_kind::other,
                       "agentry: replay_transport has no response left for " + request.method + " " + request.url};
            return r;
        }
        next = std::move(state->script.front());
        state->script.pop_front();
    }
    if (!next.body.empty() && !next.chunks.empty()) {
        r.error = {transport_error_kind::other, "agentry: replay_response sets both body and chunks"};
        return r;
    }
    if (replay_cancelled(request)) {
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
        if (replay_cancelled(request)) {
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

} // namespace detail

AGENTRY_DECL replay_transport::replay_transport() : state_(std::make_unique<detail::replay_state>()) {}

AGENTRY_DECL replay_transport::replay_transport(std::vector<replay_response> script)
    : state_(std::make_unique<detail::replay_state>()) {
    state_->script.assign(std::make_move_iterator(script.begin()), std::make_move_iterator(script.end()));
}

AGENTRY_DECL replay_transport::replay_transport(replay_transport&& other) noexcept = default;

AGENTRY_DECL replay_transport& replay_transport::operator=(replay_transport&& other) noexcept = default;

AGENTRY_DECL replay_transport::~replay_transport() = default;

AGENTRY_DECL void replay_transport::push(replay_response response) {
    if (state_ == nullptr) state_ = std::make_unique<detail::replay_state>();
    std::lock_guard<std::mutex> lock(state_->mutex);
    state_->script.push_back(std::move(response));
}

AGENTRY_DECL std::vector<http_request> replay_transport::requests() const {
    if (state_ == nullptr) return {};
    std::lock_guard<std::mutex> lock(state_->mutex);
    return state_->requests;
}

AGENTRY_DECL std::size_t replay_transport::pending() const {
    if (state_ == nullptr) return 0;
    std::lock_guard<std::mutex> lock(state_->mutex);
    return state_->script.size();
}

AGENTRY_DECL transport_result replay_transport::send(const http_request& request) {
    return detail::replay_run(state_.get(), request, nullptr);
}

AGENTRY_DECL transport_result replay_transport::stream(const http_request& request, stream_handlers& handlers) {
    return detail::replay_run(state_.get(), request, &handlers);
}

} // namespace agentry

#endif
