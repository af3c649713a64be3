// SPDX-License-Identifier: BSL-1.0
// expect: agentry: a numeric bound must be an integer or JSON number text
#include <agentry/tool.hpp>

struct query {
#ifdef AGENTRY_COMPILE_FAIL
    agentry::constrained<double, agentry::minimum<"1.2.3">> value;
#else
    agentry::constrained<double, agentry::minimum<"1.23">> value;
#endif
};

int run(const query&) { return 0; }
constexpr auto t = agentry::tool<"run", "Runs a query.">(run);

int main() { return t.parameters_schema().empty(); }
