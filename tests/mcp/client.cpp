// SPDX-License-Identifier: BSL-1.0
// mcp::client and mcp::toolset: against the fake servers of client_fake.hpp (this program run
// with --fake <mode>), against examples/mcp_server over stdio and Streamable HTTP, against a
// scripted SSE endpoint, and in an agent. With --emit it prints every message the client sends
// in a session of each protocol version, for client_schema.mjs; with --everything it runs the
// conformance scenario against @modelcontextprotocol/server-everything.
#define DOCTEST_CONFIG_IMPLEMENT
#include "doc_block.hpp"

#include <doctest/doctest.h>

#include "client_fake.hpp"

#include <agentry/agent.hpp>
#include <agentry/json/schema_check.hpp>
#include <agentry/json/value.hpp>
#include <agentry/mcp/client.hpp>
#include <agentry/mcp/server.hpp>
#include <agentry/mcp/toolset.hpp>
#include <agentry/provider/anthropic.hpp>
#include <agentry/provider/gemini.hpp>
#include <agentry/provider/openai.hpp>
#include <agentry/registry.hpp>

#include <arpa/inet.h>
#include <atomic>
#include <csignal>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <functional>
#include <mutex>
#include <netinet/in.h>
#include <optional>
#include <sstream>
#include <spawn.h>
#include <stdexcept>
#include <string>
#include <string_view>
#include <sys/socket.h>
#include <sys/wait.h>
#include <thread>
#include <unistd.h>
#include <vector>

namespace {

namespace mcp = agentry::mcp;
namespace d = agentry::mcp::detail;

std::string self;  // this program

mcp::stdio_command fake(std::string mode, std::vector<std::string> env = {}) {
    return {{self, "--fake", std::move(mode)}, std::move(env)};
}

std::shared_ptr<mcp::client> connect_fake(std::string mode, mcp::client_options options = {}) {
    auto c = mcp::client::connect(fake(std::move(mode)), std::move(options));
    REQUIRE_MESSAGE(c.has_value(), (c ? std::string() : c.error().message));
    return *c;
}

bool contains(std::string_view text, std::string_view part) { return text.find(part) != std::string_view::npos; }

} // namespace

TEST_CASE("stdio: initialize, tools over two pages, calls, ping, resources, prompts") {
    std::vector<std::string> sent;
    std::mutex m;
    mcp::client_options options;
    options.on_send = [&](std::string_view s) {
        std::lock_guard lock(m);
        sent.emplace_back(s);
    };
    auto c = connect_fake("good", options);
    CHECK(c->protocol_version() == "2025-11-25");
    CHECK(c->server_name() == "fake");
    CHECK(c->label() == "fake");
    CHECK(c->has_capability("tools"));
    CHECK_FALSE(c->has_capability("logging"));

    auto tools = c->list_tools();
    REQUIRE(tools.has_value());
    REQUIRE(tools->size() == 8);
    CHECK((*tools)[0].name == "echo");
    CHECK((*tools)[1].title == "Add");
    CHECK(contains((*tools)[1].input_schema, R"("required":["a","b"])"));
    CHECK((*tools)[7].name == "anything");

    auto sum = c->call_tool("add", R"({"a":2,"b":3})");
    REQUIRE(sum.has_value());
    CHECK_FALSE(sum->is_error);
    CHECK(sum->text == "5");
    CHECK(sum->content == R"([{"type":"text","text":"5"}])");

    auto broken = c->call_tool("fail");
    REQUIRE(broken.has_value());
    CHECK(broken->is_error);
    CHECK(broken->text == "it broke");

    auto unknown = c->call_tool("nope");
    REQUIRE_FALSE(unknown.has_value());
    CHECK(unknown.error().message ==
          "agentry: mcp::client: fake: tools/call nope: the server answered with error -32602: unknown tool");

    auto bad = c->call_tool("add", "[1]");
    REQUIRE_FALSE(bad.has_value());
    CHECK(bad.error().message == "agentry: mcp::client: the arguments of add must be a JSON object");

    CHECK(c->ping().has_value());
    auto resources = c->list_resources();
    REQUIRE(resources.has_value());
    REQUIRE(resources->size() == 1);
    CHECK((*resources)[0].uri == "test://a");
    CHECK((*resources)[0].mime_type == "text/plain");
    auto prompts = c->list_prompts();
    REQUIRE(prompts.has_value());
    REQUIRE(prompts->size() == 1);
    CHECK((*prompts)[0].name == "greet");
    CHECK(contains((*prompts)[0].arguments, "\"who\""));
    c->close();
    auto after = c->ping();
    REQUIRE_FALSE(after.has_value());
    CHECK(contains(after.error().message, "the connection is closed"));

    std::lock_guard lock(m);
    REQUIRE(sent.size() >= 4);
    CHECK(contains(sent[0], R"("method":"initialize","params":{"protocolVersion":"2025-11-25")"));
    CHECK(sent[1] == R"({"jsonrpc":"2.0","method":"notifications/initialized"})");
    CHECK(sent[2] == R"({"jsonrpc":"2.0","id":2,"method":"tools/list"})");
    CHECK(sent[3] == R"({"jsonrpc":"2.0","id":3,"method":"tools/list","params":{"cursor":"p2"}})");
}

TEST_CASE("stdio: every served version is accepted, another is refused") {
    for (std::string v : {"2024-11-05", "2025-03-26", "2025-06-18", "2025-11-25"}) {
        auto c = mcp::client::connect(fake("good", {"FAKE_VERSION=" + v}));
        REQUIRE(c.has_value());
        CHECK((*c)->protocol_version() == v);
    }
    auto c = mcp::client::connect(fake("version"));
    REQUIRE_FALSE(c.has_value());
    CHECK(c.error().message ==
          "agentry: mcp::client: fake: initialize: the server answered with protocol version \"1999-01-01\", which this "
          "client does not speak (it speaks 2024-11-05, 2025-03-26, 2025-06-18, 2025-11-25); the connection was closed");
}

TEST_CASE("stdio: progress notifications reach the callback") {
    auto c = connect_fake("good");
    std::vector<mcp::progress> seen;
    mcp::request_options options;
    options.on_progress = [&](const mcp::progress& p) { seen.push_back(p); };
    auto r = c->call_tool("slow", "{}", options);
    REQUIRE(r.has_value());
    CHECK(r->text == "done");
    REQUIRE(seen.size() == 3);
    CHECK(seen[0].progress == 1);
    CHECK(seen[2].progress == 3);
    CHECK(seen[2].total == 3);
    CHECK(seen[1].message == "step 2");
    auto quiet = c->call_tool("slow");  // no token: no progress
    REQUIRE(quiet.has_value());
    CHECK(quiet->text == "done");
}

TEST_CASE("stdio: a timeout and a cancellation send notifications/cancelled") {
    auto c = connect_fake("good");
    mcp::request_options options;
    options.timeout = std::chrono::milliseconds(200);
    auto r = c->call_tool("never", "{}", options);
    REQUIRE_FALSE(r.has_value());
    CHECK(r.error().kind == agentry::failure_kind::transient);
    CHECK(r.error().message ==
          "agentry: mcp::client: fake: tools/call never: no answer within 200 ms; the request was cancelled");
    auto last = c->call_tool("last_cancelled");
    REQUIRE(last.has_value());
    CHECK(last->text == "2");  // the id of the call above

    std::atomic<bool> cancel{true};
    mcp::request_options cancelled;
    cancelled.cancel = &cancel;
    auto x = c->call_tool("never", "{}", cancelled);
    REQUIRE_FALSE(x.has_value());
    CHECK(x.error().message == "agentry: mcp::client: fake: tools/call never: cancelled");
    last = c->call_tool("last_cancelled");
    REQUIRE(last.has_value());
    CHECK(last->text == "4");
}

TEST_CASE("hostile: garbage on standard output breaks the connection with a clear error") {
    auto c = connect_fake("garbage");
    auto r = c->list_tools();
    REQUIRE_FALSE(r.has_value());
    CHECK(r.error().message ==
          "agentry: mcp::client: fake: tools/list: the server wrote something that is not a JSON-RPC message on its "
          "standard output (invalid JSON at byte 0: unexpected character): \"hello from a print statement\"");
    auto again = c->ping();
    REQUIRE_FALSE(again.has_value());
    CHECK(contains(again.error().message, "not a JSON-RPC message"));
}

TEST_CASE("hostile: a message over the size limit") {
    mcp::client_options options;
    options.max_message_size = 1 << 20;
    auto c = connect_fake("oversize", options);
    auto r = c->list_tools();
    REQUIRE_FALSE(r.has_value());
    CHECK(r.error().message == "agentry: mcp::client: fake: tools/list: the server sent a message longer than the limit "
                               "of 1048576 bytes (client_options::max_message_size)");
}

TEST_CASE("hostile: a server that never answers times out") {
    auto c = connect_fake("silent");
    mcp::request_options options;
    options.timeout = std::chrono::milliseconds(200);
    auto r = c->list_tools(options);
    REQUIRE_FALSE(r.has_value());
    CHECK(r.error().message == "agentry: mcp::client: fake: tools/list: no answer within 200 ms; the request was cancelled");
}

TEST_CASE("hostile: a server that ignores the end of its input is stopped") {
    mcp::client_options options;
    options.grace = std::chrono::milliseconds(50);
    auto c = connect_fake("stubborn", options);
    c->close();  // returns: SIGTERM after the grace period
    CHECK_FALSE(c->ping().has_value());
}

TEST_CASE("hostile: a server that dies mid-call") {
    auto c = connect_fake("die");
    auto r = c->call_tool("echo", R"({"text":"x"})");
    REQUIRE_FALSE(r.has_value());
    CHECK(r.error().message == "agentry: mcp::client: fake: tools/call echo: the server exited with status 3");
}

