// SPDX-License-Identifier: BSL-1.0
// expect: agentry: registry::call: the tool named in context_missing<tool_named<...>> takes agentry::context<T> and no context was passed
// names: whoami
#include <agentry/registry.hpp>

// With a scope or an index but no context, through call<D> as well.
struct session {
    int user = 0;
};

int whoami(agentry::context<const session> s) { return s->user; }
int add(int a, int b) { return a + b; }

constexpr agentry::registry tools{agentry::tool<"add", "Adds.", "a", "b">(add),
                                  agentry::tool<"whoami", "Says who calls.">(whoami)};

int main() {
    const agentry::call_scope scope{};
#ifdef AGENTRY_COMPILE_FAIL
    return tools.call<agentry::dialect::openai>("whoami", "{}", {.scope = scope}).ok() &&
                   tools.call("add", "{}", {.index = 0}).ok()
               ? 0
               : 1;
#else
    session s{7};
    return tools.call<agentry::dialect::openai>("whoami", "{}", {.context = s, .scope = scope}).content == "7" &&
                   tools.call("add", R"({"a":1,"b":2})", {.context = s, .index = 0}).content == "3"
               ? 0
               : 1;
#endif
}
