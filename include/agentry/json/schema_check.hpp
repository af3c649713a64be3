// SPDX-License-Identifier: BSL-1.0
#ifndef AGENTRY_JSON_SCHEMA_CHECK_HPP
#define AGENTRY_JSON_SCHEMA_CHECK_HPP

// agentry::json::schema_checker: a json::value checked at run time against a JSON Schema
// (2020-12) given as a json::value, for schemas known only at run time (tools added at run
// time, MCP servers' inputSchema). The errors are the typed reader's: read_error, with the
// JSON Pointer of the offending value, the same error_kind and the same messages.
//
//   json::schema_checker check(json::parse(R"({"type":"object","required":["city"]})").value);
//   for (const json::read_error& e : check(json::parse(R"({})").value)) log(e.to_string());
//   // "/city: missing required property"
//
// Keywords checked: type (integer: a number whose value is an integer, 1.0 included), enum,
// const, minimum, maximum, exclusiveMinimum, exclusiveMaximum, multipleOf (on the exact
// decimal values of the number texts), minLength and maxLength (in code points), pattern
// (ECMA-262 with the `u` flag, regex/pattern.hpp, at most pattern_step_limit steps), format
// (date-time, date, time, duration, email, hostname, ipv4, ipv6, uuid, uri, checked as the
// typed reader checks them, json/detail/formats.hpp; other formats are not checked), items,
// prefixItems, minItems, maxItems, uniqueItems, required, properties, patternProperties,
// additionalProperties, anyOf, oneOf, allOf, not, boolean schemas, and $ref to a JSON Pointer
// inside the schema ("#", "#/$defs/name"). Other keywords are ignored; a $ref elsewhere (a
// URI, an $anchor) is an error, as is a pattern that is not a valid regular expression: what
// cannot be checked is refused, never passed.
//
// The definitions (impl/schema_check.ipp) are compiled where this header is included
// (header-only) or once, by src.hpp (separate compilation).

#include <agentry/detail/separate.hpp>
#include <agentry/json/error.hpp>
#include <agentry/json/value.hpp>
#include <agentry/regex/pattern.hpp>

#include <cstddef>
#include <optional>
#include <string>
#include <vector>

namespace agentry::json {

struct schema_check_options {
    /// Errors listed (0 counts as 1), then one too_many_errors entry, as read_options::max_errors.
    std::size_t max_errors = 32;
    /// Subschemas applied one inside another (a $ref that refers to itself stops here).
    std::size_t max_depth = 128;
    /// Steps the pattern engine may take for one string (regex::pattern::search_bounded).
    std::size_t pattern_step_limit = 1'000'000;
};

class schema_checker {
public:
    /// Keeps `schema` and compiles its patterns once; checks may run on several threads.
    explicit schema_checker(value schema, const schema_check_options& options = {});

    /// The errors of `instance` against the schema; empty when it conforms.
    std::vector<read_error> operator()(const value& instance) const;

    const value& schema() const noexcept { return schema_; }

    /// A pattern of the schema, compiled; the error text when it does not compile.
    struct compiled_pattern {
        std::string source;
        std::optional<regex::pattern> compiled;
        std::string error;
    };

    /// The compiled pattern whose source is `source`, or null if the schema has none such.
    const compiled_pattern* find_pattern(std::string_view source) const noexcept;
    const schema_check_options& options() const noexcept { return options_; }

private:
    value schema_;
    schema_check_options options_;
    std::vector<compiled_pattern> patterns_;  // sorted by source
};

/// One check of `instance` against `schema` (compiling the schema's patterns for it).
std::vector<read_error> check_schema(const value& schema, const value& instance,
                                     const schema_check_options& options = {});

} // namespace agentry::json

#if !defined(AGENTRY_SEPARATE_COMPILATION)
#include <agentry/json/impl/schema_check.ipp>
#endif

#endif
