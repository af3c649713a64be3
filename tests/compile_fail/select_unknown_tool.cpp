// SPDX-License-Identifier: BSL-1.0
// expect: agentry: select<...>(registry): the registry has no tool of the name in select_unknown_tool<tool_named<...>>
// errors: at most 3
// names: mul
#include <agentry/compose.hpp>

long long add(int a, int b) { return 0LL + a + b; }
long long sub(int a, int b) { return 0LL + a - b; }

constexpr agentry::registry tools{agentry::tool<"add", "Adds.", "a", "b">(add),
                                  agentry::tool<"sub", "Subtracts.", "a", "b">(sub)};
#ifdef AGENTRY_COMPILE_FAIL
constexpr auto some = agentry::select<"sub", "mul">(tools);
#else
constexpr auto some = agentry::select<"sub", "add">(tools);
#endif

int main() { return some.size() == 2 ? 0 : 1; }
