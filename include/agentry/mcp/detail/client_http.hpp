// SPDX-License-Identifier: BSL-1.0
#ifndef AGENTRY_MCP_DETAIL_CLIENT_HTTP_HPP
#define AGENTRY_MCP_DETAIL_CLIENT_HTTP_HPP

// The Streamable HTTP transport of mcp::client, on non-blocking sockets: one connection per
// message. https:// goes through OpenSSL (client_tls.hpp) when AGENTRY_WITH_TLS is defined (in
// every file that includes this one, or in none); without it https:// is refused. A request is
// a POST accepting application/json and text/event-stream; a JSON answer is the response, an
// SSE stream carries the server's notifications and requests and then the response. A request
// of the server is answered by a POST of its own, on the thread reading the stream. A stream
// that ends before the response, after an event id, is resumed by a GET with Last-Event-ID
// after the stream's retry time (max_sse_resumptions times at most). The session id of the
// initialize answer is sent with every later message, the negotiated version as
// MCP-Protocol-Version, and close() deletes the session.

#include <agentry/detail/text.hpp>
#include <agentry/mcp/detail/client_channel.hpp>

#include <algorithm>
#include <cerrno>
#include <condition_variable>
#include <chrono>
#include <cstring>
#include <fcntl.h>
#include <memory>
#include <mutex>
#include <netdb.h>
#include <netinet/in.h>
#include <netinet/tcp.h>
#include <optional>
#include <poll.h>
#include <sys/socket.h>
#include <thread>
#include <unistd.h>
#include <utility>
#include <vector>

#if defined(AGENTRY_WITH_TLS)
#include <agentry/mcp/detail/client_tls.hpp>
#endif

namespace agentry::mcp::detail {

/// Splits SSE text into events (the data lines of each, joined with "\n"), keeping the last
/// event id and the last retry time the stream gave (for resuming it).
class sse_parser {
public:
    explicit sse_parser(std::size_t max_size) noexcept : max_size_(max_size) {}

    /// Feeds bytes; calls `on_event(data)` per complete event. False when an event or a line
    /// passes the size limit.
    template <class F>
    bool feed(std::string_view bytes, F&& on_event) {
        for (char c : bytes) {
            if (c != '\n') {
                if (line_.size() > max_size_) return false;
                line_ += c;
                continue;
            }
            if (!line_.empty() && line_.back() == '\r') line_.pop_back();
            if (line_.empty()) {
                last_id_ = id_;
                if (has_data_) {
                    std::string data = std::move(data_);
                    data_.clear();
                    has_data_ = false;
                    if (!on_event(std::string_view(data))) return true;
                }
            } else if (line_.compare(0, 5, "data:") == 0) {
                std::string_view value = std::string_view(line_).substr(5);
                if (!value.empty() && value.front() == ' ') value.remove_prefix(1);
                if (has_data_) data_ += '\n';
                data_ += value;
                has_data_ = true;
                if (data_.size() > max_size_) return false;
            } else if (line_.compare(0, 3, "id:") == 0) {
                std::string_view value = std::string_view(line_).substr(3);
                if (!value.empty() && value.front() == ' ') value.remove_prefix(1);
                // Sent back in a header: printable ASCII only.
                if (value.size() <= max_event_id &&
                    std::all_of(value.begin(), value.end(), [](char b) { return b >= 0x20 && b <= 0x7E; }))
                    id_ = value;
            } else if (line_.compare(0, 6, "retry:") == 0) {
                std::string_view value = std::string_view(line_).substr(6);
                if (!value.empty() && value.front() == ' ') value.remove_prefix(1);
                if (!value.empty() && value.size() <= 9 && value.find_first_not_of("0123456789") == std::string_view::npos)
                    retry_ = std::chrono::milliseconds(std::stol(std::string(value)));
            }  // event: and comments do not change what a message is
            line_.clear();
        }
        return true;
    }

    /// The id of the last event dispatched (empty: none), sent back as Last-Event-ID.
    const std::string& last_id() const noexcept { return last_id_; }
    /// The last retry time given, if any.
    std::optional<std::chrono::milliseconds> retry() const noexcept { return retry_; }

