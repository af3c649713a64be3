// SPDX-License-Identifier: BSL-1.0
// expect: agentry: select<...>(r) takes a registry made with agentry::registry{...}, join or select; a registry with a registry-wide rate limit (with_rate_limit) is not one
#include <agentry/compose.hpp>
#include <agentry/policy/registry_policies.hpp>

long long add(int a, int b) { return 0LL + a + b; }

constexpr agentry::registry tools{agentry::tool<"add", "Adds.", "a", "b">(add)};
#ifdef AGENTRY_COMPILE_FAIL
constexpr auto some = agentry::select<"add">(agentry::with_rate_limit<agentry::rate_limit{.calls = 5}>(tools));
#else
constexpr auto some = agentry::with_rate_limit<agentry::rate_limit{.calls = 5}>(agentry::select<"add">(tools));
#endif

int main() { return some.size() == 1 ? 0 : 1; }
