// SPDX-License-Identifier: BSL-1.0
// expect: agentry: tool<...>: the parameter in field_named<...> is a character type
// errors: at most 3
// names: run value
#include <agentry/tool.hpp>

#include <string>

struct query {
#ifdef AGENTRY_COMPILE_FAIL
    char value;
#else
    std::string value;
#endif
};

int run(const query&) { return 0; }
constexpr auto t = agentry::tool<"run", "Runs a query.">(run);

int main() { return t.parameters_schema().empty(); }
