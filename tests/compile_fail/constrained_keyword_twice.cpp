// SPDX-License-Identifier: BSL-1.0
// expect: agentry: a constraint keyword is given twice
#include <agentry/tool.hpp>

struct query {
#ifdef AGENTRY_COMPILE_FAIL
    agentry::constrained<int, agentry::minimum<0>, agentry::minimum<1>> value;
#else
    agentry::constrained<int, agentry::minimum<0>, agentry::maximum<1>> value;
#endif
};

int run(const query&) { return 0; }
constexpr auto t = agentry::tool<"run", "Runs a query.">(run);

int main() { return t.parameters_schema().empty(); }
