// SPDX-License-Identifier: BSL-1.0
// expect: put the constraint inside the optional
#include <agentry/tool.hpp>

#include <optional>

struct query {
#ifdef AGENTRY_COMPILE_FAIL
    agentry::constrained<std::optional<int>, agentry::minimum<0>> value;
#else
    std::optional<agentry::constrained<int, agentry::minimum<0>>> value;
#endif
};

int run(const query&) { return 0; }
constexpr auto t = agentry::tool<"run", "Runs a query.">(run);

int main() { return t.parameters_schema().empty(); }
