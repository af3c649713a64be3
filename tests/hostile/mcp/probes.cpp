// SPDX-License-Identifier: BSL-1.0
// Hostile-input probes of the MCP server (docs/security.md, "The hostile-input tests"). The HTTP
// probes talk to an http_server on 127.0.0.1 in this process over raw sockets; memory bounds
// are asserted on this process's resident size (VmRSS), never on time. The stdio probe runs
// this program again as a stdio server (--serve-stdio) in a child process. Every socket read
// and write gives up after 20 s, and every loop is bounded in count.
#define DOCTEST_CONFIG_IMPLEMENT
#include <doctest/doctest.h>

#include <agentry/mcp/http.hpp>
#include <agentry/mcp/stdio.hpp>
#include <agentry/registry.hpp>
#include <agentry/tool.hpp>

#include <arpa/inet.h>
#include <csignal>
#include <fcntl.h>
#include <netinet/in.h>
#include <poll.h>
#include <sys/socket.h>
#include <sys/types.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstring>
#include <fstream>
#include <optional>
#include <stdexcept>
#include <string>
#include <string_view>
#include <thread>
#include <vector>

namespace {

namespace mcp = agentry::mcp;
namespace http = boost::beast::http;

constexpr agentry::registry tools{
    agentry::tool<"echo", "Echoes a text", "text">(+[](std::string text) { return text; }),
    agentry::tool<"whoami", "The subject of the caller's token">(+[] {
        const mcp::identity* who = mcp::current_identity();
        return who ? who->subject : std::string("nobody");
    }),
};
using registry = std::remove_const_t<decltype(tools)>;
const mcp::server server{tools, {.name = "hostile", .version = "1"}};

constexpr std::string_view initialize =
    R"({"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-11-25"}})";

// ---- this process's resident size

std::size_t rss_kib() {
    std::ifstream status("/proc/self/status");
    std::string line;
    while (std::getline(status, line))
        if (line.starts_with("VmRSS:")) return std::stoul(line.substr(6));
    return 0;
}

// ---- an http_server on 127.0.0.1 running on its own thread

struct running_server {
    explicit running_server(mcp::http_options options) : http(server, with_defaults(std::move(options))) {
        thread = std::thread([this] { http.run(); });
    }
    ~running_server() {
        http.stop();
        thread.join();
    }
    static mcp::http_options with_defaults(mcp::http_options options) {
        options.port = 0;
        options.log = nullptr;
        options.threads = 1;
        return options;
    }
    mcp::http_server<registry> http;
    std::thread thread;
};

// ---- raw sockets

int connect_to(unsigned short port) {
    const int fd = ::socket(AF_INET, SOCK_STREAM, 0);
    REQUIRE(fd >= 0);
    const timeval limit{20, 0};
    ::setsockopt(fd, SOL_SOCKET, SO_RCVTIMEO, &limit, sizeof limit);
    ::setsockopt(fd, SOL_SOCKET, SO_SNDTIMEO, &limit, sizeof limit);
    sockaddr_in where{};
    where.sin_family = AF_INET;
    where.sin_port = htons(port);
    where.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
    REQUIRE(::connect(fd, reinterpret_cast<const sockaddr*>(&where), sizeof where) == 0);
    return fd;
}

bool send_all(int fd, std::string_view data) {
    while (!data.empty()) {
        const ::ssize_t n = ::send(fd, data.data(), data.size(), MSG_NOSIGNAL);
        if (n <= 0) return false;
        data.remove_prefix(std::size_t(n));
    }
    return true;
}

/// Everything the peer sends until it closes (or 20 s pass without a byte, or 1 MiB).
std::string read_all(int fd) {
    std::string out;
    char chunk[4096];
    while (out.size() < 1024 * 1024) {
        const ::ssize_t n = ::recv(fd, chunk, sizeof chunk, 0);
        if (n <= 0) break;
        out.append(chunk, std::size_t(n));
    }
    return out;
}

/// The status code of an HTTP response text; 0 when there is none.
int status_of(std::string_view response) {
    if (!response.starts_with("HTTP/1.1 ") || response.size() < 12) return 0;
    return std::stoi(std::string(response.substr(9, 3)));
}

std::string request_text(std::string_view body, std::string_view extra = {}) {
    return "POST /mcp HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\nAccept: application/json\r\n"
           "Connection: close\r\nContent-Length: " +
           std::to_string(body.size()) + "\r\n" + std::string(extra) + "\r\n" + std::string(body);
}

/// Sends one request on a new connection and returns the whole response.
std::string exchange(unsigned short port, std::string_view text) {
    const int fd = connect_to(port);
    send_all(fd, text);
    std::string response = read_all(fd);
    ::close(fd);
    return response;
}

/// Sends `head`, then `filler` again and again (up to `total` bytes or until the server stops
/// reading), sampling the resident size; returns the growth over `base` at its peak and the
/// server's status code.
struct flood_result {
    std::size_t peak_growth_kib = 0;
    int status = 0;
};
flood_result flood(unsigned short port, std::string_view head, std::string_view filler, std::size_t total) {
    const std::size_t base = rss_kib();
    flood_result out;
    const int fd = connect_to(port);
    REQUIRE(send_all(fd, head));
    std::size_t peak = base;
    for (std::size_t sent = 0, i = 0; sent < total; sent += filler.size(), ++i) {
        pollfd answer{fd, POLLIN, 0};
        if (::poll(&answer, 1, 0) != 0) break;  // the server answered (or closed)
        if (!send_all(fd, filler)) break;
        if (i % 16 == 0) peak = std::max(peak, rss_kib());
    }
    peak = std::max(peak, rss_kib());
    out.status = status_of(read_all(fd));
    peak = std::max(peak, rss_kib());
    ::close(fd);
    out.peak_growth_kib = peak > base ? peak - base : 0;
    return out;
}

constexpr std::size_t mib = 1024 * 1024;

http::request<http::string_body> post(std::string body, std::string_view session = {}) {
    http::request<http::string_body> r{http::verb::post, "/mcp", 11};
    r.set(http::field::host, "127.0.0.1:8080");
    r.set(http::field::content_type, "application/json");
    r.set(http::field::accept, "application/json, text/event-stream");
    if (!session.empty()) r.set("Mcp-Session-Id", session);
    r.body() = std::move(body);
    r.prepare_payload();
    return r;
}

} // namespace

