// SPDX-License-Identifier: BSL-1.0
// mcp::client over https:// (agentry::tls): a TLS front on 127.0.0.1 with a self-signed
// certificate made here (never written to the source tree), in front of examples/mcp_server
// --http, or answering scripted HTTP responses. With --bench <calls> it prints the median
// tools/call round trip over http:// and https:// (benchmarks/RESULTS.md).
#define DOCTEST_CONFIG_IMPLEMENT
#include "doc_block.hpp"

#include <doctest/doctest.h>

#include <agentry/mcp/client.hpp>

#include <openssl/err.h>
#include <openssl/evp.h>
#include <openssl/pem.h>
#include <openssl/ssl.h>
#include <openssl/x509v3.h>

#include <algorithm>
#include <arpa/inet.h>
#include <atomic>
#include <chrono>
#include <csignal>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <memory>
#include <mutex>
#include <sstream>
#include <netinet/in.h>
#include <poll.h>
#include <spawn.h>
#include <string>
#include <string_view>
#include <sys/socket.h>
#include <sys/wait.h>
#include <thread>
#include <unistd.h>
#include <vector>

namespace {

namespace mcp = agentry::mcp;

bool contains(std::string_view text, std::string_view part) { return text.find(part) != std::string_view::npos; }

// A self-signed certificate (P-256) for the names of `san` ("IP:127.0.0.1,DNS:localhost"), and
// its key, as PEM text.
struct certificate {
    std::string cert_pem;
    std::string key_pem;
};

std::string pem_of(BIO* bio) {
    char* data = nullptr;
    const long n = BIO_get_mem_data(bio, &data);
    std::string out(data, std::size_t(n));
    BIO_free(bio);
    return out;
}

certificate make_certificate(const std::string& san) {
    EVP_PKEY* key = EVP_EC_gen("P-256");
    X509* x = X509_new();
    X509_set_version(x, 2);
    ASN1_INTEGER_set(X509_get_serialNumber(x), long(std::chrono::steady_clock::now().time_since_epoch().count() & 0x7fffffff));
    X509_gmtime_adj(X509_getm_notBefore(x), -3600);
    X509_gmtime_adj(X509_getm_notAfter(x), 86400);
    X509_set_pubkey(x, key);
    X509_NAME* name = X509_get_subject_name(x);
    X509_NAME_add_entry_by_txt(name, "CN", MBSTRING_ASC, reinterpret_cast<const unsigned char*>("agentry test"), -1, -1, 0);
    X509_set_issuer_name(x, name);
    X509V3_CTX ctx;
    X509V3_set_ctx_nodb(&ctx);
    X509V3_set_ctx(&ctx, x, x, nullptr, nullptr, 0);
    for (const auto& [nid, value] : {std::pair{NID_subject_alt_name, san}, std::pair{NID_basic_constraints, std::string("critical,CA:TRUE")},
                                     std::pair{NID_key_usage, std::string("critical,digitalSignature,keyCertSign")}}) {
        X509_EXTENSION* e = X509V3_EXT_conf_nid(nullptr, &ctx, nid, value.c_str());
        X509_add_ext(x, e, -1);
        X509_EXTENSION_free(e);
    }
    X509_sign(x, key, EVP_sha256());
    BIO* c = BIO_new(BIO_s_mem());
    PEM_write_bio_X509(c, x);
    BIO* k = BIO_new(BIO_s_mem());
    PEM_write_bio_PrivateKey(k, key, nullptr, nullptr, 0, nullptr, nullptr);
    X509_free(x);
    EVP_PKEY_free(key);
    return {pem_of(c), pem_of(k)};
}

// A directory under the system's temporary directory, removed at the end of the scope.
struct temp_dir {
    std::filesystem::path path;
    temp_dir() {
        std::string t = (std::filesystem::temp_directory_path() / "agentry-tls-XXXXXX").string();
        path = ::mkdtemp(t.data());
    }
    ~temp_dir() {
        std::error_code ec;
        std::filesystem::remove_all(path, ec);
    }
    std::string write(const std::string& name, const std::string& text) const {
        std::ofstream(path / name) << text;
        return (path / name).string();
    }
};

int listen_loopback(unsigned short& port) {
    const int fd = ::socket(AF_INET, SOCK_STREAM | SOCK_CLOEXEC, 0);
    sockaddr_in a{};
    a.sin_family = AF_INET;
    a.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
    ::bind(fd, reinterpret_cast<sockaddr*>(&a), sizeof a);
    ::listen(fd, 16);
    socklen_t len = sizeof a;
    ::getsockname(fd, reinterpret_cast<sockaddr*>(&a), &len);
    port = ntohs(a.sin_port);
    return fd;
}

unsigned short free_port() {
    unsigned short port = 0;
    ::close(listen_loopback(port));
    return port;
}

// Reads one HTTP request (the head, then Content-Length bytes of body) with `recv`.
template <class Receive>
std::string read_request(Receive&& recv) {
    std::string request;
    char buffer[4096];
    for (;;) {
        const std::size_t head = request.find("\r\n\r\n");
        if (head != std::string::npos) {
            const std::size_t at = request.find("Content-Length: ");
            const std::size_t length = at == std::string::npos ? 0 : std::stoul(request.substr(at + 16));
            if (request.size() >= head + 4 + length) return request;
        }
        const int n = recv(buffer, int(sizeof buffer));
        if (n <= 0) return request;
        request.append(buffer, std::size_t(n));
    }
}

// A TLS server on 127.0.0.1 with `cert`: each connection's request is forwarded to
// 127.0.0.1:backend and the answer relayed back (backend != 0), or answered with the next of
// `responses`. It stops at the end of the scope, or after 10,000 connections, or when no
// connection came for 30 s. With `plain` it is the same server without TLS (for --bench).
struct tls_front {
    bool plain = false;
    SSL_CTX* ctx = nullptr;
    int fd = -1;
    unsigned short port = 0;
    unsigned short backend = 0;
    std::vector<std::string> responses;
    std::vector<std::string> requests;  // the scripted ones, as received
    std::atomic<bool> stop{false};
    std::atomic<int> resumed{0};  // connections that resumed a TLS session
    std::mutex sni_mutex;
    std::string sni;  // the server name of the last connection that sent one
    std::thread thread;

