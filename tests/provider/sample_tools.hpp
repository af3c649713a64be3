// SPDX-License-Identifier: BSL-1.0
// The tools, the typed answer and the request builder the OpenAI providers' request samples
// share (openai/samples.hpp, responses/samples.hpp).

#ifndef AGENTRY_TESTS_PROVIDER_SAMPLE_TOOLS_HPP
#define AGENTRY_TESTS_PROVIDER_SAMPLE_TOOLS_HPP

#include <agentry/provider/message.hpp>
#include <agentry/registry.hpp>

#include <cstdint>
#include <optional>
#include <span>
#include <string_view>
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

/// chat_request without the messages, every member defaulted (designated initializers).
struct request_options {
    std::string_view tools{};
    agentry::tool_choice tool_choice{};
    std::optional<bool> parallel_tool_calls{};
    std::optional<std::uint32_t> max_tokens{};
    std::optional<double> temperature{};
    bool stream = false;
    std::optional<agentry::output_format> output{};
};

inline agentry::chat_request make_request(std::span<const agentry::message> messages, const request_options& o = {}) {
    agentry::chat_request r;
    r.messages = messages;
    r.tools = o.tools;
    r.tool_choice = o.tool_choice;
    r.parallel_tool_calls = o.parallel_tool_calls;
    r.max_tokens = o.max_tokens;
    r.temperature = o.temperature;
    r.stream = o.stream;
    r.output = o.output;
    return r;
}

} // namespace provider_samples

#endif
