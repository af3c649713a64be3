// SPDX-License-Identifier: BSL-1.0
#ifndef AGENTRY_SCHEMA_DETAIL_DEFAULTS_HPP
#define AGENTRY_SCHEMA_DETAIL_DEFAULTS_HPP

// Default values of optional fields, read from T{} at compile time and written as JSON text.

#include <agentry/reflect/enum.hpp>
#include <agentry/reflect/fields.hpp>
#include <agentry/schema/constraints.hpp>
#include <agentry/schema/detail/classify.hpp>
#include <agentry/schema/detail/sink.hpp>
#include <agentry/schema/raw_json.hpp>

#include <boost/pfr/core.hpp>

#include <array>
#include <cstddef>
#include <string_view>
#include <type_traits>
#include <utility>
#include <variant>

namespace agentry::schema::detail {

// Whether default member values can be read from T{} at compile time on every supported
// compiler. Clang 14 with libstdc++ 12 cannot construct std::string in a constant
// expression, so a struct holding one directly is excluded on every compiler alike.
template <class T>
consteval bool holds_string() noexcept {
    using U = std::remove_cv_t<T>;
    if constexpr (is_std_string<U> || std::is_same_v<U, raw_json>) return true;
    else if constexpr (is_constrained<U>) return holds_string<typename U::value_type>();
    else if constexpr (is_optional<U>) return holds_string<typename U::value_type>();
    else if constexpr (is_std_array<U>) return holds_string<typename U::value_type>();
    else if constexpr (is_variant<U>) return holds_string<std::variant_alternative_t<0, U>>();
    else if constexpr (kind_of<U>() == kind::object && !is_named_parameters<U>) {
        return []<std::size_t... I>(std::index_sequence<I...>) {
            return (holds_string<reflect::field_type<I, U>>() || ...);
        }(std::make_index_sequence<reflect::field_count<U>>{});
    } else return false;
}

template <class T>
concept constant_default = requires { typename std::integral_constant<bool, (T{}, true)>; };

template <class T>
inline constexpr bool defaults_readable = constant_default<T> && !holds_string<T>();

template <class V>
consteval bool default_printable() noexcept {
    using U = std::remove_cv_t<V>;
    if constexpr (is_constrained<U>) return default_printable<typename U::value_type>();
    else return std::is_same_v<U, bool> || (std::is_integral_v<U> && kind_of<U>() == kind::integer) ||
                std::is_enum_v<U> || std::is_floating_point_v<U>;
}

template <class V>
constexpr void put_default(sink& s, const V& v) noexcept {
    if constexpr (is_constrained<V>) put_default(s, v.value);
    else if constexpr (std::is_same_v<V, bool>) s.put(v ? "true" : "false");
    else if constexpr (std::is_enum_v<V>) s.put_string(reflect::enum_name(v));
    else if constexpr (std::is_integral_v<V>) {
        if constexpr (std::is_signed_v<V>) s.put_signed(v);
        else s.put_unsigned(v);
    } else {
        // Integral values only: shortest round-trip text of a fraction needs the run-time writer.
        const double x = v;
        if (x == x && x > -9007199254740992.0 && x < 9007199254740992.0 && x == double((long long)x)) {
            s.put_signed((long long)x);
            s.put(".0");
        }
    }
}

/// The longest default value written into a schema, in characters; a longer one is left out.
inline constexpr std::size_t max_default_text = 64;

// The JSON text of field I's default, followed by its length in the last element.
template <class T, std::size_t I>
consteval auto default_text() noexcept {
    constexpr std::size_t capacity = max_default_text;
    std::array<char, capacity + 1> text{};
    std::size_t size = 0;
    using F = std::remove_cv_t<reflect::field_type<I, T>>;
    if constexpr (default_printable<typename F::value_type>()) {
        const T value{};
        const auto& member = boost::pfr::get<I>(value);
        if (member.has_value()) {
            sink s;
            s.out = text.data();
            sink probe;
            put_default(probe, *member);
            if (probe.size <= capacity) put_default(s, *member);
            size = s.size <= capacity ? s.size : 0;
        }
    }
    text[capacity] = char(size);
    return text;
}

template <class T, std::size_t I>
inline constexpr auto default_text_v = default_text<T, I>();

template <class T, std::size_t I>
constexpr std::string_view default_of() noexcept {
    if constexpr (!is_optional<std::remove_cv_t<reflect::field_type<I, T>>>) return {};
    else if constexpr (!defaults_readable<T>) return {};
    else return {default_text_v<T, I>.data(), std::size_t(default_text_v<T, I>[max_default_text])};
}

} // namespace agentry::schema::detail

#endif
