// SPDX-License-Identifier: BSL-1.0
// A program that serves tools over MCP with the installed agentry::mcp target.
#include <agentry/agentry.hpp>
#include <agentry/mcp/server.hpp>
#include <agentry/mcp/stdio.hpp>

#include <cstdio>
#include <sstream>
#include <string>

int add(int a, int b) { return a + b; }

constexpr agentry::registry tools{agentry::tool<"add", "Add two integers", "a", "b">(add)};

int main() {
    const agentry::mcp::server server{tools, {.name = "consumer", .version = "1.0.0"}};
    std::istringstream in(
        R"({"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-11-25","capabilities":{},"clientInfo":{"name":"c","version":"1"}}})"
        "\n"
        R"({"jsonrpc":"2.0","id":2,"method":"tools/call","params":{"name":"add","arguments":{"a":2,"b":3}}})"
        "\n");
    std::ostringstream out;
    agentry::mcp::serve(server, in, out);
    const std::string text = out.str();
    const bool ok = text.find(R"("protocolVersion":"2025-11-25")") != std::string::npos &&
                    text.find(R"("text":"5")") != std::string::npos;
    std::printf("mcp consumer: %s\n", ok ? "ok" : text.c_str());
    return ok ? 0 : 1;
}
