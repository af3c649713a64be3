// SPDX-License-Identifier: BSL-1.0
#ifndef AGENTRY_JSON_DETAIL_READ_STRING_HPP
#define AGENTRY_JSON_DETAIL_READ_STRING_HPP

// Reading strings: views of the input where a string has no escape, decoded copies where it
// has, and the comparison of a name with a text read.

#include <agentry/json/detail/lexer.hpp>
#include <agentry/json/detail/read_state.hpp>

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <cstring>
#include <memory>
#include <string>
#include <string_view>

namespace agentry::json::detail {

// read_string_view for any string (escapes, bytes beyond ASCII, errors).
inline bool read_string_view_general(reader& r, std::string& scratch, std::string_view& view) {
    const char* start = r.in.p + 1;
    bool escaped = false;
    if (!read_string(r.in, nullptr, &escaped)) {
        r.syntax_error();
        return false;
    }
    if (!escaped) {
        view = std::string_view(start, std::size_t(r.in.p - 1 - start));
        return true;
    }
    cursor again = r.in;
    again.p = start - 1;
    scratch.clear();
    read_string(again, &scratch);
    view = scratch;
    return true;
}

// A string value, cursor on the opening quote: a view of the input when it has no escape,
// else of `scratch`, which holds it decoded.
AGENTRY_JSON_INLINE bool read_string_view(reader& r, std::string& scratch, std::string_view& view) {
    const char* start = r.in.p + 1;
    // Printable ASCII up to the closing quote: nothing to check or decode.
    if (const char* close = skip_plain(start, r.in.end); close != r.in.end && *close == '"') {
        view = std::string_view(start, std::size_t(close - start));
        r.in.p = close + 1;
        return true;
    }
    return read_string_view_general(r, scratch, view);
}

// A string value into `out`, cursor on the opening quote.
AGENTRY_JSON_SHARED_DECL bool read_string_value(reader& r, std::string& out);

// Equality of a name and a text read, inline: names are short, a library call costs more.
// Eight bytes at a time, the last word overlapping the one before; four, two or one below eight.
inline bool same_text(std::string_view a, std::string_view b) noexcept {
    const std::size_t n = a.size();
    if (n != b.size()) return false;
    const char* p = a.data();
    const char* q = b.data();
    const auto same = [](const char* x, const char* y, auto word) {
        std::memcpy(&word, x, sizeof word);
        decltype(word) other;
        std::memcpy(&other, y, sizeof other);
        return word == other;
    };
    if (n >= 8) {
        for (std::size_t i = 0; i + 8 < n; i += 8)
            if (!same(p + i, q + i, std::uint64_t())) return false;
        return same(p + n - 8, q + n - 8, std::uint64_t());
    }
    if (n >= 4) return same(p, q, std::uint32_t()) && same(p + n - 4, q + n - 4, std::uint32_t());
    if (n >= 2) return same(p, q, std::uint16_t()) && same(p + n - 2, q + n - 2, std::uint16_t());
    return n == 0 || *p == *q;
}

// A std::string_view: a view of the input when the string has no escape and the input
// outlives the value, else of a copy kept in read_result::owned_text.
inline void read_view(reader& r, std::string_view& out) {
    std::string scratch;
    std::string_view view;
    if (!read_string_view(r, scratch, view)) return;
    if (view.data() != scratch.data() && r.stable_input) {
        out = view;
        return;
    }
    auto copy = std::make_unique<char[]>(view.size() + 1);
    std::copy(view.begin(), view.end(), copy.get());
    out = std::string_view(copy.get(), view.size());
    r.owned_text->push_back(std::move(copy));
}

} // namespace agentry::json::detail

#endif
