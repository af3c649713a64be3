// SPDX-License-Identifier: BSL-1.0
// The MCP client with TLS (AGENTRY_WITH_TLS): its headers and the templates its https:// path
// instantiates compile without warnings under the strict set (tests/CMakeLists.txt).
#include <agentry/mcp/client.hpp>

int main() {
    auto c = agentry::mcp::client::connect(agentry::mcp::http_url{"https://127.0.0.1:1/mcp"});
    return c ? 0 : 1;
}
