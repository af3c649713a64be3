// SPDX-License-Identifier: BSL-1.0
// expect: agentry: this dialect cannot express agentry::raw_json
// names: run value
#include <agentry/tool.hpp>

struct query {
    agentry::raw_json value;
};

int run(const query&) { return 0; }
constexpr auto t = agentry::tool<"run", "Runs a query.">(run);

#ifdef AGENTRY_COMPILE_FAIL
int main() { return t.parameters_schema<agentry::dialect::openai_strict>().empty(); }
#else
int main() { return t.parameters_schema<agentry::dialect::openai>().empty(); }
#endif
