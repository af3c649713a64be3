// SPDX-License-Identifier: BSL-1.0
// expect: agentry: agent{model, tools, options}: no default transport in this program; link the agentry::curl CMake target
#include <agentry/agent.hpp>
#include <agentry/provider/openai.hpp>
#include <agentry/registry.hpp>

// A program without AGENTRY_WITH_CURL (the agentry::curl target is not linked) must name its
// transport.
struct null_transport {
    agentry::transport_result send(const agentry::http_request&) { return {{200, {}, ""}, {}}; }
    agentry::transport_result stream(const agentry::http_request&, agentry::stream_handlers&) {
        return {{200, {}, ""}, {}};
    }
};

constexpr agentry::registry tools{agentry::tool<"add", "Adds.", "a", "b">(+[](int a, int b) { return 0LL + a + b; })};

int main() {
#ifdef AGENTRY_COMPILE_FAIL
    agentry::agent<agentry::loop_config{}> a{agentry::openai{.model = "m"}, tools, "system"};
#else
    agentry::agent<agentry::loop_config{}> a{agentry::openai{.model = "m"}, tools, "system", null_transport{}};
#endif
    return a.conversation().size() == 1 ? 0 : 1;
}
