// SPDX-License-Identifier: BSL-1.0
#ifndef AGENTRY_REFLECT_DETAIL_SHOWN_NAME_HPP
#define AGENTRY_REFLECT_DETAIL_SHOWN_NAME_HPP

// A name (a tool's, a field path) carried in the template arguments of a diagnostic type, in
// the form each compiler prints readably: GCC prints a fixed_string argument as its text,
// holder<agentry::fixed_string<9>{"plan_trip"}>; Clang 14 prints it as character codes, so
// there the name is a pack of characters, holder<'p', 'l', 'a', 'n', '_', 't', 'r', 'i', 'p'>.

#include <agentry/reflect/fixed_string.hpp>

#include <cstddef>
#include <string_view>
#include <type_traits>
#include <utility>

namespace agentry::detail {

/// Holder<Name> as the compiler shows it best; Holder is declared `template <auto...> struct`.
template <fixed_string Name, template <auto...> class Holder>
consteval auto shown_name() noexcept {
#if defined(__clang__)
    return []<std::size_t... I>(std::index_sequence<I...>) {
        return Holder<Name.value[I]...>{};
    }(std::make_index_sequence<Name.size()>{});
#else
    return Holder<Name>{};
#endif
}

template <auto... C>
inline constexpr char char_pack_text[sizeof...(C) + 1] = {C..., '\0'};

/// The text of a name shown_name put in a holder (Holder<fixed_string{...}> on GCC,
/// Holder<'a', 'b', ...> on Clang), for messages computed at compile time.
template <class Shown>
struct shown_text;
template <template <auto...> class Holder, auto... C>
struct shown_text<Holder<C...>> {
    static constexpr std::string_view view() noexcept {
        // No fold over the characters: a path may pass a compiler's limit on fold expressions.
        if constexpr (sizeof...(C) != 1) return {char_pack_text<C...>, sizeof...(C)};
        else if constexpr (std::is_class_v<std::remove_cvref_t<decltype((C, ...))>>) return (C.view(), ...);
        else return {char_pack_text<C...>, 1};
    }
};

/// The first N characters of `text` as a fixed_string.
template <std::size_t N>
consteval fixed_string<N> fixed_prefix(std::string_view text) noexcept {
    return fixed_string<N>(text);
}

} // namespace agentry::detail

#endif
