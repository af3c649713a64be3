// SPDX-License-Identifier: BSL-1.0
#include <agentry/schema/raw_json.hpp>

#include <doctest/doctest.h>

TEST_CASE("raw_json keeps its text") {
    agentry::raw_json value{R"({"any":[1,2]})"};
    CHECK(value.text() == R"({"any":[1,2]})");
    CHECK_FALSE(value.empty());
    value.text() = "null";
    CHECK(value == agentry::raw_json("null"));
    CHECK(agentry::raw_json{}.empty());
}
