// SPDX-License-Identifier: BSL-1.0
#ifndef AGENTRY_TESTS_INTEGRATION_FAULT_SERVER_HPP
#define AGENTRY_TESTS_INTEGRATION_FAULT_SERVER_HPP

// Runs fault_server.mjs in a child node process for the life of the test program: started by
// the first test that needs it, stopped (its standard input closed) at exit. Without node the
// program prints why and exits with 77, which ctest reports as skipped.

#include <cerrno>
#include <cstdio>
#include <cstdlib>
#include <string>

#include <fcntl.h>
#include <spawn.h>
#include <sys/wait.h>
#include <unistd.h>

extern char** environ;

namespace agentry_test {

class fault_server {
public:
    int http_port = 0;
    int https_port = 0;
    int proxy_port = 0;

    static fault_server& get() {
        static fault_server server;
        return server;
    }

    std::string http(const std::string& path) const { return "http://127.0.0.1:" + std::to_string(http_port) + path; }
    std::string https(const std::string& path) const { return "https://127.0.0.1:" + std::to_string(https_port) + path; }
    std::string proxy() const { return "http://127.0.0.1:" + std::to_string(proxy_port); }

    fault_server(const fault_server&) = delete;
    fault_server& operator=(const fault_server&) = delete;

    ~fault_server() {
        if (stdin_fd_ >= 0) ::close(stdin_fd_);
        if (pid_ > 0) {
            int status = 0;
            ::waitpid(pid_, &status, 0);
        }
    }

private:
    fault_server() {
        const std::string node = AGENTRY_NODE;
        if (node.empty()) skip("node was not found when the project was configured");
        int in[2], out[2];
        if (::pipe2(in, O_CLOEXEC) != 0 || ::pipe2(out, O_CLOEXEC) != 0) fail("pipe2 failed");
        posix_spawn_file_actions_t actions;
        posix_spawn_file_actions_init(&actions);
        posix_spawn_file_actions_adddup2(&actions, in[0], 0);
        posix_spawn_file_actions_adddup2(&actions, out[1], 1);
        const char* script = AGENTRY_FAULT_SERVER;
        char* argv[] = {const_cast<char*>(node.c_str()), const_cast<char*>(script), nullptr};
        const int spawned = ::posix_spawn(&pid_, node.c_str(), &actions, nullptr, argv, environ);
        posix_spawn_file_actions_destroy(&actions);
        ::close(in[0]);
        ::close(out[1]);
        stdin_fd_ = in[1];
        if (spawned != 0) {
            pid_ = 0;
            skip(("node could not be started: " + node).c_str());
        }
        std::string line;
        char c = 0;
        while (line.size() < 200) {
            const ssize_t n = ::read(out[0], &c, 1);
            if (n < 0 && errno == EINTR) continue;
            if (n <= 0 || c == '\n') break;
            line.push_back(c);
        }
        ::close(out[0]);
        if (std::sscanf(line.c_str(), "ports %d %d %d", &http_port, &https_port, &proxy_port) != 3)
            fail(("fault_server.mjs did not print its ports; it printed: " + line).c_str());
    }

    [[noreturn]] static void skip(const char* why) {
        std::printf("SKIP: %s; the integration tests need Node.js for fault_server.mjs\n", why);
        std::fflush(stdout);
        std::exit(77);
    }

    [[noreturn]] static void fail(const char* why) {
        std::printf("FAIL: %s\n", why);
        std::fflush(stdout);
        std::exit(1);
    }

    pid_t pid_ = 0;
    int stdin_fd_ = -1;
};

} // namespace agentry_test

#endif
