// SPDX-License-Identifier: BSL-1.0
// The server features beyond tools: the stateless 2026-07-28 revision, batches (2025-03-26),
// logging, annotations derived from tool policies, resources and prompts.
#include <agentry/mcp/server.hpp>
#include <agentry/mcp/stdio.hpp>
#include <agentry/stop_token.hpp>

#include "tools.hpp"

#include <doctest/doctest.h>

#include <functional>
#include <optional>
#include <sstream>
#include <stdexcept>
#include <string>
#include <string_view>
#include <vector>

namespace {

using namespace std::string_literals;
namespace mcp = agentry::mcp;
using agentry::permission;
using agentry::tool_policy;
using agentry::with_policy;

std::string chatty(std::string text) {
    mcp::log(mcp::log_level::debug, "debug: " + text);
    mcp::log(mcp::log_level::warning, "warning: " + text, "chatty");
    mcp::log(mcp::log_level::error, std::vector<int>{1, 2});
    return text;
}

constexpr agentry::registry policied{
    with_policy<tool_policy{.level = permission::read_only}>(
        agentry::tool<"look", "Reads", "x">(+[](int x) { return x; })),
    with_policy<tool_policy{.level = permission::write, .idempotent = true}>(
        agentry::tool<"set", "Writes", "x">(+[](int x) { return x; })),
    with_policy<tool_policy{.level = permission::destructive}>(
        agentry::tool<"drop", "Destroys", "x">(+[](int x) { return x; })),
    agentry::tool<"plain", "No policy", "x">(+[](int x) { return x; }),
    agentry::tool<"chatty", "Logs", "text">(chatty),
};

enum class unit { celsius, fahrenheit };
struct city_ref {
    std::string city;
};
struct forecast_ref {
    std::string city;
    unit u;
};
struct review_args {
    std::string code;
    std::optional<std::string> focus;
    static constexpr auto docs = agentry::field_docs("code", "The code to review");
};

std::string review(const review_args& a) {
    if (a.code == "boom") throw std::runtime_error("cannot review");
    return "Review" + (a.focus ? " for " + *a.focus : ""s) + ":\n" + a.code;
}

const mcp::server full{
    policied,
    {.name = "full", .version = "2"},
    mcp::annotations<"set">{.title = "Set", .idempotent = false, .open_world = false},
    mcp::resource<"docs://readme", "readme">(+[] { return "Read me"s; },
                                              {.description = "The readme", .mime_type = "text/markdown", .title = "README"}),
    mcp::resource<"docs://numbers", "numbers">(+[] { return std::vector<int>{1, 2}; }),
    mcp::resource_template<"weather://{city}/{u}/now", "weather">(+[](const forecast_ref& r) {
        return r.city + (r.u == unit::celsius ? " C" : " F");
    }),
    mcp::resource_template<"city://{city}", "city">(+[](const city_ref& r) {
        if (r.city == "Atlantis") throw std::runtime_error("sunk");
        return r.city;
    }),
    mcp::prompt<"review", "Asks for a review">(review, "Review"),
    mcp::prompt<"hello", "Says hello">(+[] {
        return std::vector<mcp::prompt_message>{{mcp::role::user, "Hi"}, {mcp::role::assistant, "Hello!"}};
    }),
    mcp::ceiling<permission::destructive>,
};

std::string initialize(std::string_view version) {
    return R"({"jsonrpc":"2.0","id":0,"method":"initialize","params":{"protocolVersion":")"s + std::string(version) +
           "\"}}";
}

struct at {
    mcp::session session;
    std::vector<std::string> sent;
    mcp::message_sink sink = [this](std::string_view m) { sent.emplace_back(m); };
    explicit at(std::string_view version) { REQUIRE(!full.handle(session, initialize(version)).empty()); }
    std::string operator()(std::string_view message) { return full.handle(session, message, 1 << 20, sink); }
};

constexpr std::string_view meta_2026 =
    R"("_meta":{"io.modelcontextprotocol/protocolVersion":"2026-07-28","io.modelcontextprotocol/clientCapabilities":{}})";

std::string stateless(std::string_view id, std::string_view method, std::string_view params = {}) {
    return R"({"jsonrpc":"2.0","id":)"s + std::string(id) + R"(,"method":")" + std::string(method) +
           R"(","params":{)" + std::string(meta_2026) + (params.empty() ? "" : ",") + std::string(params) + "}}";
}

} // namespace

