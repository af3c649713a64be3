// SPDX-License-Identifier: BSL-1.0
// expect: agentry: field_docs takes pairs of arguments
#include <agentry/schema/field_docs.hpp>

#include <string>

struct weather_query {
    std::string city;
#ifdef AGENTRY_COMPILE_FAIL
    static constexpr auto docs = agentry::field_docs("city", "City name", "unit");
#else
    static constexpr auto docs = agentry::field_docs("city", "City name");
#endif
};

int main() { return weather_query::docs.size() != 1; }
