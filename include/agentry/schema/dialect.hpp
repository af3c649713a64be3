// SPDX-License-Identifier: BSL-1.0
#ifndef AGENTRY_SCHEMA_DIALECT_HPP
#define AGENTRY_SCHEMA_DIALECT_HPP

// The JSON Schema dialects agentry writes, one tag type each. Each tag carries its rules as
// data; docs/dialects.md lists every rule with the source it comes from.

#include <agentry/schema/constraints.hpp>

#include <cstddef>
#include <string_view>

namespace agentry {

enum class dialect_kind : unsigned char {
    standard,
    openai,
    openai_strict,
    anthropic,
    anthropic_strict,
    gemini,
    mcp,
    openai_responses,
    openai_responses_strict,
};

/// How the titles of enum values (agentry::enum_titles) are written.
enum class enum_title_form : unsigned char {
    none,        // left out
    one_of,      // "oneOf" of {"const","title"}; an array's items as "anyOf" of them
    enum_names,  // "enumNames" beside "enum"
};

struct dialect_rules {
    std::string_view name;
    /// `additionalProperties:false` on every object.
    bool closed_objects = true;
    /// Optional members are listed in `required` and made nullable (OpenAI strict).
    bool all_required = false;
    /// Nullable as `"type":["T","null"]`; otherwise `"nullable":true` (OpenAPI 3.0).
    bool type_arrays = true;
    /// Upper-case type names (`"STRING"`), as the OpenAPI-subset `Schema` enum spells them.
    bool upper_case_types = false;
    /// `additionalProperties` with a schema, for std::map<std::string, T>.
    bool maps = true;
    /// `prefixItems`, for std::pair and std::tuple.
    bool prefix_items = true;
    /// `{}` for a value of any type.
    bool any_value = true;
    /// `$ref` / `$defs`, for recursive types.
    bool refs = true;
    bool default_keyword = true;
    enum_title_form enum_titles = enum_title_form::none;
    /// The range of the C++ type (`"minimum":-2147483648` on an int, `±1.7976931348623157e308`
    /// on a double) as `minimum`/`maximum`, where no constraint bounds that side. Off in every
    /// dialect: the reader refuses an out-of-range value with a message stating the range.
    bool natural_bounds = false;
    /// Constraint keywords stated as keywords; the others are written into `description`.
    unsigned keywords = ~0u;
    /// String formats stated as `format`; the others are written into `description`.
    unsigned formats = ~0u;
    /// `minItems` values above this are written into `description`.
    std::size_t max_min_items = std::size_t(-1);
    /// Nesting of objects and arrays deeper than this does not compile.
    std::size_t max_depth = 32;
    std::size_t max_enum_values = std::size_t(-1);
    std::size_t max_properties = std::size_t(-1);
    /// Limits over all the tools of one request.
    std::size_t max_tools = std::size_t(-1);
    std::size_t max_optional_properties = std::size_t(-1);
    std::size_t max_union_types = std::size_t(-1);
    /// A tool without parameters has `parameters`/`input_schema` (else the key is left out).
    bool empty_parameters = true;
    /// Tool names must start with a letter or an underscore.
    bool name_starts_with_letter = false;
};

constexpr unsigned keyword_bit(constraint_keyword k) noexcept { return 1u << unsigned(k); }
constexpr unsigned format_bit(string_format f) noexcept { return 1u << unsigned(f); }

namespace dialect {

/// JSON Schema 2020-12, every keyword.
struct standard {
    static constexpr dialect_kind kind = dialect_kind::standard;
    static constexpr dialect_rules rules{.name = "standard"};
};

/// OpenAI Chat Completions function tools without strict mode. Objects are not marked closed:
/// only strict mode requires it, and the reader refuses an unknown member all the same.
struct openai {
    static constexpr dialect_kind kind = dialect_kind::openai;
    static constexpr dialect_rules rules{.name = "openai", .closed_objects = false, .max_tools = 128};
};

/// OpenAI Structured Outputs, `strict:true`.
struct openai_strict {
    static constexpr dialect_kind kind = dialect_kind::openai_strict;
    static constexpr dialect_rules rules{
        .name = "openai_strict",
        .all_required = true,
        .maps = false,
        .prefix_items = false,
        .any_value = false,
        .default_keyword = false,
        .keywords = keyword_bit(constraint_keyword::minimum) | keyword_bit(constraint_keyword::exclusive_minimum) |
                    keyword_bit(constraint_keyword::maximum) | keyword_bit(constraint_keyword::exclusive_maximum) |
                    keyword_bit(constraint_keyword::multiple_of) | keyword_bit(constraint_keyword::pattern) |
                    keyword_bit(constraint_keyword::format) | keyword_bit(constraint_keyword::min_items) |
                    keyword_bit(constraint_keyword::max_items),
        .formats = ~0u & ~format_bit(string_format::uri),
        .max_depth = 10,
        .max_enum_values = 1000,
        .max_properties = 5000,
        .max_tools = 128,
    };
};

/// OpenAI Responses API function tools without strict mode: the rules of dialect::openai in the
/// flat wrapper ({"type":"function","name",...,"parameters",...}) with `"strict":false`, which
/// Responses needs: a tool without `strict` is made strict there.
struct openai_responses {
    static constexpr dialect_kind kind = dialect_kind::openai_responses;
    static constexpr dialect_rules rules = [] {
        dialect_rules r = openai::rules;
        r.name = "openai_responses";
        return r;
    }();
};

/// OpenAI Responses API function tools with `"strict":true`: the rules of dialect::openai_strict
/// in the flat wrapper.
struct openai_responses_strict {
    static constexpr dialect_kind kind = dialect_kind::openai_responses_strict;
    static constexpr dialect_rules rules = [] {
        dialect_rules r = openai_strict::rules;
        r.name = "openai_responses_strict";
        return r;
    }();
};

/// Anthropic Messages tools (`input_schema`), without strict mode.
struct anthropic {
    static constexpr dialect_kind kind = dialect_kind::anthropic;
    static constexpr dialect_rules rules{.name = "anthropic"};
};

/// Anthropic Messages tools with `strict:true` (structured outputs).
struct anthropic_strict {
    static constexpr dialect_kind kind = dialect_kind::anthropic_strict;
    static constexpr dialect_rules rules{
        .name = "anthropic_strict",
        .maps = false,
        .prefix_items = false,
        .any_value = false,
        .refs = false,
        .keywords = keyword_bit(constraint_keyword::pattern) | keyword_bit(constraint_keyword::format) |
                    keyword_bit(constraint_keyword::min_items),
        .max_min_items = 1,
        .max_tools = 20,
        .max_optional_properties = 24,
        .max_union_types = 16,
    };
};

/// Gemini `functionDeclarations[].parameters` (the OpenAPI 3.0 `Schema` subset).
struct gemini {
    static constexpr dialect_kind kind = dialect_kind::gemini;
    static constexpr dialect_rules rules{
        .name = "gemini",
        .closed_objects = false,
        .type_arrays = false,
        .upper_case_types = true,
        .maps = false,
        .prefix_items = false,
        .any_value = false,
        .refs = false,
        .default_keyword = false,
        .keywords = keyword_bit(constraint_keyword::minimum) | keyword_bit(constraint_keyword::maximum) |
                    keyword_bit(constraint_keyword::min_length) | keyword_bit(constraint_keyword::max_length) |
                    keyword_bit(constraint_keyword::pattern) | keyword_bit(constraint_keyword::format) |
                    keyword_bit(constraint_keyword::min_items) | keyword_bit(constraint_keyword::max_items),
        .formats = format_bit(string_format::date_time),
        .empty_parameters = false,
        .name_starts_with_letter = true,
    };
};

/// Model Context Protocol `tools/list` (`inputSchema`, `outputSchema`): JSON Schema 2020-12.
struct mcp {
    static constexpr dialect_kind kind = dialect_kind::mcp;
    static constexpr dialect_rules rules{.name = "mcp"};
};

} // namespace dialect

template <class D>
concept schema_dialect = requires {
    { D::kind } -> std::convertible_to<dialect_kind>;
    { D::rules } -> std::convertible_to<dialect_rules>;
};

namespace dialect {

/// Dialect D with the natural bounds of every integer and floating-point type written (as
/// `minimum`/`maximum`, where D states those keywords), so that the schema admits exactly the
/// numbers the reader accepts. Usable wherever D is: json_schema<T, with_natural_bounds<D>>(),
/// registry::definitions<with_natural_bounds<D>>(), mcp::server<Registry, with_natural_bounds<dialect::mcp>>.
template <schema_dialect D>
struct with_natural_bounds {
    static constexpr dialect_kind kind = D::kind;
    static constexpr dialect_rules rules = [] {
        dialect_rules r = D::rules;
        r.natural_bounds = true;
        return r;
    }();
};

} // namespace dialect

} // namespace agentry

#endif