TEST_CASE("annotations: derived from the tool's policy, mcp::annotations member by member over them") {
    const std::string list(full.tools_list("2025-11-25"));
    CHECK(list.find(R"("name":"look")") != std::string::npos);
    CHECK(list.find(R"(,"annotations":{"readOnlyHint":true}},{"name":"set")") != std::string::npos);
    CHECK(list.find(R"(,"title":"Set","annotations":{"readOnlyHint":false,"destructiveHint":false,"idempotentHint":false,"openWorldHint":false}},{"name":"drop")") !=
          std::string::npos);
    CHECK(list.find(R"(,"annotations":{"readOnlyHint":false,"destructiveHint":true,"idempotentHint":false}},{"name":"plain")") !=
          std::string::npos);
    // Without a policy: nothing derived.
    CHECK(list.find(R"("additionalProperties":false}},{"name":"chatty")") != std::string::npos);
    // 2025-03-26: the title inside the annotations; 2024-11-05: no annotations.
    CHECK(std::string(full.tools_list("2025-03-26")).find(R"("annotations":{"title":"Set","readOnlyHint":false,)") !=
          std::string::npos);
    CHECK(std::string(full.tools_list("2024-11-05")).find("annotations") == std::string::npos);
}

TEST_CASE("initialize: capabilities for logging, resources and prompts") {
    mcp::session s;
    CHECK(full.handle(s, initialize("2025-06-18")) ==
          R"({"jsonrpc":"2.0","id":0,"result":{"protocolVersion":"2025-06-18","capabilities":{"tools":{"listChanged":false},)"
          R"("logging":{},"resources":{"subscribe":true,"listChanged":false},"prompts":{"listChanged":false}},"serverInfo":{"name":"full","version":"2"}}})");
}

TEST_CASE("2026-07-28: server/discover and stateless requests with resultType") {
    mcp::session s;  // never initialized
    const std::string discover = R"({"supportedVersions":["2024-11-05","2025-03-26","2025-06-18","2025-11-25","2026-07-28"],)"
                                 R"("capabilities":{"tools":{"listChanged":false},"logging":{},"resources":{"listChanged":false},)"
                                 R"("prompts":{"listChanged":false}},"resultType":"complete","cacheScope":"public","ttlMs":0})";
    CHECK(full.handle(s, stateless("1", "server/discover")) == R"({"jsonrpc":"2.0","id":1,"result":)" + discover + "}");
    // Discovery needs no _meta.
    CHECK(full.handle(s, R"({"jsonrpc":"2.0","id":2,"method":"server/discover"})") ==
          R"({"jsonrpc":"2.0","id":2,"result":)" + discover + "}");
    const std::string list = full.handle(s, stateless("3", "tools/list"));
    CHECK(list == R"({"jsonrpc":"2.0","id":3,"result":)" + std::string(full.tools_list("2026-07-28")).substr(0, full.tools_list("2026-07-28").size() - 1) +
                      R"(,"resultType":"complete","cacheScope":"public","ttlMs":0}})");
    CHECK(full.handle(s, stateless("4", "tools/call", R"("name":"look","arguments":{"x":7})")) ==
          R"({"jsonrpc":"2.0","id":4,"result":{"content":[{"type":"text","text":"7"}],"isError":false,"resultType":"complete"}})");
    CHECK(full.handle(s, stateless("5", "resources/read", R"("uri":"docs://readme")")) ==
          R"({"jsonrpc":"2.0","id":5,"result":{"contents":[{"uri":"docs://readme","mimeType":"text/markdown","text":"Read me"}],)"
          R"("resultType":"complete","cacheScope":"public","ttlMs":0}})");
    CHECK(full.handle(s, stateless("6", "prompts/get", R"("name":"hello")")).ends_with(R"(}}],"resultType":"complete"}})"));
    // No initialize and no logging/setLevel in 2026-07-28.
    CHECK(full.handle(s, stateless("7", "logging/setLevel", R"("level":"info")")) ==
          R"({"jsonrpc":"2.0","id":7,"error":{"code":-32601,"message":"Method not found: \"logging/setLevel\""}})");
    CHECK(full.handle(s, stateless("8", "initialize", R"("protocolVersion":"2025-11-25")")) ==
          R"({"jsonrpc":"2.0","id":8,"error":{"code":-32601,"message":"Method not found: \"initialize\""}})");
    CHECK(!s.initialized());
    // A version not served.
    CHECK(full.handle(s, R"({"jsonrpc":"2.0","id":9,"method":"tools/list","params":{"_meta":{"io.modelcontextprotocol/protocolVersion":"2030-01-01"}}})") ==
          R"({"jsonrpc":"2.0","id":9,"error":{"code":-32022,"message":"Unsupported protocol version \"2030-01-01\"",)"
          R"("data":{"requested":"2030-01-01","supported":["2024-11-05","2025-03-26","2025-06-18","2025-11-25","2026-07-28"]}}})");
    CHECK(full.handle(s, R"({"jsonrpc":"2.0","id":10,"method":"tools/list","params":{"_meta":{"io.modelcontextprotocol/protocolVersion":5}}})")
              .starts_with(R"({"jsonrpc":"2.0","id":10,"error":{"code":-32022,"message":"Unsupported protocol version \"(not a string)\"")"));
    // A served version in _meta: the session's rules apply.
    CHECK(full.handle(s, R"({"jsonrpc":"2.0","id":11,"method":"tools/list","params":{"_meta":{"io.modelcontextprotocol/protocolVersion":"2025-11-25"}}})")
              .find("\"code\":-32600") != std::string::npos);
}

