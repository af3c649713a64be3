// SPDX-License-Identifier: BSL-1.0
#ifndef AGENTRY_MCP_RESOURCES_HPP
#define AGENTRY_MCP_RESOURCES_HPP

// MCP resources served beside the tools: fixed URIs and URI templates, each read by a function.
//
//   struct city_ref {                                   // the template's variables, by name
//       std::string city;
//       std::optional<temperature_unit> unit;           // strings and enums ("typed where it fits")
//   };
//   agentry::mcp::server server{tools, info,
//       agentry::mcp::resource<"weather://cities", "cities">(+[] { return std::vector<std::string>{"Paris"}; },
//                                                           {.description = "Cities known"}),
//       agentry::mcp::resource_template<"weather://{city}/{unit}", "city_weather">(
//           +[](const city_ref& c) { return get_weather({c.city, c.unit}); })};
//
// A function returning std::string gives text (mimeType text/plain unless given); one returning
// mcp::blob (content.hpp) gives binary contents, sent base64-encoded as `blob`
// (application/octet-stream unless given):
//
//   agentry::mcp::resource<"images://logo", "logo">(+[] { return agentry::mcp::blob{read_file("logo.png")}; },
//                                                   {.mime_type = "image/png"})
//
// Any other result is written as JSON (application/json). A template is RFC 6570 level 1:
// `{name}` matches one or more characters other than '/', percent-decoded; its variables must be
// the members of the function's parameter struct, which is read from them as a JSON object of
// strings (so a member may be a string, an enum, or an optional of either). The set of
// resources is fixed when the server is built (listChanged: false). Completers of a template's
// variables (completion.hpp) follow the function, or its resource_info:
// resource_template<"notes://{id}", "note">(read_note, mcp::completer<"id">(note_ids)).
// resource_info's `icons` (icons.hpp) are sent from 2025-11-25, with the resource or template.

#include <agentry/json/reader.hpp>
#include <agentry/json/writer.hpp>
#include <agentry/mcp/completion.hpp>
#include <agentry/mcp/content.hpp>
#include <agentry/mcp/icons.hpp>
#include <agentry/reflect/fields.hpp>
#include <agentry/reflect/fixed_string.hpp>
#include <agentry/reflect/function.hpp>

#include <algorithm>
#include <array>
#include <cstddef>
#include <exception>
#include <functional>
#include <string>
#include <string_view>
#include <tuple>
#include <type_traits>
#include <utility>
#include <vector>

