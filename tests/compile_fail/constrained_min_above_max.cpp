// SPDX-License-Identifier: BSL-1.0
// expect: agentry: the lower bound is not below the upper bound
#include <agentry/tool.hpp>

struct query {
#ifdef AGENTRY_COMPILE_FAIL
    agentry::constrained<int, agentry::minimum<10>, agentry::maximum<1>> value;
#else
    agentry::constrained<int, agentry::minimum<1>, agentry::maximum<10>> value;
#endif
};

int run(const query&) { return 0; }
constexpr auto t = agentry::tool<"run", "Runs a query.">(run);

int main() { return t.parameters_schema().empty(); }
