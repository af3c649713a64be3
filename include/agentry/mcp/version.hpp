// SPDX-License-Identifier: BSL-1.0
#ifndef AGENTRY_MCP_VERSION_HPP
#define AGENTRY_MCP_VERSION_HPP

// The MCP protocol versions agentry serves, the choice of one in `initialize`, and what each
// version puts on the wire.

#include <array>
#include <string_view>

namespace agentry::mcp {

/// The revisions served, oldest first. Versions are dates, so text order is age order.
inline constexpr std::array<std::string_view, 4> protocol_versions{"2024-11-05", "2025-03-26", "2025-06-18",
                                                                   "2025-11-25"};

/// The newest revision served.
inline constexpr std::string_view latest_protocol_version = protocol_versions.back();

constexpr bool supported_protocol_version(std::string_view version) noexcept {
    for (std::string_view v : protocol_versions)
        if (v == version) return true;
    return false;
}

/// The version to answer an `initialize` asking for `requested`, by the specification's rule:
/// `requested` itself when it is served, otherwise the newest served version (the client then
/// decides whether to disconnect).
constexpr std::string_view negotiate_protocol_version(std::string_view requested) noexcept {
    for (std::string_view v : protocol_versions)
        if (v == requested) return v;
    return latest_protocol_version;
}

/// What a negotiated version allows the server to send, beyond what 2024-11-05 has.
struct protocol_features {
    /// Tool `annotations` (readOnlyHint, ...): 2025-03-26.
    bool tool_annotations = false;
    /// Tool `title` and `serverInfo.title`: 2025-06-18.
    bool titles = false;
    /// Tool `outputSchema` and `structuredContent` in results: 2025-06-18.
    bool structured_content = false;
};

/// The features of `version`, a served version (see protocol_versions). Versions are dates, so
/// a feature is in every version at least as new as the one that introduced it.
constexpr protocol_features features_of(std::string_view version) noexcept {
    return {.tool_annotations = version >= "2025-03-26",
            .titles = version >= "2025-06-18",
            .structured_content = version >= "2025-06-18"};
}

} // namespace agentry::mcp

#endif
