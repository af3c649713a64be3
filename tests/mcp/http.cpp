// SPDX-License-Identifier: BSL-1.0
#include <agentry/json/reader.hpp>
#include <agentry/mcp/http.hpp>

#include "tools.hpp"

#include <doctest/doctest.h>

#include <functional>
#include <optional>
#include <string>
#include <string_view>
#include <type_traits>
#include <vector>

namespace {

namespace mcp = agentry::mcp;
namespace http = boost::beast::http;

using registry = std::remove_const_t<decltype(mcp_test::tools)>;
const mcp::server server{mcp_test::tools, {.name = "test", .version = "1"}};

// The members of a request that 2026-07-28's standard headers stand for.
struct routed_request {
    std::string method;
    struct named {
        std::optional<std::string> name;
        std::optional<std::string> uri;
    };
    std::optional<named> params;
};

// A POST; with `version` 2026-07-28, Mcp-Method and Mcp-Name are taken from the body, as a client sends them.
http::request<http::string_body> post(std::string body, std::string_view session = {},
                                      std::string_view version = {}) {
    http::request<http::string_body> r{http::verb::post, "/mcp", 11};
    r.set(http::field::host, "127.0.0.1:8080");
    r.set(http::field::content_type, "application/json");
    r.set(http::field::accept, "application/json, text/event-stream");
    if (!session.empty()) r.set("Mcp-Session-Id", session);
    if (!version.empty()) r.set("MCP-Protocol-Version", version);
    if (version == "2026-07-28") {
        agentry::json::read_options options;
        options.ignore_unknown_properties = true;
        if (const auto m = agentry::json::read<routed_request>(body, options); m.ok()) {
            r.set("Mcp-Method", m.value.method);
            if (m.value.params && (m.value.params->name || m.value.params->uri))
                r.set("Mcp-Name", m.value.method == "resources/read" ? m.value.params->uri.value_or("")
                                                                     : m.value.params->name.value_or(""));
        }
    }
    r.body() = std::move(body);
    r.prepare_payload();
    return r;
}

// Runs inside the tool "slow", to act while a call is in progress.
std::function<void()> during_call;

constexpr agentry::registry hooked{agentry::tool<"slow", "Runs during_call">(+[] {
    if (during_call) during_call();
    return 1;
})};

constexpr const char* initialize =
    R"({"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-11-25"}})";

} // namespace

TEST_CASE("http endpoint: a session from initialize to DELETE") {
    const mcp::http_options options;
    mcp::detail::http_endpoint<registry> endpoint(server, options, true);
    auto reply = endpoint.handle(post(initialize));
    CHECK(reply.response.result() == http::status::ok);
    CHECK(reply.response[http::field::content_type] == "application/json");
    const std::string session(reply.response["Mcp-Session-Id"]);
    CHECK(session.size() == 32);
    CHECK(endpoint.sessions() == 1);

    reply = endpoint.handle(post(R"({"jsonrpc":"2.0","method":"notifications/initialized"})", session));
    CHECK(reply.response.result() == http::status::accepted);
    CHECK(reply.response.body().empty());

    reply = endpoint.handle(post(R"({"jsonrpc":"2.0","id":2,"method":"ping"})", session, "2025-11-25"));
    CHECK(reply.response.body() == R"({"jsonrpc":"2.0","id":2,"result":{}})");
    CHECK(reply.response.count("Mcp-Session-Id") == 0);

    // Another version sessions are held in: accepted, answered in the session's version.
    reply = endpoint.handle(post(R"({"jsonrpc":"2.0","id":3,"method":"ping"})", session, "2025-03-26"));
    CHECK(reply.response.result() == http::status::ok);
    CHECK(reply.response.body() == R"({"jsonrpc":"2.0","id":3,"result":{}})");
    reply = endpoint.handle(post(R"({"jsonrpc":"2.0","id":3,"method":"ping"})", session, "2026-07-28"));
    CHECK(reply.response.result() == http::status::bad_request);
    CHECK(reply.response.body() ==
          R"({"jsonrpc":"2.0","id":3,"error":{"code":-32600,"message":"Bad Request: unsupported MCP-Protocol-Version \"2026-07-28\"; this session uses 2025-11-25"}})");

    reply = endpoint.handle(post(R"({"jsonrpc":"2.0","id":4,"method":"ping"})"));
    CHECK(reply.response.result() == http::status::bad_request);
    reply = endpoint.handle(post(R"({"jsonrpc":"2.0","id":5,"method":"ping"})", "nope"));
    CHECK(reply.response.result() == http::status::not_found);
    CHECK(reply.response.body() == R"({"jsonrpc":"2.0","id":5,"error":{"code":-32001,"message":"Session not found"}})");

    http::request<http::string_body> del{http::verb::delete_, "/mcp", 11};
    del.set(http::field::host, "localhost");
    del.set("Mcp-Session-Id", session);
    CHECK(endpoint.handle(del).response.result() == http::status::ok);
    CHECK(endpoint.handle(del).response.result() == http::status::not_found);
    CHECK(endpoint.sessions() == 0);
}

