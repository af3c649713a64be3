// SPDX-License-Identifier: BSL-1.0
#include <agentry/schema/field_docs.hpp>

#include <doctest/doctest.h>

namespace {

struct query {
    int a;
    int b;
    static constexpr auto docs = agentry::field_docs("a", "First", "b", "Second");
};

struct plain {
    int a;
};

} // namespace

TEST_CASE("field_docs pairs names with descriptions") {
    static_assert(query::docs.size() == 2);
    CHECK(query::docs.find("a") == "First");
    CHECK(query::docs.find("b") == "Second");
    CHECK(query::docs.find("c").empty());
}

TEST_CASE("has_field_docs sees the docs member") {
    static_assert(agentry::has_field_docs<query>);
    static_assert(!agentry::has_field_docs<plain>);
    CHECK(agentry::field_docs().size() == 0);
}