TEST_CASE("2026-07-28: log messages only at the level the request asks for in _meta") {
    mcp::session s;
    std::vector<std::string> sent;
    const mcp::message_sink sink = [&](std::string_view m) { sent.emplace_back(m); };
    const std::string quiet = stateless("1", "tools/call", R"("name":"chatty","arguments":{"text":"a"})");
    CHECK(full.handle(s, quiet, 1 << 20, sink).find(R"("text":"a")") != std::string::npos);
    CHECK(sent.empty());
    const std::string loud = R"({"jsonrpc":"2.0","id":2,"method":"tools/call","params":{"_meta":{"io.modelcontextprotocol/protocolVersion":"2026-07-28",)"
                             R"("io.modelcontextprotocol/clientCapabilities":{},"io.modelcontextprotocol/logLevel":"warning"},"name":"chatty","arguments":{"text":"b"}}})";
    full.handle(s, loud, 1 << 20, sink);
    CHECK(sent == std::vector<std::string>{
                      R"({"jsonrpc":"2.0","method":"notifications/message","params":{"level":"warning","logger":"chatty","data":"warning: b"}})",
                      R"({"jsonrpc":"2.0","method":"notifications/message","params":{"level":"error","data":[1,2]}})"});
}

TEST_CASE("logging: logging/setLevel, then the tool's messages at that level or above") {
    at r("2025-11-25");
    CHECK(r(R"({"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"chatty","arguments":{"text":"x"}}})").find("isError\":false") !=
          std::string::npos);
    CHECK(r.sent.empty());  // no level set: nothing
    CHECK(r(R"({"jsonrpc":"2.0","id":2,"method":"logging/setLevel","params":{"level":"debug"}})") ==
          R"({"jsonrpc":"2.0","id":2,"result":{}})");
    r(R"({"jsonrpc":"2.0","id":3,"method":"tools/call","params":{"name":"chatty","arguments":{"text":"y"}}})");
    CHECK(r.sent.size() == 3);
    CHECK(r.sent[0] == R"({"jsonrpc":"2.0","method":"notifications/message","params":{"level":"debug","data":"debug: y"}})");
    CHECK(r(R"({"jsonrpc":"2.0","id":4,"method":"logging/setLevel","params":{"level":"error"}})") ==
          R"({"jsonrpc":"2.0","id":4,"result":{}})");
    r.sent.clear();
    r(R"({"jsonrpc":"2.0","id":5,"method":"tools/call","params":{"name":"chatty","arguments":{"text":"z"}}})");
    CHECK(r.sent.size() == 1);
    CHECK(r(R"({"jsonrpc":"2.0","id":6,"method":"logging/setLevel","params":{"level":"loud"}})") ==
          R"({"jsonrpc":"2.0","id":6,"error":{"code":-32602,"message":"Invalid params: /level: \"loud\" is not one of [\"debug\",\"info\",\"notice\",\"warning\",\"error\",\"critical\",\"alert\",\"emergency\"]"}})");
    CHECK(r(R"({"jsonrpc":"2.0","id":7,"method":"logging/setLevel","params":{}})") ==
          R"({"jsonrpc":"2.0","id":7,"error":{"code":-32602,"message":"Invalid params: /level: missing required property"}})");
    // Outside a request, log does nothing.
    CHECK(!mcp::log_enabled(mcp::log_level::emergency));
    mcp::log(mcp::log_level::emergency, "nowhere");
    CHECK(chatty("direct") == "direct");
}

