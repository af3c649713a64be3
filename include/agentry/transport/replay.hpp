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
//
// It can be moved (an agent keeps its transport by value), not copied; a moved-from transport
// has an empty script and no requests.

#include <agentry/detail/separate.hpp>
#include <agentry/transport/transport.hpp>

#include <cstddef>
#include <memory>
#include <string>
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
    static replay_response ok(std::string body, std::string content_type = "application/json");

    /// 200 with a body streamed in these pieces.
    static replay_response streamed(std::vector<std::string> chunks, std::string content_type = "text/event-stream");

    /// No response: the exchange fails with this error.
    static replay_response failure(transport_error_kind kind, std::string message = "agentry: scripted failure");
};

namespace detail {
struct replay_state;
}

class replay_transport {
public:
    AGENTRY_DECL replay_transport();
    AGENTRY_DECL explicit replay_transport(std::vector<replay_response> script);
    AGENTRY_DECL replay_transport(replay_transport&& other) noexcept;
    AGENTRY_DECL replay_transport& operator=(replay_transport&& other) noexcept;
    AGENTRY_DECL ~replay_transport();

    /// Appends a response to the script.
    AGENTRY_DECL void push(replay_response response);

    /// The requests received so far, in order.
    AGENTRY_DECL std::vector<http_request> requests() const;

    /// The responses not used yet.
    AGENTRY_DECL std::size_t pending() const;

    AGENTRY_DECL transport_result send(const http_request& request);

    AGENTRY_DECL transport_result stream(const http_request& request, stream_handlers& handlers);

private:
    std::unique_ptr<detail::replay_state> state_;
};

static_assert(transport<replay_transport>);

} // namespace agentry

#if !defined(AGENTRY_SEPARATE_COMPILATION)
#include <agentry/transport/impl/replay.ipp>
#endif

#endif
