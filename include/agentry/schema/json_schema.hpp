// SPDX-License-Identifier: BSL-1.0
#ifndef AGENTRY_SCHEMA_JSON_SCHEMA_HPP
#define AGENTRY_SCHEMA_JSON_SCHEMA_HPP

// agentry::json_schema<T, Dialect>(): the JSON Schema of T as a compile-time constant.
//
// The text is produced by constant evaluation in two passes over the same writer: the first
// measures, the second fills a std::array of exactly that size with static storage. No
// std::string is used (Clang 14 with libstdc++ 12 rejects it in constant expressions).
//
// Cost: one writer instantiation per distinct (type, dialect); an aggregate's fields are a
// constexpr table walked by a loop, not a recursive template.

#include <agentry/reflect/enum.hpp>
#include <agentry/reflect/fields.hpp>
#include <agentry/reflect/fixed_string.hpp>
#include <agentry/reflect/function.hpp>
#include <agentry/schema/constraints.hpp>
#include <agentry/schema/detail/sink.hpp>
#include <agentry/schema/dialect.hpp>
#include <agentry/schema/field_docs.hpp>
#include <agentry/schema/raw_json.hpp>

#include <array>
#include <cstddef>
#include <cstdint>
#include <limits>
#include <map>
#include <optional>
#include <set>
#include <string>
#include <string_view>
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
    fixed_array,
    set,
    array,
    map,
    object,
    unsupported,
};

template <class T>
consteval kind kind_of() noexcept {
    if constexpr (std::is_same_v<T, bool>) return kind::boolean;
    else if constexpr (std::is_same_v<T, char> || std::is_same_v<T, wchar_t> || std::is_same_v<T, char8_t> ||
                       std::is_same_v<T, char16_t> || std::is_same_v<T, char32_t>)
        return kind::unsupported;
    else if constexpr (std::is_integral_v<T>) return kind::integer;
    else if constexpr (std::is_same_v<T, float> || std::is_same_v<T, double>) return kind::number;
    else if constexpr (std::is_enum_v<T>) return kind::enumeration;
    else if constexpr (is_std_string<T>) return kind::string;
    else if constexpr (is_constrained<T>) return kind::constrained;
    else if constexpr (std::is_same_v<T, raw_json>) return kind::any;
    else if constexpr (is_optional<T>) return is_optional<typename T::value_type> ? kind::unsupported : kind::optional;
    else if constexpr (is_variant<T>) return kind::variant;
    else if constexpr (std::is_same_v<T, std::monostate>) return kind::null;
    else if constexpr (is_std_array<T>) return kind::fixed_array;
    else if constexpr (is_set<T>) return kind::set;
    else if constexpr (is_vector<T>) return kind::array;
    else if constexpr (is_map<T>)
        return is_std_string<typename T::key_type> ? kind::map : kind::unsupported;
    else if constexpr (is_named_parameters<T>) return kind::object;
    else if constexpr (reflect::aggregate<T>)
        return reflect::field_count<T> <= reflect::detail::max_fields ? kind::object : kind::unsupported;
    else return kind::unsupported;
}

template <class T>
inline constexpr bool always_false = false;

/// Instantiated for a type that has no JSON Schema; its name appears in the compiler's note.
template <class T>
struct no_json_schema_for {
    static_assert(!std::is_pointer_v<T>,
                  "agentry: a pointer has no JSON Schema; use the value type, or std::optional<T> for a value that may "
                  "be absent");
    static_assert(!std::is_same_v<T, std::string_view>,
                  "agentry: std::string_view does not own its characters and has no JSON Schema here; use std::string");
    static_assert(!std::is_same_v<T, char>,
                  "agentry: char has no JSON Schema; use std::string for text or std::int8_t for a small number");
    static_assert(!is_optional<T>, "agentry: std::optional<std::optional<T>> has no JSON Schema; use one std::optional");
    static_assert(!is_map<T>, "agentry: a map's key type must be std::string, as JSON object keys are strings");
    static_assert(!reflect::aggregate<T> || is_std_array<T>,
                  "agentry: an aggregate may have at most 64 fields; group some of them into a nested struct");
    static_assert(is_std_array<T> || reflect::aggregate<T> || is_map<T> || is_optional<T> || std::is_pointer_v<T> ||
                      std::is_same_v<T, std::string_view> || std::is_same_v<T, char>,
                  "agentry: this type has no JSON Schema (its name is in the 'no_json_schema_for<T>' note); use bool, "
                  "an integer, float, double, std::string, an enum, an aggregate struct, std::optional, std::vector, "
                  "std::array, std::set, std::map<std::string, T>, std::variant, agentry::constrained or "
                  "agentry::raw_json, or wrap it in one of those");
};

