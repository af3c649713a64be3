// SPDX-License-Identifier: BSL-1.0
// expect: the description is empty
// errors: at most 3
#include <agentry/tool.hpp>

int twice(int x) { return 2 * x; }

#ifdef AGENTRY_COMPILE_FAIL
constexpr auto t = agentry::tool<"twice", "", "x">(twice);
#else
constexpr auto t = agentry::tool<"twice", "Doubles x.", "x">(twice);
#endif

int main() { return t.name.size() == 0; }
