// SPDX-License-Identifier: BSL-1.0
#ifndef AGENTRY_SCHEMA_DETAIL_DEFAULTS_HPP
#define AGENTRY_SCHEMA_DETAIL_DEFAULTS_HPP

// Default values of optional fields, from agentry::field_defaults or read from T{} at compile
// time, written as JSON text.

#include <agentry/detail/shortest_double.hpp>
#include <agentry/reflect/enum.hpp>
#include <agentry/reflect/fields.hpp>
#include <agentry/schema/adapter.hpp>
#include <agentry/schema/constraints.hpp>
#include <agentry/schema/detail/classify.hpp>
#include <agentry/schema/detail/diagnostics.hpp>
#include <agentry/schema/detail/sink.hpp>
#include <agentry/schema/field_defaults.hpp>
#include <agentry/schema/raw_json.hpp>

#include <array>
#include <cstddef>
#include <string_view>
#include <type_traits>
#include <utility>
#include <variant>

namespace agentry::schema::detail {

template <class U>
struct constrained_value {
    using type = U;
};
template <class U>
    requires is_constrained<U>
struct constrained_value<U> {
    using type = typename U::value_type;
};

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
    else if constexpr (std::is_same_v<V, std::string_view>) s.put_string(v);
    else if constexpr (std::is_integral_v<V>) {
        if constexpr (std::is_signed_v<V>) s.put_signed(v);
        else s.put_unsigned(v);
    } else {
        // A whole number below 2^53 as "95.0"; any other finite value as std::to_chars writes
        // it ("95.5", "1e+21"); NaN and infinities have no default.
        const double x = v;
        if (x == x && x > -9007199254740992.0 && x < 9007199254740992.0 && x == double((long long)x)) {
            s.put_signed((long long)x);
            s.put(".0");
        } else if constexpr (std::is_same_v<V, double> || std::is_same_v<V, float>) {
            if (x == x && x - x == 0) {
                char text[agentry::detail::shortest_text_size]{};
                s.put(std::string_view(text, agentry::detail::shortest_text(text, v)));
            }
        }
    }
}

/// The longest default value written into a schema, in characters; a longer one is left out.
inline constexpr std::size_t max_default_text = 64;

// The JSON text of field I's default, followed by its length in the last element.
// ---- explicit defaults (agentry::field_defaults) --------------------------------------------

template <class T>
concept own_defaults =
    requires { T::defaults; } && agentry::detail::is_field_defaults<std::remove_cvref_t<decltype(T::defaults)>>;
template <class T>
concept adapter_defaults = requires { adapter<T>::defaults; } &&
                           agentry::detail::is_field_defaults<std::remove_cvref_t<decltype(adapter<T>::defaults)>>;
template <class T>
concept explicit_defaults = own_defaults<T> || adapter_defaults<T>;

template <class T>
    requires explicit_defaults<T>
constexpr const auto& defaults_table() noexcept {
    if constexpr (own_defaults<T>) return T::defaults;
    else return adapter<T>::defaults;
}

enum class default_error { none, unknown_field, duplicate_field, not_optional, wrong_type, out_of_range, no_default_type };

// Whether a default of type V (as field_defaults stores it) fits a field value of type U.
template <class U, class V>
consteval default_error default_fits(const V& v) noexcept {
    if constexpr (is_constrained<U>) return default_fits<std::remove_cv_t<typename U::value_type>>(v);
    else if constexpr (std::is_same_v<U, bool>) return std::is_same_v<V, bool> ? default_error::none : default_error::wrong_type;
    else if constexpr (std::is_enum_v<U>) return std::is_same_v<V, U> ? default_error::none : default_error::wrong_type;
    else if constexpr (std::is_integral_v<U> && kind_of<U>() == kind::integer) {
        if constexpr (!std::is_integral_v<V> || std::is_same_v<V, bool> || kind_of<V>() != kind::integer)
            return default_error::wrong_type;
        else return std::in_range<U>(v) ? default_error::none : default_error::out_of_range;
    } else if constexpr (std::is_floating_point_v<U>) {
        return std::is_arithmetic_v<V> && !std::is_same_v<V, bool> && kind_of<V>() != kind::unsupported
                   ? default_error::none
                   : default_error::wrong_type;
    } else if constexpr (is_std_string<U> || std::is_same_v<U, std::string_view>) {
        return std::is_same_v<V, std::string_view> ? default_error::none : default_error::wrong_type;
    } else return default_error::no_default_type;
}

