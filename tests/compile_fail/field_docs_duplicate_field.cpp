// SPDX-License-Identifier: BSL-1.0
// expect: agentry: field_docs describes the same field twice
// names: weather city
#include <agentry/tool.hpp>

#include <string>

struct weather_query {
    std::string city;
    std::string country;
#ifdef AGENTRY_COMPILE_FAIL
    static constexpr auto docs = agentry::field_docs("city", "City name", "city", "Country name");
#else
    static constexpr auto docs = agentry::field_docs("city", "City name", "country", "Country name");
#endif
};

int run(const weather_query&) { return 0; }
constexpr auto t = agentry::tool<"weather", "Gets the weather.">(run);

int main() { return t.parameters_schema().empty(); }
