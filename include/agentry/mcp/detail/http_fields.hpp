// SPDX-License-Identifier: BSL-1.0
#ifndef AGENTRY_MCP_DETAIL_HTTP_FIELDS_HPP
#define AGENTRY_MCP_DETAIL_HTTP_FIELDS_HPP

// Strict parsers for the HTTP header fields the MCP endpoint decides on: media types
// (Content-Type, Accept; RFC 9110 section 8.3.1 and 12.5.1), origins (Origin; RFC 6454) and
// authorities (Host), and bearer credentials (Authorization; RFC 6750).
//
// Origins and authorities are parsed here rather than with Boost.URL: Boost.URL, header-only,
// needs boost/url/src.hpp compiled in exactly one translation unit, which a header-only library
// cannot arrange for its users (twice is a link error, never is undefined symbols), and the
// grammar needed is a small, closed subset: scheme "://" host [":" port] and nothing else. What
// a URL parser would accept beyond it (userinfo, path, query, fragment, percent-encoding) is
// exactly what must be refused here.

#include <agentry/detail/text.hpp>

#include <cstddef>
#include <optional>
#include <string>
#include <string_view>

namespace agentry::mcp::detail {

using agentry::detail::equal_ignoring_case;

inline bool tchar(char c) noexcept {
    return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') ||
           std::string_view("!#$%&'*+-.^_`|~").find(c) != std::string_view::npos;
}

// Optional white space (RFC 9110): spaces and tabs.
inline std::string_view trim_ows(std::string_view s) noexcept { return agentry::detail::trim(s, " \t"); }

inline bool is_token(std::string_view s) noexcept {
    if (s.empty()) return false;
    for (char c : s)
        if (!tchar(c)) return false;
    return true;
}

/// A media type or range: type "/" subtype and the value of its "q" parameter (1 when absent).
struct media_type {
    std::string_view type;
    std::string_view subtype;
    double q = 1;
};

/// Parses one media type with its parameters: token "/" token *( OWS ";" OWS token "=" (token /
/// quoted-string) ). Anything else is std::nullopt.
inline std::optional<media_type> parse_media_type(std::string_view text) noexcept {
    text = trim_ows(text);
    const std::size_t semicolon = text.find(';');
    const std::string_view essence = trim_ows(text.substr(0, semicolon));
    const std::size_t slash = essence.find('/');
    if (slash == std::string_view::npos) return std::nullopt;
    media_type out{essence.substr(0, slash), essence.substr(slash + 1)};
    if (!is_token(out.type) || !is_token(out.subtype)) return std::nullopt;
    std::string_view rest = semicolon == std::string_view::npos ? std::string_view{} : text.substr(semicolon);
    while (!rest.empty()) {
        rest.remove_prefix(1);  // ';'
        rest = trim_ows(rest);
        if (rest.empty()) break;  // a trailing ';' is tolerated
        const std::size_t equals = rest.find('=');
        if (equals == std::string_view::npos) return std::nullopt;
        const std::string_view name = rest.substr(0, equals);
        if (!is_token(name)) return std::nullopt;
        rest.remove_prefix(equals + 1);
        std::string_view value;
        if (!rest.empty() && rest.front() == '"') {
            std::size_t i = 1;
            for (; i < rest.size() && rest[i] != '"'; ++i)
                if (rest[i] == '\\') ++i;
            if (i >= rest.size()) return std::nullopt;
            value = rest.substr(1, i - 1);
            rest.remove_prefix(i + 1);
        } else {
            std::size_t i = 0;
            while (i < rest.size() && tchar(rest[i])) ++i;
            value = rest.substr(0, i);
            if (value.empty()) return std::nullopt;
            rest.remove_prefix(i);
        }
        rest = trim_ows(rest);
        if (!rest.empty() && rest.front() != ';') return std::nullopt;
        if (equal_ignoring_case(name, "q")) {
            // qvalue: "0" [ "." 0*3DIGIT ] / "1" [ "." 0*3("0") ]
            if (value.empty() || value.size() > 5 || (value[0] != '0' && value[0] != '1')) return std::nullopt;
            if (value.size() > 1 && value[1] != '.') return std::nullopt;
            double q = value[0] - '0', scale = 0.1;
            for (std::size_t i = 2; i < value.size(); ++i, scale /= 10) {
                if (value[i] < '0' || value[i] > '9') return std::nullopt;
                q += (value[i] - '0') * scale;
            }
            if (q > 1) return std::nullopt;
            out.q = q;
        }
    }
    return out;
}

/// True when Content-Type is application/json (any parameters).
inline bool is_json_content_type(std::string_view field) noexcept {
    const auto m = parse_media_type(field);
    return m && equal_ignoring_case(m->type, "application") && equal_ignoring_case(m->subtype, "json");
}

/// True when an Accept field admits application/json: a range application/json, application/*
/// or */* with a q above 0. An empty field accepts anything; an unparsable element is ignored.
inline bool accepts_json(std::string_view field) noexcept {
    if (trim_ows(field).empty()) return true;
    while (!field.empty()) {
        // A comma inside a quoted parameter value would split an element; such an element
        // then fails to parse and is ignored, which only ever refuses.
        const std::size_t comma = field.find(',');
        const auto m = parse_media_type(field.substr(0, comma));
        field = comma == std::string_view::npos ? std::string_view{} : field.substr(comma + 1);
        if (!m || m->q <= 0) continue;
        const bool any_type = m->type == "*" && m->subtype == "*";
        const bool application = equal_ignoring_case(m->type, "application");
        if (any_type || (application && (m->subtype == "*" || equal_ignoring_case(m->subtype, "json")))) return true;
    }
    return false;
}

/// True when an Accept field names text/event-stream (or text/*) with a q above 0; an absent or
/// empty field, or */* alone, does not: a stream is sent only to a client that asks for one.
inline bool accepts_event_stream(std::string_view field) noexcept {
    while (!field.empty()) {
        const std::size_t comma = field.find(',');
        const auto m = parse_media_type(field.substr(0, comma));
        field = comma == std::string_view::npos ? std::string_view{} : field.substr(comma + 1);
        if (!m || m->q <= 0 || !equal_ignoring_case(m->type, "text")) continue;
        if (m->subtype == "*" || equal_ignoring_case(m->subtype, "event-stream")) return true;
    }
    return false;
}

/// host [":" port] of a Host field or an origin, as parsed by parse_authority.
struct authority {
    std::string_view host;  // a registered name, an IPv4 address, or "[" IPv6 "]"
    unsigned port = 0;      // 0 when absent
};

/// Parses host [":" port] strictly: a host of letters, digits, '-' and '.', or an IPv6 literal in
/// brackets; a port of 1 to 5 digits up to 65535. No userinfo, path, query, fragment or
/// percent-encoding.
inline std::optional<authority> parse_authority(std::string_view text) noexcept {
    authority out;
    std::string_view rest;
    if (!text.empty() && text.front() == '[') {
        const std::size_t close = text.find(']');
        if (close == std::string_view::npos || close < 3) return std::nullopt;
        for (char c : text.substr(1, close - 1))
            if (!((c >= '0' && c <= '9') || (c >= 'a' && c <= 'f') || (c >= 'A' && c <= 'F') || c == ':' || c == '.'))
                return std::nullopt;
        out.host = text.substr(0, close + 1);
        rest = text.substr(close + 1);
    } else {
        const std::size_t colon = text.find(':');
        out.host = text.substr(0, colon);
        if (out.host.empty() || out.host.size() > 253) return std::nullopt;
        for (char c : out.host)
            if (!((c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '-' || c == '.'))
                return std::nullopt;
        rest = colon == std::string_view::npos ? std::string_view{} : text.substr(colon);
    }
    if (rest.empty()) return out;
    if (rest.front() != ':' || rest.size() < 2 || rest.size() > 6) return std::nullopt;
    unsigned port = 0;
    for (char c : rest.substr(1)) {
        if (c < '0' || c > '9') return std::nullopt;
        port = port * 10 + unsigned(c - '0');
    }
    if (port == 0 || port > 65535) return std::nullopt;
    out.port = port;
    return out;
}

/// A serialized origin: scheme "://" authority, the scheme http or https, lower-cased.
struct origin {
    std::string scheme;
    authority where;

    /// The port, the scheme's default when absent.
    unsigned port() const noexcept { return where.port != 0 ? where.port : scheme == "https" ? 443 : 80; }
    bool operator==(const origin& other) const noexcept {
        return scheme == other.scheme && equal_ignoring_case(where.host, other.where.host) && port() == other.port();
    }
};

/// Parses an Origin field value (or an allowed origin): "http://" or "https://" followed by an
/// authority, nothing before or after. "null", other schemes, userinfo ("http://a@b"), paths
/// and the like are std::nullopt.
inline std::optional<origin> parse_origin(std::string_view text) noexcept {
    const std::size_t sep = text.find("://");
    if (sep == std::string_view::npos) return std::nullopt;
    const std::string_view scheme = text.substr(0, sep);
    origin out;
    if (equal_ignoring_case(scheme, "http")) out.scheme = "http";
    else if (equal_ignoring_case(scheme, "https")) out.scheme = "https";
    else return std::nullopt;
    const auto where = parse_authority(text.substr(sep + 3));
    if (!where) return std::nullopt;
    out.where = *where;
    return out;
}

inline bool loopback_host(std::string_view host) noexcept {
    return equal_ignoring_case(host, "localhost") || host == "127.0.0.1" || host == "[::1]";
}

/// The token of an Authorization field "Bearer <token68>" (the scheme in any case); empty when
/// the field is not a well-formed bearer credential.
inline std::string_view bearer_token(std::string_view field) noexcept {
    field = trim_ows(field);
    if (field.size() < 8 || !equal_ignoring_case(field.substr(0, 7), "Bearer ")) return {};
    std::string_view token = field.substr(7);
    while (!token.empty() && token.front() == ' ') token.remove_prefix(1);
    std::size_t i = 0;
    for (; i < token.size(); ++i) {
        const char c = token[i];
        const bool ok = (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') ||
                        std::string_view("-._~+/").find(c) != std::string_view::npos;
        if (!ok) break;
    }
    std::size_t end = i;
    while (i < token.size() && token[i] == '=') ++i;
    if (end == 0 || i != token.size()) return {};
    return token;
}

} // namespace agentry::mcp::detail

#endif
