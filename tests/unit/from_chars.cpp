// SPDX-License-Identifier: BSL-1.0
// agentry::detail::from_chars, the one reader of doubles: std::from_chars where the standard
// library has it, else fast_float's behind the same results. The edge cases run against the
// reader in use and, where fast_float is installed, against the fast_float reader as well
// (AGENTRY_FROM_CHARS_TEST_FAST_FLOAT), which is then also compared with std::from_chars.
#define AGENTRY_FROM_CHARS_TEST_FAST_FLOAT
#include <agentry/detail/from_chars.hpp>
#include <agentry/provider/provider.hpp>

#include <doctest/doctest.h>

#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstring>
#include <limits>
#include <random>
#include <string>
#include <string_view>
#include <system_error>
#include <vector>

namespace {

using reader = std::from_chars_result (*)(const char*, const char*, double&) noexcept;

constexpr double untouched = 42.5;

struct edge {
    std::string_view text;
    std::errc ec;
    std::size_t used;
    double value;  // untouched when `out` must be left as it was
};

const double inf = std::numeric_limits<double>::infinity();
const double min_subnormal = std::numeric_limits<double>::denorm_min();
const double max = std::numeric_limits<double>::max();

const std::vector<edge> edges = {
    {"0", std::errc{}, 1, 0.0},
    {"-0", std::errc{}, 2, -0.0},
    {"1.5", std::errc{}, 3, 1.5},
    {"-2.25e2", std::errc{}, 7, -225.0},
    {"1E3", std::errc{}, 3, 1000.0},
    {".5", std::errc{}, 2, 0.5},
    {"1.", std::errc{}, 2, 1.0},
    {"00012", std::errc{}, 5, 12.0},
    {"0.1", std::errc{}, 3, 0.1},
    {"9007199254740993", std::errc{}, 16, 9007199254740992.0},
    // Beyond the range: result_out_of_range, `out` unchanged.
    {"1e400", std::errc::result_out_of_range, 5, untouched},
    {"-1e400", std::errc::result_out_of_range, 6, untouched},
    {"1.7976931348623159e308", std::errc::result_out_of_range, 22, untouched},
    {"1e99999999999999999999", std::errc::result_out_of_range, 22, untouched},
    {"1e-400", std::errc::result_out_of_range, 6, untouched},
    {"-1e-400", std::errc::result_out_of_range, 7, untouched},
    {"2e-324", std::errc::result_out_of_range, 6, untouched},
    {"2.4703282292062327e-324", std::errc::result_out_of_range, 23, untouched},
    {"123456789012345678901234567890e-400", std::errc::result_out_of_range, 35, untouched},
    // At the edges of the range, and zero however written.
    {"1.7976931348623158e308", std::errc{}, 22, max},
    {"2.4703282292062328e-324", std::errc{}, 23, min_subnormal},
    {"3e-324", std::errc{}, 6, min_subnormal},
    {"0e999999", std::errc{}, 8, 0.0},
    {"0.000e-99999", std::errc{}, 12, 0.0},
    {"0e-400", std::errc{}, 6, 0.0},
    // Infinity and NaN are read, in any case.
    {"inf", std::errc{}, 3, inf},
    {"-inf", std::errc{}, 4, -inf},
    {"INFINITY", std::errc{}, 8, inf},
    {"infinit", std::errc{}, 3, inf},
    // The number ends where the syntax does: no hex, no exponent without digits.
    {"0x1p3", std::errc{}, 1, 0.0},
    {"1e", std::errc{}, 1, 1.0},
    {"1e+", std::errc{}, 1, 1.0},
    {"1e-5x", std::errc{}, 4, 1e-5},
    {"2,5", std::errc{}, 1, 2.0},
    // No number at all.
    {"", std::errc::invalid_argument, 0, untouched},
    {"+1", std::errc::invalid_argument, 0, untouched},
    {" 1", std::errc::invalid_argument, 0, untouched},
    {"-", std::errc::invalid_argument, 0, untouched},
    {".", std::errc::invalid_argument, 0, untouched},
    {"e5", std::errc::invalid_argument, 0, untouched},
    {"in", std::errc::invalid_argument, 0, untouched},
    {"x", std::errc::invalid_argument, 0, untouched},
};

void check_edges(reader read) {
    for (const edge& e : edges) {
        CAPTURE(e.text);
        double out = untouched;
        const auto [end, ec] = read(e.text.data(), e.text.data() + e.text.size(), out);
        CHECK(ec == e.ec);
        CHECK(std::size_t(end - e.text.data()) == e.used);
        CHECK(out == e.value);
        CHECK(std::signbit(out) == std::signbit(e.value));
    }
    for (const std::string_view nan : {"nan", "-nan", "NaN", "nan(123)"}) {
        CAPTURE(nan);
        double out = untouched;
        const auto [end, ec] = read(nan.data(), nan.data() + nan.size(), out);
        CHECK(ec == std::errc{});
        CHECK(end == nan.data() + nan.size());
        CHECK(std::isnan(out));
    }
}

} // namespace

