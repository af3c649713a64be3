// SPDX-License-Identifier: BSL-1.0
// expect: agentry: mcp::annotations: the registry has no tool of this name
#include <agentry/mcp/server.hpp>

constexpr agentry::registry tools{agentry::tool<"add", "Add two integers", "a", "b">(+[](int a, int b) { return a + b; })};

int main() {
#ifdef AGENTRY_COMPILE_FAIL
    const agentry::mcp::server server{tools, {}, agentry::mcp::annotations<"sum">{.read_only = true}};
#else
    const agentry::mcp::server server{tools, {}, agentry::mcp::annotations<"add">{.read_only = true}};
#endif
    return server.tools_list().empty();
}
