// SPDX-License-Identifier: BSL-1.0
// expect: agentry: agent<config, Context>::resume: this agent's tools take agentry::context<Context>; call resume(decisions, ctx)
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

// resume without the session the tools need.
int main() {
    agentry::agent<agentry::loop_config{}, session> a{agentry::openai{.model = "m"}, tools, "system", null_transport{}};
    session s{"ada"};
    const std::span<const agentry::approval_decision> none;
#ifdef AGENTRY_COMPILE_FAIL
    const agentry::run_result r = a.resume(none);
#else
    const agentry::run_result r = a.resume(none, s);
#endif
    return r.text.empty() ? 1 : 0;
}