TEST_CASE("http endpoint: a failed initialize starts no session") {
    const mcp::http_options options;
    mcp::detail::http_endpoint<registry> endpoint(server, options, true);
    const auto reply = endpoint.handle(post(R"({"jsonrpc":"2.0","id":1,"method":"initialize","params":{}})"));
    CHECK(reply.response.result() == http::status::ok);
    CHECK(reply.response.count("Mcp-Session-Id") == 0);
    CHECK(endpoint.sessions() == 0);
}

TEST_CASE("http endpoint: Origin and Host") {
    mcp::http_options options;
    options.allowed_origins = {"https://app.example.com"};
    mcp::detail::http_endpoint<registry> endpoint(server, options, true);
    const auto with = [&](http::field field, std::string_view value) {
        auto r = post(initialize);
        r.set(field, value);
        return endpoint.handle(r).response.result();
    };
    CHECK(with(http::field::origin, "http://evil.example") == http::status::forbidden);
    CHECK(with(http::field::origin, "http://localhost.evil.example") == http::status::forbidden);
    CHECK(with(http::field::origin, "http://localhost:3000/x") == http::status::forbidden);
    CHECK(with(http::field::origin, "file://") == http::status::forbidden);
    CHECK(with(http::field::origin, "http://LOCALHOST:3000") == http::status::ok);
    CHECK(with(http::field::origin, "http://[::1]") == http::status::ok);
    CHECK(with(http::field::origin, "https://app.example.com") == http::status::ok);
    CHECK(with(http::field::host, "evil.example:8080") == http::status::forbidden);
    CHECK(with(http::field::host, "[::1]:8080") == http::status::ok);

    // Not on loopback, with no allowed_hosts: any Host.
    mcp::detail::http_endpoint<registry> open(server, options, false);
    auto r = post(initialize);
    r.set(http::field::host, "server.example");
    CHECK(open.handle(r).response.result() == http::status::ok);
}

