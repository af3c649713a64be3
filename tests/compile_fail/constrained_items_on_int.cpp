// SPDX-License-Identifier: BSL-1.0
// expect: agentry: min_items, max_items and unique_items apply to std::vector, std::array and std::set only
#include <agentry/tool.hpp>

#include <vector>

struct query {
#ifdef AGENTRY_COMPILE_FAIL
    agentry::constrained<int, agentry::min_items<1>> value;
#else
    agentry::constrained<std::vector<int>, agentry::min_items<1>> value;
#endif
};

int run(const query&) { return 0; }
constexpr auto t = agentry::tool<"run", "Runs a query.">(run);

int main() { return t.parameters_schema().empty(); }
