// SPDX-License-Identifier: BSL-1.0
// expect: agentry: tool<...>(f): the parameters of f cannot be read: its operator() is a template
// errors: at most 3
#include <agentry/tool.hpp>

#ifdef AGENTRY_COMPILE_FAIL
int count(int first, ...) { return first; }
#else
int count(int first) { return first; }
#endif
constexpr auto t = agentry::tool<"count", "Counts.", "first">(count);

int main() { return sizeof(t) == 0; }
