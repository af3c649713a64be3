// SPDX-License-Identifier: BSL-1.0
// A complete MCP server: stdio by default, Streamable HTTP on 127.0.0.1 with --http [port].
#include <agentry/agentry.hpp>
#include <agentry/mcp/http.hpp>
#include <agentry/mcp/stdio.hpp>

#include <cstdlib>
#include <optional>
#include <string>
#include <string_view>

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

weather get_weather(const weather_query& q) {
    return {q.unit == temperature_unit::fahrenheit ? 65.3 : 18.5, q.city == "Paris" ? "rain" : "sun"};
}

constexpr agentry::registry tools{
    agentry::tool<"get_weather", "Current weather for a city. Not for climate averages.">(get_weather),
    agentry::tool<"add", "Add two integers", "a", "b">(+[](int a, int b) { return static_cast<long long>(a) + b; }),
};

int main(int argc, char** argv) {
    const agentry::mcp::server server{
        tools,
        {.name = "weather", .version = "1.0.0",
         .icons = {{.src = "https://example.com/weather.png", .mime_type = "image/png", .sizes = "48x48"}}},
        agentry::mcp::annotations<"get_weather">{
            .title = "Weather", .read_only = true, .icons = {{.src = "https://example.com/sun.svg", .sizes = "any"}}},
        agentry::mcp::annotations<"add">{.read_only = true, .open_world = false}};
    if (argc > 1 && std::string_view(argv[1]) == "--http") {
        const auto port = static_cast<unsigned short>(argc > 2 ? std::atoi(argv[2]) : 8080);
        return agentry::mcp::serve_http(server, {.port = port});
    }
    return agentry::mcp::serve_stdio(server);
}
