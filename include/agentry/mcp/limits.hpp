// SPDX-License-Identifier: BSL-1.0
#ifndef AGENTRY_MCP_LIMITS_HPP
#define AGENTRY_MCP_LIMITS_HPP

// The bounds of one MCP message, which the server and the client both apply.

#include <cstddef>

namespace agentry::mcp {

/// Longest message accepted by default, in bytes.
inline constexpr std::size_t default_max_message_size = 4 * 1024 * 1024;

/// Deepest nesting of arrays and objects accepted in a message, envelope included.
inline constexpr std::size_t max_message_depth = 128;

} // namespace agentry::mcp

#endif
