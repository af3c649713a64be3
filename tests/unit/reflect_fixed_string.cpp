// SPDX-License-Identifier: BSL-1.0
#include <agentry/reflect/fixed_string.hpp>

#include <doctest/doctest.h>

namespace {

template <agentry::fixed_string S>
constexpr std::string_view text_of() {
    return S.view();
}

} // namespace

TEST_CASE("fixed_string keeps a literal usable as a template argument") {
    constexpr agentry::fixed_string name = "get_weather";
    static_assert(name.size() == 11);
    CHECK(name.view() == "get_weather");
    CHECK(std::string_view(name) == "get_weather");
    CHECK(text_of<"abc">() == "abc");
    CHECK(agentry::fixed_string("") .empty());
}

TEST_CASE("fixed_string compares by content across sizes") {
    CHECK(agentry::fixed_string("ab") == agentry::fixed_string("ab"));
    CHECK_FALSE(agentry::fixed_string("ab") == agentry::fixed_string("abc"));
    constexpr agentry::fixed_string<3> from_view{std::string_view("xyz")};
    CHECK(from_view.view() == "xyz");
}
