// SPDX-License-Identifier: BSL-1.0
#ifndef AGENTRY_REGEX_PATTERN_HPP
#define AGENTRY_REGEX_PATTERN_HPP

// ECMA-262 regular expressions with the `u` flag, as JSON Schema's `pattern` uses them
// (ajv: `new RegExp(pattern, "u")`). The pattern and the text are UTF-8; both are read as
// Unicode code points. A search matches anywhere unless the pattern is anchored.
//
//   auto p = agentry::regex::pattern::compile("^[A-Z]{3}$");
//   if (p && p->search("CDG")) ...
//
// Supported: `|`, `( )`, `(?: )`, `(?<name> )`, `(?= )`, `(?! )`, `(?<= )`, `(?<! )`,
// `* + ? {n} {n,} {n,m}` and their lazy forms, `^ $ \b \B` (no multiline), `.`, classes
// `[...]` and `[^...]` with ranges and escapes, `\d \D \w \W \s \S`, `\t \n \v \f \r \0 \cX
// \xHH \uHHHH \u{H...}`, surrogate pairs `\uD83D\uDE00`, identity escapes of syntax
// characters and `/` (and `-` in a class), backreferences `\1` and `\k<name>`, and
// `\p{...}` / `\P{...}` for every General_Category value (short and long names, aliases,
// `gc=` and `General_Category=` forms) and the properties Any, ASCII and Assigned.
// Rejected with a compile error: other Unicode properties (`\p{Script=Greek}`,
// `\p{Alphabetic}`, ...), the `v` flag class syntax, modifiers `(?i:...)`, duplicate group
// names, Annex B (non-`u`) syntax such as `\a`, `\-` outside a class, or a lone `{ } ]`.
// Flags do not exist: matching is case-sensitive, `.` does not match line terminators.
//
// This header declares the interface; the engine (impl/pattern.ipp: unicode, parse,
// program, match) is compiled where the header is included (header-only) or once, by
// src.hpp (separate compilation).

#include <agentry/detail/separate.hpp>

#include <cstddef>
#include <memory>
#include <optional>
#include <string>
#include <string_view>

namespace agentry::regex {

namespace detail {
struct compiled;
} // namespace detail

/// A compiled ECMA-262 regular expression (`u` flag). Copies share the compiled program,
/// which is immutable.
class pattern {
public:
    enum class match_result { match, no_match, too_complex };

    /// Compiles `source`. On failure returns std::nullopt and, if `error` is not null, sets
    /// it to a short message with the byte offset, e.g. "nothing to repeat at offset 0".
    static std::optional<pattern> compile(std::string_view source, std::string* error = nullptr) noexcept;

    /// True when the pattern matches somewhere in `text` (UTF-8; an invalid byte reads as
    /// U+FFFD). False also when the search gives up after 1'000'000 steps (too_complex):
    /// use search_bounded() to tell the two apart.
    bool search(std::string_view text) const noexcept { return search_bounded(text) == match_result::match; }

    /// Searches `text` in at most about `max_steps` steps of the matching machine (an
    /// instruction or a backtrack each, over all start positions); too_complex when the
    /// budget runs out or memory does.
    match_result search_bounded(std::string_view text, std::size_t max_steps = 1'000'000) const noexcept;

private:
    explicit pattern(std::shared_ptr<const detail::compiled> c) noexcept : compiled_(std::move(c)) {}

    std::shared_ptr<const detail::compiled> compiled_;  // never null
};

} // namespace agentry::regex

#if !defined(AGENTRY_SEPARATE_COMPILATION)
#include <agentry/regex/impl/pattern.ipp>
#endif

#endif
