// SPDX-License-Identifier: BSL-1.0
#ifndef AGENTRY_REPORT_DETAIL_HTML_HPP
#define AGENTRY_REPORT_DETAIL_HTML_HPP

// Writing HTML text for the run report: escaping untrusted text (tool names, arguments,
// results, the model's words), and numbers written the same on every machine (no locale).

#include <agentry/detail/text.hpp>

#include <chrono>
#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>

namespace agentry::detail {

/// Appends `text` escaped for HTML text and attribute values (quoted with '"'): the five
/// markup characters as references, bytes that are not well-formed UTF-8 and control
/// characters other than tab, line feed and carriage return as U+FFFD.
inline void html_escape(std::string& out, std::string_view text) {
    std::size_t i = 0;
    while (i < text.size()) {
        const char c = text[i];
        const std::size_t n = utf8_char_length(text.substr(i));
        if (n == 0) {
            out += "\xEF\xBF\xBD";
            ++i;
            continue;
        }
        if (n > 1) {
            out.append(text, i, n);
            i += n;
            continue;
        }
        ++i;
        switch (c) {
        case '&': out += "&amp;"; break;
        case '<': out += "&lt;"; break;
        case '>': out += "&gt;"; break;
        case '"': out += "&quot;"; break;
        case '\'': out += "&#39;"; break;
        case '\t':
        case '\n':
        case '\r': out += c; break;
        default:
            if (static_cast<unsigned char>(c) < 0x20 || c == 0x7F) out += "\xEF\xBF\xBD";
            else out += c;
        }
    }
}

inline std::string html(std::string_view text) {
    std::string out;
    html_escape(out, text);
    return out;
}

/// `n` with a decimal point before its last `decimals` digits: fixed_point(12345, 3) is "12.345".
inline std::string fixed_point(std::uint64_t n, unsigned decimals) {
    std::string digits = std::to_string(n);
    if (decimals == 0) return digits;
    if (digits.size() <= decimals) digits.insert(0, decimals + 1 - digits.size(), '0');
    digits.insert(digits.size() - decimals, 1, '.');
    return digits;
}

/// A duration as people read it: "850 µs", "12.3 ms", "4.56 s", "12 min 5 s".
inline std::string duration_text(std::chrono::microseconds d) {
    const std::uint64_t us = d.count() < 0 ? 0 : static_cast<std::uint64_t>(d.count());
    if (us < 1'000) return std::to_string(us) + " \xC2\xB5s";
    if (us < 1'000'000) return fixed_point(us / 100, 1) + " ms";
    if (us < 60'000'000) return fixed_point(us / 10'000, 2) + " s";
    return std::to_string(us / 60'000'000) + " min " + std::to_string(us / 1'000'000 % 60) + " s";
}

/// `part` of `whole` as a CSS percentage with three decimals ("12.345%"), at most 100%.
inline std::string percent(std::chrono::microseconds part, std::chrono::microseconds whole) {
    std::uint64_t p = part.count() < 0 ? 0 : static_cast<std::uint64_t>(part.count());
    std::uint64_t w = whole.count() <= 0 ? 1 : static_cast<std::uint64_t>(whole.count());
    for (; w > 10'000'000'000'000; w /= 1000) p /= 1000;  // p * 100'000 stays in range
    const std::uint64_t thousandths = p >= w ? 100'000 : p * 100'000 / w;
    return fixed_point(thousandths, 3) + "%";
}

/// `text` escaped, cut at `max` bytes (at a character boundary) with a note saying so.
inline std::string html_shown(std::string_view text, std::size_t max) {
    if (text.size() <= max) return "<pre>" + html(text) + "</pre>";
    const std::size_t n = utf8_cut(text, max);
    return "<pre>" + html(text.substr(0, n)) + "</pre><p class=\"cut\">Cut: " + std::to_string(n) + " of " +
           std::to_string(text.size()) + " bytes shown (report_options::max_shown).</p>";
}

} // namespace agentry::detail

#endif
