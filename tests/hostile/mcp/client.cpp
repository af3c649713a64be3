// SPDX-License-Identifier: BSL-1.0
// Hostile-peer probes of the MCP client (docs/security.md, "The hostile-input tests"): servers
// that read the client's environment, page their tools forever, name tools with control bytes,
// hand out session ids that are not tokens, send messages with a key twice, bytes that are not
// UTF-8 or more than the size limit, a tool whose inputSchema has a pattern and a format, a
// model's arguments the toolset must refuse, and a client configured to send a credential over
// plain http:// to a host that is not loopback. The stdio servers are this program run again
// with --serve <mode>; the HTTP servers are scripted, on 127.0.0.1 in this process. Every loop
// is bounded in count and every wait gives up after 20 s.
#define DOCTEST_CONFIG_IMPLEMENT
#include <doctest/doctest.h>

#include <agentry/detail/text.hpp>
#include <agentry/json/writer.hpp>
#include <agentry/loop/dynamic_tools.hpp>
#include <agentry/mcp/client.hpp>
#include <agentry/mcp/toolset.hpp>
#include <agentry/schema/dialect.hpp>

#include <arpa/inet.h>
#include <netinet/in.h>
#include <poll.h>
#include <sys/socket.h>
#include <unistd.h>

#include <atomic>
#include <cstdio>
#include <cstdlib>
#include <iostream>
#include <memory>
#include <mutex>
#include <string>
#include <string_view>
#include <thread>
#include <vector>

