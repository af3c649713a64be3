// SPDX-License-Identifier: BSL-1.0
#include <agentry/agentry.hpp>

#include <cstdio>
#include <optional>
#include <string>

enum class temperature_unit { celsius, fahrenheit };

struct weather_query {
    std::string city;
    std::optional<temperature_unit> unit;
    static constexpr auto docs = agentry::field_docs(
        "city", "City name, e.g. 'Paris'",
        "unit", "Temperature unit");
};

struct weather {
    double temperature;
    std::string condition;
};

weather get_weather(const weather_query& q) { return {18.5, q.city == "Paris" ? "rain" : "sun"}; }

constexpr agentry::registry tools{
    agentry::tool<"get_weather", "Current weather for a city. Not for climate averages.">(get_weather),
    agentry::tool<"add", "Add two integers", "a", "b">(+[](int a, int b) { return static_cast<long long>(a) + b; }),
};

// The schema is a compile-time constant.
static_assert(agentry::json_schema<weather_query>() ==
              R"({"type":"object","properties":{)"
              R"("city":{"type":"string","description":"City name, e.g. 'Paris'"},)"
              R"("unit":{"type":"string","enum":["celsius","fahrenheit"],"description":"Temperature unit"}},)"
              R"("required":["city"],"additionalProperties":false})");

int main() {
    // The `tools` array of an OpenAI Chat Completions request, strict mode.
    const std::string_view payload = tools.definitions<agentry::dialect::openai_strict>();
    std::printf("%.*s\n", int(payload.size()), payload.data());

    // A call the model made: read and check the arguments, call, write the result. Never throws.
    agentry::tool_result ok = tools.call("get_weather", R"({"city":"Paris"})");
    std::printf("%s\n", ok.content.c_str());  // {"temperature":18.5,"condition":"rain"}

    agentry::tool_result bad = tools.call("get_weather", R"({"city":"Paris","unit":"kelvin"})");
    std::printf("%s\n", bad.content.c_str());  // get_weather: invalid arguments: /unit: "kelvin" is not one of ...
}
