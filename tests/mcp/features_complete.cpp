// SPDX-License-Identifier: BSL-1.0
// completion/complete (completers of prompt arguments and resource template variables) and
// resource subscriptions (resources/subscribe, resources/unsubscribe, and
// notify_resource_updated over a session, stdio, the HTTP endpoint and a real HTTP socket).
#include <agentry/mcp/http.hpp>
#include <agentry/mcp/server.hpp>
#include <agentry/mcp/stdio.hpp>

#include <doctest/doctest.h>

#include <boost/asio/io_context.hpp>
#include <boost/asio/ip/tcp.hpp>
#include <boost/asio/read_until.hpp>
#include <boost/beast/core/flat_buffer.hpp>
#include <boost/beast/http/read.hpp>
#include <boost/beast/http/string_body.hpp>
#include <boost/beast/http/write.hpp>

#include <chrono>
#include <cstddef>
#include <initializer_list>
#include <optional>
#include <sstream>
#include <stdexcept>
#include <string>
#include <string_view>
#include <thread>
#include <type_traits>
#include <utility>
#include <vector>

namespace {

using namespace std::string_literals;
namespace mcp = agentry::mcp;
namespace http = boost::beast::http;

struct review_args {
    std::string code;
    std::optional<std::string> language;
    std::optional<std::string> focus;
};

std::string review(const review_args& a) { return "Review " + a.language.value_or("code") + ":\n" + a.code; }

std::vector<std::string> starting_with(std::string_view partial, std::initializer_list<std::string_view> all) {
    std::vector<std::string> out;
    for (std::string_view candidate : all)
        if (candidate.starts_with(partial)) out.emplace_back(candidate);
    return out;
}

std::vector<std::string> languages(std::string_view partial) {
    return starting_with(partial, {"c", "c++", "cobol", "python", "rust"});
}

// What to look at depends on the language already given.
std::vector<std::string> focuses(std::string_view partial, const mcp::completion_arguments& given) {
    const auto language = given.find("language");
    if (language != given.end() && language->second == "python") return starting_with(partial, {"style", "typing"});
    return starting_with(partial, {"memory", "style"});
}

struct conformance_args {
    std::string arg1;
    std::string arg2;
};

struct note_ref {
    std::string folder;
    std::string id;
};

// 250 ids in each folder: <folder>-0 to <folder>-249.
std::vector<std::string> note_ids(std::string_view partial, const mcp::completion_arguments& given) {
    const auto folder = given.find("folder");
    const std::string prefix = (folder == given.end() ? "notes"s : folder->second) + "-";
    std::vector<std::string> out;
    for (int i = 0; i != 250; ++i)
        if (std::string id = prefix + std::to_string(i); id.starts_with(partial)) out.push_back(std::move(id));
    return out;
}

struct city_ref {
    std::string city;
};

int touch(std::string uri);

constexpr agentry::registry completing_tools{
    agentry::tool<"touch", "Tells the subscribers that a resource changed", "uri">(touch),
};
using completing_registry = std::remove_const_t<decltype(completing_tools)>;

const mcp::server completing{
    completing_tools,
    {.name = "complete", .version = "1"},
    mcp::prompt<"review", "Asks for a review">(review, "Review", mcp::completer<"language">(languages),
                                               mcp::completer<"focus">(focuses)),
    mcp::prompt<"hello", "Says hello">(+[] { return "Hello"s; }),
    mcp::prompt<"test_prompt_with_arguments", "Two arguments">(
        +[](const conformance_args& a) { return a.arg1 + a.arg2; },
        mcp::completer<"arg1">(+[](std::string_view v) {
            return std::vector<std::string>{std::string(v) + "is", std::string(v) + "ameter"};
        })),
    mcp::resource<"docs://readme", "readme">(+[] { return "Read me"s; }),
    mcp::resource_template<"notes://{folder}/{id}", "note">(+[](const note_ref& r) { return r.folder + "/" + r.id; },
                                                            {.mime_type = "text/markdown"},
                                                            mcp::completer<"id">(note_ids)),
    mcp::resource_template<"city://{city}", "city">(
        +[](const city_ref& r) { return r.city; },
        mcp::completer<"city">(+[](std::string_view) -> std::vector<std::string> {
            throw std::runtime_error("atlas missing");
        })),
};

int touch(std::string uri) { return static_cast<int>(completing.notify_resource_updated(uri)); }

// Resources and prompts, no completer.
const mcp::server plain{
    completing_tools,
    {.name = "plain", .version = "1"},
    mcp::resource<"docs://readme", "readme">(+[] { return "Read me"s; }),
    mcp::prompt<"hello", "Says hello">(+[] { return "Hello"s; }),
};

std::string initialize(std::string_view version) {
    return R"({"jsonrpc":"2.0","id":0,"method":"initialize","params":{"protocolVersion":")"s + std::string(version) +
           "\"}}";
}

