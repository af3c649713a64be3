// SPDX-License-Identifier: BSL-1.0
#ifndef AGENTRY_JSON_DETAIL_JCS_HPP
#define AGENTRY_JSON_DETAIL_JCS_HPP

// The canonical text of a JSON value by RFC 8785 (JSON Canonicalization Scheme), the text
// people read when they approve a tool call and the one a decision is bound to: no
// whitespace, object members sorted by the UTF-16 code units of their keys, strings escaped
// as ECMAScript's JSON.stringify escapes them (only '"', '\' and the control characters,
// \b \t \n \f \r short, the others as \u00xx), numbers as Number::toString writes them
// (ecma_number.hpp, with its one exception for integers a double would change).

#include <agentry/json/detail/ecma_number.hpp>
#include <agentry/json/detail/lexer.hpp>

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace agentry::json::detail {

/// Appends `decoded` (valid UTF-8) as a JSON string escaped as RFC 8785 escapes it.
inline void append_jcs_string(std::string& out, std::string_view decoded) {
    static constexpr char hex[] = "0123456789abcdef";
    out.push_back('"');
    for (const char c : decoded) {
        const auto u = static_cast<unsigned char>(c);
        switch (c) {
        case '"': out += "\\\""; break;
        case '\\': out += "\\\\"; break;
        case '\b': out += "\\b"; break;
        case '\t': out += "\\t"; break;
        case '\n': out += "\\n"; break;
        case '\f': out += "\\f"; break;
        case '\r': out += "\\r"; break;
        default:
            if (u < 0x20) {
                out += "\\u00";
                out.push_back(hex[u >> 4]);
                out.push_back(hex[u & 0xF]);
            } else {
                out.push_back(c);
            }
        }
    }
    out.push_back('"');
}

// The code point of the UTF-8 sequence at s[i] (valid UTF-8), moving i past it.
inline std::uint32_t next_code_point(std::string_view s, std::size_t& i) noexcept {
    const auto b = [&](std::size_t k) { return static_cast<std::uint32_t>(static_cast<unsigned char>(s[k])); };
    const std::uint32_t b0 = b(i);
    if (b0 < 0x80) {
        i += 1;
        return b0;
    }
    if (b0 < 0xE0) {
        const std::uint32_t cp = ((b0 & 0x1F) << 6) | (b(i + 1) & 0x3F);
        i += 2;
        return cp;
    }
    if (b0 < 0xF0) {
        const std::uint32_t cp = ((b0 & 0x0F) << 12) | ((b(i + 1) & 0x3F) << 6) | (b(i + 2) & 0x3F);
        i += 3;
        return cp;
    }
    const std::uint32_t cp =
        ((b0 & 0x07) << 18) | ((b(i + 1) & 0x3F) << 12) | ((b(i + 2) & 0x3F) << 6) | (b(i + 3) & 0x3F);
    i += 4;
    return cp;
}

/// Whether key `a` sorts before key `b` (both valid UTF-8) by their UTF-16 code units, as
/// RFC 8785 sorts members. UTF-8 bytes sort by code point, which differs from UTF-16 only in
/// putting U+E000..U+FFFF before the code points past U+FFFF (surrogate pairs, D800..DFFF).
inline bool jcs_key_less(std::string_view a, std::string_view b) noexcept {
    const auto first_unit = [](std::uint32_t cp) { return cp < 0x10000 ? cp : 0xD800 + ((cp - 0x10000) >> 10); };
    std::size_t i = 0;
    std::size_t j = 0;
    while (i != a.size() && j != b.size()) {
        const std::uint32_t x = next_code_point(a, i);
        const std::uint32_t y = next_code_point(b, j);
        if (x == y) continue;
        const std::uint32_t ux = first_unit(x);
        const std::uint32_t uy = first_unit(y);
        // Two code points past U+FFFF with the same high surrogate: their low ones sort as they do.
        return ux != uy ? ux < uy : x < y;
    }
    return i == a.size() && j != b.size();
}

/// Appends the RFC 8785 text of the value at the cursor, which json::read has validated (one
/// value, unique keys, valid UTF-8, within the reader's depth, which bounds the recursion).
/// False on text that is not JSON.
inline bool append_jcs_value(cursor& in, std::string& out) {
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
                if (!append_jcs_value(in, value)) return false;
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
        std::sort(members.begin(), members.end(),
                  [](const auto& x, const auto& y) { return jcs_key_less(x.first, y.first); });
        out.push_back('{');
        for (std::size_t i = 0; i != members.size(); ++i) {
            if (i != 0) out.push_back(',');
            append_jcs_string(out, members[i].first);
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
                if (!append_jcs_value(in, out)) return false;
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
        append_jcs_string(out, decoded);
        return true;
    }
    if (c == '-' || (c >= '0' && c <= '9')) {
        number_token token;
        if (!read_number(in, token)) return false;
        append_canonical_number(out, token.text);
        return true;
    }
    for (const std::string_view word : {std::string_view("true"), std::string_view("false"), std::string_view("null")}) {
        if (c == word[0]) {
            if (!in.literal(word)) return false;
            out += word;
            return true;
        }
    }
    return false;
}

} // namespace agentry::json::detail

#endif
