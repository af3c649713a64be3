// SPDX-License-Identifier: BSL-1.0
// expect: agentry: agent<config, Output>: Output is the tools' context type
#include <agentry/agent.hpp>
#include <agentry/call_scope.hpp>
#include <agentry/provider/openai.hpp>
#include <agentry/registry.hpp>

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

// The context written where the agent's second template argument (the output) goes, as
// agent<config, Context> was once written: the context is the registry's, given per run.
int main() {
    session s{"ada"};
#ifdef AGENTRY_COMPILE_FAIL
    agentry::agent<agentry::loop_config{}, session> a{agentry::openai{.model = "m"}, tools, "system", null_transport{}};
    const auto r = a.run("hello", s);
#else
    agentry::agent<agentry::loop_config{}> a{agentry::openai{.model = "m"}, tools, "system", null_transport{}};
    const agentry::run_result r = a.run("hello", s);
#endif
    return r.text.empty() ? 1 : 0;
}
