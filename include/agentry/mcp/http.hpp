// SPDX-License-Identifier: BSL-1.0
#ifndef AGENTRY_MCP_HTTP_HPP
#define AGENTRY_MCP_HTTP_HPP

// agentry::mcp::serve_http: the MCP Streamable HTTP transport on Boost.Beast (header-only;
// link Threads::Threads). Listens on 127.0.0.1 by default.
//
//   int main() { return agentry::mcp::serve_http(server, {.port = 8080}); }   // until SIGINT/SIGTERM
//
// POST <path> takes one JSON-RPC message and answers a request with application/json (no SSE
// stream is opened); notifications and responses get 202. `initialize` starts a session whose
// id comes back in Mcp-Session-Id and must be sent with every later request (missing: 400;
// unknown or ended: 404). A MCP-Protocol-Version header naming a version sessions are not held
// in gets 400; in a session, another session version is accepted and the session's is used. DELETE ends a session. GET and other methods get 405. A Content-Type other than
// application/json gets 415, an Accept that excludes it 406. An Origin header other than a
// loopback origin or one of allowed_origins gets 403, and so does a Host header naming another
// machine when the server listens on loopback (both against DNS rebinding). With
// options.authorization, every request needs a valid bearer token (401 / 403, see auth.hpp) and
// the Protected Resource Metadata document is served. With options.metrics, GET
// options.metrics_path (/metrics) answers its counters in the Prometheus text format
// (telemetry/metrics.hpp), behind the same Host, Origin and authorization checks. A request
// cancelled with notifications/cancelled while it runs gets no response: its connection is
// closed.
//
// Limits (http_options.hpp): a body over max_message_size gets 413, a head or trailer section
// over max_header_size 431, a longer chunk-size line 400; a head must arrive within
// header_timeout and a body at min_body_rate; at max_connections the connection waiting longest
// for a request head gives its place to a new one.
//
// A request of the server to the client (mcp::elicit, mcp::sample) goes on the SSE stream of
// the POST being answered; the client's answer comes as a POST of its own (202). The call
// waiting for it holds one of `threads`.
//
// http_server gives control: it binds in its constructor (port() tells the port when 0 was
// asked for), run() serves on `threads` threads (the caller's included) until stop(). run()
// is called once.

#include <agentry/detail/chrono.hpp>
#include <agentry/mcp/detail/http_endpoint.hpp>
#include <agentry/mcp/detail/log.hpp>
#include <agentry/mcp/http_options.hpp>
#include <agentry/mcp/server.hpp>

#include <boost/asio/defer.hpp>
#include <boost/asio/dispatch.hpp>
#include <boost/asio/io_context.hpp>
#include <boost/asio/post.hpp>
#include <boost/asio/ip/address.hpp>
#include <boost/asio/ip/tcp.hpp>
#include <boost/asio/signal_set.hpp>
#include <boost/asio/steady_timer.hpp>
#include <boost/asio/strand.hpp>
#include <boost/asio/write.hpp>
#include <boost/beast/core/flat_buffer.hpp>
#include <boost/beast/http/error.hpp>
#include <boost/beast/http/parser.hpp>
#include <boost/beast/http/read.hpp>

#include <algorithm>
#include <array>
#include <atomic>
#include <csignal>
#include <cstddef>
#include <cstdint>
#include <exception>
#include <iterator>
#include <memory>
#include <mutex>
#include <optional>
#include <stdexcept>
#include <string>
#include <string_view>
#include <thread>
#include <utility>
#include <vector>

