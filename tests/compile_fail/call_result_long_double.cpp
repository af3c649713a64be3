// SPDX-License-Identifier: BSL-1.0
// expect: agentry: json::write cannot write long double; use double
#include <agentry/registry.hpp>

#ifdef AGENTRY_COMPILE_FAIL
long double area(double side) { return static_cast<long double>(side) * side; }
#else
double area(double side) { return side * side; }
#endif

constexpr agentry::registry tools{agentry::tool<"area", "Area of a square", "side">(area)};

int main() { return tools.call("area", R"({"side":2})").status == agentry::tool_status::ok ? 0 : 1; }
