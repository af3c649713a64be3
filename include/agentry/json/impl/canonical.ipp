// SPDX-License-Identifier: BSL-1.0
#ifndef AGENTRY_JSON_IMPL_CANONICAL_IPP
#define AGENTRY_JSON_IMPL_CANONICAL_IPP

// The definitions of json/detail/canonical.hpp: included by that header (header-only) or by
// src.hpp and provider/src.hpp (separate compilation).

#include <agentry/detail/separate.hpp>
#include <agentry/json/detail/canonical.hpp>
#include <agentry/json/detail/decimal.hpp>
#include <agentry/json/detail/lexer.hpp>

#include <algorithm>
#include <cstddef>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace agentry::json::detail {

inline void canonical_string(std::string& out, const std::string& decoded) {
    out.push_back('"');
    for (char c : decoded) {
        if (c == '"' || c == '\\') out.push_back('\\');
        out.push_back(c);
    }
    out.push_back('"');
}

AGENTRY_DECL bool canonical_value(cursor& in, std::string& out) {
    in.skip_ws();
    const char c = in.peek();
    if (c == '{') {
        ++in.p;
        std::vector<std::pair<std::string, std::string>> members;
        in.skip_ws();
        if (in.peek() == '}') {
            ++in.p;
        } else {
            for (;;) {
                in.skip_ws();
                std::string key;
                if (!read_string(in, &key) || !in.consume(':')) return false;
                std::string value;
                if (!canonical_value(in, value)) return false;
                members.emplace_back(std::move(key), std::move(value));
                in.skip_ws();
                if (in.peek() == ',') {
                    ++in.p;
                    continue;
                }
                if (in.peek() != '}') return false;
                ++in.p;
                break;
            }
        }
        std::sort(members.begin(), members.end());
        out.push_back('{');
        for (std::size_t i = 0; i != members.size(); ++i) {
            if (i != 0) out.push_back(',');
            canonical_string(out, members[i].first);
            out.push_back(':');
            out += members[i].second;
        }
        out.push_back('}');
        return true;
    }
    if (c == '[') {
        ++in.p;
        out.push_back('[');
        in.skip_ws();
        if (in.peek() == ']') {
            ++in.p;
        } else {
            for (bool first = true;; first = false) {
                if (!first) out.push_back(',');
                if (!canonical_value(in, out)) return false;
                in.skip_ws();
                if (in.peek() == ',') {
                    ++in.p;
                    continue;
                }
                if (in.peek() != ']') return false;
                ++in.p;
                break;
            }
        }
        out.push_back(']');
        return true;
    }
    if (c == '"') {
        std::string decoded;
        if (!read_string(in, &decoded)) return false;
        canonical_string(out, decoded);
        return true;
    }
    if (c == '-' || (c >= '0' && c <= '9')) {
        number_token token;
        if (!read_number(in, token)) return false;
        const decimal d = to_decimal(token.text);
        if (!d.exact() || d.huge_exponent) {
            out += token.text;
            return true;
        }
        if (d.count == 0) {
            out += '0';
            return true;
        }
        if (d.negative) out.push_back('-');
        out.append(d.digits, d.count);
        out.push_back('e');
        out += std::to_string(d.exponent);
        return true;
    }
    const char* start = in.p;
    if (!skip_value(in, 0, 1)) return false;
    out.append(start, std::size_t(in.p - start));
    return true;
}

AGENTRY_DECL std::vector<std::string> canonical_elements(std::string_view text) {
    std::vector<std::string> elements;
    cursor in;
    in.begin = in.p = text.data();
    in.end = text.data() + text.size();
    if (!in.consume('[')) return {};
    in.skip_ws();
    if (in.peek() == ']') return elements;
    for (;;) {
        std::string element;
        if (!canonical_value(in, element)) return {};
        elements.push_back(std::move(element));
        in.skip_ws();
        if (in.peek() == ',') {
            ++in.p;
            continue;
        }
        return elements;
    }
}

} // namespace agentry::json::detail

#endif
