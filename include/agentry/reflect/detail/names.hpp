// SPDX-License-Identifier: BSL-1.0
#ifndef AGENTRY_REFLECT_DETAIL_NAMES_HPP
#define AGENTRY_REFLECT_DETAIL_NAMES_HPP

// The names agentry checks at compile time, and the one diagnostic that refuses a name. Every
// refusal has one shape, "agentry: <where it was given>: <the name> <what is wrong>; <the
// fix>", and carries the name, when it is known, in its template arguments as tool_named<...>
// (see shown_name).

#include <agentry/reflect/detail/shown_name.hpp>
#include <agentry/reflect/fixed_string.hpp>

#include <cstddef>
#include <string_view>
#include <tuple>

namespace agentry::detail {

/// The longest tool or parameter name every provider accepts.
inline constexpr std::size_t max_name_size = 64;

enum class name_kind : unsigned char {
    /// ^[A-Za-z0-9_-]{1,64}$: what OpenAI, Anthropic, Gemini and MCP all accept.
    tool,
    /// ^[A-Za-z_][A-Za-z0-9_]{0,63}$: a property name every provider accepts.
    parameter,
};

constexpr bool valid_name(std::string_view name, name_kind kind) noexcept {
    if (name.empty() || name.size() > max_name_size) return false;
    if (kind == name_kind::parameter && name[0] >= '0' && name[0] <= '9') return false;
    for (char c : name) {
        const bool ok = (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '_' ||
                        (c == '-' && kind == name_kind::tool);
        if (!ok) return false;
    }
    return true;
}

/// The index of the first name of `names` that valid_name refuses, or sizeof...(Names).
template <name_kind Kind, fixed_string... Names>
consteval std::size_t first_invalid_name() noexcept {
    const bool valid[] = {true, valid_name(Names.view(), Kind)...};
    for (std::size_t i = 0; i != sizeof...(Names); ++i)
        if (!valid[i + 1]) return i;
    return sizeof...(Names);
}

/// The K-th of `Names`.
template <std::size_t K, fixed_string... Names>
consteval auto nth_name() noexcept {
    return std::get<K>(std::tuple{Names...});
}

/// A tool's name and a parameter's, as a diagnostic shows them (see shown_name).
template <auto... Name>
struct tool_named {};
template <auto... Name>
struct parameter_named {};

enum class name_error : unsigned char {
    none,
    tool_name,
    parameter_name,
    repeated_parameter,
    repeated_tool,
    gemini_first_character,
    stop_name_too_long,
    fallback_name_too_long,
};

/// Instantiated with the error and the names it is about, when they are known (tool_named<...>,
/// parameter_named<...>): a compile error unless the error is none.
template <name_error Error, class... Names>
struct name_check {
    static_assert(Error != name_error::tool_name,
                  "agentry: tool<\"name\", ...>: a tool name must be 1 to 64 characters from A-Z, a-z, 0-9, '_' "
                  "and '-' (the names every provider accepts); rename the tool");
    static_assert(Error != name_error::parameter_name,
                  "agentry: tool<...>: a parameter name must match ^[A-Za-z_][A-Za-z0-9_]{0,63}$ (the names every "
                  "provider accepts); rename the parameter");
    static_assert(Error != name_error::repeated_parameter,
                  "agentry: tool<...>: two parameters have the same name; names must be unique");
    static_assert(Error != name_error::repeated_tool,
                  "agentry: registry: two tools have the same name; tool names must be unique in a registry");
    static_assert(Error != name_error::gemini_first_character,
                  "agentry: dialect::gemini: a tool name must start with a letter or an underscore (Gemini's rule "
                  "for function names); rename the tool");
    static_assert(Error != name_error::stop_name_too_long,
                  "agentry: loop_config::stop_at_tools: a name is longer than 64 characters; no tool can have it");
    static_assert(Error != name_error::fallback_name_too_long,
                  "agentry: tool_policy::fallback: a fallback tool name is longer than 64 characters; no tool can "
                  "have it");
    static constexpr bool ok = true;
};

/// name_check of `Error` naming the tool `Name`.
template <name_error Error, fixed_string Name>
consteval bool check_name() noexcept {
    return name_check<Error, decltype(shown_name<Name, tool_named>())>::ok;
}

} // namespace agentry::detail

#endif
