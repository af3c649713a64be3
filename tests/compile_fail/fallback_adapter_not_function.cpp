// SPDX-License-Identifier: BSL-1.0
// expect: f must be a function taking one parameter (the failing tool's parameter struct)
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

// The adapter takes two parameters.
struct quote_query {
    std::string symbol;
};
struct cache_query {
    std::string key;
};
double live_quote(const quote_query&) { return 1; }
double cached_quote(const cache_query&) { return 1; }
cache_query to_cache(const quote_query& q) { return {q.symbol}; }
cache_query two(const quote_query& q, int) { return {q.symbol}; }

#ifdef AGENTRY_COMPILE_FAIL
constexpr agentry::tool_policy policy{.fallback = {agentry::adapt<&two>("cached_quote")}};
#else
constexpr agentry::tool_policy policy{.fallback = {agentry::adapt<&to_cache>("cached_quote")}};
#endif

constexpr agentry::registry tools{agentry::with_policy<policy>(agentry::tool<"live_quote", "Quotes.">(live_quote)),
                                  agentry::tool<"cached_quote", "Quotes.">(cached_quote)};

int main() {
    agentry::agent<agentry::loop_config{}> a{agentry::openai{.model = "m"}, tools, "system", null_transport{}};
    return a.conversation().size() == 1 ? 0 : 1;
}
