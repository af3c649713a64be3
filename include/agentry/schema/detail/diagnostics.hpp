// SPDX-License-Identifier: BSL-1.0
#ifndef AGENTRY_SCHEMA_DETAIL_DIAGNOSTICS_HPP
#define AGENTRY_SCHEMA_DETAIL_DIAGNOSTICS_HPP

// The compile errors of the schema writer: each is a static_assert in a class template whose
// template arguments (the type, or the dialect, tool and path) appear in the compiler's note.

#include <agentry/reflect/detail/shown_name.hpp>
#include <agentry/reflect/enum.hpp>
#include <agentry/reflect/fields.hpp>
#include <agentry/schema/detail/classify.hpp>
#include <agentry/schema/detail/sink.hpp>

#include <string_view>
#include <type_traits>

namespace agentry::schema::detail {

/// Instantiated for a type that has no JSON Schema; its name appears in the compiler's note.
// Whether the qualified name of T contains `part`.
template <class T>
consteval bool type_name_has(std::string_view part) noexcept {
    return std::string_view(__PRETTY_FUNCTION__, sizeof(__PRETTY_FUNCTION__) - 1).find(part) != std::string_view::npos;
}

template <class T>
struct no_json_schema_for {
    static_assert(!type_name_has<T>("std::filesystem::"),
                  "agentry: std::filesystem::path needs #include <agentry/schema/adapters/filesystem.hpp> (left out "
                  "of the other headers, as <filesystem> is costly to compile); it is then sent as a string");
    static_assert(!std::is_pointer_v<T>,
                  "agentry: a pointer has no JSON Schema; use the value type, or std::optional<T> for a value that may "
                  "be absent");
    static_assert(!std::is_same_v<T, char>,
                  "agentry: char has no JSON Schema; use std::string for text or std::int8_t for a small number");
    static_assert(!is_optional<T>, "agentry: std::optional<std::optional<T>> has no JSON Schema; use one std::optional");
    static_assert(!is_map<T>, "agentry: a map's key type must be std::string, an integer or an enum, as JSON object keys are "
                  "strings");
    static_assert(!reflect::aggregate<T> || is_std_array<T>,
                  "agentry: an aggregate may have at most 64 fields; group some of them into a nested struct");
    static_assert(is_std_array<T> || reflect::aggregate<T> || is_map<T> || is_optional<T> || std::is_pointer_v<T> ||
                      std::is_same_v<T, char> || type_name_has<T>("std::filesystem::"),
                  "agentry: this type has no JSON Schema (its name is in the 'no_json_schema_for<T>' note); use bool, "
                  "an integer, float, double, std::string, an enum, an aggregate struct, std::optional, std::vector, "
                  "std::array, std::set, std::map<std::string, T>, std::variant, agentry::constrained or "
                  "agentry::raw_json (docs/reflection.md lists all), or map it to one of those with a "
                  "specialisation of agentry::adapter<T>");
};

template <class E>
struct enum_has_names {
    static_assert(reflect::enum_count<E> != 0,
                  "agentry: this enum has no enumerator in agentry::enum_range<E> (default -128 ..= 127), so its names "
                  "cannot be reflected; give it enumerators in that range or specialise agentry::enum_range<E>");
    static constexpr bool value = true;
};

/// The tool's name and the path of C++ names to a value, as shown_name makes them.
template <auto... Name>
struct in_tool {};
template <auto... Path>
struct at_field {};

/// Instantiated when a schema cannot be written; the dialect, the tool, the path of C++ names to
/// the value and the error appear in its template arguments.
template <class Dialect, class Tool, class Path, schema_error Error>
struct schema_diagnostic {
    static_assert(Error != schema_error::map_not_expressible,
                  "agentry: this dialect cannot express a map (std::map<K, T> with any key type: an object whose "
                  "keys are chosen at run time needs additionalProperties with a schema); use a std::vector of "
                  "key/value structs, or another dialect");
    static_assert(Error != schema_error::tuple_not_expressible,
                  "agentry: this dialect cannot express std::pair or std::tuple (it has no prefixItems); use a struct "
                  "with named fields, or another dialect");
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

} // namespace agentry::schema::detail

#endif
