// SPDX-License-Identifier: BSL-1.0
// expect: agentry: tool_policy::fallback: a tool (named by failing_tool<...>) names itself as its fallback
// names: live_quote
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

// A fallback to itself would be a retry that ignores idempotency.
long long quote(int a) { return a; }

#ifdef AGENTRY_COMPILE_FAIL
constexpr agentry::tool_policy policy{.fallback = {"live_quote"}};
#else
constexpr agentry::tool_policy policy{.fallback = {"cached_quote"}};
#endif

constexpr agentry::registry tools{agentry::with_policy<policy>(agentry::tool<"live_quote", "Quotes.", "a">(quote)),
                                  agentry::tool<"cached_quote", "Quotes.", "a">(quote)};

int main() {
    agentry::agent<agentry::loop_config{}> a{agentry::openai{.model = "m"}, tools, "system", null_transport{}};
    return a.conversation().size() == 1 ? 0 : 1;
}
