// SPDX-License-Identifier: BSL-1.0
// expect: agentry: field_docs names a field the struct does not have
// names: weather town
#include <agentry/tool.hpp>

#include <string>

struct weather_query {
    std::string city;
#ifdef AGENTRY_COMPILE_FAIL
    static constexpr auto docs = agentry::field_docs("town", "City name");
#else
    static constexpr auto docs = agentry::field_docs("city", "City name");
#endif
};

int run(const weather_query&) { return 0; }
constexpr auto t = agentry::tool<"weather", "Gets the weather.">(run);

int main() { return t.parameters_schema().empty(); }
