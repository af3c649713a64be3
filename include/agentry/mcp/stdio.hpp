// SPDX-License-Identifier: BSL-1.0
#ifndef AGENTRY_MCP_STDIO_HPP
#define AGENTRY_MCP_STDIO_HPP

// agentry::mcp::serve_stdio: the MCP stdio transport. Messages are lines of JSON on standard
// input; answers are lines on standard output, and nothing else is written there. Logs go to
// standard error.
//
//   int main() { return agentry::mcp::serve_stdio(tools, {.name = "weather", .version = "1.0.0"}); }
//
// One thread reads and one answers, so a notifications/cancelled arriving while a tool runs
// (or while its request waits) is seen: a waiting request is then dropped, and a running one's
// answer is not sent, and a tool taking agentry::stop_token sees it stop. Notifications written while
// a request is answered (progress, log messages) are lines on the output before its answer;
// server-initiated messages (server::notify_resource_updated) are lines too, written as sent.
// Between them waits at most `queue_size` messages and `max_message_size` bytes. A line longer
// than `max_message_size` is read to its end without being kept and answered with an Invalid
// Request error that has no id. Returns 0 at the end of input, 1 when writing fails (after the
// next line read, or the end of input) or the reading thread cannot start.
//
// A request of the server to the client (mcp::elicit, mcp::sample) is a line on the output like
// a notification; the reading thread hands the client's answer to the call waiting for it. At
// the end of input, such calls end at once (ask_failure::closed).

#include <agentry/mcp/detail/line_reader.hpp>
#include <agentry/mcp/detail/log.hpp>
#include <agentry/mcp/detail/protocol_output.hpp>
#include <agentry/mcp/message.hpp>
#include <agentry/mcp/server.hpp>
#include <agentry/mcp/session.hpp>

#include <condition_variable>
#include <cstddef>
#include <deque>
#include <iostream>
#include <istream>
#include <mutex>
#include <ostream>
#include <string>
#include <string_view>
#include <thread>
#include <utility>

namespace agentry::mcp {

struct stdio_options {
    /// Longest message, in bytes.
    std::size_t max_message_size = default_max_message_size;
    /// Messages read ahead of the one being answered.
    std::size_t queue_size = 16;
    /// Where the transport logs (start, end, oversized messages); nullptr for nowhere.
    std::ostream* log = &std::cerr;
};

namespace detail {

// The messages read and not yet answered, bounded in count and bytes.
class message_queue {
public:
    message_queue(std::size_t max_count, std::size_t max_bytes) : max_count_(max_count), max_bytes_(max_bytes) {}