TEST_CASE("hostile: notifications and requests before the response") {
    std::vector<std::string> notes;
    std::mutex m;
    mcp::client_options options;
    options.on_notification = [&](std::string_view method, std::string_view params) {
        std::lock_guard lock(m);
        notes.push_back(std::string(method) + " " + std::string(params));
    };
    std::vector<std::string> sent;
    options.on_send = [&](std::string_view s) {
        std::lock_guard lock(m);
        sent.emplace_back(s);
    };
    auto c = connect_fake("notify_first", options);
    auto r = c->call_tool("add", R"({"a":1,"b":1})");
    REQUIRE(r.has_value());
    CHECK(r->text == "2");
    std::lock_guard lock(m);
    REQUIRE_FALSE(notes.empty());
    CHECK(notes[0] == R"(notifications/message {"level":"info","data":"working"})");
    bool pong = false;
    for (const std::string& s : sent) pong = pong || s == R"({"jsonrpc":"2.0","id":"s1","result":{}})";
    CHECK(pong);
}

TEST_CASE("stdio: the server's requests answered by on_elicit, on_sample, ping, and -32601") {
    mcp::client_options options;
    std::string asked;
    options.on_elicit = [&](std::string_view message, std::string_view schema) {
        asked = std::string(message) + " " + std::string(schema);
        return mcp::elicitation_reply::accept(R"({"name":"Ada"})");
    };
    std::string sampled;
    options.on_sample = [&](std::string_view params) {
        sampled = std::string(params);
        return mcp::sampling_reply{"Hello", "m1"};
    };
    auto c = connect_fake("asks", options);
    CHECK(c->instructions() == R"({"elicitation":{},"sampling":{}})");
    auto r = c->call_tool("ask");
    REQUIRE_MESSAGE(r.has_value(), (r ? std::string() : r.error().message));
    CHECK(r->text ==
          R"({"jsonrpc":"2.0","id":"e1","result":{"action":"accept","content":{"name":"Ada"}}})"
          "\n"
          R"({"jsonrpc":"2.0","id":"s1","result":{"role":"assistant","content":{"type":"text","text":"Hello"},"model":"m1","stopReason":"endTurn"}})"
          "\n"
          R"({"jsonrpc":"2.0","id":"p1","result":{}})"
          "\n"
          R"({"jsonrpc":"2.0","id":"r1","error":{"code":-32601,"message":"agentry: mcp::client: this client does not offer \"roots/list\""}})");
    CHECK(asked == R"(Your name? {"type":"object","properties":{"name":{"type":"string"}}})");
    CHECK(sampled == R"({"messages":[{"role":"user","content":{"type":"text","text":"Hi"}}],"maxTokens":5})");
}

TEST_CASE("stdio: without hooks no capability is declared and both requests are answered -32601") {
    auto c = connect_fake("asks");
    CHECK(c->instructions() == "{}");
    auto r = c->call_tool("ask");
    REQUIRE(r.has_value());
    CHECK(r->text ==
          R"({"jsonrpc":"2.0","id":"e1","error":{"code":-32601,"message":"agentry: mcp::client: this client does not offer \"elicitation/create\"; set client_options::on_elicit to answer it"}})"
          "\n"
          R"({"jsonrpc":"2.0","id":"s1","error":{"code":-32601,"message":"agentry: mcp::client: this client does not offer \"sampling/createMessage\"; set client_options::on_sample to answer it"}})"
          "\n"
          R"({"jsonrpc":"2.0","id":"p1","result":{}})"
          "\n"
          R"({"jsonrpc":"2.0","id":"r1","error":{"code":-32601,"message":"agentry: mcp::client: this client does not offer \"roots/list\""}})");
}

TEST_CASE("stdio: a hook that throws, decline, and content that is not an object become answers") {
    mcp::client_options options;
    options.on_elicit = [](std::string_view, std::string_view) { return mcp::elicitation_reply::accept("[1]"); };
    options.on_sample = [](std::string_view) -> mcp::sampling_reply { throw std::runtime_error("no model"); };
    auto c = connect_fake("asks", options);
    auto r = c->call_tool("ask");
    REQUIRE(r.has_value());
    CHECK(r->text.substr(0, r->text.find("\n{\"jsonrpc\":\"2.0\",\"id\":\"p1\"")) ==
          R"({"jsonrpc":"2.0","id":"e1","error":{"code":-32603,"message":"agentry: mcp::client: the elicitation hook accepted with content that is not a JSON object; return elicitation_reply::accept with the text of a JSON object"}})"
          "\n"
          R"({"jsonrpc":"2.0","id":"s1","error":{"code":-32603,"message":"agentry: mcp::client: the sampling hook failed: no model"}})");
    mcp::client_options declining;
    declining.on_elicit = [](std::string_view, std::string_view) { return mcp::elicitation_reply::decline(); };
    declining.on_sample = [](std::string_view) {
        return mcp::sampling_reply{{}, "m2", "", R"([{"type":"text","text":"a"}])"};
    };
    auto d = connect_fake("asks", declining);
    r = d->call_tool("ask");
    REQUIRE(r.has_value());
    CHECK(r->text.substr(0, r->text.find("\n{\"jsonrpc\":\"2.0\",\"id\":\"p1\"")) ==
          R"({"jsonrpc":"2.0","id":"e1","result":{"action":"decline"}})"
          "\n"
          R"({"jsonrpc":"2.0","id":"s1","result":{"role":"assistant","content":[{"type":"text","text":"a"}],"model":"m2"}})");
}

namespace {

// The example of docs/mcp.md (answering the server's requests), byte for byte.
std::shared_ptr<agentry::mcp::client> connect_answering(const agentry::mcp::stdio_command& server) {
    agentry::mcp::client_options options;
    // elicitation/create: the form's message and requestedSchema (JSON text); the user's answer.
    options.on_elicit = [](std::string_view message, std::string_view requested_schema) {
        if (message.empty() || requested_schema.find("password") != std::string_view::npos)
            return agentry::mcp::elicitation_reply::decline();
        return agentry::mcp::elicitation_reply::accept(R"({"name":"Ada"})");
    };
    // sampling/createMessage: the request's params (JSON text); the assistant's message.
    options.on_sample = [](std::string_view) {
        return agentry::mcp::sampling_reply{.text = "Hello", .model = "local-model"};
    };
    auto c = agentry::mcp::client::connect(server, options);
    return c ? *c : nullptr;
}

} // namespace

TEST_CASE("docs/mcp.md: the example of answering the server's requests is in this file, and answers") {
    const std::string block = mcp_test::doc_block("**Requests of the server.**");
    CHECK(block.starts_with("std::shared_ptr<agentry::mcp::client> connect_answering("));
    CHECK(mcp_test::in_test_file(block, "client.cpp"));
    auto c = connect_answering(fake("asks"));
    REQUIRE(c != nullptr);
    auto r = c->call_tool("ask");
    REQUIRE(r.has_value());
    CHECK(r->text.substr(0, r->text.find("\n{\"jsonrpc\":\"2.0\",\"id\":\"p1\"")) ==
          R"({"jsonrpc":"2.0","id":"e1","result":{"action":"accept","content":{"name":"Ada"}}})"
          "\n"
          R"({"jsonrpc":"2.0","id":"s1","result":{"role":"assistant","content":{"type":"text","text":"Hello"},"model":"local-model","stopReason":"endTurn"}})");
}

TEST_CASE("stdio: a program that cannot be started") {
    auto c = mcp::client::connect(mcp::stdio_command{{"/nonexistent/agentry-mcp-server"}});
    REQUIRE_FALSE(c.has_value());
    CHECK(c.error().message ==
          "agentry: mcp::client: could not start \"/nonexistent/agentry-mcp-server\": No such file or directory");
    auto empty = mcp::client::connect(mcp::stdio_command{});
    REQUIRE_FALSE(empty.has_value());
    CHECK(contains(empty.error().message, "argv is empty"));
}

namespace {

// What the env fake server sees of `name`.
std::string server_env(mcp::stdio_command command, std::string_view name) {
    auto c = mcp::client::connect(command);
    REQUIRE_MESSAGE(c.has_value(), (c ? std::string() : c.error().message));
    auto r = (*c)->call_tool("anything", R"({"name":")" + std::string(name) + "\"}");
    REQUIRE_MESSAGE(r.has_value(), (r ? std::string() : r.error().message));
    return r->text;
}

} // namespace

TEST_CASE("stdio: the server's environment: the allow-list, all, none, set and removed names") {
    ::setenv("AGENTRY_TEST_INHERITED", "parent", 1);
    ::setenv("HOME", "/parent-home", 1);
    mcp::stdio_command command = fake("env");
    CHECK(command.inherit == mcp::inherit_env::allowed);
    CHECK(command.allowed_env == mcp::default_allowed_env());
    CHECK(server_env(command, "AGENTRY_TEST_INHERITED") == "unset");
    CHECK(server_env(command, "HOME") == "set:/parent-home");
    command.allowed_env.push_back("AGENTRY_TEST_INHERITED");
    CHECK(server_env(command, "AGENTRY_TEST_INHERITED") == "set:parent");

    command = fake("env", {"HOME=/first", "HOME=/second", "EXTRA=1"});
    command.inherit = mcp::inherit_env::all;
    CHECK(server_env(command, "AGENTRY_TEST_INHERITED") == "set:parent");
    CHECK(server_env(command, "HOME") == "set:/second");
    command.env = {"AGENTRY_TEST_INHERITED"};  // a bare name removes the variable
    CHECK(server_env(command, "AGENTRY_TEST_INHERITED") == "unset");

    command = fake("env", {"ONLY=this"});
    command.inherit = mcp::inherit_env::none;
    CHECK(server_env(command, "ONLY") == "set:this");
    CHECK(server_env(command, "HOME") == "unset");
    CHECK(server_env(command, "PATH") == "unset");

    for (std::vector<std::string> bad : {std::vector<std::string>{"=value"}, {"OK=1", std::string("A\0B=1", 5)}}) {
        auto c = mcp::client::connect(fake("env", bad));
        REQUIRE_FALSE(c.has_value());
        CHECK(c.error().kind == agentry::failure_kind::invalid_input);
        CHECK(contains(c.error().message, "agentry: mcp::client: stdio_command::env["));
        CHECK_FALSE(contains(c.error().message, "=value"));
        CHECK_FALSE(contains(c.error().message, "B=1"));
    }
    ::unsetenv("AGENTRY_TEST_INHERITED");
}

