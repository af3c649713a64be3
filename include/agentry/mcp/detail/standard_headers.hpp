// SPDX-License-Identifier: BSL-1.0
#ifndef AGENTRY_MCP_DETAIL_STANDARD_HEADERS_HPP
#define AGENTRY_MCP_DETAIL_STANDARD_HEADERS_HPP

// The standard request headers of Streamable HTTP in 2026-07-28, which let an intermediary
// route a request without reading its body: `Mcp-Method`, the request's method, on every
// request, and `Mcp-Name`, its `params.name` (tools/call, prompts/get) or `params.uri`
// (resources/read). A value that cannot be sent as it is (not printable ASCII, or spaces at
// either end, or looking like the escape) is sent as `=?base64?<base64 of its UTF-8>?=`. A
// header that is missing or disagrees with the body is refused (400, -32020), so that the
// intermediary and the server never read one request two ways.

#include <agentry/json/writer.hpp>
#include <agentry/mcp/detail/base64.hpp>
#include <agentry/mcp/detail/server_methods.hpp>

#include <optional>
#include <string>
#include <string_view>

namespace agentry::mcp::detail {

/// A header value as the request sent it; nothing when the header is absent.
using header_value = std::optional<std::string_view>;

/// The value a standard header stands for: its text, or the bytes of its base64 escape;
/// nothing when the escape holds no base64.
inline std::optional<std::string> header_text(std::string_view value) {
    constexpr std::string_view open = "=?base64?", close = "?=";
    if (value.size() < open.size() + close.size() || !value.starts_with(open) || !value.ends_with(close))
        return std::string(value);
    return decode_base64(value.substr(open.size(), value.size() - open.size() - close.size()));
}

// The members of params that Mcp-Name stands for.
struct named_params {
    std::optional<std::string> name;
    std::optional<std::string> uri;
};

/// Why the standard headers of a 2026-07-28 request for `method` with `params` (JSON text) are
/// refused (the -32020 message), or nothing when they agree with it.
inline std::optional<std::string> standard_header_problem(header_value method_header, header_value name_header,
                                                          std::string_view method, std::string_view params) {
    const auto quoted = [](std::string_view text) {
        std::string out;
        json::write(out, text.substr(0, 100));
        return out;
    };
    if (!method_header)
        return "Bad Request: the Mcp-Method header is missing; send the request's method " + quoted(method) + " in it";
    if (header_text(*method_header) != method)
        return "Bad Request: the Mcp-Method header " + quoted(*method_header) + " differs from the request's method " +
               quoted(method);
    std::optional<std::string> named;
    if (method == "tools/call" || method == "prompts/get" || method == "resources/read") {
        named_params p;
        std::string ignored;
        if (read_params(params, p, ignored)) named = method == "resources/read" ? p.uri : p.name;
    }
    if (!named) return std::nullopt;
    const std::string_view member = method == "resources/read" ? "params.uri" : "params.name";
    if (!name_header)
        return "Bad Request: the Mcp-Name header is missing; send the request's " + std::string(member) + " " +
               quoted(*named) + " in it (as =?base64?...?= when it is not printable ASCII)";
    const std::optional<std::string> text = header_text(*name_header);
    if (!text) return "Bad Request: the Mcp-Name header " + quoted(*name_header) + " is not valid base64 in =?base64?...?=";
    if (*text != *named)
        return "Bad Request: the Mcp-Name header " + quoted(*name_header) + " differs from the request's " +
               std::string(member) + " " + quoted(*named);
    return std::nullopt;
}

} // namespace agentry::mcp::detail

#endif