    /// Waits for room (a message always fits in an empty queue); false once closed.
    bool push(received m) {
        const std::size_t size = m.params.size() + m.method.size() + m.id.size() + m.error.size();
        std::unique_lock lock(mutex_);
        room_.wait(lock, [&] {
            return closed_ || items_.empty() || (items_.size() < max_count_ && bytes_ + size <= max_bytes_);
        });
        if (closed_) return false;
        bytes_ += size;
        items_.push_back({std::move(m), size});
        ready_.notify_one();
        return true;
    }
    /// Waits for a message; false at the end (after finish(), once empty).
    bool pop(received& m) {
        std::unique_lock lock(mutex_);
        ready_.wait(lock, [&] { return finished_ || closed_ || !items_.empty(); });
        if (items_.empty() || closed_) return false;
        m = std::move(items_.front().message);
        bytes_ -= items_.front().size;
        items_.pop_front();
        room_.notify_one();
        return true;
    }
    /// No more messages will be pushed.
    void finish() {
        std::lock_guard lock(mutex_);
        finished_ = true;
        ready_.notify_all();
    }
    /// The consumer stops: pending and future messages are dropped.
    void close() {
        std::lock_guard lock(mutex_);
        closed_ = true;
        items_.clear();
        bytes_ = 0;
        room_.notify_all();
        ready_.notify_all();
    }

private:
    struct item {
        received message;
        std::size_t size;
    };
    std::mutex mutex_;
    std::condition_variable ready_;
    std::condition_variable room_;
    std::deque<item> items_;
    std::size_t bytes_ = 0;
    std::size_t max_count_;
    std::size_t max_bytes_;
    bool finished_ = false;
    bool closed_ = false;
};

} // namespace detail

/// Serves `srv` on `in` and `out` (one session) until the end of `in`.
template <class Registry>
int serve(const server<Registry>& srv, std::istream& in, std::ostream& out, const stdio_options& options = {}) {
    session s;
    detail::message_queue queue(options.queue_size == 0 ? 1 : options.queue_size, options.max_message_size);
    detail::log_line(options.log, "serving on stdio");

    // Reads lines, answers cancellations at once, queues the rest.
    const auto read = [&] {
        try {
            detail::line_reader lines(in.rdbuf(), options.max_message_size);
            std::string line;
            for (;;) {
                const detail::line_status status = lines.next(line);
                if (status == detail::line_status::end) break;
                received m;
                if (status == detail::line_status::oversized) {
                    detail::log_line(options.log, "discarded a message longer than " +
                                                      std::to_string(options.max_message_size) + " bytes");
                    m.error = "Invalid Request: the message is longer than the limit of " +
                              std::to_string(options.max_message_size) + " bytes";
                } else {
                    m = read_message(line, options.max_message_size);
                }
                if (m.kind == message_kind::notification && m.method == "notifications/cancelled") {
                    srv.handle(s, std::move(m));
                    continue;
                }
                // The client's answer to a request of the server, whose call waits for it.
                if (m.kind == message_kind::response) {
                    srv.handle(s, std::move(m));
                    continue;
                }
                if (m.kind == message_kind::request) s.expect(m.id);
                if (!queue.push(std::move(m))) break;
            }
        } catch (...) {
            detail::log_line(options.log, "stopped reading: out of memory");
        }
        s.requests().close("its input ended");
        queue.finish();
    };
    std::thread reader;
    try {
        reader = std::thread(read);
    } catch (...) {
        detail::log_line(options.log, "cannot start the reading thread");
        return 1;
    }

    int status = 0;
    // Answers and the notifications written while answering (progress, log messages), one line
    // each; a tool may report from another thread while its call runs.
    std::mutex writing;
    const auto write_line = [&](std::string_view line) {
        std::lock_guard lock(writing);
        if (!out) return false;
        try {
            out.write(line.data(), std::streamsize(line.size()));
            out.put('\n');
            out.flush();
        } catch (...) {
            out.setstate(std::ios::badbit);
        }
        return static_cast<bool>(out);
    };
    const message_sink notifications = [&](std::string_view line) { write_line(line); };
    s.listen(notifications, {});
    // subscriptions/listen (2026-07-28): each subscription writes on the output, after its
    // acknowledgement, until the input ends.
    std::vector<std::shared_ptr<session>> subscriptions;
    received m;
    while (queue.pop(m)) {
        if (m.kind == message_kind::request && m.method == "subscriptions/listen") {
            s.finish(m.id);
            std::string first;
            std::string refusal;
            std::shared_ptr<session> sub;
            if (subscriptions.size() == max_stdio_subscriptions)
                refusal = R"({"jsonrpc":"2.0","id":)" + m.id +
                          R"(,"error":{"code":-32600,"message":"Invalid Request: )" +
                          std::to_string(max_stdio_subscriptions) + R"( subscriptions are open, the most a connection may hold"}})";
            else sub = srv.open_subscription(m, first, refusal);
            if (!write_line(sub ? first : refusal)) break;
            if (sub) {
                sub->listen(notifications, {});
                subscriptions.push_back(std::move(sub));
            }
            continue;
        }
        const std::string answer = srv.handle(s, std::move(m), notifications, options.max_message_size);
        if (answer.empty()) continue;
        if (!write_line(answer)) {
            detail::log_line(options.log, "cannot write to the output; stopping");
            status = 1;
            queue.close();
            break;
        }
    }
    reader.join();
    for (const std::shared_ptr<session>& sub : subscriptions) sub->stop_listening();
    s.stop_listening();
    detail::log_line(options.log, "end of input");
    return status;
}

/// Serves `srv` on standard input and output. Meanwhile (on POSIX systems) whatever else the
/// program writes to standard output, a tool's printf or std::cout included, goes to standard
/// error: the client reads nothing but protocol messages.
template <class Registry>
int serve_stdio(const server<Registry>& srv, const stdio_options& options = {}) {
    detail::protocol_output out;
    return serve(srv, std::cin, out.stream(), options);
}

/// Serves `tools` on standard input and output, introduced as `info`.
template <class Registry>
int serve_stdio(const Registry& tools, const server_info& info, const stdio_options& options = {}) {
    return serve_stdio(server<Registry>(tools, info), options);
}

} // namespace agentry::mcp

#endif
