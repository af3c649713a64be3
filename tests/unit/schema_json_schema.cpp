// SPDX-License-Identifier: BSL-1.0
#include "../fixtures/expected_schemas.hpp"

#include <doctest/doctest.h>

#include <cstdint>
#include <string>
#include <string_view>

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

struct fractional_defaults {
    std::optional<double> score = 95.5;
    std::optional<double> tiny = 1e-7;
    std::optional<float> ratio = 0.1f;
    std::optional<double> whole = 2.0;
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
    check_in<fixtures::integers, with_natural_bounds<standard>, with_natural_bounds<openai_strict>,
             with_natural_bounds<anthropic_strict>, with_natural_bounds<gemini>>();
    check_in<fixtures::scalars, with_natural_bounds<standard>, with_natural_bounds<openai_strict>,
             with_natural_bounds<anthropic_strict>, with_natural_bounds<gemini>>();
    check_in<fixtures::numeric_constraints, with_natural_bounds<standard>, with_natural_bounds<openai_strict>,
             with_natural_bounds<anthropic_strict>, with_natural_bounds<gemini>>();
}

TEST_CASE("the natural bounds of a number type are left out, and written on request") {
    CHECK(agentry::json_schema<std::int8_t>() == R"({"type":"integer"})");
    CHECK(agentry::json_schema<std::uint16_t>() == R"({"type":"integer"})");
    CHECK(agentry::json_schema<std::int64_t>() == R"({"type":"integer"})");
    CHECK(agentry::json_schema<std::uint64_t>() == R"({"type":"integer"})");
    CHECK(agentry::json_schema<float>() == R"({"type":"number"})");
    CHECK(agentry::json_schema<double>() == R"({"type":"number"})");
    CHECK(agentry::json_schema<double, gemini>() == R"({"type":"NUMBER"})");
    CHECK(agentry::json_schema<agentry::in_range<double, 0, 1>>() == R"({"type":"number","minimum":0,"maximum":1})");
    CHECK(agentry::json_schema<agentry::in_range<std::uint8_t, 1, 9>>() ==
          R"({"type":"integer","minimum":1,"maximum":9})");
    CHECK(agentry::json_schema<agentry::constrained<short, agentry::exclusive_minimum<0>>>() ==
          R"({"type":"integer","exclusiveMinimum":0})");

    using natural = with_natural_bounds<standard>;
    CHECK(agentry::json_schema<std::int8_t, natural>() == R"({"type":"integer","minimum":-128,"maximum":127})");
    CHECK(agentry::json_schema<std::uint16_t, natural>() == R"({"type":"integer","minimum":0,"maximum":65535})");
    CHECK(agentry::json_schema<std::int64_t, natural>() ==
          R"({"type":"integer","minimum":-9223372036854775808,"maximum":9223372036854775807})");
    CHECK(agentry::json_schema<std::uint64_t, natural>() ==
          R"({"type":"integer","minimum":0,"maximum":18446744073709551615})");
    CHECK(agentry::json_schema<float, natural>() ==
          R"({"type":"number","minimum":-3.4028234663852886e38,"maximum":3.4028234663852886e38})");
    CHECK(agentry::json_schema<float, with_natural_bounds<anthropic_strict>>() == R"({"type":"number"})");
    CHECK(agentry::json_schema<double, natural>() ==
          R"({"type":"number","minimum":-1.7976931348623157e308,"maximum":1.7976931348623157e308})");
    CHECK(agentry::json_schema<double, with_natural_bounds<gemini>>() ==
          R"({"type":"NUMBER","minimum":-1.7976931348623157e308,"maximum":1.7976931348623157e308})");
    // A stated bound replaces the natural one on its side only.
    CHECK(agentry::json_schema<agentry::constrained<short, agentry::exclusive_minimum<0>>, natural>() ==
          R"({"type":"integer","maximum":32767,"exclusiveMinimum":0})");
    CHECK(agentry::json_schema<agentry::in_range<std::uint8_t, 1, 9>, natural>() ==
          R"({"type":"integer","minimum":1,"maximum":9})");
    // The variant keeps every other rule of its dialect.
    CHECK(with_natural_bounds<openai_strict>::kind == agentry::dialect_kind::openai_strict);
    CHECK(with_natural_bounds<openai_strict>::rules.all_required);
    CHECK(!openai_strict::rules.natural_bounds);
    CHECK(agentry::json_schema<documented, with_natural_bounds<openai_strict>>() ==
          R"({"type":"object","properties":{)"
          R"("codes":{"type":"array","items":{"type":"integer","minimum":-2147483648,"maximum":2147483647},)"
          R"("maxItems":8,"description":"Codes. Items must be unique."},)"
          R"("limit":{"type":["integer","null"],"minimum":-2147483648,"maximum":2147483647,)"
          R"("description":"Maximum rows. Default: 10."}},)"
          R"("required":["codes","limit"],"additionalProperties":false})");
}