template <class E>
struct enum_has_names {
    static_assert(reflect::enum_count<E> != 0,
                  "agentry: this enum has no enumerator in agentry::enum_range<E> (default -128 ..= 127), so its names "
                  "cannot be reflected; give it enumerators in that range or specialise agentry::enum_range<E>");
    static constexpr bool value = true;
};

template <class T>
inline constexpr char type_tag = 0;

template <class T>
consteval std::string_view pretty_type() noexcept {
    return __PRETTY_FUNCTION__;
}

// The unqualified name of a class, for "$defs" keys: "node" for "ns::node".
template <class T>
consteval std::string_view short_type_name() noexcept {
    const std::string_view p = pretty_type<T>();
    const std::size_t at = p.find("T = ");
    std::size_t end = at + 4;
    int angle = 0;
    std::size_t begin = end;
    while (end < p.size()) {
        const char c = p[end];
        if (c == '<') ++angle;
        else if (c == '>') --angle;
        else if ((c == ';' || c == ']') && angle == 0) break;
        else if (c == ':' && angle == 0) begin = end + 1;
        ++end;
    }
    std::string_view name = p.substr(begin, end - begin);
    const std::size_t open = name.find('<');
    return open == std::string_view::npos ? name : name.substr(0, open);
}

template <class T>
inline constexpr auto short_type_name_text =
    reflect::detail::static_text<short_type_name<T>().size()>(short_type_name<T>());

// Everything written around a value's own keywords: its field's description and default,
// whether null is allowed, and the keywords and notes of its constraints.
struct decor {
    std::string_view description;
    std::string_view default_json;
    bool nullable = false;
    bool bounded_below = false;
    bool bounded_above = false;
    void (*keywords)(sink&) = nullptr;
    void (*notes)(sink&, bool&) = nullptr;
    /// Notes of the type itself (a set's uniqueness, an array's length) the dialect cannot state.
    void (*type_notes)(sink&, bool&) = nullptr;
};

template <class D>
constexpr void begin_note(sink& s, bool& first) noexcept {
    if (!first) s.put(' ');
    first = false;
}

template <class D>
constexpr std::string_view type_word(std::string_view lower, std::string_view upper) noexcept {
    return D::rules.upper_case_types ? upper : lower;
}

template <class D>
constexpr void open_typed(sink& s, std::string_view lower, std::string_view upper, const decor& d) noexcept {
    s.put("{\"type\":");
    if (d.nullable && D::rules.type_arrays) {
        ++s.union_types;
        s.put("[\"");
        s.put(type_word<D>(lower, upper));
        s.put("\",\"null\"]");
    } else {
        s.put_quoted(type_word<D>(lower, upper));
    }
}

// Closes a schema object: constraint keywords, nullable, description (with the notes of
// constraints the dialect cannot state), default.
template <class D>
constexpr void close_schema(sink& s, const decor& d, bool nullable_written = false) noexcept {
    if (d.keywords) d.keywords(s);
    if (d.nullable && !D::rules.type_arrays && !nullable_written) s.put(",\"nullable\":true");
    const bool default_as_note = !D::rules.default_keyword && !d.default_json.empty();
    bool has_notes = false;
    if (d.notes || d.type_notes) {
        sink probe;
        bool first = true;
        if (d.type_notes) d.type_notes(probe, first);
        if (d.notes) d.notes(probe, first);
        has_notes = probe.size != 0;
    }
    if (!d.description.empty() || has_notes || default_as_note) {
        s.put(",\"description\":\"");
        s.put_escaped(d.description);
        bool first = d.description.empty();
        if (!first && (has_notes || default_as_note) && d.description.back() != '.') s.put('.');
        if (d.type_notes) d.type_notes(s, first);
        if (d.notes) d.notes(s, first);
        if (default_as_note) {
            begin_note<D>(s, first);
            s.put("Default: ");
            s.put_escaped(d.default_json);
            s.put('.');
        }
        s.put('"');
    }
    if (D::rules.default_keyword && !d.default_json.empty()) {
        s.put(",\"default\":");
        s.put(d.default_json);
    }
    s.put('}');
}