// ---- item: bounded buffers

TEST_CASE("http: megabytes of chunk extension without CRLF: 400, memory bounded") {
    mcp::http_options options;
    options.max_message_size = 1 * mib;
    running_server s(options);
    CHECK(status_of(exchange(s.http.port(), request_text(initialize))) == 200);  // warm up
    const std::string head = "POST /mcp HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\n"
                             "Transfer-Encoding: chunked\r\n\r\n1;";
    const flood_result r = flood(s.http.port(), head, std::string(64 * 1024, 'x'), 64 * mib);
    CHECK(r.status == 400);
    MESSAGE("resident size growth: " << r.peak_growth_kib << " KiB");
    CHECK(r.peak_growth_kib < 16 * 1024);
}

TEST_CASE("http: a trailer section that never ends: 431, memory bounded") {
    mcp::http_options options;
    options.max_message_size = 1 * mib;
    running_server s(options);
    CHECK(status_of(exchange(s.http.port(), request_text(initialize))) == 200);
    const std::string head = "POST /mcp HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\n"
                             "Transfer-Encoding: chunked\r\n\r\n1\r\n{\r\n0\r\n";
    const flood_result r = flood(s.http.port(), head, "X-Trailer: " + std::string(1000, 'y') + "\r\n", 64 * mib);
    CHECK(r.status == 431);
    MESSAGE("resident size growth: " << r.peak_growth_kib << " KiB");
    CHECK(r.peak_growth_kib < 16 * 1024);
}

TEST_CASE("http: a header section over max_header_size: 431, an oversized body: 413") {
    running_server s(mcp::http_options{});
    CHECK(status_of(exchange(s.http.port(), request_text(initialize, "X-Big: " + std::string(32 * 1024, 'z') + "\r\n"))) ==
          431);
    mcp::http_options small;
    small.max_message_size = 1000;
    running_server t(small);
    CHECK(status_of(exchange(t.http.port(), request_text(std::string(2000, ' ')))) == 413);
}

// ---- item: slow and idle connections

TEST_CASE("http: a real client gets through while max_connections idle and trickling connections are open") {
    mcp::http_options options;
    options.max_connections = 8;
    running_server s(options);
    std::vector<int> attackers;
    for (int i = 0; i != 8; ++i) {
        attackers.push_back(connect_to(s.http.port()));
        if (i % 2 == 1) CHECK(send_all(attackers.back(), "POST /mcp HTTP/1.1\r\nHo"));  // trickling
    }
    for (int round = 0; round != 3; ++round)
        CHECK(status_of(exchange(s.http.port(), request_text(initialize))) == 200);
    for (int fd : attackers) ::close(fd);
}

