// SPDX-License-Identifier: BSL-1.0
#include <agentry/schema/constraints.hpp>

#include <doctest/doctest.h>

#include <string>
#include <vector>

TEST_CASE("number_literal reads integers and JSON number text") {
    constexpr agentry::number_literal five = 5;
    static_assert(five.valid && five.integral && five.view() == "5");
    constexpr agentry::number_literal negative = -42;
    static_assert(negative.negative && negative.magnitude == 42 && negative.view() == "-42");
    constexpr agentry::number_literal half = "0.5";
    static_assert(half.valid && !half.integral && half.to_double() == 0.5);
    constexpr agentry::number_literal exp = "-1.25e2";
    static_assert(exp.valid && exp.to_double() == -125.0);
    CHECK(agentry::number_literal("12").integral);
    CHECK(agentry::number_literal("12").magnitude == 12);
}

TEST_CASE("number_literal rejects text that is not a JSON number") {
    CHECK_FALSE(agentry::number_literal("1.2.3").valid);
    CHECK_FALSE(agentry::number_literal("01").valid);
    CHECK_FALSE(agentry::number_literal("1.").valid);
    CHECK_FALSE(agentry::number_literal("+1").valid);
    CHECK_FALSE(agentry::number_literal("").valid);
    CHECK_FALSE(agentry::number_literal("1e").valid);
    CHECK_FALSE(agentry::number_literal("abc").valid);
}

TEST_CASE("numbers compare exactly as integers, otherwise as doubles") {
    static_assert(agentry::compare(agentry::number_literal(-3), agentry::number_literal(2)) < 0);
    static_assert(agentry::compare(agentry::number_literal("0.5"), agentry::number_literal(0)) > 0);
    static_assert(agentry::compare(agentry::number_literal(7), agentry::number_literal("7")) == 0);
    CHECK(agentry::compare(agentry::number_literal("-0"), agentry::number_literal(0)) == 0);
}

TEST_CASE("constrained values read and write like their value type") {
    agentry::in_range<int, 1, 10> count = 3;
    int plain = count;
    CHECK(plain == 3);
    count = 7;
    CHECK(count.value == 7);
    CHECK(*count == 7);
    agentry::sized_string<1, 64> name = "Ada";
    CHECK(name->size() == 3);
    CHECK(name.get() == "Ada");
    const std::string& ref = name;
    CHECK(ref == "Ada");
    agentry::sized_vector<std::string, 1, 5> tags{std::vector<std::string>{"a", "b"}};
    CHECK(tags->size() == 2);
    CHECK(agentry::in_range<int, 1, 10>(4) < agentry::in_range<int, 1, 10>(5));
}

TEST_CASE("constraints name their keyword and value") {
    using price = agentry::constrained<double, agentry::exclusive_minimum<"0.5">, agentry::multiple_of<"0.25">>;
    static_assert(agentry::is_constrained<price>);
    static_assert(!agentry::is_constrained<double>);
    static_assert(agentry::exclusive_minimum<"0.5">::keyword == agentry::constraint_keyword::exclusive_minimum);
    static_assert(agentry::keyword_name(agentry::constraint_keyword::multiple_of) == "multipleOf");
    static_assert(agentry::format_name(agentry::string_format::date_time) == "date-time");
    static_assert(agentry::pattern<"^[a-z]+$">::value == "^[a-z]+$");
    CHECK(agentry::max_items<5>::value == 5);
}

TEST_CASE("patterns are checked for well-formedness") {
    using agentry::detail::pattern_well_formed;
    static_assert(pattern_well_formed("^[A-Z]{3}$"));
    static_assert(pattern_well_formed("(?:ab|cd)+\\d*"));
    static_assert(pattern_well_formed("[(]"));
    CHECK_FALSE(pattern_well_formed("([a-z]"));
    CHECK_FALSE(pattern_well_formed("[a-z"));
    CHECK_FALSE(pattern_well_formed("abc\\"));
    CHECK_FALSE(pattern_well_formed("*a"));
    CHECK_FALSE(pattern_well_formed("a{2"));
    CHECK_FALSE(pattern_well_formed("a)"));
}
