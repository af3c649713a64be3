// SPDX-License-Identifier: BSL-1.0
// expect: agentry: tool_policy::fallback: the fallback (named by fallback_named<...>) needs approval, and a fallback runs without asking
// names: live_quote paid_quote
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

// A fallback would go round its own approval.
long long quote(int a) { return a; }

#ifdef AGENTRY_COMPILE_FAIL
constexpr agentry::tool_policy backup{.needs_approval = true};
#else
constexpr agentry::tool_policy backup{};
#endif

constexpr agentry::registry tools{
    agentry::with_policy<agentry::tool_policy{.fallback = {"paid_quote"}}>(
        agentry::tool<"live_quote", "Quotes.", "a">(quote)),
    agentry::with_policy<backup>(agentry::tool<"paid_quote", "Quotes.", "a">(quote))};

int main() {
    agentry::agent<agentry::loop_config{}> a{agentry::openai{.model = "m"}, tools, "system", null_transport{}};
    return a.conversation().size() == 1 ? 0 : 1;
}