    /// The longest event id kept (a longer one, or one with a byte that is not printable ASCII,
    /// is ignored).
    static constexpr std::size_t max_event_id = 1024;

private:
    std::size_t max_size_;
    std::string line_;
    std::string data_;
    bool has_data_ = false;
    std::string id_;
    std::string last_id_;
    std::optional<std::chrono::milliseconds> retry_;
};

/// How a POST's event stream that ends before its response is resumed: GET with Last-Event-ID
/// after the stream's retry time (this one when it gave none), at most this many times.
inline constexpr std::chrono::milliseconds default_sse_retry{1000};
inline constexpr int max_sse_resumptions = 5;

/// The longest reason phrase and body excerpt an HTTP failure's message quotes.
inline constexpr std::size_t max_reason_excerpt = 60;
inline constexpr std::size_t max_body_excerpt = 200;

/// An HTTP failure for messages: the status, its reason phrase when the server sent one,
/// `note`, then the start of `body` with each run of white space and control characters as one
/// space ("HTTP 404 Not Found: Cannot POST /mcp"); both printable and bounded (client_excerpt).
inline std::string http_failure(int status, std::string_view reason, std::string_view note, std::string_view body) {
    std::string text = "HTTP " + std::to_string(status);
    if (!reason.empty()) text += ' ' + client_excerpt(reason, max_reason_excerpt);
    text += note;
    std::string flat;
    for (const char c : body) {
        const bool blank = static_cast<unsigned char>(c) <= 0x20 || c == 0x7F;
        if (!blank) flat += c;
        else if (!flat.empty() && flat.back() != ' ') flat += ' ';
    }
    if (!flat.empty() && flat.back() == ' ') flat.pop_back();
    if (!flat.empty()) text += ": " + client_excerpt(flat, max_body_excerpt);
    return text;
}

struct http_target {
    std::string host;
    std::string port;
    std::string path;
    std::string host_header;
    bool tls = false;  // https://
};

/// The parts of an http:// or https:// URL, or nothing with `why`.
inline std::optional<http_target> parse_http_url(std::string_view url, std::string& why) {
    http_target t;
    t.tls = url.substr(0, 8) == "https://";
    if (!t.tls && url.substr(0, 7) != "http://") {
        why = "the URL must start with http:// or https://";
        return std::nullopt;
    }
    const std::string default_port = t.tls ? "443" : "80";
    std::string_view rest = url.substr(t.tls ? 8 : 7);
    const std::size_t slash = rest.find('/');
    std::string_view authority = rest.substr(0, slash);
    t.path = slash == std::string_view::npos ? "/" : std::string(rest.substr(slash));
    if (authority.find('@') != std::string_view::npos) {
        why = "the URL must not hold a user name or password";
        return std::nullopt;
    }
    t.host_header = std::string(authority);
    if (!authority.empty() && authority.front() == '[') {
        const std::size_t close = authority.find(']');
        if (close == std::string_view::npos) {
            why = "unclosed [ in the URL's host";
            return std::nullopt;
        }
        t.host = std::string(authority.substr(1, close - 1));
        authority.remove_prefix(close + 1);
        t.port = authority.size() > 1 && authority.front() == ':' ? std::string(authority.substr(1)) : default_port;
    } else {
        const std::size_t colon = authority.rfind(':');
        t.host = std::string(authority.substr(0, colon));
        t.port = colon == std::string_view::npos ? default_port : std::string(authority.substr(colon + 1));
    }
    if (t.host.empty()) {
        why = "the URL has no host";
        return std::nullopt;
    }
    return t;
}

/// The longest Mcp-Session-Id the client sends back.
inline constexpr std::size_t max_session_id = 1024;

/// A session id as the MCP specification allows it: visible ASCII (0x21 to 0x7E) only, and here
/// at most max_session_id bytes, so that echoing it cannot add a header or grow every request.
inline bool valid_session_id(std::string_view id) noexcept {
    if (id.empty() || id.size() > max_session_id) return false;
    for (char c : id)
        if (c < 0x21 || c > 0x7E) return false;
    return true;
}

class http_channel final : public client_channel {
public:
    http_channel(http_target target, std::vector<std::pair<std::string, std::string>> headers, std::size_t max_size,
                 std::chrono::milliseconds grace, notification_handler on_notification, request_handler on_request,
                 send_hook on_send, [[maybe_unused]] const tls_settings& tls = {},
                 std::shared_ptr<http_authorizer> auth = nullptr)
        : target_(std::move(target)), headers_(std::move(headers)), max_size_(max_size), grace_(grace),
          on_notification_(std::move(on_notification)), on_request_(std::move(on_request)),
          on_send_(std::move(on_send)), auth_(std::move(auth)) {
#if defined(AGENTRY_WITH_TLS)
        if (target_.tls) {
            tls_ = std::make_unique<tls_context>(tls, tls_error_);
            if (tls_error_.empty() && !tls_->ok()) tls_error_ = "cannot set up TLS (" + tls_errors() + ")";
        }
#else
        if (target_.tls)
            tls_error_ = "https:// needs TLS, which this build of the MCP client does not have; link the CMake target "
                         "agentry::tls (OpenSSL; it defines AGENTRY_WITH_TLS), or reach the server through http://";
#endif
    }

