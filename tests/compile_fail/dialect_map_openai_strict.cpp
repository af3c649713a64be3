// SPDX-License-Identifier: BSL-1.0
// expect: agentry: this dialect cannot express a map (std::map<K, T> with any key type
// names: run value
#include <agentry/tool.hpp>

#include <map>
#include <string>

struct query {
    std::map<std::string, int> value;
};

int run(const query&) { return 0; }
constexpr auto t = agentry::tool<"run", "Runs a query.">(run);

#ifdef AGENTRY_COMPILE_FAIL
int main() { return t.parameters_schema<agentry::dialect::openai_strict>().empty(); }
#else
int main() { return t.parameters_schema<agentry::dialect::openai>().empty(); }
#endif
