// SPDX-License-Identifier: BSL-1.0
// expect: agentry: agent::run(agentry::planned{...}): the registry has a tool named make_plan
#include <agentry/loop/plan.hpp>
#include <agentry/registry.hpp>

int add(int a, int b) { return a + b; }
#ifdef AGENTRY_COMPILE_FAIL
constexpr agentry::registry tools{agentry::tool<"make_plan", "Adds two integers", "a", "b">(add)};
#else
constexpr agentry::registry tools{agentry::tool<"add", "Adds two integers", "a", "b">(add)};
#endif

int main() { return agentry::plan_definitions<agentry::dialect::openai, decltype(tools)>().empty(); }