    /// Why the channel cannot connect (a CA file that does not load, https:// without TLS), or "".
    const std::string& setup_error() const noexcept { return tls_error_; }

    ~http_channel() override { close(); }

    /// Opens the GET event stream on a thread of its own, on which the server's notifications
    /// and its requests not tied to a request of the client arrive (answered on that thread).
    /// Returns once the stream is open or refused (at most until `deadline`). A stream that
    /// ends is opened again after its retry time, with Last-Event-ID; one refused is not.
    void listen(client_clock::time_point deadline) {
        listener_ = std::thread([this] { listen_loop(); });
        std::unique_lock lock(mutex_);
        listening_changed_.wait_until(lock, deadline, [this] { return listen_state_ != 0; });
    }

    exchange_result exchange(const std::string& id, const std::string& message, const exchange_wait& wait) override {
        exchange_result out;
        connection c;
        head h;
        if (std::string e = open(c, h, "POST", message, wait.deadline, wait.cancel); !e.empty())
            return finish(out, c, std::move(e));
        if (!h.session.empty()) {
            std::unique_lock lock(mutex_);
            if (session_.empty()) {
                if (!valid_session_id(h.session)) {
                    lock.unlock();
                    return finish(out, c,
                                  "the server's Mcp-Session-Id \"" + agentry::detail::printable(h.session, 60) +
                                      "\" is not a session id (visible ASCII (0x21 to 0x7E), at most " +
                                      std::to_string(max_session_id) + " bytes); it is not sent back");
                }
                session_ = h.session;
            }
        }
        const bool sse = h.content_type.find("text/event-stream") != std::string::npos;
        if (h.status != 200 || (!sse && h.content_type.find("json") == std::string::npos)) {
            std::string note;
            if (h.status == 404 && has_session()) note = " (the session ended on the server)";
            else if (h.status == 200) note = " with Content-Type \"" + client_excerpt(h.content_type, 60) + "\"";
            out.error = http_failure(h.status, h.reason, note, error_body(c, h, wait.deadline, wait.cancel));
            return out;
        }
        bool got = false;
        std::string error;
        if (sse) {
            sse_parser events(max_size_);
            std::string e = read_events(c, h, events, id, wait, out.response, got, error);
            // A stream that ended cleanly after an event id is resumed (GET with Last-Event-ID).
            for (int attempt = 0; !got && error.empty() && e.empty() && !events.last_id().empty(); ++attempt) {
                if (attempt == max_sse_resumptions) {
                    e = "the event stream ended without the response, " + std::to_string(attempt) +
                        " times after resuming it with Last-Event-ID";
                    break;
                }
                e = resume(events, id, wait, out.response, got, error);
            }
            if (error.empty() && !got) error = e.empty() ? "the event stream ended without the response" : std::move(e);
        } else {
            std::string body;
            std::string e = read_body(c, h, wait.deadline, wait.cancel, [&](std::string_view bytes) {
                body += bytes;
                if (body.size() > max_size_)
                    error = "the server sent a message longer than the limit of " + std::to_string(max_size_) + " bytes";
                return error.empty();
            });
            if (error.empty() && !e.empty()) error = std::move(e);
            if (error.empty()) {
                got = message_in(body, id, wait, out.response, error);
                if (!got && error.empty()) error = "the JSON answer is not the response to the request";
            }
        }
        if (got) {
            out.status = exchange_status::response;
            return out;
        }
        return finish(out, c, std::move(error));
    }

    std::string notify(const std::string& message, client_clock::time_point deadline) override {
        connection c;
        head h;
        if (std::string e = open(c, h, "POST", message, deadline, nullptr); !e.empty()) return e;
        if (h.status != 202 && h.status != 200)
            return http_failure(h.status, h.reason, {}, error_body(c, h, deadline, nullptr));
        return {};
    }

    void set_protocol_version(std::string_view v) override {
        std::lock_guard lock(mutex_);
        version_ = std::string(v);
    }

    void close() noexcept override {
        stop_listening_.store(true);
        if (listener_.joinable()) listener_.join();
        std::string session;
        {
            std::lock_guard lock(mutex_);
            session = std::exchange(session_, std::string());
            session_for_delete_ = session;
        }
        if (session.empty()) return;
        try {
            connection c;
            const auto deadline = client_clock::now() + grace_;
            head h;
            open(c, h, "DELETE", {}, deadline, nullptr);
        } catch (...) {
        }
    }