TEST_CASE("http: a head slower than header_timeout and a body under min_body_rate are cut off") {
    mcp::http_options options;
    options.header_timeout = std::chrono::seconds(1);
    options.min_body_rate = 1024 * 1024;
    running_server s(options);
    int fd = connect_to(s.http.port());
    CHECK(send_all(fd, "POST /mcp HTTP/1.1\r\nHo"));
    CHECK(read_all(fd).empty());  // closed, without an answer
    ::close(fd);
    fd = connect_to(s.http.port());
    CHECK(send_all(fd, "POST /mcp HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\n"
                       "Content-Length: 900000\r\n\r\n{\"jsonrpc\""));
    CHECK(read_all(fd).empty());
    ::close(fd);
}

TEST_CASE("http: a kept-alive connection is cut off header_timeout after its last answer, not its first") {
    mcp::http_options options;
    options.header_timeout = std::chrono::seconds(1);
    running_server s(options);
    const int fd = connect_to(s.http.port());
    // One whole response of a kept-alive connection (its head has a Content-Length).
    const auto answer = [fd] {
        std::string out;
        char chunk[4096];
        for (;;) {
            const std::size_t end = out.find("\r\n\r\n");
            if (end != std::string::npos) {
                const std::size_t length = out.find("Content-Length: ");
                if (length != std::string::npos && out.size() >= end + 4 + std::stoul(out.substr(length + 16)))
                    return out;
            }
            const ::ssize_t n = ::recv(fd, chunk, sizeof chunk, 0);
            if (n <= 0) return out;
            out.append(chunk, std::size_t(n));
        }
    };
    std::string kept = request_text(initialize);
    kept.erase(kept.find("Connection: close\r\n"), 19);
    // At 0, 0.6 and 1.2 s: each answered, though the first head's timeout passes at 1 s.
    for (int i = 0; i != 3; ++i) {
        if (i != 0) std::this_thread::sleep_for(std::chrono::milliseconds(600));
        CHECK(send_all(fd, kept));
        CHECK(status_of(answer()) == 200);
    }
    const auto last = std::chrono::steady_clock::now();
    CHECK(read_all(fd).empty());  // closed, without an answer
    const auto idle = std::chrono::steady_clock::now() - last;
    CHECK(idle > std::chrono::milliseconds(800));
    CHECK(idle < std::chrono::milliseconds(1800));
    ::close(fd);
}

// ---- item: sessions

TEST_CASE("http endpoint: one client address cannot end the sessions of another") {
    mcp::http_options options;
    options.max_sessions = 64;
    options.max_sessions_per_client = 8;
    mcp::detail::http_endpoint<registry> endpoint(server, options, true);
    const std::string victim(endpoint.handle(post(std::string(initialize)), "127.0.0.2").response["Mcp-Session-Id"]);
    CHECK(endpoint.handle(post(R"({"jsonrpc":"2.0","method":"notifications/initialized"})", victim), "127.0.0.2")
              .response.result() == http::status::accepted);
    for (int i = 0; i != 256; ++i) endpoint.handle(post(std::string(initialize)), "127.0.0.1");
    CHECK(endpoint.sessions() == 9);
    CHECK(endpoint.handle(post(R"({"jsonrpc":"2.0","id":2,"method":"ping"})", victim), "127.0.0.2")
              .response.result() == http::status::ok);
}