TEST_CASE("stdio: client_options::max_list_size bounds a listing over all its pages") {
    mcp::client_options options;
    options.max_list_size = 600;  // page one of the good server keeps less, page two more
    auto c = connect_fake("good", options);
    auto r = c->list_tools();
    REQUIRE_FALSE(r.has_value());
    CHECK(r.error().message ==
          "agentry: mcp::client: fake: tools/list: the pages listed so far hold more than 600 bytes "
          "(client_options::max_list_size), at page 2; the listing was stopped; raise the limit if the server "
          "legitimately lists more");
    options.max_list_size = 1 << 20;
    CHECK(connect_fake("good", options)->list_tools().has_value());
}

TEST_CASE("stdio: examples/mcp_server") {
    auto c = mcp::client::connect(mcp::stdio_command{{AGENTRY_TEST_MCP_SERVER}});
    REQUIRE(c.has_value());
    CHECK((*c)->server_name() == "weather");
    auto tools = (*c)->list_tools();
    REQUIRE(tools.has_value());
    REQUIRE(tools->size() == 2);
    CHECK((*tools)[0].name == "get_weather");
    auto r = (*c)->call_tool("add", R"({"a":2,"b":40})");
    REQUIRE(r.has_value());
    CHECK(r->text == "42");
    auto invalid = (*c)->call_tool("get_weather", R"({"city":"Paris","unit":"kelvin"})");
    REQUIRE(invalid.has_value());
    CHECK(invalid->is_error);
    CHECK(contains(invalid->text, "is not one of"));
}

namespace {

// The gateway of docs/mcp.md (Tools added at run time): the block as it is there, then the
// gateway's session calling examples/mcp_server's tools through it.
const agentry::registry gateway_tools{agentry::tool<"ping_gateway", "Answers pong">(+[] { return std::string("pong"); })};

void run_gateway(const agentry::outcome<std::shared_ptr<mcp::client>>& weather_client,
                 const std::function<void(agentry::mcp::server<std::remove_const_t<decltype(gateway_tools)>>&)>& use) {
    const auto& tools = gateway_tools;
    const auto fail = [](const std::string& message) { FAIL(message); };
    // The block, at the margin as in the docs.
agentry::mcp::server gateway{tools, {.name = "gateway", .version = "1", .tool_list_changes = true}};
agentry::mcp::toolset upstream;
upstream.add(*weather_client, {.prefix = "weather_", .prefixing = agentry::mcp::prefix_mode::always});
if (auto added = gateway.add_tools(upstream); !added) return fail(added.error().message);
    use(gateway);
}

} // namespace

TEST_CASE("gateway: a server serving its registry and another server's tools, added at run time") {
    CHECK(mcp_test::in_test_file(mcp_test::doc_block("## Tools added at run time"), "client.cpp"));
    auto weather = mcp::client::connect(mcp::stdio_command{{AGENTRY_TEST_MCP_SERVER}});
    REQUIRE(weather.has_value());
    run_gateway(weather, [](auto& gateway) {
        mcp::session s;
        REQUIRE(contains(gateway.handle(s, R"({"jsonrpc":"2.0","id":0,"method":"initialize","params":{)"
                                           R"("protocolVersion":"2025-11-25","capabilities":{},)"
                                           R"("clientInfo":{"name":"t","version":"1"}}})"),
                         R"("tools":{"listChanged":true})"));
        const std::string listed = gateway.tools_list();
        CHECK(contains(listed, R"({"name":"ping_gateway",)"));
        CHECK(contains(listed, R"({"name":"weather_add",)"));
        CHECK(contains(listed, R"({"name":"weather_get_weather",)"));
        CHECK(gateway.handle(s, R"({"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"weather_add",)"
                                R"("arguments":{"a":2,"b":40}}})") ==
              R"({"jsonrpc":"2.0","id":1,"result":{"content":[{"type":"text","text":"42"}],"isError":false}})");
        // The upstream's schema is checked at the gateway: the call never reaches it.
        CHECK(contains(gateway.handle(s, R"({"jsonrpc":"2.0","id":2,"method":"tools/call","params":{)"
                                         R"("name":"weather_get_weather","arguments":{"city":"Paris","unit":"kelvin"}}})"),
                       R"(weather_get_weather: invalid arguments: /unit: )"));
        CHECK(gateway.remove_tool("weather_add"));
        CHECK(!contains(gateway.tools_list(), "weather_add"));
    });
}

namespace {

// A free port on 127.0.0.1 (bound, then released).
unsigned short free_port() {
    const int fd = ::socket(AF_INET, SOCK_STREAM, 0);
    sockaddr_in a{};
    a.sin_family = AF_INET;
    a.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
    ::bind(fd, reinterpret_cast<sockaddr*>(&a), sizeof a);
    socklen_t len = sizeof a;
    ::getsockname(fd, reinterpret_cast<sockaddr*>(&a), &len);
    ::close(fd);
    return ntohs(a.sin_port);
}

// examples/mcp_server --http <port>, stopped with SIGTERM at the end of the scope.
struct http_example {
    pid_t pid = -1;
    std::string url;
    http_example() {
        const std::string port = std::to_string(free_port());
        std::vector<std::string> args{AGENTRY_TEST_MCP_SERVER, "--http", port};
        std::vector<char*> argv;
        for (std::string& s : args) argv.push_back(s.data());
        argv.push_back(nullptr);
        ::posix_spawn(&pid, argv[0], nullptr, nullptr, argv.data(), environ);
        url = "http://127.0.0.1:" + port + "/mcp";
    }
    ~http_example() {
        ::kill(pid, SIGTERM);
        ::waitpid(pid, nullptr, 0);
    }
};

// Connects, retrying while the server starts (at most 800 tries, 25 ms apart).
agentry::outcome<std::shared_ptr<mcp::client>> connect_http(const std::string& url, mcp::client_options options = {}) {
    for (int i = 0;; ++i) {
        auto c = mcp::client::connect(mcp::http_url{url}, options);
        if (c || i == 800 || !contains(c.error().message, "cannot connect")) return c;
        std::this_thread::sleep_for(std::chrono::milliseconds(25));
    }
}

} // namespace

TEST_CASE("http: examples/mcp_server over Streamable HTTP (JSON answers), DELETE on close") {
    http_example server;
    std::vector<std::string> sent;
    mcp::client_options options;
    options.on_send = [&](std::string_view s) { sent.emplace_back(s); };
    auto c = connect_http(server.url, options);
    REQUIRE_MESSAGE(c.has_value(), (c ? std::string() : c.error().message));
    CHECK((*c)->protocol_version() == "2025-11-25");
    CHECK((*c)->server_name() == "weather");
    auto tools = (*c)->list_tools();
    REQUIRE(tools.has_value());
    CHECK(tools->size() == 2);
    auto r = (*c)->call_tool("add", R"({"a":1,"b":2})");
    REQUIRE(r.has_value());
    CHECK(r->text == "3");
    auto w = (*c)->call_tool("get_weather", R"({"city":"Paris"})");
    REQUIRE(w.has_value());
    CHECK(contains(w->structured_content, R"("condition":"rain")"));
    CHECK((*c)->ping().has_value());
    auto unknown = (*c)->list_resources();
    REQUIRE_FALSE(unknown.has_value());
    CHECK(contains(unknown.error().message, "error -32601"));
    (*c)->close();
    auto after = (*c)->ping();
    REQUIRE_FALSE(after.has_value());
    CHECK(contains(after.error().message, "HTTP 400"));  // the session id is gone
}

TEST_CASE("http: URLs the client refuses, and a server that is not there") {
    auto tls = mcp::client::connect(mcp::http_url{"https://example.com/mcp"});
    REQUIRE_FALSE(tls.has_value());
    CHECK(contains(tls.error().message, "https:// needs TLS, which this build of the MCP client does not have; link "
                                        "the CMake target agentry::tls"));
    auto user = mcp::client::connect(mcp::http_url{"http://me:pw@127.0.0.1:1/mcp"});
    REQUIRE_FALSE(user.has_value());
    CHECK(contains(user.error().message, "user name or password"));
    auto nobody = mcp::client::connect(mcp::http_url{"http://127.0.0.1:" + std::to_string(free_port()) + "/mcp"});
    REQUIRE_FALSE(nobody.has_value());
    CHECK(contains(nobody.error().message, "initialize: cannot connect to 127.0.0.1:"));
    // A credential header for a host that is not loopback, refused before anything is sent.
    for (std::string_view name : {"Authorization", "x-api-key", "Cookie"}) {
        auto plain = mcp::client::connect(mcp::http_url{"http://mcp.example.com/mcp", {{std::string(name), "secret"}}});
        REQUIRE_FALSE(plain.has_value());
        CHECK(plain.error().kind == agentry::failure_kind::permission);
        CHECK(contains(plain.error().message, "refusing to send the credential header \"" + std::string(name) + "\""));
        CHECK_FALSE(contains(plain.error().message, "secret"));
    }
    // Allowed by name, it is sent (here to a port where nobody listens).
    auto allowed = mcp::client::connect(mcp::http_url{"http://localhost.:" + std::to_string(free_port()) + "/mcp",
                                                      {{"Authorization", "Bearer t"}},
                                                      true});
    REQUIRE_FALSE(allowed.has_value());
    CHECK(contains(allowed.error().message, "initialize: cannot"));
}

namespace {

// A scripted Streamable HTTP server on 127.0.0.1: answers `count` connections in turn with
// the given raw HTTP responses and keeps each request it read.
struct scripted_http {
    int fd = -1;
    unsigned short port = 0;
    std::vector<std::string> responses;
    std::vector<std::string> requests;
    std::thread thread;

