// SPDX-License-Identifier: BSL-1.0
// expect: agentry: with_policy<policy>(t): t must be one tool made with agentry::tool<
#include <agentry/policy/tool_policy.hpp>

// A policy is given once, to a tool.
constexpr auto add = agentry::tool<"add", "Adds.", "a", "b">(+[](int a, int b) { return 0LL + a + b; });
constexpr auto once = agentry::with_policy<agentry::tool_policy{.level = agentry::permission::write}>(add);

int main() {
#ifdef AGENTRY_COMPILE_FAIL
    constexpr auto twice = agentry::with_policy<agentry::tool_policy{}>(once);
    (void)twice;
#endif
    return once.policy.level == agentry::permission::write ? 0 : 1;
}
