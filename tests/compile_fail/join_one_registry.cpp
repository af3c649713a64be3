// SPDX-License-Identifier: BSL-1.0
// expect: agentry: join(r1, r2, ...): give at least two registries
#include <agentry/compose.hpp>

long long add(int a, int b) { return 0LL + a + b; }

constexpr agentry::registry tools{agentry::tool<"add", "Adds.", "a", "b">(add)};
#ifdef AGENTRY_COMPILE_FAIL
constexpr auto all = agentry::join(tools);
#else
constexpr auto all = agentry::join(tools, agentry::registry{agentry::tool<"one", "One.">(+[] { return 1; })});
#endif

int main() { return all.size() >= 1 ? 0 : 1; }
