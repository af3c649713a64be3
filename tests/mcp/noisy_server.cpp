// SPDX-License-Identifier: BSL-1.0
// An MCP stdio server whose tool prints to standard output, for stray_output.mjs.
#include <agentry/mcp/stdio.hpp>
#include <agentry/registry.hpp>
#include <agentry/tool.hpp>

#include <cstdio>
#include <iostream>
#include <string>

constexpr agentry::registry tools{agentry::tool<"noisy", "Prints to standard output, returns its argument", "text">(
    +[](std::string text) {
        std::printf("printf noise\n");
        std::cout << "cout noise" << std::endl;
        std::fputs("unflushed noise", stdout);
        return text;
    })};

int main() {
    std::cout << "noise before serving\n";
    const int status = agentry::mcp::serve_stdio(tools, {.name = "noisy", .version = "1"});
    std::cout << "noise after serving" << std::endl;
    return status;
}
