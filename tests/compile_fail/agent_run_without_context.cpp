// SPDX-License-Identifier: BSL-1.0
// expect: agentry: agent<config, Context>::run: this agent's tools take agentry::context<Context>; call run(input, ctx)
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

// run without the session the tools need.
int main() {
    agentry::agent<agentry::loop_config{}, session> a{agentry::openai{.model = "m"}, tools, "system", null_transport{}};
    session s{"ada"};
#ifdef AGENTRY_COMPILE_FAIL
    const agentry::run_result r = a.run("hello");
#else
    const agentry::run_result r = a.run("hello", s);
#endif
    return r.text.empty() ? 1 : 0;
}
