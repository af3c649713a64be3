// SPDX-License-Identifier: BSL-1.0
// expect: agentry: agent::run(agentry::planned{...}): loop_config::max_tool_calls does not bound a plan
#include <agentry/agent.hpp>
#include <agentry/provider/openai.hpp>
#include <agentry/registry.hpp>

int add(int a, int b) { return a + b; }
constexpr agentry::registry tools{agentry::tool<"add", "Adds two integers", "a", "b">(add)};

struct no_network {
    agentry::transport_result send(const agentry::http_request&) { return {}; }
    agentry::transport_result stream(const agentry::http_request&, agentry::stream_handlers&) { return {}; }
};

#ifdef AGENTRY_COMPILE_FAIL
constexpr agentry::loop_config config{.max_tool_calls = 5, .planning = {.enabled = true}};
#else
constexpr agentry::loop_config config{.planning = {.enabled = true}};
#endif

int main() {
    agentry::agent<config> agent{agentry::openai{.model = "gpt-4o-mini"}, tools, "Plan.", no_network{}};
    return agent.run(agentry::planned{"Add 2 and 3."}).stop == agentry::stop_reason::completed ? 0 : 1;
}
