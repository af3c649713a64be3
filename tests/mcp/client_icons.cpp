// SPDX-License-Identifier: BSL-1.0
// mcp::client's icons: those of examples/mcp_server (serverInfo, a tool) over stdio, those of a
// fake server's resources and prompts, and the lenient, bounded reading of a server's icons.
#include <agentry/json/value.hpp>
#include <agentry/mcp/client.hpp>

#include <doctest/doctest.h>

#include <filesystem>
#include <string>
#include <vector>

namespace {

namespace mcp = agentry::mcp;

std::vector<mcp::listed_icon> icons_of(std::string_view item, std::size_t& kept) {
    agentry::json::parsed parsed = agentry::json::parse(item);
    REQUIRE(parsed.ok());
    return mcp::detail::read_icons(parsed.value, kept);
}

} // namespace

TEST_CASE("icons: the client reads examples/mcp_server's serverInfo and tool icons (2025-11-25)") {
    auto c = mcp::client::connect(mcp::stdio_command{{AGENTRY_TEST_MCP_SERVER}});
    REQUIRE(c.has_value());
    REQUIRE((*c)->protocol_version() == "2025-11-25");
    const std::vector<mcp::listed_icon>& server = (*c)->server_icons();
    REQUIRE(server.size() == 1);
    CHECK(server[0].src == "https://example.com/weather.png");
    CHECK(server[0].mime_type == "image/png");
    CHECK(server[0].sizes == std::vector<std::string>{"48x48"});
    CHECK(server[0].theme == mcp::icon_theme::any);
    CHECK((*c)->website_url().empty());
    auto tools = (*c)->list_tools();
    REQUIRE(tools.has_value());
    REQUIRE(tools->size() == 2);
    REQUIRE((*tools)[0].icons.size() == 1);
    CHECK((*tools)[0].icons[0].src == "https://example.com/sun.svg");
    CHECK((*tools)[0].icons[0].mime_type.empty());
    CHECK((*tools)[0].icons[0].sizes == std::vector<std::string>{"any"});
    CHECK((*tools)[1].icons.empty());
}

TEST_CASE("icons: a server's resources and prompts, malformed icons skipped") {
    const std::string self = std::filesystem::canonical("/proc/self/exe").string();
    auto c = mcp::client::connect(mcp::stdio_command{{self, "--fake", "icons"}});
    REQUIRE(c.has_value());
    CHECK((*c)->server_icons().empty());
    auto resources = (*c)->list_resources();
    REQUIRE(resources.has_value());
    REQUIRE(resources->size() == 1);
    REQUIRE((*resources)[0].icons.size() == 1);  // javascript: skipped
    CHECK((*resources)[0].icons[0].src == "data:image/png;base64,AAAA");
    CHECK((*resources)[0].icons[0].theme == mcp::icon_theme::dark);
    auto prompts = (*c)->list_prompts();
    REQUIRE(prompts.has_value());
    REQUIRE(prompts->size() == 2);
    REQUIRE((*prompts)[0].icons.size() == 1);  // theme "dim" skipped
    CHECK((*prompts)[0].icons[0].src == "https://a.example/g.png");
    CHECK((*prompts)[0].icons[0].sizes == std::vector<std::string>{"16x16", "any"});
    CHECK((*prompts)[1].icons.empty());  // "icons" not an array
}

TEST_CASE("icons: read leniently and bounded") {
    std::size_t kept = 0;
    const std::vector<mcp::listed_icon> read = icons_of(
        R"({"icons":[1,{"src":"https://a.example/1.png","mimeType":"image/png","sizes":["48x48"],"theme":"light"},)"
        R"({"src":"http://a.example/plain.png"},{"src":"file:///etc/passwd"},{"src":"https://a.example/x","mimeType":"text/html"},)"
        R"({"src":"https://a.example/x","mimeType":7},{"src":"https://a.example/x","sizes":"48x48"},)"
        R"({"src":"https://a.example/x","sizes":[48]},{"src":"https://a.example/x","sizes":["huge"]},)"
        R"({"src":"https://a.example/x","theme":"Light"},{"src":"https://a.example/a b"},{"mimeType":"image/png"},)"
        R"({"src":"data:image/png;base64,AAAA"}]})",
        kept);
    REQUIRE(read.size() == 2);
    CHECK(read[0].src == "https://a.example/1.png");
    CHECK(read[0].mime_type == "image/png");
    CHECK(read[0].sizes == std::vector<std::string>{"48x48"});
    CHECK(read[0].theme == mcp::icon_theme::light);
    CHECK(read[1].src == "data:image/png;base64,AAAA");
    CHECK(kept == std::string_view("https://a.example/1.png").size() + 9 + 5 + 26);

    // At most max_listed_icons; a src over max_listed_icon_src_size is skipped; sizes at most 16.
    std::string many = R"({"icons":[)";
    for (int i = 0; i != 20; ++i) many += std::string(i == 0 ? "" : ",") + R"({"src":"https://a.example/)" + std::to_string(i) + "\"}";
    many += "]}";
    kept = 0;
    const std::vector<mcp::listed_icon> bounded = icons_of(many, kept);
    REQUIRE(bounded.size() == mcp::max_listed_icons);
    CHECK(bounded.back().src == "https://a.example/7");
    const std::string long_src = "data:image/png;base64," + std::string(mcp::max_listed_icon_src_size, 'A');
    CHECK(icons_of(R"({"icons":[{"src":")" + long_src + "\"}]}", kept).empty());
    std::string sizes = R"({"icons":[{"src":"https://a.example/s","sizes":[)";
    for (int i = 0; i != 17; ++i) sizes += std::string(i == 0 ? "" : ",") + "\"16x16\"";
    sizes += "]}]}";
    CHECK(icons_of(sizes, kept).empty());
    CHECK(icons_of(R"({"name":"no icons"})", kept).empty());
    CHECK(icons_of(R"([1])", kept).empty());

    CHECK(mcp::detail::website_url("https://example.com/a?b=c") == "https://example.com/a?b=c");
    CHECK(mcp::detail::website_url("javascript:alert(1)").empty());
    CHECK(mcp::detail::website_url("https://example.com/\"><script>").empty());
}
