// SPDX-License-Identifier: BSL-1.0
// expect: agentry: registry::call: no tool of this registry takes agentry::context<T>; leave .context out
#include <agentry/registry.hpp>

struct session {
    int user = 0;
};

int add(int a, int b) { return a + b; }

constexpr agentry::registry tools{agentry::tool<"add", "Adds.", "a", "b">(add)};

int main() {
#ifdef AGENTRY_COMPILE_FAIL
    session s{};
    return tools.call("add", R"({"a":1,"b":2})", {.context = s}).content == "3" ? 0 : 1;
#else
    return tools.call("add", R"({"a":1,"b":2})").content == "3" ? 0 : 1;
#endif
}
