// SPDX-License-Identifier: BSL-1.0
// Tools a server adds and removes while it runs (server::add_tools, remove_tool): listed after
// the registry's, called with the same checks and policies, each change told to the sessions
// (notifications/tools/list_changed), and each refusal with its message.
#include <agentry/json/writer.hpp>
#include <agentry/mcp/server.hpp>

#include "tools.hpp"

#include <doctest/doctest.h>

#include <atomic>
#include <string>
#include <string_view>
#include <vector>

namespace {

namespace mcp = agentry::mcp;

const agentry::registry small{agentry::with_policy<agentry::tool_policy{.level = agentry::permission::read_only}>(
    agentry::tool<"add", "Add two integers", "a", "b">(+[](int a, int b) { return a + b; }))};

std::string initialize(std::string_view version) {
    return R"({"jsonrpc":"2.0","id":0,"method":"initialize","params":{"protocolVersion":")" + std::string(version) +
           R"(","capabilities":{},"clientInfo":{"name":"t","version":"1"}}})";
}

std::string call(std::string_view id, std::string_view name, std::string_view arguments) {
    return R"({"jsonrpc":"2.0","id":)" + std::string(id) + R"(,"method":"tools/call","params":{"name":")" +
           std::string(name) + R"(","arguments":)" + std::string(arguments) + "}}";
}

std::string result(std::string_view id, std::string_view body) {
    return R"({"jsonrpc":"2.0","id":)" + std::string(id) + R"(,"result":)" + std::string(body) + "}";
}

// A source of one tool, "shout", in the MCP dialect; `calls` counts its runs.
agentry::dynamic_tool_source shout_source(std::atomic<int>& calls, std::optional<agentry::tool_policy> policy = {}) {
    return [&calls, policy](const agentry::dynamic_tools_target& target) -> agentry::outcome<std::vector<agentry::dynamic_tool>> {
        CHECK(target.kind == agentry::dialect_kind::mcp);
        agentry::dynamic_tool t;
        t.name = "shout";
        t.definition = R"({"name":"shout","description":"Upper-cases a text","inputSchema":{"type":"object",)"
                       R"("properties":{"text":{"type":"string","maxLength":10}},"required":["text"]}})";
        t.call = [&calls](std::string_view arguments, const agentry::call_scope&) {
            ++calls;
            agentry::tool_result r;
            r.status = agentry::tool_status::ok;
            r.content = "SHOUTED " + std::string(arguments);
            return r;
        };
        t.policy = policy;
        return std::vector<agentry::dynamic_tool>{std::move(t)};
    };
}

} // namespace