    tls_front(const certificate& cert, unsigned short backend_port, std::vector<std::string> scripted = {},
              bool without_tls = false)
        : plain(without_tls), backend(backend_port), responses(std::move(scripted)) {
        ctx = SSL_CTX_new(TLS_server_method());
        BIO* c = BIO_new_mem_buf(cert.cert_pem.data(), int(cert.cert_pem.size()));
        X509* x = PEM_read_bio_X509(c, nullptr, nullptr, nullptr);
        BIO* k = BIO_new_mem_buf(cert.key_pem.data(), int(cert.key_pem.size()));
        EVP_PKEY* key = PEM_read_bio_PrivateKey(k, nullptr, nullptr, nullptr);
        SSL_CTX_use_certificate(ctx, x);
        SSL_CTX_use_PrivateKey(ctx, key);
        X509_free(x);
        EVP_PKEY_free(key);
        BIO_free(c);
        BIO_free(k);
        fd = listen_loopback(port);
        thread = std::thread([this] { run(); });
    }
    ~tls_front() {
        stop = true;
        thread.join();
        ::close(fd);
        SSL_CTX_free(ctx);
    }
    std::string url(std::string_view host = "127.0.0.1") const {
        return (plain ? "http://" : "https://") + std::string(host) + ":" + std::to_string(port) + "/mcp";
    }

    void run() {
        std::size_t next = 0;
        int idle = 0;
        for (int served = 0; served != 10'000 && !stop && idle != 300;) {
            pollfd p{fd, POLLIN, 0};
            if (::poll(&p, 1, 100) <= 0) {
                ++idle;
                continue;
            }
            idle = 0;
            ++served;
            const int client = ::accept4(fd, nullptr, nullptr, SOCK_CLOEXEC);
            if (client < 0) continue;
            timeval five{5, 0};  // a stuck peer cannot hold the server
            ::setsockopt(client, SOL_SOCKET, SO_RCVTIMEO, &five, sizeof five);
            SSL* ssl = SSL_new(ctx);
            SSL_set_fd(ssl, client);
            const auto read = [&](char* b, int n) { return plain ? int(::recv(client, b, std::size_t(n), 0)) : SSL_read(ssl, b, n); };
            const auto write = [&](const char* b, int n) {
                return plain ? int(::send(client, b, std::size_t(n), MSG_NOSIGNAL)) : SSL_write(ssl, b, n);
            };
            if (plain || SSL_accept(ssl) == 1) {
                if (!plain && SSL_session_reused(ssl)) ++resumed;
                if (const char* name = plain ? nullptr : SSL_get_servername(ssl, TLSEXT_NAMETYPE_host_name)) {
                    std::lock_guard lock(sni_mutex);
                    sni = name;
                }
                const std::string request = read_request(read);
                if (backend != 0) relay(write, client, request);
                else if (next < responses.size()) {
                    requests.push_back(request);
                    write(responses[next].data(), int(responses[next].size()));
                    ++next;
                }
                if (!plain) SSL_shutdown(ssl);
            }
            ERR_clear_error();
            SSL_free(ssl);
            ::close(client);
        }
    }

