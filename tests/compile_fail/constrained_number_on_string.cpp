// SPDX-License-Identifier: BSL-1.0
// expect: agentry: minimum, maximum, exclusive_minimum, exclusive_maximum and multiple_of apply to integer
#include <agentry/tool.hpp>

#include <string>

struct query {
#ifdef AGENTRY_COMPILE_FAIL
    agentry::constrained<std::string, agentry::minimum<0>> value;
#else
    agentry::constrained<std::string, agentry::min_length<0>> value;
#endif
};

int run(const query&) { return 0; }
constexpr auto t = agentry::tool<"run", "Runs a query.">(run);

int main() { return t.parameters_schema().empty(); }
