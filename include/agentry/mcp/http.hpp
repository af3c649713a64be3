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
// unknown or ended: 404). A MCP-Protocol-Version header other than the negotiated version gets
// 400. DELETE ends a session. GET and other methods get 405. A body longer than
// max_message_size gets 413. An Origin header other than a loopback origin or one of
// allowed_origins gets 403, and so does a Host header naming another machine when the server
// listens on loopback (both against DNS rebinding). A request cancelled with
// notifications/cancelled while it runs gets no response: its connection is closed.
//
// http_server gives control: it binds in its constructor (port() tells the port when 0 was
// asked for), run() serves on `threads` threads (the caller's included) until stop(). run()
// is called once.

#include <agentry/mcp/detail/http_endpoint.hpp>
#include <agentry/mcp/detail/log.hpp>
#include <agentry/mcp/http_options.hpp>
#include <agentry/mcp/server.hpp>

#include <boost/asio/dispatch.hpp>
#include <boost/asio/io_context.hpp>
#include <boost/asio/ip/address.hpp>
#include <boost/asio/ip/tcp.hpp>
#include <boost/asio/signal_set.hpp>
#include <boost/asio/strand.hpp>
#include <boost/beast/core/flat_buffer.hpp>
#include <boost/beast/core/tcp_stream.hpp>
#include <boost/beast/http/error.hpp>
#include <boost/beast/http/parser.hpp>
#include <boost/beast/http/read.hpp>
#include <boost/beast/http/write.hpp>

#include <atomic>
#include <csignal>
#include <cstddef>
#include <exception>
#include <memory>
#include <optional>
#include <string>
#include <thread>
#include <utility>
#include <vector>

namespace agentry::mcp {

namespace detail {

namespace asio = boost::asio;
namespace beast = boost::beast;

// One connection: read a request, answer it, repeat while the client keeps it alive.
template <class Registry>
class http_connection : public std::enable_shared_from_this<http_connection<Registry>> {
public:
    http_connection(asio::ip::tcp::socket socket, http_endpoint<Registry>& endpoint, const http_options& options,
                    std::atomic<std::size_t>& open)
        : stream_(std::move(socket)), endpoint_(endpoint), options_(options), open_(open) {}
    ~http_connection() { --open_; }

    void start() {
        asio::dispatch(stream_.get_executor(), [self = this->shared_from_this()] { self->read(); });
    }

private:
    void read() {
        parser_.emplace();
        parser_->body_limit(options_.max_message_size);
        parser_->header_limit(16 * 1024);
        stream_.expires_after(options_.idle_timeout);
        beast::http::async_read(stream_, buffer_, *parser_,
                                [self = this->shared_from_this()](beast::error_code ec, std::size_t) {
                                    self->on_read(ec);
                                });
    }

    void on_read(beast::error_code ec) {
        if (ec == beast::http::error::body_limit) {
            // The client may still be sending: read on after the answer (discarding, up to four
            // message sizes), so that it gets to read the 413 rather than a reset.
            lingering_ = true;
            return write(endpoint_.too_large());
        }
        if (ec == beast::http::error::end_of_stream || ec == beast::error::timeout ||
            ec == asio::error::operation_aborted)
            return close();
        if (ec) {
            http_reply reply;
            reply.response.result(beast::http::status::bad_request);
            reply.response.set(beast::http::field::content_type, "text/plain; charset=utf-8");
            reply.response.body() = "Bad Request\n";
            reply.response.keep_alive(false);
            reply.response.prepare_payload();
            reply.close = true;
            return write(std::move(reply));
        }
        http_reply reply = endpoint_.handle(parser_->get());
        if (reply.drop) return close();
        write(std::move(reply));
    }

    void write(http_reply reply) {
        reply_ = std::move(reply);
        stream_.expires_after(options_.idle_timeout);
        beast::http::async_write(stream_, reply_.response,
                                 [self = this->shared_from_this()](beast::error_code ec, std::size_t) {
                                     if (!ec && self->lingering_) return self->linger();
                                     if (ec || self->reply_.close || !self->reply_.response.keep_alive())
                                         return self->close();
                                     self->read();
                                 });
    }

    void linger() {
        beast::error_code ignored;
        stream_.socket().shutdown(asio::ip::tcp::socket::shutdown_send, ignored);
        discard();
    }

    void discard() {
        if (discarded_ > 4 * options_.max_message_size) return close();
        stream_.expires_after(options_.idle_timeout);
        buffer_.consume(buffer_.size());
        stream_.async_read_some(buffer_.prepare(16 * 1024),
                                [self = this->shared_from_this()](beast::error_code ec, std::size_t n) {
                                    if (ec) return self->close();
                                    self->discarded_ += n;
                                    self->discard();
                                });
    }

    void close() {
        beast::error_code ignored;
        stream_.socket().shutdown(asio::ip::tcp::socket::shutdown_both, ignored);
        stream_.socket().close(ignored);
    }

    beast::tcp_stream stream_;
    beast::flat_buffer buffer_;
    std::optional<beast::http::request_parser<beast::http::string_body>> parser_;
    http_reply reply_;
    bool lingering_ = false;
    std::size_t discarded_ = 0;
    http_endpoint<Registry>& endpoint_;
    const http_options& options_;
    std::atomic<std::size_t>& open_;
};

} // namespace detail

/// A Streamable HTTP server for `srv`, which must outlive it.
template <class Registry>
class http_server {
public:
    /// Binds and listens; throws boost::system::system_error when it cannot.
    explicit http_server(const server<Registry>& srv, http_options options = {})
        : options_(std::move(options)),
          address_(boost::asio::ip::make_address(options_.address)),
          endpoint_(srv, options_, address_.is_loopback()),
          acceptor_(context_) {
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
                                   if (!ec) {
                                       if (open_ >= options_.max_connections) {
                                           boost::beast::error_code ignored;
                                           socket.close(ignored);
                                       } else {
                                           ++open_;
                                           try {
                                               std::make_shared<detail::http_connection<Registry>>(
                                                   std::move(socket), endpoint_, options_, open_)
                                                   ->start();
                                           } catch (...) {
                                               --open_;
                                           }
                                       }
                                   }
                                   accept();
                               });
    }

    http_options options_;
    boost::asio::ip::address address_;
    detail::http_endpoint<Registry> endpoint_;
    std::atomic<std::size_t> open_{0};
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