    // Sends `request` to the backend and relays its answer until either side closes.
    template <class Write>
    void relay(const Write& write, int client, const std::string& request) {
        const int b = ::socket(AF_INET, SOCK_STREAM | SOCK_CLOEXEC, 0);
        sockaddr_in a{};
        a.sin_family = AF_INET;
        a.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
        a.sin_port = htons(backend);
        if (::connect(b, reinterpret_cast<sockaddr*>(&a), sizeof a) == 0 &&
            ::send(b, request.data(), request.size(), MSG_NOSIGNAL) == ssize_t(request.size())) {
            for (int i = 0; i != 100; ++i) {  // at most 10 s
                pollfd p[2]{{b, POLLIN, 0}, {client, POLLIN, 0}};
                if (::poll(p, 2, 100) == 0) continue;
                if (p[1].revents) break;  // the client is done (or closed)
                char buffer[16384];
                const ssize_t n = ::recv(b, buffer, sizeof buffer, 0);
                if (n <= 0 || write(buffer, int(n)) <= 0) break;
                i = 0;
            }
        }
        ::close(b);
    }
};

// examples/mcp_server --http <port>, stopped with SIGTERM at the end of the scope.
struct http_example {
    pid_t pid = -1;
    unsigned short port = free_port();
    http_example() {
        std::vector<std::string> args{AGENTRY_TEST_MCP_SERVER, "--http", std::to_string(port)};
        std::vector<char*> argv;
        for (std::string& s : args) argv.push_back(s.data());
        argv.push_back(nullptr);
        ::posix_spawn(&pid, argv[0], nullptr, nullptr, argv.data(), environ);
    }
    ~http_example() {
        ::kill(pid, SIGTERM);
        ::waitpid(pid, nullptr, 0);
    }
    std::string url() const { return "http://127.0.0.1:" + std::to_string(port) + "/mcp"; }
};

// Connects, retrying while the backend starts (at most 800 tries, 25 ms apart): the TLS front
// is up at once, but its backend answers nothing until it listens.
agentry::outcome<std::shared_ptr<mcp::client>> connect_retrying(const mcp::http_url& url) {
    for (int i = 0;; ++i) {
        auto c = mcp::client::connect(url);
        if (c || i == 800 ||
            !(contains(c.error().message, "cannot connect") || contains(c.error().message, "closed the connection")))
            return c;
        std::this_thread::sleep_for(std::chrono::milliseconds(25));
    }
}

void check_session(mcp::client& c) {
    CHECK(c.server_name() == "weather");
    auto tools = c.list_tools();
    REQUIRE_MESSAGE(tools.has_value(), (tools ? std::string() : tools.error().message));
    CHECK(tools->size() == 2);
    auto r = c.call_tool("add", R"({"a":1,"b":2})");
    REQUIRE_MESSAGE(r.has_value(), (r ? std::string() : r.error().message));
    CHECK(r->text == "3");
    auto w = c.call_tool("get_weather", R"({"city":"Paris"})");
    REQUIRE(w.has_value());
    CHECK(contains(w->structured_content, R"("condition":"rain")"));
}

const certificate& loopback_certificate() {
    static const certificate c = make_certificate("IP:127.0.0.1,DNS:localhost");
    return c;
}

} // namespace

TEST_CASE("tls: initialize, tools/list, tools/call over https with the CA trusted by file and by PEM") {
    http_example backend;
    tls_front front(loopback_certificate(), backend.port);
    temp_dir dir;
    mcp::http_url by_file{front.url()};
    by_file.tls_ca_file = dir.write("ca.pem", loopback_certificate().cert_pem);
    auto c = connect_retrying(by_file);
    REQUIRE_MESSAGE(c.has_value(), (c ? std::string() : c.error().message));
    CHECK((*c)->protocol_version() == "2025-11-25");
    check_session(**c);
    (*c)->close();
    CHECK(front.resumed > 0);  // a connection per message, each after the first resumes the session

    // By host name (checked against the DNS names, and sent as SNI).
    mcp::http_url by_pem{front.url("localhost")};
    by_pem.tls_ca_pem = loopback_certificate().cert_pem;
    auto p = mcp::client::connect(by_pem);
    REQUIRE_MESSAGE(p.has_value(), (p ? std::string() : p.error().message));
    check_session(**p);
    std::lock_guard lock(front.sni_mutex);
    CHECK(front.sni == "localhost");
}

