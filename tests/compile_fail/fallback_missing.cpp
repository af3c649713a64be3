// SPDX-License-Identifier: BSL-1.0
// expect: agentry: tool_policy::fallback: the fallback (named by fallback_named<...>) is not a tool of the registry of the tool that names it (failing_tool<...>)
// names: live_quote quote_cache
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

// The fallback is misspelt (quote_cache, not cached_quote).
long long quote(int a) { return a; }

#ifdef AGENTRY_COMPILE_FAIL
constexpr agentry::tool_policy policy{.fallback = {"quote_cache"}};
#else
constexpr agentry::tool_policy policy{.fallback = {"cached_quote"}};
#endif

constexpr agentry::registry tools{agentry::with_policy<policy>(agentry::tool<"live_quote", "Quotes.", "a">(quote)),
                                  agentry::tool<"cached_quote", "Quotes.", "a">(quote)};

int main() {
    agentry::agent<agentry::loop_config{}> a{agentry::openai{.model = "m"}, tools, "system", null_transport{}};
    return a.conversation().size() == 1 ? 0 : 1;
}