namespace {

namespace mcp = agentry::mcp;

std::string self;  // this program

bool contains(std::string_view text, std::string_view part) { return text.find(part) != std::string_view::npos; }

bool valid_utf8(std::string_view text) {
    for (std::size_t i = 0; i < text.size();) {
        const std::size_t n = agentry::detail::utf8_char_length(text.substr(i));
        if (n == 0) return false;
        i += n;
    }
    return true;
}

bool has_control_byte(std::string_view text) {
    for (char c : text)
        if (static_cast<unsigned char>(c) < 0x20 || c == 0x7F) return true;
    return false;
}

// ---- the stdio servers (this program with --serve <mode>), without a JSON parser of their own:
// the client's messages are one line each, written by the client in a known shape.
//   env     a tool "getenv" whose text is "unset" or "set:" and the value of the variable named
//           by the argument "name" in the server's environment
//   cycle   tools/list pages whose nextCursor go A, B, A, B, ...
//   big     64 pages, each one tool with a 512 KiB description, each nextCursor new
//   names   tools named "evil\nname", "bell\x07" and "fine"
//   dup_list    tools/list whose one tool has "name" twice ("safe", then "evil")
//   utf8_list   tools/list whose one tool's description holds the byte 0xFF
//   dup_call    a tool "pay" whose tools/call result has "isError" twice (false, then true)
//   utf8_call   a tool "pay" whose tools/call result's text holds the byte 0xFF
//   big_call    a tool "pay" whose tools/call result is 128 KiB long
//   pattern     a tool "lookup" whose "code" must match ^[A-Z]{3}$ and "mail" be an email; a
//               tool "pay" with "amount" (a number) and "to" (a string); each answers "done"
//   bad_pattern a tool "odd" whose "code" has the pattern "([", which is not a regular
//               expression, and a tool "fine"

std::string field(std::string_view line, std::string_view key) {
    const std::string quoted = "\"" + std::string(key) + "\":\"";
    const std::size_t at = line.find(quoted);
    if (at == std::string_view::npos) return {};
    const std::size_t from = at + quoted.size();
    return std::string(line.substr(from, line.find('"', from) - from));
}

std::string id_of(std::string_view line) {
    const std::size_t at = line.find("\"id\":");
    if (at == std::string_view::npos) return {};
    const std::size_t from = at + 5;
    return std::string(line.substr(from, line.find_first_of(",}", from) - from));
}

std::string tool_json(std::string_view name, std::string_view description = "a tool") {
    std::string out = R"({"name":)";
    agentry::json::write(out, name);
    out += R"(,"description":)";
    agentry::json::write(out, description);
    out += R"(,"inputSchema":{"type":"object","properties":{"name":{"type":"string"}}}})";
    return out;
}

int serve(std::string_view mode) {
    std::string line;
    while (std::getline(std::cin, line)) {
        const std::string id = id_of(line);
        const std::string method = field(line, "method");
        if (id.empty() || method.empty()) continue;
        std::string result;
        if (method == "initialize") {
            result = R"({"protocolVersion":"2025-11-25","capabilities":{"tools":{}},"serverInfo":{"name":"probe","version":"1"}})";
        } else if (method == "tools/list") {
            const std::string cursor = field(line, "cursor");
            if (mode == "env") {
                result = R"({"tools":[)" + tool_json("getenv") + "]}";
            } else if (mode == "cycle") {
                const std::string next = cursor == "A" ? "B" : "A";
                result = R"({"tools":[)" + tool_json("page_" + (cursor.empty() ? std::string("0") : cursor)) +
                         R"(],"nextCursor":")" + next + "\"}";
            } else if (mode == "dup_list") {
                result = R"({"tools":[{"name":"safe","description":"d","name":"evil","inputSchema":{"type":"object"}}]})";
            } else if (mode == "utf8_list") {
                result = R"({"tools":[{"name":"pay","description":"bad )" "\xFF" R"( byte","inputSchema":{"type":"object"}}]})";
            } else if (mode == "pattern") {
                result = R"({"tools":[{"name":"lookup","description":"d","inputSchema":{"type":"object","properties":)"
                         R"({"code":{"type":"string","pattern":"^[A-Z]{3}$"},"mail":{"type":"string","format":"email"}},)"
                         R"("required":["code"]}},)"
                         R"({"name":"pay","description":"d","inputSchema":{"type":"object","properties":)"
                         R"({"amount":{"type":"number"},"to":{"type":"string"}},"required":["amount","to"]}}]})";
            } else if (mode == "bad_pattern") {
                result = R"({"tools":[{"name":"odd","description":"d","inputSchema":{"type":"object","properties":)"
                         R"({"code":{"type":"string","pattern":"(["}}}},)" +
                         tool_json("fine") + "]}";
            } else if (mode == "dup_call" || mode == "utf8_call" || mode == "big_call") {
                result = R"({"tools":[)" + tool_json("pay") + "]}";
            } else if (mode == "big") {
                const int page = cursor.empty() ? 0 : std::atoi(cursor.c_str() + 1);
                result = R"({"tools":[)" + tool_json("t" + std::to_string(page), std::string(512 * 1024, 'd')) + "]";
                if (page + 1 < 64) result += R"(,"nextCursor":"p)" + std::to_string(page + 1) + "\"";
                result += "}";
            } else {
                result = R"({"tools":[)" + tool_json("evil\nname") + "," + tool_json("bell\x07") + "," +
                         tool_json("fine") + "]}";
            }
        } else if (method == "tools/call" && mode == "dup_call") {
            result = R"({"content":[{"type":"text","text":"paid"}],"isError":false,"isError":true})";
        } else if (method == "tools/call" && mode == "utf8_call") {
            result = R"({"content":[{"type":"text","text":"paid )" "\xFF" R"("}],"isError":false})";
        } else if (method == "tools/call" && mode == "big_call") {
            result = R"({"content":[{"type":"text","text":")" + std::string(128 * 1024, 'x') + R"("}],"isError":false})";
        } else if (method == "tools/call" && mode == "pattern") {
            result = R"({"content":[{"type":"text","text":"done"}],"isError":false})";
        } else if (method == "tools/call") {
            const std::size_t at = line.find(R"("arguments":{"name":")");
            std::string name;
            if (at != std::string::npos) {
                const std::size_t from = at + 21;
                name = line.substr(from, line.find('"', from) - from);
            }
            const char* value = std::getenv(name.c_str());
            std::string text = value ? "set:" + std::string(value) : "unset";
            result = R"({"content":[{"type":"text","text":)";
            agentry::json::write(result, std::string_view(text));
            result += R"(}],"isError":false})";
        } else {
            std::cout << R"({"jsonrpc":"2.0","id":)" << id << R"(,"error":{"code":-32601,"message":"no"}})" << std::endl;
            continue;
        }
        std::cout << R"({"jsonrpc":"2.0","id":)" << id << R"(,"result":)" << result << "}" << std::endl;
    }
    return 0;
}

std::shared_ptr<mcp::client> start(std::string mode, std::vector<std::string> env = {},
                                   mcp::client_options options = {}) {
    auto c = mcp::client::connect(mcp::stdio_command{{self, "--serve", std::move(mode)}, std::move(env)}, options);
    REQUIRE_MESSAGE(c.has_value(), (c ? std::string() : c.error().message));
    return *c;
}

/// What the env server's getenv tool says of `name`.
std::string child_getenv(mcp::client& c, std::string_view name) {
    auto r = c.call_tool("getenv", R"({"name":")" + std::string(name) + "\"}");
    REQUIRE_MESSAGE(r.has_value(), (r ? std::string() : r.error().message));
    return r->text;
}