TEST_CASE("http endpoint: at max_sessions, never-initialized sessions go first, then the busiest address's") {
    mcp::http_options options;
    options.max_sessions = 4;
    options.max_sessions_per_client = 4;
    mcp::detail::http_endpoint<registry> endpoint(server, options, true);
    const auto start = [&](std::string_view client, bool confirm) {
        std::string id(endpoint.handle(post(std::string(initialize)), client).response["Mcp-Session-Id"]);
        if (confirm) endpoint.handle(post(R"({"jsonrpc":"2.0","method":"notifications/initialized"})", id), client);
        return id;
    };
    const auto alive = [&](const std::string& id) {
        return endpoint.handle(post(R"({"jsonrpc":"2.0","id":9,"method":"ping"})", id)).response.result() ==
               http::status::ok;
    };
    const std::string a1 = start("10.0.0.1", true);
    const std::string b1 = start("10.0.0.2", false);
    const std::string c1 = start("10.0.0.3", true);
    const std::string c2 = start("10.0.0.3", true);
    const std::string d1 = start("10.0.0.4", true);  // ends b1, the one never confirmed
    CHECK(!alive(b1));
    const std::string d2 = start("10.0.0.4", true);  // ends c1, the older of 10.0.0.3's, which holds most
    CHECK(endpoint.sessions() == 4);
    CHECK(!alive(c1));
    CHECK(alive(a1));
    CHECK(alive(c2));
    CHECK(alive(d1));
    CHECK(alive(d2));
}

// ---- item: protocol versions inside a session

TEST_CASE("http endpoint: a 2025-11-25 session's request whose _meta says 2026-07-28 gets 400 and -32020") {
    const mcp::http_options options;
    mcp::detail::http_endpoint<registry> endpoint(server, options, true);
    const std::string session(endpoint.handle(post(std::string(initialize))).response["Mcp-Session-Id"]);
    REQUIRE_FALSE(session.empty());
    const std::string list =
        R"({"jsonrpc":"2.0","id":2,"method":"tools/list","params":{"_meta":{"io.modelcontextprotocol/protocolVersion":"2026-07-28"}}})";
    auto request = post(list, session);
    request.set("MCP-Protocol-Version", "2025-11-25");
    auto reply = endpoint.handle(request);
    CHECK(reply.response.result() == http::status::bad_request);
    CHECK(reply.response.body() ==
          R"({"jsonrpc":"2.0","id":2,"error":{"code":-32020,"message":"Bad Request: the MCP-Protocol-Version header \"2025-11-25\" differs from the request's _meta protocol version \"2026-07-28\""}})");
    CHECK(reply.response.body().find("resultType") == std::string::npos);
    // Without the header, the _meta version has nothing to agree with: 400 and -32020 too.
    reply = endpoint.handle(post(list, session));
    CHECK(reply.response.result() == http::status::bad_request);
    CHECK(reply.response.body().find(R"("code":-32020)") != std::string::npos);
    // The session itself goes on under its own version.
    request = post(R"({"jsonrpc":"2.0","id":3,"method":"tools/list"})", session);
    request.set("MCP-Protocol-Version", "2025-11-25");
    reply = endpoint.handle(request);
    CHECK(reply.response.result() == http::status::ok);
    CHECK(reply.response.body().find("resultType") == std::string::npos);
}

// ---- item: authorization

namespace {

mcp::http_options authorized_options() {
    mcp::http_options options;
    options.authorization.verify = [](std::string_view token) -> std::optional<mcp::identity> {
        if (token == "alice-token") return mcp::identity{"alice", {"tools", "extra"}};
        if (token == "bob-token") return mcp::identity{"bob", {"tools"}};
        if (token == "carol-token") return mcp::identity{"carol", {}};
        if (token == "boom") throw std::runtime_error("verifier down");
        return std::nullopt;
    };
    options.authorization.resource = "https://mcp.example.com/mcp";
    options.authorization.authorization_servers = {"https://auth.example.com"};
    options.authorization.required_scopes = {"tools"};
    return options;
}

http::request<http::string_body> with_token(http::request<http::string_body> r, std::string_view token) {
    r.set(http::field::authorization, "Bearer " + std::string(token));
    return r;
}

} // namespace

