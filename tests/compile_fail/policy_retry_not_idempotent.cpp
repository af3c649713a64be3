// SPDX-License-Identifier: BSL-1.0
// expect: agentry: with_policy<policy>: retry.attempts > 1 needs idempotent = true
#include <agentry/agent.hpp>
#include <agentry/policy/fallback.hpp>
#include <agentry/policy/tool_policy.hpp>
#include <agentry/provider/openai.hpp>
#include <agentry/registry.hpp>

#include <chrono>
#include <string>

struct null_transport {
    agentry::transport_result send(const agentry::http_request&) { return {{200, {}, ""}, {}}; }
    agentry::transport_result stream(const agentry::http_request&, agentry::stream_handlers&) {
        return {{200, {}, ""}, {}};
    }
};

// Retries are only for an idempotent tool.
long long get(int a) { return a; }

#ifdef AGENTRY_COMPILE_FAIL
constexpr agentry::tool_policy policy{.retry = {.attempts = 3}};
#else
constexpr agentry::tool_policy policy{.idempotent = true, .retry = {.attempts = 3}};
#endif

constexpr agentry::registry tools{agentry::with_policy<policy>(agentry::tool<"get", "Gets.", "a">(get))};

int main() {
    agentry::agent<agentry::loop_config{}> a{agentry::openai{.model = "m"}, tools, "system", null_transport{}};
    return a.conversation().size() == 1 ? 0 : 1;
}
