// SPDX-License-Identifier: BSL-1.0
// The tools and the typed answer the OpenAI providers' request samples share
// (openai/samples.hpp, responses/samples.hpp).

#ifndef AGENTRY_TESTS_PROVIDER_SAMPLE_TOOLS_HPP
#define AGENTRY_TESTS_PROVIDER_SAMPLE_TOOLS_HPP

#include <agentry/registry.hpp>

#include <optional>
#include <string>
#include <vector>

namespace provider_samples {

enum class unit { celsius, fahrenheit };

struct weather_query {
    std::string city;
    std::optional<unit> units;
};

struct weather {
    double temperature;
    std::string condition;
};

inline weather get_weather(const weather_query&) { return {21.5, "sunny"}; }

/// A typed final answer (structured outputs).
struct packing_list {
    std::vector<std::string> items;
    std::optional<unit> units;
};

inline constexpr agentry::registry tools{
    agentry::tool<"get_weather", "Current weather for a city.">(get_weather),
    agentry::tool<"add", "Add two integers.", "a", "b">(+[](int a, int b) { return a + b; }),
};

} // namespace provider_samples

#endif
