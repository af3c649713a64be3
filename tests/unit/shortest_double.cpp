// SPDX-License-Identifier: BSL-1.0
// agentry::detail::shortest_text, the constant-evaluated writer of schema defaults: the same
// text as std::to_chars and as json::write, for edge cases and for many random values.
#include <agentry/detail/shortest_double.hpp>
#include <agentry/json/writer.hpp>

#include <doctest/doctest.h>

#include <bit>
#include <charconv>
#include <cmath>
#include <cstdint>
#include <limits>
#include <random>
#include <string>
#include <string_view>

namespace {

template <class F>
struct text {
    char chars[agentry::detail::shortest_text_size]{};
    std::size_t size = 0;
    constexpr explicit text(F value) noexcept : size(agentry::detail::shortest_text(chars, value)) {}
    constexpr std::string_view view() const noexcept { return {chars, size}; }
};

static_assert(text(95.5).view() == "95.5");
static_assert(text(0.1).view() == "0.1");
static_assert(text(1e-7).view() == "1e-07");
static_assert(text(1e21).view() == "1e+21");
static_assert(text(5e-324).view() == "5e-324");
static_assert(text(1.7976931348623157e308).view() == "1.7976931348623157e+308");
static_assert(text(-0.0).view() == "-0");
static_assert(text(0.1f).view() == "0.1");
static_assert(text(3.4028235e38f).view() == "3.4028235e+38");

template <class F>
std::string to_chars_text(F value) {
    char buffer[64];
    const std::to_chars_result r = std::to_chars(buffer, buffer + sizeof buffer, value);
    return std::string(buffer, r.ptr);
}

template <class F>
std::string written(F value) {
    std::string out;
    agentry::json::write(out, value);
    return out;
}

} // namespace

TEST_CASE("shortest_text writes what std::to_chars and json::write write, for edge cases") {
    const double doubles[] = {
        95.5, 0.1, 0.3, 1e-7, 5e-324, 1.7976931348623157e308, 123456.789, 9007199254740994.0, -95.5, -0.0, 0.0,
        1.0, 100.0, 1e-6, 1e-5, 1e15, 1e16, 1e21, 1e22, 1e23, 1234567890123400.0, 123456789012345678848.0,
        2.2250738585072014e-308, 2.2250738585072009e-308, 4.9406564584124654e-323, 0.30000000000000004,
        std::numeric_limits<double>::epsilon(), 0x1p-1022, 0x1p1023, -1e300, 2.5e-5, 33.333333333333336};
    for (const double d : doubles) {
        CAPTURE(to_chars_text(d));
        CHECK(text(d).view() == to_chars_text(d));
        CHECK(text(d).view() == written(d));
    }
    const float floats[] = {0.1f, 95.5f, 1e10f, 1.2345678e10f, 3.4028235e38f, 1e-45f, 1.17549435e-38f,
                            16777216.0f, 16777218.0f, 1e-7f, -0.3f, 0.0f, -0.0f};
    for (const float f : floats) {
        CAPTURE(to_chars_text(f));
        CHECK(text(f).view() == to_chars_text(f));
        CHECK(text(f).view() == written(f));
    }
}

TEST_CASE("shortest_text writes what std::to_chars writes, for random doubles and floats") {
    std::mt19937_64 random(20261128);
    int mismatches = 0;
    const auto compare = [&](auto value) {
        if (!std::isfinite(value)) return;
        if (text(value).view() != to_chars_text(value)) {
            ++mismatches;
            CHECK(text(value).view() == to_chars_text(value));
        }
    };
    for (int i = 0; i != 100000 && mismatches < 10; ++i) {
        compare(std::bit_cast<double>(random()));
        compare(std::bit_cast<float>(static_cast<std::uint32_t>(random())));
        compare(static_cast<double>(random() >> (random() % 64)));
        compare(static_cast<double>(i) / 1000);
        compare(static_cast<float>(i) / 100);
        compare(std::ldexp(static_cast<double>(random() >> 11), static_cast<int>(random() % 30) + 10));
    }
    CHECK(mismatches == 0);
}
