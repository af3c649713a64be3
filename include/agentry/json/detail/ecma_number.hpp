// SPDX-License-Identifier: BSL-1.0
#ifndef AGENTRY_JSON_DETAIL_ECMA_NUMBER_HPP
#define AGENTRY_JSON_DETAIL_ECMA_NUMBER_HPP

// Numbers as ECMAScript's Number::toString (radix 10) writes them, the number text of RFC 8785
// (JSON Canonicalization Scheme): the shortest digits that read back to the same double, laid
// out as 100, 3, 0.5, 0.000001, 1e-7, 1e+21, 1.5e+300; -0 as 0.
//
// One exception, for texts people approve: an integer that the nearest double would write as
// another integer (9007199254740993, 12345678901234567890, 1e400) keeps its exact digits, in
// the same layout, instead of being rounded (see canonical_number).

#include <agentry/detail/from_chars.hpp>

#include <charconv>
#include <cmath>
#include <cstddef>
#include <string>
#include <string_view>
#include <system_error>

namespace agentry::json::detail {

/// Appends the number 0.d1d2...dk * 10^n (`digits` = d1..dk, no leading or trailing zero,
/// |n| < 10^16) laid out as Number::toString lays out its digits and n.
inline void append_ecma_layout(std::string& out, bool negative, std::string_view digits, long long n) {
    const auto k = static_cast<long long>(digits.size());
    if (negative) out.push_back('-');
    if (k <= n && n <= 21) {
        out += digits;
        out.append(static_cast<std::size_t>(n - k), '0');
    } else if (0 < n && n <= 21) {
        out += digits.substr(0, static_cast<std::size_t>(n));
        out.push_back('.');
        out += digits.substr(static_cast<std::size_t>(n));
    } else if (-6 < n && n <= 0) {
        out += "0.";
        out.append(static_cast<std::size_t>(-n), '0');
        out += digits;
    } else {
        out.push_back(digits[0]);
        if (k > 1) {
            out.push_back('.');
            out += digits.substr(1);
        }
        out.push_back('e');
        const long long e = n - 1;
        out.push_back(e < 0 ? '-' : '+');
        out += std::to_string(e < 0 ? -e : e);
    }
}

/// The shortest digits that read back to `value` (finite, nonzero) as in append_ecma_layout:
/// `digits` and the n of 0.digits * 10^n.
struct shortest_digits {
    char digits[24]{};
    std::size_t count = 0;
    long long n = 0;
    bool negative = false;

    std::string_view view() const noexcept { return {digits, count}; }
};

inline shortest_digits shortest_of(double value) noexcept {
    // Without a precision, the scientific form is the shortest that reads back: "-d.ddde+XX".
    char text[40];
    const char* const end = std::to_chars(text, text + sizeof text, value, std::chars_format::scientific).ptr;
    shortest_digits s;
    const char* p = text;
    if (*p == '-') {
        s.negative = true;
        ++p;
    }
    for (; p != end && *p != 'e'; ++p)
        if (*p != '.') s.digits[s.count++] = *p;
    while (s.count > 1 && s.digits[s.count - 1] == '0') --s.count;
    long long exponent = 0;
    bool minus = false;
    if (p != end) ++p;  // 'e'
    if (p != end && (*p == '+' || *p == '-')) minus = *p++ == '-';
    for (; p != end; ++p) exponent = exponent * 10 + (*p - '0');
    s.n = (minus ? -exponent : exponent) + 1;
    return s;
}

/// Appends `value` as Number::toString writes it; false, appending nothing, for NaN and the
/// infinities (which have no JSON text).
inline bool append_ecma_number(std::string& out, double value) {
    if (!std::isfinite(value)) return false;
    if (value == 0) {
        out.push_back('0');
        return true;
    }
    const shortest_digits s = shortest_of(value);
    append_ecma_layout(out, s.negative, s.view(), s.n);
    return true;
}

/// Appends the canonical text of the JSON number `token` (valid by RFC 8259's grammar): the
/// text of the nearest double as append_ecma_number writes it, except for an integer that
/// text would give another value (past 2^53, or past the largest double), which keeps its
/// exact digits in the same layout, so that a canonical text never states an amount other
/// than the one written. An integer with an exponent of 16 digits or more is appended as
/// written.
inline void append_canonical_number(std::string& out, std::string_view token) {
    bool negative = false;
    std::size_t i = 0;
    if (i != token.size() && token[i] == '-') {
        negative = true;
        ++i;
    }
    // The significant digits and n, as in append_ecma_layout.
    std::string digits;
    long long n = 0;
    bool fraction = false;
    for (; i != token.size() && token[i] != 'e' && token[i] != 'E'; ++i) {
        const char c = token[i];
        if (c == '.') {
            fraction = true;
        } else if (digits.empty() && c == '0') {
            if (fraction) --n;
        } else {
            digits.push_back(c);
            if (!fraction) ++n;
        }
    }
    while (!digits.empty() && digits.back() == '0') digits.pop_back();
    if (digits.empty()) {
        out.push_back('0');
        return;
    }
    if (i != token.size()) {
        ++i;  // 'e' or 'E'
        bool minus = false;
        if (i != token.size() && (token[i] == '+' || token[i] == '-')) minus = token[i++] == '-';
        while (i + 1 < token.size() && token[i] == '0') ++i;
        if (token.size() - i > 15) {
            // Past any double: 0 when negative, else an integer too long to lay out.
            if (minus) {
                out.push_back('0');
            } else {
                out += token;
            }
            return;
        }
        long long exponent = 0;
        for (; i != token.size(); ++i) exponent = exponent * 10 + (token[i] - '0');
        n += minus ? -exponent : exponent;
    }
    const bool integer = n >= static_cast<long long>(digits.size());
    double value = 0;
    const std::from_chars_result read = agentry::detail::from_chars(token.data(), token.data() + token.size(), value);
    if (read.ec == std::errc::result_out_of_range || !std::isfinite(value)) {
        // Beyond the largest double (an integer) or below the smallest (which rounds to 0).
        if (integer) {
            append_ecma_layout(out, negative, digits, n);
        } else {
            out.push_back('0');
        }
        return;
    }
    if (value == 0) {
        out.push_back('0');
        return;
    }
    const shortest_digits s = shortest_of(value);
    if (integer && (s.view() != digits || s.n != n)) {
        append_ecma_layout(out, negative, digits, n);
        return;
    }
    append_ecma_layout(out, s.negative, s.view(), s.n);
}

} // namespace agentry::json::detail

#endif
