// SPDX-License-Identifier: BSL-1.0
// expect: agentry: registry::call: .context is not a Registry::context_type& (the T of the agentry::context<T> its tools take, as a non-const lvalue)
#include <agentry/registry.hpp>

// A const object, for tools that take agentry::context<const session>: the registry's context
// is still given as a session&.
struct session {
    int user = 0;
};

int whoami(agentry::context<const session> s) { return s->user; }

constexpr agentry::registry tools{agentry::tool<"whoami", "Says who calls.">(whoami)};

int main() {
#ifdef AGENTRY_COMPILE_FAIL
    const session s{7};
#else
    session s{7};
#endif
    return tools.call("whoami", "{}", {.context = s}).content == "7" ? 0 : 1;
}
