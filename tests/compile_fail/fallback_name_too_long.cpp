// SPDX-License-Identifier: BSL-1.0
// expect: agentry: tool_policy::fallback: a fallback tool name is longer than 64 characters
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

// No tool can have a name this long.
long long get(int a) { return a; }

#ifdef AGENTRY_COMPILE_FAIL
constexpr agentry::tool_policy policy{
    .fallback = {"a_name_that_goes_on_and_on_and_on_far_past_the_sixty_four_characters_allowed"}};
#else
constexpr agentry::tool_policy policy{.fallback = {"backup"}};
#endif

constexpr agentry::registry tools{agentry::with_policy<policy>(agentry::tool<"get", "Gets.", "a">(get)),
                                  agentry::tool<"backup", "Gets.", "a">(get)};

int main() {
    agentry::agent<agentry::loop_config{}> a{agentry::openai{.model = "m"}, tools, "system", null_transport{}};
    return a.conversation().size() == 1 ? 0 : 1;
}
