// SPDX-License-Identifier: BSL-1.0
// expect: agentry: agent::run(input): the input must be a prompt (a string), agentry::approvals, agentry::continuation or agentry::planned
#include <agentry/agent.hpp>
#include <agentry/provider/openai.hpp>
#include <agentry/registry.hpp>

#include <vector>

struct null_transport {
    agentry::transport_result send(const agentry::http_request&) { return {{200, {}, ""}, {}}; }
    agentry::transport_result stream(const agentry::http_request&, agentry::stream_handlers&) {
        return {{200, {}, ""}, {}};
    }
};

constexpr agentry::registry tools{agentry::tool<"add", "Adds.", "a", "b">(+[](int a, int b) { return 0LL + a + b; })};

// Decisions given to run as they are, as resume(decisions) once took them.
int main() {
    agentry::agent<agentry::loop_config{}> a{agentry::openai{.model = "m"}, tools, "system", null_transport{}};
    const std::vector<agentry::approval_decision> decisions;
#ifdef AGENTRY_COMPILE_FAIL
    const agentry::run_result r = a.run(decisions);
#else
    const agentry::run_result r = a.run(agentry::approvals{decisions});
#endif
    return r.text.empty() ? 1 : 0;
}
