// SPDX-License-Identifier: BSL-1.0
// expect: a tool name must be 1 to 64 characters from A-Z, a-z, 0-9
// errors: at most 3
#include <agentry/tool.hpp>

int twice(int x) { return 2 * x; }

#ifdef AGENTRY_COMPILE_FAIL
constexpr auto t = agentry::tool<"get weather", "Has a space in its name.", "x">(twice);
#else
constexpr auto t = agentry::tool<"get_weather", "A valid name.", "x">(twice);
#endif

int main() { return t.name.size() == 0; }
