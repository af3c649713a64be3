// SPDX-License-Identifier: BSL-1.0
// expect: agentry: agent_tool: the prompt function must have one signature (not generic or overloaded)
#include <agentry/agent.hpp>
#include <agentry/loop/agent_tool.hpp>
#include <agentry/provider/openai.hpp>
#include <agentry/registry.hpp>

#include <string>

struct null_transport {
    agentry::transport_result send(const agentry::http_request&) { return {{200, {}, ""}, {}}; }
    agentry::transport_result stream(const agentry::http_request&, agentry::stream_handlers&) {
        return {{200, {}, ""}, {}};
    }
};

struct research_request {
    std::string topic;
};

std::string lookup(const research_request& r) { return "Nothing on " + r.topic; }

constexpr agentry::registry archive{agentry::tool<"lookup", "Looks a topic up.">(lookup)};

// A generic prompt function: the tool's input type cannot be read from it.
int main() {
    agentry::agent<agentry::loop_config{}> researcher{agentry::openai{.model = "m"}, archive, "You research.",
                                                      null_transport{}};
#ifdef AGENTRY_COMPILE_FAIL
    const auto tool = agentry::agent_tool<"research", "Researches a topic.">(
        researcher, [](const auto& r) { return "Research " + r.topic; });
#else
    const auto tool = agentry::agent_tool<"research", "Researches a topic.">(
        researcher, [](const research_request& r) { return "Research " + r.topic; });
#endif
    const agentry::registry tools{tool};
    return tools.size() == 1 ? 0 : 1;
}