template <class T, class D>
constexpr void write_schema(sink& s, const decor& d) noexcept;

// ---- constraints --------------------------------------------------------------------------

template <class D, class C>
consteval bool states_keyword() noexcept {
    if constexpr (!(D::rules.keywords & keyword_bit(C::keyword))) return false;
    else if constexpr (C::keyword == constraint_keyword::format) return (D::rules.formats & format_bit(C::value)) != 0;
    else if constexpr (C::keyword == constraint_keyword::min_items) return C::value <= D::rules.max_min_items;
    else return true;
}

template <class D, class C>
constexpr void write_keyword(sink& s) noexcept {
    if constexpr (states_keyword<D, C>()) {
        s.put(',');
        s.put_key(keyword_name(C::keyword));
        if constexpr (C::target == constraint_target::number) s.put(C::value.view());
        else if constexpr (C::keyword == constraint_keyword::pattern) s.put_string(C::value);
        else if constexpr (C::keyword == constraint_keyword::format) s.put_quoted(format_name(C::value));
        else if constexpr (C::keyword == constraint_keyword::unique_items) s.put("true");
        else s.put_unsigned(C::value);
    }
}

template <class D, class C>
constexpr void write_note(sink& s, bool& first) noexcept {
    if constexpr (!states_keyword<D, C>()) {
        begin_note<D>(s, first);
        constexpr auto k = C::keyword;
        if constexpr (k == constraint_keyword::minimum) s.put("Must be at least "), s.put(C::value.view());
        else if constexpr (k == constraint_keyword::exclusive_minimum) s.put("Must be greater than "), s.put(C::value.view());
        else if constexpr (k == constraint_keyword::maximum) s.put("Must be at most "), s.put(C::value.view());
        else if constexpr (k == constraint_keyword::exclusive_maximum) s.put("Must be less than "), s.put(C::value.view());
        else if constexpr (k == constraint_keyword::multiple_of) s.put("Must be a multiple of "), s.put(C::value.view());
        else if constexpr (k == constraint_keyword::min_length) s.put("At least "), s.put_unsigned(C::value), s.put(C::value == 1 ? " character" : " characters");
        else if constexpr (k == constraint_keyword::max_length) s.put("At most "), s.put_unsigned(C::value), s.put(C::value == 1 ? " character" : " characters");
        else if constexpr (k == constraint_keyword::pattern) s.put("Must match the regular expression "), s.put_escaped(C::value);
        else if constexpr (k == constraint_keyword::format) s.put("Format: "), s.put(format_name(C::value));
        else if constexpr (k == constraint_keyword::min_items) s.put("At least "), s.put_unsigned(C::value), s.put(C::value == 1 ? " item" : " items");
        else if constexpr (k == constraint_keyword::max_items) s.put("At most "), s.put_unsigned(C::value), s.put(C::value == 1 ? " item" : " items");
        else s.put("Items must be unique");
        s.put('.');
    }
}

template <class D, class... C>
constexpr void write_keywords(sink& s) noexcept {
    (write_keyword<D, C>(s), ...);
}

template <class D, class... C>
constexpr void write_notes(sink& s, bool& first) noexcept {
    (write_note<D, C>(s, first), ...);
}

