// SPDX-License-Identifier: BSL-1.0
// expect: agentry: tool<...>: the parameter in field_named<...> is a pointer, which has no JSON Schema
// errors: at most 3
// names: run value
#include <agentry/tool.hpp>

#include <optional>

struct query {
#ifdef AGENTRY_COMPILE_FAIL
    const int* value;
#else
    std::optional<int> value;
#endif
};

int run(const query&) { return 0; }
constexpr auto t = agentry::tool<"run", "Runs a query.">(run);

int main() { return t.parameters_schema().empty(); }
