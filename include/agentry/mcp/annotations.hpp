// SPDX-License-Identifier: BSL-1.0
#ifndef AGENTRY_MCP_ANNOTATIONS_HPP
#define AGENTRY_MCP_ANNOTATIONS_HPP

// agentry::mcp::annotations<"tool">{...}: what an MCP client is told about a tool besides its
// schemas: a display title, the behaviour hints of MCP's ToolAnnotations, and icons (icons.hpp).
//
//   agentry::mcp::server server{tools, info,
//       agentry::mcp::annotations<"get_weather">{.title = "Weather", .read_only = true},
//       agentry::mcp::annotations<"delete_file">{.destructive = true, .idempotent = true}};
//
// The tool is named in the template argument, so the server checks at compile time that the
// registry has it. A hint left empty is not sent; MCP's defaults then apply (read_only false,
// destructive true, idempotent false, open_world true). Hints are hints: clients must not
// trust them from servers they do not trust.

#include <agentry/mcp/icons.hpp>
#include <agentry/reflect/fixed_string.hpp>

#include <optional>
#include <string_view>
#include <vector>

namespace agentry::mcp {

/// The title, hints and icons of the tool named Tool, as sent in tools/list.
template <fixed_string Tool>
struct annotations {
    static constexpr std::string_view tool = Tool.view();

    /// Display name, sent as the tool's `title`.
    std::string_view title{};
    /// `readOnlyHint`: the tool does not modify its environment.
    std::optional<bool> read_only{};
    /// `destructiveHint`: it may destroy or overwrite (meaningful when not read-only).
    std::optional<bool> destructive{};
    /// `idempotentHint`: calling it again with the same arguments has no further effect.
    std::optional<bool> idempotent{};
    /// `openWorldHint`: it reaches entities outside a closed domain (the web, other systems).
    std::optional<bool> open_world{};
    /// The tool's `icons` (sent from 2025-11-25; checked as icons.hpp says).
    std::vector<icon> icons{};
};

template <class T>
inline constexpr bool is_annotations = false;
template <fixed_string Tool>
inline constexpr bool is_annotations<annotations<Tool>> = true;

} // namespace agentry::mcp

#endif