template <class T, class D, class... C>
constexpr void write_constrained(sink& s, decor d, reflect::type_list<C...>) noexcept {
    d.keywords = &write_keywords<D, C...>;
    d.notes = &write_notes<D, C...>;
    d.bounded_below = agentry::detail::keyword_uses<constraint_keyword::minimum, C...> +
                          agentry::detail::keyword_uses<constraint_keyword::exclusive_minimum, C...> !=
                      0;
    d.bounded_above = agentry::detail::keyword_uses<constraint_keyword::maximum, C...> +
                          agentry::detail::keyword_uses<constraint_keyword::exclusive_maximum, C...> !=
                      0;
    write_schema<T, D>(s, d);
}

// ---- scalars ------------------------------------------------------------------------------

template <class T>
inline constexpr number_literal natural_minimum = std::numeric_limits<T>::min();
template <class T>
inline constexpr number_literal natural_maximum = std::numeric_limits<T>::max();

template <class T, class D>
constexpr void write_integer(sink& s, const decor& d) noexcept {
    open_typed<D>(s, "integer", "INTEGER", d);
    constexpr bool has_min = (D::rules.keywords & keyword_bit(constraint_keyword::minimum)) != 0;
    constexpr bool has_max = (D::rules.keywords & keyword_bit(constraint_keyword::maximum)) != 0;
    if (has_min && !d.bounded_below) {
        s.put(",\"minimum\":");
        s.put(natural_minimum<T>.view());
    }
    if (has_max && !d.bounded_above) {
        s.put(",\"maximum\":");
        s.put(natural_maximum<T>.view());
    }
    close_schema<D>(s, d);
}

template <class E, class D>
constexpr void write_enum(sink& s, const decor& d) noexcept {
    static_assert(enum_has_names<E>::value);
    open_typed<D>(s, "string", "STRING", d);
    s.put(",\"enum\":[");
    bool first = true;
    for (const auto& entry : reflect::enum_entries<E>) {
        if (!first) s.put(',');
        first = false;
        s.put_quoted(entry.second);
    }
    if (d.nullable && D::rules.type_arrays) s.put(",null");
    s.put(']');
    s.enum_values += reflect::enum_count<E>;
    if (s.enum_values > D::rules.max_enum_values) s.fail(schema_error::too_many_enum_values);
    close_schema<D>(s, d);
}

// ---- compound values ----------------------------------------------------------------------

template <class D>
constexpr bool enter(sink& s) noexcept {
    if (++s.depth > D::rules.max_depth || s.depth > sink::max_depth) {
        s.fail(schema_error::too_deep);
        --s.depth;
        return false;
    }
    s.open_types[s.depth - 1] = nullptr;
    return true;
}

// A set where uniqueItems is not stated, or a std::array whose length is not.
template <class T, class D>
consteval bool sequence_needs_note() noexcept {
    if constexpr (is_set<T>) return (D::rules.keywords & keyword_bit(constraint_keyword::unique_items)) == 0;
    else if constexpr (is_std_array<T>)
        return std::tuple_size_v<T> > D::rules.max_min_items ||
               (D::rules.keywords & keyword_bit(constraint_keyword::max_items)) == 0;
    else return false;
}

template <class T, class D>
constexpr void write_sequence(sink& s, const decor& d) noexcept {
    using V = std::remove_cv_t<typename T::value_type>;
    open_typed<D>(s, "array", "ARRAY", d);
    s.put(",\"items\":");
    const std::size_t mark = s.push_path("[]");
    write_schema<V, D>(s, {});
    s.pop_path(mark);
    if constexpr (is_std_array<T>) {
        constexpr std::size_t n = std::tuple_size_v<T>;
        if constexpr (n <= D::rules.max_min_items) {
            s.put(",\"minItems\":");
            s.put_unsigned(n);
        }
        if constexpr ((D::rules.keywords & keyword_bit(constraint_keyword::max_items)) != 0) {
            s.put(",\"maxItems\":");
            s.put_unsigned(n);
        }
    }
    if constexpr (is_set<T> && (D::rules.keywords & keyword_bit(constraint_keyword::unique_items)) != 0)
        s.put(",\"uniqueItems\":true");
    decor tail = d;
    if constexpr (sequence_needs_note<T, D>()) {
        tail.type_notes = [](sink& out, bool& first) {
            begin_note<D>(out, first);
            if constexpr (is_set<T>) {
                out.put("Items must be unique.");
            } else {
                out.put("Exactly ");
                out.put_unsigned(std::tuple_size_v<T>);
                out.put(std::tuple_size_v<T> == 1 ? " item." : " items.");
            }
        };
    }
    close_schema<D>(s, tail);
}