std::string request(std::string_view id, std::string_view method, std::string_view params) {
    return R"({"jsonrpc":"2.0","id":)"s + std::string(id) + R"(,"method":")" + std::string(method) + R"(","params":)" +
           std::string(params) + "}";
}

std::string complete(std::string_view id, std::string_view params) { return request(id, "completion/complete", params); }

std::string subscribe(std::string_view id, std::string_view uri, std::string_view method = "resources/subscribe") {
    return request(id, method, R"({"uri":")"s + std::string(uri) + "\"}");
}

std::string result(std::string_view id, std::string_view body) {
    return R"({"jsonrpc":"2.0","id":)"s + std::string(id) + R"(,"result":)" + std::string(body) + "}";
}

std::string error(std::string_view id, int code, std::string_view message) {
    return R"({"jsonrpc":"2.0","id":)"s + std::string(id) + R"(,"error":{"code":)" + std::to_string(code) +
           R"(,"message":")" + std::string(message) + "\"}}";
}

std::string updated(std::string_view uri) {
    return R"({"jsonrpc":"2.0","method":"notifications/resources/updated","params":{"uri":")"s + std::string(uri) +
           "\"}}";
}

// An initialized session of `srv`.
struct at {
    const mcp::server<completing_registry>& srv;
    mcp::session session;
    at(const mcp::server<completing_registry>& s, std::string_view version) : srv(s) {
        REQUIRE(srv.handle(session, initialize(version)).find("\"result\"") != std::string::npos);
    }
    std::string operator()(std::string_view message) { return srv.handle(session, message); }
};

} // namespace

static_assert(!mcp::features_of("2024-11-05").completions && mcp::features_of("2025-03-26").completions &&
              mcp::features_of("2026-07-28").completions);

TEST_CASE("completion: capabilities in initialize and server/discover") {
    mcp::session s;
    CHECK(completing.handle(s, initialize("2025-11-25")) ==
          result("0", R"({"protocolVersion":"2025-11-25","capabilities":{"tools":{"listChanged":false},"logging":{},)"
                      R"("resources":{"subscribe":true,"listChanged":false},"prompts":{"listChanged":false},"completions":{}},)"
                      R"("serverInfo":{"name":"complete","version":"1"}})"));
    // 2024-11-05 has completion/complete but no completions capability.
    mcp::session old;
    CHECK(completing.handle(old, initialize("2024-11-05")) ==
          result("0", R"({"protocolVersion":"2024-11-05","capabilities":{"tools":{"listChanged":false},"logging":{},)"
                      R"("resources":{"subscribe":true,"listChanged":false},"prompts":{"listChanged":false}},)"
                      R"("serverInfo":{"name":"complete","version":"1"}})"));
    // 2026-07-28 has no resources/subscribe.
    mcp::session none;
    CHECK(completing.handle(none, R"({"jsonrpc":"2.0","id":1,"method":"server/discover"})") ==
          result("1", R"({"supportedVersions":["2024-11-05","2025-03-26","2025-06-18","2025-11-25","2026-07-28"],)"
                      R"("capabilities":{"tools":{"listChanged":false},"logging":{},"resources":{"listChanged":false},)"
                      R"("prompts":{"listChanged":false},"completions":{}},"resultType":"complete","cacheScope":"public","ttlMs":0})"));
    // Without a completer: no capability, and the method is not served.
    mcp::session p;
    CHECK(plain.handle(p, initialize("2025-11-25")) ==
          result("0", R"({"protocolVersion":"2025-11-25","capabilities":{"tools":{"listChanged":false},"logging":{},)"
                      R"("resources":{"subscribe":true,"listChanged":false},"prompts":{"listChanged":false}},)"
                      R"("serverInfo":{"name":"plain","version":"1"}})"));
    CHECK(plain.handle(p, complete("1", R"({"ref":{"type":"ref/prompt","name":"hello"},"argument":{"name":"a","value":""}})")) ==
          error("1", -32601, R"(Method not found: \"completion/complete\")"));
    CHECK(completing.capabilities("2025-03-26").ends_with(R"("completions":{}})"));
}