    std::string session_id() {
        std::lock_guard lock(mutex_);
        return session_;
    }
    std::string session() override { return session_id(); }

    /// One request to the target outside the MCP session (no session, version or configured
    /// headers; `headers` instead), its whole answer read, at most `max_body` bytes of body.
    fetched fetch(std::string_view method, const std::vector<std::pair<std::string, std::string>>& headers,
                  std::string_view body, std::size_t max_body, client_clock::time_point deadline) {
        fetched out;
        connection c;
        std::string head_text;
        for (const auto& [name, value] : headers) head_text += name + ": " + value + "\r\n";
        head h;
        if (std::string e = send(c, method, head_text, body, deadline, nullptr); !e.empty()) out.error = std::move(e);
        else if (std::string e2 = read_head(c, h, deadline, nullptr); !e2.empty()) out.error = std::move(e2);
        if (!out.error.empty()) {
            if (out.error == "timeout") out.error = "no answer in time";
            return out;
        }
        out.status = h.status;
        out.reason = std::move(h.reason);
        out.content_type = std::move(h.content_type);
        out.location = std::move(h.location);
        out.www_authenticate = std::move(h.www_authenticate);
        if (method == "HEAD" || h.status == 204 || h.status == 304 || (h.status >= 300 && h.status < 400)) return out;
        std::string e = read_body(c, h, deadline, nullptr, [&](std::string_view bytes) {
            out.body += bytes;
            return out.body.size() <= max_body;
        });
        if (out.body.size() > max_body) out.error = "the answer is longer than " + std::to_string(max_body) + " bytes";
        else if (!e.empty()) out.error = e == "timeout" ? "no answer in time" : std::move(e);
        return out;
    }

private:
    struct connection {
        int fd = -1;
        std::string buffer;  // bytes read past what was used
#if defined(AGENTRY_WITH_TLS)
        std::unique_ptr<tls_stream> tls;  // https://
#endif
        unsigned credential = 0;  // the generation of the Authorization sent
        connection() = default;
        connection(const connection&) = delete;
        connection& operator=(const connection&) = delete;
        ~connection() { reset(); }
        void reset() noexcept {
#if defined(AGENTRY_WITH_TLS)
            tls.reset();
#endif
            if (fd >= 0) ::close(fd);
            fd = -1;
            buffer.clear();
        }
    };

    struct head {
        int status = 0;
        std::string reason;
        std::string content_type;
        std::string session;
        std::string location;
        std::string www_authenticate;
        long long length = -1;
        bool chunked = false;
    };

    bool has_session() {
        std::lock_guard lock(mutex_);
        return !session_.empty();
    }

    exchange_result& finish(exchange_result& out, connection&, std::string error) {
        if (error == "timeout") out.status = exchange_status::timeout;
        else if (error == "cancelled") out.status = exchange_status::cancelled;
        else out.error = std::move(error);
        return out;
    }

    void listen_loop() {
        sse_parser events(max_size_);
        exchange_wait wait;
        wait.cancel = &stop_listening_;
        const auto opened = [this](int state) {
            std::lock_guard lock(mutex_);
            if (listen_state_ == 0) listen_state_ = state;
            listening_changed_.notify_all();
        };
        for (bool first = true; !stop_listening_.load(); first = false) {
            if (!first) {
                const auto at = client_clock::now() + events.retry().value_or(default_sse_retry);
                while (client_clock::now() < at && !stop_listening_.load())
                    std::this_thread::sleep_for(std::chrono::milliseconds(20));
                if (stop_listening_.load()) break;
            }
            connection c;
            head h;
            if (!open(c, h, "GET", {}, wait.deadline, wait.cancel, events.last_id()).empty() || h.status != 200 ||
                h.content_type.find("text/event-stream") == std::string::npos)
                break;  // no stream (405: the server offers none), or a failure: not tried again
            opened(1);
            json::value ignored;
            bool got = false;
            std::string error;
            if (!read_events(c, h, events, {}, wait, ignored, got, error).empty() || !error.empty()) break;
        }
        opened(2);
    }

