// SPDX-License-Identifier: BSL-1.0
// `agentry_mcp_client --everything <node> <server-everything's dist/index.js>`: mcp::client
// against @modelcontextprotocol/server-everything, over stdio and over Streamable HTTP: tools
// listed and called, a call with progress, a call cancelled at its timeout (the connection
// stays usable), resources and prompts listed. Every message the client sent is printed as
// "sent <version> <message>" for client_schema.mjs. Exit status 77 (skip) with the reason when
// node or the package is missing.
#include <agentry/mcp/client.hpp>

#include <algorithm>
#include <arpa/inet.h>
#include <chrono>
#include <csignal>
#include <cstdio>
#include <filesystem>
#include <mutex>
#include <netinet/in.h>
#include <spawn.h>
#include <string>
#include <sys/socket.h>
#include <sys/wait.h>
#include <thread>
#include <unistd.h>
#include <vector>

namespace {

namespace mcp = agentry::mcp;

int failures = 0;

struct recorded {
    std::mutex mutex;
    std::vector<std::string> messages;

    mcp::client_options options() {
        mcp::client_options o;
        o.on_send = [this](std::string_view m) {
            std::lock_guard lock(mutex);
            messages.emplace_back(m);
        };
        return o;
    }
    void print(const std::string& version) {
        std::lock_guard lock(mutex);
        for (const std::string& m : messages) std::printf("sent %s %s\n", version.c_str(), m.c_str());
        messages.clear();
    }
};

void expect(bool ok, const std::string& what) {
    std::printf("%s: %s\n", ok ? "ok" : "FAILED", what.c_str());
    failures += ok ? 0 : 1;
}

const mcp::tool_info* find(const std::vector<mcp::tool_info>& tools, std::initializer_list<std::string_view> names) {
    for (std::string_view n : names)
        for (const mcp::tool_info& t : tools)
            if (t.name == n) return &t;
    return nullptr;
}

void scenario(mcp::client& c, const std::string& transport) {
    const std::string at = " (" + transport + ", " + c.protocol_version() + ")";
    expect(std::find(mcp::client_protocol_versions.begin(), mcp::client_protocol_versions.end(),
                     c.protocol_version()) != mcp::client_protocol_versions.end(),
           "a version the client speaks was negotiated" + at);
    auto tools = c.list_tools();
    expect(tools.has_value() && !tools->empty(), "tools/list" + at + (tools ? "" : ": " + tools.error().message));
    if (!tools) return;
    if (const mcp::tool_info* echo = find(*tools, {"echo"})) {
        auto r = c.call_tool(echo->name, R"({"message":"hello agentry"})");
        expect(r && !r->is_error && r->text.find("hello agentry") != std::string::npos, "echo" + at);
    } else {
        expect(false, "the server has an echo tool" + at);
    }
    if (const mcp::tool_info* sum = find(*tools, {"get-sum", "add"})) {
        auto r = c.call_tool(sum->name, R"({"a":2,"b":3})");
        expect(r && !r->is_error && r->text.find('5') != std::string::npos, sum->name + at);
    }
    const mcp::tool_info* slow = find(*tools, {"trigger-long-running-operation", "longRunningOperation"});
    expect(slow != nullptr, "the server has a long-running tool" + at);
    if (slow) {
        int seen = 0;
        mcp::request_options progress;
        progress.on_progress = [&](const mcp::progress&) { ++seen; };
        auto r = c.call_tool(slow->name, R"({"duration":1,"steps":2})", progress);
        expect(r && !r->is_error, slow->name + " with progress" + at + (r ? "" : ": " + r.error().message));
        expect(seen >= 1, "progress notifications (" + std::to_string(seen) + ")" + at);
        mcp::request_options quick;
        quick.timeout = std::chrono::milliseconds(300);
        auto cancelled = c.call_tool(slow->name, R"({"duration":30,"steps":3})", quick);
        expect(!cancelled && cancelled.error().message.find("no answer within 300 ms") != std::string::npos,
               "a call cancelled at its timeout" + at);
        expect(c.ping().has_value(), "ping after the cancellation" + at);
    }
    auto resources = c.list_resources();
    expect(resources && !resources->empty(), "resources/list" + at);
    auto prompts = c.list_prompts();
    expect(prompts && !prompts->empty(), "prompts/list" + at);
}

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

} // namespace

int everything_conformance(int argc, char** argv) {
    const std::string node = argc > 2 ? argv[2] : "";
    const std::string script = argc > 3 ? argv[3] : "";
    if (node.empty() || !std::filesystem::exists(node)) {
        std::printf("SKIP: node not found; install Node.js\n");
        return 77;
    }
    if (!std::filesystem::exists(script)) {
        std::printf("SKIP: %s is missing; @modelcontextprotocol/server-everything is not installed (pin it in "
                    "package.json and run npm ci)\n",
                    script.c_str());
        return 77;
    }
    recorded sent;
    {
        auto c = mcp::client::connect(mcp::stdio_command{{node, script, "stdio"}}, sent.options());
        expect(c.has_value(), "stdio connect" + (c ? std::string() : ": " + c.error().message));
        if (c) {
            scenario(**c, "stdio");
            (*c)->close();
            sent.print((*c)->protocol_version());
        }
    }
    {
        const std::string port = std::to_string(free_port());
        // server-everything listens on every interface; the preload keeps it on 127.0.0.1.
        std::vector<std::string> args{node, "--require", AGENTRY_TEST_LOOPBACK_PRELOAD, script, "streamableHttp"};
        std::vector<char*> argv_;
        for (std::string& s : args) argv_.push_back(s.data());
        argv_.push_back(nullptr);
        std::vector<std::string> env_text{"PORT=" + port};
        std::vector<char*> envp;
        for (char** e = environ; *e; ++e) envp.push_back(*e);
        envp.push_back(env_text[0].data());
        envp.push_back(nullptr);
        pid_t pid = -1;
        if (::posix_spawn(&pid, node.c_str(), nullptr, nullptr, argv_.data(), envp.data()) != 0) {
            expect(false, "starting server-everything over HTTP");
        } else {
            const std::string url = "http://127.0.0.1:" + port + "/mcp";
            agentry::outcome<std::shared_ptr<mcp::client>> c =
                agentry::fail(agentry::failure_kind::transient, "not tried");
            for (int i = 0; i != 1200; ++i) {  // while node starts (at most 30 s)
                c = mcp::client::connect(mcp::http_url{url}, sent.options());
                if (c || c.error().message.find("cannot connect") == std::string::npos) break;
                std::this_thread::sleep_for(std::chrono::milliseconds(25));
            }
            expect(c.has_value(), "Streamable HTTP connect" + (c ? std::string() : ": " + c.error().message));
            if (c) {
                scenario(**c, "http");
                (*c)->close();
                sent.print((*c)->protocol_version());
            }
            ::kill(pid, SIGTERM);
            ::waitpid(pid, nullptr, 0);
        }
    }
    return failures == 0 ? 0 : 1;
}
