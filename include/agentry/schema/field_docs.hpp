// SPDX-License-Identifier: BSL-1.0
#ifndef AGENTRY_SCHEMA_FIELD_DOCS_HPP
#define AGENTRY_SCHEMA_FIELD_DOCS_HPP

// Per-field descriptions of a parameter struct, checked against its real field names:
//
//   struct weather_query {
//       std::string city;
//       static constexpr auto docs = agentry::field_docs("city", "City name, e.g. 'Paris'");
//   };

#include <array>
#include <cstddef>
#include <string_view>

namespace agentry {

template <std::size_t N>
struct field_docs_t {
    std::array<std::string_view, N> names{};
    std::array<std::string_view, N> texts{};

    static constexpr std::size_t size() noexcept { return N; }

    /// The description of `field`, or an empty view.
    constexpr std::string_view find(std::string_view field) const noexcept {
        for (std::size_t i = 0; i != N; ++i)
            if (names[i] == field) return texts[i];
        return {};
    }
};

/// Pairs of field name and description: field_docs("city", "City name", "unit", "Unit").
template <std::size_t... L>
consteval auto field_docs(const char (&... text)[L]) noexcept {
    static_assert(sizeof...(L) % 2 == 0,
                  "agentry: field_docs takes pairs of arguments: \"field\", \"description\", \"field\", ...");
    constexpr std::size_t n = sizeof...(L) / 2;
    const std::array<std::string_view, sizeof...(L)> all{std::string_view(text, L - 1)...};
    field_docs_t<n> docs;
    for (std::size_t i = 0; i != n; ++i) {
        docs.names[i] = all[2 * i];
        docs.texts[i] = all[2 * i + 1];
    }
    return docs;
}

namespace detail {

template <class T>
inline constexpr bool is_field_docs = false;
template <std::size_t N>
inline constexpr bool is_field_docs<field_docs_t<N>> = true;

} // namespace detail

/// T declares `static constexpr auto docs = agentry::field_docs(...)`.
template <class T>
concept has_field_docs = requires { T::docs; } && detail::is_field_docs<std::remove_cvref_t<decltype(T::docs)>>;

} // namespace agentry

#endif
