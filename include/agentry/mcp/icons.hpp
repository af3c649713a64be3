// SPDX-License-Identifier: BSL-1.0
#ifndef AGENTRY_MCP_ICONS_HPP
#define AGENTRY_MCP_ICONS_HPP

// agentry::mcp::icon: an image a client may show beside the server, a tool, a resource, a
// resource template or a prompt (MCP 2025-11-25's Icon). Icons are given where each is declared:
//
//   agentry::mcp::server server{tools,
//       {.name = "weather", .version = "1.0.0",
//        .icons = {{.src = "https://example.com/weather.png", .mime_type = "image/png", .sizes = "48x48"}}},
//       agentry::mcp::annotations<"get_weather">{.icons = {{.src = "https://example.com/sun.svg",
//                                                           .sizes = "any", .theme = agentry::mcp::icon_theme::light}}},
//       agentry::mcp::resource<"docs://readme", "readme">(read_me, {.icons = {{.src = "data:image/png;base64,iVBO..."}}}),
//       agentry::mcp::prompt<"review", "Asks for a review">(review, {.title = "Review", .icons = {...}})};
//
// They are sent (with serverInfo's `description` and `websiteUrl`) to sessions of 2025-11-25 and
// later only. Each icon is checked when the server is built: `src` an https: URL or a data: URI
// of base64 image data (data:image/png;base64,...), without spaces or characters a URI cannot
// hold; other schemes (http:, javascript:, file:) are refused, since a client would fetch or run
// them on the server's word. `mime_type`, when given, is an image/ type; `sizes` is a list of
// "WxH" (such as "48x48") or "any", separated by spaces; `theme` is light, dark, or any (not
// sent). An icon that breaks a rule makes the server's constructor throw std::invalid_argument
// saying which icon, of what, and why. The server writes the icons' JSON then, so their strings
// need to live only until it is built. mcp::client keeps, of what a server lists, the icons that
// keep these rules, at most max_listed_icons per item (listed_icon). With constant data, check at
// compile time:
//   static constexpr agentry::mcp::icon logo{.src = "https://example.com/logo.png"};
//   static_assert(agentry::mcp::icon_problem(logo).empty());

#include <agentry/json/writer.hpp>

#include <cstddef>
#include <stdexcept>
#include <string>
#include <string_view>
#include <vector>