namespace agentry::mcp {

namespace detail {

namespace asio = boost::asio;
namespace beast = boost::beast;

// The connections of a server, for eviction: the one waiting longest for a request head makes
// room for a new one when max_connections are open.
template <class Connection>
class connection_set {
public:
    /// Adds `c`, waiting for its first request head from now on.
    void add(Connection* c) {
        std::lock_guard lock(mutex_);
        members_.push_back(c);
        c->waiting_ = true;
        c->since_ = std::chrono::steady_clock::now();
    }
    void remove(Connection* c) noexcept {
        std::lock_guard lock(mutex_);
        std::erase(members_, c);
    }
    /// Marks `c` as waiting for a request head from now on, or not.
    void waiting(Connection* c, bool yes) noexcept {
        std::lock_guard lock(mutex_);
        c->waiting_ = yes;
        if (yes) c->since_ = std::chrono::steady_clock::now();
    }
    /// The connection waiting longest for a request head, no longer marked waiting; null if none.
    std::shared_ptr<Connection> take_oldest_waiting() {
        std::lock_guard lock(mutex_);
        Connection* oldest = nullptr;
        for (Connection* c : members_)
            if (c->waiting_ && (!oldest || c->since_ < oldest->since_)) oldest = c;
        if (!oldest) return nullptr;
        oldest->waiting_ = false;
        return oldest->weak_from_this().lock();  // null when it is being destroyed
    }

private:
    std::mutex mutex_;
    std::vector<Connection*> members_;
};

// One connection: read a request, answer it, repeat while the client keeps it alive. Memory:
// the read buffer holds at most max_header_size + 64 KiB (a request head, a chunk-size line or
// a trailer section must fit in it whole), the body at most max_message_size.
template <class Registry>
class http_connection : public std::enable_shared_from_this<http_connection<Registry>> {
    friend class connection_set<http_connection>;

public:
    http_connection(asio::ip::tcp::socket socket, asio::io_context::executor_type pool,
                    http_endpoint<Registry>& endpoint, const http_options& options, std::atomic<std::size_t>& open,
                    connection_set<http_connection>& set)
        : socket_(std::move(socket)),
          deadline_timer_(socket_.get_executor()),
          pool_(pool),
          buffer_(options.max_header_size + read_chunk),
          endpoint_(endpoint),
          options_(options),
          open_(open),
          set_(set) {
        beast::error_code ec;
        const auto peer = socket_.remote_endpoint(ec);
        if (!ec) client_ = peer.address().to_string();
        // An SSE answer is written in parts: none may wait for the acknowledgement of the last.
        socket_.set_option(asio::ip::tcp::no_delay(true), ec);
        set_.add(this);
    }
    ~http_connection() {
        set_.remove(this);
        --open_;
    }

    void start() {
        asio::dispatch(socket_.get_executor(), [self = this->shared_from_this()] { self->read(); });
    }

    /// Closes the connection to make room for another; callable from any thread.
    void evict() {
        asio::post(socket_.get_executor(), [self = this->shared_from_this()] { self->close(); });
    }

private:
    static constexpr std::size_t read_chunk = 64 * 1024;
    using clock = std::chrono::steady_clock;

    // The I/O started now must end by `when`, or the connection is closed. The timer is set
    // again only when `when` comes before the time it waits for: a later deadline is checked
    // when the timer fires, so that a request costs no timer operation.
    void expires_at(clock::time_point when) {
        deadline_ = when;
        if (waiting_until_ && *waiting_until_ <= when) return;
        waiting_until_ = when;
        deadline_timer_.expires_at(when);
        deadline_timer_.async_wait([weak = this->weak_from_this()](beast::error_code ec) {
            if (ec) return;
            if (const auto self = weak.lock()) self->deadline_reached();
        });
    }
    void expires_after(clock::duration d) { expires_at(clock::now() + d); }
    // The I/O that had a deadline has ended.
    void no_deadline() noexcept { deadline_ = clock::time_point::max(); }

    void deadline_reached() {
        waiting_until_.reset();
        if (closed_ || deadline_ == clock::time_point::max()) return;
        if (clock::now() >= deadline_) return close();
        expires_at(deadline_);
    }

    void read() {
        parser_.emplace();
        parser_->body_limit(options_.max_message_size);
        parser_->header_limit(static_cast<std::uint32_t>(options_.max_header_size));
        received_ = 0;
        set_.waiting(this, true);
        expires_after(options_.header_timeout);
        beast::http::async_read_header(socket_, buffer_, *parser_,
                                       [self = this->shared_from_this()](beast::error_code ec, std::size_t) {
                                           self->no_deadline();
                                           self->set_.waiting(self.get(), false);
                                           if (ec) return self->fail(ec);
                                           self->body_start_ = std::chrono::steady_clock::now();
                                           self->parse_buffered();
                                       });
    }

