// SPDX-License-Identifier: BSL-1.0
#ifndef AGENTRY_JSON_DETAIL_READ_NUMBER_HPP
#define AGENTRY_JSON_DETAIL_READ_NUMBER_HPP

// Reading numbers: integers and floating-point values, range-checked against their C++ type,
// and the number_in_string repair.

#include <agentry/detail/from_chars.hpp>
#include <agentry/json/detail/decimal.hpp>
#include <agentry/json/detail/lexer.hpp>
#include <agentry/json/detail/read_state.hpp>
#include <agentry/json/detail/read_string.hpp>

#include <charconv>
#include <cmath>
#include <cstddef>
#include <cstdint>
#include <limits>
#include <string>
#include <string_view>
#include <type_traits>

namespace agentry::json::detail {

// number_in_string repair: the text of a string that holds exactly a JSON number.
inline bool number_from_string(reader& r, std::string& holder, number_token& token) {
    if (!read_string_value(r, holder)) return false;
    cursor inner;
    inner.begin = inner.p = holder.data();
    inner.end = holder.data() + holder.size();
    if (!read_number(inner, token) || inner.p != inner.end) return false;
    r.repaired("a number sent as a string was read as a number");
    return true;
}

// The number token at the cursor (or, with the number_in_string repair, inside a string, whose
// text `holder` keeps); false after reporting why there is none.
template <class T>
bool number_at(reader& r, number_token& token, std::string& holder) {
    if (r.in.peek() == '"' && r.options().repairs.number_in_string) {
        cursor saved = r.in;
        if (number_from_string(r, holder, token)) return true;
        if (r.stopped()) return false;
        r.in = saved;
        type_error<T>(r);
        return false;
    }
    if (r.in.peek() != '-' && (r.in.peek() < '0' || r.in.peek() > '9')) {
        type_error<T>(r);
        return false;
    }
    if (!read_number(r.in, token)) {
        r.syntax_error();
        return false;
    }
    return true;
}

// The sign and the integer digits that start a number: an optional minus, then a lone 0 or
// digits that do not start with 0. `value` wraps past 19 digits; the callers bound `count`.
struct integer_part {
    const char* end = nullptr;
    std::uint64_t value = 0;
    std::size_t count = 0;
    bool minus = false;
};

// False when no digit follows the optional minus.
AGENTRY_JSON_INLINE bool scan_integer_part(const char* p, const char* end, integer_part& out) noexcept {
    out.minus = p != end && *p == '-';
    p += out.minus;
    if (p == end || static_cast<unsigned char>(*p - '0') > 9) return false;
    const char* const first = p;
    std::uint64_t value = 0;
    if (*p == '0') ++p;
    else
        while (p != end && static_cast<unsigned char>(*p - '0') <= 9) value = value * 10 + unsigned(*p++ - '0');
    out.end = p;
    out.value = value;
    out.count = std::size_t(p - first);
    return true;
}

// An integer of at most 18 digits with no fraction or exponent, parsed and range-checked in
// one pass. False, with the cursor where it was, for anything else (other spellings, values out
// of range, text that is no number): the general path of read_integer decides those.
template <class T>
AGENTRY_JSON_INLINE bool read_plain_integer(reader& r, T& out) noexcept {
    const char* const end = r.in.end;
    integer_part digits;
    if (!scan_integer_part(r.in.p, end, digits) || digits.count > 18) return false;
    const char* const p = digits.end;
    if (p != end && (*p == '.' || *p == 'e' || *p == 'E')) return false;
    const std::uint64_t magnitude = digits.value;
    const bool negative = digits.minus && magnitude != 0;
    if constexpr (std::is_signed_v<T>) {
        const std::uint64_t limit = negative ? std::uint64_t(0) - std::uint64_t(std::int64_t(std::numeric_limits<T>::min()))
                                             : std::uint64_t(std::numeric_limits<T>::max());
        if (magnitude > limit) return false;
        out = negative ? T(0 - magnitude) : T(magnitude);
    } else {
        if (negative || magnitude > std::uint64_t(std::numeric_limits<T>::max())) return false;
        out = T(magnitude);
    }
    r.in.p = p;
    return true;
}

// Any other integer text (read_value tries read_plain_integer first).
template <class T>
void read_integer(reader& r, T& out) {
    number_token token;
    std::string holder;
    if (!number_at<T>(r, token, holder)) return;
    const auto too_small = [&] {
        r.error(error_kind::minimum, "must be at least " + std::to_string(std::numeric_limits<T>::min()));
    };
    const auto too_large = [&] {
        r.error(error_kind::maximum, "must be at most " + std::to_string(std::numeric_limits<T>::max()));
    };
    // Plain integers go through from_chars; 1.0, 1e2 or 9007199254740995.0 (integers in JSON
    // Schema) are decided on their exact digits.
    std::uint64_t magnitude = 0;
    bool negative = token.negative;
    if (token.integral) {
        const char* first = token.text.data() + (negative ? 1 : 0);
        const auto [end, ec] = std::from_chars(first, token.text.data() + token.text.size(), magnitude);
        if (ec == std::errc::result_out_of_range) return negative ? too_small() : too_large();
    } else {
        const exact_integer e = to_exact_integer(token.text);
        if (!e.integral) {
            r.error(error_kind::type, "expected an integer, got " + std::string(token.text));
            return;
        }
        if (!e.fits) return negative ? too_small() : too_large();
        magnitude = e.magnitude;
        negative = e.negative;
    }
    if (magnitude == 0) negative = false;
    if constexpr (std::is_signed_v<T>) {
        const std::uint64_t limit = negative ? std::uint64_t(0) - std::uint64_t(std::int64_t(std::numeric_limits<T>::min()))
                                             : std::uint64_t(std::numeric_limits<T>::max());
        if (magnitude > limit) return negative ? too_small() : too_large();
        out = negative ? T(0 - magnitude) : T(magnitude);
    } else {
        if (negative) return too_small();
        if (magnitude > std::uint64_t(std::numeric_limits<T>::max())) return too_large();
        out = T(magnitude);
    }
}

/// The largest magnitude the schema of a float or a double admits (FLT_MAX, DBL_MAX as the
/// shortest text that reads back to them).
template <class T>
inline constexpr std::string_view floating_maximum_text =
    std::is_same_v<T, float> ? std::string_view("3.4028234663852886e38") : std::string_view("1.7976931348623157e308");

// The power of ten of a number token's leading digit, plus one: 3 for "123", 0 for "0.5",
// -2 for "0.001". Decides overflow from underflow when from_chars reports out of range.
inline long long decimal_magnitude(std::string_view text) noexcept {
    std::size_t i = text.starts_with('-') ? 1 : 0;
    long long magnitude = 0;
    bool found = false;
    for (; i < text.size() && text[i] >= '0' && text[i] <= '9'; ++i) {
        if (text[i] != '0') found = true;
        if (found) ++magnitude;
    }
    if (i < text.size() && text[i] == '.') {
        for (++i; i < text.size() && text[i] >= '0' && text[i] <= '9'; ++i) {
            if (found) break;
            if (text[i] != '0') found = true;
            else --magnitude;
        }
        while (i < text.size() && text[i] >= '0' && text[i] <= '9') ++i;
    }
    if (i < text.size() && (text[i] == 'e' || text[i] == 'E')) {
        ++i;
        const bool minus = i < text.size() && text[i] == '-';
        if (i < text.size() && (text[i] == '+' || text[i] == '-')) ++i;
        long long e = 0;
        for (; i < text.size() && e < 1000000; ++i) e = e * 10 + (text[i] - '0');
        magnitude += minus ? -e : e;
    }
    return magnitude;
}

// The nearest double to `text` when it is -?digits(.digits)? with at most 15 digits in all:
// the digits as an integer, exact in a double, divided by an exact power of ten is correctly
// rounded (Clinger's fast path). False for any other text, which from_chars reads.
inline bool read_short_decimal(std::string_view text, double& out) noexcept {
    static constexpr double powers[] = {1e0, 1e1, 1e2,  1e3,  1e4,  1e5,  1e6,  1e7,
                                        1e8, 1e9, 1e10, 1e11, 1e12, 1e13, 1e14, 1e15};
    const char* p = text.data();
    const char* const end = p + text.size();
    const bool negative = p != end && *p == '-';
    p += negative;
    std::uint64_t digits = 0;
    std::size_t count = 0, fraction = 0;
    bool point = false;
    for (; p != end; ++p) {
        if (static_cast<unsigned char>(*p - '0') <= 9) {
            digits = digits * 10 + unsigned(*p - '0');
            ++count;
            fraction += point;
        } else if (*p == '.' && !point && count != 0) {
            point = true;
        } else {
            return false;
        }
    }
    if (count == 0 || count > 15 || (point && fraction == 0)) return false;
    const double value = double(digits) / powers[fraction];
    out = negative ? -value : value;
    return true;
}

// The nearest double to the number `text` (a JSON number), as from_chars reads it.
inline std::from_chars_result read_double(std::string_view text, double& out) noexcept {
    if (read_short_decimal(text, out)) return {text.data() + text.size(), std::errc{}};
    return agentry::detail::from_chars(text.data(), text.data() + text.size(), out);
}

// A number of at most 15 digits with no exponent, read in one pass: the digits as an integer,
// exact in a double, divided by an exact power of ten, which is correctly rounded (as
// read_short_decimal and from_chars read it). False, with the cursor where it was, for
// anything else: the general path of read_floating decides those.
template <class T>
AGENTRY_JSON_INLINE bool read_plain_decimal(reader& r, T& out) noexcept {
    static constexpr double powers[] = {1e0, 1e1, 1e2,  1e3,  1e4,  1e5,  1e6,  1e7,
                                        1e8, 1e9, 1e10, 1e11, 1e12, 1e13, 1e14, 1e15};
    const char* const end = r.in.end;
    integer_part integer;
    if (!scan_integer_part(r.in.p, end, integer)) return false;
    const char* p = integer.end;
    const bool minus = integer.minus;
    std::uint64_t digits = integer.value;
    std::size_t count = integer.count, fraction = 0;
    if (p != end && *p == '.') {
        const char* const point = ++p;
        while (p != end && static_cast<unsigned char>(*p - '0') <= 9) digits = digits * 10 + unsigned(*p++ - '0');
        fraction = std::size_t(p - point);
        if (fraction == 0) return false;
        count += fraction;
    }
    if (count > 15 || (p != end && (*p == 'e' || *p == 'E'))) return false;
    const double value = double(digits) / powers[fraction];
    out = T(minus ? -value : value);
    r.in.p = p;
    return true;
}

// Any other number text (read_value tries read_plain_decimal first).
template <class T>
void read_floating(reader& r, T& out) {
    number_token token;
    std::string holder;
    if (!number_at<T>(r, token, holder)) return;
    double d = 0;
    const auto [end, ec] = read_double(token.text, d);
    constexpr double top = std::numeric_limits<T>::max();
    if (ec == std::errc::result_out_of_range) {
        if (decimal_magnitude(token.text) > 0) d = token.negative ? -HUGE_VAL : HUGE_VAL;
        else d = token.negative ? -0.0 : 0.0;  // underflow: as JSON.parse reads it
    }
    // The schema states the type's range; the nearest double decides unless it is the limit.
    if (!(d > -top && d < top)) {
        constexpr std::string_view limit = floating_maximum_text<T>;
        const std::string_view magnitude = token.negative ? token.text.substr(1) : token.text;
        if (decimal_compare(magnitude, limit) > 0)
            return token.negative ? r.error(error_kind::minimum, "must be at least -" + std::string(limit))
                                  : r.error(error_kind::maximum, "must be at most " + std::string(limit));
    }
    out = T(d);
}

} // namespace agentry::json::detail

#endif
