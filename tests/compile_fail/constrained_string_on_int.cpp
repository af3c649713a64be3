// SPDX-License-Identifier: BSL-1.0
// expect: agentry: min_length, max_length, pattern and format apply to std::string only
#include <agentry/tool.hpp>

struct query {
#ifdef AGENTRY_COMPILE_FAIL
    agentry::constrained<int, agentry::max_length<5>> value;
#else
    agentry::constrained<int, agentry::maximum<5>> value;
#endif
};

int run(const query&) { return 0; }
constexpr auto t = agentry::tool<"run", "Runs a query.">(run);

int main() { return t.parameters_schema().empty(); }
