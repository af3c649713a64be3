// SPDX-License-Identifier: BSL-1.0
// expect: agentry: with_policy<policy>: timeout, retry.initial_backoff and retry.max_backoff must be between 0 and 100 years
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

// A negative per-tool timeout.
long long get(int a) { return a; }

#ifdef AGENTRY_COMPILE_FAIL
constexpr agentry::tool_policy policy{.timeout = std::chrono::milliseconds(-1)};
#else
constexpr agentry::tool_policy policy{.timeout = std::chrono::milliseconds(1)};
#endif

constexpr agentry::registry tools{agentry::with_policy<policy>(agentry::tool<"get", "Gets.", "a">(get))};

int main() {
    agentry::agent<agentry::loop_config{}> a{agentry::openai{.model = "m"}, tools, "system", null_transport{}};
    return a.conversation().size() == 1 ? 0 : 1;
}