    // Waits the stream's retry time, then GETs the stream from the event after its last id and
    // reads it: "" when it ended cleanly (or gave the response), else why not.
    std::string resume(sse_parser& events, const std::string& id, const exchange_wait& wait, json::value& response,
                       bool& got, std::string& error) {
        const auto at = client_clock::now() + events.retry().value_or(default_sse_retry);
        if (at >= wait.deadline) return "timeout";
        while (client_clock::now() < at) {
            if (wait.cancel && wait.cancel->load()) return "cancelled";
            std::this_thread::sleep_for(std::min<client_clock::duration>(at - client_clock::now(),
                                                                         std::chrono::milliseconds(20)));
        }
        connection c;
        head h;
        if (std::string e = open(c, h, "GET", {}, wait.deadline, wait.cancel, events.last_id()); !e.empty()) return e;
        if (h.status != 200 || h.content_type.find("text/event-stream") == std::string::npos) {
            const std::string note = h.status == 200 ? " with Content-Type \"" + client_excerpt(h.content_type, 60) + "\"" : "";
            return "the event stream ended without the response, and resuming it (GET with Last-Event-ID) was "
                   "answered " + http_failure(h.status, h.reason, note, error_body(c, h, wait.deadline, wait.cancel));
        }
        return read_events(c, h, events, id, wait, response, got, error);
    }

    // Reads an event stream until the response to `id` (then `got`), an error of the stream's
    // content (in `error`) or its end; returns "" or why reading failed.
    std::string read_events(connection& c, const head& h, sse_parser& events, const std::string& id,
                            const exchange_wait& wait, json::value& response, bool& got, std::string& error) {
        return read_body(c, h, wait.deadline, wait.cancel, [&](std::string_view bytes) {
            const bool fit = events.feed(bytes, [&](std::string_view data) {
                if (!error.empty()) return false;
                // An event without data (one that only primes a resumable stream) holds no message.
                if (data.find_first_not_of(" \t\r\n") == std::string_view::npos) return true;
                return !(got = message_in(data, id, wait, response, error)) && error.empty();
            });
            if (!fit) error = "the server sent an event longer than the limit of " + std::to_string(max_size_) + " bytes";
            return !got && error.empty();
        });
    }

    // One message of the server (the SSE data or the JSON body): true when it is the response
    // to `id`, which is moved into `response`.
    bool message_in(std::string_view text, const std::string& id, const exchange_wait& wait, json::value& response,
                    std::string& error) {
        std::string why;
        std::optional<json::value> m = read_server_message(text, max_size_, why);
        if (!m) {
            error = "the server sent something that is not a JSON-RPC message (" + why + "): \"" + client_excerpt(text) +
                    "\"";
            return false;
        }
        const json::value* method = m->find("method");
        const json::value* mid = m->find("id");
        if (method && method->is_string()) {
            if (mid) {
                // A request of the server: answered by a POST of its own, on this thread.
                if (on_request_) {
                    const std::string answer = on_request_(*m);
                    const auto by = std::min(wait.deadline, client_clock::now() + std::chrono::seconds(10));
                    if (std::string e = notify(answer, by); !e.empty())
                        error = "sending the answer to the server's " + client_excerpt(method->as_string(), 60) +
                                " request failed: " + e;
                }
                return false;
            }
            static const json::value none = json::value::object();
            const json::value* params = m->find("params");
            if (method->as_string() == "notifications/progress" && params) {
                const json::value* token = params->find("progressToken");
                if (token && wait.on_progress && json::to_text(*token) == wait.progress_token) wait.on_progress(*params);
            } else if (on_notification_) {
                on_notification_(method->as_string(), params ? *params : none);
            }
            return false;
        }
        if (!mid || json::to_text(*mid) != id) return false;
        response = std::move(*m);
        return true;
    }

    static std::string wait_for(int fd, short events, client_clock::time_point deadline, const std::atomic<bool>* cancel) {
        for (;;) {
            if (cancel && cancel->load()) return "cancelled";
            const auto now = client_clock::now();
            if (now >= deadline) return "timeout";
            const long long left = std::chrono::duration_cast<std::chrono::milliseconds>(deadline - now).count() + 1;
            pollfd p{fd, events, 0};
            const int r = ::poll(&p, 1, int(std::min<long long>(left, cancel ? 20 : 1000)));
            if (r > 0) return {};
            if (r < 0 && errno != EINTR) return std::string("poll: ") + std::strerror(errno);
        }
    }