TEST_CASE("completion: a prompt's arguments, filtered by the completer, with the context's arguments") {
    at r(completing, "2025-11-25");
    const auto language = [&](std::string_view value) {
        return r(complete("1", R"({"ref":{"type":"ref/prompt","name":"review"},"argument":{"name":"language","value":")"s +
                                   std::string(value) + "\"}}"));
    };
    CHECK(language("c") == result("1", R"({"completion":{"values":["c","c++","cobol"],"total":3,"hasMore":false}})"));
    CHECK(language("py") == result("1", R"({"completion":{"values":["python"],"total":1,"hasMore":false}})"));
    CHECK(language("") ==
          result("1", R"({"completion":{"values":["c","c++","cobol","python","rust"],"total":5,"hasMore":false}})"));
    CHECK(language("zig") == result("1", R"({"completion":{"values":[],"total":0,"hasMore":false}})"));
    // The completer sees the arguments already given.
    CHECK(r(complete("2", R"({"ref":{"type":"ref/prompt","name":"review"},"argument":{"name":"focus","value":""},)"
                          R"("context":{"arguments":{"language":"python","code":"x = 1"}}})")) ==
          result("2", R"({"completion":{"values":["style","typing"],"total":2,"hasMore":false}})"));
    CHECK(r(complete("3", R"({"ref":{"type":"ref/prompt","name":"review"},"argument":{"name":"focus","value":""}})")) ==
          result("3", R"({"completion":{"values":["memory","style"],"total":2,"hasMore":false}})"));
    CHECK(r(complete("4", R"({"ref":{"type":"ref/prompt","name":"review"},"argument":{"name":"focus","value":"s"},"context":{}})")) ==
          result("4", R"({"completion":{"values":["style"],"total":1,"hasMore":false}})"));
    // An argument without a completer has no values.
    CHECK(r(complete("5", R"({"ref":{"type":"ref/prompt","name":"review"},"argument":{"name":"code","value":"x"}})")) ==
          result("5", R"({"completion":{"values":[],"total":0,"hasMore":false}})"));
    // The conformance suite's request.
    CHECK(r(complete("6", R"({"ref":{"type":"ref/prompt","name":"test_prompt_with_arguments"},"argument":{"name":"arg1","value":"par"}})")) ==
          result("6", R"({"completion":{"values":["paris","parameter"],"total":2,"hasMore":false}})"));
}

