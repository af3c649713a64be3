// SPDX-License-Identifier: BSL-1.0
#ifndef AGENTRY_MCP_DETAIL_LISTED_ICONS_HPP
#define AGENTRY_MCP_DETAIL_LISTED_ICONS_HPP

// The `icons` of an item a server listed, read by mcp::client. The server is not trusted, so the
// reading is lenient and bounded: an entry that is not an icon keeping icons.hpp's rules (src an
// https: URL or a data: URI of base64 image data, at most max_listed_icon_src_size bytes; an
// image/ mimeType; sizes "WxH" or "any", at most 16; theme "light" or "dark") is skipped, not
// an error of the listing; at most max_listed_icons are kept, the rest ignored. serverInfo's
// websiteUrl is kept when it is an http(s) URL.

#include <agentry/json/value.hpp>
#include <agentry/mcp/icons.hpp>

#include <cstddef>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace agentry::mcp::detail {

/// The icon `v` describes, when it keeps the rules; false otherwise.
inline bool read_icon(const json::value& v, listed_icon& out) {
    if (!v.is_object()) return false;
    const json::value* src = v.find("src");
    if (!src || !src->is_string() || src->as_string().size() > max_listed_icon_src_size) return false;
    icon checked{.src = src->as_string()};
    if (const json::value* m = v.find("mimeType")) {
        if (!m->is_string()) return false;
        checked.mime_type = m->as_string();
    }
    std::vector<std::string> sizes;
    if (const json::value* s = v.find("sizes")) {
        if (!s->is_array() || s->items().size() > 16) return false;
        for (const json::value& size : s->items()) {
            if (!size.is_string() || !icon_size(size.as_string())) return false;
            sizes.push_back(size.as_string());
        }
    }
    if (const json::value* t = v.find("theme")) {
        if (!t->is_string() || (t->as_string() != "light" && t->as_string() != "dark")) return false;
        checked.theme = t->as_string() == "light" ? icon_theme::light : icon_theme::dark;
    }
    if (!icon_problem(checked).empty()) return false;
    out = {std::string(checked.src), std::string(checked.mime_type), std::move(sizes), checked.theme};
    return true;
}

/// The icons of `item` (its `icons` member); `kept` grows by the bytes they hold.
inline std::vector<listed_icon> read_icons(const json::value& item, std::size_t& kept) {
    std::vector<listed_icon> out;
    const json::value* icons = item.is_object() ? item.find("icons") : nullptr;
    if (!icons || !icons->is_array()) return out;
    for (const json::value& v : icons->items()) {
        if (out.size() == max_listed_icons) break;
        listed_icon i;
        if (!read_icon(v, i)) continue;
        kept += i.src.size() + i.mime_type.size();
        for (const std::string& size : i.sizes) kept += size.size();
        out.push_back(std::move(i));
    }
    return out;
}

/// `url` when it is an http: or https: URL of URI characters at most 2048 bytes long; else empty.
inline std::string website_url(std::string_view url) {
    bool fine = url.size() <= 2048 && (starts_with_nocase(url, "https://") || starts_with_nocase(url, "http://"));
    for (char c : url) fine = fine && uri_char(c);
    return fine ? std::string(url) : std::string();
}

} // namespace agentry::mcp::detail

#endif
