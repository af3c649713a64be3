// SPDX-License-Identifier: BSL-1.0
#ifndef AGENTRY_TOOL_DETAIL_UNSUPPORTED_HPP
#define AGENTRY_TOOL_DETAIL_UNSUPPORTED_HPP

// The check tool<...>(f) makes before anything else reads the parameter types: the first value
// in them that has no JSON Schema, with the path of field names that leads to it and why, so
// that one diagnostic names the tool, the field and what to use instead, and nothing that would
// fail after it is instantiated.

#include <agentry/reflect/fields.hpp>
#include <agentry/reflect/detail/names.hpp>
#include <agentry/reflect/detail/shown_name.hpp>
#include <agentry/reflect/function.hpp>
#include <agentry/reflect/types.hpp>
#include <agentry/schema/json_schema.hpp>

#include <cstddef>
#include <memory>
#include <optional>
#include <string_view>
#include <type_traits>
#include <utility>
#include <variant>

namespace agentry::detail {

enum class unsupported {
    none,
    pointer,
    smart_pointer,
    character,
    byte,
    nested_optional,
    map_key,
    too_many_fields,
    filesystem_header,
    base_class,
    not_aggregate,
    docs_unknown_field,
    docs_duplicate_field,
    other,
};

/// The path of C++ names from the parameters to a value: "stops[].when".
struct field_path {
    static constexpr std::size_t capacity = 256;
    char chars[capacity]{};
    std::size_t size = 0;

    constexpr std::string_view view() const noexcept { return {chars, size}; }

