// SPDX-License-Identifier: BSL-1.0
#ifndef AGENTRY_SCHEMA_FIELD_DEFAULTS_HPP
#define AGENTRY_SCHEMA_FIELD_DEFAULTS_HPP

// Default values of optional fields, stated beside the struct and checked against its fields
// at compile time:
//
//   struct search {
//       std::string query;
//       std::optional<std::string> language = "en";
//       std::optional<int> limit = 10;
//       static constexpr auto defaults = agentry::field_defaults("language", "en", "limit", 10);
//   };
//
// Each name must be an optional field and each value fit its type: a string for std::string
// (or std::string_view), a value of the enum for an enum, an integer in range for an integer
// type, a number for float or double, true or false for bool. When a struct has `defaults`
// (or agentry::adapter<T>::defaults), the schema states exactly these, with every compiler;
// otherwise they are read from T{} where that is a constant (see docs/reflection.md). The
// reader does not apply them: the member initialisers do, so keep the two equal.

#include <array>
#include <cstddef>
#include <string_view>
#include <tuple>
#include <type_traits>
#include <utility>

namespace agentry {

template <class... V>
struct field_defaults_t {
    std::array<std::string_view, sizeof...(V)> names{};
    std::tuple<V...> values{};

    static constexpr std::size_t size() noexcept { return sizeof...(V); }
};

namespace detail {

// A default as stored: text as a std::string_view, anything else as its decayed type.
template <class A>
using stored_default_t =
    std::conditional_t<std::is_convertible_v<const A&, std::string_view> && !std::is_arithmetic_v<A>, std::string_view,
                       std::decay_t<A>>;

template <class T>
inline constexpr bool is_field_defaults = false;
template <class... V>
inline constexpr bool is_field_defaults<field_defaults_t<V...>> = true;

} // namespace detail

/// Pairs of field name and default value: field_defaults("unit", unit::celsius, "limit", 10).
template <class... A>
consteval auto field_defaults(const A&... args) noexcept {
    static_assert(sizeof...(A) % 2 == 0,
                  "agentry: field_defaults takes pairs of arguments: \"field\", value, \"field\", value, ...");
    const std::tuple<detail::stored_default_t<A>...> all{detail::stored_default_t<A>(args)...};
    return [&]<std::size_t... I>(std::index_sequence<I...>) {
        using stored = std::tuple<detail::stored_default_t<A>...>;
        static_assert((std::is_same_v<std::tuple_element_t<2 * I, stored>, std::string_view> && ...),
                      "agentry: field_defaults: every other argument, from the first, must be a field name");
        return field_defaults_t<std::tuple_element_t<2 * I + 1, stored>...>{
            {std::get<2 * I>(all)...}, {std::get<2 * I + 1>(all)...}};
    }(std::make_index_sequence<sizeof...(A) / 2>{});
}

} // namespace agentry

#endif
