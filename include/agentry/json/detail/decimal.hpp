#ifndef AGENTRY_JSON_DETAIL_DECIMAL_HPP
#define AGENTRY_JSON_DETAIL_DECIMAL_HPP

// multipleOf on decimal text, exactly: "0.0075" is a multiple of "0.0001", as JSON Schema
// means it, although 0.0075 / 0.0001 is not an integer in binary floating point.

#include <cstddef>
#include <cstdint>
#include <optional>
#include <string_view>

namespace agentry::json::detail {

__extension__ typedef unsigned __int128 uint128;

// A JSON number as significand * 10^exponent, when the significand fits in 64 bits.
struct decimal {
    std::uint64_t significand = 0;
    int exponent = 0;
};

constexpr std::optional<decimal> to_decimal(std::string_view text) noexcept {
    decimal d;
    std::size_t i = 0;
    if (i < text.size() && text[i] == '-') ++i;
    bool in_fraction = false;
    int digits = 0;
    for (; i < text.size(); ++i) {
        const char c = text[i];
        if (c == '.') {
            in_fraction = true;
            continue;
        }
        if (c == 'e' || c == 'E') break;
        if (c < '0' || c > '9') return std::nullopt;
        if (d.significand == 0 && c == '0') {
            if (in_fraction) --d.exponent;
            continue;
        }
        if (++digits > 19) return std::nullopt;
        d.significand = d.significand * 10 + std::uint64_t(c - '0');
        if (in_fraction) --d.exponent;
    }
    if (i < text.size()) {
        ++i;
        bool minus = false;
        if (i < text.size() && (text[i] == '+' || text[i] == '-')) minus = text[i++] == '-';
        int e = 0;
        for (; i < text.size(); ++i) {
            if (text[i] < '0' || text[i] > '9' || e > 100000) return std::nullopt;
            e = e * 10 + (text[i] - '0');
        }
        d.exponent += minus ? -e : e;
    }
    while (d.significand != 0 && d.significand % 10 == 0) {
        d.significand /= 10;
        ++d.exponent;
    }
    return d;
}

/// Whether `value` is an integer multiple of `divisor` (both JSON number text, divisor > 0);
/// empty when the numbers are too long to decide exactly.
constexpr std::optional<bool> decimal_multiple(std::string_view value, std::string_view divisor) noexcept {
    const auto v = to_decimal(value);
    const auto m = to_decimal(divisor);
    if (!v || !m || m->significand == 0) return std::nullopt;
    if (v->significand == 0) return true;
    // v = a * 10^p, m = b * 10^q. With p >= q: v / m = a * 10^(p-q) / b.
    if (v->exponent < m->exponent) {
        // a / (b * 10^k): divisible when b * 10^k divides a.
        const int k = m->exponent - v->exponent;
        if (k > 19) return false;
        uint128 scaled = m->significand;
        for (int i = 0; i < k; ++i) scaled *= 10;
        return uint128(v->significand) % scaled == 0;
    }
    const int k = v->exponent - m->exponent;
    if (k > 19) {
        // b divides a * 2^k * 5^k: remove up to k factors 2 and 5 from b, then b must divide a.
        std::uint64_t b = m->significand;
        for (int i = 0; i < k && (b % 2 == 0 || b % 5 == 0); ++i) {
            if (b % 2 == 0) b /= 2;
            if (b % 5 == 0) b /= 5;
        }
        return v->significand % b == 0;
    }
    uint128 scaled = v->significand;
    for (int i = 0; i < k; ++i) scaled *= 10;
    return scaled % m->significand == 0;
}

} // namespace agentry::json::detail

#endif