    explicit scripted_http(std::vector<std::string> r) : responses(std::move(r)) {
        fd = ::socket(AF_INET, SOCK_STREAM, 0);
        sockaddr_in a{};
        a.sin_family = AF_INET;
        a.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
        ::bind(fd, reinterpret_cast<sockaddr*>(&a), sizeof a);
        ::listen(fd, 8);
        socklen_t len = sizeof a;
        ::getsockname(fd, reinterpret_cast<sockaddr*>(&a), &len);
        port = ntohs(a.sin_port);
        thread = std::thread([this] {
            for (const std::string& response : responses) {
                const int c = ::accept(fd, nullptr, nullptr);
                if (c < 0) return;
                std::string request;
                char buffer[4096];
                // The head, then Content-Length bytes of body.
                for (;;) {
                    const std::size_t head = request.find("\r\n\r\n");
                    if (head != std::string::npos) {
                        const std::size_t at = request.find("Content-Length: ");
                        const std::size_t length = at == std::string::npos ? 0 : std::stoul(request.substr(at + 16));
                        if (request.size() >= head + 4 + length) break;
                    }
                    const ssize_t n = ::recv(c, buffer, sizeof buffer, 0);
                    if (n <= 0) break;
                    request.append(buffer, std::size_t(n));
                }
                requests.push_back(request);
                ::send(c, response.data(), response.size(), MSG_NOSIGNAL);
                ::close(c);
            }
        });
    }
    ~scripted_http() {
        thread.join();
        ::close(fd);
    }
    std::string url() const { return "http://127.0.0.1:" + std::to_string(port) + "/mcp"; }
};

std::string json_response(std::string_view body, std::string_view extra = {}) {
    return "HTTP/1.1 200 OK\r\nContent-Type: application/json\r\n" + std::string(extra) +
           "Content-Length: " + std::to_string(body.size()) + "\r\n\r\n" + std::string(body);
}

std::string chunked(std::string_view body) {
    std::string out;
    // Three chunks, cutting the events anywhere.
    const std::size_t third = body.size() / 3;
    for (std::string_view part : {body.substr(0, third), body.substr(third, third), body.substr(2 * third)}) {
        char size[32];
        std::snprintf(size, sizeof size, "%zx\r\n", part.size());
        out += size;
        out += part;
        out += "\r\n";
    }
    return out + "0\r\n\r\n";
}

} // namespace

TEST_CASE("http: SSE answers with progress, session id, protocol version header, DELETE") {
    const std::string init =
        R"({"jsonrpc":"2.0","id":1,"result":{"protocolVersion":"2025-06-18","capabilities":{"tools":{}},"serverInfo":{"name":"sse","version":"1"}}})";
    const std::string events =
        ": a comment\r\n\r\n"
        "event: message\r\n"
        R"(data: {"jsonrpc":"2.0","method":"notifications/progress","params":{"progressToken":2,"progress":1,"total":2}})"
        "\r\n\r\n"
        R"(data: {"jsonrpc":"2.0","method":"notifications/message","params":{"level":"info","data":"half"}})"
        "\n\n"
        "data: {\"jsonrpc\":\"2.0\",\"id\":2,\n"
        R"(data: "result":{"content":[{"type":"text","text":"streamed"}],"isError":false}})"
        "\n\n";
    scripted_http server({
        json_response(init, "Mcp-Session-Id: abc123\r\n"),
        "HTTP/1.1 202 Accepted\r\nContent-Length: 0\r\n\r\n",
        "HTTP/1.1 200 OK\r\nContent-Type: text/event-stream\r\nTransfer-Encoding: chunked\r\n\r\n" + chunked(events),
        "HTTP/1.1 200 OK\r\nContent-Length: 0\r\n\r\n",
    });
    std::vector<std::string> notes;
    mcp::client_options options;
    options.on_notification = [&](std::string_view method, std::string_view) { notes.emplace_back(method); };
    auto c = mcp::client::connect(mcp::http_url{server.url(), {{"Authorization", "Bearer t"}}}, options);
    REQUIRE_MESSAGE(c.has_value(), (c ? std::string() : c.error().message));
    CHECK((*c)->protocol_version() == "2025-06-18");
    std::vector<double> progress;
    mcp::request_options ro;
    ro.on_progress = [&](const mcp::progress& p) { progress.push_back(p.progress); };
    auto r = (*c)->call_tool("long", "{}", ro);
    REQUIRE_MESSAGE(r.has_value(), (r ? std::string() : r.error().message));
    CHECK(r->text == "streamed");
    CHECK(progress == std::vector<double>{1});
    CHECK(notes == std::vector<std::string>{"notifications/message"});
    (*c)->close();
    server.thread.join();
    server.thread = std::thread([] {});
    REQUIRE(server.requests.size() == 4);
    CHECK(contains(server.requests[0], "Accept: application/json, text/event-stream\r\n"));
    CHECK(contains(server.requests[0], "Authorization: Bearer t\r\n"));
    CHECK_FALSE(contains(server.requests[0], "Mcp-Session-Id"));
    CHECK(contains(server.requests[1], "Mcp-Session-Id: abc123\r\nMCP-Protocol-Version: 2025-06-18\r\n"));
    CHECK(contains(server.requests[1], "notifications/initialized"));
    CHECK(contains(server.requests[2], R"("_meta":{"progressToken":2})"));
    CHECK(server.requests[3].rfind("DELETE /mcp HTTP/1.1\r\n", 0) == 0);
    CHECK(contains(server.requests[3], "Mcp-Session-Id: abc123\r\n"));
}

TEST_CASE("http: an SSE stream that ends without the response, and an error status") {
    const std::string init =
        R"({"jsonrpc":"2.0","id":1,"result":{"protocolVersion":"2025-11-25","capabilities":{},"serverInfo":{"name":"sse","version":"1"}}})";
    scripted_http server({
        json_response(init),
        "HTTP/1.1 202 Accepted\r\nContent-Length: 0\r\n\r\n",
        "HTTP/1.1 200 OK\r\nContent-Type: text/event-stream\r\n\r\ndata: {\"jsonrpc\":\"2.0\",\"method\":\"x\"}\n\n",
        "HTTP/1.1 500 Internal Server Error\r\nContent-Type: text/plain\r\nContent-Length: 4\r\n\r\noops",
        "HTTP/1.1 200 OK\r\nContent-Type: text/event-stream\r\n\r\ndata: not json\n\n",
    });
    auto c = mcp::client::connect(mcp::http_url{server.url()});
    REQUIRE(c.has_value());
    auto r = (*c)->ping();
    REQUIRE_FALSE(r.has_value());
    CHECK(r.error().message == "agentry: mcp::client: sse: ping: the event stream ended without the response");
    r = (*c)->ping();
    REQUIRE_FALSE(r.has_value());
    CHECK(r.error().message == "agentry: mcp::client: sse: ping: HTTP 500 Internal Server Error: oops");
    r = (*c)->ping();
    REQUIRE_FALSE(r.has_value());
    CHECK(r.error().message == "agentry: mcp::client: sse: ping: the server sent something that is not a JSON-RPC "
                               "message (invalid JSON at byte 0: unexpected character): \"not json\"");
}

TEST_CASE("http: a request of the server on the event stream is answered by a POST of its own") {
    const std::string init =
        R"({"jsonrpc":"2.0","id":1,"result":{"protocolVersion":"2025-11-25","capabilities":{},"serverInfo":{"name":"sse","version":"1"}}})";
    const std::string events =
        R"(data: {"jsonrpc":"2.0","id":"e1","method":"elicitation/create","params":{"message":"Name?","requestedSchema":{"type":"object"}}})"
        "\n\n"
        R"(data: {"jsonrpc":"2.0","id":2,"result":{"content":[{"type":"text","text":"done"}]}})"
        "\n\n";
    scripted_http server({
        json_response(init, "Mcp-Session-Id: s9\r\n"),
        "HTTP/1.1 202 Accepted\r\nContent-Length: 0\r\n\r\n",
        "HTTP/1.1 405 Method Not Allowed\r\nContent-Length: 0\r\n\r\n",
        "HTTP/1.1 200 OK\r\nContent-Type: text/event-stream\r\n\r\n" + events,
        "HTTP/1.1 202 Accepted\r\nContent-Length: 0\r\n\r\n",
        "HTTP/1.1 200 OK\r\nContent-Length: 0\r\n\r\n",
    });
    mcp::client_options options;
    options.on_elicit = [](std::string_view, std::string_view) { return mcp::elicitation_reply::cancel(); };
    auto c = mcp::client::connect(mcp::http_url{server.url()}, options);
    REQUIRE_MESSAGE(c.has_value(), (c ? std::string() : c.error().message));
    auto r = (*c)->call_tool("form");
    REQUIRE_MESSAGE(r.has_value(), (r ? std::string() : r.error().message));
    CHECK(r->text == "done");
    (*c)->close();
    server.thread.join();
    server.thread = std::thread([] {});
    REQUIRE(server.requests.size() == 6);
    CHECK(contains(server.requests[0], R"("capabilities":{"elicitation":{}})"));
    CHECK(server.requests[2].rfind("GET /mcp HTTP/1.1\r\n", 0) == 0);
    CHECK(contains(server.requests[2], "Mcp-Session-Id: s9\r\n"));
    CHECK(contains(server.requests[2], "Accept: text/event-stream\r\n"));
    CHECK_FALSE(contains(server.requests[2], "Last-Event-ID"));
    CHECK(contains(server.requests[3], R"("method":"tools/call")"));
    CHECK(server.requests[4].rfind("POST /mcp HTTP/1.1\r\n", 0) == 0);
    CHECK(contains(server.requests[4], "\r\n\r\n" R"({"jsonrpc":"2.0","id":"e1","result":{"action":"cancel"}})"));
    CHECK(server.requests[5].rfind("DELETE /mcp HTTP/1.1\r\n", 0) == 0);
}

