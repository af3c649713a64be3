// SPDX-License-Identifier: BSL-1.0
// expect: agentry: mcp::server: the dialect must be dialect::mcp or a variant of it
// errors: at most 1
#include <agentry/mcp/server.hpp>

constexpr agentry::registry tools{agentry::tool<"add", "Adds.", "a", "b">(+[](int a, int b) { return a + b; })};

#ifdef AGENTRY_COMPILE_FAIL
using dialect = agentry::dialect::with_natural_bounds<agentry::dialect::openai>;
#else
using dialect = agentry::dialect::with_natural_bounds<agentry::dialect::mcp>;
#endif

int main() {
    const agentry::mcp::server<decltype(tools), dialect> server{tools};
    return server.tools_list().empty();
}
