// SPDX-License-Identifier: BSL-1.0
// expect: agentry: tool<...>: a parameter name must match
// errors: at most 3
// names: add first-term
#include <agentry/tool.hpp>

int add(int a, int b) { return a + b; }

#ifdef AGENTRY_COMPILE_FAIL
constexpr auto t = agentry::tool<"add", "Adds two integers.", "first-term", "b">(add);
#else
constexpr auto t = agentry::tool<"add", "Adds two integers.", "first_term", "b">(add);
#endif

int main() { return t.name.size() == 0; }
