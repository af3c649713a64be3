// SPDX-License-Identifier: BSL-1.0
// The calendar arithmetic that stands for <chrono>'s calendar types (detail/chrono.hpp),
// against days counted by hand and against std::chrono::year_month_day itself.
#include <agentry/detail/chrono.hpp>

#include <chrono>

namespace {

using agentry::detail::civil_date;
using agentry::detail::civil_from_days;
using agentry::detail::days_from_civil;
using agentry::detail::valid_civil_date;

constexpr bool same(civil_date a, civil_date b) { return a.year == b.year && a.month == b.month && a.day == b.day; }

static_assert(days_from_civil({1970, 1, 1}) == 0);
static_assert(days_from_civil({1970, 1, 2}) == 1);
static_assert(days_from_civil({1969, 12, 31}) == -1);
static_assert(days_from_civil({2000, 3, 1}) == 11017);
static_assert(days_from_civil({2024, 2, 29}) == 19782);
static_assert(days_from_civil({0, 1, 1}) == -719528);
static_assert(same(civil_from_days(0), {1970, 1, 1}));
static_assert(same(civil_from_days(19782), {2024, 2, 29}));
static_assert(same(civil_from_days(-719528), {0, 1, 1}));
static_assert(same(civil_from_days(-719529), {-1, 12, 31}));

// Every day from 1600 to 2400, and the days around year 0, both ways and as <chrono> counts them.
constexpr bool agrees_with_chrono(int from_year, int to_year) {
    using namespace std::chrono;
    for (int y = from_year; y <= to_year; ++y)
        for (unsigned m = 1; m <= 12; ++m)
            for (unsigned d = 1; d <= 31; ++d) {
                const civil_date c{y, m, d};
                const year_month_day ymd{year{y}, month{m}, day{d}};
                if (valid_civil_date(c) != ymd.ok()) return false;
                if (!ymd.ok()) continue;
                const long long n = days_from_civil(c);
                if (n != sys_days{ymd}.time_since_epoch().count()) return false;
                if (!same(civil_from_days(n), c)) return false;
            }
    return true;
}
static_assert(agrees_with_chrono(-2, 2));
static_assert(agrees_with_chrono(1896, 1904));
static_assert(agrees_with_chrono(1996, 2004));
static_assert(agrees_with_chrono(2096, 2104));

static_assert(valid_civil_date({2023, 2, 28}) && !valid_civil_date({2023, 2, 29}));
static_assert(!valid_civil_date({1900, 2, 29}) && valid_civil_date({2000, 2, 29}));
static_assert(!valid_civil_date({2024, 0, 1}) && !valid_civil_date({2024, 13, 1}) && !valid_civil_date({2024, 4, 31}));

} // namespace

int main() {}
