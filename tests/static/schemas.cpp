// SPDX-License-Identifier: BSL-1.0
// The schema of every fixture type in every dialect, checked at compile time.

#include "../fixtures/expected_schemas.hpp"

namespace {

using namespace agentry::dialect;

template <class T, class... D>
consteval bool matches_in() {
    return ((agentry::json_schema<T, D>() == expected::schema<T, D>) && ...);
}

template <class T>
consteval bool matches_everywhere() {
    return matches_in<T, standard, openai, openai_strict, anthropic, anthropic_strict, gemini, mcp>();
}

static_assert(matches_everywhere<fixtures::weather_query>());
static_assert(matches_everywhere<fixtures::integers>());
static_assert(matches_everywhere<fixtures::scalars>());
static_assert(matches_everywhere<fixtures::paging>());
static_assert(matches_everywhere<fixtures::numeric_constraints>());
static_assert(matches_everywhere<fixtures::string_constraints>());
static_assert(matches_everywhere<fixtures::formats>());
static_assert(matches_everywhere<fixtures::sequences>());
static_assert(matches_everywhere<fixtures::create_contact>());
static_assert(matches_everywhere<fixtures::draw>());
static_assert(matches_everywhere<fixtures::optional_compounds>());
static_assert(matches_everywhere<fixtures::enums>());
static_assert(matches_everywhere<fixtures::nothing>());
// Maps and free-form values have no schema in the strict dialects nor in Gemini.
static_assert(matches_in<fixtures::labels, standard, openai, anthropic, mcp>());
static_assert(matches_in<fixtures::raw_payload, standard, openai, anthropic, mcp>());
// With the natural bounds of every number written, on request.
static_assert(matches_in<fixtures::integers, with_natural_bounds<standard>, with_natural_bounds<openai_strict>,
                         with_natural_bounds<anthropic_strict>, with_natural_bounds<gemini>>());
static_assert(matches_in<fixtures::scalars, with_natural_bounds<standard>, with_natural_bounds<openai_strict>,
                         with_natural_bounds<anthropic_strict>, with_natural_bounds<gemini>>());
static_assert(matches_in<fixtures::numeric_constraints, with_natural_bounds<standard>, with_natural_bounds<openai_strict>,
                         with_natural_bounds<anthropic_strict>, with_natural_bounds<gemini>>());
// Recursion needs $ref, which Gemini and Anthropic strict mode lack.
static_assert(matches_in<fixtures::tree_node, standard, openai, openai_strict, anthropic, mcp>());

// Spot checks written out in full, independent of the expected table.
static_assert(agentry::json_schema<fixtures::tree_node>() ==
              R"({"type":"object","properties":{"name":{"type":"string"},)"
              R"("children":{"type":"array","items":{"$ref":"#"}}},)"
              R"("required":["name","children"],"additionalProperties":false})");
static_assert(agentry::json_schema<fixtures::labels>() ==
              R"({"type":"object","properties":{"values":{"type":"object","additionalProperties":{"type":"string"}}},)"
              R"("required":["values"],"additionalProperties":false})");
static_assert(agentry::json_schema<fixtures::weather_query, gemini>() ==
              R"({"type":"OBJECT","properties":{"city":{"type":"STRING","description":"City name, e.g. 'Paris'"},)"
              R"("unit":{"type":"STRING","enum":["celsius","fahrenheit"],"description":"Temperature unit"}},)"
              R"("required":["city"]})");
static_assert(agentry::json_schema<int>() == R"({"type":"integer"})");
static_assert(agentry::json_schema<int, with_natural_bounds<standard>>() ==
              R"({"type":"integer","minimum":-2147483648,"maximum":2147483647})");
static_assert(agentry::json_schema<std::vector<bool>>() == R"({"type":"array","items":{"type":"boolean"}})");
static_assert(agentry::json_schema<std::optional<std::string>, openai_strict>() == R"({"type":["string","null"]})");
static_assert(agentry::json_schema<std::optional<std::string>, gemini>() == R"({"type":"STRING","nullable":true})");

} // namespace

int main() {}
