// SPDX-License-Identifier: BSL-1.0
#ifndef AGENTRY_MCP_HTTP_OPTIONS_HPP
#define AGENTRY_MCP_HTTP_OPTIONS_HPP

// The settings of agentry::mcp::http_server (http.hpp), apart so that they can be written
// without including Boost.Beast.

#include <agentry/mcp/message.hpp>

#include <chrono>
#include <cstddef>
#include <iostream>
#include <string>
#include <vector>

namespace agentry::mcp {

struct http_options {
    /// The address to listen on. The default accepts connections from this machine only.
    std::string address = "127.0.0.1";
    /// The port; 0 picks a free one (see http_server::port()).
    unsigned short port = 8080;
    /// The MCP endpoint's path.
    std::string path = "/mcp";
    /// Longest request body, in bytes; a longer one is answered 413.
    std::size_t max_message_size = default_max_message_size;
    /// Origins a browser page may call from, e.g. "https://app.example.com", besides
    /// http(s)://localhost, 127.0.0.1 and [::1] on any port. Requests with another Origin get 403.
    std::vector<std::string> allowed_origins{};
    /// Host names accepted in the Host header besides localhost, 127.0.0.1 and [::1]. When this
    /// is empty and the server listens on a loopback address, no other name is accepted
    /// (which defeats DNS rebinding); on other addresses any name is then accepted.
    std::vector<std::string> allowed_hosts{};
    /// Sessions kept; past it, the least recently used is ended.
    std::size_t max_sessions = 256;
    /// Connections served at once; more are closed at once.
    std::size_t max_connections = 64;
    /// Threads serving connections (a tool call occupies one while it runs).
    std::size_t threads = 2;
    /// A connection idle this long while reading or writing is closed.
    std::chrono::seconds idle_timeout{120};
    /// Where the server logs; nullptr for nowhere.
    std::ostream* log = &std::cerr;
};

} // namespace agentry::mcp

#endif