TEST_CASE("run-time tools: listed after the registry's, called, removed, each change told to the sessions") {
    mcp::server server{small, {.name = "grows", .version = "1", .tool_list_changes = true}};
    mcp::session s;
    CHECK(server.handle(s, initialize("2025-11-25")) ==
          result("0", R"({"protocolVersion":"2025-11-25","capabilities":{"tools":{"listChanged":true},"logging":{}},)"
                      R"("serverInfo":{"name":"grows","version":"1"}})"));
    std::vector<std::string> heard;
    s.listen([&](std::string_view m) { heard.emplace_back(m); }, {});
    std::atomic<int> calls{0};
    REQUIRE(server.add_tools(shout_source(calls, agentry::tool_policy{.level = agentry::permission::read_only})));
    CHECK(heard == std::vector<std::string>{R"({"jsonrpc":"2.0","method":"notifications/tools/list_changed"})"});
    const std::string shout_listed =
        R"({"name":"shout","description":"Upper-cases a text","inputSchema":{"type":"object","properties":{"text":)"
        R"({"type":"string","maxLength":10}},"required":["text"]},"annotations":{"readOnlyHint":true}})";
    const std::string listed = server.tools_list("2025-11-25");
    CHECK(listed.ends_with("," + shout_listed + "]}"));
    CHECK(listed.starts_with(R"({"tools":[{"name":"add",)"));
    // 2024-11-05 has no annotations.
    CHECK(server.tools_list("2024-11-05").ends_with(
        R"(,{"name":"shout","description":"Upper-cases a text","inputSchema":{"type":"object","properties":{"text":)"
        R"({"type":"string","maxLength":10}},"required":["text"]}}]})"));
    CHECK(server.handle(s, R"({"jsonrpc":"2.0","id":1,"method":"tools/list"})") == result("1", listed));

    CHECK(server.handle(s, call("2", "shout", R"({"text":"hi"})")) ==
          result("2", R"({"content":[{"type":"text","text":"SHOUTED {\"text\":\"hi\"}"}],"isError":false})"));
    CHECK(server.handle(s, call("3", "add", R"({"a":2,"b":3})")) ==
          result("3", R"({"content":[{"type":"text","text":"5"}],"isError":false})"));
    // Checked as a registry tool's arguments are: the schema, the reader's rules.
    CHECK(server.handle(s, call("4", "shout", R"({"text":"far too long a text"})")) ==
          result("4", R"({"content":[{"type":"text","text":"shout: invalid arguments: /text: must be at most 10 )"
                      R"(characters long. Fix the arguments and call shout again."}],"isError":true})"));
    CHECK(server.handle(s, call("5", "shout", R"({"text":"a","text":"b"})")) ==
          R"({"jsonrpc":"2.0","id":5,"error":{"code":-32600,"message":"Invalid Request: /params/arguments/text: )"
          R"(duplicate property"}})");
    CHECK(calls == 1);

    CHECK(server.remove_tool("shout"));
    CHECK_FALSE(server.remove_tool("shout"));
    CHECK(heard.size() == 2);
    CHECK(server.tools_list() == std::string(server.tools_list("2025-11-25")));
    CHECK_FALSE(server.tools_list().find("shout") != std::string::npos);
    CHECK(server.handle(s, call("6", "shout", "{}")).starts_with(R"({"jsonrpc":"2.0","id":6,"error":{"code":-32602,)"));
    CHECK(calls == 1);
}