TEST_CASE("http endpoint: bearer tokens, 401 and 403 with WWW-Authenticate, the resource metadata") {
    const mcp::http_options options = authorized_options();
    mcp::detail::http_endpoint<registry> endpoint(server, options, false);
    const std::string metadata = "https://mcp.example.com/.well-known/oauth-protected-resource/mcp";
    CHECK(endpoint.metadata_url() == metadata);

    auto reply = endpoint.handle(post(std::string(initialize)));
    CHECK(reply.response.result() == http::status::unauthorized);
    CHECK(reply.response[http::field::www_authenticate] ==
          "Bearer resource_metadata=\"" + metadata + "\", scope=\"tools\"");

    reply = endpoint.handle(with_token(post(std::string(initialize)), "forged"));
    CHECK(reply.response.result() == http::status::unauthorized);
    CHECK(reply.response[http::field::www_authenticate] ==
          "Bearer resource_metadata=\"" + metadata + "\", error=\"invalid_token\", scope=\"tools\"");

    auto malformed = post(std::string(initialize));
    malformed.set(http::field::authorization, "Basic YWxpY2U6eA==");
    CHECK(endpoint.handle(malformed).response.result() == http::status::unauthorized);

    reply = endpoint.handle(with_token(post(std::string(initialize)), "carol-token"));
    CHECK(reply.response.result() == http::status::forbidden);
    CHECK(reply.response[http::field::www_authenticate] ==
          "Bearer resource_metadata=\"" + metadata + "\", error=\"insufficient_scope\", scope=\"tools\"");

    CHECK(endpoint.handle(with_token(post(std::string(initialize)), "boom")).response.result() ==
          http::status::internal_server_error);

    for (std::string_view path : {"/.well-known/oauth-protected-resource/mcp", "/.well-known/oauth-protected-resource"}) {
        http::request<http::string_body> get{http::verb::get, path, 11};
        get.set(http::field::host, "mcp.example.com");
        reply = endpoint.handle(get);
        CHECK(reply.response.result() == http::status::ok);
        CHECK(reply.response[http::field::content_type] == "application/json");
        CHECK(reply.response.body() ==
              R"({"resource":"https://mcp.example.com/mcp","authorization_servers":["https://auth.example.com"],)"
              R"("scopes_supported":["tools"],"bearer_methods_supported":["header"]})");
    }
    CHECK(endpoint.sessions() == 0);
}

TEST_CASE("http endpoint: a session belongs to its token's subject, whose identity reaches the tools") {
    const mcp::http_options options = authorized_options();
    mcp::detail::http_endpoint<registry> endpoint(server, options, false);
    auto reply = endpoint.handle(with_token(post(std::string(initialize)), "alice-token"));
    CHECK(reply.response.result() == http::status::ok);
    const std::string session(reply.response["Mcp-Session-Id"]);
    const std::string whoami = R"({"jsonrpc":"2.0","id":2,"method":"tools/call","params":{"name":"whoami"}})";
    reply = endpoint.handle(with_token(post(whoami, session), "alice-token"));
    CHECK(reply.response.body() ==
          R"({"jsonrpc":"2.0","id":2,"result":{"content":[{"type":"text","text":"alice"}],"isError":false}})");
    reply = endpoint.handle(with_token(post(whoami, session), "bob-token"));
    CHECK(reply.response.result() == http::status::not_found);
    http::request<http::string_body> del{http::verb::delete_, "/mcp", 11};
    del.set(http::field::host, "mcp.example.com");
    del.set("Mcp-Session-Id", session);
    CHECK(endpoint.handle(with_token(del, "bob-token")).response.result() == http::status::not_found);
    CHECK(endpoint.handle(with_token(del, "alice-token")).response.result() == http::status::ok);
    CHECK(mcp::current_identity() == nullptr);
}

TEST_CASE("http_server: refuses a non-loopback address without a verifier, and incomplete authorization") {
    mcp::http_options options;
    options.address = "0.0.0.0";
    options.port = 0;
    options.log = nullptr;
    try {
        mcp::http_server<registry> http(server, options);
        FAIL("listened on 0.0.0.0 without authentication");
    } catch (const std::invalid_argument& e) {
        CHECK(std::string_view(e.what()).starts_with("agentry: mcp::http_server: refusing to listen on 0.0.0.0"));
        CHECK(std::string_view(e.what()).find("allow_unauthenticated") != std::string_view::npos);
    }
    CHECK(mcp::serve_http(server, options) == 1);

    mcp::http_options incomplete = authorized_options();
    incomplete.port = 0;
    incomplete.log = nullptr;
    incomplete.authorization.resource = "mcp.example.com";
    CHECK_THROWS_AS(mcp::http_server<registry>(server, incomplete), std::invalid_argument);
    incomplete = authorized_options();
    incomplete.port = 0;
    incomplete.log = nullptr;
    incomplete.authorization.authorization_servers.clear();
    CHECK_THROWS_AS(mcp::http_server<registry>(server, incomplete), std::invalid_argument);
}

// ---- item: media types and Origin

