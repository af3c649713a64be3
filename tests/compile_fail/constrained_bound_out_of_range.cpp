// SPDX-License-Identifier: BSL-1.0
// expect: agentry: a bound on an integer type must be an integer within the range of that type
#include <agentry/tool.hpp>

struct query {
#ifdef AGENTRY_COMPILE_FAIL
    agentry::constrained<int, agentry::maximum<2147483648LL>> value;
#else
    agentry::constrained<int, agentry::maximum<2147483647>> value;
#endif
};

int run(const query&) { return 0; }
constexpr auto t = agentry::tool<"run", "Runs a query.">(run);

int main() { return t.parameters_schema().empty(); }