    // What the read buffer holds past the head (often the whole body) is parsed at once; the
    // rest is read from the socket.
    void parse_buffered() {
        beast::error_code ec;
        while (!parser_->is_done() && buffer_.size() != 0) {
            const std::size_t used = parser_->put(buffer_.data(), ec);
            buffer_.consume(used);
            received_ += used;
            if (ec == beast::http::error::need_more) break;
            if (ec) return fail(ec);
            if (used == 0) break;
        }
        if (parser_->is_done()) return answer();
        read_body();
    }

    // The body arrives at min_body_rate or faster, after a grace of header_timeout.
    void read_body() {
        const std::size_t rate = options_.min_body_rate == 0 ? 1 : options_.min_body_rate;
        expires_at(body_start_ + options_.header_timeout + std::chrono::seconds(received_ / rate));
        beast::http::async_read_some(socket_, buffer_, *parser_,
                                     [self = this->shared_from_this()](beast::error_code ec, std::size_t n) {
                                         self->no_deadline();
                                         self->received_ += n;
                                         if (ec) return self->fail(ec);
                                         if (self->parser_->is_done()) return self->answer();
                                         self->read_body();
                                     });
    }

    void fail(beast::error_code ec) {
        if (ec == beast::http::error::body_limit) {
            // The client may still be sending: read on after the answer (discarding, up to four
            // message sizes), so that it gets to read the 413 rather than a reset.
            lingering_ = true;
            return write(endpoint_.too_large());
        }
        if (ec == beast::http::error::end_of_stream || ec == asio::error::operation_aborted || ec == asio::error::eof ||
            ec == asio::error::connection_reset)
            return close();
        // As after a 413, the rest is read and dropped for a while so the client sees the answer.
        lingering_ = true;
        if (ec == beast::http::error::header_limit ||
            (ec == beast::http::error::buffer_overflow && !parser_->is_header_done()))
            return write(endpoint_.refuse(beast::http::status::request_header_fields_too_large,
                                          "Request Header Fields Too Large"));
        if (ec == beast::http::error::buffer_overflow && in_trailer())
            return write(endpoint_.refuse(beast::http::status::request_header_fields_too_large,
                                          "Request Header Fields Too Large: the trailer section is too long"));
        if (ec == beast::http::error::buffer_overflow)
            return write(endpoint_.refuse(beast::http::status::bad_request,
                                          "Bad Request: a chunk-size line (with its extensions) is too long"));
        write(endpoint_.refuse(beast::http::status::bad_request, "Bad Request"));
    }

    // After a buffer overflow in a chunked body: the parser keeps the chunk-size line it waits on
    // at the front of the buffer (after the CRLF ending the previous chunk). Only the last
    // chunk's line is kept once complete, while its trailer section is read.
    bool in_trailer() const {
        std::string_view rest(static_cast<const char*>(buffer_.data().data()), buffer_.size());
        if (rest.starts_with("\r\n")) rest.remove_prefix(2);
        return rest.find("\r\n") != std::string_view::npos;
    }

    // The request is answered off this connection's strand, so that the notifications it writes
    // while a tool runs leave at once on an SSE stream (posted: another thread writes them). The
    // answer and its writing are deferred: they run next on this thread, not waking another.
    void answer() {
        auto self = this->shared_from_this();
        asio::defer(pool_, [self] {
            const message_sink events = [self](std::string_view message) {
                asio::post(self->socket_.get_executor(),
                           [self, text = std::string(message)]() mutable { self->event(std::move(text)); });
            };
            http_reply reply = self->endpoint_.handle(self->parser_->get(), self->client_, events);
            asio::defer(self->socket_.get_executor(),
                       [self, reply = std::move(reply)]() mutable { self->finish(std::move(reply)); });
        });
    }

    // Appends `message` as an SSE event in one chunk of the chunked body.
    static void append_event(std::string& out, std::string_view message) {
        static constexpr std::string_view head = "event: message\ndata: ", tail = "\n\n";
        static constexpr char digits[] = "0123456789abcdef";
        char size[2 * sizeof(std::size_t)];
        char* first = std::end(size);
        for (std::size_t n = head.size() + message.size() + tail.size(); n != 0; n /= 16) *--first = digits[n % 16];
        out.append(first, std::end(size)).append("\r\n").append(head).append(message).append(tail).append("\r\n");
    }

