// SPDX-License-Identifier: BSL-1.0
// expect: agentry: a map's key type must be std::string
#include <agentry/tool.hpp>

#include <map>
#include <string>

struct query {
#ifdef AGENTRY_COMPILE_FAIL
    std::map<double, std::string> value;
#else
    std::map<std::string, std::string> value;
#endif
};

int run(const query&) { return 0; }
constexpr auto t = agentry::tool<"run", "Runs a query.">(run);

int main() { return t.parameters_schema().empty(); }
