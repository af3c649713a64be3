// SPDX-License-Identifier: BSL-1.0
#ifndef AGENTRY_SCHEMA_ENUM_TITLES_HPP
#define AGENTRY_SCHEMA_ENUM_TITLES_HPP

// Display titles of an enum's values, for forms that show a label beside each choice (MCP
// elicitation; the other dialects leave them out):
//
//   enum class plan { basic, pro };
//   template <>
//   struct agentry::enum_titles<plan> {
//       static constexpr std::pair<plan, std::string_view> titles[] = {{plan::basic, "Basic"},
//                                                                      {plan::pro, "Pro, billed yearly"}};
//   };
//
// A value without a title is shown by its name. The JSON value stays the enumerator's name.
// `static constexpr bool legacy_enum_names = true;` beside `titles` asks for the legacy form
// (`enum` with `enumNames`) in every protocol version, for clients that know no other.

#include <agentry/reflect/enum.hpp>

#include <cstddef>
#include <string_view>
#include <type_traits>

namespace agentry {

/// Specialise with `static constexpr std::pair<E, std::string_view> titles[]`.
template <class E>
struct enum_titles {};

} // namespace agentry

namespace agentry::schema::detail {

template <class E>
concept titled_enum = std::is_enum_v<E> && requires { enum_titles<E>::titles; };

template <class E>
consteval bool legacy_enum_names() noexcept {
    if constexpr (requires { enum_titles<E>::legacy_enum_names; }) return enum_titles<E>::legacy_enum_names;
    else return false;
}

// Whether every title is for a named value of E, and for a different one.
template <class E>
consteval bool titles_fit() noexcept {
    constexpr const auto& titles = enum_titles<E>::titles;
    const std::size_t n = sizeof(titles) / sizeof(titles[0]);
    for (std::size_t i = 0; i != n; ++i) {
        bool named = false;
        for (const E value : reflect::enum_values<E>) named = named || value == titles[i].first;
        if (!named) return false;
        for (std::size_t j = 0; j != i; ++j)
            if (titles[j].first == titles[i].first) return false;
    }
    return true;
}

/// The title of E's value `value`, or its name when it has none.
template <class E>
constexpr std::string_view title_of(E value, std::string_view name) noexcept {
    static_assert(titles_fit<E>(), "agentry: enum_titles<E>::titles gives a title to a value that is not a named "
                                   "enumerator of E, or gives one value two titles; give each enumerator at most "
                                   "one title");
    for (const auto& entry : enum_titles<E>::titles)
        if (entry.first == value) return entry.second;
    return name;
}

} // namespace agentry::schema::detail

#endif