TEST_CASE("http endpoint: Content-Type and Accept are media types, Origin and Host are parsed strictly") {
    mcp::http_options options;
    options.allowed_origins = {"https://app.example.com"};
    mcp::detail::http_endpoint<registry> endpoint(server, options, true);
    const auto with = [&](http::field field, std::string_view value) {
        auto r = post(std::string(initialize));
        r.set(field, value);
        return endpoint.handle(r).response.result();
    };
    CHECK(with(http::field::content_type, "text/plain; x=application/json") == http::status::unsupported_media_type);
    CHECK(with(http::field::content_type, "application/jsonp") == http::status::unsupported_media_type);
    CHECK(with(http::field::content_type, "application/json-seq") == http::status::unsupported_media_type);
    CHECK(with(http::field::content_type, "text/application/json") == http::status::unsupported_media_type);
    CHECK(with(http::field::content_type, "application/json; charset=\"utf-8\"") == http::status::ok);
    CHECK(with(http::field::accept, "text/html; x=application/json") == http::status::not_acceptable);
    CHECK(with(http::field::accept, "application/json;q=0, text/event-stream") == http::status::not_acceptable);
    CHECK(with(http::field::accept, "text/event-stream, application/*;q=0.5") == http::status::ok);

    CHECK(with(http::field::origin, "http://localhost:1@evil.example") == http::status::forbidden);
    CHECK(with(http::field::origin, "http://localhost@evil.example") == http::status::forbidden);
    CHECK(with(http::field::origin, "http://evil.example#@localhost") == http::status::forbidden);
    CHECK(with(http::field::origin, "http://localhost:99999") == http::status::forbidden);
    CHECK(with(http::field::origin, "http://localhost%2eevil.example") == http::status::forbidden);
    CHECK(with(http::field::origin, "null") == http::status::forbidden);
    CHECK(with(http::field::origin, "https://app.example.com:443") == http::status::ok);
    CHECK(with(http::field::origin, "https://app.example.com:8443") == http::status::forbidden);
    CHECK(with(http::field::origin, "http://127.0.0.1:6274") == http::status::ok);
    CHECK(with(http::field::host, "localhost@evil.example") == http::status::forbidden);
    CHECK(with(http::field::host, "localhost:80@evil.example") == http::status::forbidden);
}

// ---- item: SIGPIPE in the stdio server

TEST_CASE("stdio: a client that closes the server's standard output gets exit code 1, not SIGPIPE") {
    int in[2];
    int out[2];
    REQUIRE(::pipe(in) == 0);
    REQUIRE(::pipe(out) == 0);
    const ::pid_t child = ::fork();
    REQUIRE(child >= 0);
    if (child == 0) {
        ::dup2(in[0], 0);
        ::dup2(out[1], 1);
        ::close(in[0]);
        ::close(in[1]);
        ::close(out[0]);
        ::close(out[1]);
        ::signal(SIGPIPE, SIG_DFL);
        sigset_t none;
        sigemptyset(&none);
        ::sigprocmask(SIG_SETMASK, &none, nullptr);
        ::execl("/proc/self/exe", "agentry_hostile_mcp", "--serve-stdio", static_cast<char*>(nullptr));
        ::_exit(127);
    }
    ::close(in[0]);
    ::close(out[1]);
    ::close(out[0]);  // the reader of the server's output is gone
    const std::string input = std::string(initialize) + "\n" + R"({"jsonrpc":"2.0","id":2,"method":"ping"})" + "\n";
    CHECK(::write(in[1], input.data(), input.size()) == ::ssize_t(input.size()));
    ::close(in[1]);
    int status = 0;
    ::pid_t done = 0;
    for (int i = 0; i != 600 && done == 0; ++i) {  // up to 30 s
        done = ::waitpid(child, &status, WNOHANG);
        if (done == 0) ::poll(nullptr, 0, 50);
    }
    if (done == 0) {
        ::kill(child, SIGKILL);
        ::waitpid(child, &status, 0);
        FAIL("the stdio server did not end");
    }
    CHECK_FALSE(WIFSIGNALED(status));
    if (WIFSIGNALED(status)) MESSAGE("killed by signal " << WTERMSIG(status));
    REQUIRE(WIFEXITED(status));
    CHECK(WEXITSTATUS(status) == 1);
}

int main(int argc, char** argv) {
    if (argc == 2 && std::string_view(argv[1]) == "--serve-stdio") return mcp::serve_stdio(server);
    // The probes write to sockets and pipes whose peers may be gone.
    ::signal(SIGPIPE, SIG_IGN);
    return doctest::Context(argc, argv).run();
}
