// SPDX-License-Identifier: BSL-1.0
#ifndef AGENTRY_REFLECT_FIELDS_HPP
#define AGENTRY_REFLECT_FIELDS_HPP

// Field count, types, access and names of aggregates.
//
// The count is the largest n for which T{x1, ..., xn} compiles, each x converting to any type;
// Boost.PFR counts the rare aggregates that this cannot (a field with no default value).
// Access and types come from a structured binding of that many names. Names come from the
// compiler: the addresses of the fields of a never-defined object are constants, and
// __PRETTY_FUNCTION__ of one function templated on all of them spells the fields' names. Works
// on GCC >= 12 and Clang >= 14.

#include <agentry/reflect/detail/field_access.hpp>

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
    return detail::fields_of<field_count<std::remove_const_t<T>>>::template at<I>(t);
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

// The addresses of N fields, as one template argument (a structural type).
template <std::size_t N>
struct field_addresses {
    const void* at[N];
};

// Fields [First, First + Count) of T's never-defined object.
template <class T, std::size_t First, std::size_t Count>
consteval field_addresses<Count> fake_field_addresses() noexcept {
    const void* all[field_count<T>]{};
    fields_of<field_count<T>>::addresses(fake_object<T>.value, all);
    field_addresses<Count> out{};
    for (std::size_t i = 0; i != Count; ++i) out.at[i] = all[First + i];
    return out;
}

// GCC: "... [with auto Fields = ...field_addresses<2>{const void* [2]{((const void*)(& fake_object<S>.
// ...fake_wrapper<S>::value.S::alpha)), ((const void*)(& ...::value.S::beta))}}; ...]"
// Clang: "... [Fields = {{&fake_object.value.alpha, &fake_object.value.beta}}]"
// Each field's name is the identifier that ends its element, before any ')'.
template <auto Fields>
consteval std::string_view pretty_fields() noexcept {
    // The length from sizeof: constructing from the pointer alone would have constant
    // evaluation count the characters one by one.
    return {__PRETTY_FUNCTION__, sizeof(__PRETTY_FUNCTION__) - 1};
}
#if defined(__clang__)
#pragma clang diagnostic pop
#endif

constexpr bool identifier_char(char c) noexcept {
    return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '_';
}

// The end of the list element that starts at p: the ',' or the closing bracket at depth 0.
// Template arguments in the element may hold brackets, and character literals ('(', ',').
constexpr const char* element_end(const char* p, const char* end) noexcept {
    int depth = 0;
    for (; p != end; ++p) {
        const char c = *p;
        if (c == '\'') {
            for (++p; p != end && *p != '\''; ++p)
                if (*p == '\\') ++p;
        } else if (c == '(' || c == '<' || c == '{' || c == '[') {
            ++depth;
        } else if (c == ')' || c == '>' || c == '}' || c == ']') {
            if (--depth < 0) return p;
        } else if (c == ',' && depth == 0) {
            return p;
        }
    }
    return p;
}

// Where the names of N fields lie in the text pretty_fields gives.
template <std::size_t N>
struct field_spans {
    std::size_t begin[N + 1]{};
    std::size_t size[N + 1]{};
    std::size_t total = 0;
};

// The list is the text after the second '{' that follows '=' (GCC: "Fields = field_addresses<N>{
// const void* [N]{", Clang: "Fields = {{"). Its first element is read whole; the others have the
// same text around the name (one object, one class), so only their names are read, the rest
// checked by a few characters.
template <std::size_t N>
consteval field_spans<N> field_spans_in(std::string_view pretty) noexcept {
    field_spans<N> out{};
    const char* const text = pretty.data();
    const char* const end = text + pretty.size();
    const char* p = text;
    while (p != end && *p != '=') ++p;
    for (int braces = 0; p != end && braces != 2; ++p) braces += *p == '{';
    std::size_t prefix = 0, suffix = 0;
    for (std::size_t i = 0; i != N; ++i) {
        bool known = i != 0 && prefix < std::size_t(end - p);
        const char* name = known ? p + prefix : p;
        const char* name_end = name;
        known = known && (name[-1] == ':' || name[-1] == '.');
        while (known && name_end != end && identifier_char(*name_end)) ++name_end;
        known = known && suffix < std::size_t(end - name_end);
        for (std::size_t k = 0; known && k != suffix; ++k) known = name_end[k] == ')';
        known = known && (name_end[suffix] == ',' || name_end[suffix] == '}');
        if (!known) {
            const char* close = element_end(p, end);
            name_end = close;
            while (name_end != p && name_end[-1] == ')') --name_end;
            name = name_end;
            while (name != p && identifier_char(name[-1])) --name;
            prefix = std::size_t(name - p);
            suffix = std::size_t(close - name_end);
        }
        out.begin[i] = std::size_t(name - text);
        out.size[i] = std::size_t(name_end - name);
        out.total += out.size[i];
        p = name_end + suffix;
        if (p != end) ++p;
        while (p != end && *p == ' ') ++p;
    }
    return out;
}

