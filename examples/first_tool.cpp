// SPDX-License-Identifier: BSL-1.0
// Getting started, steps 1 to 3: a tool, a test of its schema at compile time, and a call of it
// as a model would make one (docs/getting-started.md).
#include <agentry/registry.hpp>

#include <cstdio>
#include <string>

// Step 1: a tool is a plain function; its parameters are a struct the schema is made from.
struct weather_query {
    std::string city;
    int days = 1;
    static constexpr auto docs = agentry::field_docs("city", "City name, e.g. Paris", "days", "Days to forecast");
};

std::string get_weather(const weather_query& q) {
    return "Sunny in " + q.city + " for " + std::to_string(q.days) + " day(s)";
}

constexpr agentry::registry tools{
    agentry::tool<"get_weather", "Gets the weather forecast for a city.">(get_weather),
};

// Step 2: the schema is a constant, so a test of it runs when the program compiles.
static_assert(tools.definitions<agentry::dialect::openai_strict>().starts_with(
    R"([{"type":"function","function":{"name":"get_weather","description":"Gets the weather forecast for a city.")"));

int main() {
    std::printf("%s\n", std::string(tools.definitions<agentry::dialect::openai_strict>()).c_str());

    // Step 3: a call as the model sends it, and one the model gets wrong.
    const agentry::tool_result ok = tools.call("get_weather", R"({"city":"Paris","days":2})");
    std::printf("%s: %s\n", std::string(agentry::to_string(ok.status)).c_str(), ok.content.c_str());
    const agentry::tool_result bad = tools.call("get_weather", R"({"city":"Paris","days":"two"})");
    std::printf("%s: %s\n", std::string(agentry::to_string(bad.status)).c_str(), bad.content.c_str());
    return ok.status == agentry::tool_status::ok && bad.status == agentry::tool_status::invalid_arguments ? 0 : 1;
}
