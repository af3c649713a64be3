// SPDX-License-Identifier: BSL-1.0
// expect: agentry: json::write writes a map as a JSON object, whose keys are strings; use a key of type std::string, an integer or an enum
#include <agentry/registry.hpp>

#include <map>
#include <string>

#ifdef AGENTRY_COMPILE_FAIL
std::map<double, std::string> names(int count) {
    std::map<double, std::string> out;
    for (int i = 0; i < count; ++i) out[i + 0.5] = "n" + std::to_string(i);
    return out;
}
#else
std::map<std::string, std::string> names(int count) {
    std::map<std::string, std::string> out;
    for (int i = 0; i < count; ++i) out[std::to_string(i)] = "n" + std::to_string(i);
    return out;
}
#endif

constexpr agentry::registry tools{agentry::tool<"names", "Names by number", "count">(names)};

int main() { return tools.call("names", R"({"count":2})").status == agentry::tool_status::ok ? 0 : 1; }
