// SPDX-License-Identifier: BSL-1.0
// expect: agentry: field_defaults gives a default to a field (in 'at_field') that is not a std::optional
// names: text
#include <agentry/tool.hpp>

#include <optional>
#include <string>

struct query {
    std::string text;
    std::optional<int> limit = 10;
#ifdef AGENTRY_COMPILE_FAIL
    static constexpr auto defaults = agentry::field_defaults("text", "", "limit", 10);
#else
    static constexpr auto defaults = agentry::field_defaults("limit", 10);
#endif
};

int run(const query&) { return 0; }
constexpr auto t = agentry::tool<"run", "Runs a query.">(run);

int main() { return t.parameters_schema().empty(); }
