// SPDX-License-Identifier: BSL-1.0
#ifndef AGENTRY_OPENAPI_DETAIL_REQUEST_HPP
#define AGENTRY_OPENAPI_DETAIL_REQUEST_HPP

// The HTTP request of one operation from the model's arguments: the path with its parameters
// percent-encoded, the query (style form; an array exploded into one pair per element unless
// explode is false), header parameters, and the JSON body.

#include <agentry/json/value.hpp>
#include <agentry/transport/transport.hpp>

#include <cstddef>
#include <string>
#include <string_view>
#include <vector>

namespace agentry::openapi::detail {

enum class location : unsigned char { path, query, header };

/// One parameter of an operation, as the request uses it.
struct parameter {
    std::string name;
    location in = location::query;
    /// style form (query) explodes arrays and objects unless explode is false.
    bool explode = true;
};

/// `text` percent-encoded: everything but RFC 3986's unreserved characters.
inline std::string percent_encode(std::string_view text) {
    static constexpr char hex[] = "0123456789ABCDEF";
    std::string out;
    out.reserve(text.size());
    for (char c : text) {
        const auto u = static_cast<unsigned char>(c);
        if ((c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '-' || c == '.' ||
            c == '_' || c == '~') {
            out += c;
        } else {
            out += '%';
            out += hex[u >> 4];
            out += hex[u & 15];
        }
    }
    return out;
}

/// A scalar as a parameter's text: a string as it is, a number as its JSON text, true/false;
/// an array or object as compact JSON.
inline std::string scalar_text(const json::value& v) {
    if (v.is_string()) return v.as_string();
    if (v.is_number()) return v.number_text();
    if (v.is_bool()) return v.as_bool() ? "true" : "false";
    if (v.is_null()) return "";
    return json::to_text(v);
}

/// The elements of an array (or the key,value pairs of an object) joined with ','.
inline std::string joined(const json::value& v) {
    std::string out;
    if (v.is_array()) {
        for (const json::value& item : v.items()) out += (out.empty() ? "" : ",") + scalar_text(item);
    } else if (v.is_object()) {
        for (const json::member& m : v.members())
            out += (out.empty() ? "" : ",") + m.key + "," + scalar_text(m.value);
    } else {
        out = scalar_text(v);
    }
    return out;
}

inline void add_query(std::string& query, std::string_view name, std::string_view value) {
    query += query.empty() ? '?' : '&';
    query += percent_encode(name);
    query += '=';
    query += percent_encode(value);
}

/// Appends `v` as the query parameter `p`.
inline void query_parameter(std::string& query, const parameter& p, const json::value& v) {
    if (v.is_array() && p.explode) {
        for (const json::value& item : v.items()) add_query(query, p.name, scalar_text(item));
    } else if (v.is_object() && p.explode) {
        for (const json::member& m : v.members()) add_query(query, m.key, scalar_text(m.value));
    } else {
        add_query(query, p.name, joined(v));
    }
}

/// `path` ("/pets/{petId}") with each {name} replaced by its argument, percent-encoded; false
/// with `missing` set when an argument is absent.
inline bool fill_path(std::string& out, std::string_view path, const json::value& args, std::string& missing) {
    std::size_t at = 0;
    while (at < path.size()) {
        const std::size_t open = path.find('{', at);
        if (open == std::string_view::npos) break;
        const std::size_t close = path.find('}', open);
        if (close == std::string_view::npos) break;
        out.append(path.substr(at, open - at));
        const std::string_view name = path.substr(open + 1, close - open - 1);
        const json::value* v = args.find(name);
        if (!v || v->is_null()) {
            missing = std::string(name);
            return false;
        }
        out += percent_encode(joined(*v));
        at = close + 1;
    }
    out.append(path.substr(at));
    return true;
}

} // namespace agentry::openapi::detail

#endif