TEST_CASE("batches: answered as an array in a 2025-03-26 session only") {
    at r("2025-03-26");
    CHECK(r(R"([{"jsonrpc":"2.0","id":1,"method":"ping"},{"jsonrpc":"2.0","method":"notifications/initialized"},)"
            R"({"jsonrpc":"2.0","id":"b","method":"tools/call","params":{"name":"look","arguments":{"x":3}}}])") ==
          R"([{"jsonrpc":"2.0","id":1,"result":{}},{"jsonrpc":"2.0","id":"b","result":{"content":[{"type":"text","text":"3"}],"isError":false}}])");
    // Only notifications: nothing to answer.
    CHECK(r(R"([{"jsonrpc":"2.0","method":"notifications/initialized"}])").empty());
    // Invalid members are answered in place; initialize is refused in a batch.
    CHECK(r(R"([1,{"jsonrpc":"2.0","id":2,"method":"initialize","params":{"protocolVersion":"2025-03-26"}},[]])") ==
          R"([{"jsonrpc":"2.0","error":{"code":-32600,"message":"Invalid Request: expected an object, got a number 1"}},)"
          R"({"jsonrpc":"2.0","id":2,"error":{"code":-32600,"message":"Invalid Request: initialize cannot be part of a batch"}},)"
          R"({"jsonrpc":"2.0","error":{"code":-32600,"message":"Invalid Request: a batch inside a batch"}}])");
    CHECK(r("[]") == R"({"jsonrpc":"2.0","error":{"code":-32600,"message":"Invalid Request: an empty batch"}})");
    CHECK(r("[1,") == R"({"jsonrpc":"2.0","error":{"code":-32700,"message":"Parse error: invalid JSON at byte 3: unexpected end of input"}})");
    at later("2025-06-18");
    CHECK(later(R"([{"jsonrpc":"2.0","id":1,"method":"ping"}])") ==
          R"({"jsonrpc":"2.0","error":{"code":-32600,"message":"Invalid Request: JSON-RPC batches are only served in a 2025-03-26 session; send one message at a time"}})");
}

