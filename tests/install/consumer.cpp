// SPDX-License-Identifier: BSL-1.0
// A program that uses agentry as a dependency.
#include <agentry/agentry.hpp>

#include <cstdio>
#include <string>

struct greeting_request {
    std::string name;
};

std::string greet(const greeting_request& r) { return "Hello, " + r.name; }

constexpr agentry::registry tools{agentry::tool<"greet", "Greets someone by name.">(greet)};

static_assert(agentry::json_schema<greeting_request>() ==
              R"({"type":"object","properties":{"name":{"type":"string"}},"required":["name"],"additionalProperties":false})");

int main() {
    const auto payload = tools.definitions<agentry::dialect::anthropic>();
    const bool ok = payload.starts_with(R"([{"name":"greet","description":"Greets someone by name.","input_schema":)");
    std::printf("consumer: definitions %s\n", ok ? "ok" : "wrong");
    return ok ? 0 : 1;
}
