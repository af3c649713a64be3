// SPDX-License-Identifier: BSL-1.0
#ifndef AGENTRY_TESTS_INTEGRATION_AGENT_NODE_SERVER_HPP
#define AGENTRY_TESTS_INTEGRATION_AGENT_NODE_SERVER_HPP

// A server script run by node in a child process for the life of the test program. The script
// prints one line, "port <n>" once it listens on 127.0.0.1:<n>, or "skip <reason>" when what it
// needs is missing; it stops when its standard input ends, which the destructor (or the test
// program's exit) brings about. Without node, or on "skip", the program prints why and exits
// with 77, which ctest reports as skipped.

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

class node_server {
public:
    /// Starts `node script`; `node` empty: node was not found when the project was configured.
    node_server(const std::string& node, const std::string& script) {
        if (node.empty()) skip("node was not found when the project was configured; these tests need Node.js");
        int in[2], out[2];
        if (::pipe2(in, O_CLOEXEC) != 0 || ::pipe2(out, O_CLOEXEC) != 0) fail("pipe2 failed");
        posix_spawn_file_actions_t actions;
        posix_spawn_file_actions_init(&actions);
        posix_spawn_file_actions_adddup2(&actions, in[0], 0);
        posix_spawn_file_actions_adddup2(&actions, out[1], 1);
        char* argv[] = {const_cast<char*>(node.c_str()), const_cast<char*>(script.c_str()), nullptr};
        const int spawned = ::posix_spawn(&pid_, node.c_str(), &actions, nullptr, argv, environ);
        posix_spawn_file_actions_destroy(&actions);
        ::close(in[0]);
        ::close(out[1]);
        stdin_fd_ = in[1];
        if (spawned != 0) {
            pid_ = 0;
            ::close(out[0]);
            skip("node could not be started: " + node);
        }
        std::string line;
        char c = 0;
        while (line.size() < 500) {
            const ssize_t n = ::read(out[0], &c, 1);
            if (n < 0 && errno == EINTR) continue;
            if (n <= 0 || c == '\n') break;
            line.push_back(c);
        }
        ::close(out[0]);
        if (line.rfind("skip ", 0) == 0) skip(line.substr(5));
        if (std::sscanf(line.c_str(), "port %d", &port_) != 1 || port_ <= 0)
            fail(script + " did not print its port; it printed: " + line);
    }

    node_server(const node_server&) = delete;
    node_server& operator=(const node_server&) = delete;

    ~node_server() {
        if (stdin_fd_ >= 0) ::close(stdin_fd_);
        if (pid_ > 0) {
            int status = 0;
            ::waitpid(pid_, &status, 0);
        }
    }

    int port() const noexcept { return port_; }
    std::string url(const std::string& path) const { return "http://127.0.0.1:" + std::to_string(port_) + path; }

private:
    [[noreturn]] static void skip(const std::string& why) {
        std::printf("SKIP: %s\n", why.c_str());
        std::fflush(stdout);
        std::exit(77);
    }

    [[noreturn]] static void fail(const std::string& why) {
        std::printf("FAIL: %s\n", why.c_str());
        std::fflush(stdout);
        std::exit(1);
    }

    pid_t pid_ = 0;
    int stdin_fd_ = -1;
    int port_ = 0;
};

} // namespace agentry_test

#endif