TEST_CASE("resources: list, templates, read, errors") {
    at r("2025-11-25");
    CHECK(r(R"({"jsonrpc":"2.0","id":1,"method":"resources/list"})") ==
          R"({"jsonrpc":"2.0","id":1,"result":{"resources":[{"uri":"docs://readme","name":"readme","title":"README",)"
          R"("description":"The readme","mimeType":"text/markdown"},{"uri":"docs://numbers","name":"numbers","mimeType":"application/json"}]}})");
    CHECK(r(R"({"jsonrpc":"2.0","id":2,"method":"resources/templates/list"})") ==
          R"({"jsonrpc":"2.0","id":2,"result":{"resourceTemplates":[{"uriTemplate":"weather://{city}/{u}/now","name":"weather","mimeType":"text/plain"},)"
          R"({"uriTemplate":"city://{city}","name":"city","mimeType":"text/plain"}]}})");
    CHECK(r(R"({"jsonrpc":"2.0","id":3,"method":"resources/read","params":{"uri":"docs://numbers"}})") ==
          R"({"jsonrpc":"2.0","id":3,"result":{"contents":[{"uri":"docs://numbers","mimeType":"application/json","text":"[1,2]"}]}})");
    CHECK(r(R"({"jsonrpc":"2.0","id":4,"method":"resources/read","params":{"uri":"city://New%20York"}})") ==
          R"({"jsonrpc":"2.0","id":4,"result":{"contents":[{"uri":"city://New%20York","mimeType":"text/plain","text":"New York"}]}})");
    CHECK(r(R"({"jsonrpc":"2.0","id":5,"method":"resources/read","params":{"uri":"city://a/b"}})") ==
          R"({"jsonrpc":"2.0","id":5,"error":{"code":-32002,"message":"Resource not found: \"city://a/b\""}})");
    CHECK(r(R"({"jsonrpc":"2.0","id":6,"method":"resources/read","params":{"uri":"city://Atlantis"}})") ==
          R"({"jsonrpc":"2.0","id":6,"error":{"code":-32002,"message":"Resource template \"city://{city}\" cannot be read for \"city://Atlantis\": sunk"}})");
    // A template variable read as an enum member that is not one of its values.
    CHECK(r(R"({"jsonrpc":"2.0","id":7,"method":"resources/read","params":{"uri":"weather://Oslo/kelvin/now"}})") ==
          R"({"jsonrpc":"2.0","id":7,"error":{"code":-32002,"message":"Resource template \"weather://{city}/{u}/now\" cannot be read for \"weather://Oslo/kelvin/now\": /u: \"kelvin\" is not one of [\"celsius\",\"fahrenheit\"]"}})");
    CHECK(r(R"({"jsonrpc":"2.0","id":10,"method":"resources/read","params":{"uri":"weather://Oslo/fahrenheit/now"}})") ==
          R"({"jsonrpc":"2.0","id":10,"result":{"contents":[{"uri":"weather://Oslo/fahrenheit/now","mimeType":"text/plain","text":"Oslo F"}]}})");
    CHECK(r(R"({"jsonrpc":"2.0","id":8,"method":"resources/read","params":{}})") ==
          R"({"jsonrpc":"2.0","id":8,"error":{"code":-32602,"message":"Invalid params: /uri: missing required property"}})");
    CHECK(r(R"({"jsonrpc":"2.0","id":9,"method":"resources/list","params":{"cursor":"c"}})") ==
          R"({"jsonrpc":"2.0","id":9,"error":{"code":-32602,"message":"Invalid params: /cursor: unknown cursor"}})");
    // 2024-11-05 has no titles.
    at old("2024-11-05");
    CHECK(old(R"({"jsonrpc":"2.0","id":1,"method":"resources/list"})").find("README") == std::string::npos);
}

TEST_CASE("resources: level 1 URI templates") {
    std::string out;
    CHECK(mcp::detail::match_uri_template("a://{x}/b/{y}", "a://1/b/2%2F3", out));
    CHECK(out == R"({"x":"1","y":"2/3"})");
    CHECK(!mcp::detail::match_uri_template("a://{x}/b", "a:///b", out));
    CHECK(!mcp::detail::match_uri_template("a://{x}/b", "a://1/c", out));
    CHECK(!mcp::detail::match_uri_template("a://{x}", "b://1", out));
    CHECK(mcp::detail::match_uri_template("a://{x}.json", "a://f.json", out));
    CHECK(out == R"({"x":"f"})");
    static_assert(mcp::detail::parse_uri_template("a://{x}/{y}").count == 2);
    static_assert(!mcp::detail::parse_uri_template("a://{x}{y}").ok);
    static_assert(!mcp::detail::parse_uri_template("a://{x").ok);
    static_assert(!mcp::detail::parse_uri_template("a://{}").ok);
}

TEST_CASE("prompts: arguments reflected from the struct, get") {
    static_assert(mcp::detail::prompt_arguments<review_args>.size() == 2);
    static_assert(mcp::detail::prompt_arguments<review_args>[0].name == "code");
    static_assert(mcp::detail::prompt_arguments<review_args>[0].required);
    static_assert(!mcp::detail::prompt_arguments<review_args>[1].required);
    at r("2025-11-25");
    CHECK(r(R"({"jsonrpc":"2.0","id":1,"method":"prompts/list"})") ==
          R"({"jsonrpc":"2.0","id":1,"result":{"prompts":[{"name":"review","title":"Review","description":"Asks for a review",)"
          R"("arguments":[{"name":"code","description":"The code to review","required":true},{"name":"focus","required":false}]},)"
          R"({"name":"hello","description":"Says hello","arguments":[]}]}})");
    CHECK(r(R"({"jsonrpc":"2.0","id":2,"method":"prompts/get","params":{"name":"review","arguments":{"code":"x++","focus":"style"}}})") ==
          R"({"jsonrpc":"2.0","id":2,"result":{"description":"Asks for a review","messages":[{"role":"user","content":{"type":"text","text":"Review for style:\nx++"}}]}})");
    CHECK(r(R"({"jsonrpc":"2.0","id":3,"method":"prompts/get","params":{"name":"hello"}})") ==
          R"({"jsonrpc":"2.0","id":3,"result":{"description":"Says hello","messages":[{"role":"user","content":{"type":"text","text":"Hi"}},)"
          R"({"role":"assistant","content":{"type":"text","text":"Hello!"}}]}})");
    CHECK(r(R"({"jsonrpc":"2.0","id":4,"method":"prompts/get","params":{"name":"review","arguments":{"focus":"x","cod":"y"}}})") ==
          R"({"jsonrpc":"2.0","id":4,"error":{"code":-32602,"message":"Invalid params: /arguments/cod: unknown property; did you mean \"code\"?; /arguments/code: missing required property"}})");
    CHECK(r(R"({"jsonrpc":"2.0","id":5,"method":"prompts/get","params":{"name":"hello","arguments":{"a":"b"}}})") ==
          R"({"jsonrpc":"2.0","id":5,"error":{"code":-32602,"message":"Invalid params: /arguments: this prompt takes no arguments"}})");
    CHECK(r(R"({"jsonrpc":"2.0","id":6,"method":"prompts/get","params":{"name":"revue"}})") ==
          R"({"jsonrpc":"2.0","id":6,"error":{"code":-32602,"message":"Invalid params: unknown prompt \"revue\"; prompts: review, hello"}})");
    CHECK(r(R"({"jsonrpc":"2.0","id":7,"method":"prompts/get","params":{"name":"review","arguments":{"code":"boom"}}})") ==
          R"({"jsonrpc":"2.0","id":7,"error":{"code":-32603,"message":"Prompt \"review\" failed: cannot review"}})");
    CHECK(r(R"({"jsonrpc":"2.0","id":8,"method":"prompts/get","params":{"name":"review","arguments":{"code":1}}})") ==
          R"({"jsonrpc":"2.0","id":8,"error":{"code":-32602,"message":"Invalid params: /arguments/code: expected a string, got a number 1"}})");
}

