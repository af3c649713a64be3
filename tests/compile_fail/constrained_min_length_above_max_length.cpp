// SPDX-License-Identifier: BSL-1.0
// expect: agentry: min_length is greater than max_length
#include <agentry/tool.hpp>

#include <string>

struct query {
#ifdef AGENTRY_COMPILE_FAIL
    agentry::constrained<std::string, agentry::min_length<5>, agentry::max_length<2>> value;
#else
    agentry::constrained<std::string, agentry::min_length<2>, agentry::max_length<5>> value;
#endif
};

int run(const query&) { return 0; }
constexpr auto t = agentry::tool<"run", "Runs a query.">(run);

int main() { return t.parameters_schema().empty(); }
