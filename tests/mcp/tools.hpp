// SPDX-License-Identifier: BSL-1.0
#ifndef AGENTRY_TESTS_MCP_TOOLS_HPP
#define AGENTRY_TESTS_MCP_TOOLS_HPP

// The tools the MCP unit tests serve.

#include <agentry/registry.hpp>
#include <agentry/schema/field_docs.hpp>
#include <agentry/tool.hpp>

#include <map>
#include <optional>
#include <stdexcept>
#include <string>
#include <vector>

namespace mcp_test {

enum class temperature_unit { celsius, fahrenheit };

struct weather_query {
    std::string city;
    std::optional<temperature_unit> unit;
    static constexpr auto docs = agentry::field_docs("city", "City name", "unit", "Temperature unit");
};

struct weather {
    double temperature;
    std::string condition;
};

inline weather get_weather(const weather_query& q) { return {18.5, q.city == "Paris" ? "rain" : "sun"}; }

inline std::string fail() { throw std::runtime_error("disk on fire"); }

inline std::vector<std::string> big(int n) { return std::vector<std::string>(std::size_t(n), std::string(100, 'x')); }

inline std::map<std::string, std::string> big_object(int n) {
    std::map<std::string, std::string> out;
    for (int i = 0; i != n; ++i) out["k" + std::to_string(i)] = std::string(100, 'x');
    return out;
}

inline constexpr agentry::registry tools{
    agentry::tool<"get_weather", "Current weather for a city.">(get_weather),
    agentry::tool<"add", "Add two integers", "a", "b">(+[](int a, int b) { return a + b; }),
    agentry::tool<"greet", "Greets someone", "name">(+[](std::string name) { return "Hello, " + name + "\n"; }),
    agentry::tool<"fail", "Always fails">(fail),
    agentry::tool<"nothing", "Returns nothing">(+[] {}),
    agentry::tool<"big", "A long list", "n">(big),
    agentry::tool<"big_object", "A large object", "n">(big_object),
};

} // namespace mcp_test

#endif
