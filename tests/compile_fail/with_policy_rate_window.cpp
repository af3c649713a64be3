// SPDX-License-Identifier: BSL-1.0
// expect: agentry: with_policy<policy>: rate_limit::per_ms must be positive when rate_limit::calls is set
#include <agentry/policy/tool_policy.hpp>

constexpr auto add = agentry::tool<"add", "Adds.", "a", "b">(+[](int a, int b) { return 0LL + a + b; });

#ifdef AGENTRY_COMPILE_FAIL
constexpr agentry::rate_limit rate{.calls = 5, .per_ms = 0};
#else
constexpr agentry::rate_limit rate{.calls = 5, .per_ms = 1000};
#endif

constexpr auto limited = agentry::with_policy<agentry::tool_policy{.rate = rate}>(add);

int main() { return limited.policy.rate.calls == 5 ? 0 : 1; }