namespace agentry::mcp {

/// The background an icon is drawn for: `light` or `dark`, or `any` (no `theme` sent).
enum class icon_theme : unsigned char { any, light, dark };

/// One icon, as sent in `icons`.
struct icon {
    /// An https: URL or a data: URI of base64 image data.
    std::string_view src;
    /// `mimeType`: an image/ media type, when the source's is missing or generic.
    std::string_view mime_type{};
    /// `sizes`: "WxH" or "any", separated by spaces ("48x48 96x96"); empty: not sent (any size).
    std::string_view sizes{};
    /// `theme`.
    icon_theme theme = icon_theme::any;
};

namespace detail {

constexpr bool ascii_digit(char c) noexcept { return c >= '0' && c <= '9'; }
constexpr bool ascii_alpha(char c) noexcept { return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z'); }

/// Whether `c` may appear in a URI (RFC 3986's reserved and unreserved characters, and '%').
constexpr bool uri_char(char c) noexcept {
    if (ascii_alpha(c) || ascii_digit(c)) return true;
    for (char allowed : std::string_view("-._~:/?#[]@!$&'()*+,;=%"))
        if (c == allowed) return true;
    return false;
}

/// Whether `text` starts with `prefix`, ignoring ASCII case.
constexpr bool starts_with_nocase(std::string_view text, std::string_view prefix) noexcept {
    if (text.size() < prefix.size()) return false;
    for (std::size_t i = 0; i != prefix.size(); ++i) {
        char c = text[i];
        if (c >= 'A' && c <= 'Z') c = static_cast<char>(c - 'A' + 'a');
        if (c != prefix[i]) return false;
    }
    return true;
}

/// Whether `type` is image/<subtype>, the subtype of letters, digits and "+-.".
constexpr bool image_media_type(std::string_view type) noexcept {
    if (!starts_with_nocase(type, "image/") || type.size() == 6) return false;
    for (char c : type.substr(6))
        if (!(ascii_alpha(c) || ascii_digit(c) || c == '+' || c == '-' || c == '.')) return false;
    return true;
}

/// Whether `src` is data:image/<subtype>[;parameters];base64,<base64>.
constexpr bool image_data_uri(std::string_view src) noexcept {
    const std::string_view rest = src.substr(5);  // after "data:"
    std::size_t comma = 0;
    while (comma != rest.size() && rest[comma] != ',') ++comma;
    if (comma == rest.size() || comma + 1 == rest.size()) return false;
    const std::string_view head = rest.substr(0, comma);
    if (head.size() < 7 || !starts_with_nocase(head.substr(head.size() - 7), ";base64")) return false;
    std::size_t type_end = 0;
    while (type_end != head.size() && head[type_end] != ';') ++type_end;
    if (!image_media_type(head.substr(0, type_end))) return false;
    for (char c : rest.substr(comma + 1))
        if (!(ascii_alpha(c) || ascii_digit(c) || c == '+' || c == '/' || c == '=')) return false;
    return true;
}

/// Whether `size` is "any" or "WxH" with W and H positive decimal numbers.
constexpr bool icon_size(std::string_view size) noexcept {
    if (size == "any") return true;
    std::size_t x = 0;
    while (x != size.size() && size[x] != 'x') ++x;
    if (x == 0 || x == size.size() || x + 1 == size.size() || x > 5 || size.size() - x - 1 > 5) return false;
    for (std::size_t i = 0; i != size.size(); ++i)
        if (i != x && !ascii_digit(size[i])) return false;
    return size[0] != '0' && size[x + 1] != '0';
}

/// Calls `each` with every size of a space-separated list; false when one is not a size.
template <class F>
constexpr bool each_size(std::string_view sizes, F&& each) {
    std::size_t i = 0;
    while (i != sizes.size()) {
        if (sizes[i] == ' ') {
            ++i;
            continue;
        }
        std::size_t end = i;
        while (end != sizes.size() && sizes[end] != ' ') ++end;
        const std::string_view size = sizes.substr(i, end - i);
        if (!icon_size(size)) return false;
        each(size);
        i = end;
    }
    return true;
}

} // namespace detail

/// Empty when `i` keeps the rules above; otherwise which rule it breaks.
constexpr std::string_view icon_problem(const icon& i) noexcept {
    if (i.src.empty()) return "src is empty; give an https: URL or a data: URI";
    for (char c : i.src)
        if (!detail::uri_char(c))
            return "src holds a character a URI cannot (a space, a quote, a non-ASCII byte, ...); percent-encode it";
    if (detail::starts_with_nocase(i.src, "https:")) {
        if (i.src.size() < 9 || i.src.substr(6, 2) != "//" || i.src[8] == '/')
            return "src is not an https:// URL with a host";
    } else if (detail::starts_with_nocase(i.src, "data:")) {
        if (!detail::image_data_uri(i.src))
            return "src is not a data: URI of base64 image data; write data:image/<type>;base64,<data>";
    } else {
        return "src is neither an https: URL nor a data: URI; other schemes (http:, javascript:, file:) are refused";
    }
    if (!i.mime_type.empty() && !detail::image_media_type(i.mime_type))
        return "mime_type is not an image/ media type such as image/png";
    if (!detail::each_size(i.sizes, [](std::string_view) {}))
        return "sizes is not a list of \"WxH\" (such as \"48x48\") or \"any\", separated by spaces";
    if (i.theme != icon_theme::any && i.theme != icon_theme::light && i.theme != icon_theme::dark)
        return "theme is not icon_theme::any, light or dark";
    return {};
}

/// An icon a server listed, as mcp::client reads it (client.hpp).
struct listed_icon {
    std::string src;
    /// Empty when the server gave none.
    std::string mime_type;
    /// Each "WxH" or "any"; empty when the server gave none (any size).
    std::vector<std::string> sizes;
    icon_theme theme = icon_theme::any;
};

/// The most icons mcp::client keeps for one item (the server, a tool, a resource, a prompt).
inline constexpr std::size_t max_listed_icons = 8;
/// The longest `src` mcp::client keeps, in bytes (a data: URI of a small image fits).
inline constexpr std::size_t max_listed_icon_src_size = 64 * 1024;

namespace detail {

/// `,"icons":[...]` for `icons` (nothing when there are none), after checking each; an icon
/// breaking a rule throws std::invalid_argument naming it as icon <n> of `owner`.
inline std::string icon_members(const std::vector<icon>& icons, std::string_view owner) {
    std::string out;
    for (std::size_t n = 0; n != icons.size(); ++n) {
        const icon& i = icons[n];
        if (const std::string_view problem = icon_problem(i); !problem.empty()) {
            std::string message = "agentry: mcp::server: icon " + std::to_string(n + 1) + " of " + std::string(owner) + " (";
            json::write(message, i.src.substr(0, 60));
            message += "): ";
            message += problem;
            throw std::invalid_argument(message);
        }
        out += n == 0 ? R"(,"icons":[{"src":)" : R"(,{"src":)";
        json::write(out, i.src);
        if (!i.mime_type.empty()) {
            out += R"(,"mimeType":)";
            json::write(out, i.mime_type);
        }
        if (!i.sizes.empty()) {
            out += R"(,"sizes":[)";
            bool first = true;
            each_size(i.sizes, [&](std::string_view size) {
                if (!first) out += ',';
                first = false;
                json::write(out, size);
            });
            out += ']';
        }
        if (i.theme != icon_theme::any) out += i.theme == icon_theme::light ? R"(,"theme":"light")" : R"(,"theme":"dark")";
        out += '}';
    }
    if (!out.empty()) out += ']';
    return out;
}

/// `owner` quoted for icon_members: `what "name"`.
inline std::string icon_owner(std::string_view what, std::string_view name) {
    std::string out(what);
    out += ' ';
    json::write(out, name);
    return out;
}

/// The members serverInfo gains from 2025-11-25: `,"description":...,"icons":[...],"websiteUrl":...`.
/// A website_url that is not an http(s) URL throws std::invalid_argument.
inline std::string implementation_members(std::string_view description, std::string_view website_url,
                                          const std::vector<icon>& icons) {
    std::string out;
    if (!description.empty()) {
        out += R"(,"description":)";
        json::write(out, description);
    }
    out += icon_members(icons, "server_info");
    if (!website_url.empty()) {
        bool fine = starts_with_nocase(website_url, "https://") || starts_with_nocase(website_url, "http://");
        for (char c : website_url) fine = fine && uri_char(c);
        if (!fine) {
            std::string message = "agentry: mcp::server: server_info::website_url ";
            json::write(message, website_url.substr(0, 60));
            message += " is not an http: or https: URL; give the server's website as https://...";
            throw std::invalid_argument(message);
        }
        out += R"(,"websiteUrl":)";
        json::write(out, website_url);
    }
    return out;
}

} // namespace detail

} // namespace agentry::mcp

#endif
