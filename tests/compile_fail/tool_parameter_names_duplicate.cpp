// SPDX-License-Identifier: BSL-1.0
// expect: agentry: tool<...>: two parameters have the same name
// errors: at most 3
// names: add
#include <agentry/tool.hpp>

int add(int a, int b) { return a + b; }

#ifdef AGENTRY_COMPILE_FAIL
constexpr auto t = agentry::tool<"add", "Adds two integers.", "a", "a">(add);
#else
constexpr auto t = agentry::tool<"add", "Adds two integers.", "a", "b">(add);
#endif

int main() { return t.name.size() == 0; }