namespace {

template <class T>
std::string natural_range_error(std::string_view text) {
    const auto r = agentry::json::read<T>(text);
    if (r.ok() || r.errors.size() != 1) return "accepted or several errors";
    return r.errors[0].to_string();
}

struct all_numbers {
    std::int8_t i8;
    std::uint8_t u8;
    std::int16_t i16;
    std::uint16_t u16;
    std::int32_t i32;
    std::uint32_t u32;
    std::int64_t i64;
    std::uint64_t u64;
    float f;
    double d;
};

} // namespace

TEST_CASE("a natural bound left out of the schema is still checked, with a message stating it") {
    CHECK(natural_range_error<std::int8_t>("-129") == "must be at least -128");
    CHECK(natural_range_error<std::int8_t>("128") == "must be at most 127");
    CHECK(natural_range_error<std::uint8_t>("-1") == "must be at least 0");
    CHECK(natural_range_error<std::uint8_t>("256") == "must be at most 255");
    CHECK(natural_range_error<std::int16_t>("-32769") == "must be at least -32768");
    CHECK(natural_range_error<std::int16_t>("32768") == "must be at most 32767");
    CHECK(natural_range_error<std::uint16_t>("65536") == "must be at most 65535");
    CHECK(natural_range_error<std::int32_t>("-2147483649") == "must be at least -2147483648");
    CHECK(natural_range_error<std::int32_t>("2147483648") == "must be at most 2147483647");
    CHECK(natural_range_error<std::uint32_t>("4294967296") == "must be at most 4294967295");
    CHECK(natural_range_error<std::uint32_t>("-1") == "must be at least 0");
    CHECK(natural_range_error<std::int64_t>("-9223372036854775809") == "must be at least -9223372036854775808");
    CHECK(natural_range_error<std::int64_t>("9223372036854775808") == "must be at most 9223372036854775807");
    CHECK(natural_range_error<std::uint64_t>("18446744073709551616") == "must be at most 18446744073709551615");
    CHECK(natural_range_error<std::uint64_t>("-1") == "must be at least 0");
    CHECK(natural_range_error<float>("3.5e38") == "must be at most 3.4028234663852886e38");
    CHECK(natural_range_error<float>("-3.5e38") == "must be at least -3.4028234663852886e38");
    CHECK(natural_range_error<double>("1e309") == "must be at most 1.7976931348623157e308");
    CHECK(natural_range_error<double>("-1e309") == "must be at least -1.7976931348623157e308");
    // The limits themselves are accepted.
    CHECK(agentry::json::read<std::uint8_t>("255").ok());
    CHECK(agentry::json::read<std::int64_t>("-9223372036854775808").ok());
    CHECK(agentry::json::read<double>("1.7976931348623157e308").ok());
    CHECK(agentry::json::read<float>("-3.4028234663852886e38").ok());

    // Through a tool: the model reads the path and the range in the result.
    constexpr agentry::registry tools{
        agentry::tool<"numbers", "Takes every number type.">(+[](const all_numbers&) { return 0; })};
    const agentry::tool_result r = tools.call(
        "numbers", R"({"i8":200,"u8":-3,"i16":0,"u16":0,"i32":0,"u32":0,"i64":0,"u64":0,"f":1e39,"d":0})");
    CHECK(r.status == agentry::tool_status::invalid_arguments);
    CHECK(r.content.find("/i8: must be at most 127") != std::string::npos);
    CHECK(r.content.find("/u8: must be at least 0") != std::string::npos);
    CHECK(r.content.find("/f: must be at most 3.4028234663852886e38") != std::string::npos);
    CHECK(tools.definitions().find("minimum") == std::string_view::npos);
}