template <class T, class D>
constexpr void write_map(sink& s, const decor& d) noexcept {
    if constexpr (!D::rules.maps) {
        s.fail(schema_error::map_not_expressible);
    } else {
        open_typed<D>(s, "object", "OBJECT", d);
        s.put(",\"additionalProperties\":");
        const std::size_t mark = s.push_path("{}");
        write_schema<std::remove_cv_t<typename T::mapped_type>, D>(s, {});
        s.pop_path(mark);
        close_schema<D>(s, d);
    }
}

// anyOf of the alternatives. std::monostate is the null alternative: {"type":"null"}, or in
// OpenAPI 3.0 dialects (which have no null type) "nullable":true beside the anyOf.
template <class D, class... A>
constexpr void write_variant(sink& s, const decor& d, reflect::type_list<A...>) noexcept {
    constexpr bool has_null = (std::is_same_v<std::remove_cv_t<A>, std::monostate> || ...);
    static_assert(!(std::is_same_v<std::remove_cv_t<A>, std::monostate> && ...),
                  "agentry: a std::variant of std::monostate alone holds no value; remove it or use std::optional");
    ++s.union_types;
    s.put("{\"anyOf\":[");
    std::size_t i = 0;
    const auto alternative = [&]<class V>(std::type_identity<V>) {
        if constexpr (std::is_same_v<V, std::monostate> && !D::rules.type_arrays) return;
        else {
            if (i++ != 0) s.put(',');
            write_schema<V, D>(s, {});
        }
    };
    (alternative(std::type_identity<std::remove_cv_t<A>>{}), ...);
    if (d.nullable && !has_null && D::rules.type_arrays) s.put(",{\"type\":\"null\"}");
    s.put(']');
    const bool nullable = d.nullable || has_null;
    if (nullable && !D::rules.type_arrays) s.put(",\"nullable\":true");
    close_schema<D>(s, d, true);
}

template <class V>
struct variant_types;
template <class... A>
struct variant_types<std::variant<A...>> {
    using type = reflect::type_list<A...>;
};

template <class D>
constexpr void write_any(sink& s, const decor& d) noexcept {
    if constexpr (!D::rules.any_value) {
        s.fail(schema_error::raw_json_not_expressible);
    } else {
        s.put('{');
        if (!d.description.empty()) {
            s.put_key("description");
            s.put_string(d.description);
        }
        s.put('}');
    }
}

// ---- objects ------------------------------------------------------------------------------

// One property of an object, as data: the walk over properties is a loop, not a template.
struct property {
    std::string_view name;
    std::string_view doc;
    std::string_view default_json;
    bool optional = false;
    void (*write)(sink&, const decor&) = nullptr;
};

template <class T, class D>
constexpr void write_schema_fn(sink& s, const decor& d) noexcept {
    write_schema<T, D>(s, d);
}

template <class F>
struct property_value {
    using type = std::remove_cv_t<F>;
};
template <class V>
struct property_value<std::optional<V>> {
    using type = std::remove_cv_t<V>;
};
template <class V>
struct property_value<std::optional<std::optional<V>>> {
    using type = std::optional<std::optional<V>>;  // no schema: diagnosed by the writer
};
template <class F>
using property_value_t = typename property_value<std::remove_cv_t<F>>::type;

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

template <class T, std::size_t I>
consteval auto default_text() noexcept {
    constexpr std::size_t capacity = 64;
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
    else return {default_text_v<T, I>.data(), std::size_t(default_text_v<T, I>[64])};
}

template <class T, class D>
struct object_table;

template <class T, class D>
    requires reflect::aggregate<T>