    /// `head` followed by this path ("[]" and names joined as C++ would write them).
    constexpr field_path after(std::string_view head) const noexcept {
        field_path p;
        const auto put = [&](char c) {
            if (p.size != capacity) p.chars[p.size++] = c;
        };
        for (char c : head) put(c);
        if (size != 0 && chars[0] != '[' && !head.empty()) put('.');
        for (std::size_t i = 0; i != size; ++i) put(chars[i]);
        return p;
    }
};

// Converts to any base class of T, and to nothing else: T{base_probe<T>{}} compiles exactly
// when T is an aggregate whose first element is a base class.
template <class T>
struct base_probe {
    template <class B>
        requires(std::is_base_of_v<B, T> && !std::is_same_v<B, T>)
    operator B() const;
};

template <class T>
concept aggregate_with_base = std::is_class_v<T> && std::is_aggregate_v<T> && requires { T{base_probe<T>{}}; };

template <class T>
inline constexpr bool is_smart_pointer = false;
template <class T, class D>
inline constexpr bool is_smart_pointer<std::unique_ptr<T, D>> = true;
template <class T>
inline constexpr bool is_smart_pointer<std::shared_ptr<T>> = true;
template <class T>
inline constexpr bool is_smart_pointer<std::weak_ptr<T>> = true;

/// The first entry of a struct's field_docs that names no field of it, or a field an earlier
/// entry names (`duplicate`); `index` is the number of entries when there is none.
struct docs_finding {
    std::size_t index = 0;
    bool duplicate = false;
};

template <class T>
consteval docs_finding docs_problem() noexcept {
    if constexpr (!has_field_docs<T> || !reflect::aggregate<T>) {
        return {};
    } else {
        constexpr const auto& docs = T::docs;
        for (std::size_t i = 0; i != docs.size(); ++i) {
            for (std::size_t j = 0; j != i; ++j)
                if (docs.names[j] == docs.names[i]) return {i, true};
            if (reflect::field_index<T>(docs.names[i]) == reflect::field_count<T>) return {i, false};
        }
        return {docs.size(), false};
    }
}

template <class T>
consteval bool docs_wrong() noexcept {
    if constexpr (!has_field_docs<T> || !reflect::aggregate<T>) return false;
    else return docs_problem<T>().index != T::docs.size();
}

template <class T>
consteval unsupported unsupported_reason() noexcept {
    using namespace schema::detail;
    // Before kind_of: std::byte is an enum without names, and kind_of cannot count the fields
    // of a struct with a base class.
    if constexpr (std::is_same_v<T, std::byte>) return unsupported::byte;
    else if constexpr (aggregate_with_base<T>) return unsupported::base_class;
    else if constexpr (docs_wrong<T>())
        return docs_problem<T>().duplicate ? unsupported::docs_duplicate_field : unsupported::docs_unknown_field;
    else if constexpr (kind_of<T>() != kind::unsupported) return unsupported::none;
    else if constexpr (type_name_has<T>("std::filesystem::")) return unsupported::filesystem_header;
    else if constexpr (std::is_pointer_v<T>) return unsupported::pointer;
    else if constexpr (is_smart_pointer<T>) return unsupported::smart_pointer;
    else if constexpr (std::is_same_v<T, char> || std::is_same_v<T, wchar_t> || std::is_same_v<T, char8_t> ||
                       std::is_same_v<T, char16_t> || std::is_same_v<T, char32_t>)
        return unsupported::character;
    else if constexpr (is_optional<T>) return unsupported::nested_optional;
    else if constexpr (is_map<T>) return unsupported::map_key;
    else if constexpr (reflect::aggregate<T>) return unsupported::too_many_fields;
    else if constexpr (std::is_class_v<T> && !std::is_aggregate_v<T>) return unsupported::not_aggregate;
    else return unsupported::other;
}

/// The first value with no JSON Schema in T: `reason` (none when there is none), its `type`
/// and its `path`. Depth bounds the walk through recursive types.
/// Where a finding in T itself is: for its field_docs, the name of the entry.
template <class T, unsupported Reason>
consteval field_path own_path() noexcept {
    if constexpr (Reason == unsupported::docs_unknown_field || Reason == unsupported::docs_duplicate_field)
        return field_path{}.after(T::docs.names[docs_problem<T>().index]);
    else return {};
}

template <class T, std::size_t Depth = 0>
struct first_unsupported {
    static constexpr unsupported reason = Depth > 16 ? unsupported::none : unsupported_reason<T>();
    using type = T;
    static constexpr field_path path = own_path<T, reason>();
};

struct nothing_found {
    static constexpr unsupported reason = unsupported::none;
    using type = void;
    static constexpr field_path path{};
};

template <class Found>
using has_finding = std::bool_constant<Found::reason != unsupported::none>;

// The first of several candidates (members, alternatives, named parameters) that has one.
template <class... Found>
using first_of = boost::mp11::mp_at<reflect::type_list<Found..., nothing_found>,
                                    boost::mp11::mp_find_if<reflect::type_list<Found...>, has_finding>>;

// A member or a named parameter: its own finding, with its name in front of the path.
template <class Found, fixed_string Name>
struct named_finding {
    static constexpr unsupported reason = Found::reason;
    using type = typename Found::type;
    static constexpr field_path path = Found::path.after(Name.view());
};
template <class Found, class Holder, std::size_t I>
struct member_finding {
    static constexpr unsupported reason = Found::reason;
    using type = typename Found::type;
    static constexpr field_path path = Found::path.after(reflect::field_names<Holder>[I]);
};
template <class Found>
struct element_finding {
    static constexpr unsupported reason = Found::reason;
    using type = typename Found::type;
    static constexpr field_path path = Found::path.after("[]");
};

template <class T, std::size_t Depth>
consteval bool walks_into() noexcept {
    return Depth <= 16 && unsupported_reason<T>() == unsupported::none;
}

template <class T, std::size_t Depth>
    requires(walks_into<T, Depth>() && (schema::detail::kind_of<T>() == schema::detail::kind::optional ||
                                        schema::detail::kind_of<T>() == schema::detail::kind::constrained))
struct first_unsupported<T, Depth> : first_unsupported<std::remove_cv_t<typename T::value_type>, Depth + 1> {};

template <class T, std::size_t Depth>
    requires(walks_into<T, Depth>() && (schema::detail::kind_of<T>() == schema::detail::kind::array ||
                                        schema::detail::kind_of<T>() == schema::detail::kind::fixed_array ||
                                        schema::detail::kind_of<T>() == schema::detail::kind::set))
struct first_unsupported<T, Depth>
    : element_finding<first_unsupported<std::remove_cv_t<typename T::value_type>, Depth + 1>> {};

template <class T, std::size_t Depth>
    requires(walks_into<T, Depth>() && schema::detail::kind_of<T>() == schema::detail::kind::map)
struct first_unsupported<T, Depth>
    : element_finding<first_unsupported<std::remove_cv_t<typename T::mapped_type>, Depth + 1>> {};

template <class... A, std::size_t Depth>
    requires(walks_into<std::variant<A...>, Depth>())
struct first_unsupported<std::variant<A...>, Depth> : first_of<first_unsupported<std::remove_cv_t<A>, Depth + 1>...> {};

template <class T, std::size_t Depth, class Indices>
struct members_of;
template <class T, std::size_t Depth, std::size_t... I>
struct members_of<T, Depth, std::index_sequence<I...>>
    : first_of<member_finding<first_unsupported<std::remove_cv_t<reflect::field_type<I, T>>, Depth + 1>, T, I>...> {};

template <class T, std::size_t Depth>
    requires(walks_into<T, Depth>() && schema::detail::kind_of<T>() == schema::detail::kind::object &&
             reflect::aggregate<T> && !schema::detail::is_named_parameters<T>)
struct first_unsupported<T, Depth> : members_of<T, Depth, std::make_index_sequence<reflect::field_count<T>>> {};

template <class... A, fixed_string... N, std::size_t Depth>
struct first_unsupported<named_parameters<reflect::type_list<A...>, N...>, Depth>
    : first_of<named_finding<first_unsupported<std::remove_cvref_t<A>, Depth + 1>, N>...> {};

/// The path of field names to the value, as shown_name makes it (the tool's name is in
/// tool_named<...>).
template <auto... Path>
struct field_named {};

/// The message of each reason (X(reason, text)). "tool<...>" and "in field_named<...>" stand for
/// the tool and the path, which the template arguments of unsupported_parameter show; where the
/// compiler takes a computed message (C++26, P2741) they are written into the text instead.
#define AGENTRY_UNSUPPORTED_MESSAGES(X) \
    X(pointer, \
      "agentry: tool<...>: the parameter in field_named<...> is a pointer, which has no JSON Schema; " \
      "use the value type, or std::optional<T> for a value that may be absent") \
    X(smart_pointer, \
      "agentry: tool<...>: the parameter in field_named<...> is a smart pointer (std::unique_ptr, " \
      "std::shared_ptr or std::weak_ptr), which has no JSON Schema; take the value T itself, or " \
      "std::optional<T> for a value that may be absent") \
    X(character, \
      "agentry: tool<...>: the parameter in field_named<...> is a character type, which has no JSON " \
      "Schema; use std::string for text or std::int8_t for a small number") \
    X(byte, \
      "agentry: tool<...>: the parameter in field_named<...> is std::byte, which has no JSON Schema; " \
      "use std::uint8_t for a number, or std::string for binary data sent as base64") \
    X(nested_optional, \
      "agentry: tool<...>: the parameter in field_named<...> is std::optional<std::optional<T>>, which " \
      "has no JSON Schema; use one std::optional") \
    X(map_key, \
      "agentry: tool<...>: the parameter in field_named<...> is a map whose key type is not a string, " \
      "an integer or an enum; JSON object keys are strings, so use std::map<std::string, T>") \
    X(too_many_fields, \
      "agentry: tool<...>: the struct in field_named<...> has more than 64 fields; group some of them " \
      "into a nested struct") \
    X(filesystem_header, \
      "agentry: std::filesystem::path needs #include <agentry/schema/adapters/filesystem.hpp> (left " \
      "out of the other headers, as <filesystem> is costly to compile); it is then sent as a string") \
    X(base_class, \
      "agentry: tool<...>: the struct in field_named<...> has a base class, whose fields cannot be " \
      "reflected; put the base's fields in the struct itself, or make the base a member") \
    X(docs_unknown_field, \
      "agentry: field_docs names a field the struct does not have (the last name of the path in " \
      "field_named<...>); fix the name or remove the entry") \
    X(docs_duplicate_field, \
      "agentry: field_docs describes the same field twice (the last name of the path in " \
      "field_named<...>); keep one entry") \
    X(not_aggregate, \
      "agentry: tool<...>: the type in field_named<...> is a class with a constructor, private members " \
      "or virtual functions, so its fields cannot be reflected; use a plain struct with public fields " \
      "(an aggregate) and convert to the class inside the tool") \
    X(other, \
      "agentry: tool<...>: the parameter in field_named<...> has a type with no JSON Schema; use bool, " \
      "an integer, float, double, std::string, an enum, a struct, std::optional, std::vector, " \
      "std::array, std::set, std::map<std::string, T>, std::variant, agentry::constrained or " \
      "agentry::raw_json")

#if defined(__cpp_static_assert) && __cpp_static_assert >= 202306L
consteval std::string_view unsupported_text(unsupported reason) noexcept {
    switch (reason) {
#define AGENTRY_UNSUPPORTED_CASE(reason, text) \
    case unsupported::reason: return text;
        AGENTRY_UNSUPPORTED_MESSAGES(AGENTRY_UNSUPPORTED_CASE)
#undef AGENTRY_UNSUPPORTED_CASE
    default: return {};
    }
}

/// A message computed at compile time (static_assert takes one since C++26).
struct computed_message {
    char chars[1024]{};
    std::size_t length = 0;
    constexpr void append(std::string_view text) noexcept {
        for (char c : text)
            if (length != sizeof chars) chars[length++] = c;
    }
    constexpr std::size_t size() const noexcept { return length; }
    constexpr const char* data() const noexcept { return chars; }
};

/// The message of `Reason` with the tool's name and the path written in: `tool "plan_trip"`,
/// `the parameter "stops[].weird_field"`.
template <unsupported Reason, class Tool, class Field>
consteval computed_message named_message() noexcept {
    const std::string_view text = unsupported_text(Reason);
    const std::string_view tool = shown_text<Tool>::view();
    const std::string_view field = shown_text<Field>::view();
    // The path is empty where the tool's arguments themselves are the value.
    const auto append_field = [&](computed_message& m) {
        if (field.empty()) {
            m.append("(the tool's arguments)");
        } else {
            m.append("\"");
            m.append(field);
            m.append("\"");
        }
    };
    computed_message m;
    for (std::size_t i = 0; i < text.size();) {
        const std::string_view rest = text.substr(i);
        if (rest.starts_with("tool<...>")) {
            m.append("tool \"");
            m.append(tool);
            m.append("\"");
            i += std::string_view("tool<...>").size();
        } else if (rest.starts_with("in field_named<...>")) {
            append_field(m);
            i += std::string_view("in field_named<...>").size();
        } else if (rest.starts_with("field_named<...>")) {
            append_field(m);
            i += std::string_view("field_named<...>").size();
        } else {
            m.append(rest.substr(0, 1));
            ++i;
        }
    }
    return m;
}
#endif

/// Instantiated for a parameter type with no JSON Schema; the tool, the path to the value and
/// its type are its template arguments.
template <class Tool, class Field, class Type, unsupported Reason>
struct unsupported_parameter {
#if defined(__cpp_static_assert) && __cpp_static_assert >= 202306L
    static_assert(Reason == unsupported::none, named_message<Reason, Tool, Field>());
#else
#define AGENTRY_UNSUPPORTED_ASSERT(reason, text) static_assert(Reason != unsupported::reason, text);
    AGENTRY_UNSUPPORTED_MESSAGES(AGENTRY_UNSUPPORTED_ASSERT)
#undef AGENTRY_UNSUPPORTED_ASSERT
#endif
};

/// Instantiated for a callable whose operator() is not const (a mutable lambda, a function
/// object that changes itself): the registry is immutable and called from several threads.
template <class Tool>
struct mutable_callable {
    static_assert(sizeof(Tool) == 0,
                  "agentry: tool<...>(f): f's operator() is not const (a mutable lambda or a function object that "
                  "changes its own state); tools are called through a const registry, from several threads at once: "
                  "make operator() const and keep changing state behind a pointer or reference to a synchronised "
                  "object");
};

template <field_path Path>
consteval auto shown_path() noexcept {
    return shown_name<fixed_prefix<Path.size>(Path.view()), field_named>();
}

/// The diagnostic for the first value in P with no JSON Schema (P must have one), as a type;
/// instantiating it shows the diagnostic.
template <fixed_string Name, class P>
using unsupported_report =
    unsupported_parameter<decltype(shown_name<Name, tool_named>()), decltype(shown_path<first_unsupported<P>::path>()),
                          typename first_unsupported<P>::type, first_unsupported<P>::reason>;

template <class F, class List>
inline constexpr bool const_callable = true;
template <class F, class... A>
    requires std::is_class_v<F>
inline constexpr bool const_callable<F, reflect::type_list<A...>> = std::is_invocable_v<const F&, A...>;

} // namespace agentry::detail

#endif
