// SPDX-License-Identifier: BSL-1.0
// subscriptions/listen (2026-07-28): the acknowledgement of what was agreed, the notifications
// a subscription hears (and those it does not), each tagged with its id, and the stream over
// the HTTP endpoint and over stdio.
#include <agentry/mcp/http.hpp>
#include <agentry/mcp/stdio.hpp>

#include <doctest/doctest.h>

#include <atomic>
#include <sstream>
#include <string>
#include <string_view>
#include <vector>

namespace {

namespace mcp = agentry::mcp;
namespace http = boost::beast::http;
using namespace std::string_literals;

const agentry::registry listened_tools{agentry::with_policy<agentry::tool_policy{.level = agentry::permission::read_only}>(
    agentry::tool<"echo", "Echoes", "text">(+[](std::string text) { return text; }))};

mcp::server<std::remove_const_t<decltype(listened_tools)>> listened{
    listened_tools, {.name = "listened", .version = "1", .tool_list_changes = true},
    mcp::resource<"docs://readme", "readme">(+[] { return "Read me"s; })};

constexpr std::string_view meta = R"("_meta":{"io.modelcontextprotocol/protocolVersion":"2026-07-28"})";

std::string listen(std::string_view id, std::string_view filter) {
    return R"({"jsonrpc":"2.0","id":)"s + std::string(id) + R"(,"method":"subscriptions/listen","params":{)" +
           std::string(meta) + R"(,"notifications":)" + std::string(filter) + "}}";
}

agentry::dynamic_tool_source one_tool(std::string name) {
    return [name](const agentry::dynamic_tools_target&) -> agentry::outcome<std::vector<agentry::dynamic_tool>> {
        agentry::dynamic_tool t;
        t.name = name;
        t.definition = R"({"name":")" + name + R"(","inputSchema":{"type":"object"}})";
        t.call = [](std::string_view, const agentry::call_scope&) { return agentry::tool_result{}; };
        t.policy = agentry::tool_policy{.level = agentry::permission::read_only};
        return std::vector<agentry::dynamic_tool>{std::move(t)};
    };
}

mcp::received read(std::string_view text) { return mcp::read_message(text); }

} // namespace

TEST_CASE("subscriptions/listen: the acknowledgement, and only the notifications asked for, tagged") {
    std::string first;
    std::string refusal;
    auto sub = listened.open_subscription(
        read(listen("7", R"({"toolsListChanged":true,"promptsListChanged":true,)"
                         R"("resourceSubscriptions":["docs://readme","docs://missing"]})")),
        first, refusal);
    REQUIRE(sub);
    CHECK(refusal.empty());
    // Prompt lists never change here, and docs://missing is no resource: both left out.
    CHECK(first == R"({"jsonrpc":"2.0","method":"notifications/subscriptions/acknowledged","params":{"notifications":)"
                   R"({"toolsListChanged":true,"resourceSubscriptions":["docs://readme"]},)"
                   R"("_meta":{"io.modelcontextprotocol/subscriptionId":7}}})");
    std::vector<std::string> heard;
    sub->listen([&](std::string_view m) { heard.emplace_back(m); }, {});
    auto quiet = listened.open_subscription(read(listen(R"("q")", "{}")), first, refusal);
    REQUIRE(quiet);
    CHECK(first == R"({"jsonrpc":"2.0","method":"notifications/subscriptions/acknowledged","params":{"notifications":)"
                   R"({},"_meta":{"io.modelcontextprotocol/subscriptionId":"q"}}})");
    std::vector<std::string> unheard;
    quiet->listen([&](std::string_view m) { unheard.emplace_back(m); }, {});

    REQUIRE(listened.add_tools(one_tool("late")));
    CHECK(listened.notify_resource_updated("docs://readme") == 1);
    CHECK(heard == std::vector<std::string>{
                       R"({"jsonrpc":"2.0","method":"notifications/tools/list_changed","params":{"_meta":)"
                       R"({"io.modelcontextprotocol/subscriptionId":7}}})",
                       R"({"jsonrpc":"2.0","method":"notifications/resources/updated","params":{"_meta":)"
                       R"({"io.modelcontextprotocol/subscriptionId":7},"uri":"docs://readme"}})"});
    CHECK(unheard.empty());
    CHECK(listened.remove_tool("late"));
    CHECK(heard.size() == 3);
    // A subscription that ends hears nothing more.
    sub.reset();
    CHECK(listened.notify_resource_updated("docs://readme") == 0);
}

TEST_CASE("subscriptions/listen: refused outside 2026-07-28, with invalid params, and without a transport") {
    std::string first;
    std::string refusal;
    CHECK_FALSE(listened.open_subscription(
        read(R"({"jsonrpc":"2.0","id":1,"method":"subscriptions/listen","params":{"notifications":{}}})"), first,
        refusal));
    CHECK(refusal == R"({"jsonrpc":"2.0","id":1,"error":{"code":-32601,"message":"Method not found: )"
                     R"(subscriptions/listen is a request of the stateless revision 2026-07-28; name it in the )"
                     R"(request's _meta"}})");
    CHECK_FALSE(listened.open_subscription(read(listen("2", R"({"toolsListChanged":"yes"})")), first, refusal));
    CHECK(refusal.starts_with(R"({"jsonrpc":"2.0","id":2,"error":{"code":-32602,"message":"Invalid params: )"
                              R"(/notifications/toolsListChanged: )"));
    mcp::session s;
    CHECK(listened.handle(s, listen("3", "{}")) ==
          R"({"jsonrpc":"2.0","id":3,"error":{"code":-32601,"message":"Method not found: subscriptions/listen )"
          R"x(needs a transport that keeps its stream open (serve_stdio, http_server)"}})x");
    // In a session (2025-11-25), the method does not exist.
    mcp::session old;
    REQUIRE(listened.handle(old, R"({"jsonrpc":"2.0","id":0,"method":"initialize","params":{"protocolVersion":)"
                                 R"("2025-11-25"}})")
                .find("\"result\"") != std::string::npos);
    CHECK(listened.handle(old, R"({"jsonrpc":"2.0","id":4,"method":"subscriptions/listen","params":{}})") ==
          R"({"jsonrpc":"2.0","id":4,"error":{"code":-32601,"message":"Method not found: \"subscriptions/listen\""}})");
}

