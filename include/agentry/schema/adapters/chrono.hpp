// SPDX-License-Identifier: BSL-1.0
#ifndef AGENTRY_SCHEMA_ADAPTERS_CHRONO_HPP
#define AGENTRY_SCHEMA_ADAPTERS_CHRONO_HPP

// std::chrono types through agentry::adapter:
//
// | type                                   | JSON                                                  |
// | -------------------------------------- | ----------------------------------------------------- |
// | std::chrono::duration<Rep, Period>     | a number of Period units (integer for an integral     |
// |                                        | Rep), the unit in the description: "In seconds."      |
// | sys_days, year_month_day               | string, format date: "2024-05-01"                     |
// | sys_time<D>, system_clock::time_point  | string, format date-time, UTC: "2024-05-01T12:00:00Z",|
// |                                        | with the fraction D keeps (at most 9 digits)          |
//
// Reading a date-time converts its offset to UTC; a leap second (":60") is read as the next
// second; digits finer than D are dropped (rounded toward the past); an instant D cannot hold
// is refused with a message. Dates are written with four-digit years (a year outside
// 0000-9999, which the date format does not admit, is written with its sign and digits).

#include <agentry/outcome.hpp>
#include <agentry/schema/adapter.hpp>
#include <agentry/schema/constraints.hpp>

#include <agentry/detail/chrono.hpp>

#include <array>
#include <concepts>
#include <cstddef>
#include <cstdint>
#include <ratio>
#include <string>
#include <string_view>
#include <type_traits>

namespace agentry {

namespace schema::detail {

// "In <unit>." for a duration's period, as text with static storage.
template <class Period>
consteval auto period_text() noexcept {
    std::array<char, 96> text{};
    std::size_t n = 0;
    const auto put = [&](std::string_view s) {
        for (char c : s) text[n++] = c;
    };
    const auto put_number = [&](std::intmax_t v) {
        char digits[24]{};
        std::size_t k = 0;
        do {
            digits[k++] = char('0' + v % 10);
            v /= 10;
        } while (v != 0);
        while (k != 0) text[n++] = digits[--k];
    };
    put("In ");
    if constexpr (std::is_same_v<Period, std::nano>) put("nanoseconds");
    else if constexpr (std::is_same_v<Period, std::micro>) put("microseconds");
    else if constexpr (std::is_same_v<Period, std::milli>) put("milliseconds");
    else if constexpr (std::is_same_v<Period, std::ratio<1>>) put("seconds");
    else if constexpr (std::is_same_v<Period, std::ratio<60>>) put("minutes");
    else if constexpr (std::is_same_v<Period, std::ratio<3600>>) put("hours");
    else if constexpr (std::is_same_v<Period, std::ratio<86400>>) put("days");
    else if constexpr (std::is_same_v<Period, std::ratio<604800>>) put("weeks");
    else {
        put("units of ");
        put_number(Period::num);
        if (Period::den != 1) {
            put("/");
            put_number(Period::den);
        }
        put(" seconds");
    }
    put(".");
    text[95] = char(n);
    return text;
}

template <class Period>
inline constexpr auto period_text_v = period_text<Period>();

inline void put_digits(std::string& out, long long value, int width) {
    char digits[24];
    int n = 0;
    unsigned long long v = value < 0 ? 0ull - static_cast<unsigned long long>(value) : static_cast<unsigned long long>(value);
    do {
        digits[n++] = char('0' + v % 10);
        v /= 10;
    } while (v != 0);
    if (value < 0) out.push_back('-');
    for (int i = n; i < width; ++i) out.push_back('0');
    while (n != 0) out.push_back(digits[--n]);
}

inline std::string date_text(agentry::detail::civil_date d) {
    std::string out;
    put_digits(out, d.year, 4);
    out.push_back('-');
    put_digits(out, d.month, 2);
    out.push_back('-');
    put_digits(out, d.day, 2);
    return out;
}

inline std::string date_text(std::chrono::sys_days d) {
    return date_text(agentry::detail::civil_from_days(d.time_since_epoch().count()));
}

constexpr int digits_at(std::string_view s, std::size_t at, std::size_t n) noexcept {
    int v = 0;
    for (std::size_t i = 0; i != n; ++i) v = v * 10 + (s[at + i] - '0');
    return v;
}

// A text the date format admits ("YYYY-MM-DD", a real day).
inline std::chrono::sys_days parse_date(std::string_view s) noexcept {
    const agentry::detail::civil_date d{digits_at(s, 0, 4), unsigned(digits_at(s, 5, 2)), unsigned(digits_at(s, 8, 2))};
    return std::chrono::sys_days{std::chrono::days{agentry::detail::days_from_civil(d)}};
}

/// A calendar date type: std::chrono::year_month_day, known by what it does (a day of the
/// calendar, from and to sys_days) rather than by name, so that its declaration is needed only
/// where it is used.
template <class T>
concept calendar_date = requires(const T& d, std::chrono::sys_days day) {
    { d.ok() } -> std::same_as<bool>;
    static_cast<int>(d.year());
    static_cast<unsigned>(d.month());
    static_cast<unsigned>(d.day());
    { T{day} } -> std::same_as<T>;
    { std::chrono::sys_days{d} } -> std::same_as<std::chrono::sys_days>;
};

// A text the date-time format admits, as seconds since the epoch (UTC) and nanoseconds.
struct utc_instant {
    std::chrono::sys_seconds seconds;
    std::chrono::nanoseconds fraction;
};

inline utc_instant parse_date_time(std::string_view s) noexcept {
    using namespace std::chrono;
    const sys_days day = parse_date(s.substr(0, 10));
    std::size_t at = 10;
    while (at < s.size() && !(s[at] >= '0' && s[at] <= '9')) ++at;  // the separator (T, t or a space)
    const int hh = digits_at(s, at, 2), mm = digits_at(s, at + 3, 2), ss = digits_at(s, at + 6, 2);
    at += 8;
    long long nanos = 0;
    if (at < s.size() && s[at] == '.') {
        int taken = 0;
        for (++at; at < s.size() && s[at] >= '0' && s[at] <= '9'; ++at)
            if (taken < 9) nanos = nanos * 10 + (s[at] - '0'), ++taken;
        for (; taken < 9; ++taken) nanos *= 10;
    }
    int offset_minutes = 0;
    if (at < s.size() && (s[at] == '+' || s[at] == '-')) {
        const int sign = s[at] == '-' ? -1 : 1;
        const int oh = digits_at(s, at + 1, 2);
        int om = 0;
        at += 3;
        if (at < s.size() && s[at] == ':') ++at;
        if (at + 2 <= s.size()) om = digits_at(s, at, 2);
        offset_minutes = sign * (oh * 60 + om);
    }
    const sys_seconds local = day + hours(hh) + minutes(mm) + seconds(ss);
    return {local - minutes(offset_minutes), nanoseconds(nanos)};
}

} // namespace schema::detail

/// A duration: a number of its own units.
template <class Rep, class Period>
struct adapter<std::chrono::duration<Rep, Period>> {
    static_assert(std::is_arithmetic_v<Rep> && !std::is_same_v<Rep, bool>,
                  "agentry: a std::chrono::duration is sent as its count: its Rep must be an integer or floating-point "
                  "type");
    using json_type = Rep;
    static constexpr std::string_view description{schema::detail::period_text_v<Period>.data(),
                                                  std::size_t(schema::detail::period_text_v<Period>[95])};
    static constexpr Rep to_json(const std::chrono::duration<Rep, Period>& d) noexcept { return d.count(); }
    static constexpr std::chrono::duration<Rep, Period> from_json(Rep count) noexcept {
        return std::chrono::duration<Rep, Period>(count);
    }
};

/// A calendar date (std::chrono::year_month_day): "YYYY-MM-DD".
template <schema::detail::calendar_date T>
struct adapter<T> {
    using json_type = date_string;
    static date_string to_json(const T& d) { return {schema::detail::date_text(std::chrono::sys_days{d})}; }
    static T from_json(const date_string& text) noexcept { return T{schema::detail::parse_date(text.value)}; }
};

/// A day as a time point: "YYYY-MM-DD".
template <>
struct adapter<std::chrono::sys_days> {
    using json_type = date_string;
    static date_string to_json(const std::chrono::sys_days& d) { return {schema::detail::date_text(d)}; }
    static std::chrono::sys_days from_json(const date_string& text) noexcept {
        return schema::detail::parse_date(text.value);
    }
};

/// An instant: an RFC 3339 date-time in UTC, "YYYY-MM-DDTHH:MM:SS[.fraction]Z".
template <class Duration>
struct adapter<std::chrono::time_point<std::chrono::system_clock, Duration>> {
    using time_point = std::chrono::time_point<std::chrono::system_clock, Duration>;
    using json_type = date_time_string;

