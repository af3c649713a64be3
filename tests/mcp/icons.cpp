// SPDX-License-Identifier: BSL-1.0
// Icons (icons.hpp): sent with the server, tools, resources, resource templates and prompts from
// 2025-11-25, absent before; the rules each icon is checked against when the server is built.
#include <agentry/agentry.hpp>
#include <agentry/mcp/server.hpp>

#include <string>

namespace mcp = agentry::mcp;

std::string forecast(std::string city) { return city + ": sun"; }

constexpr agentry::registry weather_tools{
    agentry::tool<"forecast", "Tomorrow's weather in a city", "city">(forecast),
    agentry::tool<"alerts", "Weather alerts in a city", "city">(forecast)};

constexpr mcp::icon sun{.src = "https://example.com/sun.svg", .mime_type = "image/svg+xml", .sizes = "any",
                        .theme = mcp::icon_theme::light};
static_assert(mcp::icon_problem(sun).empty());

const mcp::server weather_server{
    weather_tools,
    {.name = "weather", .version = "1.0.0", .description = "Forecasts", .website_url = "https://example.com/weather",
     .icons = {{.src = "https://example.com/weather.png", .mime_type = "image/png", .sizes = "48x48 96x96"}}},
    mcp::annotations<"forecast">{.read_only = true, .icons = {sun}},
    mcp::resource<"weather://cities", "cities">(
        +[] { return std::string("Paris\nOslo"); },
        {.icons = {{.src = "data:image/png;base64,iVBORw0KGgo=", .theme = mcp::icon_theme::dark}}}),
    mcp::prompt<"plan_trip", "Asks for a trip plan">(+[] { return std::string("Plan a trip"); },
                                                      {.title = "Plan a trip", .icons = {sun}})};

#include <agentry/json/schema_check.hpp>
#include <agentry/json/value.hpp>
#include <agentry/mcp/version.hpp>

#include "doc_block.hpp"

#include <doctest/doctest.h>

#include <stdexcept>
#include <string_view>
#include <vector>

namespace {

using namespace std::literals;

struct city_ref {
    std::string city;
};

const mcp::server templated{
    weather_tools,
    {.name = "t", .version = "1"},
    mcp::resource_template<"weather://{city}", "city">(
        +[](const city_ref& c) { return c.city; },
        {.description = "A city", .icons = {{.src = "https://example.com/city.png", .sizes = "16x16"}, sun}}),
    mcp::resource<"weather://plain", "plain">(+[] { return "plain"s; }),
    mcp::prompt<"bare", "No icons">(+[] { return "bare"s; })};

std::string initialize(std::string_view version) {
    return R"({"jsonrpc":"2.0","id":0,"method":"initialize","params":{"protocolVersion":")"s + std::string(version) +
           R"(","capabilities":{},"clientInfo":{"name":"t","version":"1"}}})";
}

std::string ask(const decltype(weather_server)& server, std::string_view version, std::string_view method) {
    mcp::session s;
    REQUIRE(!server.handle(s, initialize(version)).empty());
    return server.handle(s, R"({"jsonrpc":"2.0","id":1,"method":")"s + std::string(method) + "\"}");
}

std::string result(std::string_view body) { return R"({"jsonrpc":"2.0","id":1,"result":)"s + std::string(body) + "}"; }

constexpr std::string_view sun_json =
    R"({"src":"https://example.com/sun.svg","mimeType":"image/svg+xml","sizes":["any"],"theme":"light"})";

std::string problem_of(mcp::icon i) { return std::string(mcp::icon_problem(i)); }

} // namespace

