// SPDX-License-Identifier: BSL-1.0
// expect: agentry: with_rate_limit<rate_limit{...}>: rate_limit::per_ms must be positive
#include <agentry/policy/registry_policies.hpp>

long long add(int a, int b) { return 0LL + a + b; }

constexpr agentry::registry tools{agentry::tool<"add", "Adds.", "a", "b">(add)};
#ifdef AGENTRY_COMPILE_FAIL
constexpr auto limited = agentry::with_rate_limit<agentry::rate_limit{.calls = 2, .per_ms = 0}>(tools);
#else
constexpr auto limited = agentry::with_rate_limit<agentry::rate_limit{.calls = 2, .per_ms = 1}>(tools);
#endif

int main() { return limited.size() == 1 ? 0 : 1; }
