// SPDX-License-Identifier: BSL-1.0
// expect: agentry: registry::call(name, arguments, scope, ctx): pass one context
#include <agentry/registry.hpp>

struct session {
    int user = 0;
};

int whoami(agentry::context<session> s) { return s->user; }

constexpr agentry::registry tools{agentry::tool<"whoami", "Says who calls.">(whoami)};

int main() {
    session s{7};
#ifdef AGENTRY_COMPILE_FAIL
    return tools.call("whoami", "{}", agentry::call_scope{}, s, s).content == "7" ? 0 : 1;
#else
    return tools.call("whoami", "{}", agentry::call_scope{}, s).content == "7" ? 0 : 1;
#endif
}
