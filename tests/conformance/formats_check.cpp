// SPDX-License-Identifier: BSL-1.0
// Helper of formats_agree.mjs: prints agentry's verdict on string formats.
//
// Reads lines "format<TAB>string" on stdin, the format a JSON Schema format name ("date-time")
// and the string a JSON string literal ("\"2024-02-29\"", any \u escapes, UTF-8 otherwise).
// Prints one line per input line: 1 if the string is valid for the format, 0 if not.
// Exit status 2 (with a message on stderr) on a line it cannot read.

#include <agentry/json/detail/formats.hpp>
#include <agentry/schema/constraints.hpp>

#include <cstddef>
#include <cstdio>
#include <iostream>
#include <optional>
#include <string>
#include <string_view>

namespace {

std::optional<agentry::string_format> format_from_name(std::string_view name) {
    for (std::size_t i = 0; i < agentry::string_format_count; ++i) {
        const auto f = static_cast<agentry::string_format>(i);
        if (agentry::format_name(f) == name) return f;
    }
    return std::nullopt;
}

int hex_value(char c) {
    if (c >= '0' && c <= '9') return c - '0';
    if (c >= 'a' && c <= 'f') return c - 'a' + 10;
    if (c >= 'A' && c <= 'F') return c - 'A' + 10;
    return -1;
}

bool read_hex4(std::string_view s, std::size_t& i, unsigned& out) {
    if (i + 4 > s.size()) return false;
    out = 0;
    for (std::size_t k = 0; k < 4; ++k) {
        const int v = hex_value(s[i + k]);
        if (v < 0) return false;
        out = out * 16 + unsigned(v);
    }
    i += 4;
    return true;
}

void append_utf8(std::string& out, unsigned cp) {
    if (cp < 0x80) {
        out += char(cp);
    } else if (cp < 0x800) {
        out += char(0xC0 | (cp >> 6));
        out += char(0x80 | (cp & 0x3F));
    } else if (cp < 0x10000) {
        out += char(0xE0 | (cp >> 12));
        out += char(0x80 | ((cp >> 6) & 0x3F));
        out += char(0x80 | (cp & 0x3F));
    } else {
        out += char(0xF0 | (cp >> 18));
        out += char(0x80 | ((cp >> 12) & 0x3F));
        out += char(0x80 | ((cp >> 6) & 0x3F));
        out += char(0x80 | (cp & 0x3F));
    }
}

// Decodes a JSON string literal. A lone surrogate escape becomes U+FFFD (never a format match).
bool json_string(std::string_view s, std::string& out) {
    out.clear();
    if (s.size() < 2 || s.front() != '"' || s.back() != '"') return false;
    s = s.substr(1, s.size() - 2);
    for (std::size_t i = 0; i < s.size();) {
        const char c = s[i++];
        if (c != '\\') {
            out += c;
            continue;
        }
        if (i == s.size()) return false;
        const char e = s[i++];
        switch (e) {
        case '"': out += '"'; break;
        case '\\': out += '\\'; break;
        case '/': out += '/'; break;
        case 'b': out += '\b'; break;
        case 'f': out += '\f'; break;
        case 'n': out += '\n'; break;
        case 'r': out += '\r'; break;
        case 't': out += '\t'; break;
        case 'u': {
            unsigned cp = 0;
            if (!read_hex4(s, i, cp)) return false;
            if (cp >= 0xD800 && cp <= 0xDBFF && i + 6 <= s.size() && s[i] == '\\' && s[i + 1] == 'u') {
                std::size_t j = i + 2;
                unsigned low = 0;
                if (read_hex4(s, j, low) && low >= 0xDC00 && low <= 0xDFFF) {
                    cp = 0x10000 + ((cp - 0xD800) << 10) + (low - 0xDC00);
                    i = j;
                }
            }
            if (cp >= 0xD800 && cp <= 0xDFFF) cp = 0xFFFD;
            append_utf8(out, cp);
            break;
        }
        default: return false;
        }
    }
    return true;
}

} // namespace

int main() {
    std::ios::sync_with_stdio(false);
    std::string line, text, output;
    std::size_t number = 0;
    while (std::getline(std::cin, line)) {
        ++number;
        if (!line.empty() && line.back() == '\r') line.pop_back();
        const std::size_t tab = line.find('\t');
        const auto format = tab == std::string::npos ? std::nullopt : format_from_name(std::string_view(line).substr(0, tab));
        if (!format || !json_string(std::string_view(line).substr(tab + 1), text)) {
            std::fprintf(stderr, "formats_check: cannot read line %zu\n", number);
            return 2;
        }
        output += agentry::json::detail::valid_format(*format, text) ? "1\n" : "0\n";
    }
    std::fwrite(output.data(), 1, output.size(), stdout);
    return 0;
}
