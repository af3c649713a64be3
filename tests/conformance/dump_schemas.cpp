// SPDX-License-Identifier: BSL-1.0
// Prints every fixture schema and every registry payload, one JSON object per line:
// {"name":"...","dialect":"...","kind":"schema|definitions","schema":<JSON>}
// The conformance tests validate each line (ajv against the 2020-12 meta-schema; Gemini rules).

#include "../fixtures/fixtures.hpp"

#include <cstdio>
#include <optional>
#include <string>
#include <string_view>

namespace {

void emit(std::string_view name, std::string_view dialect, std::string_view kind, std::string_view json) {
    std::printf("{\"name\":\"%.*s\",\"dialect\":\"%.*s\",\"kind\":\"%.*s\",\"schema\":%.*s}\n", int(name.size()),
                name.data(), int(dialect.size()), dialect.data(), int(kind.size()), kind.data(), int(json.size()),
                json.data());
}

template <class T, class D>
void schema(std::string_view name) {
    emit(name, D::rules.name, "schema", agentry::json_schema<T, D>());
}

// Types every dialect can express.
template <class D>
void portable() {
    using namespace fixtures;
    schema<weather_query, D>("weather_query");
    schema<integers, D>("integers");
    schema<scalars, D>("scalars");
    schema<paging, D>("paging");
    schema<numeric_constraints, D>("numeric_constraints");
    schema<string_constraints, D>("string_constraints");
    schema<formats, D>("formats");
    schema<sequences, D>("sequences");
    schema<create_contact, D>("create_contact");
    schema<draw, D>("draw");
    schema<optional_compounds, D>("optional_compounds");
    schema<enums, D>("enums");
    schema<nothing, D>("nothing");
}

fixtures::address sample_address(const fixtures::weather_query&) { return {}; }

constexpr agentry::registry tools{
    agentry::tool<"get_weather", "Current weather for a city.">(sample_address),
    agentry::tool<"add", "Add two integers.", "a", "b">(+[](int a, int b) { return a + b; }),
    agentry::tool<"list_pages", "List pages.">(+[](const fixtures::paging&) { return 0; }),
    agentry::tool<"ping", "Check that the service answers.">(+[] { return true; }),
    // An optional named parameter (required and nullable in OpenAI strict), nested objects and
    // an object result (an MCP outputSchema).
    agentry::tool<"search", "Search contacts.", "query", "limit">(
        +[](const std::string&, std::optional<int>) { return 0; }),
    agentry::tool<"create_contact", "Create a contact.">(
        +[](const fixtures::create_contact& c) { return c.home; }),
};

template <class D>
void definitions() {
    emit("tools", D::rules.name, "definitions", tools.definitions<D>());
}

} // namespace

int main() {
    using namespace agentry::dialect;
    portable<standard>();
    portable<openai>();
    portable<openai_strict>();
    portable<anthropic>();
    portable<anthropic_strict>();
    portable<gemini>();
    portable<mcp>();
    // Maps and free-form values: every dialect but the strict ones and Gemini.
    schema<fixtures::labels, standard>("labels");
    schema<fixtures::labels, openai>("labels");
    schema<fixtures::labels, anthropic>("labels");
    schema<fixtures::labels, mcp>("labels");
    schema<fixtures::raw_payload, standard>("raw_payload");
    schema<fixtures::raw_payload, openai>("raw_payload");
    schema<fixtures::raw_payload, anthropic>("raw_payload");
    schema<fixtures::raw_payload, mcp>("raw_payload");
    // Recursion: every dialect with $ref.
    schema<fixtures::tree_node, standard>("tree_node");
    schema<fixtures::tree_node, openai>("tree_node");
    schema<fixtures::tree_node, openai_strict>("tree_node");
    schema<fixtures::tree_node, anthropic>("tree_node");
    schema<fixtures::tree_node, mcp>("tree_node");
    definitions<standard>();
    definitions<openai>();
    definitions<openai_strict>();
    definitions<anthropic>();
    definitions<anthropic_strict>();
    definitions<gemini>();
    definitions<mcp>();
}
