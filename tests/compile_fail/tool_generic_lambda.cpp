// SPDX-License-Identifier: BSL-1.0
// expect: agentry: tool<...>(f): the parameters of f cannot be read: its operator() is a template
// errors: at most 3
#include <agentry/tool.hpp>

#ifdef AGENTRY_COMPILE_FAIL
constexpr auto twice = [](auto x) { return 2 * x; };
#else
constexpr auto twice = [](int x) { return 2 * x; };
#endif
constexpr auto t = agentry::tool<"twice", "Doubles x.", "x">(twice);

int main() { return sizeof(t) == 0; }
