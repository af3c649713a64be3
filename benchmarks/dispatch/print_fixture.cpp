// SPDX-License-Identifier: BSL-1.0
// Prints what the Python baseline needs, as one JSON object: for each fixture tool, the JSON
// Schema agentry generates for its arguments (agentry::json_schema<T>(), standard dialect,
// i.e. JSON Schema 2020-12) and the argument text.
//
//   {"search_flights":{"schema":{...},"arguments":"{...}"},"quote_fare":{...}}

#include "fixture.hpp"

#include <agentry/agentry.hpp>

#include <cstdio>
#include <map>
#include <string>

namespace {

struct fixture_doc {
    agentry::raw_json schema;
    std::string arguments;
};

} // namespace

int main() {
    const std::map<std::string, fixture_doc> docs{
        {"search_flights", {agentry::raw_json(std::string(agentry::json_schema<bench::flight_search>())),
                            std::string(bench::flight_args)}},
        {"quote_fare", {agentry::raw_json(std::string(agentry::json_schema<bench::fare_quote>())),
                        std::string(bench::fare_args)}},
    };
    const std::string text = agentry::json::to_json(docs, {.max_size = 0});
    std::printf("%s\n", text.c_str());
}
