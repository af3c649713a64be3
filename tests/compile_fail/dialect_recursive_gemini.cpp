// SPDX-License-Identifier: BSL-1.0
// expect: agentry: this dialect cannot express a recursive type
// names: walk children[]
#include <agentry/tool.hpp>

#include <string>
#include <vector>

struct node {
    std::string name;
    std::vector<node> children;
};

int run(const node&) { return 0; }
constexpr auto t = agentry::tool<"walk", "Walks a tree.">(run);

#ifdef AGENTRY_COMPILE_FAIL
int main() { return t.parameters_schema<agentry::dialect::gemini>().empty(); }
#else
int main() { return t.parameters_schema<agentry::dialect::openai>().empty(); }
#endif
