// SPDX-License-Identifier: BSL-1.0
#ifndef AGENTRY_DETAIL_CHRONO_HPP
#define AGENTRY_DETAIL_CHRONO_HPP

// <chrono>'s durations, time points and clocks, which is all of <chrono> agentry's headers use,
// and calendar arithmetic in place of its calendar types. In C++20, libstdc++'s <chrono> adds
// the calendar, time zones and their stream output (<sstream> and the locales): about half a
// second of parsing per translation unit with GCC 12 (0.62 s against 0.10 s here). Its
// <bits/chrono.h>, which its own <thread> and <mutex> include, has exactly the part used;
// other libraries get <chrono>.

#include <version>  // names the library (__GLIBCXX__)

#if defined(__GLIBCXX__) && __has_include(<bits/chrono.h>)
#include <bits/chrono.h>
#else
#include <chrono>
#endif

namespace agentry::detail {

/// A day of the proleptic Gregorian calendar, for the few places that read or write dates
/// (the date formats, Retry-After): the conversions to and from days since 1970-01-01 are the
/// usual era arithmetic (400-year eras of 146,097 days, years counted from March).
struct civil_date {
    long long year;
    unsigned month;
    unsigned day;
};

constexpr long long days_from_civil(civil_date d) noexcept {
    const long long y = d.month <= 2 ? d.year - 1 : d.year;
    const long long era = (y >= 0 ? y : y - 399) / 400;
    const long long year_of_era = y - era * 400;
    const long long day_of_year = (153 * (d.month > 2 ? d.month - 3 : d.month + 9) + 2) / 5 + d.day - 1;
    const long long day_of_era = year_of_era * 365 + year_of_era / 4 - year_of_era / 100 + day_of_year;
    return era * 146097 + day_of_era - 719468;
}

constexpr civil_date civil_from_days(long long z) noexcept {
    z += 719468;
    const long long era = (z >= 0 ? z : z - 146096) / 146097;
    const long long day_of_era = z - era * 146097;
    const long long year_of_era = (day_of_era - day_of_era / 1460 + day_of_era / 36524 - day_of_era / 146096) / 365;
    const long long day_of_year = day_of_era - (365 * year_of_era + year_of_era / 4 - year_of_era / 100);
    const long long mp = (5 * day_of_year + 2) / 153;
    const auto day = static_cast<unsigned>(day_of_year - (153 * mp + 2) / 5 + 1);
    const auto month = static_cast<unsigned>(mp < 10 ? mp + 3 : mp - 9);
    return {year_of_era + era * 400 + (month <= 2 ? 1 : 0), month, day};
}

/// True when `d` is a day of the calendar (a month of 1-12, a day the month has).
constexpr bool valid_civil_date(civil_date d) noexcept {
    if (d.month < 1 || d.month > 12 || d.day < 1) return false;
    constexpr unsigned lengths[] = {31, 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31};
    const bool leap = d.year % 4 == 0 && (d.year % 100 != 0 || d.year % 400 == 0);
    return d.day <= (d.month == 2 && leap ? 29u : lengths[d.month - 1]);
}

} // namespace agentry::detail

#endif