TEST_CASE("http endpoint: the GET stream of a session, and server log messages on it") {
    const mcp::http_options options;
    mcp::detail::http_endpoint<registry> endpoint(server, options, true);
    const std::string session(endpoint.handle(post(initialize)).response["Mcp-Session-Id"]);
    http::request<http::string_body> get{http::verb::get, "/mcp", 11};
    get.set(http::field::host, "localhost");
    get.set(http::field::accept, "text/event-stream");
    get.set("Mcp-Session-Id", session);
    auto reply = endpoint.handle(get);
    CHECK(reply.response.result() == http::status::ok);
    REQUIRE(reply.listen);
    std::vector<std::string> sent;
    bool ended = false;
    reply.listen->listen([&](std::string_view m) { sent.emplace_back(m); }, [&] { ended = true; });
    // No level set yet: nothing is sent.
    CHECK(endpoint.log(mcp::log_level::info, "starting") == 0);
    CHECK(endpoint.handle(post(R"({"jsonrpc":"2.0","id":2,"method":"logging/setLevel","params":{"level":"info"}})", session))
              .response.result() == http::status::ok);
    CHECK(endpoint.log(mcp::log_level::debug, "hidden") == 0);
    CHECK(endpoint.log(mcp::log_level::info, "shown", "app") == 1);
    CHECK(sent == std::vector<std::string>{
                      R"({"jsonrpc":"2.0","method":"notifications/message","params":{"level":"info","logger":"app","data":"shown"}})"});
    // An HTTP/1.0 client cannot take a stream.
    get.version(10);
    CHECK(endpoint.handle(get).response.result() == http::status::not_acceptable);
    // DELETE ends the stream.
    http::request<http::string_body> del{http::verb::delete_, "/mcp", 11};
    del.set(http::field::host, "localhost");
    del.set("Mcp-Session-Id", session);
    CHECK(endpoint.handle(del).response.result() == http::status::ok);
    CHECK(ended);
}

