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

/// The FNV-1a hashes of ignored_words, sorted: a word is looked up by its hash.
inline constexpr auto ignored_hashes = [] {
    std::array<std::uint32_t, std::size(ignored_words)> h{};
    for (std::size_t i = 0; i != h.size(); ++i) h[i] = fnv1a(ignored_words[i]);
    std::sort(h.begin(), h.end());
    return h;
}();

constexpr bool ignored(std::uint32_t hash) noexcept {
    const auto* at = std::lower_bound(ignored_hashes.begin(), ignored_hashes.end(), hash);
    return at != ignored_hashes.end() && *at == hash;
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
        bool digits = true;
        while (i < text.size() && word_char(text[i])) {
            if (i != start && upper(text[i]) && !upper(text[i - 1])) break;  // camelCase
            digits = digits && text[i] >= '0' && text[i] <= '9';
            if (n != sizeof word) word[n++] = to_lower(text[i]);
            ++i;
        }
        if (n < 2 || n == sizeof word || digits) continue;
        const std::size_t m = stem(std::string_view(word, n), stemmed);
        if (m < 2) continue;
        const std::uint32_t term = fnv1a(std::string_view(stemmed, m));
        if (ignored(term) || (m != n && ignored(fnv1a(std::string_view(word, n))))) continue;
        each(term);
    }
}

/// How many more times a tool's name counts than the rest of its definition (which holds it
/// once already); chosen on the selection fixture's tuning requests.
inline constexpr std::uint32_t name_weight = 2;

/// At most how many terms a tool's definition and name hold (a term takes two characters and
/// a separator).
constexpr std::size_t term_bound(std::size_t definition, std::size_t name) noexcept {
    return (definition + name_weight * name) / 3 + name_weight + 1;
}

/// The terms of a tool's definition, each with its count, sorted by term, into `out` (of
/// term_bound entries at least; `scratch` as many): their number.
constexpr std::size_t count_terms(std::string_view definition, std::string_view name, std::uint32_t* scratch,
                                  term_count* out) {
    std::size_t n = 0;
    const auto add = [&](std::uint32_t t) { scratch[n++] = t; };
    for_each_term(definition, add);
    for (std::uint32_t k = 0; k != name_weight; ++k) for_each_term(name, add);
    std::sort(scratch, scratch + n);
    std::size_t m = 0;
    for (std::size_t i = 0; i != n; ++i) {
        if (m != 0 && out[m - 1].term == scratch[i]) ++out[m - 1].count;
        else out[m++] = {scratch[i], 1};
    }
    return m;
}

/// The same, at run time.
inline std::vector<term_count> count_terms(std::string_view definition, std::string_view name) {
    std::vector<std::uint32_t> scratch(term_bound(definition.size(), name.size()));
    std::vector<term_count> out(scratch.size());
    out.resize(count_terms(definition, name, scratch.data(), out.data()));
    return out;
}

/// The terms of a tool with its definition and name, as a constant: the first `size` of
/// `terms`.
template <std::size_t N>
struct constant_terms {
    std::array<term_count, N> terms{};
    std::size_t size = 0;
    std::uint32_t length = 0;  // the number of words
};

} // namespace agentry::detail

#endif
