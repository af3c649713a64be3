// SPDX-License-Identifier: BSL-1.0
#ifndef AGENTRY_MCP_LIMITS_HPP
#define AGENTRY_MCP_LIMITS_HPP

// The bounds of one MCP message, which the server and the client both apply, and of the
// resource subscriptions a server keeps for a session or a stdio connection.

#include <cstddef>

namespace agentry::mcp {

/// Longest message accepted by default, in bytes.
inline constexpr std::size_t default_max_message_size = 4 * 1024 * 1024;

/// Deepest nesting of arrays and objects accepted in a message, envelope included.
inline constexpr std::size_t max_message_depth = 128;

/// The most resources one session may subscribe to (resources/subscribe).
inline constexpr std::size_t max_session_subscriptions = 1024;

/// The longest URI a session may subscribe to, in bytes.
inline constexpr std::size_t max_subscription_uri_size = 2048;

/// The most subscriptions/listen streams one stdio connection may hold open (over HTTP, each
/// stream is a connection of its own, bounded as connections are).
inline constexpr std::size_t max_stdio_subscriptions = 64;

} // namespace agentry::mcp

#endif