TEST_CASE("http: a stream that ends after an event id is resumed by GET with Last-Event-ID after its retry time") {
    const std::string init =
        R"({"jsonrpc":"2.0","id":1,"result":{"protocolVersion":"2025-11-25","capabilities":{},"serverInfo":{"name":"sse","version":"1"}}})";
    const std::string sse = "HTTP/1.1 200 OK\r\nContent-Type: text/event-stream\r\n\r\n";
    scripted_http server({
        json_response(init),
        "HTTP/1.1 202 Accepted\r\nContent-Length: 0\r\n\r\n",
        sse + "id: a1\nretry: 5\ndata: \n\n",
        sse + "id: a2\ndata: \n\n",
        sse + "id: a3\n" R"(data: {"jsonrpc":"2.0","id":2,"result":{}})" "\n\n",
        sse + "id: b1\nretry: 1\ndata: \n\n",
        "HTTP/1.1 405 Method Not Allowed\r\nContent-Length: 0\r\n\r\n",
        sse + "id: c1\nretry: 1\ndata: \n\n",
        sse + "id: c2\ndata: \n\n",
        sse + "id: c3\ndata: \n\n",
        sse + "id: c4\ndata: \n\n",
        sse + "id: c5\ndata: \n\n",
        sse + "id: c6\ndata: \n\n",
    });
    auto c = mcp::client::connect(mcp::http_url{server.url()});
    REQUIRE(c.has_value());
    auto r = (*c)->ping();
    CHECK_MESSAGE(r.has_value(), (r ? std::string() : r.error().message));
    r = (*c)->ping();
    REQUIRE_FALSE(r.has_value());
    CHECK(r.error().message == "agentry: mcp::client: sse: ping: the event stream ended without the response, and "
                               "resuming it (GET with Last-Event-ID) was answered HTTP 405 Method Not Allowed");
    r = (*c)->ping();
    REQUIRE_FALSE(r.has_value());
    CHECK(r.error().message == "agentry: mcp::client: sse: ping: the event stream ended without the response, 5 "
                               "times after resuming it with Last-Event-ID");
    server.thread.join();
    server.thread = std::thread([] {});
    REQUIRE(server.requests.size() == 13);
    CHECK(server.requests[3].rfind("GET /mcp HTTP/1.1\r\n", 0) == 0);
    CHECK(contains(server.requests[3], "Accept: text/event-stream\r\nLast-Event-ID: a1\r\n"));
    CHECK(contains(server.requests[4], "Last-Event-ID: a2\r\n"));
    CHECK(contains(server.requests[6], "Last-Event-ID: b1\r\n"));
    CHECK(contains(server.requests[12], "Last-Event-ID: c5\r\n"));
}

TEST_CASE("sse_parser: id and retry fields, kept at each event's end, an id that is not printable ASCII ignored") {
    d::sse_parser p(1024);
    std::vector<std::string> data;
    const auto on = [&](std::string_view e) {
        data.emplace_back(e);
        return true;
    };
    CHECK(p.feed("retry: 250\nid: x1\n", on));
    CHECK(p.last_id().empty());
    CHECK(p.feed("data: a\n\nretry: soon\nid\n", on));
    CHECK(p.last_id() == "x1");
    CHECK(p.retry() == std::chrono::milliseconds(250));
    CHECK(p.feed("id: x2\n\n", on));
    CHECK(p.last_id() == "x2");
    CHECK(p.feed("id: x3\rInjected: 1\n\n", on));
    CHECK(p.last_id() == "x2");
    CHECK(data == std::vector<std::string>{"a"});
}

TEST_CASE("http: an error status names its reason phrase and quotes the start of the body, printable and bounded") {
    const auto answer = [](std::string_view status_line, std::string_view body) {
        return std::string(status_line) + "\r\nContent-Type: text/html\r\nContent-Length: " +
               std::to_string(body.size()) + "\r\n\r\n" + std::string(body);
    };
    const std::string init =
        R"({"jsonrpc":"2.0","id":1,"result":{"protocolVersion":"2025-11-25","capabilities":{},"serverInfo":{"name":"srv","version":"1"}}})";
    scripted_http server({
        answer("HTTP/1.1 404 Not Found", "<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n  <title>Error</title>\n</head>\n"
                                         "<body>\n  <pre>Cannot POST /mcp</pre>\n</body>\n</html>\n"),
        "HTTP/1.1 404\r\nContent-Length: 0\r\n\r\n",
        answer("HTTP/1.1 503 Service\x07Unavailable" + std::string(80, 'z'),
               "\xff\x01" "bad\r\n\r\n\t  " + std::string(300, 'b')),
        json_response(init),
        answer("HTTP/1.1 400 Bad Request", R"({"error":"unknown session"})"),
    });
    const std::string head = "agentry: mcp::client: " + server.url() + ": ";
    const auto failure = [&] {
        auto c = mcp::client::connect(mcp::http_url{server.url()});
        REQUIRE_FALSE(c.has_value());
        return c.error().message;
    };
    CHECK(failure() == head + R"(initialize: HTTP 404 Not Found: <!DOCTYPE html> <html lang="en"> <head> <title>Error</title> )"
                              "</head> <body> <pre>Cannot POST /mcp</pre> </body> </html>");
    CHECK(failure() == head + "initialize: HTTP 404");
    CHECK(failure() == head + "initialize: HTTP 503 Service Unavailable" + std::string(41, 'z') + "...: \\xFF bad " +
                           std::string(194, 'b') + "...");
    // notifications/initialized, after a good initialize.
    const std::string notified = failure();
    CHECK(notified.ends_with(R"(notifications/initialized: HTTP 400 Bad Request: {"error":"unknown session"})"));
}

TEST_CASE("http_failure: the status alone, or with its reason, note and body") {
    CHECK(d::http_failure(502, "", "", "") == "HTTP 502");
    CHECK(d::http_failure(502, "Bad Gateway", " (a note)", " \r\n ") == "HTTP 502 Bad Gateway (a note)");
    CHECK(d::http_failure(502, "", "", "\tupstream\n\n  down\n") == "HTTP 502: upstream down");
    CHECK(d::http_failure(502, "", "", std::string(d::max_body_excerpt, 'x') + "y") ==
          "HTTP 502: " + std::string(d::max_body_excerpt, 'x') + "...");
}

TEST_CASE("schema: rewritten into each dialect, or refused naming the place") {
    const auto schema = [&](std::string_view text) {
        agentry::json::parsed p = agentry::json::parse(text);
        REQUIRE(p.ok());
        return p.value;
    };
    const auto convert = [&](auto dialect, std::string_view text, std::string& why) {
        using D = decltype(dialect);
        auto r = d::schema_converter(D::kind, D::rules).convert(schema(text), why);
        return r ? agentry::json::to_text(*r) : std::string();
    };
    std::string why;
    CHECK(convert(agentry::dialect::openai_strict{},
                  R"({"type":"object","properties":{"a":{"type":"integer","minimum":1},"b":{"type":"string","minLength":2}},"required":["a"]})",
                  why) ==
          R"x({"type":"object","properties":{"a":{"type":"integer","minimum":1},"b":{"type":["string","null"],"description":"(minLength: 2)"}},"required":["a","b"],"additionalProperties":false})x");
    CHECK(convert(agentry::dialect::gemini{},
                  R"({"$schema":"x","type":"object","properties":{"a":{"type":["string","null"],"format":"email"}},"additionalProperties":false})",
                  why) ==
          R"x({"type":"OBJECT","properties":{"a":{"type":"STRING","description":"(format: email)","nullable":true}}})x");
    CHECK(convert(agentry::dialect::anthropic{}, R"({"properties":{"x":{}}})", why) ==
          R"({"properties":{"x":{}},"type":"object"})");
    CHECK(convert(agentry::dialect::gemini{}, R"({"type":"object","properties":{"m":{"type":"object","additionalProperties":{"type":"string"}}}})", why).empty());
    CHECK(why == R"(at "/properties/m": "additionalProperties" with a schema (a map), which the gemini dialect cannot express)");
    CHECK(convert(agentry::dialect::openai_strict{}, R"({"type":"object","properties":{"x":{}}})", why).empty());
    CHECK(why == R"(at "/properties/x": a value of any type (no "type"), which the openai_strict dialect cannot express)");
    CHECK(convert(agentry::dialect::gemini{}, R"({"type":"object","properties":{"r":{"$ref":"#/$defs/r"}}})", why).empty());
    CHECK(why == R"(at "/properties/r": a $ref, which the gemini dialect cannot express)");
    // Where a $ref is allowed but every schema needs rewriting (strict), $ref is the cause named.
    CHECK(convert(agentry::dialect::openai_strict{},
                  R"({"type":"object","properties":{"r":{"$ref":"#/$defs/r"}},"$defs":{"r":{"type":"string"}}})", why)
              .empty());
    CHECK(why == R"(at "/properties/r": a $ref; the schema it names is not rewritten into the openai_strict dialect)");
    CHECK(convert(agentry::dialect::openai_strict{}, R"({"type":"object","properties":{"u":{"anyOf":[{"$ref":"#/$defs/r"}]}}})",
                  why)
              .empty());
    CHECK(why == R"(at "/properties/u/anyOf/0": a $ref; the schema it names is not rewritten into the openai_strict dialect)");
    CHECK(convert(agentry::dialect::anthropic{}, R"({"type":"object","properties":{"r":{"$ref":"#/$defs/r"}},"$defs":{"r":{}}})",
                  why) == R"({"type":"object","properties":{"r":{"$ref":"#/$defs/r"}},"$defs":{"r":{}}})");
    CHECK(convert(agentry::dialect::gemini{}, R"({"type":"object","properties":{"u":{"type":["string","integer"]}}})", why).empty());
    CHECK(why == R"(at "/properties/u": a value of several types, which the gemini dialect cannot express)");
}

TEST_CASE("schema: the argument check the toolset makes (json::schema_checker)") {
    const agentry::json::schema_checker checker(agentry::json::parse(
        R"({"type":"object","properties":{"n":{"type":"integer","minimum":0,"maximum":10},"s":{"type":"string","maxLength":3},)"
        R"("e":{"enum":["x","y"]},"l":{"type":"array","items":{"type":"number"},"minItems":1},"o":{"anyOf":[{"type":"string"},{"type":"null"}]}},)"
        R"("required":["n"],"additionalProperties":false})")
                                                    .value);
    const auto check = [&](std::string_view args) {
        std::string all;
        for (const agentry::json::read_error& p : checker(agentry::json::parse(args).value)) all += p.to_string() + "|";
        return all;
    };
    CHECK(check(R"({"n":3,"s":"abc","e":"x","l":[1,2.5],"o":null})") == "");
    CHECK(check(R"({"n":3.0})") == "");
    CHECK(check(R"({})") == "/n: missing required property|");
    CHECK(check(R"({"n":"3"})") == R"(/n: expected an integer, got a string "3"|)");
    CHECK(check(R"({"n":11})") == "/n: must be at most 10|");
    CHECK(check(R"({"n":-1})") == "/n: must be at least 0|");
    CHECK(check(R"({"n":1,"s":"abcd"})") == "/s: must be at most 3 characters long|");
    CHECK(check(R"({"n":1,"e":"z"})") == R"(/e: "z" is not one of ["x","y"]|)");
    CHECK(check(R"({"n":1,"l":[]})") == "/l: must have at least 1 item|");
    CHECK(check(R"({"n":1,"l":["a"]})") == R"(/l/0: expected a number, got a string "a"|)");
    CHECK(check(R"({"n":1,"o":5})") == "/o: matches none of the allowed forms; as anyOf/0: /o expected a string, got a "
                                       "number 5; as anyOf/1: /o expected null, got a number 5|");
    CHECK(check(R"({"n":1,"z":5})") == R"(/z: unknown property; did you mean "n"?|)");
    CHECK(check(R"({"n":1,"s":"a\u0000"})") == "");
    CHECK(check(R"({"n":1,"s":"€€€"})") == "");  // lengths in code points
}

namespace {

std::string echo_static(const std::string& text) { return "static " + text; }
constexpr agentry::registry statics{agentry::tool<"echo", "The agent's own echo", "text">(echo_static)};

// Answers each request with the next recorded reply and keeps the request bodies.
struct replay {
    std::vector<std::string> replies;
    std::vector<std::string>* bodies;
    std::size_t next = 0;
    agentry::transport_result send(const agentry::http_request& r) {
        bodies->push_back(r.body);
        const std::string body = next < replies.size() ? replies[next++] : replies.back();
        return {{200, {}, body}, {}};
    }
    agentry::transport_result stream(const agentry::http_request& r, agentry::stream_handlers&) { return send(r); }
};

std::string openai_call(std::string_view id, std::string_view name, std::string_view args) {
    std::string a;
    agentry::json::write(a, args);
    return R"({"id":")" + std::string(id) + R"(","type":"function","function":{"name":")" + std::string(name) +
           R"(","arguments":)" + a + "}}";
}

std::string openai_turn(std::string calls) {
    return R"({"choices":[{"message":{"role":"assistant","content":null,"tool_calls":[)" + calls +
           R"(]},"finish_reason":"tool_calls"}],"usage":{"prompt_tokens":1,"completion_tokens":1}})";
}

constexpr std::string_view openai_answer =
    R"({"choices":[{"message":{"role":"assistant","content":"all done"},"finish_reason":"stop"}],"usage":{"prompt_tokens":1,"completion_tokens":1}})";

constexpr agentry::loop_config config{.max_turns = 4, .tool_timeout = std::chrono::seconds(5)};

} // namespace

