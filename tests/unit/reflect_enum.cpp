// SPDX-License-Identifier: BSL-1.0
#include <agentry/reflect/enum.hpp>

#include <doctest/doctest.h>

#include <array>
#include <cstdint>
#include <type_traits>

namespace colours {
enum class colour { red, green = 5, blue };
}

namespace {

enum unscoped { first_value = -3, second_value = 100 };
enum class small : std::uint8_t { lo = 0, hi = 200 };
enum class wide : int { a = 1000, b = 1001 };

struct holder {
    enum class mode : long long { down = -100, off = 0, on = 1, same = 1, up = 127 };
};

} // namespace

template <>
struct agentry::enum_range<small> {
    static constexpr long long min = 0;
    static constexpr long long max = 255;
};

template <>
struct agentry::enum_range<wide> {
    static constexpr long long min = 990;
    static constexpr long long max = 1010;
};

TEST_CASE("enumerator names and values, in ascending order of value") {
    using agentry::reflect::enum_entries;
    static_assert(agentry::reflect::enum_count<colours::colour> == 3);
    CHECK(enum_entries<colours::colour>[0].second == "red");
    CHECK(enum_entries<colours::colour>[1].first == colours::colour::green);
    CHECK(enum_entries<colours::colour>[1].second == "green");
    CHECK(enum_entries<colours::colour>[2].second == "blue");
    CHECK(int(enum_entries<colours::colour>[2].first) == 6);
}

TEST_CASE("enum_values and enum_names hold the same entries in two arrays") {
    using agentry::reflect::enum_names;
    using agentry::reflect::enum_values;
    static_assert(std::is_same_v<std::remove_cvref_t<decltype(enum_values<colours::colour>)>,
                                 std::array<colours::colour, 3>>);
    static_assert(enum_names<colours::colour>[1] == "green");
    for (std::size_t i = 0; i != agentry::reflect::enum_count<colours::colour>; ++i) {
        CHECK(enum_values<colours::colour>[i] == agentry::reflect::enum_entries<colours::colour>[i].first);
        CHECK(enum_names<colours::colour>[i] == agentry::reflect::enum_entries<colours::colour>[i].second);
    }
    CHECK(int(enum_values<colours::colour>[2]) == 6);
    CHECK(enum_names<small>[1] == "hi");
}

TEST_CASE("unscoped enums and negative values") {
    CHECK(agentry::reflect::enum_count<unscoped> == 2);
    CHECK(agentry::reflect::enum_name(first_value) == "first_value");
    CHECK(agentry::reflect::enum_name(second_value) == "second_value");
    CHECK(agentry::reflect::enum_name(static_cast<unscoped>(7)).empty());
}

TEST_CASE("enum_range widens the scan") {
    CHECK(agentry::reflect::enum_count<small> == 2);
    CHECK(agentry::reflect::enum_name(small::hi) == "hi");
    CHECK(agentry::reflect::enum_count<wide> == 2);
    CHECK(agentry::reflect::enum_name(wide::b) == "b");
}

TEST_CASE("the values without a name are skipped whatever the enum's type prints as") {
    // A nested enum in an anonymous namespace, with aliases: its casts print as
    // "((anonymous namespace)::holder::mode)5" (Clang) or "(<unnamed>::holder::mode)5" (GCC).
    using mode = holder::mode;
    static_assert(agentry::reflect::enum_count<mode> == 4);
    CHECK(agentry::reflect::enum_name(mode::down) == "down");
    CHECK(agentry::reflect::enum_name(mode::off) == "off");
    CHECK(agentry::reflect::enum_name(mode::on) == "on");
    CHECK(agentry::reflect::enum_name(mode::up) == "up");
    CHECK(int(agentry::reflect::enum_entries<mode>[3].first) == 127);
    CHECK(agentry::reflect::enum_name(static_cast<mode>(-128)).empty());
    CHECK(agentry::reflect::enum_name(static_cast<mode>(2)).empty());
}
