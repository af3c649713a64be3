// SPDX-License-Identifier: BSL-1.0
#include <agentry/schema/dialect.hpp>

#include <doctest/doctest.h>

using namespace agentry;

TEST_CASE("every dialect tag satisfies schema_dialect and names itself") {
    static_assert(schema_dialect<dialect::standard> && schema_dialect<dialect::openai> &&
                  schema_dialect<dialect::openai_strict> && schema_dialect<dialect::anthropic> &&
                  schema_dialect<dialect::anthropic_strict> && schema_dialect<dialect::gemini> &&
                  schema_dialect<dialect::mcp> && schema_dialect<dialect::openai_responses> &&
                  schema_dialect<dialect::openai_responses_strict>);
    static_assert(!schema_dialect<int>);
    CHECK(dialect::gemini::rules.name == "gemini");
    CHECK(dialect::openai_strict::rules.name == "openai_strict");
    CHECK(dialect::openai_responses::rules.name == "openai_responses");
    CHECK(dialect::openai_responses_strict::rules.name == "openai_responses_strict");
}

TEST_CASE("OpenAI strict: everything required, limits, no uri format, no length keywords") {
    constexpr auto r = dialect::openai_strict::rules;
    CHECK(r.all_required);
    CHECK(r.closed_objects);
    CHECK_FALSE(r.maps);
    CHECK_FALSE(r.any_value);
    CHECK(r.max_depth == 10);
    CHECK(r.max_enum_values == 1000);
    CHECK(r.max_properties == 5000);
    CHECK((r.formats & format_bit(string_format::uri)) == 0);
    CHECK((r.formats & format_bit(string_format::email)) != 0);
    CHECK((r.keywords & keyword_bit(constraint_keyword::min_length)) == 0);
    CHECK((r.keywords & keyword_bit(constraint_keyword::pattern)) != 0);
}

TEST_CASE("Gemini: OpenAPI subset") {
    constexpr auto r = dialect::gemini::rules;
    CHECK_FALSE(r.type_arrays);
    CHECK(r.upper_case_types);
    CHECK_FALSE(r.closed_objects);
    CHECK_FALSE(r.refs);
    CHECK_FALSE(r.empty_parameters);
    CHECK(r.name_starts_with_letter);
    CHECK(r.formats == format_bit(string_format::date_time));
    CHECK((r.keywords & keyword_bit(constraint_keyword::exclusive_minimum)) == 0);
}

TEST_CASE("Anthropic strict: no numeric or length keywords, minItems up to 1") {
    constexpr auto r = dialect::anthropic_strict::rules;
    CHECK(r.max_min_items == 1);
    CHECK_FALSE(r.refs);
    CHECK((r.keywords & keyword_bit(constraint_keyword::minimum)) == 0);
    CHECK((r.keywords & keyword_bit(constraint_keyword::max_items)) == 0);
    CHECK(dialect::anthropic::rules.refs);
}
