// SPDX-License-Identifier: BSL-1.0
#ifndef AGENTRY_REFLECT_FIELDS_HPP
#define AGENTRY_REFLECT_FIELDS_HPP

// Field count, types, access and names of aggregates.
//
// The count is the largest n for which T{x1, ..., xn} compiles, each x converting to any type;
// Boost.PFR counts the rare aggregates that this cannot (a field with no default value).
// Access and types come from a structured binding of that many names. Names come from the
// compiler: the address of a field of a never-defined object is a constant, and
// __PRETTY_FUNCTION__ of a function templated on that address spells the field's name. Works
// on GCC >= 12 and Clang >= 14.

#include <agentry/reflect/detail/field_access.hpp>
#include <agentry/reflect/detail/static_text.hpp>

#include <boost/pfr/tuple_size.hpp>

#include <array>
#include <climits>
#include <cstddef>
#include <string_view>
#include <type_traits>
#include <utility>

namespace agentry::reflect {

/// A class that agentry reflects field by field: a non-union aggregate with no base classes.
template <class T>
concept aggregate = std::is_class_v<T> && std::is_aggregate_v<T> && !std::is_union_v<T> &&
                    std::is_same_v<T, std::remove_cvref_t<T>>;

namespace detail {

#if defined(__clang__)
#pragma clang diagnostic push
#pragma clang diagnostic ignored "-Wmissing-field-initializers"
#endif
// Converts to a reference to any type (to a value of any type, for a T that cannot be copied).
// Only named in unevaluated operands; the bodies exist because compilers instantiate a
// constexpr function as soon as overload resolution picks it.
struct to_any_reference {
    template <class U>
    constexpr operator U&() const&& noexcept {
        U* none = nullptr;
        return *none;
    }
    template <class U>
    constexpr operator U&() const& noexcept {
        U* none = nullptr;
        return *none;
    }
};
struct to_any_value {
    template <class U>
    operator U() const&& noexcept {
        U* none = nullptr;
        return static_cast<U&&>(*none);
    }
};

template <class T, std::size_t... I>
consteval bool initialisable(std::index_sequence<I...>) noexcept {
    if constexpr (std::is_copy_constructible_v<T>) return requires { T{(void(I), to_any_reference{})...}; };
    else return requires { T{(void(I), to_any_value{})...}; };
}

// Whether T{x1, ..., xN} compiles.
template <class T, std::size_t N>
inline constexpr bool takes = initialisable<T>(std::make_index_sequence<N>{});

// The largest n in [Low, High] with takes<T, n>, knowing takes<T, Low>.
template <class T, std::size_t Low, std::size_t High>
consteval std::size_t largest_taken() noexcept {
    if constexpr (Low == High) {
        return Low;
    } else {
        constexpr std::size_t middle = Low + (High - Low + 1) / 2;
        if constexpr (takes<T, middle>) return largest_taken<T, middle, High>();
        else return largest_taken<T, Low, middle - 1>();
    }
}

// Doubling from Low (takes<T, Low> holds) up to Bound, then halving: for T of default-
// initialisable fields, takes<T, n> holds exactly for n up to the count, so a few small
// initialisations find it.
template <class T, std::size_t Low, std::size_t Bound>
consteval std::size_t count_from() noexcept {
    constexpr std::size_t next = Low == 0 ? 1 : 2 * Low;
    if constexpr (next > Bound) return largest_taken<T, Low, Bound>();
    else if constexpr (takes<T, next>) return count_from<T, next, Bound>();
    else return largest_taken<T, Low, next - 1>();
}

template <class T>
consteval std::size_t count_fields() noexcept {
    // CHAR_BIT fields per byte at most: bit-fields.
    if constexpr (takes<T, 0>) return count_from<T, 0, sizeof(T) * CHAR_BIT>();
    else return boost::pfr::tuple_size_v<T>;
}
#if defined(__clang__)
#pragma clang diagnostic pop
#endif

} // namespace detail

template <aggregate T>
inline constexpr std::size_t field_count = detail::count_fields<T>();

/// Field I of t, an aggregate (const when t is).
template <std::size_t I, class T>
    requires aggregate<std::remove_const_t<T>>
constexpr auto& field(T& t) noexcept {
    return detail::field_at<I>(t, detail::field_count_tag<field_count<std::remove_const_t<T>>>{});
}

/// The declared type of field I of T.
template <std::size_t I, aggregate T>
using field_type = std::remove_reference_t<decltype(field<I>(std::declval<T&>()))>;

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
        constexpr auto pointer = &field_at<I>(fake_object<T>.value, field_count_tag<field_count<T>>{});
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
