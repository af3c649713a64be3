// SPDX-License-Identifier: BSL-1.0
// expect: agentry: registry: two tools have the same name
// names: add
#include <agentry/registry.hpp>

int add(int a, int b) { return a + b; }
int sub(int a, int b) { return a - b; }

#ifdef AGENTRY_COMPILE_FAIL
constexpr agentry::registry tools{agentry::tool<"add", "Adds.", "a", "b">(add),
                                  agentry::tool<"add", "Subtracts.", "a", "b">(sub)};
#else
constexpr agentry::registry tools{agentry::tool<"add", "Adds.", "a", "b">(add),
                                  agentry::tool<"sub", "Subtracts.", "a", "b">(sub)};
#endif

int main() { return tools.size() != 2; }
