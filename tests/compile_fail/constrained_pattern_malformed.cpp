// SPDX-License-Identifier: BSL-1.0
// expect: is not a well-formed ECMA-262 regular expression
#include <agentry/tool.hpp>

#include <string>

struct query {
#ifdef AGENTRY_COMPILE_FAIL
    agentry::constrained<std::string, agentry::pattern<"([a-z]">> value;
#else
    agentry::constrained<std::string, agentry::pattern<"([a-z])">> value;
#endif
};

int run(const query&) { return 0; }
constexpr auto t = agentry::tool<"run", "Runs a query.">(run);

int main() { return t.parameters_schema().empty(); }
