// SPDX-License-Identifier: BSL-1.0
#ifndef AGENTRY_REFLECT_FIXED_STRING_HPP
#define AGENTRY_REFLECT_FIXED_STRING_HPP

#include <cstddef>
#include <string_view>

namespace agentry {

/// A string literal usable as a template argument: `tool<"get_weather", "...">`.
template <std::size_t N>
struct fixed_string {
    char value[N + 1]{};

    constexpr fixed_string() = default;
    constexpr fixed_string(const char (&text)[N + 1]) noexcept {
        for (std::size_t i = 0; i != N; ++i) value[i] = text[i];
    }
    constexpr explicit fixed_string(std::string_view text) noexcept {
        for (std::size_t i = 0; i != N && i != text.size(); ++i) value[i] = text[i];
    }

    static constexpr std::size_t size() noexcept { return N; }
    static constexpr bool empty() noexcept { return N == 0; }
    constexpr const char* data() const noexcept { return value; }
    constexpr std::string_view view() const noexcept { return {value, N}; }
    constexpr operator std::string_view() const noexcept { return view(); }

    template <std::size_t M>
    friend constexpr bool operator==(const fixed_string& a, const fixed_string<M>& b) noexcept {
        return a.view() == b.view();
    }
};

template <std::size_t N>
fixed_string(const char (&)[N]) -> fixed_string<N - 1>;

} // namespace agentry

#endif
