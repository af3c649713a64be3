// SPDX-License-Identifier: BSL-1.0
// expect: agentry: agent<config, Context>: Context must be the registry's context_type
#include <agentry/agent.hpp>
#include <agentry/call_scope.hpp>
#include <agentry/provider/openai.hpp>
#include <agentry/registry.hpp>

#include <span>
#include <string>

struct null_transport {
    agentry::transport_result send(const agentry::http_request&) { return {{200, {}, ""}, {}}; }
    agentry::transport_result stream(const agentry::http_request&, agentry::stream_handlers&) {
        return {{200, {}, ""}, {}};
    }
};

struct session {
    std::string user;
};

std::string whoami(agentry::context<session> s) { return s->user; }

constexpr agentry::registry tools{agentry::tool<"whoami", "The user.">(whoami)};

// The registry's tools take context<session>; the agent is declared without it.
int main() {
#ifdef AGENTRY_COMPILE_FAIL
    agentry::agent<agentry::loop_config{}> a{agentry::openai{.model = "m"}, tools, "system", null_transport{}};
#else
    agentry::agent<agentry::loop_config{}, session> a{agentry::openai{.model = "m"}, tools, "system", null_transport{}};
#endif
    return a.conversation().size() == 1 ? 0 : 1;
}
