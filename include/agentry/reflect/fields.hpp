// SPDX-License-Identifier: BSL-1.0
#ifndef AGENTRY_REFLECT_FIELDS_HPP
#define AGENTRY_REFLECT_FIELDS_HPP

// Field count, types and names of aggregates.
//
// Count and types come from Boost.PFR. Names come from the compiler: the address of a field
// of a never-defined object is a constant, and __PRETTY_FUNCTION__ of a function templated
// on that address spells the field's name. Works on GCC >= 12 and Clang >= 14.

#include <agentry/reflect/detail/field_pointers.hpp>
#include <agentry/reflect/detail/static_text.hpp>

#include <boost/pfr/core.hpp>
#include <boost/pfr/tuple_size.hpp>

#include <array>
#include <cstddef>
#include <string_view>
#include <tuple>
#include <type_traits>
#include <utility>

namespace agentry::reflect {

/// A class that agentry reflects field by field: a non-union aggregate with no base classes.
template <class T>
concept aggregate = std::is_class_v<T> && std::is_aggregate_v<T> && !std::is_union_v<T> &&
                    std::is_same_v<T, std::remove_cvref_t<T>>;

template <aggregate T>
inline constexpr std::size_t field_count = boost::pfr::tuple_size_v<T>;

template <std::size_t I, aggregate T>
using field_type = boost::pfr::tuple_element_t<I, T>;

namespace detail {

template <class T>
struct fake_wrapper {
    const T value;
};

#if defined(__clang__)
#pragma clang diagnostic push
#pragma clang diagnostic ignored "-Wundefined-var-template"
#pragma clang diagnostic ignored "-Wundefined-internal"
#endif
// Declared, never defined: only the addresses of its fields are used, in constant expressions.
template <class T>
extern const fake_wrapper<T> fake_object;

template <class P>
struct pointer_holder {
    P pointer;
};

template <auto Holder>
consteval std::string_view pretty_field() noexcept {
    // The length from sizeof: constructing from the pointer alone would have constant
    // evaluation count the characters one by one.
    return {__PRETTY_FUNCTION__, sizeof(__PRETTY_FUNCTION__) - 1};
}

// GCC: "... [with auto Holder = pointer_holder<int>{(& fake_object<S>.value.S::alpha)}; ...]"
// Clang: "... [Holder = {&fake_object.value.alpha}]"
// The name is the identifier just before the closing '}' (and any ')').
consteval std::string_view field_name_from_pretty(std::string_view pretty) noexcept {
    std::size_t end = pretty.rfind('}');
    while (end > 0 && pretty[end - 1] == ')') --end;
    std::size_t begin = end;
    while (begin > 0) {
        const char c = pretty[begin - 1];
        const bool ident = (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') ||
                           c == '_';
        if (!ident) break;
        --begin;
    }
    return pretty.substr(begin, end - begin);
}

template <class T, std::size_t I>
consteval std::string_view raw_field_name() noexcept {
    if constexpr (field_count<T> > max_fields) {
        return {};
    } else {
        constexpr auto pointer =
            std::get<I>(field_pointers(fake_object<T>.value, field_count_tag<field_count<T>>{}));
        return field_name_from_pretty(pretty_field<pointer_holder<decltype(pointer)>{pointer}>());
    }
}
#if defined(__clang__)
#pragma clang diagnostic pop
#endif

template <class T, std::size_t I>
inline constexpr auto field_name_text = static_text<raw_field_name<T, I>().size()>(raw_field_name<T, I>());

template <class T, std::size_t... I>
consteval std::array<std::string_view, sizeof...(I)> make_field_names(std::index_sequence<I...>) noexcept {
    return {field_name_text<T, I>.view()...};
}

} // namespace detail

/// The names of T's fields, in declaration order.
template <aggregate T>
inline constexpr std::array<std::string_view, field_count<T>> field_names =
    detail::make_field_names<T>(std::make_index_sequence<field_count<T>>{});

/// Index of the field called `name`, or field_count<T> when there is none.
template <aggregate T>
constexpr std::size_t field_index(std::string_view name) noexcept {
    for (std::size_t i = 0; i != field_count<T>; ++i)
        if (field_names<T>[i] == name) return i;
    return field_count<T>;
}

} // namespace agentry::reflect

#endif
