// SPDX-License-Identifier: BSL-1.0
#ifndef AGENTRY_JSON_DETAIL_SUGGEST_HPP
#define AGENTRY_JSON_DETAIL_SUGGEST_HPP

// "Did you mean": the closest candidate by edit distance, ignoring letter case.

#include <agentry/detail/text.hpp>

#include <algorithm>
#include <cstddef>
#include <string_view>

namespace agentry::json::detail {

using agentry::detail::ascii_lower;
using agentry::detail::equal_ignoring_case;

// Optimal string alignment distance (insertions, deletions, substitutions, adjacent
// transpositions), case-insensitive; gives up past `limit` and for long inputs.
constexpr std::size_t edit_distance(std::string_view a, std::string_view b, std::size_t limit) noexcept {
    constexpr std::size_t max_len = 64;
    if (a.size() > max_len || b.size() > max_len) return limit + 1;
    const std::size_t diff = a.size() > b.size() ? a.size() - b.size() : b.size() - a.size();
    if (diff > limit) return limit + 1;
    std::size_t before[max_len + 1]{}, previous[max_len + 1]{}, current[max_len + 1]{};
    for (std::size_t j = 0; j <= b.size(); ++j) previous[j] = j;
    for (std::size_t i = 1; i <= a.size(); ++i) {
        current[0] = i;
        std::size_t row_min = current[0];
        for (std::size_t j = 1; j <= b.size(); ++j) {
            const std::size_t cost = ascii_lower(a[i - 1]) == ascii_lower(b[j - 1]) ? 0 : 1;
            std::size_t v = std::min({previous[j] + 1, current[j - 1] + 1, previous[j - 1] + cost});
            if (i > 1 && j > 1 && ascii_lower(a[i - 1]) == ascii_lower(b[j - 2]) && ascii_lower(a[i - 2]) == ascii_lower(b[j - 1]))
                v = std::min(v, before[j - 2] + 1);
            current[j] = v;
            row_min = std::min(row_min, v);
        }
        if (row_min > limit) return limit + 1;
        for (std::size_t j = 0; j <= b.size(); ++j) {
            before[j] = previous[j];
            previous[j] = current[j];
        }
    }
    return previous[b.size()];
}

/// The candidate closest to `given` (at most a third of its length away, and at most 3
/// edits), or an empty view.
template <class Range>
constexpr std::string_view closest(std::string_view given, const Range& candidates) noexcept {
    const std::size_t limit = std::min<std::size_t>(3, std::max<std::size_t>(1, given.size() / 3));
    std::string_view best;
    std::size_t best_distance = limit + 1;
    for (std::string_view candidate : candidates) {
        const std::size_t d = edit_distance(given, candidate, limit);
        if (d < best_distance) {
            best = candidate;
            best_distance = d;
        }
    }
    return best;
}

} // namespace agentry::json::detail

#endif