    std::string stream_head(std::string_view extra = {}) const {
        return "HTTP/1.1 200 OK\r\nContent-Type: text/event-stream\r\nCache-Control: no-cache\r\n"
               "Transfer-Encoding: chunked\r\n" +
               std::string(extra) + "\r\n";
    }

    // A notification written while the request is answered: opens the SSE stream first.
    void event(std::string text) {
        if (closed_) return;
        if (!streaming_) {
            streaming_ = true;
            outbox_ += stream_head();
        }
        append_event(outbox_, text);
        flush();
    }

    void finish(http_reply reply) {
        if (reply.listen) return listen(std::move(reply.listen), std::move(reply.first_event));
        if (!streaming_) {
            if (reply.drop) return close();
            return write(std::move(reply));
        }
        if (reply.drop || closed_) return close();
        append_event(outbox_, reply.response.body());
        outbox_ += "0\r\n\r\n";
        ending_ = true;
        keep_alive_ = parser_->get().keep_alive();
        flush();
    }

    // Writes what waits in the outbox, one write at a time.
    void flush() {
        if (writing_ || outbox_.empty() || closed_) return;
        writing_ = true;
        sending_ = std::move(outbox_);
        outbox_.clear();
        if (!listening_) expires_after(options_.write_timeout);
        asio::async_write(socket_, asio::buffer(sending_),
                          [self = this->shared_from_this()](beast::error_code ec, std::size_t) {
                              self->no_deadline();
                              self->writing_ = false;
                              if (ec) return self->close();
                              if (!self->outbox_.empty()) return self->flush();
                              if (self->last_chunk_sent_) return self->close();
                              if (self->ending_) {
                                  self->streaming_ = self->ending_ = false;
                                  self->parser_.reset();
                                  if (!self->keep_alive_) return self->close();
                                  self->read();
                              }
                          });
    }

    // GET (and subscriptions/listen): the session's server-initiated messages, after `first`,
    // until the session ends, the client leaves, or stream_timeout passes.
    void listen(std::shared_ptr<session> state, std::string first = {}) {
        listening_ = true;
        streaming_ = true;
        parser_.reset();
        no_deadline();
        // The connection closes after this stream: said in the head, so that a client does not
        // send its next request on it.
        outbox_ += stream_head("Connection: close\r\n");
        if (!first.empty()) append_event(outbox_, first);
        std::weak_ptr<http_connection> weak = this->shared_from_this();
        state->listen(
            [weak](std::string_view message) {
                if (const auto self = weak.lock())
                    asio::post(self->socket_.get_executor(),
                               [self, text = std::string(message)]() mutable { self->event(std::move(text)); });
            },
            [weak] {
                if (const auto self = weak.lock()) asio::post(self->socket_.get_executor(), [self] { self->end_stream(); });
            });
        listener_ = state;
        timer_.emplace(socket_.get_executor());
        timer_->expires_after(options_.stream_timeout);
        timer_->async_wait([self = this->shared_from_this()](beast::error_code ec) {
            if (!ec) self->end_stream();
        });
        // The client sends nothing more; a read ends when it leaves.
        socket_.async_read_some(asio::buffer(probe_), [self = this->shared_from_this()](beast::error_code, std::size_t) {
            self->close();
        });
        flush();
    }

    // Ends the GET stream with the last chunk, then closes the connection.
    void end_stream() {
        if (closed_ || last_chunk_sent_) return;
        outbox_ += "0\r\n\r\n";
        last_chunk_sent_ = true;
        if (!writing_) flush();
    }

    // The head and the body leave in one write.
    void write(http_reply reply) {
        reply_ = std::move(reply);
        parser_.reset();  // the request is answered: its memory goes
        head_.clear();
        append_response_head(head_, reply_.response);
        const std::array<asio::const_buffer, 2> parts{asio::buffer(head_), asio::buffer(reply_.response.body())};
        expires_after(options_.write_timeout);
        asio::async_write(socket_, parts, [self = this->shared_from_this()](beast::error_code ec, std::size_t) {
            self->no_deadline();
            if (!ec && self->lingering_) return self->linger();
            if (ec || self->reply_.close || !self->reply_.response.keep_alive()) return self->close();
            self->reply_ = {};
            self->read();
        });
    }

