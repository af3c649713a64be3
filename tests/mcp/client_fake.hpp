// SPDX-License-Identifier: BSL-1.0
// Fake MCP servers for the client tests, run as `agentry_mcp_client --fake <mode>` over stdio:
//   good          a server with paged tools, progress, cancellation, resources and prompts
//   garbage       answers initialize, then prints a line that is not JSON-RPC
//   oversize      answers initialize, then a 2 MiB message
//   silent        answers initialize, then nothing (until its input ends)
//   stubborn      answers initialize, then ignores the end of its input (until killed, at most 60 s)
//   die           answers initialize, then exits with status 3 at the first tools/call
//   notify_first  a good server that sends a log notification, a stray progress notification
//                 and a ping request before each answer
//   version       answers initialize with protocol version 1999-01-01
//   env           a good server whose tools/call answers "unset", or "set:" and the value of
//                 the variable named by the argument "name" in its environment
// FAKE_VERSION, when set, is the version a good server answers initialize with.
#ifndef AGENTRY_TESTS_MCP_CLIENT_FAKE_HPP
#define AGENTRY_TESTS_MCP_CLIENT_FAKE_HPP

#include <agentry/mcp/detail/client_json.hpp>

#include <chrono>
#include <cstdlib>
#include <iostream>
#include <string>
#include <string_view>
#include <thread>

namespace mcp_client_test {

namespace d = agentry::mcp::detail;

inline constexpr std::string_view page_one =
    R"({"tools":[)"
    R"({"name":"echo","description":"Echoes text","inputSchema":{"type":"object","properties":{"text":{"type":"string","minLength":1}},"required":["text"]}},)"
    R"({"name":"add","title":"Add","inputSchema":{"$schema":"https://json-schema.org/draft/2020-12/schema","type":"object","properties":{"a":{"type":"integer","minimum":0},"b":{"type":"integer"}},"required":["a","b"],"additionalProperties":false}})"
    R"(],"nextCursor":"p2"})";

inline constexpr std::string_view page_two =
    R"({"tools":[)"
    R"({"name":"slow","description":"Reports progress","inputSchema":{"type":"object"}},)"
    R"({"name":"never","description":"Never answers","inputSchema":{"type":"object"}},)"
    R"({"name":"fail","description":"Fails","inputSchema":{"type":"object"}},)"
    R"({"name":"last_cancelled","description":"The requestId of the last cancellation","inputSchema":{"type":"object"}},)"
    R"({"name":"mapped","description":"A map","inputSchema":{"type":"object","properties":{"tags":{"type":"object","additionalProperties":{"type":"string"}}}}},)"
    R"({"name":"anything","description":"Any value","inputSchema":{"type":"object","properties":{"x":{}}}})"
    R"(]})";

inline int fake_server(std::string_view mode) {
    std::string line;
    std::string last_cancelled = "none";
    std::ostream& out = std::cout;
    while (std::getline(std::cin, line)) {
        std::string error;
        std::optional<d::jvalue> m = d::parse_json(line, error);
        if (!m) continue;
        const std::string method(m->string_at("method"));
        const d::jvalue* idv = m->get("id");
        static const d::jvalue none = d::jvalue::object();
        const d::jvalue* pp = m->get("params");
        const d::jvalue& params = pp ? *pp : none;
        if (method == "notifications/cancelled") {
            if (const d::jvalue* r = params.get("requestId")) last_cancelled = d::to_json(*r);
            continue;
        }
        if (!idv || method.empty()) continue;
        const std::string id = d::to_json(*idv);
        const auto reply = [&](std::string_view result) {
            out << R"({"jsonrpc":"2.0","id":)" << id << R"(,"result":)" << result << "}" << std::endl;
        };
        const auto text = [&](std::string_view t, bool is_error = false) {
            std::string r = R"({"content":[{"type":"text","text":)";
            agentry::json::write(r, t);
            r += R"(}],"isError":)";
            r += is_error ? "true}" : "false}";
            reply(r);
        };
        if (method == "initialize") {
            std::string version(params.string_at("protocolVersion"));
            if (const char* v = std::getenv("FAKE_VERSION")) version = v;
            if (mode == "version") version = "1999-01-01";
            reply(R"({"protocolVersion":")" + version +
                  R"(","capabilities":{"tools":{},"resources":{},"prompts":{}},"serverInfo":{"name":"fake","version":"1"}})");
            if (mode == "stubborn")
                for (int i = 0; i != 600; ++i) std::this_thread::sleep_for(std::chrono::milliseconds(100));
            continue;
        }
        if (mode == "silent") continue;
        if (mode == "garbage") {
            out << "hello from a print statement" << std::endl;
            continue;
        }
        if (mode == "oversize") {
            out << R"({"jsonrpc":"2.0","id":)" << id << R"(,"result":{"pad":")" << std::string(2 << 20, 'x') << "\"}}"
                << std::endl;
            continue;
        }
        if (mode == "die" && method == "tools/call") return 3;
        if (mode == "env" && method == "tools/call") {
            const d::jvalue* args = params.get("arguments");
            const char* value = std::getenv(std::string(args ? args->string_at("name") : "").c_str());
            text(value ? "set:" + std::string(value) : std::string("unset"));
            continue;
        }
        if (mode == "notify_first") {
            out << R"({"jsonrpc":"2.0","method":"notifications/message","params":{"level":"info","data":"working"}})"
                << "\n"
                << R"({"jsonrpc":"2.0","method":"notifications/progress","params":{"progressToken":"nobody","progress":1}})"
                << "\n"
                << R"({"jsonrpc":"2.0","id":"s1","method":"ping"})" << std::endl;
        }
        if (method == "ping") {
            reply("{}");
        } else if (method == "tools/list") {
            reply(params.string_at("cursor") == "p2" ? page_two : page_one);
        } else if (method == "resources/list") {
            reply(R"({"resources":[{"uri":"test://a","name":"a","mimeType":"text/plain"}]})");
        } else if (method == "prompts/list") {
            reply(R"({"prompts":[{"name":"greet","arguments":[{"name":"who","required":true}]}]})");
        } else if (method == "tools/call") {
            const std::string name(params.string_at("name"));
            const d::jvalue* args = params.get("arguments");
            if (name == "echo") {
                text(args ? args->string_at("text") : "");
            } else if (name == "add") {
                const d::jvalue* a = args ? args->get("a") : nullptr;
                const d::jvalue* b = args ? args->get("b") : nullptr;
                if (!a || !b) text("a and b are required", true);
                else text(std::to_string(static_cast<long long>(a->number + b->number)));
            } else if (name == "slow") {
                const d::jvalue* meta = params.get("_meta");
                const d::jvalue* token = meta ? meta->get("progressToken") : nullptr;
                for (int i = 1; token && i <= 3; ++i)
                    out << R"({"jsonrpc":"2.0","method":"notifications/progress","params":{"progressToken":)"
                        << d::to_json(*token) << R"(,"progress":)" << i << R"(,"total":3,"message":"step )" << i
                        << "\"}}" << std::endl;
                text("done");
            } else if (name == "never") {
                continue;
            } else if (name == "fail") {
                text("it broke", true);
            } else if (name == "last_cancelled") {
                text(last_cancelled);
            } else {
                out << R"({"jsonrpc":"2.0","id":)" << id << R"(,"error":{"code":-32602,"message":"unknown tool"}})"
                    << std::endl;
            }
        } else {
            out << R"({"jsonrpc":"2.0","id":)" << id << R"(,"error":{"code":-32601,"message":"Method not found"}})"
                << std::endl;
        }
    }
    return 0;
}

} // namespace mcp_client_test

#endif
