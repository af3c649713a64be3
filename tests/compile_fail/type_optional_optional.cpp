// SPDX-License-Identifier: BSL-1.0
// expect: agentry: tool<...>: the parameter in field_named<...> is std::optional<std::optional<T>>
// errors: at most 3
// names: run values[]
#include <agentry/tool.hpp>

#include <optional>
#include <vector>

struct query {
#ifdef AGENTRY_COMPILE_FAIL
    std::vector<std::optional<std::optional<int>>> values;
#else
    std::vector<std::optional<int>> values;
#endif
};

int run(const query&) { return 0; }
constexpr auto t = agentry::tool<"run", "Runs a query.">(run);

int main() { return t.parameters_schema().empty(); }
