// SPDX-License-Identifier: BSL-1.0
#ifndef AGENTRY_PROVIDER_DETAIL_TOOL_CONTENT_HPP
#define AGENTRY_PROVIDER_DETAIL_TOOL_CONTENT_HPP

// A tool result made of MCP content blocks (message::content_blocks, written by
// mcp/content.hpp) as the providers read it: one reader of the blocks for all of them
// (read_blocks), and for OpenAI Chat, Gemini and Ollama the blocks as text (text blocks,
// embedded resources holding text, resource links and tool references as their JSON), images,
// and the blocks they cannot carry (audio, binary resources), with the error a provider
// refusing one gives. A tool_reference block ({"type":"tool_reference","tool_name":...}, the
// result of select/tool_search.hpp for Anthropic) is not MCP's: Anthropic sends it as it is.

#include <agentry/json/reader.hpp>
#include <agentry/provider/detail/wire_common.hpp>
#include <agentry/provider/message.hpp>
#include <agentry/schema/raw_json.hpp>

#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace agentry::detail {

namespace tool_content_wire {

struct resource_in {
    std::optional<std::string> uri;
    std::optional<std::string> mimeType;
    std::optional<std::string> text;
    std::optional<std::string> blob;
};

/// One MCP content block; members a block type does not have stay absent.
struct block_in {
    std::optional<std::string> type;
    std::optional<std::string> text;
    std::optional<std::string> data;
    std::optional<std::string> mimeType;
    std::optional<resource_in> resource;
    std::optional<std::string> uri;
    std::optional<std::string> name;
    /// A tool_reference block's tool (select/tool_search.hpp).
    std::optional<std::string> tool_name;
};

} // namespace tool_content_wire

/// A content block as read, and its JSON text as written (a resource link is sent as that).
struct mcp_block {
    tool_content_wire::block_in in;
    std::string raw;

    std::string_view type() const noexcept { return in.type ? std::string_view(*in.type) : std::string_view(); }
};

/// The blocks of a tool result's text, an MCP content array; empty when it is not one (the
/// result is then sent as plain text).
inline std::optional<std::vector<mcp_block>> read_blocks(std::string_view text) {
    auto array = json::read<std::vector<raw_json>>(text, wire_read_options);
    if (!array.ok()) return std::nullopt;
    std::vector<mcp_block> out;
    out.reserve(array.value.size());
    for (raw_json& item : array.value) {
        auto block = json::read<tool_content_wire::block_in>(item.text(), wire_read_options);
        if (!block.ok()) return std::nullopt;
        out.push_back({std::move(block.value), std::string(item.text())});
    }
    return out;
}

enum class content_kind { text, image, other };

/// One block of a tool result, as the providers see it.
struct content_item {
    content_kind kind = content_kind::text;
    /// content_kind::text: the text.
    std::string text;
    /// content_kind::image: the base64 bytes and their MIME type.
    std::string data;
    std::string mime_type;
    /// content_kind::other: what the block is, for an error message ("audio", "a binary resource", ...).
    std::string what;
};

/// The blocks of a tool result whose content_blocks is true; empty when the text is not an
/// array of content blocks (it is then sent as plain text).
inline std::optional<std::vector<content_item>> content_items(const message& result) {
    if (!result.content_blocks.value_or(false)) return std::nullopt;
    std::optional<std::vector<mcp_block>> blocks = read_blocks(result.text);
    if (!blocks) return std::nullopt;
    std::vector<content_item> out;
    out.reserve(blocks->size());
    for (mcp_block& block : *blocks) {
        tool_content_wire::block_in& b = block.in;
        content_item item;
        const std::string_view type = block.type();
        if (type == "text") {
            item.text = std::move(b.text).value_or("");
        } else if (type == "image" && b.data) {
            item.kind = content_kind::image;
            item.data = std::move(*b.data);
            item.mime_type = std::move(b.mimeType).value_or("");
        } else if (type == "resource" && b.resource && b.resource->text) {
            item.text = std::move(*b.resource->text);
        } else if (type == "resource_link" || type == "tool_reference") {
            item.text = std::move(block.raw);
        } else {
            item.kind = content_kind::other;
            if (type == "audio") item.what = "audio";
            else if (type == "resource") item.what = "a binary resource";
            else if (type == "image") item.what = "an image without data";
            else item.what = "a block of type '" + std::string(type) + "'";
        }
        out.push_back(std::move(item));
    }
    return out;
}

/// The texts of `items` joined with a newline between them.
inline std::string joined_text(const std::vector<content_item>& items) {
    std::string out;
    bool first = true;
    for (const content_item& item : items) {
        if (item.kind != content_kind::text) continue;
        if (!first) out.push_back('\n');
        out += item.text;
        first = false;
    }
    return out;
}

/// A block of a tool result that a provider cannot carry.
struct uncarried_block {
    const message* result;
    content_kind kind;
    /// "an image", "audio", "a binary resource", ...
    std::string what;
};

/// The first block in the tool results of `messages` for whose kind `carries` is false.
template <class Carries>
std::optional<uncarried_block> first_uncarried(std::span<const message> messages, Carries&& carries) {
    for (const message& m : messages) {
        if (m.role != role::tool) continue;
        const auto items = content_items(m);
        if (!items) continue;
        for (const content_item& item : *items) {
            if (carries(item.kind)) continue;
            std::string what = item.kind == content_kind::image ? std::string("an image") : item.what;
            return uncarried_block{&m, item.kind, std::move(what)};
        }
    }
    return std::nullopt;
}

/// The bad_request error of a request a provider refuses: "agentry: " + `cannot`, ", and the
/// result of tool 'x' (call 'id') holds " + what the block is + "; " + `fix`.
inline provider_error content_refusal(std::string_view cannot, const uncarried_block& block, std::string_view fix) {
    provider_error e;
    e.kind = provider_error_kind::bad_request;
    e.type = "unsupported_content";
    e.message = "agentry: " + std::string(cannot) + ", and the result of tool '" + block.result->tool_name +
                "' (call '" + block.result->tool_call_id + "') holds " + block.what + "; " + std::string(fix);
    return e;
}

} // namespace agentry::detail

#endif
