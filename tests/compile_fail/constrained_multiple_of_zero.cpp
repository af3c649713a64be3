// SPDX-License-Identifier: BSL-1.0
// expect: agentry: multiple_of<N> needs N greater than 0
#include <agentry/tool.hpp>

struct query {
#ifdef AGENTRY_COMPILE_FAIL
    agentry::constrained<int, agentry::multiple_of<0>> value;
#else
    agentry::constrained<int, agentry::multiple_of<1>> value;
#endif
};

int run(const query&) { return 0; }
constexpr auto t = agentry::tool<"run", "Runs a query.">(run);

int main() { return t.parameters_schema().empty(); }
