// SPDX-License-Identifier: BSL-1.0
// dialect::openai_responses and openai_responses_strict: the flat function tools of the
// Responses API, written by the registry, the plan tool, run-time (MCP) tools, and strict mode
// for converted schemas and typed outputs.

#include <agentry/json/value.hpp>
#include <agentry/loop/detail/plan_schema.hpp>
#include <agentry/mcp/detail/tool_schema.hpp>
#include <agentry/mcp/toolset.hpp>
#include <agentry/provider/openai_responses.hpp>
#include <agentry/registry.hpp>
#include <agentry/schema/dialect.hpp>

#include <doctest/doctest.h>

#include <optional>
#include <string>
#include <string_view>

namespace {

struct find_args {
    std::string key;
    std::optional<int> limit;
};

int find(const find_args&) { return 1; }

constexpr agentry::registry tools{
    agentry::tool<"find", "Find an entry.">(find),
    agentry::tool<"ping", "Ping.">(+[] { return 1; }),
};

// `text` with `from` replaced by `to` once, at the start or at the end.
std::string rewrap(std::string_view text, std::string_view from_start, std::string_view to_start,
                   std::string_view from_end, std::string_view to_end) {
    REQUIRE(text.starts_with(from_start));
    REQUIRE(text.ends_with(from_end));
    text.remove_prefix(from_start.size());
    text.remove_suffix(from_end.size());
    return std::string(to_start) + std::string(text) + std::string(to_end);
}

} // namespace

static_assert(agentry::schema_dialect<agentry::dialect::openai_responses> &&
              agentry::schema_dialect<agentry::dialect::openai_responses_strict>);
static_assert(std::is_same_v<agentry::openai_responses::dialect, agentry::dialect::openai_responses_strict>);
static_assert(std::is_same_v<agentry::openai_responses::output_dialect, agentry::dialect::openai_strict>);

TEST_CASE("the rules are those of dialect::openai and openai_strict, under their own names") {
    constexpr agentry::dialect_rules loose = agentry::dialect::openai_responses::rules;
    constexpr agentry::dialect_rules strict = agentry::dialect::openai_responses_strict::rules;
    CHECK(loose.name == "openai_responses");
    CHECK(strict.name == "openai_responses_strict");
    CHECK_FALSE(loose.closed_objects);
    CHECK_FALSE(loose.all_required);
    CHECK(loose.max_tools == 128);
    CHECK(strict.all_required);
    CHECK_FALSE(strict.any_value);
    CHECK(strict.max_depth == agentry::dialect::openai_strict::rules.max_depth);
    CHECK(strict.keywords == agentry::dialect::openai_strict::rules.keywords);
    CHECK(strict.formats == agentry::dialect::openai_strict::rules.formats);
}

TEST_CASE("registry definitions: flat function tools, strict false or true") {
    CHECK(tools.definitions<agentry::dialect::openai_responses>() ==
          R"([{"type":"function","name":"find","description":"Find an entry.","parameters":{"type":"object",)"
          R"("properties":{"key":{"type":"string"},"limit":{"type":"integer"}},"required":["key"]},"strict":false},)"
          R"({"type":"function","name":"ping","description":"Ping.","parameters":{"type":"object","properties":{}},)"
          R"("strict":false}])");
    CHECK(tools.definitions<agentry::dialect::openai_responses_strict>() ==
          R"([{"type":"function","name":"find","description":"Find an entry.","parameters":{"type":"object",)"
          R"("properties":{"key":{"type":"string"},"limit":{"type":["integer","null"]}},"required":["key","limit"],)"
          R"("additionalProperties":false},"strict":true},{"type":"function","name":"ping","description":"Ping.",)"
          R"("parameters":{"type":"object","properties":{},"required":[],"additionalProperties":false},"strict":true}])");
    // The same schemas as the Chat Completions dialects, in the other wrapper.
    CHECK(std::string(tools.definitions<agentry::dialect::openai_responses_strict>()).find(
              R"("parameters":{"type":"object","properties":{"key":{"type":"string"},"limit":{"type":["integer","null"]}})") !=
          std::string::npos);
    static_assert(tools.definitions<agentry::dialect::openai_strict>().find(
                      R"("parameters":{"type":"object","properties":{"key":{"type":"string"},"limit":{"type":["integer","null"]}})") !=
                  std::string_view::npos);
}

TEST_CASE("the plan tool: the Chat Completions plan schema in the flat wrapper") {
    const std::string_view chat = agentry::plan_definitions<agentry::dialect::openai_strict, decltype(tools)>();
    const std::string_view flat = agentry::plan_definitions<agentry::dialect::openai_responses_strict, decltype(tools)>();
    CHECK(flat == rewrap(chat, R"([{"type":"function","function":{)", R"([{"type":"function",)", R"(,"strict":true}}])",
                         R"(,"strict":true}])"));
    const std::string_view chat_loose = agentry::plan_definitions<agentry::dialect::openai, decltype(tools)>();
    const std::string_view flat_loose = agentry::plan_definitions<agentry::dialect::openai_responses, decltype(tools)>();
    CHECK(flat_loose ==
          rewrap(chat_loose, R"([{"type":"function","function":{)", R"([{"type":"function",)", "}}]", R"(,"strict":false}])"));
}

TEST_CASE("run-time tools: the flat wrapper, and strict conversion of their schemas") {
    const agentry::json::parsed schema =
        agentry::json::parse(R"({"type":"object","properties":{"q":{"type":"string"}},"required":["q"]})");
    REQUIRE(schema.ok());
    CHECK(agentry::mcp::detail::dynamic_definition(agentry::dialect_kind::openai_responses, "search", "Search.",
                                                   schema.value) ==
          R"({"type":"function","name":"search","description":"Search.","parameters":{"type":"object",)"
          R"("properties":{"q":{"type":"string"}},"required":["q"]},"strict":false})");
    CHECK(agentry::mcp::detail::dynamic_definition(agentry::dialect_kind::openai_responses_strict, "search", "Search.",
                                                   schema.value) ==
          R"({"type":"function","name":"search","description":"Search.","parameters":{"type":"object",)"
          R"("properties":{"q":{"type":"string"}},"required":["q"]},"strict":true})");
    // Strict conversion closes objects, as for openai_strict.
    std::string why;
    const auto strict = agentry::mcp::detail::schema_converter(agentry::dialect_kind::openai_responses_strict,
                                                               agentry::dialect::openai_responses_strict::rules)
                            .convert(schema.value, why);
    const auto chat = agentry::mcp::detail::schema_converter(agentry::dialect_kind::openai_strict,
                                                             agentry::dialect::openai_strict::rules)
                          .convert(schema.value, why);
    REQUIRE(strict.has_value());
    REQUIRE(chat.has_value());
    CHECK(agentry::json::to_text(*strict) == agentry::json::to_text(*chat));
    CHECK(agentry::json::to_text(*strict).find(R"("additionalProperties":false)") != std::string::npos);
}