TEST_CASE("http endpoint: stateless 2026-07-28 requests and batches") {
    const mcp::http_options options;
    mcp::detail::http_endpoint<registry> endpoint(server, options, true);
    const std::string meta =
        R"("_meta":{"io.modelcontextprotocol/protocolVersion":"2026-07-28","io.modelcontextprotocol/clientCapabilities":{}})";
    auto reply = endpoint.handle(post(R"({"jsonrpc":"2.0","id":1,"method":"tools/call","params":{)" + meta +
                                          R"(,"name":"add","arguments":{"a":1,"b":2}}})",
                                      {}, "2026-07-28"));
    CHECK(reply.response.result() == http::status::ok);
    CHECK(reply.response.body() ==
          R"({"jsonrpc":"2.0","id":1,"result":{"content":[{"type":"text","text":"3"}],"isError":false,"resultType":"complete"}})");
    CHECK(endpoint.sessions() == 0);
    // The header and _meta must agree.
    reply = endpoint.handle(post(R"({"jsonrpc":"2.0","id":2,"method":"tools/list"})", {}, "2026-07-28"));
    CHECK(reply.response.result() == http::status::bad_request);
    CHECK(reply.response.body() ==
          R"({"jsonrpc":"2.0","id":2,"error":{"code":-32020,"message":"Bad Request: the MCP-Protocol-Version header \"2026-07-28\" differs from the request's _meta protocol version, which names none"}})");
    // The standard headers must agree with the body: Mcp-Method always, Mcp-Name for a tool.
    const std::string call = R"({"jsonrpc":"2.0","id":9,"method":"tools/call","params":{)" + meta +
                             R"(,"name":"add","arguments":{"a":1,"b":2}}})";
    const auto routed = [&](std::optional<std::string_view> method, std::optional<std::string_view> name) {
        auto r = post(call);
        r.set("MCP-Protocol-Version", "2026-07-28");
        if (method) r.set("Mcp-Method", *method);
        if (name) r.set("Mcp-Name", *name);
        return endpoint.handle(r);
    };
    const auto refused = [](std::string_view message) {
        return R"({"jsonrpc":"2.0","id":9,"error":{"code":-32020,"message":)" + std::string(message) + "}}";
    };
    reply = routed(std::nullopt, "add");
    CHECK(reply.response.result() == http::status::bad_request);
    CHECK(reply.response.body() ==
          refused(R"("Bad Request: the Mcp-Method header is missing; send the request's method \"tools/call\" in it")"));
    reply = routed("tools/list", "add");
    CHECK(reply.response.result() == http::status::bad_request);
    CHECK(reply.response.body() ==
          refused(R"("Bad Request: the Mcp-Method header \"tools/list\" differs from the request's method \"tools/call\"")"));
    reply = routed("tools/call", std::nullopt);
    CHECK(reply.response.result() == http::status::bad_request);
    CHECK(reply.response.body() ==
          refused(R"x("Bad Request: the Mcp-Name header is missing; send the request's params.name \"add\" in it (as =?base64?...?= when it is not printable ASCII)")x"));
    reply = routed("tools/call", "echo");
    CHECK(reply.response.body() ==
          refused(R"("Bad Request: the Mcp-Name header \"echo\" differs from the request's params.name \"add\"")"));
    reply = routed("tools/call", "=?base64?not base64?=");
    CHECK(reply.response.body() ==
          refused(R"("Bad Request: the Mcp-Name header \"=?base64?not base64?=\" is not valid base64 in =?base64?...?=")"));
    // The escaped form of "add", and of the method.
    reply = routed("=?base64?dG9vbHMvY2FsbA==?=", "=?base64?YWRk?=");
    CHECK(reply.response.result() == http::status::ok);
    CHECK(reply.response.body().find(R"("text":"3")") != std::string::npos);
    // server/discover needs neither a session nor a header.
    reply = endpoint.handle(post(R"({"jsonrpc":"2.0","id":3,"method":"server/discover"})"));
    CHECK(reply.response.result() == http::status::ok);
    CHECK(reply.response.body().find(R"("supportedVersions":[)") != std::string::npos);
    // A version not served: 400.
    reply = endpoint.handle(post(R"({"jsonrpc":"2.0","id":4,"method":"server/discover","params":{"_meta":{"io.modelcontextprotocol/protocolVersion":"2031-01-01"}}})"));
    CHECK(reply.response.result() == http::status::bad_request);
    CHECK(reply.response.body().find(R"("code":-32022)") != std::string::npos);

    // Batches in a 2025-03-26 session.
    const std::string old(endpoint.handle(post(R"({"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-03-26"}})"))
                              .response["Mcp-Session-Id"]);
    reply = endpoint.handle(post(R"([{"jsonrpc":"2.0","id":5,"method":"ping"},{"jsonrpc":"2.0","id":6,"method":"ping"}])", old));
    CHECK(reply.response.result() == http::status::ok);
    CHECK(reply.response.body() == R"([{"jsonrpc":"2.0","id":5,"result":{}},{"jsonrpc":"2.0","id":6,"result":{}}])");
    reply = endpoint.handle(post(R"([{"jsonrpc":"2.0","method":"notifications/initialized"}])", old));
    CHECK(reply.response.result() == http::status::accepted);
    const std::string current(endpoint.handle(post(initialize)).response["Mcp-Session-Id"]);
    reply = endpoint.handle(post(R"([{"jsonrpc":"2.0","id":5,"method":"ping"}])", current));
    CHECK(reply.response.result() == http::status::bad_request);
    CHECK(endpoint.handle(post(R"([{"jsonrpc":"2.0","id":5,"method":"ping"}])")).response.result() ==
          http::status::bad_request);
}

TEST_CASE("http endpoint: notifications go to the request's event stream only when the client accepts one") {
    const mcp::http_options options;
    mcp::detail::http_endpoint<registry> endpoint(server, options, true);
    const std::string session(endpoint.handle(post(initialize)).response["Mcp-Session-Id"]);
    endpoint.handle(post(R"({"jsonrpc":"2.0","id":2,"method":"logging/setLevel","params":{"level":"debug"}})", session));
    std::vector<std::string> events;
    const mcp::message_sink sink = [&](std::string_view m) { events.emplace_back(m); };
    during_call = [] { mcp::log(mcp::log_level::info, "working"); };
    const mcp::server hooked_server{hooked};
    mcp::detail::http_endpoint<std::remove_const_t<decltype(hooked)>> hooked_endpoint(hooked_server, options, true);
    const std::string s(hooked_endpoint.handle(post(initialize)).response["Mcp-Session-Id"]);
    hooked_endpoint.handle(post(R"({"jsonrpc":"2.0","id":2,"method":"logging/setLevel","params":{"level":"debug"}})", s));
    const std::string call = R"({"jsonrpc":"2.0","id":3,"method":"tools/call","params":{"name":"slow"}})";
    CHECK(hooked_endpoint.handle(post(call, s), {}, sink).response.result() == http::status::ok);
    CHECK(events == std::vector<std::string>{
                        R"({"jsonrpc":"2.0","method":"notifications/message","params":{"level":"info","data":"working"}})"});
    auto json_only = post(call, s);
    json_only.set(http::field::accept, "application/json");
    CHECK(hooked_endpoint.handle(json_only, {}, sink).response.result() == http::status::ok);
    CHECK(events.size() == 1);
    during_call = nullptr;
}

TEST_CASE("http endpoint: methods, paths, media types, bodies") {
    const mcp::http_options options;
    mcp::detail::http_endpoint<registry> endpoint(server, options, true);
    http::request<http::string_body> get{http::verb::get, "/mcp", 11};
    get.set(http::field::host, "localhost");
    auto reply = endpoint.handle(get);
    CHECK(reply.response.result() == http::status::not_acceptable);
    get.set(http::field::accept, "text/event-stream");
    CHECK(endpoint.handle(get).response.result() == http::status::bad_request);
    get.set("Mcp-Session-Id", "unknown");
    CHECK(endpoint.handle(get).response.result() == http::status::not_found);
    http::request<http::string_body> put{http::verb::put, "/mcp", 11};
    put.set(http::field::host, "localhost");
    reply = endpoint.handle(put);
    CHECK(reply.response.result() == http::status::method_not_allowed);
    CHECK(reply.response[http::field::allow] == "GET, POST, DELETE");

    auto r = post(initialize);
    r.target("/other");
    CHECK(endpoint.handle(r).response.result() == http::status::not_found);
    r.target("/mcp?x=1");
    CHECK(endpoint.handle(r).response.result() == http::status::ok);

    r = post(initialize);
    r.set(http::field::content_type, "text/plain");
    CHECK(endpoint.handle(r).response.result() == http::status::unsupported_media_type);
    r = post(initialize);
    r.set(http::field::content_type, "Application/JSON; charset=utf-8");
    r.set(http::field::accept, "*/*");
    CHECK(endpoint.handle(r).response.result() == http::status::ok);
    r.set(http::field::accept, "text/event-stream");
    CHECK(endpoint.handle(r).response.result() == http::status::not_acceptable);

    reply = endpoint.handle(post("{oops"));
    CHECK(reply.response.result() == http::status::bad_request);
    CHECK(reply.response.body() ==
          R"({"jsonrpc":"2.0","error":{"code":-32700,"message":"Parse error: invalid JSON at byte 1: unexpected character"}})");
    reply = endpoint.too_large();
    CHECK(reply.response.result() == http::status::payload_too_large);
    CHECK(reply.close);
}

TEST_CASE("http endpoint: sessions past the limit end the least recently used") {
    mcp::http_options options;
    options.max_sessions = 2;
    mcp::detail::http_endpoint<registry> endpoint(server, options, true);
    const std::string a(endpoint.handle(post(initialize)).response["Mcp-Session-Id"]);
    const std::string b(endpoint.handle(post(initialize)).response["Mcp-Session-Id"]);
    CHECK(endpoint.handle(post(R"({"jsonrpc":"2.0","id":2,"method":"ping"})", a)).response.result() == http::status::ok);
    const std::string c(endpoint.handle(post(initialize)).response["Mcp-Session-Id"]);
    CHECK(endpoint.sessions() == 2);
    CHECK(endpoint.handle(post(R"({"jsonrpc":"2.0","id":2,"method":"ping"})", b)).response.result() == http::status::not_found);
    CHECK(endpoint.handle(post(R"({"jsonrpc":"2.0","id":2,"method":"ping"})", a)).response.result() == http::status::ok);
    CHECK(endpoint.handle(post(R"({"jsonrpc":"2.0","id":2,"method":"ping"})", c)).response.result() == http::status::ok);
}

TEST_CASE("http_server: binds to a free port on 127.0.0.1, stops") {
    mcp::http_options options;
    options.port = 0;
    options.log = nullptr;
    mcp::http_server http(server, options);
    CHECK(http.port() != 0);
    CHECK(http.url() == "http://127.0.0.1:" + std::to_string(http.port()) + "/mcp");
    http.stop();
    http.run();  // returns at once: stopped before it started
    CHECK(http.sessions() == 0);
}

TEST_CASE("http endpoint: a request cancelled while it runs gets no response") {
    const mcp::server srv{hooked};
    const mcp::http_options options;
    mcp::detail::http_endpoint<std::remove_const_t<decltype(hooked)>> endpoint(srv, options, true);
    const std::string session(endpoint.handle(post(initialize)).response["Mcp-Session-Id"]);
    during_call = [&] {
        const auto reply = endpoint.handle(post(
            R"({"jsonrpc":"2.0","method":"notifications/cancelled","params":{"requestId":"s"}})", session));
        CHECK(reply.response.result() == http::status::accepted);
    };
    auto reply = endpoint.handle(post(R"({"jsonrpc":"2.0","id":"s","method":"tools/call","params":{"name":"slow"}})", session));
    CHECK(reply.drop);
    during_call = nullptr;
    reply = endpoint.handle(post(R"({"jsonrpc":"2.0","id":"t","method":"tools/call","params":{"name":"slow"}})", session));
    CHECK(!reply.drop);
    CHECK(reply.response.result() == http::status::ok);
}

TEST_CASE("http fields: media types, origins, authorities, bearer tokens") {
    using namespace agentry::mcp::detail;
    const auto m = parse_media_type(" Application/JSON ; charset=\"utf-8\" ;q=0.5");
    REQUIRE(m);
    CHECK(m->type == "Application");
    CHECK(m->subtype == "JSON");
    CHECK(m->q == doctest::Approx(0.5));
    CHECK(!parse_media_type("application/json; q=2"));
    CHECK(!parse_media_type("application/json; q=0.1234"));
    CHECK(!parse_media_type("application/json; x"));
    CHECK(!parse_media_type("application/json; x=\"open"));
    CHECK(!parse_media_type("application/json x"));
    CHECK(!parse_media_type("application"));
    CHECK(is_json_content_type("application/json;"));
    CHECK(!is_json_content_type(""));
    CHECK(accepts_json(""));
    CHECK(accepts_json("text/event-stream, */*;q=0.1"));
    CHECK(!accepts_json("*/*;q=0"));
    CHECK(!accepts_json("application/json;q=0.000"));
    CHECK(!accepts_json("garbage"));

    const auto o = parse_origin("HTTPS://[::1]:8443");
    REQUIRE(o);
    CHECK(o->scheme == "https");
    CHECK(o->where.host == "[::1]");
    CHECK(o->port() == 8443);
    CHECK(*parse_origin("http://a.example") == *parse_origin("http://A.EXAMPLE:80"));
    CHECK(!(*parse_origin("http://a.example") == *parse_origin("https://a.example")));
    for (std::string_view bad : {"http://", "http://a.example/", "http://a.example?", "http://u@a.example",
                                 "http://a.example:", "http://a.example:0", "http://a.example:65536",
                                 "http://[::1", "http://[zz]", "ftp://a.example", "a.example", "http://a b"})
        CHECK_MESSAGE(!parse_origin(bad), bad);
    CHECK(parse_authority("localhost:8080")->port == 8080);
    CHECK(!parse_authority(""));

    CHECK(bearer_token("Bearer abc.DEF-_~+/==") == "abc.DEF-_~+/==");
    CHECK(bearer_token("bearer  abc") == "abc");
    CHECK(bearer_token("Bearer").empty());
    CHECK(bearer_token("Bearer a=b").empty());
    CHECK(bearer_token("Bearer a b").empty());
    CHECK(bearer_token("Basic abc").empty());
}
