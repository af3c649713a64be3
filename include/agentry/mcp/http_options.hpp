// SPDX-License-Identifier: BSL-1.0
#ifndef AGENTRY_MCP_HTTP_OPTIONS_HPP
#define AGENTRY_MCP_HTTP_OPTIONS_HPP

// The settings of agentry::mcp::http_server (http.hpp), apart so that they can be written
// without including Boost.Beast.

#include <agentry/detail/chrono.hpp>
#include <agentry/mcp/auth.hpp>
#include <agentry/mcp/message.hpp>

#include <cstddef>
#include <iostream>
#include <string>
#include <vector>

namespace agentry {
class metrics;
}

namespace agentry::mcp {

struct http_options {
    /// The address to listen on. The default accepts connections from this machine only. Another
    /// address needs `authorization.verify`, or `allow_unauthenticated` set (see below).
    std::string address = "127.0.0.1";
    /// The port; 0 picks a free one (see http_server::port()).
    unsigned short port = 8080;
    /// The MCP endpoint's path.
    std::string path = "/mcp";
    /// Longest request body, in bytes; a longer one is answered 413. Every buffer of a connection
    /// is bounded by it plus `max_header_size`.
    std::size_t max_message_size = default_max_message_size;
    /// Longest request head (request line and header fields), and longest trailer section of a
    /// chunked body; longer: 431. A chunk-size line with extensions longer than this: 400.
    std::size_t max_header_size = 16 * 1024;
    /// Origins a browser page may call from, e.g. "https://app.example.com", besides
    /// http(s)://localhost, 127.0.0.1 and [::1] on any port. Requests with another Origin get 403.
    std::vector<std::string> allowed_origins{};
    /// Host names accepted in the Host header besides localhost, 127.0.0.1 and [::1]. When this
    /// is empty and the server listens on a loopback address, no other name is accepted
    /// (which defeats DNS rebinding); on other addresses any name is then accepted.
    std::vector<std::string> allowed_hosts{};
    /// Bearer-token authorization (auth.hpp); without `verify`, none.
    mcp::authorization authorization{};
    /// Listen on a non-loopback address without `authorization.verify`: anyone who can connect
    /// can then call every tool. Without it, http_server refuses such an address.
    bool allow_unauthenticated = false;
    /// Sessions kept; past it, a session that never completed initialization is ended first,
    /// else the least recently used one of the client address holding the most sessions.
    std::size_t max_sessions = 256;
    /// Sessions kept per client address; past it, that address's least recently used one ends.
    std::size_t max_sessions_per_client = 32;
    /// Connections served at once. A connection past it takes the place of the one that has
    /// waited longest for a request head; when every connection is busy, it is closed.
    std::size_t max_connections = 64;
    /// Threads serving connections (a tool call occupies one while it runs).
    std::size_t threads = 2;
    /// Time allowed for a request head to arrive, counted from the end of the previous response
    /// (or the connection); past it the connection is closed.
    std::chrono::seconds header_timeout{10};
    /// Slowest accepted body: the body must arrive within header_timeout plus one second per
    /// min_body_rate bytes received; past it the connection is closed.
    std::size_t min_body_rate = 4096;
    /// Time allowed to write a response; past it the connection is closed.
    std::chrono::seconds write_timeout{30};
    /// How long a GET stream (server-initiated messages) stays open; the client reconnects after.
    std::chrono::seconds stream_timeout{300};
    /// Counters to serve in the Prometheus text format at `metrics_path` (telemetry/metrics.hpp);
    /// it must outlive the server. GET gets them (200, text/plain; version=0.0.4), other methods
    /// 405; the Host and Origin checks and `authorization` apply as on the MCP endpoint. Null:
    /// `metrics_path` is not served.
    const agentry::metrics* metrics = nullptr;
    /// Must differ from `path`.
    std::string metrics_path = "/metrics";
    /// Where the server logs; nullptr for nowhere.
    std::ostream* log = &std::cerr;
};

} // namespace agentry::mcp

#endif
