// SPDX-License-Identifier: BSL-1.0
// expect: agentry: a std::variant of std::monostate alone holds no value
#include <agentry/tool.hpp>

#include <variant>

struct query {
#ifdef AGENTRY_COMPILE_FAIL
    std::variant<std::monostate> value;
#else
    std::variant<std::monostate, int> value;
#endif
};

int run(const query&) { return 0; }
constexpr auto t = agentry::tool<"run", "Runs a query.">(run);

int main() { return t.parameters_schema().empty(); }