namespace {

http::request<http::string_body> stateless_post(std::string body, std::string_view accept) {
    http::request<http::string_body> r{http::verb::post, "/mcp", 11};
    r.set(http::field::host, "127.0.0.1");
    r.set(http::field::content_type, "application/json");
    r.set(http::field::accept, accept);
    r.set("MCP-Protocol-Version", "2026-07-28");
    r.set("Mcp-Method", "subscriptions/listen");
    r.body() = std::move(body);
    r.prepare_payload();
    return r;
}

} // namespace

TEST_CASE("subscriptions/listen over the HTTP endpoint: an event stream that starts with the acknowledgement") {
    const mcp::http_options options;
    mcp::detail::http_endpoint<std::remove_const_t<decltype(listened_tools)>> endpoint(listened, options, true);
    auto reply = endpoint.handle(stateless_post(listen("1", R"({"toolsListChanged":true})"),
                                                "application/json, text/event-stream"));
    REQUIRE(reply.listen);
    CHECK(reply.response.result() == http::status::ok);
    CHECK(reply.first_event ==
          R"({"jsonrpc":"2.0","method":"notifications/subscriptions/acknowledged","params":{"notifications":)"
          R"({"toolsListChanged":true},"_meta":{"io.modelcontextprotocol/subscriptionId":1}}})");
    std::vector<std::string> heard;
    reply.listen->listen([&](std::string_view m) { heard.emplace_back(m); }, {});
    REQUIRE(listened.add_tools(one_tool("later")));
    CHECK(heard.size() == 1);
    CHECK(listened.remove_tool("later"));
    // Without text/event-stream there is no stream to answer on.
    const auto refused = endpoint.handle(stateless_post(listen("2", "{}"), "application/json"));
    CHECK(refused.response.result() == http::status::not_acceptable);
    CHECK(refused.response.body() ==
          R"({"jsonrpc":"2.0","id":2,"error":{"code":-32600,"message":"Not Acceptable: subscriptions/listen answers )"
          R"(with an event stream over HTTP/1.1; accept text/event-stream"}})");
}

TEST_CASE("subscriptions/listen over stdio: the acknowledgement is a line, then the subscription's notifications") {
    std::istringstream in(listen("1", R"({"resourceSubscriptions":["docs://readme"]})") + "\n" +
                          R"({"jsonrpc":"2.0","id":2,"method":"tools/call","params":{)" + std::string(meta) +
                          R"(,"name":"echo","arguments":{"text":"hi"}}})" + "\n");
    std::ostringstream out;
    CHECK(mcp::serve(listened, in, out, {.log = nullptr}) == 0);
    std::vector<std::string> lines;
    std::istringstream written(out.str());
    for (std::string line; std::getline(written, line);) lines.push_back(line);
    REQUIRE(lines.size() == 2);
    CHECK(lines[0] == R"({"jsonrpc":"2.0","method":"notifications/subscriptions/acknowledged","params":{"notifications":)"
                      R"({"resourceSubscriptions":["docs://readme"]},"_meta":{"io.modelcontextprotocol/subscriptionId":1}}})");
    CHECK(lines[1].starts_with(R"({"jsonrpc":"2.0","id":2,"result":{"content":[{"type":"text","text":"hi"}])"));
    // The subscriptions ended with the input.
    CHECK(listened.notify_resource_updated("docs://readme") == 0);
}