TEST_CASE("stdio: notifications are lines before the answer") {
    std::istringstream in(initialize("2025-11-25") + "\n" +
                          R"({"jsonrpc":"2.0","id":1,"method":"logging/setLevel","params":{"level":"error"}})" + "\n" +
                          R"({"jsonrpc":"2.0","id":2,"method":"tools/call","params":{"name":"chatty","arguments":{"text":"q"}}})" + "\n");
    std::ostringstream out;
    CHECK(mcp::serve(full, in, out, {.log = nullptr}) == 0);
    const std::string text = out.str();
    const std::size_t log = text.find(R"({"jsonrpc":"2.0","method":"notifications/message","params":{"level":"error","data":[1,2]}})");
    const std::size_t answer = text.find(R"({"jsonrpc":"2.0","id":2,"result")");
    CHECK(log != std::string::npos);
    CHECK(answer != std::string::npos);
    CHECK(log < answer);
}

namespace {

struct app_session {
    int id = 0;
    int calls = 0;
};

int sessions_made = 0;
std::function<void()> inside_wait;

std::string count(agentry::context<app_session> s) {
    ++s->calls;
    return std::to_string(s->id) + ":" + std::to_string(s->calls);
}

int steps(agentry::progress p, int n) {
    for (int i = 1; i <= n; ++i) p.report(i, n, "step " + std::to_string(i));
    p.report(1);  // not above the last: dropped
    return n;
}

bool wait_for_stop(agentry::stop_token stop, agentry::context<app_session>) {
    if (inside_wait) inside_wait();
    return stop.stop_requested();
}

constexpr agentry::registry injected{
    agentry::tool<"count", "Counts the session's calls">(count),
    agentry::tool<"steps", "Reports progress", "n">(steps),
    agentry::tool<"wait_for_stop", "Sees its cancellation">(wait_for_stop),
};

const mcp::server injected_server{injected, {.name = "i", .version = "1"},
                                  mcp::session_context([] { return app_session{++sessions_made, 0}; })};

} // namespace

