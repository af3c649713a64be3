// SPDX-License-Identifier: BSL-1.0
#ifndef AGENTRY_DETAIL_TEXT_HPP
#define AGENTRY_DETAIL_TEXT_HPP

// Text helpers every layer uses: ASCII case-insensitive comparison, cutting at a UTF-8
// character boundary, trimming, and showing untrusted bytes in a message. Below every layer:
// includes nothing of agentry but detail/separate.hpp.

#include <agentry/detail/separate.hpp>

#include <cstddef>
#include <string>
#include <string_view>

namespace agentry::detail {

constexpr char ascii_lower(char c) noexcept { return c >= 'A' && c <= 'Z' ? char(c - 'A' + 'a') : c; }

/// Equality ignoring ASCII letter case (header names, URL schemes, enum names).
constexpr bool equal_ignoring_case(std::string_view a, std::string_view b) noexcept {
    if (a.size() != b.size()) return false;
    for (std::size_t i = 0; i != a.size(); ++i)
        if (ascii_lower(a[i]) != ascii_lower(b[i])) return false;
    return true;
}

/// The largest length <= n at which `text` can be cut without splitting a UTF-8 character.
constexpr std::size_t utf8_cut(std::string_view text, std::size_t n) noexcept {
    if (n >= text.size()) return text.size();
    while (n > 0 && (static_cast<unsigned char>(text[n]) & 0xC0) == 0x80) --n;
    return n;
}

/// `s` without the leading and trailing characters in `space` (by default JSON whitespace).
constexpr std::string_view trim(std::string_view s, std::string_view space = " \t\r\n") noexcept {
    const std::size_t first = s.find_first_not_of(space);
    if (first == std::string_view::npos) return {};
    return s.substr(first, s.find_last_not_of(space) - first + 1);
}

/// The length of the well-formed UTF-8 character at the start of `s` (1 to 4), or 0.
constexpr std::size_t utf8_char_length(std::string_view s) noexcept {
    if (s.empty()) return 0;
    const auto byte = [&](std::size_t i) { return static_cast<unsigned char>(s[i]); };
    const unsigned char b = byte(0);
    if (b < 0x80) return 1;
    std::size_t n = 0;
    unsigned char low = 0x80, high = 0xBF;  // bounds of the second byte
    if (b >= 0xC2 && b <= 0xDF) n = 2;
    else if (b >= 0xE0 && b <= 0xEF) {
        n = 3;
        if (b == 0xE0) low = 0xA0;
        if (b == 0xED) high = 0x9F;  // no UTF-16 surrogates
    } else if (b >= 0xF0 && b <= 0xF4) {
        n = 4;
        if (b == 0xF0) low = 0x90;
        if (b == 0xF4) high = 0x8F;
    } else return 0;
    if (s.size() < n || byte(1) < low || byte(1) > high) return 0;
    for (std::size_t i = 2; i != n; ++i)
        if ((byte(i) & 0xC0) != 0x80) return 0;
    return n;
}

/// Untrusted bytes made safe to put in a message: at most `limit` bytes of `text` (cut at a
/// character boundary, "..." marking the cut), with control characters and bytes that are not
/// UTF-8 written as \xNN. The result is valid UTF-8.
AGENTRY_DECL std::string printable(std::string_view text, std::size_t limit = 40);

} // namespace agentry::detail

#if !defined(AGENTRY_SEPARATE_COMPILATION)
#include <agentry/detail/impl/text.ipp>
#endif

#endif
