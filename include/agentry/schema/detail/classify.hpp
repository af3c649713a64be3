// SPDX-License-Identifier: BSL-1.0
#ifndef AGENTRY_SCHEMA_DETAIL_CLASSIFY_HPP
#define AGENTRY_SCHEMA_DETAIL_CLASSIFY_HPP

// The classification of a C++ type by the JSON value it maps to. The schema writer, the
// reader and the writer all dispatch on kind_of<T>(); no other header decides what a type is.

#include <agentry/reflect/fields.hpp>
#include <agentry/reflect/fixed_string.hpp>
#include <agentry/schema/adapter.hpp>
#include <agentry/schema/adapters/chrono.hpp>
#include <agentry/schema/adapters/outcome.hpp>
#include <agentry/schema/constraints.hpp>
#include <agentry/schema/raw_json.hpp>

#include <array>
#include <cstddef>
#include <deque>
#include <list>
#include <map>
#include <optional>
#include <set>
#include <string>
#include <string_view>
#include <tuple>
#include <type_traits>
#include <unordered_map>
#include <unordered_set>
#include <utility>
#include <variant>
#include <vector>

namespace agentry {

/// The parameters of a tool that takes several arguments, named in agentry::tool<...>.
template <class Parameters, fixed_string... Names>
struct named_parameters {};

namespace schema::detail {

using agentry::detail::is_std_string;

template <class T>
inline constexpr bool is_optional = false;
template <class T>
inline constexpr bool is_optional<std::optional<T>> = true;

template <class T>
inline constexpr bool is_variant = false;
template <class... T>
inline constexpr bool is_variant<std::variant<T...>> = true;

template <class T>
inline constexpr bool is_vector = false;
template <class T, class A>
inline constexpr bool is_vector<std::vector<T, A>> = true;

/// Sequences read and written like std::vector.
template <class T>
inline constexpr bool is_list = false;
template <class T, class A>
inline constexpr bool is_list<std::list<T, A>> = true;
template <class T, class A>
inline constexpr bool is_list<std::deque<T, A>> = true;

/// std::pair and std::tuple: arrays of fixed length and per-position types.
template <class T>
inline constexpr bool is_tuple = false;
template <class... A>
inline constexpr bool is_tuple<std::tuple<A...>> = true;
template <class A, class B>
inline constexpr bool is_tuple<std::pair<A, B>> = true;

template <class T>
inline constexpr bool is_std_array = false;
template <class T, std::size_t N>
inline constexpr bool is_std_array<std::array<T, N>> = true;

template <class T>
inline constexpr bool is_set = false;
template <class T, class C, class A>
inline constexpr bool is_set<std::set<T, C, A>> = true;
template <class T, class H, class E, class A>
inline constexpr bool is_set<std::unordered_set<T, H, E, A>> = true;

template <class T>
inline constexpr bool is_map = false;
template <class K, class V, class C, class A>
inline constexpr bool is_map<std::map<K, V, C, A>> = true;
template <class K, class V, class H, class E, class A>
inline constexpr bool is_map<std::unordered_map<K, V, H, E, A>> = true;

/// What a map's keys may be: a string, an integer (sent as its decimal text) or an enum (its
/// enumerator's name).
template <class K>
inline constexpr bool is_map_key =
    is_std_string<K> || std::is_enum_v<K> ||
    (std::is_integral_v<K> && !std::is_same_v<K, bool> && !std::is_same_v<K, char> && !std::is_same_v<K, wchar_t> &&
     !std::is_same_v<K, char8_t> && !std::is_same_v<K, char16_t> && !std::is_same_v<K, char32_t>);

template <class T>
inline constexpr bool is_named_parameters = false;
template <class P, fixed_string... N>
inline constexpr bool is_named_parameters<named_parameters<P, N...>> = true;

enum class kind : unsigned char {
    boolean,
    integer,
    number,
    string,
    enumeration,
    constrained,
    any,
    optional,
    variant,
    null,
    adapted,
    tuple,
    fixed_array,
    set,
    array,
    map,
    object,
    unsupported,
};

template <class T>
consteval kind kind_of() noexcept {
    if constexpr (mapped<T>) return kind::adapted;
    else if constexpr (std::is_same_v<T, bool>) return kind::boolean;
    else if constexpr (std::is_same_v<T, char> || std::is_same_v<T, wchar_t> || std::is_same_v<T, char8_t> ||
                       std::is_same_v<T, char16_t> || std::is_same_v<T, char32_t>)
        return kind::unsupported;
    else if constexpr (std::is_integral_v<T>) return kind::integer;
    else if constexpr (std::is_same_v<T, float> || std::is_same_v<T, double>) return kind::number;
    else if constexpr (std::is_enum_v<T>) return kind::enumeration;
    else if constexpr (is_std_string<T> || std::is_same_v<T, std::string_view>) return kind::string;
    else if constexpr (is_constrained<T>) return kind::constrained;
    else if constexpr (std::is_same_v<T, raw_json>) return kind::any;
    else if constexpr (is_optional<T>) return is_optional<typename T::value_type> ? kind::unsupported : kind::optional;
    else if constexpr (is_variant<T>) return kind::variant;
    else if constexpr (std::is_same_v<T, std::monostate>) return kind::null;
    else if constexpr (is_std_array<T>) return kind::fixed_array;
    else if constexpr (is_set<T>) return kind::set;
    else if constexpr (is_vector<T> || is_list<T>) return kind::array;
    else if constexpr (is_tuple<T>) return kind::tuple;
    else if constexpr (is_map<T>) return is_map_key<std::remove_cv_t<typename T::key_type>> ? kind::map : kind::unsupported;
    else if constexpr (is_named_parameters<T>) return kind::object;
    else if constexpr (reflect::aggregate<T>)
        return reflect::field_count<T> <= reflect::detail::max_fields ? kind::object : kind::unsupported;
    else return kind::unsupported;
}

/// The kind of the JSON value T is sent as: kind_of<T>(), through adapter<T>::json_type.
template <class T>
consteval kind json_kind_of() noexcept {
    if constexpr (kind_of<T>() == kind::adapted) return json_kind_of<json_type_of<T>>();
    else return kind_of<T>();
}

} // namespace schema::detail
} // namespace agentry

#endif
