// SPDX-License-Identifier: BSL-1.0
// expect: agentry: loop_config::compression is context_compression::summary without a context_budget_tokens
// errors: at most 2
#include <agentry/agent.hpp>
#include <agentry/provider/openai.hpp>
#include <agentry/registry.hpp>

struct null_transport {
    agentry::transport_result send(const agentry::http_request&) { return {{200, {}, ""}, {}}; }
    agentry::transport_result stream(const agentry::http_request&, agentry::stream_handlers&) {
        return {{200, {}, ""}, {}};
    }
};

long long add(int a, int b) { return 0LL + a + b; }

constexpr agentry::registry tools{agentry::tool<"add", "Adds.", "a", "b">(add)};

// A summary needs a budget to keep the history within.
#ifdef AGENTRY_COMPILE_FAIL
constexpr agentry::loop_config config{.compression = agentry::context_compression::summary};
#else
constexpr agentry::loop_config config{.context_budget_tokens = 4000, .compression = agentry::context_compression::summary};
#endif

int main() {
    agentry::agent<config> a{agentry::openai{.model = "m"}, tools, "system", null_transport{}};
    return a.conversation().size() == 1 ? 0 : 1;
}
