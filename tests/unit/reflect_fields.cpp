// SPDX-License-Identifier: BSL-1.0
#include <agentry/reflect/fields.hpp>

#include <doctest/doctest.h>

#include <optional>
#include <string>
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

} // namespace

TEST_CASE("field count and types come from the aggregate") {
    static_assert(agentry::reflect::field_count<point> == 2);
    static_assert(agentry::reflect::field_count<mixed> == 4);
    static_assert(std::is_same_v<agentry::reflect::field_type<1, mixed>, std::optional<double>>);
    static_assert(std::is_same_v<agentry::reflect::field_type<3, mixed>, const bool>);
    CHECK(agentry::reflect::field_count<one> == 1);
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
