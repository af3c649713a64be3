// SPDX-License-Identifier: BSL-1.0
// expect: agentry: mcp::ceiling: the registry holds a tool (named in the instantiation above) whose permission level is above the server's ceiling and that needs no approval
#include <agentry/mcp/server.hpp>

constexpr agentry::registry tools{
    agentry::with_policy<agentry::tool_policy{.level = agentry::permission::read_only}>(
        agentry::tool<"look", "Reads", "x">(+[](int x) { return x; })),
    agentry::with_policy<agentry::tool_policy{.level = agentry::permission::destructive, .needs_approval = true}>(
        agentry::tool<"wipe_disk", "Destroys", "x">(+[](int x) { return x; })),
    agentry::with_policy<agentry::tool_policy{.level = agentry::permission::destructive}>(
        agentry::tool<"drop_table", "Destroys", "x">(+[](int x) { return x; })),
};

int main() {
#ifdef AGENTRY_COMPILE_FAIL
    // wipe_disk asks for approval, so it may be above the ceiling; drop_table does not.
    const agentry::mcp::server server{tools, {}, agentry::mcp::ceiling<agentry::permission::write>};
#else
    const agentry::mcp::server server{tools, {}, agentry::mcp::ceiling<agentry::permission::destructive>};
#endif
    return server.tools_list().empty();
}