struct object_table<T, D> {
    static constexpr std::size_t size = reflect::field_count<T>;
    static constexpr auto properties = []<std::size_t... I>(std::index_sequence<I...>) {
        return std::array<property, sizeof...(I)>{property{
            reflect::field_names<T>[I],
            [] {
                if constexpr (has_field_docs<T>) return T::docs.find(reflect::field_names<T>[I]);
                else return std::string_view{};
            }(),
            default_of<T, I>(),
            is_optional<std::remove_cv_t<reflect::field_type<I, T>>>,
            &write_schema_fn<property_value_t<reflect::field_type<I, T>>, D>,
        }...};
    }(std::make_index_sequence<size>{});
};

template <class... A, fixed_string... N, class D>
struct object_table<named_parameters<reflect::type_list<A...>, N...>, D> {
    static constexpr std::size_t size = sizeof...(A);
    static constexpr std::array<property, sizeof...(A)> properties{property{
        N.view(),
        {},
        {},
        is_optional<std::remove_cvref_t<A>>,
        &write_schema_fn<property_value_t<std::remove_cvref_t<A>>, D>,
    }...};
};

template <class T>
constexpr void check_docs(sink& s) noexcept {
    if constexpr (has_field_docs<T>) {
        for (std::size_t i = 0; i != T::docs.size(); ++i) {
            const std::string_view name = T::docs.names[i];
            std::size_t seen = 0;
            for (std::size_t j = 0; j != i; ++j) seen += T::docs.names[j] == name;
            if (reflect::field_index<T>(name) == reflect::field_count<T> || seen != 0) {
                const std::size_t mark = s.push_path(name);
                s.fail(seen != 0 ? schema_error::duplicate_field_in_docs : schema_error::unknown_field_in_docs);
                s.pop_path(mark);
            }
        }
    }
}

template <class T, class D>
constexpr void write_object_body(sink& s, const decor& d) noexcept;

template <class T, class D>
constexpr void write_definition(sink& s) noexcept {
    write_object_body<T, D>(s, {});
}

template <class T, class D>
constexpr void write_object(sink& s, const decor& d) noexcept {
    const void* id = &type_tag<T>;
    bool recursive = false;
    for (std::size_t i = 0; i != s.depth && i != sink::max_depth; ++i) recursive = recursive || s.open_types[i] == id;
    if (!recursive) {
        write_object_body<T, D>(s, d);
        return;
    }
    if constexpr (!D::rules.refs) {
        s.fail(schema_error::recursive_type);
    } else {
        const bool root = s.root == id;
        bool known = root;
        for (std::size_t i = 0; i != s.definition_count; ++i) known = known || s.definitions[i].id == id;
        if (!known) {
            if (s.definition_count == sink::max_definitions) {
                s.fail(schema_error::too_many_recursive_types);
                return;
            }
            std::size_t same_name = 0;
            for (std::size_t i = 0; i != s.definition_count; ++i)
                same_name += s.definitions[i].name == short_type_name_text<T>.view();
            s.definitions[s.definition_count++] = {id, short_type_name_text<T>.view(), same_name,
                                                   &write_definition<T, D>};
        }
        const bool wrap = d.nullable;
        if (wrap) s.put("{\"anyOf\":[");
        if (root) {
            s.put("{\"$ref\":\"#\"}");
        } else {
            s.put("{\"$ref\":\"#/$defs/");
            for (std::size_t i = 0; i != s.definition_count; ++i)
                if (s.definitions[i].id == id) s.put_definition_name(s.definitions[i]);
            s.put("\"}");
        }
        if (wrap) s.put(",{\"type\":\"null\"}]}");
    }
}

