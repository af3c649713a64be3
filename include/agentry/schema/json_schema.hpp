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
#include <agentry/schema/adapter.hpp>
#include <agentry/schema/constraints.hpp>
#include <agentry/schema/detail/classify.hpp>
#include <agentry/schema/detail/defaults.hpp>
#include <agentry/schema/detail/defs.hpp>
#include <agentry/schema/detail/diagnostics.hpp>
#include <agentry/schema/detail/sink.hpp>
#include <agentry/schema/dialect.hpp>
#include <agentry/schema/enum_titles.hpp>
#include <agentry/schema/field_defaults.hpp>
#include <agentry/schema/field_docs.hpp>
#include <agentry/schema/raw_json.hpp>

#include <array>
#include <cstddef>
#include <limits>
#include <optional>
#include <string_view>
#include <tuple>
#include <type_traits>
#include <utility>
#include <variant>

namespace agentry::schema::detail {

// Everything written around a value's own keywords: its field's description and default,
// whether null is allowed, and the keywords and notes of its constraints.
struct decor {
    std::string_view description;
    std::string_view default_json;
    /// The description of the value's type (agentry::adapter<T>::description), after the field's.
    std::string_view type_description;
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
    if (!d.description.empty() || !d.type_description.empty() || has_notes || default_as_note) {
        s.put(",\"description\":\"");
        bool first = true;
        std::string_view last;
        for (const std::string_view text : {d.description, d.type_description}) {
            if (text.empty()) continue;
            if (!first) {
                if (last.back() != '.') s.put('.');
                s.put(' ');
            }
            s.put_escaped(text);
            first = false;
            last = text;
        }
        if (!first && (has_notes || default_as_note) && last.back() != '.') s.put('.');
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

// A lower bound of 0 on a length or an item count holds for every value: it is written neither
// as a keyword nor as a note.
template <class C>
consteval bool vacuous() noexcept {
    if constexpr (C::keyword == constraint_keyword::min_length || C::keyword == constraint_keyword::min_items)
        return C::value == 0;
    else return false;
}

template <class D, class C>
constexpr void write_keyword(sink& s) noexcept {
    if constexpr (!vacuous<C>() && states_keyword<D, C>()) {
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
    if constexpr (!vacuous<C>() && !states_keyword<D, C>()) {
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
    constexpr bool has_min = D::rules.natural_bounds && (D::rules.keywords & keyword_bit(constraint_keyword::minimum)) != 0;
    constexpr bool has_max = D::rules.natural_bounds && (D::rules.keywords & keyword_bit(constraint_keyword::maximum)) != 0;
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

// [{"const":"name","title":"Title"},...] for the values of E (agentry::enum_titles).
template <class E>
constexpr void write_titled_values(sink& s) noexcept {
    s.put('[');
    for (std::size_t i = 0; i != reflect::enum_count<E>; ++i) {
        if (i != 0) s.put(',');
        s.put("{\"const\":");
        s.put_quoted(reflect::enum_names<E>[i]);
        s.put(",\"title\":");
        s.put_string(title_of<E>(reflect::enum_values<E>[i], reflect::enum_names<E>[i]));
        s.put('}');
    }
    s.put(']');
}

template <class E, class D>
constexpr void write_enum(sink& s, const decor& d) noexcept {
    static_assert(enum_has_names<E>::value);
    constexpr enum_title_form titles = !titled_enum<E>                           ? enum_title_form::none
                                       : legacy_enum_names<E>() && D::rules.enum_titles != enum_title_form::none
                                           ? enum_title_form::enum_names
                                           : D::rules.enum_titles;
    open_typed<D>(s, "string", "STRING", d);
    if constexpr (titles == enum_title_form::one_of) {
        s.put(",\"oneOf\":");
        write_titled_values<E>(s);
    } else {
        s.put(",\"enum\":[");
        bool first = true;
        for (const std::string_view name : reflect::enum_names<E>) {
            if (!first) s.put(',');
            first = false;
            s.put_quoted(name);
        }
        if (d.nullable && D::rules.type_arrays) s.put(",null");
        s.put(']');
        if constexpr (titles == enum_title_form::enum_names) {
            s.put(",\"enumNames\":[");
            for (std::size_t i = 0; i != reflect::enum_count<E>; ++i) {
                if (i != 0) s.put(',');
                s.put_string(title_of<E>(reflect::enum_values<E>[i], reflect::enum_names<E>[i]));
            }
            s.put(']');
        }
    }
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
    if constexpr (titled_enum<V> && D::rules.enum_titles == enum_title_form::one_of) {
        // A multi-select of titled values.
        s.put("{\"anyOf\":");
        write_titled_values<V>(s);
        s.put('}');
        s.enum_values += reflect::enum_count<V>;
    } else {
        write_schema<V, D>(s, {});
    }
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
        using K = std::remove_cv_t<typename T::key_type>;
        if constexpr (std::is_enum_v<K>) {
            static_assert(enum_has_names<K>::value);
            s.put(",\"propertyNames\":{\"enum\":[");
            bool first = true;
            for (const std::string_view name : reflect::enum_names<K>) {
                if (!first) s.put(',');
                first = false;
                s.put_quoted(name);
            }
            s.put("]}");
        } else if constexpr (std::is_integral_v<K>) {
            s.put(std::is_signed_v<K> ? ",\"propertyNames\":{\"pattern\":\"^(0|-?[1-9][0-9]*)$\"}"
                                      : ",\"propertyNames\":{\"pattern\":\"^(0|[1-9][0-9]*)$\"}");
        }
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

// std::pair / std::tuple: "prefixItems" with one schema per position, and no other items.
template <class T, class D>
constexpr void write_tuple(sink& s, const decor& d) noexcept {
    constexpr std::size_t n = std::tuple_size_v<T>;
    open_typed<D>(s, "array", "ARRAY", d);
    s.put(",\"prefixItems\":[");
    [&]<std::size_t... I>(std::index_sequence<I...>) {
        ((s.put(I == 0 ? "" : ","), write_schema<std::remove_cv_t<std::tuple_element_t<I, T>>, D>(s, {})), ...);
    }(std::make_index_sequence<n>{});
    s.put("],\"items\":false");
    if constexpr (n <= D::rules.max_min_items) {
        s.put(",\"minItems\":");
        s.put_unsigned(n);
    }
    if constexpr ((D::rules.keywords & keyword_bit(constraint_keyword::max_items)) != 0) {
        s.put(",\"maxItems\":");
        s.put_unsigned(n);
    }
    close_schema<D>(s, d);
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

template <class T, class D>
struct object_table;

template <class T, class D>
    requires reflect::aggregate<T>
struct object_table<T, D> {
    static_assert(check_defaults<T>());
    static constexpr std::size_t size = reflect::field_count<T>;
    static constexpr auto properties = []<std::size_t... I>(std::index_sequence<I...>) {
        return std::array<property, sizeof...(I)>{property{
            reflect::field_names<T>[I],
            [] {
                if constexpr (has_docs<T>) return docs_of<T>().find(reflect::field_names<T>[I]);
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
    if constexpr (has_docs<T>) {
        constexpr const auto& docs = docs_of<T>();
        for (std::size_t i = 0; i != docs.size(); ++i) {
            const std::string_view name = docs.names[i];
            std::size_t seen = 0;
            for (std::size_t j = 0; j != i; ++j) seen += docs.names[j] == name;
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
    if (!is_open<T>(s)) write_object_body<T, D>(s, d);
    else if constexpr (!D::rules.refs) s.fail(schema_error::recursive_type);
    else write_reference(s, &reflect::type_tag<T>, &short_name_of<T>, d.nullable, &write_definition<T, D>);
}

template <class T, class D>
constexpr void write_object_body(sink& s, const decor& d) noexcept {
    using table = object_table<T, D>;
    if constexpr (!is_named_parameters<T>) check_docs<T>(s);
    if (!enter<D>(s)) return;
    s.open_types[s.depth - 1] = &reflect::type_tag<T>;
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
    decor tail = d;
    if constexpr (!is_named_parameters<T>)
        if (tail.type_description.empty()) tail.type_description = adapter_description<T>();
    close_schema<D>(s, tail);
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
        if constexpr (D::rules.natural_bounds && (D::rules.keywords & keyword_bit(constraint_keyword::minimum)) != 0) {
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
    } else if constexpr (k == kind::adapted) {
        decor inner = d;
        if constexpr (!adapter_description<T>().empty()) inner.type_description = adapter_description<T>();
        write_schema<json_type_of<T>, D>(s, inner);
    } else if constexpr (k == kind::tuple) {
        if constexpr (!D::rules.prefix_items) {
            s.fail(schema_error::tuple_not_expressible);
        } else {
            if (!enter<D>(s)) return;
            const std::size_t mark = s.push_path("[]");
            write_tuple<T, D>(s, d);
            s.pop_path(mark);
            --s.depth;
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
    s.root = &reflect::type_tag<T>;
    write_schema<T, D>(s, {});
    write_definitions(s);
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

template <class T, class D, fixed_string Tool>
consteval bool check_schema() noexcept {
    using text = schema_text<T, D>;
    if constexpr (text::measured.error != schema_error::none &&
                  text::measured.error != schema_error::unsupported_type) {
        constexpr auto path = agentry::detail::fixed_prefix<text::measured.error_path_size>(
            std::string_view{text::measured.error_path, text::measured.error_path_size});
        return schema_diagnostic<D, decltype(agentry::detail::shown_name<Tool, in_tool>()),
                                 decltype(agentry::detail::shown_name<path, at_field>()),
                                 text::measured.error>::ok;
    }
    return true;
}

} // namespace agentry::schema::detail

namespace agentry {

/// The JSON Schema of T in dialect D, as a constant with static storage.
template <class T, schema_dialect D = dialect::standard>
constexpr std::string_view json_schema() noexcept {
    static_assert(schema::detail::check_schema<std::remove_cv_t<T>, D, "">());
    return schema::detail::schema_text<std::remove_cv_t<T>, D>::view;
}

} // namespace agentry

#endif
