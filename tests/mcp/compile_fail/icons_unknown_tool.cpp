// SPDX-License-Identifier: BSL-1.0
// expect: agentry: mcp::annotations: the registry has no tool of this name
#include <agentry/mcp/server.hpp>

constexpr agentry::registry tools{
    agentry::tool<"add", "Add two integers", "a", "b">(+[](int a, int b) { return a + b; }),
};

int main() {
#ifdef AGENTRY_COMPILE_FAIL
    const agentry::mcp::server server{
        tools, {}, agentry::mcp::annotations<"ad">{.icons = {{.src = "https://example.com/add.png"}}}};
#else
    const agentry::mcp::server server{
        tools, {}, agentry::mcp::annotations<"add">{.icons = {{.src = "https://example.com/add.png"}}}};
#endif
    return server.tools_list().empty();
}
