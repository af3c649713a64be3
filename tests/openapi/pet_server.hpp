// SPDX-License-Identifier: BSL-1.0
#ifndef AGENTRY_TESTS_OPENAPI_PET_SERVER_HPP
#define AGENTRY_TESTS_OPENAPI_PET_SERVER_HPP

// A pet store on 127.0.0.1 in the test process, for the end-to-end test: each connection
// carries one request (head and Content-Length body), which `answer` turns into a status and a
// JSON body; the connection is then closed. Bounded: at most `max_requests` requests, and it
// stops when destroyed (or after 60 s).

#include <atomic>
#include <chrono>
#include <cstddef>
#include <cstdlib>
#include <functional>
#include <mutex>
#include <string>
#include <thread>
#include <vector>

#include <arpa/inet.h>
#include <netinet/in.h>
#include <poll.h>
#include <sys/socket.h>
#include <unistd.h>

namespace agentry_test {

struct served_request {
    /// "GET /v1/pets?limit=2 HTTP/1.1" and the header lines, as received.
    std::string head;
    std::string body;

    /// The value of header `name` (exact case, as sent), or empty.
    std::string header(const std::string& name) const {
        const std::size_t at = head.find("\r\n" + name + ": ");
        if (at == std::string::npos) return {};
        const std::size_t start = at + name.size() + 4;
        return head.substr(start, head.find("\r\n", start) - start);
    }
    std::string request_line() const { return head.substr(0, head.find("\r\n")); }
};

struct served_reply {
    int status = 200;
    std::string body;
};

class pet_server {
public:
    pet_server(std::function<served_reply(const served_request&)> answer, int max_requests)
        : answer_(std::move(answer)), max_requests_(max_requests) {
        listener_ = ::socket(AF_INET, SOCK_STREAM | SOCK_CLOEXEC, 0);
        sockaddr_in a{};
        a.sin_family = AF_INET;
        a.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
        if (listener_ < 0 || ::bind(listener_, reinterpret_cast<sockaddr*>(&a), sizeof a) != 0 || ::listen(listener_, 8) != 0)
            std::abort();
        socklen_t n = sizeof a;
        ::getsockname(listener_, reinterpret_cast<sockaddr*>(&a), &n);
        port_ = ntohs(a.sin_port);
        thread_ = std::thread([this] { serve(); });
    }
    pet_server(const pet_server&) = delete;
    pet_server& operator=(const pet_server&) = delete;
    ~pet_server() {
        stop_ = true;
        thread_.join();
        ::close(listener_);
    }

    int port() const noexcept { return port_; }
    std::vector<served_request> received() const {
        std::lock_guard lock(mutex_);
        return received_;
    }

private:
    void serve() {
        const auto deadline = std::chrono::steady_clock::now() + std::chrono::seconds(60);
        int served = 0;
        while (!stop_ && served < max_requests_ && std::chrono::steady_clock::now() < deadline) {
            pollfd p{listener_, POLLIN, 0};
            if (::poll(&p, 1, 50) <= 0) continue;
            const int fd = ::accept4(listener_, nullptr, nullptr, SOCK_CLOEXEC);
            if (fd < 0) continue;
            ++served;
            served_request r;
            if (read_request(fd, r)) {
                const served_reply reply = answer_(r);
                {
                    std::lock_guard lock(mutex_);
                    received_.push_back(r);
                }
                const std::string out = "HTTP/1.1 " + std::to_string(reply.status) +
                                        " X\r\nContent-Type: application/json\r\nConnection: close\r\nContent-Length: " +
                                        std::to_string(reply.body.size()) + "\r\n\r\n" + reply.body;
                std::size_t at = 0;
                while (at != out.size()) {
                    const ssize_t n = ::send(fd, out.data() + at, out.size() - at, MSG_NOSIGNAL);
                    if (n <= 0) break;
                    at += std::size_t(n);
                }
            }
            ::close(fd);
        }
    }

    static bool read_request(int fd, served_request& r) {
        std::string in;
        char buffer[4096];
        while (in.size() < (std::size_t(1) << 20)) {
            const std::size_t end = in.find("\r\n\r\n");
            if (end != std::string::npos) {
                r.head = in.substr(0, end + 2);
                const std::string length = r.header("Content-Length");
                const std::size_t need = end + 4 + (length.empty() ? 0 : std::strtoul(length.c_str(), nullptr, 10));
                if (in.size() >= need) {
                    r.body = in.substr(end + 4, need - end - 4);
                    return true;
                }
            }
            pollfd p{fd, POLLIN, 0};
            if (::poll(&p, 1, 5000) <= 0) return false;
            const ssize_t n = ::recv(fd, buffer, sizeof buffer, 0);
            if (n <= 0) return false;
            in.append(buffer, std::size_t(n));
        }
        return false;
    }

    std::function<served_reply(const served_request&)> answer_;
    int max_requests_;
    int listener_ = -1;
    int port_ = 0;
    std::atomic<bool> stop_{false};
    mutable std::mutex mutex_;
    std::vector<served_request> received_;
    std::thread thread_;
};

} // namespace agentry_test

#endif
