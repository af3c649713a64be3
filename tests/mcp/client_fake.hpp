// SPDX-License-Identifier: BSL-1.0
// Fake MCP servers for the client tests, run as `agentry_mcp_client --fake <mode>` over stdio:
//   good          a server with paged tools, progress, cancellation, resources and prompts;
//                 echo of "[picture]" answers a text block and an image block
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
//   asks          a good server whose tools/call "ask" sends elicitation/create, sampling/createMessage,
//                 ping and roots/list to the client, and answers the client's four answers,
//                 one a line; initialize answers with the client's capabilities as instructions
// FAKE_VERSION, when set, is the version a good server answers initialize with.
#ifndef AGENTRY_TESTS_MCP_CLIENT_FAKE_HPP
#define AGENTRY_TESTS_MCP_CLIENT_FAKE_HPP

#include <agentry/json/value.hpp>
#include <agentry/json/writer.hpp>

#include <chrono>
#include <cstdlib>
#include <iostream>
#include <optional>
#include <string>
#include <string_view>
#include <thread>

namespace mcp_client_test {

namespace json = agentry::json;

inline std::string string_at(const json::value& v, std::string_view key) {
    const json::value* m = v.find(key);
    return m && m->is_string() ? m->as_string() : std::string();
}

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
        json::parsed parsed = json::parse(line);
        if (!parsed.ok()) continue;
        const json::value* m = &parsed.value;
        const std::string method = string_at(*m, "method");
        const json::value* idv = m->find("id");
        static const json::value none = json::value::object();
        const json::value* pp = m->find("params");
        const json::value& params = pp ? *pp : none;
        if (method == "notifications/cancelled") {
            if (const json::value* r = params.find("requestId")) last_cancelled = json::to_text(*r);
            continue;
        }
        if (!idv || method.empty()) continue;
        const std::string id = json::to_text(*idv);
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
            std::string version = string_at(params, "protocolVersion");
            if (const char* v = std::getenv("FAKE_VERSION")) version = v;
            if (mode == "version") version = "1999-01-01";
            std::string instructions;
            if (const json::value* caps = params.find("capabilities")) json::write(instructions, json::value(json::to_text(*caps)));
            else instructions = R"("")";
            reply(R"({"protocolVersion":")" + version +
                  R"(","capabilities":{"tools":{},"resources":{},"prompts":{}},"serverInfo":{"name":"fake","version":"1"},"instructions":)" +
                  instructions + "}");
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
        if (mode == "asks" && method == "tools/call") {
            out << R"({"jsonrpc":"2.0","id":"e1","method":"elicitation/create","params":{"message":"Your name?","requestedSchema":{"type":"object","properties":{"name":{"type":"string"}}}}})"
                << "\n"
                << R"({"jsonrpc":"2.0","id":"s1","method":"sampling/createMessage","params":{"messages":[{"role":"user","content":{"type":"text","text":"Hi"}}],"maxTokens":5}})"
                << "\n"
                << R"({"jsonrpc":"2.0","id":"p1","method":"ping"})" << "\n"
                << R"({"jsonrpc":"2.0","id":"r1","method":"roots/list"})" << std::endl;
            std::string answers;
            for (int i = 0; i != 4 && std::getline(std::cin, line); ++i) answers += (i ? "\n" : "") + line;
            text(answers);
            continue;
        }
        if (mode == "env" && method == "tools/call") {
            const json::value* args = params.find("arguments");
            const char* value = std::getenv((args ? string_at(*args, "name") : std::string()).c_str());
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
            reply(string_at(params, "cursor") == "p2" ? page_two : page_one);
        } else if (method == "resources/list" && mode == "icons") {
            reply(R"j({"resources":[{"uri":"test://a","name":"a","icons":[{"src":"javascript:alert(1)"},)j"
                  R"({"src":"data:image/png;base64,AAAA","theme":"dark"}]}]})");
        } else if (method == "prompts/list" && mode == "icons") {
            reply(R"({"prompts":[{"name":"greet","icons":[{"src":"https://a.example/g.png","sizes":["16x16","any"]},)"
                  R"({"src":"https://a.example/h.png","theme":"dim"}]},{"name":"bare","icons":"none"}]})");
        } else if (method == "resources/list") {
            reply(R"({"resources":[{"uri":"test://a","name":"a","mimeType":"text/plain"}]})");
        } else if (method == "prompts/list") {
            reply(R"({"prompts":[{"name":"greet","arguments":[{"name":"who","required":true}]}]})");
        } else if (method == "tools/call") {
            const std::string name = string_at(params, "name");
            const json::value* args = params.find("arguments");
            if (name == "echo" && args && string_at(*args, "text") == "[picture]") {
                reply(R"({"content":[{"type":"text","text":"a dot"},{"type":"image","data":"iVBORw==","mimeType":"image/png"}]})");
            } else if (name == "echo") {
                text(args ? string_at(*args, "text") : "");
            } else if (name == "add") {
                const json::value* a = args ? args->find("a") : nullptr;
                const json::value* b = args ? args->find("b") : nullptr;
                if (!a || !b) text("a and b are required", true);
                else text(std::to_string(static_cast<long long>(a->as_double() + b->as_double())));
            } else if (name == "slow") {
                const json::value* meta = params.find("_meta");
                const json::value* token = meta ? meta->find("progressToken") : nullptr;
                for (int i = 1; token && i <= 3; ++i)
                    out << R"({"jsonrpc":"2.0","method":"notifications/progress","params":{"progressToken":)"
                        << json::to_text(*token) << R"(,"progress":)" << i << R"(,"total":3,"message":"step )" << i
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
