// SPDX-License-Identifier: BSL-1.0
// expect: agentry: registry::call: the tool named in context_missing<tool_named<...>> takes agentry::context<T> and no context was passed
// names: whoami
#include <agentry/registry.hpp>

struct session {
    int user = 0;
};

int whoami(agentry::context<session> s) { return s->user; }

constexpr agentry::registry tools{agentry::tool<"whoami", "Says who calls.">(whoami)};

int main() {
#ifdef AGENTRY_COMPILE_FAIL
    return tools.call("whoami", "{}").ok() ? 0 : 1;
#else
    session s{7};
    return tools.call("whoami", "{}", {.context = s}).content == "7" ? 0 : 1;
#endif
}