TEST_CASE("toolset: MCP tools with the registry's in an agent") {
    auto c = connect_fake("good");
    mcp::toolset tools;
    std::vector<std::string> reports;
    REQUIRE(tools.add(c, {.report = [&](std::string_view m) { reports.emplace_back(m); }}).has_value());
    CHECK(tools.size() == 8);
    std::vector<std::string> bodies;
    replay model{{openai_turn(openai_call("c1", "fake_echo", R"({"text":"hi"})") + "," +
                              openai_call("c2", "echo", R"({"text":"me"})") + "," +
                              openai_call("c3", "add", R"({"a":-1,"b":2})") + "," +
                              openai_call("c4", "add", R"({"a":1,"b":2})") + "," + openai_call("c5", "fail", "{}")),
                  std::string(openai_answer)},
                 &bodies};
    agentry::agent<config> agent{agentry::openai{.model = "m"}, statics, "", model};
    auto added = agent.add_tools(tools);
    REQUIRE_MESSAGE(added.has_value(), (added ? std::string() : added.error().message));
    REQUIRE(reports.size() == 2);
    CHECK(reports[0] ==
          R"(agentry: mcp::toolset: server "fake", tool "mapped": its inputSchema at "/properties/tags": "additionalProperties" with a schema (a map), which the openai_strict dialect cannot express; the tool was left out)");
    CHECK(contains(reports[1], R"(tool "anything": its inputSchema at "/properties/x": a value of any type)"));

    const agentry::run_result r = agent.run("go");
    CHECK(r.stop == agentry::stop_reason::completed);
    REQUIRE(r.steps.size() == 5);
    CHECK(r.steps[0].status == agentry::tool_status::ok);
    CHECK(r.steps[0].result_excerpt == "hi");
    CHECK(r.steps[1].result_excerpt == "static me");
    CHECK(r.steps[2].status == agentry::tool_status::invalid_arguments);
    CHECK(r.steps[2].result_excerpt ==
          "add: invalid arguments: /a: must be at least 0. Fix the arguments and call add again.");
    CHECK(r.steps[3].result_excerpt == "3");
    CHECK(r.steps[4].status == agentry::tool_status::tool_error);
    CHECK(r.steps[4].result_excerpt == "fail failed: it broke");
    // Every tool result is in the conversation.
    std::size_t results = 0;
    for (const agentry::message& m : agent.conversation()) results += m.role == agentry::role::tool;
    CHECK(results == 5);
    REQUIRE_FALSE(bodies.empty());
    CHECK(contains(bodies[0], R"({"type":"function","function":{"name":"echo","description":"The agent's own echo")"));
    CHECK(contains(bodies[0],
                   R"x({"type":"function","function":{"name":"fake_echo","description":"Echoes text","parameters":{"type":"object","properties":{"text":{"type":"string","description":"(minLength: 1)"}},"required":["text"],"additionalProperties":false},"strict":true}})x"));
    CHECK_FALSE(contains(bodies[0], "\"mapped\""));
    CHECK_FALSE(contains(bodies[0], "$schema"));
}

TEST_CASE("toolset: a result with an image reaches the conversation as MCP content, one of text as its text") {
    auto c = connect_fake("good");
    mcp::toolset tools;
    REQUIRE(tools.add(c).has_value());
    std::vector<std::string> bodies;
    replay model{{openai_turn(openai_call("c1", "fake_echo", R"({"text":"[picture]"})") + "," +
                              openai_call("c2", "fake_echo", R"({"text":"words"})")),
                  std::string(openai_answer)},
                 &bodies};
    agentry::agent<config> agent{agentry::openai{.model = "m"}, statics, "", model};
    REQUIRE(agent.add_tools(tools).has_value());
    // Chat Completions takes no image in a tool message: what the run does next is the provider's
    // (docs/providers.md); the conversation holds both results as they came.
    const agentry::run_result r = agent.run("go");
    REQUIRE(r.steps.size() == 2);
    std::vector<const agentry::message*> results;
    for (const agentry::message& m : agent.conversation())
        if (m.role == agentry::role::tool) results.push_back(&m);
    REQUIRE(results.size() == 2);
    CHECK(results[0]->text ==
          R"([{"type":"text","text":"a dot"},{"type":"image","data":"iVBORw==","mimeType":"image/png"}])");
    CHECK(results[0]->content_blocks == true);
    CHECK(results[1]->text == "words");
    CHECK_FALSE(results[1]->content_blocks.has_value());
}

TEST_CASE("toolset: a tool whose schema has a reference is left out, naming the reference as the cause") {
    const std::string init =
        R"({"jsonrpc":"2.0","id":1,"result":{"protocolVersion":"2025-11-25","capabilities":{"tools":{}},"serverInfo":{"name":"refs","version":"1"}}})";
    const std::string listed =
        R"({"jsonrpc":"2.0","id":2,"result":{"tools":[)"
        R"({"name":"linked","inputSchema":{"type":"object","properties":{"to":{"$ref":"#/$defs/place"}},"required":["to"],)"
        R"("$defs":{"place":{"type":"object","properties":{"city":{"type":"string"}}}}}},)"
        R"({"name":"plain","inputSchema":{"type":"object","properties":{"city":{"type":"string"}}}}]}})";
    scripted_http server({json_response(init), "HTTP/1.1 202 Accepted\r\nContent-Length: 0\r\n\r\n", json_response(listed)});
    auto c = mcp::client::connect(mcp::http_url{server.url()});
    REQUIRE_MESSAGE(c.has_value(), (c ? std::string() : c.error().message));
    mcp::toolset tools;
    std::vector<std::string> reports;
    REQUIRE(tools.add(*c, {.report = [&](std::string_view m) { reports.emplace_back(m); }}).has_value());
    std::vector<std::string> bodies;
    replay model{{std::string(openai_answer)}, &bodies};
    agentry::agent<config> agent{agentry::openai{.model = "m"}, statics, "", model};
    REQUIRE(agent.add_tools(tools).has_value());
    REQUIRE(reports.size() == 1);
    CHECK(reports[0] == R"(agentry: mcp::toolset: server "refs", tool "linked": its inputSchema at "/properties/to": a $ref; )"
                        R"(the schema it names is not rewritten into the openai_strict dialect; the tool was left out)");
    CHECK(agent.run("go").stop == agentry::stop_reason::completed);
    REQUIRE(bodies.size() == 1);
    CHECK(contains(bodies[0], R"("name":"plain")"));
    CHECK_FALSE(contains(bodies[0], R"("name":"linked")"));
}

TEST_CASE("toolset: refuse, prefix always, and a server that dies while the agent runs") {
    auto c = connect_fake("good");
    mcp::toolset refusing;
    REQUIRE(refusing.add(c, {.unsupported = mcp::unsupported_schema::refuse}).has_value());
    std::vector<std::string> bodies;
    replay model{{std::string(openai_answer)}, &bodies};
    agentry::agent<config> agent{agentry::gemini{.model = "g"}, statics, "", model};
    auto refused = agent.add_tools(refusing);
    REQUIRE_FALSE(refused.has_value());
    CHECK(refused.error().message ==
          R"(agentry: mcp::toolset: server "fake", tool "mapped": its inputSchema at "/properties/tags": "additionalProperties" with a schema (a map), which the gemini dialect cannot express; the tools were refused (toolset_options::unsupported is refuse; leave_out drops such a tool instead))");

    mcp::toolset prefixed;
    REQUIRE(prefixed.add(c, {.prefix = "srv_", .prefixing = mcp::prefix_mode::always,
                             .unsupported = mcp::unsupported_schema::refuse})
                .has_value());
    agentry::agent<config> anthropic_agent{agentry::anthropic{.model = "a"}, statics, "", model};
    REQUIRE(anthropic_agent.add_tools(prefixed).has_value());
    auto again = anthropic_agent.add_tools(prefixed);
    REQUIRE_FALSE(again.has_value());
    CHECK(contains(again.error().message, R"(server "fake", tool "echo": its name is taken even with the prefix "srv_")"));

    auto dying = connect_fake("die");
    mcp::toolset dies;
    REQUIRE(dies.add(dying, {.report = [](std::string_view) {}}).has_value());
    std::vector<std::string> bodies2;
    replay model2{{openai_turn(openai_call("c1", "fake_echo", R"({"text":"x"})")), std::string(openai_answer)}, &bodies2};
    agentry::agent<config> a2{agentry::openai{.model = "m"}, statics, "", model2};
    REQUIRE(a2.add_tools(dies).has_value());
    const agentry::run_result r = a2.run("go");
    CHECK(r.stop == agentry::stop_reason::completed);
    REQUIRE(r.steps.size() == 1);
    CHECK(r.steps[0].status == agentry::tool_status::tool_error);
    CHECK(r.steps[0].result_excerpt ==
          "transient: fake_echo failed: agentry: mcp::client: fake: tools/call echo: the server exited with status 3 (it "
          "may succeed if tried again later)");
}

TEST_CASE("toolset: loop_config::tool_timeout applies, and the call is cancelled on the server") {
    auto c = connect_fake("good");
    mcp::toolset tools;
    REQUIRE(tools.add(c, {.call_timeout = std::chrono::milliseconds(300), .report = [](std::string_view) {}}).has_value());
    std::vector<std::string> bodies;
    replay model{{openai_turn(openai_call("c1", "never", "{}")), std::string(openai_answer)}, &bodies};
    constexpr agentry::loop_config short_tools{.max_turns = 4, .tool_timeout = std::chrono::milliseconds(100)};
    {
        agentry::agent<short_tools> agent{agentry::openai{.model = "m"}, statics, "", model};
        REQUIRE(agent.add_tools(tools).has_value());
        const agentry::run_result r = agent.run("go");
        CHECK(r.stop == agentry::stop_reason::completed);
        REQUIRE(r.steps.size() == 1);
        CHECK(r.steps[0].timed_out);
        CHECK(r.steps[0].status == agentry::tool_status::tool_error);
    }  // waits for the abandoned call, which the client ends at its own timeout
    auto last = c->call_tool("last_cancelled");
    REQUIRE(last.has_value());
    CHECK(last->text != "none");

    mcp::toolset own_timeout;
    REQUIRE(own_timeout.add(c, {.call_timeout = std::chrono::milliseconds(100), .report = [](std::string_view) {}})
                .has_value());
    replay model2{{openai_turn(openai_call("c1", "never", "{}")), std::string(openai_answer)}, &bodies};
    agentry::agent<config> agent{agentry::openai{.model = "m"}, statics, "", model2};
    REQUIRE(agent.add_tools(own_timeout).has_value());
    const agentry::run_result r = agent.run("go");
    REQUIRE(r.steps.size() == 1);
    CHECK(r.steps[0].status == agentry::tool_status::tool_error);
    CHECK(r.steps[0].result_excerpt ==
          "transient: never failed: agentry: mcp::client: fake: tools/call never: no answer within 100 ms; the request "
          "was cancelled (it may succeed if tried again later)");
}

namespace {

constexpr agentry::tool_policy approval_needed{.level = agentry::permission::write, .needs_approval = true};

// The fake server's echo needs approval; its other tools are read-only.
mcp::toolset_options approving_echo() {
    mcp::toolset_options o;
    o.report = [](std::string_view) {};
    o.policy = agentry::tool_policy{};
    o.policy_for = [](const mcp::tool_info& t) -> std::optional<agentry::tool_policy> {
        if (t.name == "echo") return approval_needed;
        return std::nullopt;
    };
    return o;
}

constexpr agentry::registry read_only_statics{
    agentry::with_policy<agentry::tool_policy{}>(agentry::tool<"echo", "The agent's own echo", "text">(echo_static))};
constexpr agentry::loop_config read_only_config{.max_turns = 4, .tool_timeout = std::chrono::seconds(5),
                                                .max_permission = agentry::permission::read_only};

} // namespace

TEST_CASE("toolset policies: the approver sees an MCP call, a pause, save, restore and resume runs it, a denial") {
    auto c = connect_fake("good");
    mcp::toolset tools;
    REQUIRE(tools.add(c, approving_echo()).has_value());
    std::vector<std::string> bodies;
    replay model{{openai_turn(openai_call("c1", "fake_echo", R"({ "text" : "hi" })") + "," +
                              openai_call("c2", "fake_echo", R"({"text":"no"})")),
                  std::string(openai_answer)},
                 &bodies};
    std::vector<std::string> seen;
    const agentry::approver approve_c1 = [&](const agentry::approval_request& r) {
        seen.push_back(std::string(r.tool) + " " + std::string(r.arguments) + " " + std::string(agentry::to_string(r.level)));
        return r.call_id == "c1" ? agentry::approval::approve() : agentry::approval::deny("not now");
    };
    agentry::agent<config> agent{agentry::openai{.model = "m"}, statics, {.approver = approve_c1}, model};
    REQUIRE(agent.add_tools(tools).has_value());
    const agentry::run_result r = agent.run("go");
    CHECK(r.stop == agentry::stop_reason::completed);
    CHECK(seen == std::vector<std::string>{R"(fake_echo {"text":"hi"} write)", R"(fake_echo {"text":"no"} write)"});
    REQUIRE(r.steps.size() == 2);
    CHECK(r.steps[0].status == agentry::tool_status::ok);
    CHECK(r.steps[0].result_excerpt == "hi");
    CHECK(r.steps[1].status == agentry::tool_status::denied);
    CHECK(r.steps[1].result_excerpt ==
          "The user denied this call of fake_echo: not now. It was not run; do not make it again unchanged.");

    // Without an approver: the run pauses with the MCP call pending; another agent with the
    // same tools restores the conversation and resumes it.
    replay paused_model{{openai_turn(openai_call("c1", "fake_echo", R"({"text":"later"})"))}, &bodies};
    agentry::agent<config> paused{agentry::openai{.model = "m"}, statics, "", paused_model};
    REQUIRE(paused.add_tools(tools).has_value());
    const agentry::run_result p = paused.run("go");
    CHECK(p.stop == agentry::stop_reason::approval_pending);
    REQUIRE(p.pending.size() == 1);
    CHECK(p.pending[0].tool == "fake_echo");
    CHECK(p.pending[0].arguments == R"({"text":"later"})");
    CHECK(p.pending[0].level == agentry::permission::write);

    replay resumed_model{{std::string(openai_answer)}, &bodies};
    agentry::agent<config> resumed{agentry::openai{.model = "m"}, statics, "", resumed_model};
    REQUIRE(resumed.add_tools(tools).has_value());
    REQUIRE(resumed.restore(paused.save()));
    const std::vector<agentry::pending_call> pending = resumed.pending_approvals();
    REQUIRE(pending.size() == 1);
    const std::vector<agentry::approval_decision> yes{agentry::decide(pending[0], agentry::approval::approve())};
    const agentry::run_result done = resumed.run(agentry::approvals{yes});
    CHECK(done.stop == agentry::stop_reason::completed);
    REQUIRE(done.steps.size() == 1);
    CHECK(done.steps[0].status == agentry::tool_status::ok);
    CHECK(done.steps[0].result_excerpt == "later");
}

TEST_CASE("toolset policies: a rate limit, a timeout of its own, retries of an idempotent tool") {
    auto c = connect_fake("good");
    mcp::toolset tools;
    mcp::toolset_options o;
    o.call_timeout = std::chrono::milliseconds(300);  // ends the abandoned calls
    o.report = [](std::string_view) {};
    o.policy_for = [](const mcp::tool_info& t) -> std::optional<agentry::tool_policy> {
        if (t.name == "add") return agentry::tool_policy{.rate = {.calls = 1, .per_ms = 3'600'000}};
        if (t.name == "never") return agentry::tool_policy{.timeout = std::chrono::milliseconds(50)};
        return std::nullopt;
    };
    REQUIRE(tools.add(c, o).has_value());
    std::vector<std::string> bodies;
    replay model{{openai_turn(openai_call("c1", "add", R"({"a":1,"b":2})") + "," +
                              openai_call("c2", "add", R"({"a":1,"b":2})") + "," + openai_call("c3", "never", "{}")),
                  std::string(openai_answer)},
                 &bodies};
    {
        agentry::agent<config> agent{agentry::openai{.model = "m"}, statics, "", model};
        REQUIRE(agent.add_tools(tools).has_value());
        const agentry::run_result r = agent.run("go");
        REQUIRE(r.steps.size() == 3);
        CHECK(r.steps[0].result_excerpt == "3");
        CHECK(r.steps[1].status == agentry::tool_status::rate_limited);
        CHECK(r.steps[1].result_excerpt.starts_with(
            "rate_limited: add may be called at most 1 times per 3600000 ms; it was not run. Try again in "));
        CHECK(r.steps[2].timed_out);
        CHECK(r.steps[2].result_excerpt ==
              "never did not finish within 50 ms; it was abandoned. Try a narrower request or another tool.");
    }  // waits for the abandoned call, which the client ends at call_timeout

    // A request the client times out is a transient failure: an idempotent tool is tried again.
    mcp::toolset retried;
    REQUIRE(retried
                .add(c, {.call_timeout = std::chrono::milliseconds(100),
                         .report = [](std::string_view) {},
                         .policy = agentry::tool_policy{.idempotent = true,
                                                        .retry = {.attempts = 2,
                                                                  .initial_backoff = std::chrono::milliseconds(1),
                                                                  .max_backoff = std::chrono::milliseconds(1)}}})
                .has_value());
    replay model2{{openai_turn(openai_call("c1", "never", "{}")), std::string(openai_answer)}, &bodies};
    agentry::agent<config> agent{agentry::openai{.model = "m"}, statics, "", model2};
    REQUIRE(agent.add_tools(retried).has_value());
    const agentry::run_result r = agent.run("go");
    REQUIRE(r.steps.size() == 1);
    CHECK(r.steps[0].attempts.size() == 2);
    CHECK(r.steps[0].failure == agentry::failure_kind::transient);
    CHECK(r.steps[0].result_excerpt ==
          "transient: never failed: agentry: mcp::client: fake: tools/call never: no answer within 100 ms; the request "
          "was cancelled (it may succeed if tried again later; tried 2 times)");
}

TEST_CASE("toolset policies: the permission ceiling leaves a tool out or refuses, and trusted annotations") {
    auto c = mcp::client::connect(mcp::stdio_command{{AGENTRY_TEST_MCP_SERVER}});
    REQUIRE(c.has_value());
    std::vector<std::string> bodies;
    replay model{{openai_turn(openai_call("c1", "add", R"({"a":2,"b":40})")), std::string(openai_answer)}, &bodies};
    const std::string above =
        "its permission level, destructive (it has no policy), is above loop_config::max_permission, read_only, and it "
        "needs no approval; give it a policy with needs_approval = true or a lower level, or raise the ceiling";

    mcp::toolset untrusted;
    std::vector<std::string> reports;
    REQUIRE(untrusted.add(*c, {.report = [&](std::string_view m) { reports.emplace_back(m); }}).has_value());
    agentry::agent<read_only_config> agent{agentry::openai{.model = "m"}, read_only_statics, "", model};
    REQUIRE(agent.add_tools(untrusted).has_value());
    REQUIRE(reports.size() == 2);
    CHECK(reports[0] == R"(agentry: mcp::toolset: server "weather", tool "get_weather": )" + above +
                            "; the tool was left out");
    CHECK(reports[1] == R"(agentry: mcp::toolset: server "weather", tool "add": )" + above + "; the tool was left out");

    mcp::toolset refusing;
    REQUIRE(refusing.add(*c, {.unsupported = mcp::unsupported_schema::refuse}).has_value());
    auto refused = agent.add_tools(refusing);
    REQUIRE_FALSE(refused.has_value());
    CHECK(refused.error().message == R"(agentry: mcp::toolset: server "weather", tool "get_weather": )" + above +
                                         "; the tools were refused (toolset_options::unsupported is refuse; leave_out "
                                         "drops such a tool instead)");

    mcp::toolset invalid;
    REQUIRE(invalid.add(*c, {.policy = agentry::tool_policy{.retry = {.attempts = 2}}}).has_value());
    auto bad = agent.add_tools(invalid);
    REQUIRE_FALSE(bad.has_value());
    CHECK(bad.error().message ==
          R"(agentry: mcp::toolset: server "weather", tool "get_weather": its policy has retry.attempts 2 without idempotent = true (a retried call may run twice); declare the tool idempotent or leave retries out; the tools were refused)");

    // examples/mcp_server marks both tools read-only: trusted, they join under the ceiling.
    mcp::toolset trusted;
    REQUIRE(trusted.add(*c, {.unsupported = mcp::unsupported_schema::refuse, .trust_annotations = true}).has_value());
    REQUIRE(agent.add_tools(trusted).has_value());
    const agentry::run_result r = agent.run("go");
    CHECK(r.stop == agentry::stop_reason::completed);
    REQUIRE(r.steps.size() == 1);
    CHECK(r.steps[0].result_excerpt == "42");
}

TEST_CASE("toolset policies: the policy of a tool from options, policy_for and trusted annotations") {
    const auto level_of = [](const mcp::toolset_options& o, std::string annotations) {
        const std::optional<agentry::tool_policy> p =
            mcp::detail::policy_of_tool(o, mcp::tool_info{"t", "", "", "{}", std::move(annotations), {}});
        if (!p) return std::string("none");
        return std::string(agentry::to_string(p->level)) + (p->idempotent ? " idempotent" : "") +
               (p->needs_approval ? " approval" : "");
    };
    mcp::toolset_options o;
    CHECK(level_of(o, R"({"readOnlyHint":true})") == "none");  // not trusted
    o.trust_annotations = true;
    CHECK(level_of(o, R"({"readOnlyHint":true})") == "read_only idempotent");
    CHECK(level_of(o, R"({"readOnlyHint":false,"destructiveHint":false})") == "write");
    CHECK(level_of(o, R"({"destructiveHint":true,"idempotentHint":true})") == "destructive idempotent");
    CHECK(level_of(o, R"({"title":"T"})") == "none");
    CHECK(level_of(o, "") == "none");
    CHECK(level_of(o, "not json") == "none");
    o.policy = approval_needed;
    CHECK(level_of(o, R"({"readOnlyHint":true})") == "read_only idempotent approval");
    CHECK(level_of(o, "") == "write approval");
    CHECK(level_of(o, R"({"readOnlyHint":false})") == "destructive approval");  // the default of destructiveHint
    CHECK(level_of(o, R"({"idempotentHint":true})") == "write idempotent approval");
    o.policy_for = [](const mcp::tool_info&) -> std::optional<agentry::tool_policy> {
        return agentry::tool_policy{.level = agentry::permission::destructive};
    };
    CHECK(level_of(o, R"({"readOnlyHint":true})") == "destructive");
}

TEST_CASE("toolset policies: MCP results are cut at max_result_size, the unknown-tool answer lists MCP tools, cut too") {
    auto c = connect_fake("good");
    mcp::toolset tools;
    REQUIRE(tools.add(c, {.report = [](std::string_view) {}}).has_value());
    const std::string long_text(200, 'y');
    std::vector<std::string> bodies;
    replay model{{openai_turn(openai_call("c1", "fake_echo", R"({"text":")" + long_text + R"("})") + "," +
                              openai_call("c2", "echo", R"({"text":")" + long_text + R"("})") + "," +
                              openai_call("c3", "fake_ech", "{}")),
                  std::string(openai_answer)},
                 &bodies};
    constexpr agentry::loop_config small{.max_turns = 4, .tool_timeout = std::chrono::seconds(5), .max_result_size = 80};
    agentry::agent<small> agent{agentry::openai{.model = "m"}, statics, "", model};
    REQUIRE(agent.add_tools(tools).has_value());
    const agentry::run_result r = agent.run("go");
    REQUIRE(r.steps.size() == 3);
    const auto& m = agent.conversation();
    REQUIRE(m.size() == 6);
    CHECK(m[2].text.size() == 80);
    CHECK(contains(m[2].text, "[truncated: the result exceeded the limit of 80 bytes]"));
    CHECK(m[2].text.starts_with(std::string(20, 'y')));
    CHECK(m[3].text.size() == 80);  // the registry's echo, cut the same way
    CHECK(m[3].text.starts_with("static yyy"));
    CHECK(r.steps[2].status == agentry::tool_status::unknown_tool);
    // Everything the model is sent passes the pipeline's result cap, the unknown-tool answer too.
    CHECK(m[4].text.size() == 80);
    CHECK(m[4].text.starts_with(R"(unknown tool "fake_ech")"));
    CHECK(contains(m[4].text, "[truncated: the result exceeded the limit of 80 bytes]"));
}

namespace {

// --emit: a session of each version against the fake server; every message the client sends,
// one per line: <version> <message>.
int emit() {
    for (std::string v : {"2024-11-05", "2025-03-26", "2025-06-18", "2025-11-25"}) {
        std::vector<std::string> sent;
        std::mutex m;
        mcp::client_options options;
        options.on_send = [&](std::string_view s) {
            std::lock_guard lock(m);
            sent.emplace_back(s);
        };
        auto c = mcp::client::connect(fake("good", {"FAKE_VERSION=" + v}), options);
        if (!c) return std::fprintf(stderr, "%s\n", c.error().message.c_str()), 1;
        (void)(*c)->list_tools();
        (void)(*c)->call_tool("echo", R"({"text":"x"})");
        mcp::request_options progress;
        progress.on_progress = [](const mcp::progress&) {};
        (void)(*c)->call_tool("slow", "{}", progress);
        mcp::request_options quick;
        quick.timeout = std::chrono::milliseconds(50);
        (void)(*c)->call_tool("never", "{}", quick);
        (void)(*c)->ping();
        (void)(*c)->list_resources();
        (void)(*c)->list_prompts();
        (*c)->close();
        // The answers to the server's requests, with the capabilities that declare them
        // (elicitation from 2025-06-18).
        mcp::client_options asked = options;
        if (v >= "2025-06-18")
            asked.on_elicit = [](std::string_view, std::string_view) {
                return mcp::elicitation_reply::accept(R"({"name":"Ada"})");
            };
        asked.on_sample = [](std::string_view) { return mcp::sampling_reply{.text = "Hi", .model = "m"}; };
        auto a = mcp::client::connect(fake("asks", {"FAKE_VERSION=" + v}), asked);
        if (!a) return std::fprintf(stderr, "%s\n", a.error().message.c_str()), 1;
        (void)(*a)->call_tool("ask");
        (*a)->close();
        for (const std::string& s : sent) std::printf("%s %s\n", v.c_str(), s.c_str());
    }
    return 0;
}

} // namespace

int everything_conformance(int argc, char** argv);

int main(int argc, char** argv) {
    self = std::filesystem::canonical("/proc/self/exe").string();
    if (argc >= 3 && std::string_view(argv[1]) == "--fake") return mcp_client_test::fake_server(argv[2]);
    if (argc >= 2 && std::string_view(argv[1]) == "--emit") return emit();
    if (argc >= 2 && std::string_view(argv[1]) == "--everything") return everything_conformance(argc, argv);
    doctest::Context context(argc, argv);
    return context.run();
}
