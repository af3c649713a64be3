// SPDX-License-Identifier: BSL-1.0
#ifndef AGENTRY_SELECT_DETAIL_TERMS_HPP
#define AGENTRY_SELECT_DETAIL_TERMS_HPP

// The terms of a tool and of a query, the same at compile time and at run time: the words of
// the text (a tool's definition in any dialect, or a user's message), split at anything that
// is not a letter or digit and at lower-to-upper case changes (snake_case and camelCase names),
// lower-cased, reduced by a small suffix stemmer (plurals, -ing, -ed), without JSON Schema
// keywords and common English words, each hashed to 32 bits (FNV-1a). A tool's name counts
// `name_weight` more times than the rest of its definition.

#include <algorithm>
#include <array>
#include <cstddef>
#include <cstdint>
#include <string_view>
#include <vector>

namespace agentry::detail {

struct term_count {
    std::uint32_t term = 0;
    std::uint32_t count = 0;
    friend constexpr bool operator==(const term_count&, const term_count&) = default;
};

constexpr std::uint32_t fnv1a(std::string_view text) noexcept {
    std::uint32_t h = 2166136261u;
    for (char c : text) {
        h ^= static_cast<unsigned char>(c);
        h *= 16777619u;
    }
    return h;
}

constexpr bool word_char(char c) noexcept {
    return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9');
}
constexpr bool upper(char c) noexcept { return c >= 'A' && c <= 'Z'; }
constexpr char to_lower(char c) noexcept { return upper(c) ? char(c - 'A' + 'a') : c; }

/// Words that carry nothing for choosing a tool: JSON Schema and payload keywords, and common
/// English words.
inline constexpr std::string_view ignored_words[] = {
    "a", "about", "additional", "all", "also", "an", "and", "any", "are", "array", "as", "at", "be", "boolean",
    "by", "can", "const", "content", "could", "declaration", "default", "defs", "description", "do", "does", "e",
    "eg", "enum", "example", "exclusive", "false", "for", "format", "from", "function", "g", "get", "given", "had",
    "has", "have", "how", "i", "if", "in", "input", "integer", "into", "is", "it", "item", "items", "its", "length",
    "max", "maximum", "me", "min", "minimum", "multiple", "my", "name", "need", "not", "null", "nullable", "number",
    "object", "of", "on", "one", "or", "our", "output", "parameter", "pattern", "please", "prefix", "property",
    "ref", "required", "schema", "should", "so", "strict", "string", "than", "that", "the", "their", "them", "then",
    "there", "these", "this", "title", "to", "true", "type", "u", "unique", "up", "us", "use", "want", "was", "we",
    "what", "when", "where", "which", "who", "will", "with", "would", "you", "your",
};

/// `word` (lower case) reduced by the stemmer, into `out`; its length.
constexpr std::size_t stem(std::string_view word, char* out) noexcept {
    std::size_t n = word.size();
    for (std::size_t i = 0; i != n; ++i) out[i] = word[i];
    const auto ends = [&](std::string_view s) {
        return n > s.size() && std::string_view(out + n - s.size(), s.size()) == s;
    };
    if (n > 4 && ends("ies")) {
        n -= 2;
        out[n - 1] = 'y';
    } else if (n > 4 && (ends("ches") || ends("shes") || ends("sses") || ends("xes"))) {
        n -= 2;
    } else if (n > 3 && ends("s") && !ends("ss") && !ends("us") && !ends("is")) {
        n -= 1;
    }
    if (n > 5 && ends("ing")) n -= 3;
    else if (n > 4 && ends("ed")) n -= 2;
    return n;
}

constexpr bool ignored(std::string_view w) noexcept {
    const auto* end = std::end(ignored_words);
    const auto* at = std::lower_bound(std::begin(ignored_words), end, w);
    return at != end && *at == w;
}

/// Calls `each(hash)` for every term of `text`.
template <class Each>
constexpr void for_each_term(std::string_view text, Each&& each) {
    char word[64]{};
    char stemmed[64]{};
    std::size_t i = 0;
    while (i < text.size()) {
        if (!word_char(text[i])) {
            ++i;
            continue;
        }
        std::size_t n = 0;
        const std::size_t start = i;
        while (i < text.size() && word_char(text[i])) {
            if (i != start && upper(text[i]) && !upper(text[i - 1])) break;  // camelCase
            if (n != sizeof word) word[n++] = to_lower(text[i]);
            ++i;
        }
        if (n < 2 || n == sizeof word) continue;
        const std::size_t m = stem(std::string_view(word, n), stemmed);
        const std::string_view w(stemmed, m);
        if (w.size() < 2 || ignored(w) || ignored(std::string_view(word, n))) continue;
        bool digits = true;
        for (char c : w) digits = digits && c >= '0' && c <= '9';
        if (digits) continue;
        each(fnv1a(w));
    }
}

/// How many more times a tool's name counts than the rest of its definition (which holds it
/// once already); chosen on the selection fixture's tuning requests.
inline constexpr std::uint32_t name_weight = 2;

/// The terms of a tool's definition, each with its count, sorted by term.
constexpr std::vector<term_count> count_terms(std::string_view definition, std::string_view name) {
    std::vector<std::uint32_t> all;
    const auto add = [&](std::uint32_t t) { all.push_back(t); };
    for_each_term(definition, add);
    for (std::uint32_t k = 0; k != name_weight; ++k) for_each_term(name, add);
    std::sort(all.begin(), all.end());
    std::vector<term_count> out;
    for (std::uint32_t t : all) {
        if (!out.empty() && out.back().term == t) ++out.back().count;
        else out.push_back({t, 1});
    }
    return out;
}

/// The terms of a tool with its definition and name, as a constant.
template <std::size_t N>
struct constant_terms {
    std::array<term_count, N> terms{};
    std::uint32_t length = 0;  // the number of words
};

} // namespace agentry::detail

#endif
