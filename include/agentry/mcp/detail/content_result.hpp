// SPDX-License-Identifier: BSL-1.0
#ifndef AGENTRY_MCP_DETAIL_CONTENT_RESULT_HPP
#define AGENTRY_MCP_DETAIL_CONTENT_RESULT_HPP

// Content blocks (mcp/content.hpp) for a session's protocol version, each block the version
// does not define made a text block: audio (from 2025-03-26) a text block saying it was not
// sent, a resource link (from 2025-06-18) a text block holding the link's JSON.
//  - append_content: the `content` of a tools/call result, from the array a tool's result
//    holds. Audio and links are found by the start mcp::content writes them with,
//    `{"type":"audio"` and `{"type":"resource_link"`, which cannot occur inside a JSON string
//    (its quotes would be escaped).
//  - append_block: one block, e.g. a prompt message's content, from its value.
//  - tool_call_result: the whole result of a tools/call from the tool's result.
// Cost: append_content from 2025-06-18, one append; before, one search, and one pass when a
// block is replaced. append_block: the block's writer, and one copy of a replaced link.

#include <agentry/json/writer.hpp>
#include <agentry/mcp/content.hpp>
#include <agentry/tool_result.hpp>

#include <cstddef>
#include <string>
#include <string_view>
#include <variant>

namespace agentry::mcp::detail {

/// Whether `version` defines audio content (2025-03-26).
constexpr bool has_audio_content(std::string_view version) noexcept { return version >= "2025-03-26"; }

/// Whether `version` defines resource links (2025-06-18).
constexpr bool has_resource_links(std::string_view version) noexcept { return version >= "2025-06-18"; }

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

/// The text block sent for audio in a session of `version`, which has none.
inline void append_audio_not_sent(std::string& out, std::string_view version) {
    out += R"({"type":"text","text":"audio not sent: protocol version )";
    out += version;
    out += R"( has no audio content"})";
}

/// The text block holding `block`, a block's JSON.
inline void append_block_as_text(std::string& out, std::string_view block) {
    out += R"({"type":"text","text":)";
    json::write(out, block);
    out += '}';
}

/// Appends `blocks`, a content array as mcp::content writes it, for a session of `version`.
inline void append_content(std::string& out, std::string_view blocks, std::string_view version) {
    constexpr std::string_view audio_start = R"({"type":"audio")";
    constexpr std::string_view link_start = R"({"type":"resource_link")";
    const bool has_audio = has_audio_content(version);
    if (has_resource_links(version) || (blocks.find(link_start) == std::string_view::npos &&
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
        if (!has_audio && one.starts_with(audio_start)) append_audio_not_sent(out, version);
        else if (one.starts_with(link_start)) append_block_as_text(out, one);
        else out += one;
        at = end;
    }
    out += blocks.substr(at);
}

/// Appends `block` for a session of `version`.
inline void append_block(std::string& out, const content_block& block, std::string_view version) {
    if (std::holds_alternative<audio>(block) && !has_audio_content(version)) {
        append_audio_not_sent(out, version);
    } else if (std::holds_alternative<resource_link>(block) && !has_resource_links(version)) {
        std::string link;
        write_block(link, block);
        append_block_as_text(out, link);
    } else {
        write_block(out, block);
    }
}

/// The CallToolResult of a tool's result `r`, for a session of `version`:
///  - a tool returning MCP content (`content_result`): its blocks; content cut at the result
///    cap (`cap` bytes) is not JSON, so a text block says so instead, with isError true;
///  - otherwise a text block with the result; with `structured` (an object result, a version
///    with structuredContent) the same JSON as structuredContent, unless cut at the cap, which
///    no longer matches the outputSchema and is sent with isError true.
inline std::string tool_call_result(const tool_result& r, std::string_view tool, std::string_view version,
                                    bool content_result, bool structured, std::size_t cap) {
    std::string body = R"({"content":)";
    if (content_result && r.ok()) {
        if (!r.truncated) {
            body.reserve(body.size() + r.content.size() + 20);
            append_content(body, r.content, version);
            body += ",\"isError\":false}";
            return body;
        }
        body += R"([{"type":"text","text":)";
        json::write(body, std::string(tool) + " failed: its content exceeded the result limit of " +
                              std::to_string(cap) + " bytes (call_options::max_result_size)");
        body += "}],\"isError\":true}";
        return body;
    }
    body += R"([{"type":"text","text":)";
    json::write(body, std::string_view(r.content));
    body += "}]";
    if (structured && r.ok() && !r.truncated) {
        body += ",\"structuredContent\":";
        body += r.content;
    }
    body += !r.ok() || (r.truncated && structured) ? ",\"isError\":true}" : ",\"isError\":false}";
    return body;
}

} // namespace agentry::mcp::detail

#endif