TEST_CASE("from_chars: the edge cases of the reader in use") {
    check_edges(agentry::detail::from_chars);
}

#if defined(AGENTRY_DETAIL_HAS_FAST_FLOAT)
TEST_CASE("from_chars: the edge cases of the fast_float reader") {
    check_edges(agentry::detail::from_chars_fast_float);
}

#if defined(__cpp_lib_to_chars)
// Random doubles in shortest and 17-digit form, random digit strings and the texts around the
// ends of the range: both readers give the same value, end and error.
TEST_CASE("from_chars: the fast_float reader agrees with std::from_chars") {
    std::mt19937_64 random(20240611);
    std::vector<std::string> texts;
    char buffer[64];
    for (int i = 0; i != 20000; ++i) {
        std::uint64_t bits = random();
        double d = 0;
        std::memcpy(&d, &bits, sizeof d);
        if (!std::isfinite(d)) continue;
        const auto written = std::to_chars(buffer, buffer + sizeof buffer, d);
        texts.emplace_back(buffer, written.ptr);
        std::snprintf(buffer, sizeof buffer, "%.17e", d);
        texts.emplace_back(buffer);
    }
    for (int i = 0; i != 20000; ++i) {
        std::string text;
        if (random() % 2) text += '-';
        for (std::uint64_t n = random() % 30; n-- != 0;) text += char('0' + random() % 10);
        if (random() % 2) text += '.';
        for (std::uint64_t n = random() % 30; n-- != 0;) text += char('0' + random() % 10);
        if (random() % 2) text += "e" + std::to_string(std::int64_t(random() % 800) - 400);
        texts.push_back(text);
    }
    for (int exponent = -330; exponent <= -320; ++exponent)
        for (const char* digits : {"1", "2", "2.4703282292062327", "2.4703282292062328", "4.9", "9"})
            texts.push_back(std::string(digits) + "e" + std::to_string(exponent));
    for (const char* digits : {"1.7976931348623157", "1.7976931348623158", "1.7976931348623159", "1.8"})
        texts.push_back(std::string(digits) + "e308");
    for (const std::string& text : texts) {
        CAPTURE(text);
        double from_std = untouched, from_fast_float = untouched;
        const auto a = std::from_chars(text.data(), text.data() + text.size(), from_std);
        const auto b = agentry::detail::from_chars_fast_float(text.data(), text.data() + text.size(), from_fast_float);
        REQUIRE(a.ec == b.ec);
        REQUIRE(a.ptr == b.ptr);
        REQUIRE(std::memcmp(&from_std, &from_fast_float, sizeof(double)) == 0);
    }
}
#endif
#endif

// The readers of doubles built on it keep their results in every configuration.
TEST_CASE("from_chars: a server's number reads the same with every reader") {
    const auto read = [](std::string_view text) { return agentry::detail::read_server_number(text); };
    CHECK(read("2")->first == 2.0);
    CHECK(read("1.5s")->first == 1.5);
    CHECK(read("1.5s")->second == 3);
    CHECK(read("1e400")->first == inf);
    CHECK(read("1e400")->second == 5);
    CHECK(read("1e-400")->first == 0.0);
    CHECK(read("0.0000")->first == 0.0);
    CHECK(read("inf")->first == inf);
    CHECK(read("infinity")->second == 8);
    CHECK(read("0x10")->first == 0.0);
    CHECK(read("0x10")->second == 1);
    CHECK_FALSE(read("nan"));
    CHECK_FALSE(read("-1"));
    CHECK_FALSE(read("-1e400"));
    CHECK_FALSE(read("+1"));
    CHECK_FALSE(read(""));
    CHECK_FALSE(read("soon"));
}
