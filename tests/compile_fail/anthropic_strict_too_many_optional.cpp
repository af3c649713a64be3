// SPDX-License-Identifier: BSL-1.0
// expect: agentry: the tools have more optional parameters in all than Anthropic strict mode accepts
#include <agentry/registry.hpp>

#include <optional>

struct query {
    std::optional<int> a0, a1, a2, a3, a4, a5, a6, a7, a8, a9, a10, a11;
    std::optional<int> b0, b1, b2, b3, b4, b5, b6, b7, b8, b9, b10, b11;
#ifdef AGENTRY_COMPILE_FAIL
    std::optional<int> c0;  // 25 optional parameters
#endif
};

int run(const query&) { return 0; }
constexpr agentry::registry tools{agentry::tool<"run", "Runs a query.">(run)};

int main() { return tools.definitions<agentry::dialect::anthropic_strict>().empty(); }