TEST_CASE("a lowered constraint joins the field description as a sentence") {
    CHECK(agentry::json_schema<documented, openai_strict>() ==
          R"({"type":"object","properties":{)"
          R"("codes":{"type":"array","items":{"type":"integer"},)"
          R"("maxItems":8,"description":"Codes. Items must be unique."},)"
          R"("limit":{"type":["integer","null"],)"
          R"("description":"Maximum rows. Default: 10."}},)"
          R"("required":["codes","limit"],"additionalProperties":false})");
    CHECK(agentry::json_schema<documented>() ==
          R"({"type":"object","properties":{)"
          R"("codes":{"type":"array","items":{"type":"integer"},)"
          R"("uniqueItems":true,"maxItems":8,"description":"Codes."},)"
          R"("limit":{"type":"integer",)"
          R"("description":"Maximum rows","default":10}},)"
          R"("required":["codes"],"additionalProperties":false})");
    CHECK(agentry::json_schema<std::vector<std::string>, anthropic_strict>() ==
          R"({"type":"array","items":{"type":"string"}})");
    CHECK(agentry::json_schema<agentry::sized_string<1, 8>, openai_strict>() ==
          R"({"type":"string","description":"At least 1 character. At most 8 characters."})");
}

TEST_CASE("a fractional default is written as its shortest text, a float's as a float's") {
    CHECK(agentry::json_schema<fractional_defaults, mcp>() ==
          R"({"type":"object","properties":{)"
          R"("score":{"type":"number","default":95.5},"tiny":{"type":"number","default":1e-07},)"
          R"("ratio":{"type":"number","default":0.1},"whole":{"type":"number","default":2.0}},)"
          R"("additionalProperties":false})");
    CHECK(agentry::json_schema<fractional_defaults, openai_strict>() ==
          R"({"type":"object","properties":{)"
          R"("score":{"type":["number","null"],"description":"Default: 95.5."},)"
          R"("tiny":{"type":["number","null"],"description":"Default: 1e-07."},)"
          R"("ratio":{"type":["number","null"],"description":"Default: 0.1."},)"
          R"("whole":{"type":["number","null"],"description":"Default: 2.0."}},)"
          R"("required":["score","tiny","ratio","whole"],"additionalProperties":false})");
    CHECK(agentry::json_schema<fractional_defaults>().find(R"("score":{"type":"number","default":95.5})") !=
          std::string_view::npos);
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
          R"({"type":"array","items":{"type":["integer","null"]}})");
    CHECK(agentry::json_schema<std::optional<fixtures::temperature_unit>>() ==
          R"({"type":["string","null"],"enum":["celsius","fahrenheit",null]})");
    CHECK(agentry::json_schema<std::optional<fixtures::temperature_unit>, gemini>() ==
          R"({"type":"STRING","enum":["celsius","fahrenheit"],"nullable":true})");
    CHECK(agentry::json_schema<std::optional<std::variant<int, bool>>>() ==
          R"({"anyOf":[{"type":"integer"},{"type":"boolean"},{"type":"null"}]})");
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
          R"("a":{"type":"object","properties":{"value":{"type":"integer"},)"
          R"("children":{"type":"array","items":{"$ref":"#/$defs/node"}}},"required":["value","children"],)"
          R"("additionalProperties":false},)"
          R"("b":{"type":"object","properties":{"leaf":{"type":"boolean"},)"
          R"("children":{"type":"array","items":{"$ref":"#/$defs/node_2"}}},"required":["leaf","children"],)"
          R"("additionalProperties":false}},)"
          R"("required":["a","b"],"additionalProperties":false,"$defs":{)"
          R"("node":{"type":"object","properties":{"value":{"type":"integer"},)"
          R"("children":{"type":"array","items":{"$ref":"#/$defs/node"}}},"required":["value","children"],)"
          R"("additionalProperties":false},)"
          R"("node_2":{"type":"object","properties":{"leaf":{"type":"boolean"},)"
          R"("children":{"type":"array","items":{"$ref":"#/$defs/node_2"}}},"required":["leaf","children"],)"
          R"("additionalProperties":false}}})");
}

TEST_CASE("a constrained container keeps the notes of both the container and the constraint") {
    CHECK(agentry::json_schema<agentry::constrained<std::set<int>, agentry::max_items<5>>, openai_strict>() ==
          R"({"type":"array","items":{"type":"integer"},)"
          R"("maxItems":5,"description":"Items must be unique."})");
    CHECK(agentry::json_schema<agentry::constrained<std::array<int, 3>, agentry::unique_items>, anthropic_strict>() ==
          R"({"type":"array","items":{"type":"integer"},"description":"Exactly 3 items. Items must be unique."})");
}

TEST_CASE("the OpenAI strict enum limit counts the values of every enum of the schema") {
    using agentry::schema::detail::schema_text;
    CHECK(schema_text<fixtures::enums, openai_strict>::measured.enum_values == 2 + 3 + 3);
}