// ---- a scripted HTTP server on 127.0.0.1: answers each connection with the next response
// (then with 202), keeps each request's head and body, stops when destroyed.

struct scripted_http {
    int fd = -1;
    unsigned short port = 0;
    std::vector<std::string> responses;
    std::mutex mutex;
    std::vector<std::string> requests;
    std::atomic<bool> stop{false};
    std::thread thread;

    explicit scripted_http(std::vector<std::string> r) : responses(std::move(r)) {
        fd = ::socket(AF_INET, SOCK_STREAM | SOCK_CLOEXEC, 0);
        REQUIRE(fd >= 0);
        sockaddr_in a{};
        a.sin_family = AF_INET;
        a.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
        REQUIRE(::bind(fd, reinterpret_cast<sockaddr*>(&a), sizeof a) == 0);
        REQUIRE(::listen(fd, 8) == 0);
        socklen_t len = sizeof a;
        ::getsockname(fd, reinterpret_cast<sockaddr*>(&a), &len);
        port = ntohs(a.sin_port);
        thread = std::thread([this] { run(); });
    }
    ~scripted_http() {
        stop.store(true);
        thread.join();
        ::close(fd);
    }
    void run() {
        for (std::size_t served = 0; served != 64 && !stop.load();) {
            pollfd p{fd, POLLIN, 0};
            if (::poll(&p, 1, 50) <= 0) continue;
            const int c = ::accept(fd, nullptr, nullptr);
            if (c < 0) continue;
            const timeval limit{20, 0};
            ::setsockopt(c, SOL_SOCKET, SO_RCVTIMEO, &limit, sizeof limit);
            std::string request;
            char buffer[4096];
            for (;;) {
                const std::size_t head = request.find("\r\n\r\n");
                if (head != std::string::npos) {
                    const std::size_t at = request.find("Content-Length: ");
                    const std::size_t length = at == std::string::npos ? 0 : std::stoul(request.substr(at + 16));
                    if (request.size() >= head + 4 + length) break;
                }
                const ::ssize_t n = ::recv(c, buffer, sizeof buffer, 0);
                if (n <= 0) break;
                request.append(buffer, std::size_t(n));
            }
            {
                std::lock_guard lock(mutex);
                requests.push_back(request);
            }
            const std::string response =
                served < responses.size() ? responses[served] : "HTTP/1.1 202 Accepted\r\nContent-Length: 0\r\n\r\n";
            ++served;
            ::send(c, response.data(), response.size(), MSG_NOSIGNAL);
            ::close(c);
        }
    }
    std::vector<std::string> received() {
        std::lock_guard lock(mutex);
        return requests;
    }
};

std::string initialize_answer(std::string_view extra_header) {
    const std::string body =
        R"({"jsonrpc":"2.0","id":1,"result":{"protocolVersion":"2025-11-25","capabilities":{},"serverInfo":{"name":"probe","version":"1"}}})";
    return "HTTP/1.1 200 OK\r\nContent-Type: application/json\r\n" + std::string(extra_header) +
           "Content-Length: " + std::to_string(body.size()) + "\r\n\r\n" + body;
}

// Runs `f` with standard error going to a file; returns what was written there.
template <class F>
std::string capture_stderr(F&& f) {
    std::fflush(stderr);
    std::FILE* file = std::tmpfile();
    REQUIRE(file);
    const int saved = ::dup(2);
    ::dup2(::fileno(file), 2);
    f();
    std::fflush(stderr);
    ::dup2(saved, 2);
    ::close(saved);
    std::string out;
    std::rewind(file);
    char buffer[4096];
    for (std::size_t n; (n = std::fread(buffer, 1, sizeof buffer, file)) != 0;) out.append(buffer, n);
    std::fclose(file);
    return out;
}

template <class D>
agentry::dynamic_tools_target target_of() {
    agentry::dynamic_tools_target t;
    t.kind = D::kind;
    t.rules = D::rules;
    t.taken = [](std::string_view) { return false; };
    return t;
}

} // namespace

// ---- fault: the environment of a spawned server

