// SPDX-License-Identifier: BSL-1.0
#ifndef AGENTRY_JSON_DETAIL_READ_CONSTRAINTS_HPP
#define AGENTRY_JSON_DETAIL_READ_CONSTRAINTS_HPP

// The constraints of agentry::constrained values (bounds, lengths, patterns, formats, items),
// checked against the value read and the text it was sent as.

#include <agentry/detail/from_chars.hpp>
#include <agentry/detail/text.hpp>
#include <agentry/json/detail/canonical.hpp>
#include <agentry/json/detail/decimal.hpp>
#include <agentry/json/detail/formats.hpp>
#include <agentry/json/detail/lexer.hpp>
#include <agentry/json/detail/read_number.hpp>
#include <agentry/json/detail/read_state.hpp>
#include <agentry/reflect/function.hpp>
#include <agentry/regex/pattern.hpp>
#include <agentry/schema/constraints.hpp>

#include <algorithm>
#include <charconv>
#include <cmath>
#include <cstddef>
#include <cstdint>
#include <cstring>
#include <optional>
#include <string>
#include <string_view>
#include <type_traits>
#include <utility>
#include <vector>

namespace agentry::json::detail {

// The bytes that do not continue a UTF-8 sequence (not 10xxxxxx), eight at a time.
inline std::size_t code_points(std::string_view s) noexcept {
    const char* p = s.data();
    const std::size_t size = s.size();
    std::size_t continuation = 0, i = 0;
    for (; i + 8 <= size; i += 8) {
        std::uint64_t w;
        std::memcpy(&w, p + i, 8);
        // The top bit of each byte that is 10xxxxxx, moved to its low bit, summed by a multiply.
        const std::uint64_t marks = (w & ~(w << 1) & 0x8080808080808080ull) >> 7;
        continuation += static_cast<std::size_t>((marks * 0x0101010101010101ull) >> 56);
    }
    for (; i != size; ++i) continuation += (static_cast<unsigned char>(p[i]) & 0xC0) == 0x80;
    return size - continuation;
}

// Whether s has at least N code points: a short minimum is decided by the first bytes.
template <std::size_t N>
bool at_least_code_points(std::string_view s) noexcept {
    if constexpr (N > 16) {
        return code_points(s) >= N;
    } else {
        std::size_t left = N;
        for (std::size_t i = 0; i != s.size() && left != 0; ++i) left -= (static_cast<unsigned char>(s[i]) & 0xC0) != 0x80;
        return left == 0;
    }
}

/// Steps of the pattern engine a search may take before it gives up (no catastrophic
/// backtracking); a value that needs more is reported as too complex to check.
inline constexpr std::size_t pattern_step_limit = 1'000'000;

template <fixed_string Pattern>
const std::optional<regex::pattern>& compiled_pattern() {
    static const std::optional<regex::pattern> compiled = regex::pattern::compile(Pattern.view());
    return compiled;
}

// A bound as the nearest double, parsed once: correctly rounded, unlike constant evaluation.
template <class C>
const double bound_as_double = [] {
    double d = 0;
    const std::string_view text = C::value.view();
    agentry::detail::from_chars(text.data(), text.data() + text.size(), d);
    return d;
}();

// A constrained value as it was sent, which the checks of its constraints read.
struct sent_value {
    /// Its JSON text; for a value sent inside a JSON string (the number_in_string and
    /// json_in_string repairs), the string's content.
    std::string_view text;
    /// For a number: the nearest double to `text`, before any rounding to float.
    double number = 0;
};

// "must be at least 3" and the like: a broken bound, out of line.
AGENTRY_JSON_COLD_DECL void bound_error(reader& r, error_kind kind, std::string_view what, std::string_view bound);

// "must be at least 3 characters long" and the like, out of line.
AGENTRY_JSON_COLD_DECL void length_error(reader& r, error_kind kind, std::string_view what, std::size_t n);

// minimum, maximum, their exclusive forms, multipleOf. Integers against integral bounds compare
// exactly; otherwise the nearest doubles decide and, when equal, the exact decimal texts.
template <class C, class T>
void check_number_constraint(reader& r, T& v, const sent_value& sent) {
    constexpr constraint_keyword k = C::keyword;
    constexpr number_literal bound = C::value;
    if constexpr (k == constraint_keyword::multiple_of) {
        bool multiple = true;
        if constexpr (std::is_integral_v<T> && bound.integral) {
            multiple = (unsigned long long)(v < 0 ? 0 - (unsigned long long)v : (unsigned long long)v) %
                           bound.magnitude == 0;
        } else if (const std::optional<bool> exact = decimal_multiple(sent.text, bound.view())) {
            multiple = *exact;
        } else {
            const double q = sent.number / bound_as_double<C>;
            multiple = std::isfinite(q) && q == std::floor(q);
        }
        if (!multiple) bound_error(r, error_kind::multiple_of, "must be a multiple of ", C::value.view());
        return;
    }
    int order = 0;  // sign of v - bound
    if constexpr (std::is_integral_v<T> && bound.integral) {
        if constexpr (std::is_signed_v<T>) {
            const long long b = bound.negative ? -(long long)bound.magnitude : (long long)bound.magnitude;
            order = (long long)v < b ? -1 : ((long long)v > b ? 1 : 0);
        } else {
            const unsigned long long b = bound.magnitude;
            order = bound.negative ? 1 : ((unsigned long long)v < b ? -1 : ((unsigned long long)v > b ? 1 : 0));
        }
    } else {
        const double b = bound_as_double<C>;
        order = sent.number < b ? -1 : (sent.number > b ? 1 : 0);
        if (order == 0) order = decimal_compare(sent.text, bound.view());
    }
    if constexpr (k == constraint_keyword::minimum) {
        if (order < 0) bound_error(r, error_kind::minimum, "must be at least ", C::value.view());
    } else if constexpr (k == constraint_keyword::exclusive_minimum) {
        if (order <= 0) bound_error(r, error_kind::exclusive_minimum, "must be greater than ", C::value.view());
        else if constexpr (std::is_same_v<T, double>) {
            // Above the bound, but rounded onto it (0.1000000000000000001 > 0.1): the next
            // double up, so that the tool sees a value its bound admits.
            if (v <= bound_as_double<C>) v = std::nextafter(bound_as_double<C>, HUGE_VAL);
        }
    } else if constexpr (k == constraint_keyword::maximum) {
        if (order > 0) bound_error(r, error_kind::maximum, "must be at most ", C::value.view());
    } else {
        if (order >= 0) bound_error(r, error_kind::exclusive_maximum, "must be less than ", C::value.view());
        else if constexpr (std::is_same_v<T, double>) {
            if (v >= bound_as_double<C>) v = std::nextafter(bound_as_double<C>, -HUGE_VAL);
        }
    }
}

// minLength, maxLength (in code points), pattern, format.
template <class C>
void check_string_constraint(reader& r, const std::string& v) {
    constexpr constraint_keyword k = C::keyword;
    // A string has at most as many code points as bytes: most lengths are decided without
    // counting them.
    if constexpr (k == constraint_keyword::min_length) {
        if (v.size() < C::value || !at_least_code_points<C::value>(v))
            length_error(r, error_kind::min_length, "must be at least ", C::value);
    } else if constexpr (k == constraint_keyword::max_length) {
        if (v.size() > C::value && code_points(v) > C::value)
            length_error(r, error_kind::max_length, "must be at most ", C::value);
    } else if constexpr (k == constraint_keyword::pattern) {
        const auto& compiled = compiled_pattern<fixed_string<C::value.size()>(C::value)>();
        const regex::pattern::match_result m = compiled ? compiled->search_bounded(v, pattern_step_limit)
                                                        : regex::pattern::match_result::no_match;
        if (m == regex::pattern::match_result::too_complex)
            r.error(error_kind::pattern, "could not be checked against the regular expression " +
                                             std::string(C::value) + ": the match needs more than " +
                                             std::to_string(pattern_step_limit) +
                                             " steps; send a shorter or simpler value");
        else if (m == regex::pattern::match_result::no_match)
            r.error(error_kind::pattern, "must match the regular expression " + std::string(C::value));
    } else {
        if (!valid_format(C::value, v)) r.error(error_kind::format, "must be a valid " + std::string(format_name(C::value)));
    }
}

// The earliest item that has a later equal item, and that later item; {n, n} when all differ.
// Equality of JSON values, as JSON Schema compares them: 1 and 1.0 are equal, key order does
// not matter, and an absent member differs from a present one.
inline std::pair<std::size_t, std::size_t> first_repeated(std::string_view array) {
    const std::vector<std::string> items = canonical_elements(array);
    // Sorted by (text, index): equal items are adjacent, the first of each run is the earliest.
    std::vector<std::size_t> order(items.size());
    for (std::size_t i = 0; i != order.size(); ++i) order[i] = i;
    std::sort(order.begin(), order.end(), [&](std::size_t a, std::size_t b) {
        const int c = items[a].compare(items[b]);
        return c != 0 ? c < 0 : a < b;
    });
    std::size_t first = items.size(), second = items.size();
    for (std::size_t i = 1; i < order.size(); ++i) {
        if (items[order[i]] == items[order[i - 1]] && (i == 1 || items[order[i - 2]] != items[order[i - 1]]) &&
            order[i - 1] < first) {
            first = order[i - 1];
            second = order[i];
        }
    }
    return {first, second};
}

// minItems, maxItems, uniqueItems.
template <class C, class T>
void check_items_constraint(reader& r, const T& v, const sent_value& sent) {
    constexpr constraint_keyword k = C::keyword;
    const auto items = [](std::size_t n) { return std::to_string(n) + (n == 1 ? " item" : " items"); };
    if constexpr (k == constraint_keyword::min_items) {
        if (v.size() < C::value) r.error(error_kind::min_items, "must have at least " + items(C::value));
    } else if constexpr (k == constraint_keyword::max_items) {
        if (v.size() > C::value) r.error(error_kind::max_items, "must have at most " + items(C::value));
    } else {
        const auto [first, second] = first_repeated(sent.text);
        if (first != second)
            r.error(error_kind::unique_items, "items must be unique; items " + std::to_string(first) + " and " +
                                                  std::to_string(second) + " are equal");
    }
}

template <class C, class T>
void check_constraint(reader& r, T& v, const sent_value& sent) {
    if constexpr (C::target == constraint_target::number) check_number_constraint<C>(r, v, sent);
    else if constexpr (C::target == constraint_target::string) check_string_constraint<C>(r, v);
    else check_items_constraint<C>(r, v, sent);
}

template <class T, class... C>
void read_constrained(reader& r, T& out, reflect::type_list<C...>) {
    const std::size_t before = r.error_count();
    r.in.skip_ws();
    const char* start = r.in.p;
    read_value(r, out);
    if (r.error_count() != before || r.stopped()) return;
    sent_value sent{std::string_view(start, std::size_t(r.in.p - start))};
    std::string content;  // a number or an array sent as a JSON string (a repair): its content
    if (kind_of<T>() != kind::string && sent.text.starts_with('"')) {
        cursor in;
        in.begin = in.p = sent.text.data();
        in.end = sent.text.data() + sent.text.size();
        read_string(in, &content);
        sent.text = agentry::detail::trim(content);
    }
    if constexpr (std::is_arithmetic_v<T>) {
        // A double read is already the nearest double to the text; a float is not.
        if constexpr (std::is_floating_point_v<T> && !std::is_same_v<T, double>)
            read_double(sent.text, sent.number);
        else sent.number = double(out);
    }
    (check_constraint<C>(r, out, sent), ...);
}

} // namespace agentry::json::detail

#endif
