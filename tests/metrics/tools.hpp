// SPDX-License-Identifier: BSL-1.0
#ifndef AGENTRY_TESTS_METRICS_TOOLS_HPP
#define AGENTRY_TESTS_METRICS_TOOLS_HPP

// Prometheus' programs for the metrics tests: finding them (a test skips, exit code 77, with the
// reason printed, when one is missing), running promtool on a file, and a Prometheus server on
// 127.0.0.1 with its HTTP query API.

#include <boost/asio/connect.hpp>
#include <boost/asio/io_context.hpp>
#include <boost/asio/ip/tcp.hpp>
#include <boost/beast/core/flat_buffer.hpp>
#include <boost/beast/http/read.hpp>
#include <boost/beast/http/string_body.hpp>
#include <boost/beast/http/write.hpp>

#include <arpa/inet.h>
#include <fcntl.h>
#include <netinet/in.h>
#include <signal.h>
#include <spawn.h>
#include <sys/socket.h>
#include <sys/wait.h>
#include <unistd.h>

#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <optional>
#include <sstream>
#include <string>
#include <string_view>
#include <thread>
#include <vector>

extern char** environ;

namespace metrics_test {

/// The program `name` on PATH; empty when there is none.
inline std::string on_path(std::string_view name) {
    const char* path = std::getenv("PATH");
    std::stringstream dirs(path ? path : "");
    for (std::string dir; std::getline(dirs, dir, ':');) {
        const std::filesystem::path p = std::filesystem::path(dir.empty() ? "." : dir) / name;
        if (::access(p.c_str(), X_OK) == 0) return p.string();
    }
    return {};
}

/// `name`'s path, or exit code 77 (ctest: skipped) with the reason printed.
inline std::string required(std::string_view name) {
    std::string found = on_path(name);
    if (found.empty()) {
        std::printf("SKIP: %.*s not found on PATH; install Debian's prometheus package\n", int(name.size()),
                    name.data());
        std::fflush(stdout);
        std::_Exit(77);
    }
    return found;
}

/// A folder of its own under the temporary directory, removed with the object.
struct scratch_dir {
    std::filesystem::path path;
    scratch_dir() {
        std::string t = (std::filesystem::temp_directory_path() / "agentry-metrics-XXXXXX").string();
        if (::mkdtemp(t.data())) path = t;
    }
    ~scratch_dir() {
        std::error_code ignored;
        if (!path.empty()) std::filesystem::remove_all(path, ignored);
    }
};

inline std::string read_file(const std::filesystem::path& p) {
    std::ifstream in(p, std::ios::binary);
    std::ostringstream text;
    text << in.rdbuf();
    return text.str();
}

/// Runs `args` with standard input from `input` (empty: /dev/null) and standard output and error
/// into `output`; its exit code (-1 when it could not run).
inline int run_program(std::vector<std::string> args, const std::filesystem::path& output,
                       const std::filesystem::path& input = {}) {
    posix_spawn_file_actions_t actions;
    posix_spawn_file_actions_init(&actions);
    posix_spawn_file_actions_addopen(&actions, 0, input.empty() ? "/dev/null" : input.c_str(), O_RDONLY, 0);
    posix_spawn_file_actions_addopen(&actions, 1, output.c_str(), O_WRONLY | O_CREAT | O_TRUNC, 0644);
    posix_spawn_file_actions_adddup2(&actions, 1, 2);
    std::vector<char*> argv;
    for (std::string& a : args) argv.push_back(a.data());
    argv.push_back(nullptr);
    pid_t pid = 0;
    const int spawned = ::posix_spawn(&pid, argv[0], &actions, nullptr, argv.data(), environ);
    posix_spawn_file_actions_destroy(&actions);
    if (spawned != 0) return -1;
    int status = 0;
    ::waitpid(pid, &status, 0);
    return WIFEXITED(status) ? WEXITSTATUS(status) : -1;
}

/// A free port on 127.0.0.1 (bound, then released).
inline unsigned short free_port() {
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

/// GET http://127.0.0.1:<port><target>: the status and the body; nullopt when no connection.
inline std::optional<std::pair<int, std::string>> http_get(unsigned short port, const std::string& target,
                                                           std::string_view bearer = {}) {
    namespace beast = boost::beast;
    namespace http = beast::http;
    try {
        boost::asio::io_context io;
        boost::asio::ip::tcp::socket socket(io);
        socket.connect({boost::asio::ip::make_address("127.0.0.1"), port});
        http::request<http::string_body> request{http::verb::get, target, 11};
        request.set(http::field::host, "127.0.0.1:" + std::to_string(port));
        if (!bearer.empty()) request.set(http::field::authorization, "Bearer " + std::string(bearer));
        request.keep_alive(false);
        http::write(socket, request);
        beast::flat_buffer buffer;
        http::response<http::string_body> response;
        http::read(socket, buffer, response);
        return std::pair{static_cast<int>(response.result_int()), response.body()};
    } catch (...) {
        return std::nullopt;
    }
}

/// `text` as a URL query component.
inline std::string url_encoded(std::string_view text) {
    static constexpr char hex[] = "0123456789ABCDEF";
    std::string out;
    for (unsigned char c : text) {
        if ((c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '-' || c == '_' ||
            c == '.' || c == '~') {
            out += static_cast<char>(c);
        } else {
            out += '%';
            out += hex[c >> 4];
            out += hex[c & 15];
        }
    }
    return out;
}

/// A Prometheus server on 127.0.0.1 with `config`, its data in a scratch folder; stopped
/// (SIGTERM) with the object. Exit code 77 when prometheus is not installed.
class prometheus_server {
public:
    explicit prometheus_server(const std::string& config)
        : program_(required("prometheus")), port_(free_port()) {
        std::ofstream(dir_.path / "prometheus.yml") << config;
        std::vector<std::string> args{program_,
                                      "--config.file=" + (dir_.path / "prometheus.yml").string(),
                                      "--storage.tsdb.path=" + (dir_.path / "data").string(),
                                      "--web.listen-address=127.0.0.1:" + std::to_string(port_),
                                      "--log.level=warn"};
        posix_spawn_file_actions_t actions;
        posix_spawn_file_actions_init(&actions);
        posix_spawn_file_actions_addopen(&actions, 0, "/dev/null", O_RDONLY, 0);
        posix_spawn_file_actions_addopen(&actions, 1, log().c_str(), O_WRONLY | O_CREAT | O_TRUNC, 0644);
        posix_spawn_file_actions_adddup2(&actions, 1, 2);
        std::vector<char*> argv;
        for (std::string& a : args) argv.push_back(a.data());
        argv.push_back(nullptr);
        if (::posix_spawn(&pid_, argv[0], &actions, nullptr, argv.data(), environ) != 0) pid_ = -1;
        posix_spawn_file_actions_destroy(&actions);
    }
    ~prometheus_server() {
        if (pid_ > 0) {
            ::kill(pid_, SIGTERM);
            ::waitpid(pid_, nullptr, 0);
        }
    }
    prometheus_server(const prometheus_server&) = delete;
    prometheus_server& operator=(const prometheus_server&) = delete;

    bool started() const noexcept { return pid_ > 0; }
    std::filesystem::path log() const { return dir_.path / "prometheus.log"; }

    /// The value of the instant query `expr`'s first result, polled every 250 ms until it equals
    /// `expected` or `limit` passes; the last value seen (or the last answer, when it had none).
    std::string poll(const std::string& expr, std::string_view expected,
                     std::chrono::seconds limit = std::chrono::seconds(60)) const {
        const auto until = std::chrono::steady_clock::now() + limit;
        std::string last = "(no answer)";
        while (std::chrono::steady_clock::now() < until) {
            if (const auto answer = http_get(port_, "/api/v1/query?query=" + url_encoded(expr))) {
                last = answer->second;
                // {"status":"success","data":{"resultType":"vector","result":[{"metric":{...},"value":[<time>,"3"]}]}}
                const std::size_t value = last.find("\"value\":[");
                if (value != std::string::npos) {
                    const std::size_t open = last.find('"', last.find(',', value));
                    const std::size_t close = last.find('"', open + 1);
                    if (open != std::string::npos && close != std::string::npos) {
                        last = last.substr(open + 1, close - open - 1);
                        if (last == expected) return last;
                    }
                }
            }
            std::this_thread::sleep_for(std::chrono::milliseconds(250));
        }
        return last;
    }

    /// The answer to the instant query `expr` (the JSON text), or what went wrong.
    std::string query(const std::string& expr) const {
        const auto answer = http_get(port_, "/api/v1/query?query=" + url_encoded(expr));
        return answer ? answer->second : "(no answer)";
    }

private:
    scratch_dir dir_;
    std::string program_;
    unsigned short port_;
    pid_t pid_ = -1;
};

} // namespace metrics_test

#endif
