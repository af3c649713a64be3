// SPDX-License-Identifier: BSL-1.0
// expect: agentry: join(...) takes registries made with agentry::registry{...}, join or select; a registry with a registry-wide rate limit (with_rate_limit) is not one
#include <agentry/compose.hpp>
#include <agentry/policy/registry_policies.hpp>

long long add(int a, int b) { return 0LL + a + b; }
long long sub(int a, int b) { return 0LL + a - b; }

constexpr agentry::registry first{agentry::tool<"add", "Adds.", "a", "b">(add)};
constexpr agentry::registry second{agentry::tool<"sub", "Subtracts.", "a", "b">(sub)};
#ifdef AGENTRY_COMPILE_FAIL
constexpr auto both = agentry::join(agentry::with_rate_limit<agentry::rate_limit{.calls = 5}>(first), second);
#else
constexpr auto both = agentry::with_rate_limit<agentry::rate_limit{.calls = 5}>(agentry::join(first, second));
#endif

int main() { return both.size() == 2 ? 0 : 1; }
