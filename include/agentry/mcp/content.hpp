// SPDX-License-Identifier: BSL-1.0
#ifndef AGENTRY_MCP_CONTENT_HPP
#define AGENTRY_MCP_CONTENT_HPP

// agentry::mcp::content: a tool result made of MCP content blocks (text, images, audio,
// embedded resources, resource links) instead of one text block.
//
//   agentry::mcp::content chart(const chart_query& q) {
//       return {agentry::mcp::text_block{"Sales by month"}, agentry::mcp::image{render_png(q), "image/png"}};
//   }
//   constexpr agentry::registry tools{agentry::tool<"chart", "Draws a sales chart">(chart)};
//
// A tool returns mcp::content (its blocks in order), one block type, or an agentry::outcome or
// std::expected of either. Each is an agentry::adapter<T> whose json_type is agentry::raw_json:
// the JSON text is the MCP content array, so registry::call (and the agent loop) gives
//
//   [{"type":"text","text":"Sales by month"},{"type":"image","data":"iVBORw0KGgo...","mimeType":"image/png"}]
//
// and mcp::server sends that array as the `content` of the tools/call result, with no
// structuredContent and no outputSchema.
//
// How each block is written (`...` a JSON string; bytes in base64):
//
// | type                                        | JSON                                                 |
// | ------------------------------------------- | ---------------------------------------------------- |
// | text_block{text}                            | {"type":"text","text":...}                           |
// | image{bytes, mime_type}                     | {"type":"image","data":bytes,"mimeType":...}         |
// | audio{bytes, mime_type}                     | {"type":"audio","data":bytes,"mimeType":...}         |
// | embedded_resource{uri, mime_type, "text"}   | {"type":"resource","resource":{"uri":...,            |
// |                                             | "mimeType":...,"text":...}}                          |
// | embedded_resource{uri, mime_type, blob{b}}  | {"type":"resource","resource":{"uri":...,            |
// |                                             | "mimeType":...,"blob":b}}                            |
// | resource_link{uri, name, ...}               | {"type":"resource_link","uri":...,"name":...} and    |
// |                                             | description, mimeType, title, size when set          |
//
// An embedded resource's empty mime_type is left out; an image's or audio's is written, as MCP
// requires it. Text is written as the JSON writer writes strings (ill-formed UTF-8 replaced by
// U+FFFD); bytes are base64 (RFC 4648, with padding) and may hold anything.
//
// Cost: the array is built in one string (four bytes per three bytes of binary data), then
// copied once into the result, which call_options::max_result_size caps (64 KiB by default:
// raise it for images; mcp::server sends content over the cap as an error, not cut).

#include <agentry/json/writer.hpp>
#include <agentry/mcp/detail/base64.hpp>
#include <agentry/schema/adapter.hpp>
#include <agentry/schema/raw_json.hpp>

#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <type_traits>
#include <utility>
#include <variant>
#include <vector>

namespace agentry::mcp {

/// Text: {"type":"text","text":...}.
struct text_block {
    std::string text;
};

/// An image, as raw bytes (e.g. the contents of a PNG file), sent base64-encoded.
struct image {
    std::string bytes;
    std::string mime_type;
};

/// Audio, as raw bytes (e.g. the contents of a WAV file), sent base64-encoded. MCP has audio
/// from 2025-03-26.
struct audio {
    std::string bytes;
    std::string mime_type;
};

/// The binary contents of an embedded resource, as raw bytes, sent base64-encoded as "blob".
struct blob {
    std::string bytes;
};

/// A resource's contents inside the result: text (a std::string, sent as "text") or binary
/// (mcp::blob, sent as "blob").
///   mcp::embedded_resource{"notes://a", "text/markdown", "# A"}
///   mcp::embedded_resource{"file:///r.pdf", "application/pdf", mcp::blob{pdf_bytes}}
struct embedded_resource {
    std::string uri;
    /// Left out when empty.
    std::string mime_type;
    std::variant<std::string, blob> contents;
};

/// A link to a resource the client may read (resources/read) or fetch. MCP has resource links
/// from 2025-06-18.
struct resource_link {
    std::string uri;
    std::string name;
    std::optional<std::string> description{};
    std::optional<std::string> mime_type{};
    /// Display name.
    std::optional<std::string> title{};
    /// Size of the raw contents in bytes.
    std::optional<std::uint64_t> size{};
};

/// One block of a content list.
using content_block = std::variant<text_block, image, audio, embedded_resource, resource_link>;

namespace detail {

/// One of the block types.
template <class T>
concept block = std::is_same_v<T, text_block> || std::is_same_v<T, image> || std::is_same_v<T, audio> ||
                std::is_same_v<T, embedded_resource> || std::is_same_v<T, resource_link>;

/// A block type or a content_block.
template <class T>
concept block_or_variant = block<std::remove_cvref_t<T>> || std::is_same_v<std::remove_cvref_t<T>, content_block>;

} // namespace detail

/// A tool result of several blocks, sent in order:
///   mcp::content{mcp::text_block{"Chart:"}, mcp::image{png, "image/png"}}
struct content {
    std::vector<content_block> blocks;

