// SPDX-License-Identifier: BSL-1.0
// expect: agentry: field_defaults: the default of the field in 'at_field' does not have the field's type
// names: language
#include <agentry/tool.hpp>

#include <optional>
#include <string>

struct query {
    std::string text;
    std::optional<std::string> language = "en";
    std::optional<int> limit = 10;
#ifdef AGENTRY_COMPILE_FAIL
    static constexpr auto defaults = agentry::field_defaults("language", 1, "limit", 10);
#else
    static constexpr auto defaults = agentry::field_defaults("language", "en", "limit", 10);
#endif
};

int run(const query&) { return 0; }
constexpr auto t = agentry::tool<"run", "Runs a query.">(run);

int main() { return t.parameters_schema().empty(); }
