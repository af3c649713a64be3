// SPDX-License-Identifier: BSL-1.0
#include "../fixtures/expected_schemas.hpp"

#include <doctest/doctest.h>

#include <string>

using namespace agentry::dialect;

namespace {

template <class T, class... D>
void check_in() {
    ([] { CHECK(agentry::json_schema<T, D>() == expected::schema<T, D>); }(), ...);
}

template <class T>
void check_everywhere() {
    check_in<T, standard, openai, openai_strict, anthropic, anthropic_strict, gemini, mcp>();
}

struct documented {
    agentry::constrained<std::vector<int>, agentry::unique_items, agentry::max_items<8>> codes;
    std::optional<int> limit = 10;
    static constexpr auto docs = agentry::field_docs("codes", "Codes.", "limit", "Maximum rows");
};

struct with_text_default {
    std::string name;
    std::optional<int> limit = 10;
};

struct escapes {
    agentry::matching<"^\"[a-z]+\\\\$"> quoted;
    static constexpr auto docs = agentry::field_docs("quoted", "Tab\there, \"quotes\" and a newline\n");
};

} // namespace

TEST_CASE("fixture schemas match the expected text in every dialect") {
    check_everywhere<fixtures::weather_query>();
    check_everywhere<fixtures::integers>();
    check_everywhere<fixtures::scalars>();
    check_everywhere<fixtures::paging>();
    check_everywhere<fixtures::numeric_constraints>();
    check_everywhere<fixtures::string_constraints>();
    check_everywhere<fixtures::formats>();
    check_everywhere<fixtures::sequences>();
    check_everywhere<fixtures::create_contact>();
    check_everywhere<fixtures::draw>();
    check_everywhere<fixtures::optional_compounds>();
    check_everywhere<fixtures::enums>();
    check_everywhere<fixtures::nothing>();
    check_in<fixtures::labels, standard, openai, anthropic, mcp>();
    check_in<fixtures::raw_payload, standard, openai, anthropic, mcp>();
    check_in<fixtures::tree_node, standard, openai, openai_strict, anthropic, mcp>();
}

TEST_CASE("integers and floats carry the natural bounds of their type") {
    CHECK(agentry::json_schema<std::int8_t>() == R"({"type":"integer","minimum":-128,"maximum":127})");
    CHECK(agentry::json_schema<std::uint16_t>() == R"({"type":"integer","minimum":0,"maximum":65535})");
    CHECK(agentry::json_schema<std::int64_t>() ==
          R"({"type":"integer","minimum":-9223372036854775808,"maximum":9223372036854775807})");
    CHECK(agentry::json_schema<std::uint64_t>() == R"({"type":"integer","minimum":0,"maximum":18446744073709551615})");
    CHECK(agentry::json_schema<float>() == R"({"type":"number","minimum":-3.4028234663852886e38,"maximum":3.4028234663852886e38})");
    CHECK(agentry::json_schema<float, anthropic_strict>() == R"({"type":"number"})");
    CHECK(agentry::json_schema<double>() ==
          R"({"type":"number","minimum":-1.7976931348623157e308,"maximum":1.7976931348623157e308})");
    CHECK(agentry::json_schema<agentry::in_range<double, 0, 1>>() == R"({"type":"number","minimum":0,"maximum":1})");
    CHECK(agentry::json_schema<agentry::in_range<std::uint8_t, 1, 9>>() ==
          R"({"type":"integer","minimum":1,"maximum":9})");
    CHECK(agentry::json_schema<agentry::constrained<short, agentry::exclusive_minimum<0>>>() ==
          R"({"type":"integer","maximum":32767,"exclusiveMinimum":0})");
}

TEST_CASE("a lowered constraint joins the field description as a sentence") {
    CHECK(agentry::json_schema<documented, openai_strict>() ==
          R"({"type":"object","properties":{)"
          R"("codes":{"type":"array","items":{"type":"integer","minimum":-2147483648,"maximum":2147483647},)"
          R"("maxItems":8,"description":"Codes. Items must be unique."},)"
          R"("limit":{"type":["integer","null"],"minimum":-2147483648,"maximum":2147483647,)"
          R"("description":"Maximum rows. Default: 10."}},)"
          R"("required":["codes","limit"],"additionalProperties":false})");
    CHECK(agentry::json_schema<documented>() ==
          R"({"type":"object","properties":{)"
          R"("codes":{"type":"array","items":{"type":"integer","minimum":-2147483648,"maximum":2147483647},)"
          R"("uniqueItems":true,"maxItems":8,"description":"Codes."},)"
          R"("limit":{"type":"integer","minimum":-2147483648,"maximum":2147483647,)"
          R"("description":"Maximum rows","default":10}},)"
          R"("required":["codes"],"additionalProperties":false})");
    CHECK(agentry::json_schema<std::vector<std::string>, anthropic_strict>() ==
          R"({"type":"array","items":{"type":"string"}})");
    CHECK(agentry::json_schema<agentry::sized_string<1, 8>, openai_strict>() ==
          R"({"type":"string","description":"At least 1 character. At most 8 characters."})");
}