TEST_CASE("stdio client: an env entry replaces the inherited variable of that name") {
    ::setenv("HOME", "/parent-home", 1);
    auto c = start("env", {"HOME=/server-home"});
    CHECK(child_getenv(*c, "HOME") == "set:/server-home");
}

TEST_CASE("stdio client: OPENAI_API_KEY= leaves the server an empty key, not the parent's") {
    ::setenv("OPENAI_API_KEY", "sk-parent-secret-0123456789", 1);
    auto c = start("env", {"OPENAI_API_KEY="});
    const std::string seen = child_getenv(*c, "OPENAI_API_KEY");
    CHECK(seen == "set:");
    CHECK_FALSE(contains(seen, "sk-parent"));
    ::unsetenv("OPENAI_API_KEY");
}

TEST_CASE("stdio client: by default a server inherits neither API keys nor other unlisted variables") {
    ::setenv("ANTHROPIC_API_KEY", "sk-ant-parent-secret-0123456789", 1);
    ::setenv("AGENTRY_PROBE_TOKEN", "parent-token", 1);
    auto c = start("env");
    CHECK(child_getenv(*c, "ANTHROPIC_API_KEY") == "unset");
    CHECK(child_getenv(*c, "AGENTRY_PROBE_TOKEN") == "unset");
    CHECK(child_getenv(*c, "PATH") != "unset");  // the default allow-list keeps PATH
    ::unsetenv("ANTHROPIC_API_KEY");
    ::unsetenv("AGENTRY_PROBE_TOKEN");
}

// ---- fault: tools/list paging

TEST_CASE("list_tools: cursors alternating A, B, A are refused at the first repeat") {
    std::atomic<int> lists{0};
    mcp::client_options options;
    options.on_send = [&](std::string_view m) {
        if (contains(m, R"("method":"tools/list")")) ++lists;
    };
    auto c = start("cycle", {}, options);
    auto r = c->list_tools();
    REQUIRE_FALSE(r.has_value());
    CHECK(r.error().message ==
          R"(agentry: mcp::client: probe: tools/list: the server gave the nextCursor "A" a second time (page 3), )"
          R"(which would list the same pages again; the listing was stopped)");
    CHECK(lists.load() == 3);
}

TEST_CASE("list_tools: the pages together are bounded by client_options::max_list_size") {
    std::atomic<int> lists{0};
    mcp::client_options options;
    options.on_send = [&](std::string_view m) {
        if (contains(m, R"("method":"tools/list")")) ++lists;
    };
    auto c = start("big", {}, options);
    auto r = c->list_tools();  // 64 pages of 512 KiB: 32 MiB, past the default 16 MiB
    REQUIRE_FALSE(r.has_value());
    CHECK(contains(r.error().message, "agentry: mcp::client: probe: tools/list: the pages listed so far hold more "
                                      "than 16777216 bytes (client_options::max_list_size)"));
    CHECK(lists.load() < 40);
}

// ---- fault: names and text from servers

TEST_CASE("toolset: tool names with control bytes are refused in every dialect, reports escape them") {
    auto c = start("names");
    mcp::toolset tools;
    std::vector<std::string> reports;
    REQUIRE(tools.add(c, {.report = [&](std::string_view m) { reports.emplace_back(m); }}));
    const agentry::dynamic_tool_source source = tools;
    const auto check = [&](const agentry::dynamic_tools_target& target) {
        reports.clear();
        auto r = source(target);
        REQUIRE(r.has_value());
        REQUIRE(r->size() == 1);
        CHECK((*r)[0].name == "fine");
        REQUIRE(reports.size() == 2);
        for (const std::string& m : reports) CHECK_FALSE(has_control_byte(m));
        CHECK(contains(reports[0], R"(tool "evil\x0Aname")"));
        CHECK(contains(reports[1], R"(tool "bell\x07")"));
    };
    check(target_of<agentry::dialect::standard>());
    check(target_of<agentry::dialect::mcp>());
    check(target_of<agentry::dialect::openai>());
    check(target_of<agentry::dialect::anthropic>());
    check(target_of<agentry::dialect::gemini>());
}