    // Writes every byte to the socket: "" or why not.
    static auto raw_send(connection& c, client_clock::time_point deadline, const std::atomic<bool>* cancel) {
        return [&c, deadline, cancel](std::string_view bytes) -> std::string {
            std::size_t at = 0;
            while (at != bytes.size()) {
                const ssize_t n = ::send(c.fd, bytes.data() + at, bytes.size() - at, MSG_NOSIGNAL);
                if (n > 0) {
                    at += std::size_t(n);
                } else if (n < 0 && (errno == EAGAIN || errno == EWOULDBLOCK || errno == EINTR)) {
                    if (std::string e = wait_for(c.fd, POLLOUT, deadline, cancel); !e.empty()) return e;
                } else {
                    return std::string("sending the request failed: ") + std::strerror(errno);
                }
            }
            return {};
        };
    }

    // Appends what the socket has to `into`: "" when some came, "end" at the end of the stream.
    static auto raw_receive(connection& c, client_clock::time_point deadline, const std::atomic<bool>* cancel) {
        return [&c, deadline, cancel](std::string& into) -> std::string {
            for (;;) {
                if (std::string e = wait_for(c.fd, POLLIN, deadline, cancel); !e.empty()) return e;
                char buffer[16384];
                const ssize_t n = ::recv(c.fd, buffer, sizeof buffer, 0);
                if (n > 0) {
                    into.append(buffer, std::size_t(n));
                    return {};
                }
                if (n == 0) return "end";
                if (errno != EAGAIN && errno != EWOULDBLOCK && errno != EINTR)
                    return std::string("reading the answer failed: ") + std::strerror(errno);
            }
        };
    }

    std::string connect(connection& c, client_clock::time_point deadline, const std::atomic<bool>* cancel) {
        addrinfo hints{};
        hints.ai_family = AF_UNSPEC;
        hints.ai_socktype = SOCK_STREAM;
        addrinfo* found = nullptr;
        if (const int rc = ::getaddrinfo(target_.host.c_str(), target_.port.c_str(), &hints, &found); rc != 0)
            return "cannot resolve " + target_.host + ": " + ::gai_strerror(rc);
        std::string error = "no address for " + target_.host;
        for (addrinfo* a = found; a; a = a->ai_next) {
            const int fd = ::socket(a->ai_family, a->ai_socktype | SOCK_CLOEXEC | SOCK_NONBLOCK, a->ai_protocol);
            if (fd < 0) continue;
            if (::connect(fd, a->ai_addr, a->ai_addrlen) == 0 || errno == EINPROGRESS) {
                error = wait_for(fd, POLLOUT, deadline, cancel);
                int so = 0;
                socklen_t len = sizeof so;
                if (error.empty() && ::getsockopt(fd, SOL_SOCKET, SO_ERROR, &so, &len) == 0 && so == 0) {
                    c.fd = fd;
                    break;
                }
                if (error.empty()) error = "cannot connect to " + target_.host_header + ": " + std::strerror(so);
            } else {
                error = "cannot connect to " + target_.host_header + ": " + std::strerror(errno);
            }
            ::close(fd);
            if (error == "timeout" || error == "cancelled") break;
        }
        ::freeaddrinfo(found);
        return c.fd >= 0 ? std::string() : error;
    }

    // Sends a request of the session and reads the head of its answer. A 401 or 403 with a
    // Bearer challenge, with an authorizer, is authorized and sent again, at most the
    // authorizer's max_attempts() times.
    std::string open(connection& c, head& h, std::string_view method, std::string_view body,
                     client_clock::time_point deadline, const std::atomic<bool>* cancel,
                     std::string_view last_event_id = {}) {
        for (int attempt = 0;; ++attempt) {
            c.reset();
            h = head{};
            if (std::string e = post(c, method, body, deadline, cancel, last_event_id); !e.empty()) return e;
            if (std::string e = read_head(c, h, deadline, cancel); !e.empty()) return e;
            if (!auth_ || (h.status != 401 && h.status != 403) ||
                !agentry::detail::equal_ignoring_case(std::string_view(h.www_authenticate).substr(0, 6), "bearer"))
                return {};
            if (attempt == auth_->max_attempts())
                return http_failure(h.status, h.reason,
                                    " after " + std::to_string(attempt) + " authorization" + (attempt == 1 ? "" : "s") +
                                        " for this request (" + client_excerpt(h.www_authenticate, 200) + ")",
                                    {});
            std::string why;
            if (!auth_->challenge(h.status, h.www_authenticate, c.credential, why))
                return http_failure(h.status, h.reason, ", and authorizing failed: " + why, {});
        }
    }