namespace agentry::mcp {

/// What a client is told about a resource besides its URI and name.
struct resource_info {
    std::string_view description{};
    /// The media type; by default text/plain for a std::string result, application/octet-stream
    /// for mcp::blob, application/json otherwise.
    std::string_view mime_type{};
    /// Display name (sent from 2025-06-18).
    std::string_view title{};
    /// `icons` (icons.hpp; sent from 2025-11-25).
    std::vector<icon> icons{};
};

template <fixed_string Uri, fixed_string Name, class F>
struct resource_t {
    F function;
    resource_info info;
};

template <fixed_string UriTemplate, fixed_string Name, class F, class... Completers>
struct resource_template_t {
    F function;
    resource_info info;
    /// Completers of its variables (completion.hpp).
    std::tuple<Completers...> completers{};
};

namespace detail {

/// The variables of a level 1 URI template, in order; empty names and unclosed braces make
/// `ok` false.
struct template_variables {
    std::array<std::string_view, 16> names{};
    std::size_t count = 0;
    bool ok = true;
};

constexpr template_variables parse_uri_template(std::string_view t) noexcept {
    template_variables out;
    for (std::size_t i = 0; i != t.size(); ++i) {
        if (t[i] == '}') out.ok = false;
        if (t[i] != '{') continue;
        // A loop rather than find(), whose null check GCC cannot evaluate at compile time under
        // -fsanitize=address when `t` is a template argument.
        std::size_t end = i + 1;
        while (end != t.size() && t[end] != '}') ++end;
        if (end == t.size() || end == i + 1 || out.count == out.names.size()) {
            out.ok = false;
            return out;
        }
        const std::string_view name = t.substr(i + 1, end - i - 1);
        for (char c : name)
            if (!((c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '_'))
                out.ok = false;
        if (end + 1 < t.size() && t[end + 1] == '{') out.ok = false;  // two variables need a literal between
        out.names[out.count++] = name;
        i = end;
    }
    return out;
}

template <class P>
consteval bool variables_match_members(std::string_view uri_template) {
    const template_variables v = parse_uri_template(uri_template);
    if (!v.ok || v.count != reflect::field_count<P>) return false;
    for (std::size_t i = 0; i != v.count; ++i) {
        bool found = false;
        for (std::string_view member : reflect::field_names<P>) found = found || member == v.names[i];
        if (!found) return false;
    }
    return true;
}

/// The variables of the template UriTemplate, for completers_fit.
template <fixed_string UriTemplate>
struct template_variable_names {
    static consteval bool has(std::string_view name) {
        const template_variables v = parse_uri_template(UriTemplate.view());
        for (std::size_t i = 0; i != v.count; ++i)
            if (v.names[i] == name) return true;
        return false;
    }
};

inline int hex_value(char c) noexcept {
    if (c >= '0' && c <= '9') return c - '0';
    if (c >= 'a' && c <= 'f') return c - 'a' + 10;
    if (c >= 'A' && c <= 'F') return c - 'A' + 10;
    return -1;
}

/// Matches `uri` against a level 1 template; appends each variable, percent-decoded, as a
/// member of the JSON object `out` ({"name":"value",...}). False when it does not match.
inline bool match_uri_template(std::string_view t, std::string_view uri, std::string& out) {
    out = "{";
    std::size_t u = 0;
    for (std::size_t i = 0; i != t.size();) {
        if (t[i] != '{') {
            const std::size_t next = std::min(t.find('{', i), t.size());
            const std::string_view literal = t.substr(i, next - i);
            if (uri.substr(u, literal.size()) != literal) return false;
            u += literal.size();
            i = next;
            continue;
        }
        const std::size_t end = t.find('}', i);
        const std::string_view name = t.substr(i + 1, end - i - 1);
        i = end + 1;
        const std::size_t next = std::min(t.find('{', i), t.size());
        const std::string_view literal = t.substr(i, next - i);
        // The value runs to the next literal (to the end for the last variable), without a '/'.
        const std::size_t stop = literal.empty() ? uri.size() : uri.find(literal, u);
        if (stop == std::string_view::npos || stop == u || uri.substr(u, stop - u).find('/') != std::string_view::npos)
            return false;
        std::string value;
        for (std::size_t k = u; k != stop; ++k) {
            if (uri[k] == '%' && k + 2 < stop && hex_value(uri[k + 1]) >= 0 && hex_value(uri[k + 2]) >= 0) {
                value += static_cast<char>(hex_value(uri[k + 1]) * 16 + hex_value(uri[k + 2]));
                k += 2;
            } else {
                value += uri[k];
            }
        }
        if (out.size() > 1) out += ',';
        json::write(out, name);
        out += ':';
        json::write(out, std::string_view(value));
        u = stop;
    }
    out += '}';
    return u == uri.size();
}

enum class read_status : unsigned char { no_match, ok, failed };

/// A resource or template, its function type-erased.
struct resource_entry {
    std::string uri;  // the URI, or the URI template
    std::string name;
    resource_info info;
    std::string mime_type;
    bool templated = false;
    /// Whether the function returns mcp::blob: `text` holds raw bytes, sent as `blob`.
    bool binary = false;
    /// Reads `uri` into `text`; on failure `text` says why.
    std::function<read_status(std::string_view uri, std::string& text)> read;
    /// Completers of a template's variables.
    std::vector<completion_entry> completions;
    /// `,"icons":[...]`, or empty (icons.hpp).
    std::string icons{};
};

/// Whether a resource function returning R gives binary contents.
template <class R>
inline constexpr bool is_blob = std::is_same_v<std::remove_cvref_t<R>, blob>;

template <class R>
std::string resource_text(R&& value) {
    if constexpr (is_blob<R>) return std::forward<R>(value).bytes;
    else if constexpr (std::is_convertible_v<R, std::string_view>) return std::string(std::string_view(value));
    else {
        std::string out;
        json::write(out, value);
        return out;
    }
}

template <class R>
constexpr std::string_view default_mime() noexcept {
    if (is_blob<R>) return "application/octet-stream";
    return std::is_convertible_v<R, std::string_view> ? "text/plain" : "application/json";
}

template <class F>
read_status run_resource(std::string& text, F&& body) {
    try {
        text = body();
        return read_status::ok;
    } catch (const std::exception& e) {
        text = e.what();
    } catch (...) {
        text = "unknown exception";
    }
    return read_status::failed;
}

template <fixed_string Uri, fixed_string Name, class F>
resource_entry make_entry(const resource_t<Uri, Name, F>& r) {
    static_assert(std::is_invocable_v<const F&>,
                  "agentry: mcp::resource: the function takes no parameters (a resource with variables is a "
                  "mcp::resource_template)");
    using R = std::invoke_result_t<const F&>;
    resource_entry e{std::string(Uri.view()), std::string(Name.view()), r.info,
                     std::string(r.info.mime_type.empty() ? default_mime<R>() : r.info.mime_type), false, is_blob<R>,
                     {}, {}};
    e.icons = icon_members(r.info.icons, icon_owner("resource", e.uri));
    e.info.icons.clear();  // sent as e.icons
    e.read = [f = r.function, uri = e.uri](std::string_view asked, std::string& text) {
        if (asked != uri) return read_status::no_match;
        return run_resource(text, [&] { return resource_text(f()); });
    };
    return e;
}

template <fixed_string UriTemplate, fixed_string Name, class F, class... Completers>
resource_entry make_entry(const resource_template_t<UriTemplate, Name, F, Completers...>& r) {
    static_assert(reflect::has_signature<F> && reflect::signature<F>::arity == 1,
                  "agentry: mcp::resource_template: the function takes one parameter, a struct whose members are "
                  "the template's variables");
    using P = reflect::first_parameter<typename reflect::signature<F>::parameters>;
    static_assert(variables_match_members<P>(UriTemplate.view()),
                  "agentry: mcp::resource_template: the URI template's {variables} must be exactly the members of "
                  "the function's parameter struct, one each, separated by literal text");
    using R = std::invoke_result_t<const F&, const P&>;
    resource_entry e{std::string(UriTemplate.view()), std::string(Name.view()), r.info,
                     std::string(r.info.mime_type.empty() ? default_mime<R>() : r.info.mime_type), true, is_blob<R>,
                     {}, make_completions(r.completers)};
    e.icons = icon_members(r.info.icons, icon_owner("resource template", e.uri));
    e.info.icons.clear();  // sent as e.icons
    e.read = [f = r.function, pattern = e.uri](std::string_view asked, std::string& text) {
        std::string object;
        if (!match_uri_template(pattern, asked, object)) return read_status::no_match;
        json::read_options options;
        options.max_size = object.size();
        auto p = json::read<P>(object, options);
        if (!p.ok()) {
            text.clear();
            for (const auto& error : p.errors) text += (text.empty() ? "" : "; ") + error.to_string();
            return read_status::failed;
        }
        return run_resource(text, [&] { return resource_text(f(p.value)); });
    };
    return e;
}

} // namespace detail

/// A resource at the fixed URI `Uri`, read by `function()`.
template <fixed_string Uri, fixed_string Name, class F>
resource_t<Uri, Name, F> resource(F function, resource_info info = {}) {
    return {std::move(function), info};
}

/// Resources matching the level 1 URI template `UriTemplate`, read by `function(params)`, with
/// completers of its variables.
template <fixed_string UriTemplate, fixed_string Name, class F, class... Completers>
    requires(is_completer<Completers> && ...)
resource_template_t<UriTemplate, Name, F, Completers...> resource_template(F function, resource_info info = {},
                                                                           Completers... completers) {
    static_assert(detail::completers_fit<detail::template_has_no_variable, detail::template_variable_names<UriTemplate>,
                                         Completers...>());
    return {std::move(function), info, {std::move(completers)...}};
}

/// A resource template with the default resource_info, with completers of its variables.
template <fixed_string UriTemplate, fixed_string Name, class F, class First, class... Completers>
    requires(is_completer<First> && (is_completer<Completers> && ...))
resource_template_t<UriTemplate, Name, F, First, Completers...> resource_template(F function, First first,
                                                                                  Completers... completers) {
    return resource_template<UriTemplate, Name>(std::move(function), resource_info{}, std::move(first),
                                                std::move(completers)...);
}

template <class T>
inline constexpr bool is_resource = false;
template <fixed_string U, fixed_string N, class F>
inline constexpr bool is_resource<resource_t<U, N, F>> = true;
template <fixed_string U, fixed_string N, class F, class... C>
inline constexpr bool is_resource<resource_template_t<U, N, F, C...>> = true;

} // namespace agentry::mcp

#endif
