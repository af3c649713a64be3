// SPDX-License-Identifier: BSL-1.0
#ifndef AGENTRY_TRANSPORT_TRANSPORT_HPP
#define AGENTRY_TRANSPORT_TRANSPORT_HPP

// What the providers need from an HTTP client: send a request and get the whole response, or
// send it and receive the body in chunks as it arrives, with cancellation. agentry::curl_transport
// (transport/curl.hpp) is one; a user can write another for their own HTTP stack.
//
//   struct my_transport {
//       agentry::transport_result send(const agentry::http_request&);
//       agentry::transport_result stream(const agentry::http_request&, agentry::stream_handlers&);
//   };
//   static_assert(agentry::transport<my_transport>);

#include <agentry/detail/chrono.hpp>
#include <agentry/detail/text.hpp>

#include <atomic>
#include <concepts>
#include <cstddef>
#include <functional>
#include <string>
#include <string_view>
#include <vector>

namespace agentry {

/// Bounds on what one response may make agentry hold in memory. Providers carry one
/// (`http.limits`), copy max_body into each http_request and give max_event to their stream
/// readers. Past either, the turn ends with provider_error_kind::too_large, never retried.
struct response_limits {
    /// The body of one response, streamed or whole, in bytes (an error body too).
    std::size_t max_body = std::size_t(8) << 20;
    /// One streamed event (an SSE event's data lines joined, or one NDJSON line) and any one
    /// line of a stream, in bytes.
    std::size_t max_event = std::size_t(1) << 20;
};

struct http_header {
    std::string name;
    std::string value;
};

struct http_request {
    std::string method = "POST";
    std::string url;
    std::vector<http_header> headers;
    std::string body;
    /// Connecting, including TLS; 0: the transport's default.
    std::chrono::milliseconds connect_timeout{0};
    /// The whole exchange, streaming included; 0: the transport's default.
    std::chrono::milliseconds total_timeout{0};
    /// Set from another thread to abandon the request; the transport then returns
    /// transport_error_kind::cancelled as soon as it can.
    const std::atomic<bool>* cancel = nullptr;
    /// The most body bytes to receive; past it the exchange ends with
    /// transport_error_kind::too_large. 0: the transport's default.
    std::size_t max_body = 0;
    /// agentry::complete() refuses to send credentials (a credential header, URL userinfo, a
    /// key in the query) over plain http:// to a host that is not loopback unless this is set.
    bool allow_plain_http_credentials = false;
};

/// Header names compare without regard to ASCII case.
inline bool same_header_name(std::string_view a, std::string_view b) noexcept {
    return agentry::detail::equal_ignoring_case(a, b);
}

/// The value of header `name`; empty when absent.
inline std::string_view find_header(const std::vector<http_header>& headers, std::string_view name) noexcept {
    for (const http_header& h : headers)
        if (same_header_name(h.name, name)) return h.value;
    return {};
}

struct http_response {
    int status = 0;
    std::vector<http_header> headers;
    /// The body; for stream(), only when the status is not 2xx (an error body is read whole).
    std::string body;

    std::string_view header(std::string_view name) const noexcept { return find_header(headers, name); }
};

enum class transport_error_kind {
    none,
    connect,    // refused, unreachable, DNS
    timeout,    // connect or total timeout
    reset,      // the connection closed or failed mid-exchange
    tls,        // certificate or handshake
    cancelled,  // http_request::cancel, or a stream handler returned false
    too_large,  // the body passed http_request::max_body
    other,
};

struct transport_error {
    transport_error_kind kind = transport_error_kind::none;
    std::string message;
};

struct transport_result {
    http_response response;
    transport_error error;

    bool ok() const noexcept { return error.kind == transport_error_kind::none; }
};

/// Callbacks of a streamed request. on_head runs once the status and headers are in; each
/// on_chunk gets the next piece of a 2xx body (any split). Returning false from either
/// cancels the request.
struct stream_handlers {
    std::function<bool(const http_response& head)> on_head;
    std::function<bool(std::string_view chunk)> on_chunk;
};

template <class T>
concept transport = requires(T& t, const http_request& request, stream_handlers& handlers) {
    { t.send(request) } -> std::same_as<transport_result>;
    { t.stream(request, handlers) } -> std::same_as<transport_result>;
};

} // namespace agentry

#endif
