// SPDX-License-Identifier: BSL-1.0
// One trace across an agent, the MCP client and an agentry MCP server (telemetry/observer.hpp):
// the agent's call of a remote tool is the parent of the client's tools/call span, whose
// traceparent the server reads from params._meta and makes the parent of its server span, in
// which the tool's call span runs. Also: a request's own traceparent read by the server without
// a client observer, and a malformed one ignored.
#include <agentry/agent.hpp>
#include <agentry/mcp/client.hpp>
#include <agentry/mcp/http.hpp>
#include <agentry/mcp/server.hpp>
#include <agentry/mcp/toolset.hpp>
#include <agentry/provider/scripted.hpp>
#include <agentry/telemetry/observer.hpp>

#include "tools.hpp"

#include <doctest/doctest.h>

#include <mutex>
#include <string>
#include <thread>
#include <vector>

namespace mcp = agentry::mcp;

namespace {

// Spans numbered in the order begun ("s1", ...), each line naming its parent.
struct recording_observer final : agentry::observer {
    std::mutex mutex;
    std::vector<std::string> log;
    std::uint8_t next = 0;
    std::vector<std::array<std::uint8_t, 16>> traces;
    std::vector<std::string> sessions;  // of each tools/call, as begun

    agentry::span_begun make(const agentry::trace_context* parent, clock::time_point start) {
        agentry::span_begun s;
        s.context.trace_id = parent ? parent->trace_id : std::array<std::uint8_t, 16>{0xbb, 1};
        s.context.span_id = {0, 0, 0, 0, 0, 0, 0x10, ++next};
        if (parent) s.parent = parent->span_id;
        s.start = start;
        traces.push_back(s.context.trace_id);
        return s;
    }
    static std::string name(const std::array<std::uint8_t, 8>& id) {
        return id == std::array<std::uint8_t, 8>{} ? std::string("none")
                                                   : "s" + std::to_string(id[7]) + (id[6] == 0x10 ? "" : "?");
    }
    agentry::span_begun begin_run(const agentry::trace_context* parent, const agentry::run_event&,
                                  clock::time_point start) noexcept override {
        std::lock_guard lock(mutex);
        auto s = make(parent, start);
        log.push_back("run " + name(s.context.span_id) + " parent=" + name(s.parent));
        return s;
    }
    agentry::span_begun begin_call(const agentry::trace_context* parent, const agentry::call_event& e,
                                   clock::time_point start) noexcept override {
        std::lock_guard lock(mutex);
        auto s = make(parent, start);
        log.push_back("call " + std::string(e.tool) + " " + name(s.context.span_id) + " parent=" + name(s.parent));
        return s;
    }
    void end_call(const agentry::span_begun& s, const agentry::call_event&, const agentry::call_end_event& e) noexcept override {
        std::lock_guard lock(mutex);
        log.push_back("end call " + name(s.context.span_id) + " " + std::string(agentry::to_string(e.record->status)) +
                      " " + std::string(e.result));
    }
    agentry::span_begun begin_mcp(const agentry::trace_context* parent, const agentry::mcp_event& e,
                                  clock::time_point start) noexcept override {
        std::lock_guard lock(mutex);
        auto s = make(parent, start);
        if (e.method == "tools/call") sessions.emplace_back(e.session_id);
        if (e.method == "tools/call")
            log.push_back(std::string(e.server ? "server " : "client ") + std::string(e.method) + " " +
                          name(s.context.span_id) + " parent=" + name(s.parent));
        return s;
    }
    void end_mcp(const agentry::span_begun& s, const agentry::mcp_event& e, const agentry::mcp_end_event& end) noexcept override {
        std::lock_guard lock(mutex);
        if (e.method == "tools/call")
            log.push_back("end " + std::string(e.server ? "server " : "client ") + name(s.context.span_id) + " " +
                          std::string(e.target) + (end.error_code ? " error=" + std::to_string(*end.error_code) : "") +
                          (end.tool_error ? " tool_error" : ""));
    }
};

std::string lines(const std::vector<std::string>& v) {
    std::string out;
    for (const std::string& line : v) out += line + "\n";
    return out;
}

} // namespace