TEST_CASE("tls: a server whose CA is not trusted is refused, naming verification and how to trust the CA") {
    tls_front front(loopback_certificate(), 0);
    auto c = mcp::client::connect(mcp::http_url{front.url()});
    REQUIRE_FALSE(c.has_value());
    INFO(c.error().message);
    CHECK(c.error().message.rfind("agentry: mcp::client: ", 0) == 0);
    CHECK(contains(c.error().message, "initialize: TLS certificate verification failed for '127.0.0.1' (self-signed certificate)"));
    CHECK(contains(c.error().message, "trust that CA with http_url::tls_ca_file or http_url::tls_ca_pem"));
}

TEST_CASE("tls: a certificate for another name is refused, even with its CA trusted") {
    const certificate other = make_certificate("DNS:mcp.example.com");
    tls_front front(other, 0);
    mcp::http_url url{front.url()};
    url.tls_ca_pem = other.cert_pem;
    auto c = mcp::client::connect(url);
    REQUIRE_FALSE(c.has_value());
    INFO(c.error().message);
    CHECK(contains(c.error().message, "TLS certificate verification failed: the server's certificate is not for '127.0.0.1'"));
    // By name: the certificate names 127.0.0.1, not localhost.
    const certificate ip_only = make_certificate("IP:127.0.0.1");
    tls_front by_ip(ip_only, 0);
    mcp::http_url localhost{by_ip.url("localhost")};
    localhost.tls_ca_pem = ip_only.cert_pem;
    auto l = mcp::client::connect(localhost);
    REQUIRE_FALSE(l.has_value());
    INFO(l.error().message);
    CHECK(contains(l.error().message, "is not for 'localhost'"));
}

TEST_CASE("tls: insecure_skip_tls_verify connects to an untrusted certificate for another name") {
    http_example backend;
    const certificate other = make_certificate("DNS:mcp.example.com");
    tls_front front(other, backend.port);
    mcp::http_url url{front.url()};
    url.insecure_skip_tls_verify = true;
    auto c = connect_retrying(url);
    REQUIRE_MESSAGE(c.has_value(), (c ? std::string() : c.error().message));
    check_session(**c);
}

