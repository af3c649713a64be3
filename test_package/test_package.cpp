// SPDX-License-Identifier: BSL-1.0
#include <agentry/agentry.hpp>

#include <cstdio>
#include <string_view>

struct add_request {
    int a;
    int b;
};

int add(const add_request& r) { return r.a + r.b; }

constexpr agentry::registry tools{agentry::tool<"add", "Adds two integers.">(add)};

int main() {
    constexpr std::string_view schema = agentry::json_schema<add_request>();
    const agentry::tool_result result = tools.call("add", R"({"a":2,"b":3})");
    std::printf("agentry test_package: %.*s -> %s\n", int(schema.size()), schema.data(), result.content.c_str());
    return result.content == "5" ? 0 : 1;
}