template <class T, class D>
constexpr void write_object_body(sink& s, const decor& d) noexcept {
    using table = object_table<T, D>;
    if constexpr (!is_named_parameters<T>) check_docs<T>(s);
    if (!enter<D>(s)) return;
    s.open_types[s.depth - 1] = &type_tag<T>;
    open_typed<D>(s, "object", "OBJECT", d);
    s.put(",\"properties\":{");
    for (std::size_t i = 0; i != table::size; ++i) {
        const property& p = table::properties[i];
        if (i != 0) s.put(',');
        s.put_key(p.name);
        const std::size_t mark = s.push_path(p.name);
        decor field;
        field.description = p.doc;
        field.default_json = p.default_json;
        field.nullable = p.optional && D::rules.all_required;
        p.write(s, field);
        s.pop_path(mark);
    }
    s.put('}');
    s.properties += table::size;
    if (s.properties > D::rules.max_properties) s.fail(schema_error::too_many_properties);
    bool any_required = false;
    for (std::size_t i = 0; i != table::size; ++i) {
        const property& p = table::properties[i];
        if (p.optional && !D::rules.all_required) {
            ++s.optional_properties;
            continue;
        }
        s.put(any_required ? "," : ",\"required\":[");
        any_required = true;
        s.put_quoted(p.name);
    }
    if (any_required) s.put(']');
    else if (D::rules.all_required) s.put(",\"required\":[]");
    if constexpr (D::rules.closed_objects) s.put(",\"additionalProperties\":false");
    close_schema<D>(s, d);
    --s.depth;
}

// ---- dispatch on the kind of T ------------------------------------------------------------

template <class T, class D>
constexpr void write_schema(sink& s, const decor& d) noexcept {
    constexpr kind k = kind_of<T>();
    if constexpr (k == kind::boolean) {
        open_typed<D>(s, "boolean", "BOOLEAN", d);
        close_schema<D>(s, d);
    } else if constexpr (k == kind::integer) {
        write_integer<T, D>(s, d);
    } else if constexpr (k == kind::number) {
        open_typed<D>(s, "number", "NUMBER", d);
        if constexpr ((D::rules.keywords & keyword_bit(constraint_keyword::minimum)) != 0) {
            // The range of the type, so that a value the schema admits is one it holds.
            if constexpr (std::is_same_v<T, float>) {
                if (!d.bounded_below) s.put(",\"minimum\":-3.4028234663852886e38");
                if (!d.bounded_above) s.put(",\"maximum\":3.4028234663852886e38");
            } else {
                if (!d.bounded_below) s.put(",\"minimum\":-1.7976931348623157e308");
                if (!d.bounded_above) s.put(",\"maximum\":1.7976931348623157e308");
            }
        }
        close_schema<D>(s, d);
    } else if constexpr (k == kind::string) {
        open_typed<D>(s, "string", "STRING", d);
        close_schema<D>(s, d);
    } else if constexpr (k == kind::enumeration) {
        write_enum<T, D>(s, d);
    } else if constexpr (k == kind::constrained) {
        if constexpr (T::well_formed) write_constrained<std::remove_cv_t<typename T::value_type>, D>(s, d, typename T::constraints{});
        else s.fail(schema_error::unsupported_type);
    } else if constexpr (k == kind::any) {
        write_any<D>(s, d);
    } else if constexpr (k == kind::optional) {
        decor nullable = d;
        nullable.nullable = true;
        write_schema<std::remove_cv_t<typename T::value_type>, D>(s, nullable);
    } else if constexpr (k == kind::variant) {
        write_variant<D>(s, d, typename variant_types<T>::type{});
    } else if constexpr (k == kind::null) {
        if constexpr (D::rules.type_arrays) {
            s.put("{\"type\":\"null\"");
            close_schema<D>(s, d, true);
        } else {
            // OpenAPI 3.0 has no null type: a nullable value of no other type.
            s.put("{\"nullable\":true");
            close_schema<D>(s, d, true);
        }
    } else if constexpr (k == kind::fixed_array || k == kind::set || k == kind::array) {
        if (!enter<D>(s)) return;
        write_sequence<T, D>(s, d);
        --s.depth;
    } else if constexpr (k == kind::map) {
        if (!enter<D>(s)) return;
        write_map<T, D>(s, d);
        --s.depth;
    } else if constexpr (k == kind::object) {
        write_object<T, D>(s, d);
    } else {
        static_assert(sizeof(no_json_schema_for<T>) != 0);
        s.fail(schema_error::unsupported_type);
    }
}

