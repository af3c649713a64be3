// SPDX-License-Identifier: BSL-1.0
// expect: agentry: min_items is greater than max_items
#include <agentry/tool.hpp>

#include <vector>

struct query {
#ifdef AGENTRY_COMPILE_FAIL
    agentry::constrained<std::vector<int>, agentry::min_items<5>, agentry::max_items<2>> value;
#else
    agentry::constrained<std::vector<int>, agentry::min_items<2>, agentry::max_items<5>> value;
#endif
};

int run(const query&) { return 0; }
constexpr auto t = agentry::tool<"run", "Runs a query.">(run);

int main() { return t.parameters_schema().empty(); }
