// SPDX-License-Identifier: BSL-1.0
// expect: agentry: mcp::server: two mcp::annotations name the same tool
#include <agentry/mcp/server.hpp>

constexpr agentry::registry tools{
    agentry::tool<"add", "Add two integers", "a", "b">(+[](int a, int b) { return a + b; }),
    agentry::tool<"sub", "Subtract two integers", "a", "b">(+[](int a, int b) { return a - b; }),
};

int main() {
#ifdef AGENTRY_COMPILE_FAIL
    const agentry::mcp::server server{tools, {}, agentry::mcp::annotations<"add">{.read_only = true},
                                      agentry::mcp::annotations<"add">{.idempotent = true}};
#else
    const agentry::mcp::server server{tools, {}, agentry::mcp::annotations<"add">{.read_only = true},
                                      agentry::mcp::annotations<"sub">{.idempotent = true}};
#endif
    return server.tools_list().empty();
}
