// SPDX-License-Identifier: BSL-1.0
#ifndef AGENTRY_LOOP_DETAIL_JSON_POINTER_HPP
#define AGENTRY_LOOP_DETAIL_JSON_POINTER_HPP

// JSON Pointer (RFC 6901) over JSON text, without building a tree: the text of the value a
// pointer names, and setting the value at a pointer. For plan inputs (loop/plan.hpp).

#include <agentry/detail/separate.hpp>

#include <cstddef>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <vector>

namespace agentry::detail {

inline constexpr std::size_t pointer_max_depth = 64;

/// The reference tokens of `pointer`, unescaped (~1 is '/', ~0 is '~'); nothing when it is
/// not a JSON Pointer ("" or starting with '/', '~' followed only by 0 or 1).
AGENTRY_DECL std::optional<std::vector<std::string>> pointer_tokens(std::string_view pointer);

/// Whether `text` is one well-formed JSON value.
AGENTRY_DECL bool well_formed_json(std::string_view text);

struct text_span {
    std::size_t begin = 0;
    std::size_t end = 0;
};

/// Where the value `tokens` names is in `text` (a well-formed JSON value); nothing when absent.
AGENTRY_DECL std::optional<text_span> json_at(std::string_view text, std::span<const std::string> tokens);

/// Sets the value `tokens` names in `text` (a well-formed JSON value) to `value` (JSON text):
/// replaces it, adds the member to its object, or appends it to its array (at the index equal
/// to the array's length, or "-"). False, with `text` unchanged, when its parent is absent or
/// is not an object or an array, or the index is past the end.
AGENTRY_DECL bool json_set(std::string& text, std::span<const std::string> tokens, std::string_view value);

} // namespace agentry::detail

#if !defined(AGENTRY_SEPARATE_COMPILATION)
#include <agentry/loop/impl/json_pointer.ipp>
#endif

#endif
