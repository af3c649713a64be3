// SPDX-License-Identifier: BSL-1.0
// expect: agentry: agent::run(agentry::planned{...}): this tool's parameters nest too deep to be planned in this dialect
// names: run
// A plan puts a tool's parameters 3 levels below its root: 8 levels of parameters fit a tool
// definition in OpenAI strict mode (10 levels) but not a plan.
#include <agentry/agent.hpp>
#include <agentry/provider/openai.hpp>
#include <agentry/registry.hpp>

template <int N>
struct level {
    level<N - 1> inner;
};
template <>
struct level<1> {
    int leaf;
};

#ifdef AGENTRY_COMPILE_FAIL
int run(const level<8>&) { return 0; }
#else
int run(const level<7>&) { return 0; }
#endif
constexpr agentry::registry tools{agentry::tool<"run", "Runs a query.">(run)};

struct no_network {
    agentry::transport_result send(const agentry::http_request&) { return {}; }
    agentry::transport_result stream(const agentry::http_request&, agentry::stream_handlers&) { return {}; }
};

constexpr agentry::loop_config config{.planning = {.enabled = true}};

int main() {
    agentry::agent<config> agent{agentry::openai{.model = "gpt-4o-mini"}, tools, "Plan.", no_network{}};
    return agent.run(agentry::planned{"Run it."}).stop == agentry::stop_reason::completed ? 0 : 1;
}
