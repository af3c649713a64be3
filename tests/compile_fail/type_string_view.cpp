// SPDX-License-Identifier: BSL-1.0
// expect: agentry: std::string_view does not own its characters
#include <agentry/tool.hpp>

#include <string>
#include <string_view>

struct query {
#ifdef AGENTRY_COMPILE_FAIL
    std::string_view value;
#else
    std::string value;
#endif
};

int run(const query&) { return 0; }
constexpr auto t = agentry::tool<"run", "Runs a query.">(run);

int main() { return t.parameters_schema().empty(); }