// The root, followed by "$defs" for the recursive types met on the way.
template <class T, class D>
constexpr void write_root(sink& s) noexcept {
    s.root = &type_tag<T>;
    write_schema<T, D>(s, {});
    if (s.definition_count == 0 || s.failed()) return;
    --s.size;  // reopen the root object
    s.put(",\"$defs\":{");
    for (std::size_t i = 0; i != s.definition_count; ++i) {
        if (i != 0) s.put(',');
        s.put('"');
        s.put_definition_name(s.definitions[i]);
        s.put("\":");
        const std::size_t mark = s.push_path(s.definitions[i].name);
        s.definitions[i].write(s);
        s.pop_path(mark);
    }
    s.put("}}");
}

template <class T, class D>
struct schema_text {
    static constexpr sink measured = [] {
        sink s;
        write_root<T, D>(s);
        return s;
    }();
    static constexpr auto storage = [] {
        std::array<char, measured.size + 1> text{};
        sink s;
        s.out = text.data();
        write_root<T, D>(s);
        return text;
    }();
    static constexpr std::string_view view{storage.data(), measured.size};
};

/// The text of a name as a pack of characters: both compilers print these readably in the
/// template arguments of a diagnostic.
template <char... C>
struct in_tool {};
template <char... C>
struct at_field {};

/// Instantiated when a schema cannot be written; the dialect, the tool, the path of C++ names to
/// the value and the error appear in its template arguments.
template <class Dialect, class Tool, class Path, schema_error Error>
struct schema_diagnostic {
    static_assert(Error != schema_error::map_not_expressible,
                  "agentry: this dialect cannot express std::map<std::string, T> (it needs additionalProperties with "
                  "a schema); use a std::vector of key/value structs, or another dialect");
    static_assert(Error != schema_error::raw_json_not_expressible,
                  "agentry: this dialect cannot express agentry::raw_json (a value of any type); use a typed member");
    static_assert(Error != schema_error::recursive_type,
                  "agentry: this dialect cannot express a recursive type (it has no $ref); break the recursion, or use "
                  "a dialect with $defs");
    static_assert(Error != schema_error::too_deep,
                  "agentry: the schema nests objects and arrays deeper than this dialect allows (OpenAI strict: 10 "
                  "levels); flatten the parameter struct");
    static_assert(Error != schema_error::too_many_enum_values,
                  "agentry: the enums of this schema have more values in all than this dialect allows (OpenAI "
                  "strict: 1000); use strings for the largest ones");
    static_assert(Error != schema_error::too_many_recursive_types,
                  "agentry: the schema has more than 16 distinct recursive types; split the tool's parameters");
    static_assert(Error != schema_error::too_many_properties,
                  "agentry: the schema has more properties than this dialect allows (OpenAI strict: 5000 in all)");
    static_assert(Error != schema_error::unknown_field_in_docs,
                  "agentry: field_docs names a field the struct does not have (the last name of the path); fix the "
                  "name or remove the entry");
    static_assert(Error != schema_error::duplicate_field_in_docs,
                  "agentry: field_docs describes the same field twice (the last name of the path); keep one entry");
    static constexpr bool ok = true;
};

template <class T, class D, fixed_string Tool>
consteval bool check_schema() noexcept {
    using text = schema_text<T, D>;
    if constexpr (text::measured.error != schema_error::none &&
                  text::measured.error != schema_error::unsupported_type) {
        return []<std::size_t... I, std::size_t... J>(std::index_sequence<I...>, std::index_sequence<J...>) {
            return schema_diagnostic<D, in_tool<Tool.value[I]...>, at_field<text::measured.error_path[J]...>,
                                     text::measured.error>::ok;
        }(std::make_index_sequence<Tool.size()>{}, std::make_index_sequence<text::measured.error_path_size>{});
    }
    return true;
}

} // namespace schema::detail

/// The JSON Schema of T in dialect D, as a constant with static storage.
template <class T, schema_dialect D = dialect::standard>
constexpr std::string_view json_schema() noexcept {
    static_assert(schema::detail::check_schema<std::remove_cv_t<T>, D, "">());
    return schema::detail::schema_text<std::remove_cv_t<T>, D>::view;
}

} // namespace agentry

#endif