TEST_CASE("per-session context: made once per session by the factory, given to the tools") {
    const int before = sessions_made;
    mcp::session a;
    mcp::session b;
    injected_server.handle(a, initialize("2025-11-25"));
    injected_server.handle(b, initialize("2025-11-25"));
    const std::string call = R"({"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"count"}})";
    CHECK(injected_server.handle(a, call).find(R"("text":")" + std::to_string(before + 1) + R"(:1")") != std::string::npos);
    CHECK(injected_server.handle(a, call).find(R"("text":")" + std::to_string(before + 1) + R"(:2")") != std::string::npos);
    CHECK(injected_server.handle(b, call).find(R"("text":")" + std::to_string(before + 2) + R"(:1")") != std::string::npos);
    CHECK(sessions_made == before + 2);
    // The schema does not show the injected parameters.
    CHECK(std::string(injected_server.tools_list()).find(R"({"name":"steps","description":"Reports progress","inputSchema":{"type":"object","properties":{"n":{"type":"integer")") !=
          std::string::npos);
    // The unknown-tool answer still names the tools.
    CHECK(injected_server.handle(a, R"({"jsonrpc":"2.0","id":2,"method":"tools/call","params":{"name":"cont"}})") ==
          R"({"jsonrpc":"2.0","id":2,"error":{"code":-32602,"message":"unknown tool \"cont\" (did you mean \"count\"?). Available tools: count, steps, wait_for_stop."}})");
}

TEST_CASE("per-session context: a factory that throws is an internal error") {
    const mcp::server failing{injected, {}, mcp::session_context([](const mcp::identity*) -> app_session {
                                  throw std::runtime_error("database down");
                              })};
    mcp::session s;
    failing.handle(s, initialize("2025-11-25"));
    CHECK(failing.handle(s, R"({"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"count"}})") ==
          R"({"jsonrpc":"2.0","id":1,"error":{"code":-32603,"message":"Internal error: the session's context could not be made: database down"}})");
}

TEST_CASE("progress: notifications/progress with the request's token, increasing only") {
    for (const std::string_view version : {"2024-11-05", "2025-11-25"}) {
        CAPTURE(version);
        mcp::session s;
        std::vector<std::string> sent;
        const mcp::message_sink sink = [&](std::string_view m) { sent.emplace_back(m); };
        injected_server.handle(s, initialize(version));
        const std::string answer = injected_server.handle(
            s, R"({"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"steps","arguments":{"n":2},"_meta":{"progressToken":"t1"}}})",
            1 << 20, sink);
        CHECK(answer.find(R"("text":"2")") != std::string::npos);
        const std::string message = version == "2024-11-05" ? "" : R"(,"message":"step 1")";
        REQUIRE(sent.size() == 2);
        CHECK(sent[0] == R"({"jsonrpc":"2.0","method":"notifications/progress","params":{"progressToken":"t1","progress":1,"total":2)" +
                             message + "}}");
        // Without a token, or without a sink: nothing.
        sent.clear();
        injected_server.handle(s, R"({"jsonrpc":"2.0","id":2,"method":"tools/call","params":{"name":"steps","arguments":{"n":2}}})",
                               1 << 20, sink);
        CHECK(sent.empty());
        CHECK(injected_server.handle(s, R"({"jsonrpc":"2.0","id":3,"method":"tools/call","params":{"name":"steps","arguments":{"n":2},"_meta":{"progressToken":7}}})")
                  .find(R"("text":"2")") != std::string::npos);
    }
}

TEST_CASE("notifications/cancelled reaches the running tool's agentry::stop_token") {
    mcp::session s;
    injected_server.handle(s, initialize("2025-11-25"));
    bool seen = false;
    inside_wait = [&] {
        CHECK(!s.stop_token("\"w\"").stop_requested());
        injected_server.handle(s, R"({"jsonrpc":"2.0","method":"notifications/cancelled","params":{"requestId":"w"}})");
        seen = s.stop_token("\"w\"").stop_requested();
    };
    // The answer of a cancelled request is not sent.
    CHECK(injected_server.handle(s, R"({"jsonrpc":"2.0","id":"w","method":"tools/call","params":{"name":"wait_for_stop"}})").empty());
    CHECK(seen);
    inside_wait = nullptr;
    CHECK(injected_server.handle(s, R"({"jsonrpc":"2.0","id":"w","method":"tools/call","params":{"name":"wait_for_stop"}})")
              .find(R"("text":"false")") != std::string::npos);
}
