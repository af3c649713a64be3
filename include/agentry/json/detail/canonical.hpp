// SPDX-License-Identifier: BSL-1.0
#ifndef AGENTRY_JSON_DETAIL_CANONICAL_HPP
#define AGENTRY_JSON_DETAIL_CANONICAL_HPP

// A canonical text of a JSON value, so that equal JSON values (as JSON Schema's uniqueItems
// compares them) have equal canonical texts: object members sorted by key, strings decoded
// and re-escaped, numbers as exact decimals (1, 1.0 and 10e-1 alike).
//
// The definitions (impl/canonical.ipp) are compiled where this header is included
// (header-only) or once, by src.hpp (separate compilation).

#include <agentry/detail/separate.hpp>
#include <agentry/json/detail/lexer.hpp>

#include <string>
#include <string_view>
#include <vector>

namespace agentry::json::detail {

// Appends the canonical text of the (already validated) value at the cursor. Depth is bounded
// by the reader's max_depth, which the value was checked against.
bool canonical_value(cursor& in, std::string& out);

/// The canonical texts of the elements of the JSON array `text`; empty on malformed input.
std::vector<std::string> canonical_elements(std::string_view text);

} // namespace agentry::json::detail

#if !defined(AGENTRY_SEPARATE_COMPILATION)
#include <agentry/json/impl/canonical.ipp>
#endif

#endif
