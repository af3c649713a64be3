// SPDX-License-Identifier: BSL-1.0
// expect: agentry: loop_config::max_rate_wait must be between 0 (none) and 100 years
#include <agentry/agent.hpp>
#include <agentry/provider/openai.hpp>
#include <agentry/registry.hpp>

#include <chrono>

struct null_transport {
    agentry::transport_result send(const agentry::http_request&) { return {{200, {}, ""}, {}}; }
    agentry::transport_result stream(const agentry::http_request&, agentry::stream_handlers&) {
        return {{200, {}, ""}, {}};
    }
};

constexpr agentry::registry tools{agentry::tool<"add", "Adds.", "a", "b">(+[](int a, int b) { return 0LL + a + b; })};

#ifdef AGENTRY_COMPILE_FAIL
constexpr agentry::loop_config config{.max_rate_wait = std::chrono::milliseconds(-1)};
#else
constexpr agentry::loop_config config{.max_rate_wait = std::chrono::milliseconds(1)};
#endif

int main() {
    agentry::agent<config> a{agentry::openai{.model = "m"}, tools, "system", null_transport{}};
    return a.conversation().size() == 1 ? 0 : 1;
}
