// SPDX-License-Identifier: BSL-1.0
// expect: agentry: json::write cannot write a pointer (other than const char*)
#include <agentry/registry.hpp>

const int answer = 42;

#ifdef AGENTRY_COMPILE_FAIL
const int* find() { return &answer; }
#else
int find() { return answer; }
#endif

constexpr agentry::registry tools{agentry::tool<"find", "Finds the answer.">(find)};

int main() { return tools.call("find", "{}").ok() ? 0 : 1; }