TEST_CASE("toolset: the default report on standard error holds no control byte") {
    auto c = start("names");
    mcp::toolset tools;
    REQUIRE(tools.add(c));
    const agentry::dynamic_tool_source source = tools;
    for (const agentry::dynamic_tools_target& target :
         {target_of<agentry::dialect::standard>(), target_of<agentry::dialect::gemini>()}) {
        const std::string written = capture_stderr([&] { CHECK(source(target).has_value()); });
        CHECK(contains(written, "evil\\x0Aname"));
        CHECK(std::count(written.begin(), written.end(), '\n') == 2);  // one line per report
        std::string without_newlines = written;
        std::erase(without_newlines, '\n');
        CHECK_FALSE(has_control_byte(without_newlines));
    }
}

TEST_CASE("add_tools: any source's tool name with a control byte is refused, escaped") {
    const agentry::dynamic_tool_source source = [](const agentry::dynamic_tools_target&) {
        agentry::dynamic_tool t;
        t.name = "line\nbreak";
        t.definition = R"({"name":"x"})";
        t.call = [](std::string_view, const agentry::call_scope&) { return agentry::tool_result{}; };
        return agentry::outcome<std::vector<agentry::dynamic_tool>>(std::vector<agentry::dynamic_tool>{t});
    };
    agentry::detail::dynamic_context context;
    std::shared_ptr<agentry::detail::dynamic_state> state;
    agentry::detail::dynamic_addition added;
    auto r = agentry::detail::collect_dynamic_tools(source, context, "[]", state, added);
    REQUIRE_FALSE(r.has_value());
    CHECK(r.error().message == R"(agentry: agent::add_tools: the tool name "line\x0Abreak" holds a control character; )"
                               R"(a tool name must be printable; nothing was added)");
}

// ---- fault: messages read by rules of their own (a key twice, bytes that are not UTF-8, no size limit)

TEST_CASE("stdio client: a tools/call result with a key twice is refused, naming the key") {
    auto c = start("dup_call");
    auto r = c->call_tool("pay", R"({"amount":1})");
    REQUIRE_FALSE(r.has_value());
    CHECK(contains(r.error().message, "agentry: mcp::client: probe: tools/call pay: the server wrote something that "
                                      "is not a JSON-RPC message on its standard output (/result/isError: duplicate "
                                      "property): "));
}

TEST_CASE("stdio client: a tools/list with a key twice is refused, naming the key") {
    auto c = start("dup_list");
    auto r = c->list_tools();
    REQUIRE_FALSE(r.has_value());
    CHECK(contains(r.error().message, "agentry: mcp::client: probe: tools/list: the server wrote something that is "
                                      "not a JSON-RPC message on its standard output (/result/tools/0/name: "
                                      "duplicate property): "));
}

TEST_CASE("stdio client: a tools/call result with bytes that are not UTF-8 is refused, the bytes escaped") {
    auto c = start("utf8_call");
    auto r = c->call_tool("pay", R"({"amount":1})");
    REQUIRE_FALSE(r.has_value());
    CHECK(contains(r.error().message, "agentry: mcp::client: probe: tools/call pay: the server wrote something that "
                                      "is not a JSON-RPC message on its standard output (invalid JSON at byte "));
    CHECK(contains(r.error().message, ": invalid UTF-8): "));
    CHECK(contains(r.error().message, R"(paid \xFF)"));
    CHECK(valid_utf8(r.error().message));
}

TEST_CASE("stdio client: a tools/list with bytes that are not UTF-8 is refused") {
    auto c = start("utf8_list");
    auto r = c->list_tools();
    REQUIRE_FALSE(r.has_value());
    CHECK(contains(r.error().message, "agentry: mcp::client: probe: tools/list: the server wrote something that is "
                                      "not a JSON-RPC message on its standard output (invalid JSON at byte "));
    CHECK(contains(r.error().message, ": invalid UTF-8): "));
    CHECK(valid_utf8(r.error().message));
}

TEST_CASE("stdio client: a tools/call result past client_options::max_message_size is refused") {
    mcp::client_options options;
    options.max_message_size = 64 * 1024;
    auto c = start("big_call", {}, options);
    auto r = c->call_tool("pay", R"({"amount":1})");
    REQUIRE_FALSE(r.has_value());
    CHECK(r.error().message == "agentry: mcp::client: probe: tools/call pay: the server sent a message longer than "
                               "the limit of 65536 bytes (client_options::max_message_size)");
}

std::string json_answer(std::string_view body) {
    return "HTTP/1.1 200 OK\r\nContent-Type: application/json\r\nContent-Length: " + std::to_string(body.size()) +
           "\r\n\r\n" + std::string(body);
}

