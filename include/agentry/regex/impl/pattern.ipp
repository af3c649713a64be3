// SPDX-License-Identifier: BSL-1.0
#ifndef AGENTRY_REGEX_IMPL_PATTERN_IPP
#define AGENTRY_REGEX_IMPL_PATTERN_IPP

// The regular expression engine behind regex/pattern.hpp: included by that header
// (header-only) or by src.hpp and provider/src.hpp (separate compilation).
//
// The engine parses to a syntax tree (parse.ipp, over unicode.ipp) and compiles it to a
// program (program.ipp) for a backtracking machine with an explicit stack (match.ipp);
// nothing recurses on the text.

#include <agentry/detail/separate.hpp>
#include <agentry/regex/impl/match.ipp>
#include <agentry/regex/pattern.hpp>

#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <utility>

namespace agentry::regex {

namespace detail {

// What pattern::compile builds and pattern shares between its copies.
struct compiled {
    program code;
    std::optional<simple_sequence> simple;  // a faster equivalent, for simple patterns
};

} // namespace detail

AGENTRY_DECL std::optional<pattern> pattern::compile(std::string_view source, std::string* error) noexcept {
    try {
        detail::syntax_tree tree;
        detail::parser p(source);
        if (!p.parse(tree)) {
            if (error != nullptr) *error = p.error() + " at offset " + std::to_string(p.error_offset());
            return std::nullopt;
        }
        auto c = std::make_shared<detail::compiled>();
        detail::code_generator(tree, c->code).generate();
        c->simple = detail::simple_sequence::from(tree);
        c->code.sets = std::move(tree.sets);
        return pattern(std::move(c));
    } catch (...) {  // std::bad_alloc or std::length_error
        if (error != nullptr) {
            try {
                *error = "out of memory";
            } catch (...) {
            }
        }
        return std::nullopt;
    }
}

AGENTRY_DECL pattern::match_result pattern::search_bounded(std::string_view text, std::size_t max_steps) const noexcept {
    const detail::compiled& c = *compiled_;
    if (c.simple) return c.simple->match(text, c.code.sets) ? match_result::match : match_result::no_match;
    try {
        detail::machine m(c.code, text, max_steps);
        switch (m.search()) {
        case detail::outcome::match: return match_result::match;
        case detail::outcome::no_match: return match_result::no_match;
        case detail::outcome::too_complex: break;
        }
    } catch (...) {  // std::bad_alloc
    }
    return match_result::too_complex;
}

} // namespace agentry::regex

#endif
