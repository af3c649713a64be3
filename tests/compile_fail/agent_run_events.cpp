// SPDX-License-Identifier: BSL-1.0
// expect: agentry: agent::run(input, events): a run's events are agent_options::events, given at construction
#include <agentry/agent.hpp>
#include <agentry/provider/openai.hpp>
#include <agentry/registry.hpp>

#include <string>
#include <string_view>

struct null_transport {
    agentry::transport_result send(const agentry::http_request&) { return {{200, {}, ""}, {}}; }
    agentry::transport_result stream(const agentry::http_request&, agentry::stream_handlers&) {
        return {{200, {}, ""}, {}};
    }
};

constexpr agentry::registry tools{agentry::tool<"add", "Adds.", "a", "b">(+[](int a, int b) { return 0LL + a + b; })};

// The events given to run, as run(input, events) once took them.
int main() {
    std::string streamed;
    agentry::agent_events events;
    events.on_text = [&](std::string_view text) { streamed += text; };
#ifdef AGENTRY_COMPILE_FAIL
    agentry::agent<agentry::loop_config{}> a{agentry::openai{.model = "m"}, tools, "system", null_transport{}};
    const agentry::run_result r = a.run("hello", events);
#else
    agentry::agent<agentry::loop_config{}> a{agentry::openai{.model = "m"}, tools,
                                             {.system_prompt = "system", .events = events}, null_transport{}};
    const agentry::run_result r = a.run("hello");
#endif
    return r.text == streamed ? 0 : 1;
}