TEST_CASE("http client: a tools/call result with a key twice, or bytes that are not UTF-8, is refused") {
    scripted_http server({
        initialize_answer(""),
        "HTTP/1.1 202 Accepted\r\nContent-Length: 0\r\n\r\n",
        json_answer(R"({"jsonrpc":"2.0","id":2,"result":{"content":[],"isError":false,"isError":true}})"),
        "HTTP/1.1 200 OK\r\nContent-Type: text/event-stream\r\n\r\ndata: "
        R"({"jsonrpc":"2.0","id":3,"result":{"content":[{"type":"text","text":"paid )" "\xFF" R"("}]}})" "\n\n",
        json_answer(R"({"jsonrpc":"2.0","id":4,"result":{"tools":[{"name":"a","name":"b","inputSchema":{}}]}})"),
    });
    auto c = mcp::client::connect(mcp::http_url{"http://127.0.0.1:" + std::to_string(server.port) + "/mcp"});
    REQUIRE_MESSAGE(c.has_value(), (c ? std::string() : c.error().message));
    auto r = (*c)->call_tool("pay");
    REQUIRE_FALSE(r.has_value());
    CHECK(contains(r.error().message, "agentry: mcp::client: probe: tools/call pay: the server sent something that "
                                      "is not a JSON-RPC message (/result/isError: duplicate property): "));
    r = (*c)->call_tool("pay");
    REQUIRE_FALSE(r.has_value());
    CHECK(contains(r.error().message, "agentry: mcp::client: probe: tools/call pay: the server sent something that "
                                      "is not a JSON-RPC message (invalid JSON at byte "));
    CHECK(contains(r.error().message, ": invalid UTF-8): "));
    CHECK(valid_utf8(r.error().message));
    auto l = (*c)->list_tools();
    REQUIRE_FALSE(l.has_value());
    CHECK(contains(l.error().message, "(/result/tools/0/name: duplicate property)"));
}

// ---- fault: the model's arguments of an MCP tool read by rules of their own, and checked
// without pattern or format

struct probe_tools {
    std::shared_ptr<mcp::client> client;
    std::atomic<int> calls{0};
    std::vector<agentry::dynamic_tool> tools;

    probe_tools() {
        mcp::client_options options;
        options.on_send = [this](std::string_view m) {
            if (contains(m, R"("method":"tools/call")")) ++calls;
        };
        client = start("pattern", {}, options);
        mcp::toolset set;
        REQUIRE(set.add(client));
        const agentry::dynamic_tool_source source = set;
        auto r = source(target_of<agentry::dialect::standard>());
        REQUIRE(r.has_value());
        tools = std::move(*r);
        REQUIRE(tools.size() == 2);
    }
    agentry::tool_result call(std::string_view name, std::string_view arguments) {
        for (const agentry::dynamic_tool& t : tools)
            if (t.name == name) return t.call(arguments, {});
        FAIL("no tool " << name);
        return {};
    }
};

TEST_CASE("toolset: arguments that break the inputSchema's pattern or format are refused before the call") {
    probe_tools p;
    agentry::tool_result r = p.call("lookup", R"({"code":"abc"})");
    CHECK(r.status == agentry::tool_status::invalid_arguments);
    CHECK(r.content == "lookup: invalid arguments: /code: must match the regular expression ^[A-Z]{3}$. Fix the "
                       "arguments and call lookup again.");
    r = p.call("lookup", R"({"code":"ABC","mail":"not an address"})");
    CHECK(r.status == agentry::tool_status::invalid_arguments);
    CHECK(r.content == "lookup: invalid arguments: /mail: must be a valid email. Fix the arguments and call lookup "
                       "again.");
    CHECK(p.calls.load() == 0);
    r = p.call("lookup", R"({"code":"ABC","mail":"a@example.com"})");
    CHECK(r.status == agentry::tool_status::ok);
    CHECK(r.content == "done");
    CHECK(p.calls.load() == 1);
}

