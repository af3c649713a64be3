// SPDX-License-Identifier: BSL-1.0
#ifndef AGENTRY_DETAIL_SHORTEST_DOUBLE_HPP
#define AGENTRY_DETAIL_SHORTEST_DOUBLE_HPP

// agentry::detail::shortest_text(out, value): the text std::to_chars(first, last, value) writes
// for a finite float or double, in a constant expression: the shortest digits that read back to
// the same value (of those, the nearest; an exact tie to the even digit), in fixed or scientific
// notation, whichever is shorter, fixed on a tie ("95.5", "0.1", "1e-07", "1e+21", "-0",
// "5e-324", "1.7976931348623157e+308"). Fixed notation of an integer longer than its shortest
// digits writes the integer's exact digits, as the standard asks ("123456789012345677877").
//
// How: Burger and Dybvig's free-format algorithm ("Printing Floating-Point Numbers Quickly and
// Accurately", 1996) on exact integers of up to 1280 bits; a float is printed as a float.
//
// Cost: about 40 operations on the integers per digit, each a loop over their 32-bit limbs (at
// most 36 for a double), plus the scaling by 10^k in steps of 10^9. Meant for constants (schema
// defaults), not for the run-time writer.

#include <bit>
#include <cstddef>
#include <cstdint>
#include <type_traits>

namespace agentry::detail {

/// Room for any text shortest_text writes ("-2.2250738585072014e-308" is 24 characters).
inline constexpr std::size_t shortest_text_size = 32;

namespace shortest {

// A nonnegative integer of up to 40 limbs of 32 bits, least significant first.
struct big {
    static constexpr std::size_t capacity = 40;
    std::uint32_t limb[capacity]{};
    std::size_t size = 0;  // limbs in use: limb[size - 1] != 0, or size == 0 for zero

