// SPDX-License-Identifier: BSL-1.0
#ifndef AGENTRY_MCP_DETAIL_ARGUMENT_CHECK_HPP
#define AGENTRY_MCP_DETAIL_ARGUMENT_CHECK_HPP

// What the client's toolset and the server's run-time tools share to check arguments against
// an inputSchema given at run time: a pattern that does not compile, the errors joined for the
// model, a result from a status and a text.

#include <agentry/json/schema_check.hpp>
#include <agentry/json/value.hpp>
#include <agentry/tool_result.hpp>

#include <string>
#include <utility>
#include <vector>

namespace agentry::mcp::detail {

/// The first pattern of `schema` (a "pattern" string, a key of "patternProperties") that
/// `checker` could not compile, or null.
inline const json::schema_checker::compiled_pattern* broken_pattern(const json::schema_checker& checker,
                                                                    const json::value& schema) {
    for (const json::member& m : schema.members()) {
        const json::schema_checker::compiled_pattern* p = nullptr;
        if (m.key == "pattern" && m.value.is_string()) p = checker.find_pattern(m.value.as_string());
        if (p && !p->compiled) return p;
        if (m.key == "patternProperties" && m.value.is_object())
            for (const json::member& k : m.value.members())
                if (const auto* q = checker.find_pattern(k.key); q && !q->compiled) return q;
        if (const auto* q = broken_pattern(checker, m.value)) return q;
    }
    for (const json::value& item : schema.items())
        if (const auto* q = broken_pattern(checker, item)) return q;
    return nullptr;
}

/// The errors joined for the model: "/a: ...; /b: ...".
inline std::string join_read_errors(const std::vector<json::read_error>& errors) {
    std::string text;
    for (const json::read_error& e : errors) text += (text.empty() ? "" : "; ") + e.to_string();
    return text;
}

inline tool_result mcp_tool_result(tool_status status, std::string content) {
    tool_result out;
    out.status = status;
    out.content = std::move(content);
    return out;
}

} // namespace agentry::mcp::detail

#endif