// Clang prints at most ten elements of a list (then "..."): the fields go by eights.
inline constexpr std::size_t fields_per_text = 8;

template <class T, std::size_t First>
inline constexpr std::size_t fields_in_text =
    field_count<T> - First < fields_per_text ? field_count<T> - First : fields_per_text;

template <class T, std::size_t First>
consteval std::string_view pretty_fields_of() noexcept {
    return pretty_fields<fake_field_addresses<T, First, fields_in_text<T, First>>()>();
}

template <class T>
inline constexpr std::size_t field_texts = (field_count<T> + fields_per_text - 1) / fields_per_text;

// Where the names of fields [First, First + fields_in_text) lie in their text, into `out`.
template <class T, std::size_t First>
constexpr void add_field_spans(field_spans<field_count<T>>& out) noexcept {
    const auto part = field_spans_in<fields_in_text<T, First>>(pretty_fields_of<T, First>());
    for (std::size_t i = 0; i != fields_in_text<T, First>; ++i) {
        out.begin[First + i] = part.begin[i];
        out.size[First + i] = part.size[i];
    }
    out.total += part.total;
}

template <class T>
inline constexpr auto field_spans_of = []<std::size_t... C>(std::index_sequence<C...>) {
    field_spans<field_count<T>> out{};
    (add_field_spans<T, C * fields_per_text>(out), ...);
    return out;
}(std::make_index_sequence<field_texts<T>>{});

// The names of T's fields, one after the other.
template <std::size_t Total>
struct field_names_text {
    char chars[Total + 1]{};
};

// The names of fields [First, First + fields_in_text) into `chars`, from `at`; returns the end.
template <class T, std::size_t First>
constexpr std::size_t copy_field_names(char* chars, std::size_t at) noexcept {
    const char* pretty = pretty_fields_of<T, First>().data();
    for (std::size_t i = First; i != First + fields_in_text<T, First>; ++i)
        for (std::size_t k = 0; k != field_spans_of<T>.size[i]; ++k) chars[at++] = pretty[field_spans_of<T>.begin[i] + k];
    return at;
}

template <class T>
inline constexpr auto field_names_chars = []<std::size_t... C>(std::index_sequence<C...>) {
    field_names_text<field_spans_of<T>.total> text{};
    std::size_t at = 0;
    ((at = copy_field_names<T, C * fields_per_text>(text.chars, at)), ...);
    return text;
}(std::make_index_sequence<field_texts<T>>{});

template <class T>
consteval std::array<std::string_view, field_count<T>> make_field_names() noexcept {
    std::array<std::string_view, field_count<T>> names{};
    if constexpr (field_count<T> != 0 && field_count<T> <= max_fields) {
        const char* at = field_names_chars<T>.chars;
        for (std::size_t i = 0; i != field_count<T>; ++i) {
            names[i] = std::string_view(at, field_spans_of<T>.size[i]);
            at += field_spans_of<T>.size[i];
        }
    }
    return names;
}

} // namespace detail

/// The names of T's fields, in declaration order.
template <aggregate T>
inline constexpr std::array<std::string_view, field_count<T>> field_names = detail::make_field_names<T>();

/// Index of the field called `name`, or field_count<T> when there is none.
template <aggregate T>
constexpr std::size_t field_index(std::string_view name) noexcept {
    for (std::size_t i = 0; i != field_count<T>; ++i)
        if (field_names<T>[i] == name) return i;
    return field_count<T>;
}

} // namespace agentry::reflect

#endif
