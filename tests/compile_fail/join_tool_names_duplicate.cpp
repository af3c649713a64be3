// SPDX-License-Identifier: BSL-1.0
// expect: agentry: registry: two tools have the same name; tool names must be unique in a registry
// names: add
#include <agentry/compose.hpp>

// The name shared by the joined registries is in the instantiation of duplicate_tool_name.
long long add(int a, int b) { return 0LL + a + b; }
long long sub(int a, int b) { return 0LL + a - b; }

constexpr agentry::registry first{agentry::tool<"add", "Adds.", "a", "b">(add)};
#ifdef AGENTRY_COMPILE_FAIL
constexpr agentry::registry second{agentry::tool<"add", "Subtracts.", "a", "b">(sub)};
#else
constexpr agentry::registry second{agentry::tool<"sub", "Subtracts.", "a", "b">(sub)};
#endif
constexpr auto both = agentry::join(first, second);

int main() { return both.size() == 2 ? 0 : 1; }