    // Sends a request of the session (POST, GET or DELETE); `last_event_id` goes with a GET.
    std::string post(connection& c, std::string_view method, std::string_view body, client_clock::time_point deadline,
                     const std::atomic<bool>* cancel, std::string_view last_event_id = {}) {
        std::string request;
        {
            std::lock_guard lock(mutex_);
            const std::string& session = method == "DELETE" ? session_for_delete_ : session_;
            if (!session.empty()) request += "Mcp-Session-Id: " + session + "\r\n";
            if (!version_.empty()) request += "MCP-Protocol-Version: " + version_ + "\r\n";
        }
        for (const auto& [name, value] : headers_)
            if (!auth_ || !agentry::detail::equal_ignoring_case(name, "authorization")) request += name + ": " + value + "\r\n";
        if (auth_) {
            auto [value, generation] = auth_->credential();
            c.credential = generation;
            if (!value.empty()) request += "Authorization: " + value + "\r\n";
        }
        if (method == "POST") {
            request += "Content-Type: application/json\r\nAccept: application/json, text/event-stream\r\n";
            if (on_send_) on_send_(body);
        } else if (method == "GET") {
            request += "Accept: text/event-stream\r\n";
            if (!last_event_id.empty()) request += "Last-Event-ID: " + std::string(last_event_id) + "\r\n";
        }
        return send(c, method, request, body, deadline, cancel);
    }

    // Connects and sends `method` to the target's path with the header lines `headers`.
    std::string send(connection& c, std::string_view method, std::string_view headers, std::string_view body,
                     client_clock::time_point deadline, const std::atomic<bool>* cancel) {
        if (std::string e = connect(c, deadline, cancel); !e.empty()) return e;
#if defined(AGENTRY_WITH_TLS)
        if (tls_) {
            c.tls = std::make_unique<tls_stream>(*tls_, target_.host);
            if (std::string e = c.tls->handshake(raw_send(c, deadline, cancel), raw_receive(c, deadline, cancel));
                !e.empty())
                return e;
        }
#endif
        std::string request(method);
        request += ' ' + target_.path + " HTTP/1.1\r\nHost: " + target_.host_header + "\r\n";
        request += headers;
        request += "Content-Length: " + std::to_string(body.size()) + "\r\nConnection: close\r\n\r\n";
        request += body;
#if defined(AGENTRY_WITH_TLS)
        if (c.tls) return c.tls->write(request, raw_send(c, deadline, cancel), raw_receive(c, deadline, cancel));
#endif
        return raw_send(c, deadline, cancel)(request);
    }

    // Reads more bytes into c.buffer; "" when some came, "end" at the end of the stream.
    static std::string more(connection& c, client_clock::time_point deadline, const std::atomic<bool>* cancel) {
#if defined(AGENTRY_WITH_TLS)
        if (c.tls) return c.tls->read(c.buffer, raw_send(c, deadline, cancel), raw_receive(c, deadline, cancel));
#endif
        return raw_receive(c, deadline, cancel)(c.buffer);
    }

    static std::string lower(std::string_view s) {
        std::string out(s);
        for (char& c : out)
            if (c >= 'A' && c <= 'Z') c = char(c - 'A' + 'a');
        return out;
    }

    static std::string_view trim(std::string_view s) noexcept {
        while (!s.empty() && (s.front() == ' ' || s.front() == '\t')) s.remove_prefix(1);
        while (!s.empty() && (s.back() == ' ' || s.back() == '\t' || s.back() == '\r')) s.remove_suffix(1);
        return s;
    }

    std::string read_head(connection& c, head& h, client_clock::time_point deadline, const std::atomic<bool>* cancel) {
        std::size_t end;
        while ((end = c.buffer.find("\r\n\r\n")) == std::string::npos) {
            if (c.buffer.size() > 65536) return "the server's HTTP head is longer than 64 KiB";
            std::string e = more(c, deadline, cancel);
            if (e == "end") return "the server closed the connection before answering";
            if (!e.empty()) return e;
        }
        const std::string text = c.buffer.substr(0, end);
        c.buffer.erase(0, end + 4);
        std::size_t line_end = text.find("\r\n");
        const std::string_view status_line = std::string_view(text).substr(0, line_end);
        if (status_line.substr(0, 5) != "HTTP/" || status_line.size() < 12)
            return "the server's answer is not HTTP: \"" + client_excerpt(status_line) + "\"";
        h.status = std::atoi(std::string(status_line.substr(9, 3)).c_str());
        if (status_line.size() > 13) h.reason = std::string(trim(status_line.substr(13)));
        while (line_end != std::string::npos) {
            const std::size_t from = line_end + 2;
            line_end = text.find("\r\n", from);
            const std::string_view line = std::string_view(text).substr(from, line_end == std::string::npos ? std::string::npos : line_end - from);
            const std::size_t colon = line.find(':');
            if (colon == std::string_view::npos) continue;
            const std::string name = lower(trim(line.substr(0, colon)));
            const std::string_view value = trim(line.substr(colon + 1));
            if (name == "content-type") h.content_type = lower(value);
            else if (name == "mcp-session-id") h.session = std::string(value);
            else if (name == "location") h.location = std::string(value);
            else if (name == "www-authenticate") h.www_authenticate = std::string(value);
            else if (name == "content-length") h.length = std::atoll(std::string(value).c_str());
            else if (name == "transfer-encoding") h.chunked = lower(value).find("chunked") != std::string::npos;
        }
        return {};
    }

