// SPDX-License-Identifier: BSL-1.0
#ifndef AGENTRY_DETAIL_IMPL_TEXT_IPP
#define AGENTRY_DETAIL_IMPL_TEXT_IPP

// The definitions of detail/text.hpp that are not constexpr: included by that header
// (header-only) or by src.hpp (separate compilation).

#include <agentry/detail/separate.hpp>
#include <agentry/detail/text.hpp>

#include <cstddef>
#include <string>
#include <string_view>

namespace agentry::detail {

AGENTRY_DECL std::string printable(std::string_view text, std::size_t limit) {
    constexpr char hex[] = "0123456789ABCDEF";
    std::string out;
    std::size_t i = 0;
    while (i < text.size() && i < limit) {
        const std::size_t n = utf8_char_length(text.substr(i));
        const auto b = static_cast<unsigned char>(text[i]);
        if (n == 0 || b < 0x20 || b == 0x7F) {
            out += "\\x";
            out += hex[b >> 4];
            out += hex[b & 0xF];
            ++i;
        } else {
            if (i + n > limit) break;
            out.append(text, i, n);
            i += n;
        }
    }
    if (i < text.size()) out += "...";
    return out;
}

} // namespace agentry::detail

#endif
