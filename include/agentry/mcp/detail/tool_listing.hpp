// SPDX-License-Identifier: BSL-1.0
#ifndef AGENTRY_MCP_DETAIL_TOOL_LISTING_HPP
#define AGENTRY_MCP_DETAIL_TOOL_LISTING_HPP

// What the MCP server writes of a tool in tools/list beyond its definition (the title and the
// annotations, by version), and the pieces of a result that depend on the version.

#include <agentry/json/writer.hpp>
#include <agentry/mcp/detail/server_results.hpp>
#include <agentry/mcp/version.hpp>
#include <agentry/policy/tool_policy.hpp>

#include <cstddef>
#include <optional>
#include <string>
#include <string_view>

namespace agentry::mcp::detail {


/// The members a tools/list entry gains from its annotations, each after a comma.
struct annotation_text {
    std::string title;         // ,"title":...
    std::string hints;         // ,"annotations":{...}
    std::string titled_hints;  // ,"annotations":{"title":...,...}: 2025-03-26 has no tool title
    std::string icons;         // ,"icons":[...] (icons.hpp)
};

/// The hints derived from a tool's policy: read-only, else destructive or not and idempotent
/// or not; nothing for a tool without a policy.
inline tool_hints policy_hints(bool policied, const tool_policy& p) {
    tool_hints h;
    if (!policied) return h;
    h.readOnlyHint = p.level == permission::read_only;
    if (p.level != permission::read_only) {
        h.destructiveHint = p.level == permission::destructive;
        h.idempotentHint = p.idempotent;
    }
    return h;
}

inline annotation_text annotation_members(std::string_view title, tool_hints hints) {
    annotation_text out;
    if (!title.empty()) {
        out.title = ",\"title\":";
        json::write(out.title, title);
    }
    if (hints.readOnlyHint || hints.destructiveHint || hints.idempotentHint || hints.openWorldHint) {
        out.hints = ",\"annotations\":";
        json::write(out.hints, hints, {.omit_empty_optionals = true});
    }
    if (!title.empty()) hints.title = std::string(title);
    if (hints.title || !out.hints.empty()) {
        out.titled_hints = ",\"annotations\":";
        json::write(out.titled_hints, hints, {.omit_empty_optionals = true});
    }
    return out;
}

/// The index of a served `version` in served_protocol_versions; the latest negotiated one's
/// for another.
constexpr std::size_t version_index(std::string_view version) noexcept {
    for (std::size_t i = 0; i != served_protocol_versions.size(); ++i)
        if (served_protocol_versions[i] == version) return i;
    return protocol_versions.size() - 1;
}

constexpr bool served_version(std::string_view version) noexcept {
    for (std::string_view v : served_protocol_versions)
        if (v == version) return true;
    return false;
}

/// Inserts 2026-07-28's result members before the closing brace of the object `body`.
inline std::string complete_result(std::string body, bool cacheable, bool is_private) {
    body.pop_back();
    if (body.size() > 1) body += ',';
    body += R"("resultType":"complete")";
    if (cacheable) body += is_private ? R"(,"cacheScope":"private","ttlMs":0)" : R"(,"cacheScope":"public","ttlMs":0)";
    body += '}';
    return body;
}

} // namespace agentry::mcp::detail

#endif
