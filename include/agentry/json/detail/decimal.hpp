// SPDX-License-Identifier: BSL-1.0
#ifndef AGENTRY_JSON_DETAIL_DECIMAL_HPP
#define AGENTRY_JSON_DETAIL_DECIMAL_HPP

// Exact arithmetic on JSON number text, where binary floating point would round: whether
// "0.0075" is a multiple of "0.0001", and whether "9007199254740995.0" is an integer.

#include <cstddef>
#include <cstdint>
#include <optional>
#include <string_view>

namespace agentry::json::detail {

__extension__ typedef unsigned __int128 uint128;

/// A JSON number as digits * 10^exponent: the significant digits without leading or
/// trailing zeros (none for zero). A number with more significant digits than `capacity`
/// keeps the first `capacity` of them and counts the rest in `dropped` (and in `exponent`,
/// so that digits * 10^exponent is its value truncated).
struct decimal {
    static constexpr std::size_t capacity = 64;
    char digits[capacity]{};
    std::size_t count = 0;
    std::size_t dropped = 0;
    long long exponent = 0;
    bool negative = false;
    bool huge_exponent = false;  // the exponent text is beyond 10^9 and `exponent` saturated

    constexpr bool exact() const noexcept { return dropped == 0; }
    /// The power of ten of the last nonzero digit: an integer exactly when it is >= 0.
    constexpr long long last_digit_exponent() const noexcept { return exponent - (long long)dropped; }
};

constexpr decimal to_decimal(std::string_view text) noexcept {
    decimal d;
    std::size_t i = 0;
    if (i < text.size() && text[i] == '-') {
        d.negative = true;
        ++i;
    }
    bool fraction = false;
    std::size_t zeros = 0;  // zeros after the last nonzero digit, not yet stored
    for (; i < text.size(); ++i) {
        const char c = text[i];
        if (c == '.') {
            fraction = true;
            continue;
        }
        if (c < '0' || c > '9') break;
        if (fraction) --d.exponent;
        if (c == '0') {
            if (d.count != 0) ++zeros;
            continue;
        }
        if (d.dropped == 0 && d.count + zeros < decimal::capacity) {
            for (; zeros != 0; --zeros) d.digits[d.count++] = '0';
            d.digits[d.count++] = c;
        } else {
            d.dropped += zeros + 1;
            zeros = 0;
        }
    }
    if (i < text.size() && (text[i] == 'e' || text[i] == 'E')) {
        ++i;
        bool minus = false;
        if (i < text.size() && (text[i] == '+' || text[i] == '-')) minus = text[i++] == '-';
        long long e = 0;
        for (; i < text.size(); ++i) {
            if (e > 1000000000) {
                d.huge_exponent = true;
                break;
            }
            e = e * 10 + (text[i] - '0');
        }
        d.exponent += minus ? -e : e;
    }
    d.exponent += (long long)(zeros + d.dropped);
    if (d.count == 0) d.exponent = 0;
    return d;
}

/// The sign of a - b for two JSON number texts, exactly (two numbers of more than 64
/// significant digits that agree on their first 64 compare by how many more they have).
constexpr int decimal_compare(std::string_view a, std::string_view b) noexcept {
    const decimal x = to_decimal(a);
    const decimal y = to_decimal(b);
    const int sx = x.count == 0 ? 0 : (x.negative ? -1 : 1);
    const int sy = y.count == 0 ? 0 : (y.negative ? -1 : 1);
    if (sx != sy || sx == 0) return sx < sy ? -1 : (sx > sy ? 1 : 0);
    // Same sign, both nonzero: compare magnitudes, then apply the sign.
    int m = 0;
    const long long lead_x = x.exponent + (long long)x.count;  // power of ten above the leading digit
    const long long lead_y = y.exponent + (long long)y.count;
    if (x.huge_exponent || y.huge_exponent || lead_x != lead_y) {
        m = lead_x < lead_y ? -1 : (lead_x > lead_y ? 1 : 0);
    }
    for (std::size_t i = 0; m == 0 && i != x.count && i != y.count; ++i)
        if (x.digits[i] != y.digits[i]) m = x.digits[i] < y.digits[i] ? -1 : 1;
    if (m == 0) {
        // One digit string is a prefix of the other: the longer one (or one with dropped
        // nonzero digits) is larger.
        const bool x_more = x.count > y.count || (x.count == y.count && x.dropped > y.dropped);
        const bool y_more = y.count > x.count || (x.count == y.count && y.dropped > x.dropped);
        m = x_more ? 1 : (y_more ? -1 : 0);
    }
    return sx * m;
}

/// Whether `value` is an integer multiple of `divisor` (JSON number text, divisor > 0 with at
/// most 19 significant digits); empty when it cannot be decided exactly.
constexpr std::optional<bool> decimal_multiple(std::string_view value, std::string_view divisor) noexcept {
    const decimal v = to_decimal(value);
    const decimal m = to_decimal(divisor);
    if (!v.exact() || !m.exact() || v.huge_exponent || m.huge_exponent || m.count == 0 || m.count > 19)
        return std::nullopt;
    if (v.count == 0) return true;
    // v = A * 10^p, m = B * 10^q, A without trailing zeros.
    if (v.exponent < m.exponent) return false;  // 10 would have to divide A
    std::uint64_t b = 0;
    for (std::size_t i = 0; i != m.count; ++i) b = b * 10 + std::uint64_t(m.digits[i] - '0');
    // B divides A * 2^k * 5^k: take up to k factors 2 and 5 out of B, then B must divide A.
    const long long k = v.exponent - m.exponent;
    for (long long twos = 0; twos < k && b % 2 == 0; ++twos) b /= 2;
    for (long long fives = 0; fives < k && b % 5 == 0; ++fives) b /= 5;
    uint128 remainder = 0;
    for (std::size_t i = 0; i != v.count; ++i) remainder = (remainder * 10 + unsigned(v.digits[i] - '0')) % b;
    return remainder == 0;
}

/// The exact value of an integer-valued number text (such as "1.0", "1e2" or
/// "9007199254740995.0"): its magnitude, or empty when it has a fraction or exceeds 64 bits.
struct exact_integer {
    std::uint64_t magnitude = 0;
    bool negative = false;
    bool integral = false;  // false: the number has a fraction
    bool fits = false;      // false: integral but beyond 64 bits
};

constexpr exact_integer to_exact_integer(std::string_view text) noexcept {
    exact_integer out;
    const decimal d = to_decimal(text);
    out.negative = d.negative;
    if (d.count == 0) {
        out.integral = out.fits = true;
        return out;
    }
    if (d.last_digit_exponent() < 0) return out;
    out.integral = true;
    if (!d.exact() || std::size_t(d.exponent) + d.count > 20) return out;
    uint128 v = 0;
    for (std::size_t i = 0; i != d.count; ++i) v = v * 10 + unsigned(d.digits[i] - '0');
    for (long long i = 0; i != d.exponent; ++i) v *= 10;
    if (v > uint128(~std::uint64_t(0))) return out;
    out.magnitude = std::uint64_t(v);
    out.fits = true;
    return out;
}

} // namespace agentry::json::detail

#endif