    // The start of an error answer's body (at most 1 KiB, for http_failure); what was read when
    // reading fails.
    std::string error_body(connection& c, const head& h, client_clock::time_point deadline,
                           const std::atomic<bool>* cancel) {
        std::string body;
        read_body(c, h, deadline, cancel, [&](std::string_view b) {
            body += b.substr(0, 1024 - body.size());
            return body.size() < 1024;
        });
        return body;
    }

    // Gives the body to `sink` as it arrives, until the sink returns false or the body ends.
    template <class Sink>
    std::string read_body(connection& c, const head& h, client_clock::time_point deadline,
                          const std::atomic<bool>* cancel, Sink&& sink) {
        if (h.chunked) {
            for (;;) {
                std::size_t eol;
                while ((eol = c.buffer.find("\r\n")) == std::string::npos) {
                    if (c.buffer.size() > 1024) return "a malformed chunked body";
                    if (std::string e = more(c, deadline, cancel); !e.empty()) return e == "end" ? "the body was cut" : e;
                }
                const unsigned long long size = std::strtoull(c.buffer.c_str(), nullptr, 16);
                c.buffer.erase(0, eol + 2);
                if (size == 0) return {};
                if (size > max_size_ + 65536) return "a chunk longer than the message size limit";
                while (c.buffer.size() < size + 2)
                    if (std::string e = more(c, deadline, cancel); !e.empty()) return e == "end" ? "the body was cut" : e;
                const std::string chunk = c.buffer.substr(0, size);
                c.buffer.erase(0, size + 2);
                if (!sink(std::string_view(chunk))) return {};
            }
        }
        long long left = h.length;
        for (;;) {
            if (!c.buffer.empty()) {
                std::string part = left >= 0 && (long long)c.buffer.size() > left ? c.buffer.substr(0, std::size_t(left)) : std::move(c.buffer);
                c.buffer.clear();
                if (left >= 0) left -= (long long)part.size();
                if (!sink(std::string_view(part))) return {};
            }
            if (left == 0) return {};
            std::string e = more(c, deadline, cancel);
            if (e == "end") return left < 0 ? std::string() : "the body was cut";
            if (!e.empty()) return e;
        }
    }

    http_target target_;
    std::vector<std::pair<std::string, std::string>> headers_;
    std::size_t max_size_;
    std::chrono::milliseconds grace_;
    notification_handler on_notification_;
    request_handler on_request_;
    send_hook on_send_;
    std::shared_ptr<http_authorizer> auth_;
    std::mutex mutex_;
    std::string session_;
    std::string session_for_delete_;
    std::string version_;
    std::string tls_error_;
    std::thread listener_;
    std::atomic<bool> stop_listening_{false};
    std::condition_variable listening_changed_;
    int listen_state_ = 0;  // 0: opening, 1: open, 2: ended or refused
#if defined(AGENTRY_WITH_TLS)
    std::unique_ptr<tls_context> tls_;
#endif
};

/// One request to `url` outside any session (http_channel::fetch), with the certificate rules of
/// `tls`.
inline fetched http_fetch(std::string_view method, const std::string& url,
                          const std::vector<std::pair<std::string, std::string>>& headers, std::string_view body,
                          const tls_settings& tls, std::size_t max_body, client_clock::time_point deadline) {
    fetched out;
    std::string why;
    std::optional<http_target> target = parse_http_url(url, why);
    if (!target) {
        out.error = "\"" + client_excerpt(url, 200) + "\": " + why;
        return out;
    }
    http_channel channel(std::move(*target), {}, max_body, std::chrono::milliseconds(0), {}, {}, {}, tls);
    if (!channel.setup_error().empty()) {
        out.error = channel.setup_error();
        return out;
    }
    return channel.fetch(method, headers, body, max_body, deadline);
}

} // namespace agentry::mcp::detail

#endif
