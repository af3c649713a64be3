// SPDX-License-Identifier: BSL-1.0
// expect: agentry: agent::run(agentry::planned{...}): the plan schema has more union types than this dialect allows
// The tools' 16 variant parameters fit Anthropic strict mode's 16 union types as definitions;
// the plan's choice between the two tools is one more.
#include <agentry/loop/plan.hpp>
#include <agentry/registry.hpp>

#include <string>
#include <variant>

struct eight {
    std::variant<int, std::string> a, b, c, d, e, f, g, h;
};
#ifdef AGENTRY_COMPILE_FAIL
struct other {
    std::variant<int, std::string> a, b, c, d, e, f, g, h;
};
#else
struct other {
    std::variant<int, std::string> a, b, c, d, e, f, g;
};
#endif

int first(const eight&) { return 1; }
int second(const other&) { return 2; }
constexpr agentry::registry tools{agentry::tool<"first", "First">(first), agentry::tool<"second", "Second">(second)};

int main() {
    static_assert(!decltype(tools)::definitions<agentry::dialect::anthropic_strict>().empty());
    return agentry::plan_definitions<agentry::dialect::anthropic_strict, decltype(tools)>().empty();
}