TEST_CASE("tls: an SSE answer over https with progress, session id, and DELETE on close") {
    const std::string init =
        R"({"jsonrpc":"2.0","id":1,"result":{"protocolVersion":"2025-06-18","capabilities":{"tools":{}},"serverInfo":{"name":"sse","version":"1"}}})";
    std::string events =
        "event: message\r\n"
        R"(data: {"jsonrpc":"2.0","method":"notifications/progress","params":{"progressToken":2,"progress":1,"total":2}})"
        "\r\n\r\n"
        R"(data: {"jsonrpc":"2.0","id":2,"result":{"content":[{"type":"text","text":")" +
        std::string(40'000, 'x') + R"("}],"isError":false}})"
        "\n\n";
    tls_front front(loopback_certificate(), 0,
                    {"HTTP/1.1 200 OK\r\nContent-Type: application/json\r\nMcp-Session-Id: s1\r\nContent-Length: " +
                         std::to_string(init.size()) + "\r\n\r\n" + init,
                     "HTTP/1.1 202 Accepted\r\nContent-Length: 0\r\n\r\n",
                     "HTTP/1.1 200 OK\r\nContent-Type: text/event-stream\r\n\r\n" + events,
                     "HTTP/1.1 200 OK\r\nContent-Length: 0\r\n\r\n"});
    mcp::http_url url{front.url(), {{"Authorization", "Bearer t"}}};
    url.tls_ca_pem = loopback_certificate().cert_pem;
    auto c = mcp::client::connect(url);
    REQUIRE_MESSAGE(c.has_value(), (c ? std::string() : c.error().message));
    std::vector<double> progress;
    mcp::request_options ro;
    ro.on_progress = [&](const mcp::progress& p) { progress.push_back(p.progress); };
    auto r = (*c)->call_tool("long", "{}", ro);
    REQUIRE_MESSAGE(r.has_value(), (r ? std::string() : r.error().message));
    CHECK(r->text == std::string(40'000, 'x'));  // across several TLS records
    CHECK(progress == std::vector<double>{1});
    (*c)->close();
    front.stop = true;
    front.thread.join();
    front.thread = std::thread([] {});
    REQUIRE(front.requests.size() == 4);
    CHECK(contains(front.requests[0], "Authorization: Bearer t\r\n"));
    CHECK(contains(front.requests[2], "Mcp-Session-Id: s1\r\n"));
    CHECK(front.requests[3].rfind("DELETE /mcp HTTP/1.1\r\n", 0) == 0);
}

TEST_CASE("tls: settings refused before connecting") {
    mcp::http_url missing{"https://127.0.0.1:1/mcp"};
    missing.tls_ca_file = "/nonexistent/ca.pem";
    auto f = mcp::client::connect(missing);
    REQUIRE_FALSE(f.has_value());
    CHECK(contains(f.error().message, "cannot load the CA file \"/nonexistent/ca.pem\""));
    mcp::http_url not_pem{"https://127.0.0.1:1/mcp"};
    not_pem.tls_ca_pem = "not a certificate";
    auto p = mcp::client::connect(not_pem);
    REQUIRE_FALSE(p.has_value());
    CHECK(contains(p.error().message, "tls_ca_pem holds no PEM certificate"));
    // Without verification a credential goes to a remote host only when allowed by name.
    mcp::http_url insecure{"https://mcp.example.com/mcp", {{"Authorization", "Bearer secret"}}};
    insecure.insecure_skip_tls_verify = true;
    auto i = mcp::client::connect(insecure);
    REQUIRE_FALSE(i.has_value());
    CHECK(i.error().kind == agentry::failure_kind::permission);
    CHECK(contains(i.error().message, "over https:// without certificate verification"));
    CHECK_FALSE(contains(i.error().message, "secret"));
}

namespace {

// The example of docs/mcp.md (TLS), byte for byte.
std::shared_ptr<agentry::mcp::client> connect_remote(const std::string& token) {
    agentry::mcp::http_url remote{"https://mcp.example.com/mcp", {{"Authorization", "Bearer " + token}}};
    remote.tls_ca_file = "/etc/my-company/ca.pem";  // optional: a CA trusted besides the system's
    auto c = agentry::mcp::client::connect(remote);
    if (!c) {
        std::fprintf(stderr, "%s\n", c.error().message.c_str());  // an agentry::failure, never an exception
        return nullptr;
    }
    return *c;
}

} // namespace

TEST_CASE("docs/mcp.md: the example of TLS is in this file, and refuses a CA file that is not there") {
    const std::string block = mcp_test::doc_block("**TLS (`https://`).**");
    CHECK(block.starts_with("std::shared_ptr<agentry::mcp::client> connect_remote("));
    CHECK(mcp_test::in_test_file(block, "client_tls.cpp"));
    CHECK(connect_remote("t") == nullptr);  // /etc/my-company/ca.pem does not load
}

namespace {

// The median time of `calls` tools/call round trips on one session, in microseconds.
double median_call_us(const mcp::http_url& url, int calls) {
    auto c = connect_retrying(url);
    if (!c) {
        std::fprintf(stderr, "%s\n", c.error().message.c_str());
        return -1;
    }
    std::vector<double> us;
    for (int i = 0; i != calls; ++i) {
        const auto start = std::chrono::steady_clock::now();
        auto r = (*c)->call_tool("add", R"({"a":1,"b":2})");
        const auto end = std::chrono::steady_clock::now();
        if (!r || r->text != "3") return -1;
        us.push_back(std::chrono::duration<double, std::micro>(end - start).count());
    }
    std::sort(us.begin(), us.end());
    return us[us.size() / 2];
}

// --bench <calls>: examples/mcp_server directly, behind the test's front without TLS, and
// behind it with TLS.
int bench(int calls) {
    http_example backend;
    tls_front tls(loopback_certificate(), backend.port);
    tls_front plain(loopback_certificate(), backend.port, {}, true);
    mcp::http_url https{tls.url()};
    https.tls_ca_pem = loopback_certificate().cert_pem;
    const double direct = median_call_us(mcp::http_url{backend.url()}, calls);
    const double relayed = median_call_us(mcp::http_url{plain.url()}, calls);
    const double secured = median_call_us(https, calls);
    std::printf("tools/call, median of %d calls: http:// direct %.0f us, http:// via the front %.0f us, "
                "https:// via the front %.0f us\n",
                calls, direct, relayed, secured);
    return direct < 0 || relayed < 0 || secured < 0;
}

} // namespace

int main(int argc, char** argv) {
    if (argc >= 3 && std::string_view(argv[1]) == "--bench") return bench(std::atoi(argv[2]));
    doctest::Context context(argc, argv);
    return context.run();
}
