// SPDX-License-Identifier: BSL-1.0
// expect: agentry: registry::call: .context is not a Registry::context_type& (the T of the agentry::context<T> its tools take, as a non-const lvalue)
#include <agentry/registry.hpp>

// A temporary would not outlive what the tool keeps of it: the context is an lvalue.
struct session {
    int user = 0;
};

int whoami(agentry::context<session> s) { return s->user; }

constexpr agentry::registry tools{agentry::tool<"whoami", "Says who calls.">(whoami)};

int main() {
#ifdef AGENTRY_COMPILE_FAIL
    return tools.call("whoami", "{}", {.context = session{7}}).content == "7" ? 0 : 1;
#else
    session s{7};
    return tools.call("whoami", "{}", {.context = s}).content == "7" ? 0 : 1;
#endif
}
