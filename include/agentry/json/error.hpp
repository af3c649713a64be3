// SPDX-License-Identifier: BSL-1.0
#ifndef AGENTRY_JSON_ERROR_HPP
#define AGENTRY_JSON_ERROR_HPP

// What the reader reports: one read_error per problem, with the JSON Pointer of the value,
// the constraint it breaks and a short message a model can act on.

#include <cstddef>
#include <string>
#include <string_view>

namespace agentry::json {

enum class error_kind : unsigned char {
    syntax,              // not JSON (the only error for text that is not JSON)
    too_large,           // over read_options::max_size
    too_deep,            // over read_options::max_depth
    type,                // wrong JSON type
    null_value,          // null where a value is required
    required,            // a required property is missing
    unknown_property,    // not in the schema (additionalProperties:false)
    duplicate_property,  // the same key twice
    enum_value,          // not one of the enum names
    out_of_range,        // in free-form JSON (raw_json): a number beyond the range of a double
    minimum,
    exclusive_minimum,
    maximum,
    exclusive_maximum,
    multiple_of,
    min_length,
    max_length,
    pattern,
    format,
    min_items,
    max_items,
    unique_items,
    no_alternative,      // matches no alternative of a std::variant (anyOf)
    too_many_errors,     // the error list was cut at read_options::max_errors
};

/// The JSON Schema keyword an error breaks ("type", "required", "minimum", ...).
constexpr std::string_view keyword_of(error_kind k) noexcept {
    switch (k) {
    case error_kind::syntax: return "syntax";
    case error_kind::too_large: return "maxSize";
    case error_kind::too_deep: return "maxDepth";
    case error_kind::type: return "type";
    case error_kind::null_value: return "type";
    case error_kind::required: return "required";
    case error_kind::unknown_property: return "additionalProperties";
    case error_kind::duplicate_property: return "duplicateKey";
    case error_kind::enum_value: return "enum";
    case error_kind::out_of_range: return "range";
    case error_kind::minimum: return "minimum";
    case error_kind::exclusive_minimum: return "exclusiveMinimum";
    case error_kind::maximum: return "maximum";
    case error_kind::exclusive_maximum: return "exclusiveMaximum";
    case error_kind::multiple_of: return "multipleOf";
    case error_kind::min_length: return "minLength";
    case error_kind::max_length: return "maxLength";
    case error_kind::pattern: return "pattern";
    case error_kind::format: return "format";
    case error_kind::min_items: return "minItems";
    case error_kind::max_items: return "maxItems";
    case error_kind::unique_items: return "uniqueItems";
    case error_kind::no_alternative: return "anyOf";
    case error_kind::too_many_errors: return "maxErrors";
    }
    return "unknown";
}

struct read_error {
    /// JSON Pointer of the offending value ("" for the whole document, "/city", "/stops/2").
    std::string pointer;
    error_kind kind = error_kind::syntax;
    /// What is wrong, e.g. "\"kelvin\" is not one of [\"celsius\",\"fahrenheit\"]".
    std::string message;

    /// "pointer: message", or the message alone at the root.
    std::string to_string() const {
        return pointer.empty() ? message : pointer + ": " + message;
    }
};

/// Repairs of common model mistakes; each is off by default and reported when applied.
struct repairs {
    /// "" (or only whitespace) read as {} when the tool has no required parameter.
    bool empty_as_object = false;
    /// An object or array sent as a JSON string ("{\"a\":1}") read as that object or array.
    bool json_in_string = false;
    /// A number sent as a string ("42") read as the number.
    bool number_in_string = false;
    /// An enum name differing only in letter case read as that name.
    bool enum_case = false;

    friend constexpr bool operator==(const repairs&, const repairs&) = default;
};

struct read_options {
    /// Longest accepted argument text, in bytes.
    std::size_t max_size = 1024 * 1024;
    /// Deepest accepted nesting of arrays and objects.
    std::size_t max_depth = 64;
    /// Errors listed (0 counts as 1); a further error stops reading and ends the list with a
    /// too_many_errors entry.
    std::size_t max_errors = 32;
    /// null for an optional member means "absent" (OpenAI strict mode sends null there).
    bool null_as_absent = false;
    /// Skip members an object type does not declare instead of reporting them (for reading
    /// other programs' messages, which grow new members; tool arguments keep this off).
    bool ignore_unknown_properties = false;
    /// A required member that is absent keeps its default value instead of being reported (for
    /// reading data an earlier version wrote before the type gained that member).
    bool absent_as_default = false;
    struct repairs repairs {};
};

} // namespace agentry::json

#endif
