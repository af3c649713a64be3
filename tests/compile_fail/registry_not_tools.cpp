// SPDX-License-Identifier: BSL-1.0
// expect: takes tools made with agentry::tool<
#include <agentry/registry.hpp>

int add(int a, int b) { return a + b; }

#ifdef AGENTRY_COMPILE_FAIL
constexpr agentry::registry tools{add};
#else
constexpr agentry::registry tools{agentry::tool<"add", "Adds.", "a", "b">(add)};
#endif

int main() { return tools.size() != 1; }