    void linger() {
        beast::error_code ignored;
        socket_.shutdown(asio::ip::tcp::socket::shutdown_send, ignored);
        discard();
    }

    void discard() {
        if (discarded_ > 4 * options_.max_message_size) return close();
        expires_after(options_.header_timeout);
        buffer_.consume(buffer_.size());
        socket_.async_read_some(buffer_.prepare(read_chunk),
                                [self = this->shared_from_this()](beast::error_code ec, std::size_t n) {
                                    if (ec) return self->close();
                                    self->discarded_ += n;
                                    self->discard();
                                });
    }

    void close() {
        if (closed_) return;
        closed_ = true;
        if (timer_) timer_->cancel();
        deadline_timer_.cancel();
        if (const auto state = listener_.lock()) {
            listener_.reset();
            state->stop_listening();
        }
        beast::error_code ignored;
        socket_.shutdown(asio::ip::tcp::socket::shutdown_both, ignored);
        socket_.close(ignored);
    }

    asio::ip::tcp::socket socket_;
    asio::steady_timer deadline_timer_;
    clock::time_point deadline_ = clock::time_point::max();
    std::optional<clock::time_point> waiting_until_;  // what deadline_timer_ waits for
    asio::io_context::executor_type pool_;
    beast::flat_buffer buffer_;
    std::optional<beast::http::request_parser<beast::http::string_body>> parser_;
    std::size_t received_ = 0;
    std::chrono::steady_clock::time_point body_start_{};
    http_reply reply_;
    std::string head_;
    bool lingering_ = false;
    std::size_t discarded_ = 0;
    std::string client_;
    // The SSE stream: a request's events and answer, or the GET stream (listening_).
    bool streaming_ = false;
    bool ending_ = false;
    bool keep_alive_ = false;
    bool writing_ = false;
    bool listening_ = false;
    bool closed_ = false;
    bool last_chunk_sent_ = false;
    std::string outbox_;
    std::string sending_;
    std::weak_ptr<session> listener_;
    std::optional<asio::steady_timer> timer_;
    char probe_[64]{};
    http_endpoint<Registry>& endpoint_;
    const http_options& options_;
    std::atomic<std::size_t>& open_;
    connection_set<http_connection>& set_;
    // Guarded by set_'s mutex.
    bool waiting_ = false;
    std::chrono::steady_clock::time_point since_{};
};

} // namespace detail

/// A Streamable HTTP server for `srv`, which must outlive it.
template <class Registry>
class http_server {
public:
    /// Binds and listens; throws boost::system::system_error when it cannot, and
    /// std::invalid_argument when the options are unsafe or incomplete: a non-loopback address
    /// without authorization.verify (unless allow_unauthenticated), an incomplete authorization.
    explicit http_server(const server<Registry>& srv, http_options options = {})
        : options_(std::move(options)),
          address_(boost::asio::ip::make_address(options_.address)),
          endpoint_(srv, options_, address_.is_loopback()),
          acceptor_(context_) {
        if (!address_.is_loopback() && !options_.authorization.verify && !options_.allow_unauthenticated)
            throw std::invalid_argument(
                "agentry: mcp::http_server: refusing to listen on " + options_.address +
                " without authentication: anyone who can connect could call every tool; set "
                "http_options::authorization (a token verifier), or set http_options::allow_unauthenticated = true "
                "when something in front authenticates (see docs/security.md)");
        const boost::asio::ip::tcp::endpoint where(address_, options_.port);
        acceptor_.open(where.protocol());
        acceptor_.set_option(boost::asio::socket_base::reuse_address(true));
        acceptor_.bind(where);
        acceptor_.listen(boost::asio::socket_base::max_listen_connections);
        port_ = acceptor_.local_endpoint().port();
    }

    http_server(const http_server&) = delete;
    http_server& operator=(const http_server&) = delete;

    /// The port listened on.
    unsigned short port() const noexcept { return port_; }

    /// The endpoint's URL, e.g. http://127.0.0.1:8080/mcp.
    std::string url() const {
        const std::string host = address_.is_v6() ? "[" + address_.to_string() + "]" : address_.to_string();
        return "http://" + host + ":" + std::to_string(port_) + options_.path;
    }