    constexpr void trim() noexcept {
        while (size != 0 && limb[size - 1] == 0) --size;
    }
};

constexpr big make(std::uint64_t v) noexcept {
    big b;
    b.limb[0] = std::uint32_t(v);
    b.limb[1] = std::uint32_t(v >> 32);
    b.size = 2;
    b.trim();
    return b;
}

constexpr void shift_left(big& b, unsigned bits) noexcept {
    const std::size_t whole = bits / 32;
    const unsigned part = bits % 32;
    if (b.size == 0) return;
    std::size_t n = b.size + whole + 1;
    for (std::size_t i = n; i-- != 0;) {
        std::uint64_t v = 0;
        if (i >= whole) {
            const std::size_t j = i - whole;
            if (j < b.size) v = std::uint64_t(b.limb[j]) << part;
            if (part != 0 && j != 0 && j - 1 < b.size) v |= std::uint64_t(b.limb[j - 1]) >> (32 - part);
        }
        b.limb[i] = std::uint32_t(v);
    }
    b.size = n;
    b.trim();
}

constexpr void multiply(big& b, std::uint32_t m) noexcept {
    std::uint64_t carry = 0;
    for (std::size_t i = 0; i != b.size; ++i) {
        const std::uint64_t v = std::uint64_t(b.limb[i]) * m + carry;
        b.limb[i] = std::uint32_t(v);
        carry = v >> 32;
    }
    if (carry != 0) b.limb[b.size++] = std::uint32_t(carry);
}

constexpr void multiply_by_power_of_ten(big& b, int n) noexcept {
    for (; n >= 9; n -= 9) multiply(b, 1000000000u);
    std::uint32_t rest = 1;
    for (; n > 0; --n) rest *= 10;
    if (rest != 1) multiply(b, rest);
}

constexpr big sum(const big& a, const big& b) noexcept {
    big out;
    const std::size_t n = a.size > b.size ? a.size : b.size;
    std::uint64_t carry = 0;
    for (std::size_t i = 0; i != n; ++i) {
        const std::uint64_t v = std::uint64_t(i < a.size ? a.limb[i] : 0) + (i < b.size ? b.limb[i] : 0) + carry;
        out.limb[i] = std::uint32_t(v);
        carry = v >> 32;
    }
    out.size = n;
    if (carry != 0) out.limb[out.size++] = std::uint32_t(carry);
    return out;
}

// a -= b, for a >= b.
constexpr void subtract(big& a, const big& b) noexcept {
    std::int64_t borrow = 0;
    for (std::size_t i = 0; i != a.size; ++i) {
        std::int64_t v = std::int64_t(a.limb[i]) - (i < b.size ? std::int64_t(b.limb[i]) : 0) - borrow;
        borrow = v < 0;
        if (v < 0) v += std::int64_t(1) << 32;
        a.limb[i] = std::uint32_t(v);
    }
    a.trim();
}

// -1, 0 or 1 as a <, == or > b.
constexpr int compare(const big& a, const big& b) noexcept {
    if (a.size != b.size) return a.size < b.size ? -1 : 1;
    for (std::size_t i = a.size; i-- != 0;)
        if (a.limb[i] != b.limb[i]) return a.limb[i] < b.limb[i] ? -1 : 1;
    return 0;
}

// The layout of float and double: significand bits stored, exponent bits, and the binary
// exponent of the last significand bit of the smallest normal value.
template <class F>
struct format;
template <>
struct format<double> {
    using bits = std::uint64_t;
    static constexpr int significand_bits = 52;
    static constexpr int exponent_bits = 11;
    static constexpr int min_exponent = -1074;
};
template <>
struct format<float> {
    using bits = std::uint32_t;
    static constexpr int significand_bits = 23;
    static constexpr int exponent_bits = 8;
    static constexpr int min_exponent = -149;
};

// value = 0.d1 d2 ... dn * 10^k, d1 != 0.
struct decimal_digits {
    char digits[20]{};
    int count = 0;
    int k = 0;
};

// The shortest digits of f * 2^e (f > 0) that read back to it; `even` when f is even, so that
// the halfway points round to it and belong to its interval.
constexpr decimal_digits shortest_digits(std::uint64_t f, int e, bool lower_boundary_closer, bool even) noexcept {
    big r, s, m_plus, m_minus;
    if (e >= 0) {
        r = make(f);
        shift_left(r, unsigned(e) + (lower_boundary_closer ? 2 : 1));
        s = make(lower_boundary_closer ? 4 : 2);
        m_minus = make(1);
        shift_left(m_minus, unsigned(e));
        m_plus = m_minus;
        if (lower_boundary_closer) shift_left(m_plus, 1);
    } else {
        r = make(lower_boundary_closer ? f * 4 : f * 2);
        s = make(1);
        shift_left(s, unsigned(-e) + (lower_boundary_closer ? 2 : 1));
        m_minus = make(1);
        m_plus = make(lower_boundary_closer ? 2 : 1);
    }
    // An estimate of k from the binary exponent, never above the right one; corrected upward.
    int bit_length = 0;
    for (std::uint64_t v = f; v != 0; v >>= 1) ++bit_length;
    const long long x = (long long)e + bit_length - 1;
    long long scaled = x * 78913;
    int k = int(scaled >= 0 ? scaled / 262144 : -((-scaled + 262143) / 262144)) - 1;
    if (k >= 0) {
        multiply_by_power_of_ten(s, k);
    } else {
        multiply_by_power_of_ten(r, -k);
        multiply_by_power_of_ten(m_plus, -k);
        multiply_by_power_of_ten(m_minus, -k);
    }
    for (;;) {
        const int c = compare(sum(r, m_plus), s);
        if (c < 0 || (c == 0 && !even)) break;
        multiply(s, 10);
        ++k;
    }
    decimal_digits out;
    out.k = k;
    for (;;) {
        multiply(r, 10);
        multiply(m_plus, 10);
        multiply(m_minus, 10);
        int d = 0;
        while (compare(r, s) >= 0) {
            subtract(r, s);
            ++d;
        }
        const int low = compare(r, m_minus);
        const int high = compare(sum(r, m_plus), s);
        const bool low_ends = low < 0 || (even && low == 0);
        const bool high_ends = high > 0 || (even && high == 0);
        if (!low_ends && !high_ends) {
            out.digits[out.count++] = char('0' + d);
            continue;
        }
        if (low_ends && high_ends) {
            const int half = compare(sum(r, r), s);
            if (half > 0 || (half == 0 && d % 2 == 1)) ++d;
        } else if (high_ends) {
            ++d;
        }
        out.digits[out.count++] = char('0' + d);
        return out;
    }
}

__extension__ typedef unsigned __int128 uint128;

} // namespace shortest

/// Writes the text std::to_chars writes for `value` (finite float or double) to `out` (at
/// least shortest_text_size characters); returns its length.
template <class F>
constexpr std::size_t shortest_text(char* out, F value) noexcept {
    static_assert(std::is_same_v<F, double> || std::is_same_v<F, float>);
    using layout = shortest::format<F>;
    const auto bits = std::bit_cast<typename layout::bits>(value);
    const bool negative = (bits >> (layout::significand_bits + layout::exponent_bits)) != 0;
    const int biased = int((bits >> layout::significand_bits) & ((1u << layout::exponent_bits) - 1));
    const std::uint64_t stored = std::uint64_t(bits) & ((std::uint64_t(1) << layout::significand_bits) - 1);
    std::size_t n = 0;
    if (negative) out[n++] = '-';
    if (biased == 0 && stored == 0) {
        out[n++] = '0';
        return n;
    }
    const std::uint64_t f = biased == 0 ? stored : stored | (std::uint64_t(1) << layout::significand_bits);
    const int e = biased == 0 ? layout::min_exponent : layout::min_exponent + biased - 1;
    const bool closer = biased > 1 && stored == 0;
    const shortest::decimal_digits d = shortest::shortest_digits(f, e, closer, f % 2 == 0);

    const int count = d.count;
    const int exponent = d.k - 1;  // scientific
    const int magnitude = exponent < 0 ? -exponent : exponent;
    const int scientific_length = count + (count > 1 ? 1 : 0) + 2 + (magnitude >= 100 ? 3 : 2);
    const int fixed_length = d.k >= count ? d.k : d.k > 0 ? count + 1 : 2 - d.k + count;
    if (fixed_length <= scientific_length) {
        if (d.k > count) {
            // An integer below 10^22 (f * 2^e, e < 22): its exact digits.
            shortest::uint128 v = e >= 0 ? shortest::uint128(f) << e : shortest::uint128(f >> -e);
            char digits[24]{};
            int length = 0;
            for (; v != 0; v /= 10) digits[length++] = char('0' + int(v % 10));
            while (length != 0) out[n++] = digits[--length];
        } else if (d.k == count) {
            for (int i = 0; i != count; ++i) out[n++] = d.digits[i];
        } else if (d.k > 0) {
            for (int i = 0; i != count; ++i) {
                if (i == d.k) out[n++] = '.';
                out[n++] = d.digits[i];
            }
        } else {
            out[n++] = '0';
            out[n++] = '.';
            for (int i = d.k; i != 0; ++i) out[n++] = '0';
            for (int i = 0; i != count; ++i) out[n++] = d.digits[i];
        }
        return n;
    }
    out[n++] = d.digits[0];
    if (count > 1) {
        out[n++] = '.';
        for (int i = 1; i != count; ++i) out[n++] = d.digits[i];
    }
    out[n++] = 'e';
    out[n++] = exponent < 0 ? '-' : '+';
    if (magnitude >= 100) out[n++] = char('0' + magnitude / 100);
    out[n++] = char('0' + magnitude / 10 % 10);
    out[n++] = char('0' + magnitude % 10);
    return n;
}

} // namespace agentry::detail

#endif
