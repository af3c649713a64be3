// SPDX-License-Identifier: BSL-1.0
// expect: agentry: registry::call: .context is not a Registry::context_type&
#include <agentry/registry.hpp>

struct session {
    int user = 0;
};
struct other {
    int user = 0;
};

int whoami(agentry::context<session> s) { return s->user; }

constexpr agentry::registry tools{agentry::tool<"whoami", "Says who calls.">(whoami)};

int main() {
#ifdef AGENTRY_COMPILE_FAIL
    other s{7};
#else
    session s{7};
#endif
    return tools.call("whoami", "{}", {.context = s, .scope = agentry::call_scope{}}).content == "7" ? 0 : 1;
}