    /// The I/O context, e.g. for a boost::asio::signal_set that calls stop().
    boost::asio::io_context& context() noexcept { return context_; }

    /// Serves until stop(), on options.threads threads (this one included). Never throws.
    void run() noexcept {
        accept();
        std::vector<std::thread> helpers;
        try {
            for (std::size_t i = 1; i < options_.threads; ++i) helpers.emplace_back([this] { run_context(); });
        } catch (...) {
            detail::log_line(options_.log, "serving on one thread: cannot start more");
        }
        run_context();
        for (std::thread& t : helpers) t.join();
    }

    /// Makes run() return; callable from any thread.
    void stop() noexcept { context_.stop(); }

    /// Sessions in progress.
    std::size_t sessions() const { return endpoint_.sessions(); }

    /// Sends a log message to the GET stream of every session whose client asked for `level`
    /// (logging/setLevel); callable from any thread. Returns the number of streams it went to.
    template <class T>
    std::size_t log(log_level level, const T& data, std::string_view logger = {}) {
        return endpoint_.log(level, data, logger);
    }
    std::size_t log(log_level level, std::string_view text, std::string_view logger = {}) {
        return endpoint_.log(level, text, logger);
    }

private:
    void run_context() noexcept {
        for (;;) {
            try {
                context_.run();
                return;
            } catch (const std::exception& e) {
                detail::log_line(options_.log, std::string("error while serving: ") + e.what());
            } catch (...) {
                detail::log_line(options_.log, "error while serving");
            }
        }
    }

    void accept() {
        acceptor_.async_accept(boost::asio::make_strand(context_),
                               [this](boost::beast::error_code ec, boost::asio::ip::tcp::socket socket) {
                                   if (ec == boost::asio::error::operation_aborted) return;
                                   if (!ec) admit(std::move(socket));
                                   accept();
                               });
    }

    using connection = detail::http_connection<Registry>;

    // At max_connections, the connection waiting longest for a request head is closed to make
    // room; when none is waiting, the new one is closed.
    void admit(boost::asio::ip::tcp::socket socket) {
        if (open_ >= options_.max_connections) {
            std::shared_ptr<connection> oldest;
            try {
                oldest = connections_.take_oldest_waiting();
            } catch (...) {
            }
            if (!oldest) {
                boost::beast::error_code ignored;
                socket.close(ignored);
                return;
            }
            oldest->evict();
        }
        ++open_;
        try {
            std::make_shared<connection>(std::move(socket), context_.get_executor(), endpoint_, options_, open_,
                                         connections_)
                ->start();
        } catch (...) {
            --open_;
        }
    }

    http_options options_;
    boost::asio::ip::address address_;
    detail::http_endpoint<Registry> endpoint_;
    std::atomic<std::size_t> open_{0};
    detail::connection_set<connection> connections_;
    boost::asio::io_context context_;
    boost::asio::ip::tcp::acceptor acceptor_;
    unsigned short port_ = 0;
};

/// Serves `srv` over HTTP until SIGINT or SIGTERM; logs the URL on `options.log`. Returns 0,
/// or 1 when the address cannot be bound.
template <class Registry>
int serve_http(const server<Registry>& srv, const http_options& options = {}) {
    try {
        http_server<Registry> http(srv, options);
        boost::asio::signal_set signals(http.context(), SIGINT, SIGTERM);
        signals.async_wait([&](const boost::system::error_code& ec, int) {
            if (!ec) http.stop();
        });
        detail::log_line(options.log, "listening on " + http.url());
        http.run();
        detail::log_line(options.log, "stopped");
        return 0;
    } catch (const std::exception& e) {
        detail::log_line(options.log, "cannot serve on " + options.address + ":" + std::to_string(options.port) +
                                          ": " + e.what());
        return 1;
    }
}

/// Serves `tools`, introduced as `info`, over HTTP (see above).
template <class Registry>
int serve_http(const Registry& tools, const server_info& info, const http_options& options = {}) {
    return serve_http(server<Registry>(tools, info), options);
}

} // namespace agentry::mcp

#endif
