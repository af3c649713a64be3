// SPDX-License-Identifier: BSL-1.0
// expect: agentry: select<...>(registry): name at least one tool
#include <agentry/compose.hpp>

long long add(int a, int b) { return 0LL + a + b; }

constexpr agentry::registry tools{agentry::tool<"add", "Adds.", "a", "b">(add)};
#ifdef AGENTRY_COMPILE_FAIL
constexpr auto some = agentry::select<>(tools);
#else
constexpr auto some = agentry::select<"add">(tools);
#endif

int main() { return some.size() == 1 ? 0 : 1; }
