// SPDX-License-Identifier: BSL-1.0
#ifndef AGENTRY_PROVIDER_DETAIL_ANTHROPIC_REQUEST_HPP
#define AGENTRY_PROVIDER_DETAIL_ANTHROPIC_REQUEST_HPP

// Parts of an Anthropic request that are text work rather than reflected structs: members
// spliced into the tools payload (a constant JSON array, never parsed and written again), and
// a tool result's MCP content blocks (mcp/content.hpp) as the blocks a tool_result takes.

#include <agentry/json/reader.hpp>
#include <agentry/json/writer.hpp>
#include <agentry/provider/detail/tool_content.hpp>
#include <agentry/provider/detail/wire_common.hpp>
#include <agentry/schema/raw_json.hpp>

#include <cstddef>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace agentry::detail {

/// `tools`, a JSON array of tool objects, with `each` (a member, e.g. "\"eager_input_streaming\":true")
/// added at the end of every object and `last` at the end of the last one; empty strings add
/// nothing. Text that is not an array of objects is returned unchanged.
inline std::string splice_tools(std::string_view tools, std::string_view each, std::string_view last) {
    std::string out(tools);
    if (each.empty() && last.empty()) return out;
    const std::string_view t = trim_space(tools);
    if (t.size() < 2 || t.front() != '[' || t.back() != ']') return out;
    if (each.empty()) {
        // Only the last object: its closing brace is the last token before the array's end, so
        // nothing else is read (the payload, a registry's constant, is valid JSON).
        const std::size_t close = t.find_last_not_of(" \t\r\n", t.size() - 2);
        if (close == std::string_view::npos || close == 0 || t[close] != '}') return out;
        const std::size_t before = t.find_last_not_of(" \t\r\n", close - 1);
        std::string add;
        if (before != std::string_view::npos && t[before] != '{') add.push_back(',');
        add.append(last);
        out.insert(std::size_t(t.data() - tools.data()) + close, add);
        return out;
    }
    // The offsets of the closing braces of the array's objects, and whether each object is empty.
    std::vector<std::pair<std::size_t, bool>> ends;
    const std::size_t base = std::size_t(t.data() - tools.data());
    int depth = 0;
    bool in_string = false, escaped = false;
    std::size_t last_token = 0;  // the offset of the last character that is not white space
    for (std::size_t i = 0; i != t.size(); ++i) {
        const char c = t[i];
        if (in_string) {
            if (escaped) escaped = false;
            else if (c == '\\') escaped = true;
            else if (c == '"') in_string = false;
        } else if (c == '"') {
            in_string = true;
        } else if (c == '{' || c == '[') {
            if (depth == 1 && c != '{') return out;
            ++depth;
        } else if (c == '}' || c == ']') {
            if (depth == 2 && c == '}') ends.emplace_back(base + i, t[last_token] == '{');
            --depth;
        }
        if (c != ' ' && c != '\t' && c != '\r' && c != '\n') last_token = i;
    }
    if (depth != 0 || in_string || ends.empty()) return out;
    for (std::size_t k = ends.size(); k-- != 0;) {
        std::string add;
        const auto member = [&](std::string_view m) {
            if (m.empty()) return;
            if (!add.empty() || !ends[k].second) add.push_back(',');
            add.append(m);
        };
        member(each);
        if (k + 1 == ends.size()) member(last);
        out.insert(ends[k].first, add);
    }
    return out;
}

namespace anthropic_wire {

/// {"type":"base64","media_type":...,"data":...}
struct source_out {
    std::string_view type;
    std::string_view media_type;
    std::string_view data;
};

/// A block of a tool_result's content: text, image, document or tool_reference.
struct result_block_out {
    std::string_view type;
    std::optional<std::string_view> text;
    std::optional<source_out> source;
    std::optional<std::string_view> tool_name;
};

} // namespace anthropic_wire

/// The image types an Anthropic image block takes.
inline bool anthropic_image_type(std::string_view media_type) noexcept {
    return media_type == "image/jpeg" || media_type == "image/png" || media_type == "image/gif" ||
           media_type == "image/webp";
}

/// A tool result's MCP content array as a tool_result's content.
struct anthropic_result_content {
    /// The content array to send; empty when the text is not an array of content blocks (it is
    /// then sent as text) or when a block cannot be sent.
    std::string json;
    /// The first block a tool_result cannot carry, described ("an audio block"); empty if none.
    std::string unsendable;
};

/// text -> text; image of a type the API takes -> image (base64 source); an embedded resource:
/// text -> text, a PDF blob -> document, an image blob -> image; resource_link -> a text block
/// holding the link's JSON as written; tool_reference -> tool_reference (a tool search's
/// result: the tool is loaded for the model). Anything else is unsendable.
inline anthropic_result_content anthropic_result_blocks(std::string_view text) {
    namespace wire = anthropic_wire;
    anthropic_result_content out;
    const std::optional<std::vector<mcp_block>> blocks = read_blocks(text);
    if (!blocks) return out;
    std::vector<wire::result_block_out> sent;
    const auto unsendable = [&](std::string what) {
        out.unsendable = std::move(what);
        return out;
    };
    sent.reserve(blocks->size());
    for (const mcp_block& block : *blocks) {
        const tool_content_wire::block_in& b = block.in;
        const std::string_view type = block.type();
        wire::result_block_out r;
        if (type == "text") {
            r.type = "text";
            r.text = b.text ? std::string_view(*b.text) : std::string_view();
        } else if (type == "image") {
            const std::string_view mime = b.mimeType ? std::string_view(*b.mimeType) : std::string_view();
            if (!anthropic_image_type(mime) || !b.data) return unsendable("an image of type '" + std::string(mime) + "'");
            r.type = "image";
            r.source = wire::source_out{"base64", mime, *b.data};
        } else if (type == "resource" && b.resource && b.resource->text) {
            r.type = "text";
            r.text = *b.resource->text;
        } else if (type == "resource" && b.resource && b.resource->blob) {
            const std::string_view mime = b.resource->mimeType ? std::string_view(*b.resource->mimeType) : std::string_view();
            if (mime == "application/pdf") r.type = "document";
            else if (anthropic_image_type(mime)) r.type = "image";
            else return unsendable("an embedded resource blob of type '" + std::string(mime) + "'");
            r.source = wire::source_out{"base64", mime, *b.resource->blob};
        } else if (type == "resource_link") {
            r.type = "text";
            r.text = block.raw;
        } else if (type == "tool_reference" && b.tool_name) {
            r.type = "tool_reference";
            r.tool_name = *b.tool_name;
        } else {
            return unsendable(type == "audio" ? std::string("an audio block") : "a block of type '" + std::string(type) + "'");
        }
        sent.push_back(r);
    }
    json::write(out.json, sent, {.omit_empty_optionals = true});
    return out;
}

} // namespace agentry::detail

#endif