TEST_CASE("defaults are not read from a struct that holds a std::string") {
    const std::string_view s = agentry::json_schema<with_text_default>();
    CHECK(s.find("default") == std::string_view::npos);
    CHECK(s.find(R"("required":["name"])") != std::string_view::npos);
}

TEST_CASE("descriptions and patterns are escaped as JSON strings") {
    CHECK(agentry::json_schema<escapes>() ==
          R"({"type":"object","properties":{"quoted":{"type":"string","pattern":"^\"[a-z]+\\\\$",)"
          R"("description":"Tab\there, \"quotes\" and a newline\n"}},)"
          R"("required":["quoted"],"additionalProperties":false})");
}

TEST_CASE("optional values outside objects are nullable in each dialect's spelling") {
    CHECK(agentry::json_schema<std::vector<std::optional<int>>, anthropic>() ==
          R"({"type":"array","items":{"type":["integer","null"],"minimum":-2147483648,"maximum":2147483647}})");
    CHECK(agentry::json_schema<std::optional<fixtures::temperature_unit>>() ==
          R"({"type":["string","null"],"enum":["celsius","fahrenheit",null]})");
    CHECK(agentry::json_schema<std::optional<fixtures::temperature_unit>, gemini>() ==
          R"({"type":"STRING","enum":["celsius","fahrenheit"],"nullable":true})");
    CHECK(agentry::json_schema<std::optional<std::variant<int, bool>>>() ==
          R"({"anyOf":[{"type":"integer","minimum":-2147483648,"maximum":2147483647},{"type":"boolean"},{"type":"null"}]})");
}

TEST_CASE("the schema text has static storage and is the same on every call") {
    const std::string_view a = agentry::json_schema<fixtures::create_contact, mcp>();
    const std::string_view b = agentry::json_schema<fixtures::create_contact, mcp>();
    CHECK(a.data() == b.data());
    CHECK(a.size() == b.size());
}

namespace first {
struct node {
    int value;
    std::vector<node> children;
};
} // namespace first
namespace second {
struct node {
    bool leaf;
    std::vector<node> children;
};
} // namespace second

namespace {
struct two_trees {
    first::node a;
    second::node b;
};
} // namespace

TEST_CASE("recursive types of the same name get distinct $defs keys") {
    CHECK(agentry::json_schema<two_trees>() ==
          R"({"type":"object","properties":{)"
          R"("a":{"type":"object","properties":{"value":{"type":"integer","minimum":-2147483648,"maximum":2147483647},)"
          R"("children":{"type":"array","items":{"$ref":"#/$defs/node"}}},"required":["value","children"],)"
          R"("additionalProperties":false},)"
          R"("b":{"type":"object","properties":{"leaf":{"type":"boolean"},)"
          R"("children":{"type":"array","items":{"$ref":"#/$defs/node_2"}}},"required":["leaf","children"],)"
          R"("additionalProperties":false}},)"
          R"("required":["a","b"],"additionalProperties":false,"$defs":{)"
          R"("node":{"type":"object","properties":{"value":{"type":"integer","minimum":-2147483648,"maximum":2147483647},)"
          R"("children":{"type":"array","items":{"$ref":"#/$defs/node"}}},"required":["value","children"],)"
          R"("additionalProperties":false},)"
          R"("node_2":{"type":"object","properties":{"leaf":{"type":"boolean"},)"
          R"("children":{"type":"array","items":{"$ref":"#/$defs/node_2"}}},"required":["leaf","children"],)"
          R"("additionalProperties":false}}})");
}

TEST_CASE("a constrained container keeps the notes of both the container and the constraint") {
    CHECK(agentry::json_schema<agentry::constrained<std::set<int>, agentry::max_items<5>>, openai_strict>() ==
          R"({"type":"array","items":{"type":"integer","minimum":-2147483648,"maximum":2147483647},)"
          R"("maxItems":5,"description":"Items must be unique."})");
    CHECK(agentry::json_schema<agentry::constrained<std::array<int, 3>, agentry::unique_items>, anthropic_strict>() ==
          R"({"type":"array","items":{"type":"integer"},"description":"Exactly 3 items. Items must be unique."})");
}

TEST_CASE("the OpenAI strict enum limit counts the values of every enum of the schema") {
    using agentry::schema::detail::schema_text;
    CHECK(schema_text<fixtures::enums, openai_strict>::measured.enum_values == 2 + 3 + 3);
}