    static date_time_string to_json(const time_point& t) {
        using namespace std::chrono;
        const auto day = floor<days>(t);
        std::string out = schema::detail::date_text(day);
        const auto since_midnight = t - day;
        const auto s = floor<seconds>(since_midnight);
        const long long total = s.count();
        out.push_back('T');
        schema::detail::put_digits(out, total / 3600, 2);
        out.push_back(':');
        schema::detail::put_digits(out, total / 60 % 60, 2);
        out.push_back(':');
        schema::detail::put_digits(out, total % 60, 2);
        if constexpr (std::ratio_less_v<typename Duration::period, std::ratio<1>>) {
            long long nanos = duration_cast<nanoseconds>(since_midnight - s).count();
            if (nanos != 0) {
                int width = 9;
                while (nanos % 10 == 0) nanos /= 10, --width;
                out.push_back('.');
                schema::detail::put_digits(out, nanos, width);
            }
        }
        out.push_back('Z');
        return {std::move(out)};
    }

    static outcome<time_point> from_json(const date_time_string& text) {
        using namespace std::chrono;
        const schema::detail::utc_instant at = schema::detail::parse_date_time(text.value);
        // The range of Duration in seconds, one second inside, in long double: no overflow.
        using period = typename Duration::period;
        using limits = duration_values<typename Duration::rep>;
        constexpr long double scale = static_cast<long double>(period::num) / static_cast<long double>(period::den);
        constexpr long double lowest = static_cast<long double>(limits::min()) * scale + 1;
        constexpr long double highest = static_cast<long double>(limits::max()) * scale - 1;
        const auto count = static_cast<long double>(at.seconds.time_since_epoch().count());
        if (count < lowest || count > highest)
            return fail(failure_kind::invalid_input, "is outside the range of times this parameter can hold");
        if constexpr (std::ratio_less_v<typename Duration::period, std::ratio<1>>)
            return time_point_cast<Duration>(at.seconds) + floor<Duration>(at.fraction);
        else
            return floor<Duration>(at.seconds);
    }
};

} // namespace agentry

#endif
