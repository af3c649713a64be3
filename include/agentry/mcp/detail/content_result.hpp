// SPDX-License-Identifier: BSL-1.0
#ifndef AGENTRY_MCP_DETAIL_CONTENT_RESULT_HPP
#define AGENTRY_MCP_DETAIL_CONTENT_RESULT_HPP

// The `content` of a tools/call result for a tool returning MCP content (mcp/content.hpp): the
// array its result holds, with each block the session's protocol version does not define made
// a text block. Audio (from 2025-03-26) becomes a text block saying it was not sent; a resource
// link (from 2025-06-18) a text block holding the link's JSON. Both are found by the start
// mcp::content writes them with, `{"type":"audio"` and `{"type":"resource_link"`, which cannot
// occur inside a JSON string (its quotes would be escaped).
// Cost: from 2025-06-18, one append; before, one search, and one pass when a block is replaced.

#include <agentry/json/writer.hpp>

#include <cstddef>
#include <string>
#include <string_view>

namespace agentry::mcp::detail {

/// The end of the JSON object or array that starts at `at` in well-formed JSON `text`.
constexpr std::size_t json_value_end(std::string_view text, std::size_t at) noexcept {
    std::size_t depth = 0;
    bool in_string = false;
    for (; at < text.size(); ++at) {
        const char c = text[at];
        if (in_string) {
            if (c == '\\') ++at;
            else if (c == '"') in_string = false;
        } else if (c == '"') {
            in_string = true;
        } else if (c == '{' || c == '[') {
            ++depth;
        } else if ((c == '}' || c == ']') && --depth == 0) {
            return at + 1;
        }
    }
    return text.size();
}

/// Appends `blocks`, a content array as mcp::content writes it, for a session of `version`.
inline void append_content(std::string& out, std::string_view blocks, std::string_view version) {
    constexpr std::string_view audio_start = R"({"type":"audio")";
    constexpr std::string_view link_start = R"({"type":"resource_link")";
    const bool has_audio = version >= "2025-03-26";
    const bool has_links = version >= "2025-06-18";
    if (has_links || (blocks.find(link_start) == std::string_view::npos &&
                      (has_audio || blocks.find(audio_start) == std::string_view::npos))) {
        out += blocks;
        return;
    }
    std::size_t at = 0;
    while (at < blocks.size()) {
        const std::size_t next = blocks.find(R"({"type":")", at);
        if (next == std::string_view::npos) break;
        const std::size_t end = json_value_end(blocks, next);
        const std::string_view one = blocks.substr(next, end - next);
        out += blocks.substr(at, next - at);
        if (!has_audio && one.starts_with(audio_start)) {
            out += R"({"type":"text","text":"audio not sent: protocol version )";
            out += version;
            out += R"( has no audio content"})";
        } else if (one.starts_with(link_start)) {
            out += R"({"type":"text","text":)";
            json::write(out, one);
            out += '}';
        } else {
            out += one;
        }
        at = end;
    }
    out += blocks.substr(at);
}

} // namespace agentry::mcp::detail

#endif
