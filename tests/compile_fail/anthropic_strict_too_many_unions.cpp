// SPDX-License-Identifier: BSL-1.0
// expect: agentry: the tools have more nullable or variant parameters in all than Anthropic strict mode
#include <agentry/registry.hpp>

#include <string>
#include <variant>

using either = std::variant<int, std::string>;

struct query {
    either a0, a1, a2, a3, a4, a5, a6, a7, a8, a9, a10, a11, a12, a13, a14, a15;
#ifdef AGENTRY_COMPILE_FAIL
    either a16;  // 17 variant parameters
#endif
};

int run(const query&) { return 0; }
constexpr agentry::registry tools{agentry::tool<"run", "Runs a query.">(run)};

int main() { return tools.definitions<agentry::dialect::anthropic_strict>().empty(); }
