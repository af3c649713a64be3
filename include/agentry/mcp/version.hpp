// SPDX-License-Identifier: BSL-1.0
#ifndef AGENTRY_MCP_VERSION_HPP
#define AGENTRY_MCP_VERSION_HPP

// The MCP protocol versions agentry serves, and the choice of one in `initialize`.

#include <array>
#include <string_view>

namespace agentry::mcp {

/// The revisions served, oldest first. Versions are dates, so text order is age order.
inline constexpr std::array<std::string_view, 2> protocol_versions{"2025-06-18", "2025-11-25"};

/// The newest revision served.
inline constexpr std::string_view latest_protocol_version = protocol_versions.back();

constexpr bool supported_protocol_version(std::string_view version) noexcept {
    for (std::string_view v : protocol_versions)
        if (v == version) return true;
    return false;
}

/// The version to answer an `initialize` asking for `requested`: the newest served version not
/// newer than it (a client supports the version it asks for and, by MCP's rules, may support
/// older ones), or the newest served version when `requested` is older than all of them, as
/// the specification asks (the client then decides whether to disconnect).
constexpr std::string_view negotiate_protocol_version(std::string_view requested) noexcept {
    std::string_view chosen;
    for (std::string_view v : protocol_versions)
        if (v <= requested) chosen = v;
    return chosen.empty() ? latest_protocol_version : chosen;
}

} // namespace agentry::mcp

#endif
