// SPDX-License-Identifier: BSL-1.0
#ifndef AGENTRY_TESTS_HOSTILE_PROVIDER_LOOPBACK_HPP
#define AGENTRY_TESTS_HOSTILE_PROVIDER_LOOPBACK_HPP

// A hostile HTTP server on 127.0.0.1, in the test process: it reads each request, then writes
// `head`, then `repeat` over and over until the client hangs up or `cap` bytes are out, then
// closes the connection. Bounded: at most `max_connections` connections, and it stops when the
// object is destroyed (or after 60 s).

#include <atomic>
#include <chrono>
#include <cstddef>
#include <cstdio>
#include <cstdlib>
#include <string>
#include <thread>

#include <arpa/inet.h>
#include <netinet/in.h>
#include <poll.h>
#include <sys/socket.h>
#include <unistd.h>

namespace agentry_test {

struct hostile_reply {
    std::string head;
    std::string repeat{};
    std::size_t cap = 0;
};

class loopback_server {
public:
    explicit loopback_server(hostile_reply reply, int max_connections = 4)
        : reply_(std::move(reply)), max_connections_(max_connections) {
        listener_ = ::socket(AF_INET, SOCK_STREAM | SOCK_CLOEXEC, 0);
        sockaddr_in a{};
        a.sin_family = AF_INET;
        a.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
        if (listener_ < 0 || ::bind(listener_, reinterpret_cast<sockaddr*>(&a), sizeof a) != 0 ||
            ::listen(listener_, 8) != 0)
            std::abort();
        socklen_t n = sizeof a;
        ::getsockname(listener_, reinterpret_cast<sockaddr*>(&a), &n);
        port_ = ntohs(a.sin_port);
        thread_ = std::thread([this] { serve(); });
    }
    loopback_server(const loopback_server&) = delete;
    loopback_server& operator=(const loopback_server&) = delete;
    ~loopback_server() {
        stop_ = true;
        thread_.join();
        ::close(listener_);
    }

    std::string url(const std::string& path = "") const { return "http://127.0.0.1:" + std::to_string(port_) + path; }
    /// Bytes of `repeat` written over all connections.
    std::size_t written() const noexcept { return written_.load(); }

private:
    void serve() {
        const auto deadline = std::chrono::steady_clock::now() + std::chrono::seconds(60);
        int served = 0;
        while (!stop_ && served < max_connections_ && std::chrono::steady_clock::now() < deadline) {
            pollfd p{listener_, POLLIN, 0};
            if (::poll(&p, 1, 50) <= 0) continue;
            const int fd = ::accept4(listener_, nullptr, nullptr, SOCK_CLOEXEC);
            if (fd < 0) continue;
            ++served;
            answer(fd);
            ::close(fd);
        }
    }

    // Reads the request head and its Content-Length body.
    static bool read_request(int fd) {
        std::string in;
        char buffer[4096];
        std::size_t need = std::string::npos;
        while (in.size() < (std::size_t(16) << 20)) {
            const std::size_t end = in.find("\r\n\r\n");
            if (end != std::string::npos && need == std::string::npos) {
                need = end + 4;
                const std::size_t cl = in.find("Content-Length: ");
                if (cl != std::string::npos && cl < end) need += std::strtoul(in.c_str() + cl + 16, nullptr, 10);
            }
            if (need != std::string::npos && in.size() >= need) return true;
            const ssize_t n = ::recv(fd, buffer, sizeof buffer, 0);
            if (n <= 0) return false;
            in.append(buffer, std::size_t(n));
        }
        return false;
    }

    static bool send_all(int fd, const std::string& s) {
        std::size_t at = 0;
        while (at != s.size()) {
            const ssize_t n = ::send(fd, s.data() + at, s.size() - at, MSG_NOSIGNAL);
            if (n <= 0) return false;
            at += std::size_t(n);
        }
        return true;
    }

    void answer(int fd) {
        if (!read_request(fd) || !send_all(fd, reply_.head)) return;
        if (reply_.repeat.empty()) return;
        std::size_t out = 0;
        while (!stop_ && out < reply_.cap) {
            if (!send_all(fd, reply_.repeat)) return;
            out += reply_.repeat.size();
            written_ += reply_.repeat.size();
        }
    }

    hostile_reply reply_;
    int max_connections_;
    int listener_ = -1;
    int port_ = 0;
    std::atomic<bool> stop_{false};
    std::atomic<std::size_t> written_{0};
    std::thread thread_;
};

/// The resident set size of this process, in bytes.
inline std::size_t resident_bytes() {
    long pages = 0, resident = 0;
    if (FILE* f = std::fopen("/proc/self/statm", "r")) {
        if (std::fscanf(f, "%ld %ld", &pages, &resident) != 2) resident = 0;
        std::fclose(f);
    }
    return std::size_t(resident) * std::size_t(::sysconf(_SC_PAGESIZE));
}

} // namespace agentry_test

#endif
