// SPDX-License-Identifier: BSL-1.0
// expect: agentry: agent::run(input, ctx): ctx is const; the tools take agentry::context<T> of a non-const T
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

// A const session given to a run whose tools take context<session>.
int main() {
    agentry::agent<agentry::loop_config{}> a{agentry::openai{.model = "m"}, tools, "system", null_transport{}};
#ifdef AGENTRY_COMPILE_FAIL
    const session s{"ada"};
#else
    session s{"ada"};
#endif
    const agentry::run_result r = a.run("hello", s);
    return r.text.empty() ? 1 : 0;
}
