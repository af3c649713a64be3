// SPDX-License-Identifier: BSL-1.0
// expect: agentry: mcp::resource_template: the URI template's {variables} must be exactly the members of the function's parameter struct
#include <agentry/mcp/server.hpp>

#include <string>

struct file_ref {
    std::string folder;
    std::string name;
};

constexpr agentry::registry tools{agentry::tool<"add", "Adds", "a", "b">(+[](int a, int b) { return a + b; })};

int main() {
    const auto read = +[](const file_ref& f) { return f.folder + "/" + f.name; };
#ifdef AGENTRY_COMPILE_FAIL
    const agentry::mcp::server server{tools, {}, agentry::mcp::resource_template<"file:///{folder}/{nam}", "file">(read)};
#else
    const agentry::mcp::server server{tools, {}, agentry::mcp::resource_template<"file:///{folder}/{name}", "file">(read)};
#endif
    return server.tools_list().empty();
}