TEST_CASE("toolset: a pattern that is not a regular expression leaves the tool out, as arguments cannot be checked") {
    auto c = start("bad_pattern");
    for (const bool check : {true, false}) {
        mcp::toolset set;
        std::vector<std::string> reports;
        REQUIRE(set.add(c, {.check_arguments = check, .report = [&](std::string_view m) { reports.emplace_back(m); }}));
        const agentry::dynamic_tool_source source = set;
        auto r = source(target_of<agentry::dialect::standard>());
        REQUIRE(r.has_value());
        if (!check) {  // nothing is checked: the server gets what the model sends
            CHECK(r->size() == 2);
            CHECK(reports.empty());
            continue;
        }
        REQUIRE(r->size() == 1);
        CHECK((*r)[0].name == "fine");
        REQUIRE(reports.size() == 1);
        CHECK(contains(reports[0], R"(agentry: mcp::toolset: server "probe", tool "odd": its inputSchema's pattern "([" )"
                                   R"(is not a valid ECMA-262 regular expression ()"));
        CHECK(contains(reports[0], "), so arguments cannot be checked against it; the tool was left out"));
    }
}

TEST_CASE("toolset: arguments with a key twice, bytes that are not UTF-8, or past the size limit never reach the server") {
    probe_tools p;
    agentry::tool_result r = p.call("pay", R"({"amount":1,"to":"friend","amount":1000000})");
    CHECK(r.status == agentry::tool_status::invalid_arguments);
    CHECK(r.content == "pay: invalid arguments: /amount: duplicate property. Send a JSON object and call pay again.");
    r = p.call("pay", "{\"amount\":1000000,\"to\":\"attacker\xff\"}");
    CHECK(r.status == agentry::tool_status::invalid_arguments);
    CHECK(r.content == "pay: invalid arguments: invalid JSON at byte 32: invalid UTF-8. Send a JSON object and call "
                       "pay again.");
    const std::string padded = R"({"amount":1,"to":"friend"})" + std::string(1100 * 1024, ' ');
    r = p.call("pay", padded);
    CHECK(r.status == agentry::tool_status::invalid_arguments);
    CHECK(r.content == "pay: invalid arguments: the arguments are " + std::to_string(padded.size()) +
                           " bytes long, more than the limit of 1048576. Send a JSON object and call pay again.");
    CHECK(p.calls.load() == 0);
    r = p.call("pay", R"({"amount":1,"to":"friend"})");
    CHECK(r.status == agentry::tool_status::ok);
    CHECK(p.calls.load() == 1);
}

TEST_CASE("http client: no Authorization over plain http:// to a host that is not loopback") {
    scripted_http server({initialize_answer("")});
    // 0.0.0.0 reaches this machine, but is not a loopback name: the rule looks at the URL only.
    auto c = mcp::client::connect(mcp::http_url{"http://0.0.0.0:" + std::to_string(server.port) + "/mcp",
                                                {{"Authorization", "Bearer probe-secret"}}});
    REQUIRE_FALSE(c.has_value());
    CHECK(c.error().message ==
          "agentry: mcp::client: refusing to send the credential header \"Authorization\" over plain http:// to "
          "'0.0.0.0', which is not a loopback address; reach the server through https:// with verification, or "
          "set http_url::allow_plain_http_credentials = true if the network path is trusted");
    for (const std::string& request : server.received()) CHECK_FALSE(contains(request, "probe-secret"));
}

TEST_CASE("http client: an Mcp-Session-Id that is not visible ASCII, or too long, is not echoed back") {
    for (const std::string& id : {std::string("abc\x01" "def"), std::string("abc\ndef"), std::string("has space"),
                                  std::string(1025, 'a')}) {
        scripted_http server({initialize_answer("Mcp-Session-Id: " + id + "\r\n")});
        auto c = mcp::client::connect(mcp::http_url{"http://127.0.0.1:" + std::to_string(server.port) + "/mcp"});
        REQUIRE_FALSE(c.has_value());
        CHECK(contains(c.error().message, "agentry: mcp::client: http://127.0.0.1:"));
        CHECK(contains(c.error().message, "initialize: the server's Mcp-Session-Id"));
        CHECK(contains(c.error().message, "visible ASCII (0x21 to 0x7E), at most 1024 bytes"));
        CHECK_FALSE(has_control_byte(c.error().message));
        const std::vector<std::string> requests = server.received();
        for (std::size_t i = 1; i < requests.size(); ++i) CHECK_FALSE(contains(requests[i], "Mcp-Session-Id"));
    }
}

int main(int argc, char** argv) {
    if (argc == 3 && std::string_view(argv[1]) == "--serve") return serve(argv[2]);
    char path[4096];
    const ::ssize_t n = ::readlink("/proc/self/exe", path, sizeof path - 1);
    self = n > 0 ? std::string(path, std::size_t(n)) : std::string(argv[0]);
    return doctest::Context(argc, argv).run();
}