TEST_CASE("run-time tools: the policy's rate limit and approval apply, as for registry tools") {
    mcp::server server{small, {.name = "grows", .version = "1", .tool_list_changes = true}};
    std::atomic<int> calls{0};
    REQUIRE(server.add_tools(shout_source(
        calls, agentry::tool_policy{.level = agentry::permission::read_only, .rate = {.calls = 1, .per_ms = 60'000}})));
    mcp::session s;
    REQUIRE(server.handle(s, initialize("2025-11-25")).find("\"result\"") != std::string::npos);
    CHECK(server.handle(s, call("1", "shout", R"({"text":"a"})")).find(R"("isError":false)") != std::string::npos);
    const std::string refused = server.handle(s, call("2", "shout", R"({"text":"a"})"));
    CHECK(refused.find("rate_limited: shout may be called at most 1 time") != std::string::npos);
    CHECK(refused.find(R"("isError":true)") != std::string::npos);
    CHECK(calls == 1);

    mcp::server asking{small, {.name = "asks", .version = "1", .tool_list_changes = true}};
    REQUIRE(asking.add_tools(shout_source(
        calls, agentry::tool_policy{.level = agentry::permission::write, .needs_approval = true})));
    mcp::session old;
    REQUIRE(asking.handle(old, initialize("2025-03-26")).find("\"result\"") != std::string::npos);
    const std::string unasked = asking.handle(old, call("1", "shout", R"({"text":"a"})"));
    CHECK(unasked.find("agentry: the approval of shout: ") != std::string::npos);
    CHECK(unasked.find("the call was not run.") != std::string::npos);
    CHECK(unasked.find(R"("isError":true)") != std::string::npos);
    CHECK(calls == 1);
}

TEST_CASE("run-time tools: each refusal names the tool and the fix, and adds nothing") {
    std::atomic<int> calls{0};
    mcp::server fixed{small, {.name = "fixed", .version = "1"}};
    CHECK(fixed.add_tools(shout_source(calls)).error().message ==
          "agentry: mcp::server::add_tools: the server was built without server_info::tool_list_changes, so its "
          "clients were told its tools never change; set it");

    mcp::server server{small, {.name = "grows", .version = "1", .tool_list_changes = true},
                       mcp::ceiling<agentry::permission::write>};
    // No policy: destructive, above the ceiling.
    CHECK(server.add_tools(shout_source(calls)).error().message ==
          "agentry: mcp::server::add_tools: tool \"shout\": its permission level, destructive (it has no policy), is "
          "above the server's mcp::ceiling, write, and it needs no approval; give it a policy with needs_approval = "
          "true or a lower level; nothing was added");
    const auto with = [](std::string name, std::string definition) -> agentry::dynamic_tool_source {
        return [=](const agentry::dynamic_tools_target&) -> agentry::outcome<std::vector<agentry::dynamic_tool>> {
            agentry::dynamic_tool t;
            t.name = name;
            t.definition = definition;
            t.call = [](std::string_view, const agentry::call_scope&) { return agentry::tool_result{}; };
            t.policy = agentry::tool_policy{.level = agentry::permission::read_only};
            return std::vector<agentry::dynamic_tool>{std::move(t)};
        };
    };
    CHECK(server.add_tools(with("add", R"({"name":"add"})")).error().message ==
          "agentry: mcp::server::add_tools: tool \"add\": the server already has a tool of this name; give the "
          "source a prefix for its names; nothing was added");
    CHECK(server.add_tools(with("x", R"({"name":"y"})")).error().message ==
          "agentry: mcp::server::add_tools: tool \"x\": its definition's name is not \"x\"; nothing was added");
    CHECK(server.add_tools(with("x", "[1]")).error().message ==
          "agentry: mcp::server::add_tools: tool \"x\": its definition is not a JSON object (an MCP tools/list entry: "
          "name, description, inputSchema); nothing was added");
    CHECK(server.add_tools(with("x", R"({"name":"x","inputSchema":{"type":"object","properties":{"a":)"
                                     R"({"type":"string","pattern":"(unclosed"}}}})"))
              .error()
              .message.starts_with("agentry: mcp::server::add_tools: tool \"x\": its inputSchema's pattern \"(unclosed\" "
                                   "is not a valid ECMA-262 regular expression ("));
    CHECK(server.add_tools(with("", "{}")).error().message ==
          "agentry: mcp::server::add_tools: a tool has an empty name; name it; nothing was added");
    CHECK(server.add_tools(nullptr).error().message == "agentry: mcp::server::add_tools: the tool source is empty");
    CHECK(server.tools_list() == fixed.tools_list());
}

TEST_CASE("run-time tools: a result marked as MCP content is sent as its blocks, an unmarked one as a text block") {
    mcp::server server{small, {.name = "pictures", .version = "1", .tool_list_changes = true}};
    mcp::session s;
    REQUIRE(!server.handle(s, initialize("2025-11-25")).empty());
    const std::string blocks = R"([{"type":"text","text":"a dot"},{"type":"image","data":"iVBORw==","mimeType":"image/png"}])";
    REQUIRE(server.add_tools([&](const agentry::dynamic_tools_target&) -> agentry::outcome<std::vector<agentry::dynamic_tool>> {
        std::vector<agentry::dynamic_tool> tools;
        for (const bool marked : {true, false}) {
            agentry::dynamic_tool t;
            t.name = marked ? "picture" : "plain";
            t.definition = R"({"name":")" + t.name + R"(","inputSchema":{"type":"object"}})";
            t.call = [marked, blocks](std::string_view, const agentry::call_scope&) {
                agentry::tool_result r;
                r.content = blocks;
                r.content_blocks = marked;
                return r;
            };
            tools.push_back(std::move(t));
        }
        return tools;
    }));
    CHECK(server.handle(s, call("1", "picture", "{}")) == result("1", R"({"content":)" + blocks + R"(,"isError":false})"));
    std::string as_text;
    agentry::json::write(as_text, blocks);
    CHECK(server.handle(s, call("2", "plain", "{}")) ==
          result("2", R"({"content":[{"type":"text","text":)" + as_text + R"(}],"isError":false})"));
}