TEST_CASE("observe: an agent's call of a remote tool, the client's request and the server's call are one trace") {
    recording_observer seen;
    mcp::server server{mcp_test::tools, {.name = "remote", .version = "1"}};
    server.set_observer(&seen);
    mcp::http_options options;
    options.port = 0;
    options.log = nullptr;
    mcp::http_server http(server, options);
    std::thread serving([&] { http.run(); });
    {
        mcp::client_options client_options;
        client_options.observer = &seen;
        auto client = mcp::client::connect(mcp::http_url{http.url()}, client_options);
        REQUIRE(client);
        mcp::toolset remote;
        REQUIRE(remote.add(*client));
        agentry::scripted_model model{[](const agentry::chat_request& r) {
            agentry::completion c;
            if (r.messages.back().role == agentry::role::user) {
                c.reply.tool_calls = {{"c1", "add", R"({"a":2,"b":3})", {}}};
                c.finish = agentry::finish_reason::tool_calls;
            } else {
                c.reply.text = "5";
            }
            return c;
        }};
        agentry::agent_options agent_options;
        agent_options.observer = &seen;
        agentry::agent<agentry::loop_config{}> agent{model, agentry::registry{}, agent_options,
                                                     agentry::scripted_transport{}};
        REQUIRE(agent.add_tools(remote));
        const agentry::run_result r = agent.run("2 + 3?");
        REQUIRE(r.stop == agentry::stop_reason::completed);
    }
    http.stop();
    serving.join();
    std::lock_guard lock(seen.mutex);
    const std::vector<std::string> expected{
        // s1-s3: the client's initialize, tools/list and their server side (not listed here)
        "run s4 parent=none",
        "call add s5 parent=s4",
        "client tools/call s6 parent=s5",
        "server tools/call s7 parent=s6",
        "call add s8 parent=s7",
        "end call s8 ok 5",
        "end server s7 add",
        "end client s6 add",
        "end call s5 ok 5",
    };
    std::vector<std::string> calls;
    for (const std::string& line : seen.log)
        if (line.starts_with("run") || line.find("call") != std::string::npos || line.starts_with("end server") ||
            line.starts_with("end client"))
            calls.push_back(line);
    CHECK(lines(calls) == lines(expected));
    // Both sides name the session: the Mcp-Session-Id.
    REQUIRE(seen.sessions.size() == 2);
    CHECK(seen.sessions[0].size() == 32);
    CHECK(seen.sessions[0] == seen.sessions[1]);
}

TEST_CASE("observe: a server reads params._meta.traceparent, and ignores one that is not valid") {
    recording_observer seen;
    mcp::server server{mcp_test::tools, {.name = "remote", .version = "1"}};
    server.set_observer(&seen);
    mcp::session s;
    const auto send = [&](std::string message) { return server.handle(s, message); };
    send(R"({"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-06-18","capabilities":{},)"
         R"("clientInfo":{"name":"t","version":"1"}}})");
    send(R"({"jsonrpc":"2.0","method":"notifications/initialized"})");
    send(R"({"jsonrpc":"2.0","id":2,"method":"tools/call","params":{"name":"add","arguments":{"a":1,"b":1},)"
         R"("_meta":{"traceparent":"00-0af7651916cd43dd8448eb211c80319c-00000000000010f7-01"}}})");
    send(R"({"jsonrpc":"2.0","id":3,"method":"tools/call","params":{"name":"add","arguments":{"a":1,"b":1},)"
         R"("_meta":{"traceparent":"00-0AF7651916CD43DD8448EB211C80319C-00000000000010f7-01"}}})");
    send(R"({"jsonrpc":"2.0","id":4,"method":"tools/call","params":{"name":"nope","arguments":{}}})");
    const std::vector<std::string> expected{
        "server tools/call s1 parent=s247",  // the client's span id, 0x10f7
        "call add s2 parent=s1",
        "end call s2 ok 2",
        "end server s1 add",
        "server tools/call s3 parent=none",  // upper-case hex: not a valid traceparent
        "call add s4 parent=s3",
        "end call s4 ok 2",
        "end server s3 add",
        "server tools/call s5 parent=none",
        "call nope s6 parent=s5",
    };
    REQUIRE(seen.log.size() == 12);
    CHECK(lines(std::vector<std::string>(seen.log.begin(), seen.log.begin() + 10)) == lines(expected));
    CHECK(seen.log[10].starts_with("end call s6 unknown_tool "));
    CHECK(seen.log[11] == "end server s5 nope error=-32602");
    CHECK(seen.sessions == std::vector<std::string>(3));  // no session id over stdio or handle()
    // A tool that fails: a result with isError true marks the request's span.
    seen.log.clear();
    send(R"({"jsonrpc":"2.0","id":5,"method":"tools/call","params":{"name":"fail","arguments":{}}})");
    REQUIRE(seen.log.size() == 4);
    CHECK(seen.log[3] == "end server s7 fail tool_error");
    // The first request's spans are in the client's trace.
    CHECK(seen.traces[0] == std::array<std::uint8_t, 16>{0x0a, 0xf7, 0x65, 0x19, 0x16, 0xcd, 0x43, 0xdd, 0x84, 0x48,
                                                         0xeb, 0x21, 0x1c, 0x80, 0x31, 0x9c});
}
