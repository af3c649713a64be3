// SPDX-License-Identifier: BSL-1.0
#include <agentry/reflect/fields.hpp>

#include <boost/pfr/core.hpp>
#include <boost/pfr/tuple_size.hpp>
#include <doctest/doctest.h>

#include <array>
#include <chrono>
#include <cstdint>
#include <map>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <tuple>
#include <variant>
#include <vector>

namespace {

struct point {
    int x;
    int y_coordinate;
};

struct mixed {
    std::string name;
    std::optional<double> _ratio;
    std::vector<point> points;
    const bool flag2;
};

struct one {
    char c;
};

struct empty {};

enum class colour { red, green };

struct nested_members {
    point where;
    std::array<point, 2> corners;
    std::map<std::string, std::vector<int>> index;
    std::variant<int, std::string, point> either;
    std::tuple<int, std::string> pair;
    std::string_view view;
    colour tint = colour::green;
    std::chrono::milliseconds wait{5};
    std::optional<point> maybe;
};

struct move_only {
    std::unique_ptr<int> owned;
    std::string label;
};

struct no_default {
    std::string& text;
    int number;
};

struct bits {
    std::uint8_t a : 1, b : 1, c : 1, d : 1, e : 1, f : 1, g : 1, h : 1, i : 1, j : 1;
};

struct many {
    int f0, f1, f2, f3, f4, f5, f6, f7, f8, f9, f10, f11, f12, f13, f14, f15, f16, f17, f18, f19, f20, f21,
        f22, f23, f24, f25, f26, f27, f28, f29, f30, f31, f32, f33, f34, f35, f36, f37, f38, f39, f40, f41,
        f42, f43, f44, f45, f46, f47, f48, f49, f50, f51, f52, f53, f54, f55, f56, f57, f58, f59, f60, f61,
        f62, f63, f64, f65, f66, f67, f68, f69;
};

// More fields than one list in __PRETTY_FUNCTION__ holds (Clang prints ten elements, then "...").
struct twelve {
    int a0;
    std::string b1;
    double c2;
    std::vector<int> d3;
    bool e4;
    std::optional<int> f5;
    int g6;
    int h7;
    std::string i8_long_name;
    int j9;
    colour k10;
    int last;
};

template <char C, int N>
struct tagged {
    int first_field;
    std::string second;
};

template <class T>
constexpr bool named_first_second = agentry::reflect::field_names<T>.size() == 2 &&
                                    agentry::reflect::field_names<T>[0] == "first_field" &&
                                    agentry::reflect::field_names<T>[1] == "second";

template <class T>
constexpr bool counted_as_pfr = agentry::reflect::field_count<T> == boost::pfr::tuple_size_v<T>;

template <class T, std::size_t... I>
constexpr bool typed_as_pfr(std::index_sequence<I...>) {
    return (std::is_same_v<agentry::reflect::field_type<I, T>, boost::pfr::tuple_element_t<I, T>> && ...);
}

template <class T>
constexpr bool same_as_pfr = counted_as_pfr<T> && typed_as_pfr<T>(std::make_index_sequence<boost::pfr::tuple_size_v<T>>{});

} // namespace

TEST_CASE("field count and types come from the aggregate") {
    static_assert(agentry::reflect::field_count<point> == 2);
    static_assert(agentry::reflect::field_count<mixed> == 4);
    static_assert(std::is_same_v<agentry::reflect::field_type<1, mixed>, std::optional<double>>);
    static_assert(std::is_same_v<agentry::reflect::field_type<3, mixed>, const bool>);
    CHECK(agentry::reflect::field_count<one> == 1);
}

TEST_CASE("field count and types agree with Boost.PFR on every kind of member") {
    static_assert(same_as_pfr<point>);
    static_assert(same_as_pfr<mixed>);
    static_assert(same_as_pfr<one>);
    static_assert(same_as_pfr<empty>);
    static_assert(same_as_pfr<nested_members>);
    static_assert(same_as_pfr<move_only>);
    static_assert(same_as_pfr<no_default>);
    static_assert(counted_as_pfr<bits>);
    static_assert(counted_as_pfr<many>);
    CHECK(agentry::reflect::field_count<nested_members> == 9);
    CHECK(agentry::reflect::field_count<move_only> == 2);
    CHECK(agentry::reflect::field_count<no_default> == 2);
    CHECK(agentry::reflect::field_count<bits> == 10);
    CHECK(agentry::reflect::field_count<many> == 70);
    CHECK(agentry::reflect::field_count<empty> == 0);
}

TEST_CASE("field<I> is a reference to the field, const when the object is") {
    mixed value{"a", 0.5, {{1, 2}}, true};
    agentry::reflect::field<0>(value) = "b";
    CHECK(value.name == "b");
    CHECK(&agentry::reflect::field<2>(value) == &value.points);
    const mixed& view = value;
    static_assert(std::is_same_v<decltype(agentry::reflect::field<1>(view)), const std::optional<double>&>);
    static_assert(std::is_same_v<decltype(agentry::reflect::field<1>(value)), std::optional<double>&>);
    CHECK(agentry::reflect::field<1>(view) == 0.5);
    move_only owner{std::make_unique<int>(7), "x"};
    CHECK(*agentry::reflect::field<0>(owner) == 7);
    static constexpr point corner{3, 4};
    static_assert(agentry::reflect::field<1>(corner) == 4);
}

TEST_CASE("field names are read at compile time, in declaration order") {
    constexpr auto names = agentry::reflect::field_names<mixed>;
    static_assert(names[0] == "name");
    CHECK(names[0] == "name");
    CHECK(names[1] == "_ratio");
    CHECK(names[2] == "points");
    CHECK(names[3] == "flag2");
    CHECK(agentry::reflect::field_names<point>[1] == "y_coordinate");
    CHECK(agentry::reflect::field_names<one>[0] == "c");
}

TEST_CASE("field names of templates whose arguments print brackets and commas") {
    static_assert(named_first_second<tagged<'a', 1>>);
    static_assert(named_first_second<tagged<',', -2>>);
    static_assert(named_first_second<tagged<'(', 3>>);
    static_assert(named_first_second<tagged<')', 4>>);
    static_assert(named_first_second<tagged<'{', 5>>);
    static_assert(named_first_second<tagged<'}', 6>>);
    static_assert(named_first_second<tagged<'<', 7>>);
    static_assert(named_first_second<tagged<'>', 8>>);
    static_assert(agentry::reflect::field_names<nested_members>[8] == "maybe");
    static_assert(agentry::reflect::field_names<empty>.empty());
    static_assert(agentry::reflect::field_names<twelve>[7] == "h7" && agentry::reflect::field_names<twelve>[8] == "i8_long_name");
    static_assert(agentry::reflect::field_names<twelve>[10] == "k10" && agentry::reflect::field_names<twelve>[11] == "last");
    CHECK(agentry::reflect::field_names<many>[69] == "");
}

TEST_CASE("field_index finds a name or returns the field count") {
    static_assert(agentry::reflect::field_index<mixed>("points") == 2);
    CHECK(agentry::reflect::field_index<mixed>("flag2") == 3);
    CHECK(agentry::reflect::field_index<mixed>("missing") == 4);
    CHECK(agentry::reflect::field_index<mixed>("") == 4);
}

TEST_CASE("the aggregate concept excludes non-aggregates") {
    static_assert(agentry::reflect::aggregate<point>);
    static_assert(!agentry::reflect::aggregate<std::string>);
    static_assert(!agentry::reflect::aggregate<int>);
    static_assert(!agentry::reflect::aggregate<const point>);
    CHECK(true);
}