template <class T, std::size_t J>
consteval default_error check_default() noexcept {
    constexpr const auto& table = defaults_table<T>();
    constexpr std::string_view name = table.names[J];
    constexpr std::size_t field = reflect::field_index<T>(name);
    if constexpr (field == reflect::field_count<T>) {
        return default_error::unknown_field;
    } else {
        for (std::size_t j = 0; j != J; ++j)
            if (table.names[j] == name) return default_error::duplicate_field;
        using F = std::remove_cv_t<reflect::field_type<field, T>>;
        if constexpr (!is_optional<F>) return default_error::not_optional;
        else return default_fits<std::remove_cv_t<typename F::value_type>>(std::get<J>(table.values));
    }
}

/// Instantiated for a field_defaults entry that does not fit; the field's name is in `Field`.
template <class Field, default_error Error>
struct field_defaults_diagnostic {
    static_assert(Error != default_error::unknown_field,
                  "agentry: field_defaults names a field the struct does not have (in 'at_field'); fix the name or "
                  "remove the entry");
    static_assert(Error != default_error::duplicate_field,
                  "agentry: field_defaults gives the same field (in 'at_field') two defaults; keep one");
    static_assert(Error != default_error::not_optional,
                  "agentry: field_defaults gives a default to a field (in 'at_field') that is not a std::optional; a "
                  "required field has no default: make it std::optional or remove the entry");
    static_assert(Error != default_error::wrong_type,
                  "agentry: field_defaults: the default of the field in 'at_field' does not have the field's type; "
                  "give a string for std::string, a value of the enum for an enum, an integer for an integer, a "
                  "number for float or double, true or false for bool");
    static_assert(Error != default_error::out_of_range,
                  "agentry: field_defaults: the default of the field in 'at_field' is outside the range of its "
                  "integer type");
    static_assert(Error != default_error::no_default_type,
                  "agentry: field_defaults: the field in 'at_field' has a type that cannot have a default in a "
                  "schema; defaults are for bool, integers, float, double, enums and strings");
    static constexpr bool ok = true;
};

template <class T, std::size_t J>
consteval bool check_default_entry() noexcept {
    constexpr default_error error = check_default<T, J>();
    if constexpr (error != default_error::none) {
        constexpr std::string_view name = defaults_table<T>().names[J];
        constexpr auto field = agentry::detail::fixed_prefix<name.size()>(name);
        return field_defaults_diagnostic<decltype(agentry::detail::shown_name<field, at_field>()), error>::ok;
    }
    return true;
}

/// Checks T's field_defaults against its fields; true when it has none.
template <class T>
consteval bool check_defaults() noexcept {
    if constexpr (explicit_defaults<T>) {
        return []<std::size_t... J>(std::index_sequence<J...>) {
            return (check_default_entry<T, J>() && ...);
        }(std::make_index_sequence<std::remove_cvref_t<decltype(defaults_table<T>())>::size()>{});
    }
    return true;
}

// Writes entry K of T's field_defaults when it is the one for `name`, converted to the
// field's value type U.
template <class T, class U, std::size_t K>
constexpr void put_explicit_entry(sink& s, std::string_view name) noexcept {
    constexpr const auto& table = defaults_table<T>();
    using V = std::tuple_element_t<K, std::remove_cvref_t<decltype(table.values)>>;
    using W = std::remove_cv_t<typename constrained_value<U>::type>;
    if constexpr (default_fits<W>(std::get<K>(table.values)) == default_error::none) {
        if (table.names[K] != name) return;
        if constexpr (std::is_same_v<V, std::string_view>) put_default(s, std::get<K>(table.values));
        else put_default(s, static_cast<W>(std::get<K>(table.values)));
    }
}

template <class T, class U, std::size_t... K>
constexpr void put_explicit_default(sink& s, std::string_view name, std::index_sequence<K...>) noexcept {
    (put_explicit_entry<T, U, K>(s, name), ...);
}

// ---- the text of a default -----------------------------------------------------------------

template <class T, std::size_t I>
consteval auto default_text() noexcept {
    constexpr std::size_t capacity = max_default_text;
    std::array<char, capacity + 1> text{};
    std::size_t size = 0;
    using F = std::remove_cv_t<reflect::field_type<I, T>>;
    if constexpr (explicit_defaults<T>) {
        using entries = std::make_index_sequence<std::remove_cvref_t<decltype(defaults_table<T>())>::size()>;
        sink probe;
        put_explicit_default<T, std::remove_cv_t<typename F::value_type>>(probe, reflect::field_names<T>[I], entries{});
        if (probe.size <= capacity) {
            sink s;
            s.out = text.data();
            put_explicit_default<T, std::remove_cv_t<typename F::value_type>>(s, reflect::field_names<T>[I], entries{});
            size = s.size;
        }
    } else if constexpr (default_printable<typename F::value_type>()) {
        const T value{};
        const auto& member = reflect::field<I>(value);
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
    else if constexpr (!explicit_defaults<T> && !defaults_readable<T>) return {};
    else return {default_text_v<T, I>.data(), std::size_t(default_text_v<T, I>[max_default_text])};
}

} // namespace agentry::schema::detail

#endif
