// SPDX-License-Identifier: BSL-1.0
#ifndef AGENTRY_MCP_DETAIL_SERVER_RESULTS_HPP
#define AGENTRY_MCP_DETAIL_SERVER_RESULTS_HPP

// Parts of the results mcp::server builds, written with the JSON writer (members named as on
// the wire): serverInfo and a tool's annotations.

#include <optional>
#include <string>

namespace agentry::mcp::detail {

/// serverInfo without the members of 2025-11-25 (icons.hpp's implementation_members).
struct implementation {
    std::string name;
    std::string version;
    std::optional<std::string> title;
};

/// A tool's `annotations` (with its `title` in 2025-03-26).
struct tool_hints {
    std::optional<std::string> title;
    std::optional<bool> readOnlyHint;
    std::optional<bool> destructiveHint;
    std::optional<bool> idempotentHint;
    std::optional<bool> openWorldHint;
};

} // namespace agentry::mcp::detail

#endif
