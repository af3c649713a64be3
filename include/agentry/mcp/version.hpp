// SPDX-License-Identifier: BSL-1.0
#ifndef AGENTRY_MCP_VERSION_HPP
#define AGENTRY_MCP_VERSION_HPP

// The MCP protocol versions agentry serves, the choice of one in `initialize`, and what each
// version puts on the wire. 2026-07-28 is stateless: it has no `initialize`; each request names
// its version in `_meta` ("io.modelcontextprotocol/protocolVersion"), and `server/discover`
// lists the versions served.

#include <array>
#include <string_view>

namespace agentry::mcp {

/// The revisions served, oldest first. Versions are dates, so text order is age order.
inline constexpr std::array<std::string_view, 4> protocol_versions{"2024-11-05", "2025-03-26", "2025-06-18",
                                                                   "2025-11-25"};

/// The newest revision negotiated by `initialize`.
inline constexpr std::string_view latest_protocol_version = protocol_versions.back();

/// The stateless revision: no `initialize`, the version in each request's `_meta`.
inline constexpr std::string_view stateless_protocol_version = "2026-07-28";

/// Every revision served, oldest first: those of `initialize`, then the stateless one.
inline constexpr std::array<std::string_view, 5> served_protocol_versions{"2024-11-05", "2025-03-26", "2025-06-18",
                                                                          "2025-11-25", "2026-07-28"};

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
    /// A `message` in progress notifications: 2025-03-26.
    bool progress_message = false;
    /// JSON-RPC batches (arrays of messages): 2025-03-26 only.
    bool batches = false;
    /// The `completions` capability (completion/complete is served in every version): 2025-03-26.
    bool completions = false;
    /// `logging/setLevel` (before 2026-07-28, which sets the level per request in `_meta`).
    bool set_level = true;
    /// `icons` of the server, tools, resources, resource templates and prompts, and
    /// serverInfo's `description` and `websiteUrl`: 2025-11-25.
    bool icons = false;
    /// `resultType` in every result, `cacheScope` and `ttlMs` in lists; no `initialize`,
    /// `server/discover`: 2026-07-28.
    bool stateless = false;
};

/// The features of `version`, a served version (see served_protocol_versions). Versions are
/// dates, so a feature is in every version at least as new as the one that introduced it.
constexpr protocol_features features_of(std::string_view version) noexcept {
    return {.tool_annotations = version >= "2025-03-26",
            .titles = version >= "2025-06-18",
            .structured_content = version >= "2025-06-18",
            .progress_message = version >= "2025-03-26",
            .batches = version == "2025-03-26",
            .completions = version >= "2025-03-26",
            .set_level = version < stateless_protocol_version,
            .icons = version >= "2025-11-25",
            .stateless = version >= stateless_protocol_version};
}

} // namespace agentry::mcp

#endif