TEST_CASE("completion: a resource template's variables, at most 100 values") {
    at r(completing, "2025-06-18");
    std::string first_hundred;
    for (int i = 0; i != 100; ++i) first_hundred += (i == 0 ? "\"work-" : ",\"work-") + std::to_string(i) + "\"";
    CHECK(r(complete("1", R"({"ref":{"type":"ref/resource","uri":"notes://{folder}/{id}"},"argument":{"name":"id","value":""},)"
                          R"("context":{"arguments":{"folder":"work"}}})")) ==
          result("1", R"({"completion":{"values":[)" + first_hundred + R"(],"total":250,"hasMore":true}})"));
    CHECK(r(complete("2", R"({"ref":{"type":"ref/resource","uri":"notes://{folder}/{id}"},"argument":{"name":"id","value":"notes-24"}})")) ==
          result("2", R"({"completion":{"values":["notes-24","notes-240","notes-241","notes-242","notes-243","notes-244",)"
                      R"("notes-245","notes-246","notes-247","notes-248","notes-249"],"total":11,"hasMore":false}})"));
    // A variable without a completer.
    CHECK(r(complete("3", R"({"ref":{"type":"ref/resource","uri":"notes://{folder}/{id}"},"argument":{"name":"folder","value":""}})")) ==
          result("3", R"({"completion":{"values":[],"total":0,"hasMore":false}})"));
}

TEST_CASE("completion: unknown refs and arguments, malformed params, a completer that throws") {
    at r(completing, "2025-11-25");
    CHECK(r(complete("1", R"({"ref":{"type":"ref/prompt","name":"revue"},"argument":{"name":"language","value":""}})")) ==
          error("1", -32602,
                R"(Invalid params: /ref/name: unknown prompt \"revue\"; prompts: review, hello, test_prompt_with_arguments)"));
    CHECK(r(complete("2", R"({"ref":{"type":"ref/resource","uri":"notes://{id}"},"argument":{"name":"id","value":""}})")) ==
          error("2", -32602,
                R"(Invalid params: /ref/uri: unknown resource template \"notes://{id}\"; resource templates: notes://{folder}/{id}, city://{city})"));
    // A fixed resource is no template.
    CHECK(r(complete("3", R"({"ref":{"type":"ref/resource","uri":"docs://readme"},"argument":{"name":"x","value":""}})")) ==
          error("3", -32602,
                R"(Invalid params: /ref/uri: unknown resource template \"docs://readme\"; resource templates: notes://{folder}/{id}, city://{city})"));
    CHECK(r(complete("4", R"({"ref":{"type":"ref/prompt","name":"review"},"argument":{"name":"lang","value":""}})")) ==
          error("4", -32602,
                R"(Invalid params: /argument/name: prompt \"review\" has no argument \"lang\"; its arguments: code, language, focus)"));
    CHECK(r(complete("5", R"({"ref":{"type":"ref/prompt","name":"hello"},"argument":{"name":"name","value":""}})")) ==
          error("5", -32602, R"(Invalid params: /argument/name: prompt \"hello\" has no argument \"name\"; it takes no arguments)"));
    CHECK(r(complete("6", R"({"ref":{"type":"ref/resource","uri":"notes://{folder}/{id}"},"argument":{"name":"name","value":""}})")) ==
          error("6", -32602,
                R"(Invalid params: /argument/name: resource template \"notes://{folder}/{id}\" has no variable \"name\"; its variables: folder, id)"));
    CHECK(r(complete("7", R"({"ref":{"type":"ref/tool","name":"touch"},"argument":{"name":"uri","value":""}})")) ==
          error("7", -32602, R"(Invalid params: /ref/type: \"ref/tool\" is not one of [\"ref/prompt\",\"ref/resource\"])"));
    CHECK(r(complete("8", R"({"ref":{"type":"ref/prompt"},"argument":{"name":"language","value":""}})")) ==
          error("8", -32602, "Invalid params: /ref/name: missing required property"));
    CHECK(r(complete("9", R"({"ref":{"type":"ref/resource","name":"city"},"argument":{"name":"city","value":""}})")) ==
          error("9", -32602, "Invalid params: /ref/uri: missing required property"));
    CHECK(r(complete("10", R"({"ref":{"type":"ref/prompt","name":"review"},"argument":{"name":"language"}})")) ==
          error("10", -32602, "Invalid params: /argument/value: missing required property"));
    CHECK(r(complete("11", R"({"ref":{"type":"ref/prompt","name":"review"}})")) ==
          error("11", -32602, "Invalid params: /argument: missing required property"));
    CHECK(r(complete("12", R"({"ref":{"type":"ref/prompt","name":"review"},"argument":{"name":"language","value":""},"context":{"arguments":{"a":1}}})")) ==
          error("12", -32602, "Invalid params: /context/arguments/a: expected a string, got a number 1"));
    CHECK(r(complete("13", R"({"ref":{"type":"ref/resource","uri":"city://{city}"},"argument":{"name":"city","value":"Par"}})")) ==
          error("13", -32603, R"(Completion of \"city\" of the resource template \"city://{city}\" failed: atlas missing)"));
}

TEST_CASE("completion: before initialize, in 2024-11-05, and stateless in 2026-07-28") {
    mcp::session fresh;
    CHECK(completing.handle(fresh, complete("1", R"({"ref":{"type":"ref/prompt","name":"review"},"argument":{"name":"language","value":"r"}})"))
              .starts_with(R"({"jsonrpc":"2.0","id":1,"error":{"code":-32600,)"));
    at old(completing, "2024-11-05");
    CHECK(old(complete("2", R"({"ref":{"type":"ref/prompt","name":"review"},"argument":{"name":"language","value":"r"}})")) ==
          result("2", R"({"completion":{"values":["rust"],"total":1,"hasMore":false}})"));
    CHECK(completing.handle(fresh, complete("3", R"({"_meta":{"io.modelcontextprotocol/protocolVersion":"2026-07-28"},)"
                                                 R"("ref":{"type":"ref/prompt","name":"review"},"argument":{"name":"language","value":"r"}})")) ==
          result("3", R"({"completion":{"values":["rust"],"total":1,"hasMore":false},"resultType":"complete"})"));
}

TEST_CASE("subscriptions: subscribe, unsubscribe, and the updates a session receives") {
    at r(completing, "2025-11-25");
    std::vector<std::string> sent;
    r.session.listen([&](std::string_view m) { sent.emplace_back(m); }, {});
    CHECK(completing.notify_resource_updated("docs://readme") == 0);
    CHECK(r(subscribe("1", "docs://readme")) == result("1", "{}"));
    CHECK(r(subscribe("2", "docs://readme")) == result("2", "{}"));  // once is enough
    CHECK(r(subscribe("3", "notes://work/7")) == result("3", "{}"));  // a URI a template matches
    CHECK(r.session.subscribed("docs://readme"));
    CHECK(r.session.subscriptions() == 2);
    CHECK(completing.notify_resource_updated("docs://readme") == 1);
    CHECK(completing.notify_resource_updated("notes://work/7") == 1);
    CHECK(completing.notify_resource_updated("notes://work/8") == 0);  // exact URIs only
    CHECK(sent == std::vector<std::string>{updated("docs://readme"), updated("notes://work/7")});
    CHECK(r(subscribe("4", "docs://readme", "resources/unsubscribe")) == result("4", "{}"));
    CHECK(r(subscribe("5", "docs://readme", "resources/unsubscribe")) == result("5", "{}"));
    CHECK(!r.session.subscribed("docs://readme"));
    CHECK(completing.notify_resource_updated("docs://readme") == 0);
    CHECK(sent.size() == 2);

    // Two sessions; one that ends stops counting.
    {
        at other(completing, "2025-06-18");
        std::vector<std::string> theirs;
        other.session.listen([&](std::string_view m) { theirs.emplace_back(m); }, {});
        CHECK(other(subscribe("1", "notes://work/7")) == result("1", "{}"));
        CHECK(completing.notify_resource_updated("notes://work/7") == 2);
        CHECK(theirs == std::vector<std::string>{updated("notes://work/7")});
        other.session.stop_listening();
    }
    CHECK(completing.notify_resource_updated("notes://work/7") == 1);
    // Without a listener, a subscribed session misses the update.
    r.session.stop_listening();
    CHECK(completing.notify_resource_updated("notes://work/7") == 0);
}

TEST_CASE("subscriptions: errors, limits, and where the methods are not served") {
    at r(completing, "2025-11-25");
    CHECK(r(subscribe("1", "docs://other")) ==
          error("1", -32602, R"(Invalid params: /uri: no resource or resource template matches \"docs://other\")"));
    CHECK(r(subscribe("2", "notes://a/b/c", "resources/unsubscribe")) ==
          error("2", -32602, R"(Invalid params: /uri: no resource or resource template matches \"notes://a/b/c\")"));
    CHECK(r(request("3", "resources/subscribe", "{}")) == error("3", -32602, "Invalid params: /uri: missing required property"));
    CHECK(r(subscribe("4", "notes://a/" + std::string(2048, 'x'))) ==
          error("4", -32602, "Invalid params: /uri: longer than 2048 bytes"));
    for (std::size_t i = 0; i != mcp::max_session_subscriptions; ++i)
        REQUIRE(r(subscribe("5", "notes://a/" + std::to_string(i))) == result("5", "{}"));
    CHECK(r(subscribe("6", "notes://a/x")) ==
          error("6", -32602, "Invalid params: the session holds 1024 subscriptions, the most it may; unsubscribe from one first"));
    CHECK(r(subscribe("7", "notes://a/0")) == result("7", "{}"));  // already held
    CHECK(r.session.subscriptions() == mcp::max_session_subscriptions);

    // Before initialize; stateless (2026-07-28 has no resources/subscribe); a server without resources.
    mcp::session fresh;
    CHECK(completing.handle(fresh, subscribe("8", "docs://readme")).starts_with(R"({"jsonrpc":"2.0","id":8,"error":{"code":-32600,)"));
    CHECK(completing.handle(fresh, request("9", "resources/subscribe",
                                           R"({"_meta":{"io.modelcontextprotocol/protocolVersion":"2026-07-28"},"uri":"docs://readme"})")) ==
          error("9", -32601, R"(Method not found: \"resources/subscribe\")"));
    const mcp::server bare{completing_tools};
    mcp::session b;
    bare.handle(b, initialize("2025-11-25"));
    CHECK(bare.handle(b, subscribe("10", "docs://readme")) == error("10", -32601, R"(Method not found: \"resources/subscribe\")"));
}

TEST_CASE("subscriptions over stdio: the update is a line on the output") {
    std::istringstream in(initialize("2025-11-25") + "\n" + subscribe("1", "notes://work/7") + "\n" +
                          request("2", "tools/call", R"({"name":"touch","arguments":{"uri":"notes://work/7"}})") + "\n" +
                          subscribe("3", "notes://work/7", "resources/unsubscribe") + "\n" +
                          request("4", "tools/call", R"({"name":"touch","arguments":{"uri":"notes://work/7"}})") + "\n");
    std::ostringstream out;
    CHECK(mcp::serve(completing, in, out, {.log = nullptr}) == 0);
    std::vector<std::string> lines;
    std::istringstream written(out.str());
    for (std::string line; std::getline(written, line);) lines.push_back(line);
    REQUIRE(lines.size() == 6);
    CHECK(lines[1] == result("1", "{}"));
    CHECK(lines[2] == updated("notes://work/7"));
    CHECK(lines[3] == result("2", R"({"content":[{"type":"text","text":"1"}],"isError":false})"));
    CHECK(lines[4] == result("3", "{}"));
    CHECK(lines[5] == result("4", R"({"content":[{"type":"text","text":"0"}],"isError":false})"));
    // The session ended with the input.
    CHECK(completing.notify_resource_updated("notes://work/7") == 0);
}

namespace {

http::request<http::string_body> post(std::string body, std::string_view session = {}) {
    http::request<http::string_body> r{http::verb::post, "/mcp", 11};
    r.set(http::field::host, "127.0.0.1");
    r.set(http::field::content_type, "application/json");
    r.set(http::field::accept, "application/json, text/event-stream");
    if (!session.empty()) r.set("Mcp-Session-Id", session);
    r.body() = std::move(body);
    r.prepare_payload();
    return r;
}

http::request<http::string_body> get(std::string_view session) {
    http::request<http::string_body> r{http::verb::get, "/mcp", 11};
    r.set(http::field::host, "127.0.0.1");
    r.set(http::field::accept, "text/event-stream");
    r.set("Mcp-Session-Id", session);
    return r;
}

} // namespace

TEST_CASE("subscriptions over the HTTP endpoint: the update on the session's GET stream") {
    const mcp::http_options options;
    mcp::detail::http_endpoint<completing_registry> endpoint(completing, options, true);
    const std::string a(endpoint.handle(post(initialize("2025-11-25"))).response["Mcp-Session-Id"]);
    const std::string b(endpoint.handle(post(initialize("2025-11-25"))).response["Mcp-Session-Id"]);
    auto stream = endpoint.handle(get(a));
    REQUIRE(stream.listen);
    std::vector<std::string> sent;
    bool ended = false;
    stream.listen->listen([&](std::string_view m) { sent.emplace_back(m); }, [&] { ended = true; });
    CHECK(endpoint.handle(post(subscribe("1", "docs://readme"), a)).response.body() == result("1", "{}"));
    // b subscribes without a GET stream: it misses the update.
    CHECK(endpoint.handle(post(subscribe("1", "docs://readme"), b)).response.body() == result("1", "{}"));
    CHECK(completing.notify_resource_updated("docs://readme") == 1);
    CHECK(sent == std::vector<std::string>{updated("docs://readme")});
    // From a tool: the update goes to the GET stream, not to the call's answer.
    const auto call = endpoint.handle(post(request("2", "tools/call", R"({"name":"touch","arguments":{"uri":"docs://readme"}})"), a));
    CHECK(call.response.body() == result("2", R"({"content":[{"type":"text","text":"1"}],"isError":false})"));
    CHECK(sent.size() == 2);
    CHECK(endpoint.handle(post(subscribe("3", "docs://readme", "resources/unsubscribe"), a)).response.body() == result("3", "{}"));
    CHECK(completing.notify_resource_updated("docs://readme") == 0);
    CHECK(endpoint.handle(post(subscribe("4", "docs://readme"), a)).response.body() == result("4", "{}"));
    // DELETE ends the session and its stream.
    http::request<http::string_body> del{http::verb::delete_, "/mcp", 11};
    del.set(http::field::host, "localhost");
    del.set("Mcp-Session-Id", a);
    CHECK(endpoint.handle(del).response.result() == http::status::ok);
    CHECK(ended);
    CHECK(completing.notify_resource_updated("docs://readme") == 0);
    CHECK(sent.size() == 2);
}

TEST_CASE("subscriptions over a Streamable HTTP socket: the update arrives on the GET stream") {
    namespace asio = boost::asio;
    using tcp = asio::ip::tcp;
    mcp::http_options options;
    options.port = 0;
    options.threads = 2;
    options.log = nullptr;
    mcp::http_server server(completing, options);
    std::thread serving([&] { server.run(); });
    asio::io_context io;
    const tcp::endpoint where(asio::ip::make_address("127.0.0.1"), server.port());
    // Reads into `text` until it holds `until`, for at most 10 s.
    const auto read_until = [&](tcp::socket& s, std::string& text, std::string_view until) {
        bool found = false;
        asio::async_read_until(s, asio::dynamic_buffer(text), std::string(until),
                               [&](boost::system::error_code ec, std::size_t) { found = !ec; });
        io.restart();
        io.run_for(std::chrono::seconds(10));
        if (!found) {
            boost::system::error_code ignored;
            s.close(ignored);
            io.restart();
            io.run();
        }
        return found;
    };
    const auto exchange = [&](tcp::socket& s, const http::request<http::string_body>& r) {
        http::write(s, r);
        boost::beast::flat_buffer buffer;
        http::response<http::string_body> answer;
        http::read(s, buffer, answer);
        return answer;
    };

    tcp::socket posts(io);
    posts.connect(where);
    const std::string session(exchange(posts, post(initialize("2025-11-25")))["Mcp-Session-Id"]);
    REQUIRE(!session.empty());
    tcp::socket stream(io);
    stream.connect(where);
    http::write(stream, get(session));
    std::string text;
    REQUIRE(read_until(stream, text, "\r\n\r\n"));
    CHECK(text.starts_with("HTTP/1.1 200 OK\r\nContent-Type: text/event-stream\r\n"));
    CHECK(exchange(posts, post(subscribe("1", "notes://work/7"), session)).body() == result("1", "{}"));
    CHECK(completing.notify_resource_updated("notes://work/7") == 1);
    REQUIRE(read_until(stream, text, "}}\n\n"));
    CHECK(text.find("event: message\ndata: " + updated("notes://work/7") + "\n\n") != std::string::npos);

    boost::system::error_code ignored;
    stream.close(ignored);
    posts.close(ignored);
    server.stop();
    serving.join();
}
