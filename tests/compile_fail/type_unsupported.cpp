// SPDX-License-Identifier: BSL-1.0
// expect: agentry: tool<...>: the parameter in field_named<...> has a type with no JSON Schema; use bool
// errors: at most 1
// names: plan_trip stops[].weird_field
#include <agentry/registry.hpp>

#include <string>
#include <vector>

struct stop {
    std::string name;
#ifdef AGENTRY_COMPILE_FAIL
    long double weird_field;
#else
    double weird_field;
#endif
};

struct trip {
    std::vector<stop> stops;
};

int plan(const trip&) { return 0; }
constexpr agentry::registry tools{agentry::tool<"plan_trip", "Plans a trip.">(plan)};

int main() { return tools.definitions().empty(); }
