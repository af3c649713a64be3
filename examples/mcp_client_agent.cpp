// SPDX-License-Identifier: BSL-1.0
// An agent whose tools come from an MCP server: examples/mcp_server, started over stdio by
// mcp::client, next to one tool of the agent's own registry. The model is replayed from two
// recorded OpenAI replies, so that the example runs without a network: the model calls the
// server's get_weather and add and the agent's own convert_to_fahrenheit, then answers.
//
//   mcp_client_agent /path/to/mcp_server
#include <agentry/agent.hpp>
#include <agentry/mcp/client.hpp>
#include <agentry/mcp/toolset.hpp>
#include <agentry/provider/openai.hpp>
#include <agentry/registry.hpp>

#include <cstddef>
#include <cstdio>
#include <string>
#include <vector>

double convert_to_fahrenheit(double celsius) { return celsius * 9 / 5 + 32; }

constexpr agentry::registry own_tools{
    agentry::tool<"convert_to_fahrenheit", "Converts degrees Celsius to Fahrenheit", "celsius">(convert_to_fahrenheit)};

constexpr agentry::loop_config config{.max_turns = 4, .tool_timeout = std::chrono::seconds(10)};

// Answers each request with the next recorded reply.
struct replay {
    std::vector<std::string> replies;
    std::size_t next = 0;

    agentry::transport_result send(const agentry::http_request&) {
        const std::string body = next < replies.size() ? replies[next++] : replies.back();
        return {{200, {}, body}, {}};
    }
    agentry::transport_result stream(const agentry::http_request& request, agentry::stream_handlers&) {
        return send(request);
    }
};

int main(int argc, char** argv) {
    if (argc != 2) {
        std::fprintf(stderr, "usage: %s /path/to/mcp_server\n", argv[0]);
        return 2;
    }
    auto server = agentry::mcp::client::connect(agentry::mcp::stdio_command{{argv[1]}});
    if (!server) {
        std::fprintf(stderr, "%s\n", server.error().message.c_str());
        return 1;
    }
    std::printf("connected to %s (MCP %s)\n", (*server)->server_name().c_str(), (*server)->protocol_version().c_str());

    agentry::mcp::toolset mcp_tools;
    if (auto added = mcp_tools.add(*server); !added) {
        std::fprintf(stderr, "%s\n", added.error().message.c_str());
        return 1;
    }

    replay model{{
        R"({"choices":[{"message":{"role":"assistant","content":null,"tool_calls":[)"
        R"({"id":"c1","type":"function","function":{"name":"get_weather","arguments":"{\"city\":\"Paris\",\"unit\":null}"}},)"
        R"({"id":"c2","type":"function","function":{"name":"add","arguments":"{\"a\":2,\"b\":3}"}},)"
        R"({"id":"c3","type":"function","function":{"name":"convert_to_fahrenheit","arguments":"{\"celsius\":18.5}"}}]},)"
        R"("finish_reason":"tool_calls"}],"usage":{"prompt_tokens":80,"completion_tokens":40}})",
        R"({"choices":[{"message":{"role":"assistant","content":"Paris: rain, 18.5 C (65.3 F). And 2 + 3 = 5."},)"
        R"("finish_reason":"stop"}],"usage":{"prompt_tokens":140,"completion_tokens":20}})",
    }};
    agentry::agent<config> agent{agentry::openai{.model = "gpt-4o-mini"}, own_tools, "You answer briefly.", model};
    if (auto added = agent.add_tools(mcp_tools); !added) {
        std::fprintf(stderr, "%s\n", added.error().message.c_str());
        return 1;
    }

    const agentry::run_result result = agent.run("Weather in Paris, in both units? Also, what is 2 + 3?");
    for (const agentry::step& s : result.steps)
        std::printf("step: %s %s -> %s\n", s.tool.c_str(), s.arguments.c_str(), s.result_excerpt.c_str());
    std::printf("answer: %s\n", result.text.c_str());
    (*server)->close();
    return result.stop == agentry::stop_reason::completed && result.steps.size() == 3 &&
                   result.steps[0].status == agentry::tool_status::ok && result.steps[1].status == agentry::tool_status::ok
               ? 0
               : 1;
}