TEST_CASE("icons: serverInfo has icons, description and websiteUrl from 2025-11-25") {
    mcp::session s;
    CHECK(weather_server.handle(s, initialize("2025-11-25")) ==
          R"({"jsonrpc":"2.0","id":0,"result":{"protocolVersion":"2025-11-25","capabilities":{"tools":{"listChanged":false},)"
          R"("logging":{},"resources":{"subscribe":true,"listChanged":false},"prompts":{"listChanged":false}},)"
          R"("serverInfo":{"name":"weather","version":"1.0.0","description":"Forecasts",)"
          R"("icons":[{"src":"https://example.com/weather.png","mimeType":"image/png","sizes":["48x48","96x96"]}],)"
          R"("websiteUrl":"https://example.com/weather"}}})");
    mcp::session old;
    CHECK(weather_server.handle(old, initialize("2025-06-18")) ==
          R"({"jsonrpc":"2.0","id":0,"result":{"protocolVersion":"2025-06-18","capabilities":{"tools":{"listChanged":false},)"
          R"("logging":{},"resources":{"subscribe":true,"listChanged":false},"prompts":{"listChanged":false}},)"
          R"("serverInfo":{"name":"weather","version":"1.0.0"}}})");
    // Without any of them, serverInfo is as before in 2025-11-25 too.
    mcp::session plain;
    CHECK(templated.handle(plain, initialize("2025-11-25")).find(R"("serverInfo":{"name":"t","version":"1"}})") !=
          std::string::npos);
}

TEST_CASE("icons: tools/list from 2025-11-25 (and the stateless 2026-07-28), not before") {
    const std::string forecast_head =
        R"({"tools":[{"name":"forecast","description":"Tomorrow's weather in a city","inputSchema":{"type":"object",)"
        R"("properties":{"city":{"type":"string"}},"required":["city"],"additionalProperties":false})";
    const std::string alerts =
        R"({"name":"alerts","description":"Weather alerts in a city","inputSchema":{"type":"object",)"
        R"("properties":{"city":{"type":"string"}},"required":["city"],"additionalProperties":false}}]})";
    const std::string with_icons =
        forecast_head + R"(,"annotations":{"readOnlyHint":true},"icons":[)" + std::string(sun_json) + "]}," + alerts;
    CHECK(weather_server.tools_list("2025-11-25") == with_icons);
    CHECK(weather_server.tools_list("2026-07-28") == with_icons);
    CHECK(weather_server.tools_list("2025-06-18") == forecast_head + R"(,"annotations":{"readOnlyHint":true}},)" + alerts);
    CHECK(ask(weather_server, "2025-11-25", "tools/list") == result(with_icons));
}

TEST_CASE("icons: resources/list, resources/templates/list and prompts/list from 2025-11-25") {
    CHECK(ask(weather_server, "2025-11-25", "resources/list") ==
          result(R"({"resources":[{"uri":"weather://cities","name":"cities","mimeType":"text/plain",)"
                 R"("icons":[{"src":"data:image/png;base64,iVBORw0KGgo=","theme":"dark"}]}]})"));
    CHECK(ask(weather_server, "2025-06-18", "resources/list") ==
          result(R"({"resources":[{"uri":"weather://cities","name":"cities","mimeType":"text/plain"}]})"));
    CHECK(ask(templated, "2025-11-25", "resources/templates/list") ==
          result(R"({"resourceTemplates":[{"uriTemplate":"weather://{city}","name":"city","description":"A city",)"
                 R"("mimeType":"text/plain","icons":[{"src":"https://example.com/city.png","sizes":["16x16"]},)" +
                 std::string(sun_json) + "]}]}"));
    CHECK(ask(templated, "2025-06-18", "resources/templates/list") ==
          result(R"({"resourceTemplates":[{"uriTemplate":"weather://{city}","name":"city","description":"A city",)"
                 R"("mimeType":"text/plain"}]})"));
    CHECK(ask(templated, "2025-11-25", "resources/list") ==
          result(R"({"resources":[{"uri":"weather://plain","name":"plain","mimeType":"text/plain"}]})"));
    CHECK(ask(weather_server, "2025-11-25", "prompts/list") ==
          result(R"({"prompts":[{"name":"plan_trip","title":"Plan a trip","description":"Asks for a trip plan",)"
                 R"("arguments":[],"icons":[)" +
                 std::string(sun_json) + "]}]}"));
    CHECK(ask(weather_server, "2025-06-18", "prompts/list") ==
          result(R"({"prompts":[{"name":"plan_trip","title":"Plan a trip","description":"Asks for a trip plan",)"
                 R"("arguments":[]}]})"));
    CHECK(ask(templated, "2025-11-25", "prompts/list") ==
          result(R"({"prompts":[{"name":"bare","description":"No icons","arguments":[]}]})"));
}

TEST_CASE("icons: the rules of an icon, at compile time") {
    static_assert(mcp::icon_problem({.src = "https://a.example/i.png"}).empty());
    static_assert(mcp::icon_problem({.src = "HTTPS://a.example/i.png?x=1#y"}).empty());
    static_assert(mcp::icon_problem({.src = "data:image/svg+xml;base64,PHN2Zz4="}).empty());
    static_assert(mcp::icon_problem({.src = "data:image/png;charset=x;base64,AA=="}).empty());
    static_assert(mcp::icon_problem({.src = "https://a.example/i", .sizes = "16x16  any 1024x768"}).empty());
    static_assert(mcp::icon_problem({.src = "https://a.example/i", .theme = mcp::icon_theme::dark}).empty());
    static_assert(!mcp::icon_problem({.src = "http://a.example/i.png"}).empty());
    static_assert(!mcp::icon_problem({.src = "javascript:alert(1)"}).empty());
    static_assert(!mcp::icon_problem({.src = "file:///etc/passwd"}).empty());
    static_assert(!mcp::icon_problem({.src = "https:a.example"}).empty());
    static_assert(!mcp::icon_problem({.src = "https:///path"}).empty());
    static_assert(!mcp::icon_problem({.src = "data:text/html;base64,PHA+"}).empty());
    static_assert(!mcp::icon_problem({.src = "data:image/png,rawbytes"}).empty());
    static_assert(!mcp::icon_problem({.src = "data:image/png;base64,"}).empty());
    static_assert(!mcp::icon_problem({.src = "data:image/png;base64,a%b"}).empty());
    static_assert(!mcp::icon_problem({.src = "https://a.example/a b.png"}).empty());
    static_assert(!mcp::icon_problem({.src = "https://a.example/\"x"}).empty());
    static_assert(!mcp::icon_problem({.src = "https://a.example/i", .mime_type = "text/html"}).empty());
    static_assert(!mcp::icon_problem({.src = "https://a.example/i", .sizes = "48"}).empty());
    static_assert(!mcp::icon_problem({.src = "https://a.example/i", .sizes = "0x48"}).empty());
    static_assert(!mcp::icon_problem({.src = "https://a.example/i", .sizes = "48x"}).empty());
    static_assert(!mcp::icon_problem({.src = "https://a.example/i", .sizes = "48X48"}).empty());
    static_assert(!mcp::icon_problem({.src = "https://a.example/i", .sizes = "all"}).empty());
    static_assert(!mcp::icon_problem({.src = "https://a.example/i", .sizes = "999999x1"}).empty());
    static_assert(!mcp::icon_problem({.src = ""}).empty());
    CHECK(problem_of({.src = "javascript:alert(1)"}) ==
          "src is neither an https: URL nor a data: URI; other schemes (http:, javascript:, file:) are refused");
    CHECK(problem_of({.src = "https://a.example/i", .theme = static_cast<mcp::icon_theme>(7)}) ==
          "theme is not icon_theme::any, light or dark");
}

TEST_CASE("icons: an icon breaking a rule stops the server's construction, naming it") {
    using agentry::registry;
    const auto build = [](auto make) -> std::string {
        try {
            make();
        } catch (const std::invalid_argument& e) {
            return e.what();
        }
        return "built";
    };
    CHECK(build([] { mcp::server{weather_tools, {.icons = {{.src = "file:///logo.png"}}}}; }) ==
          R"(agentry: mcp::server: icon 1 of server_info ("file:///logo.png"): src is neither an https: URL nor a )"
          R"(data: URI; other schemes (http:, javascript:, file:) are refused)");
    CHECK(build([] {
              mcp::server{weather_tools, {},
                          mcp::annotations<"alerts">{.icons = {sun, {.src = "https://a.example/i", .sizes = "big"}}}};
          }) == R"(agentry: mcp::server: icon 2 of tool "alerts" ("https://a.example/i"): sizes is not a list of )"
                R"("WxH" (such as "48x48") or "any", separated by spaces)");
    CHECK(build([] {
              mcp::server{weather_tools, {},
                          mcp::resource<"a://b", "b">(+[] { return "b"s; },
                                                      {.icons = {{.src = "data:image/png;base64,??"}}})};
          }) == R"(agentry: mcp::server: icon 1 of resource "a://b" ("data:image/png;base64,??"): src is not a data: )"
                R"(URI of base64 image data; write data:image/<type>;base64,<data>)");
    CHECK(build([] {
              mcp::server{weather_tools, {},
                          mcp::resource_template<"a://{city}", "c">(
                              +[](const city_ref& c) { return c.city; },
                              {.icons = {{.src = "https://a.example/i", .mime_type = "application/pdf"}}})};
          }) == R"(agentry: mcp::server: icon 1 of resource template "a://{city}" ("https://a.example/i"): )"
                R"(mime_type is not an image/ media type such as image/png)");
    CHECK(build([] {
              mcp::server{weather_tools, {},
                          mcp::prompt<"p", "P">(+[] { return "p"s; }, {.icons = {{.src = "https://a.example/a b"}}})};
          }) == R"(agentry: mcp::server: icon 1 of prompt "p" ("https://a.example/a b"): src holds a character a URI )"
                R"(cannot (a space, a quote, a non-ASCII byte, ...); percent-encode it)");
    CHECK(build([] { mcp::server{weather_tools, {.icons = {{.src = "https:/x"}}}}; }) ==
          R"(agentry: mcp::server: icon 1 of server_info ("https:/x"): src is not an https:// URL with a host)");
    CHECK(build([] { mcp::server{weather_tools, {.icons = {{}}}}; }) ==
          R"(agentry: mcp::server: icon 1 of server_info (""): src is empty; give an https: URL or a data: URI)");
    CHECK(build([] { mcp::server{weather_tools, {.website_url = "ftp://example.com"}}; }) ==
          R"(agentry: mcp::server: server_info::website_url "ftp://example.com" is not an http: or https: URL; give )"
          R"(the server's website as https://...)");
    CHECK(build([] { mcp::server{weather_tools, {.website_url = "http://example.com/a"}}; }) == "built");
}

TEST_CASE("icons: what the server sends validates against the schema of 2025-11-25 and 2026-07-28") {
    const std::string root = AGENTRY_TEST_SOURCE_DIR "/../shared/testdata/mcp-schema/";
    struct listing {
        const decltype(weather_server)* server;
        std::string_view method;
        std::string_view definition;
    };
    const listing listings[] = {{&weather_server, "initialize", "InitializeResult"},
                                {&weather_server, "tools/list", "ListToolsResult"},
                                {&weather_server, "resources/list", "ListResourcesResult"},
                                {&templated, "resources/templates/list", "ListResourceTemplatesResult"},
                                {&weather_server, "prompts/list", "ListPromptsResult"}};
    for (const std::string_view version : {"2025-11-25"sv, "2026-07-28"sv}) {
        const std::string text = mcp_test::read_file(root + std::string(version) + "/schema.json");
        if (text.empty()) {
            MESSAGE("skipped: " << root << " is absent (../shared/testdata)");
            return;
        }
        const bool stateless = version == mcp::stateless_protocol_version;
        for (const listing& l : listings) {
            if (stateless && l.method == "initialize") continue;
            agentry::json::parsed parsed = agentry::json::parse(text);
            REQUIRE(parsed.ok());
            agentry::json::value schema = std::move(parsed.value);
            schema.set("$ref", "#/$defs/" + std::string(l.definition));
            const agentry::json::schema_checker check(std::move(schema));
            mcp::session s;
            std::string answer_text;
            if (l.method == "initialize") {
                answer_text = l.server->handle(s, initialize(version));
            } else if (stateless) {
                answer_text = l.server->handle(
                    s, R"({"jsonrpc":"2.0","id":1,"method":")"s + std::string(l.method) +
                           R"(","params":{"_meta":{"io.modelcontextprotocol/protocolVersion":"2026-07-28",)"
                           R"("io.modelcontextprotocol/clientCapabilities":{}}}})");
            } else {
                answer_text = ask(*l.server, version, l.method);
            }
            INFO(version, " ", l.method, ": ", answer_text);
            CHECK(answer_text.find(R"("icons":[)") != std::string::npos);
            const agentry::json::parsed answer = agentry::json::parse(answer_text);
            REQUIRE(answer.ok());
            const agentry::json::value* r = answer.value.find("result");
            REQUIRE(r != nullptr);
            const std::vector<agentry::json::read_error> errors = check(*r);
            CHECK(errors.empty());
            if (!errors.empty()) MESSAGE(errors.front().to_string());
        }
    }
}

TEST_CASE("docs/mcp.md: the example of Icons is in this file") {
    const std::string block = mcp_test::doc_block("## Icons");
    CHECK(block.starts_with("#include <agentry/agentry.hpp>"));
    CHECK(mcp_test::in_test_file(block, "icons.cpp"));
}
