// SPDX-License-Identifier: BSL-1.0
#ifndef AGENTRY_REFLECT_DETAIL_STATIC_TEXT_HPP
#define AGENTRY_REFLECT_DETAIL_STATIC_TEXT_HPP

#include <cstddef>
#include <string_view>

namespace agentry::reflect::detail {

// A copy of compile-time text with static storage, so that a string_view into it may outlive
// the constant evaluation that produced the text.
template <std::size_t N>
struct static_text {
    char chars[N + 1]{};
    consteval explicit static_text(std::string_view text) noexcept {
        for (std::size_t i = 0; i != N; ++i) chars[i] = text[i];
    }
    constexpr std::string_view view() const noexcept { return {chars, N}; }
};

} // namespace agentry::reflect::detail

#endif