    content() = default;
    explicit content(std::vector<content_block> list) noexcept : blocks(std::move(list)) {}
    template <class... B>
        requires(sizeof...(B) != 0 && (detail::block_or_variant<B> && ...))
    content(B&&... b) {
        blocks.reserve(sizeof...(B));
        (blocks.emplace_back(std::forward<B>(b)), ...);
    }

    /// Appends a block.
    template <detail::block_or_variant B>
    content& add(B&& b) {
        blocks.emplace_back(std::forward<B>(b));
        return *this;
    }
};

namespace detail {

inline void write_text(std::string& out, std::string_view text) {
    json::write(out, text);
}

inline void write_block(std::string& out, const text_block& b) {
    out += R"({"type":"text","text":)";
    write_text(out, b.text);
    out += '}';
}

// An image or audio block: {"type":<type>,"data":<base64>,"mimeType":...}.
inline void write_media(std::string& out, std::string_view type, std::string_view bytes, std::string_view mime_type) {
    out += R"({"type":")";
    out += type;
    out += R"(","data":")";
    append_base64(out, bytes);
    out += R"(","mimeType":)";
    write_text(out, mime_type);
    out += '}';
}

inline void write_block(std::string& out, const image& b) { write_media(out, "image", b.bytes, b.mime_type); }

inline void write_block(std::string& out, const audio& b) { write_media(out, "audio", b.bytes, b.mime_type); }

inline void write_block(std::string& out, const embedded_resource& b) {
    out += R"({"type":"resource","resource":{"uri":)";
    write_text(out, b.uri);
    if (!b.mime_type.empty()) {
        out += R"(,"mimeType":)";
        write_text(out, b.mime_type);
    }
    if (const std::string* text = std::get_if<std::string>(&b.contents)) {
        out += R"(,"text":)";
        write_text(out, *text);
    } else {
        out += R"(,"blob":")";
        append_base64(out, std::get<blob>(b.contents).bytes);
        out += '"';
    }
    out += "}}";
}

inline void write_block(std::string& out, const resource_link& b) {
    out += R"({"type":"resource_link","uri":)";
    write_text(out, b.uri);
    out += R"(,"name":)";
    write_text(out, b.name);
    const auto put_optional = [&](std::string_view key, const std::optional<std::string>& value) {
        if (!value) return;
        out += key;
        write_text(out, *value);
    };
    put_optional(R"(,"description":)", b.description);
    put_optional(R"(,"mimeType":)", b.mime_type);
    put_optional(R"(,"title":)", b.title);
    if (b.size) {
        out += R"(,"size":)";
        json::write(out, *b.size);
    }
    out += '}';
}

inline void write_block(std::string& out, const content_block& b) {
    std::visit([&](const auto& one) { write_block(out, one); }, b);
}

/// agentry::adapter<T> of the content types: T is written as the MCP content array.
template <class T>
struct content_adapter {
    using json_type = raw_json;
    static constexpr bool content_blocks = true;
    static raw_json to_json(const T& value) {
        std::string out = "[";
        if constexpr (std::is_same_v<T, content>) {
            for (std::size_t i = 0; i != value.blocks.size(); ++i) {
                if (i != 0) out += ',';
                write_block(out, value.blocks[i]);
            }
        } else {
            write_block(out, value);
        }
        out += ']';
        return raw_json(std::move(out));
    }
};

/// Whether a tool returning R returns MCP content: a content type, or a type whose adapter
/// maps it to one (agentry::outcome<T>, std::expected<T, E>, a user's adapter).
template <class R>
consteval bool is_content_result() noexcept {
    using U = std::remove_cvref_t<R>;
    if constexpr (std::is_void_v<U>) return false;
    else if constexpr (block<U> || std::is_same_v<U, content>) return true;
    else if constexpr (schema::detail::mapped<U>) {
        using J = std::remove_cvref_t<schema::detail::json_type_of<U>>;
        if constexpr (std::is_same_v<J, U>) return false;
        else return is_content_result<J>();
    } else return false;
}

} // namespace detail

} // namespace agentry::mcp

namespace agentry {

template <>
struct adapter<mcp::content> : mcp::detail::content_adapter<mcp::content> {};
template <>
struct adapter<mcp::text_block> : mcp::detail::content_adapter<mcp::text_block> {};
template <>
struct adapter<mcp::image> : mcp::detail::content_adapter<mcp::image> {};
template <>
struct adapter<mcp::audio> : mcp::detail::content_adapter<mcp::audio> {};
template <>
struct adapter<mcp::embedded_resource> : mcp::detail::content_adapter<mcp::embedded_resource> {};
template <>
struct adapter<mcp::resource_link> : mcp::detail::content_adapter<mcp::resource_link> {};

} // namespace agentry

#endif
