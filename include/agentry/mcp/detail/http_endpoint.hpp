// SPDX-License-Identifier: BSL-1.0
#ifndef AGENTRY_MCP_DETAIL_HTTP_ENDPOINT_HPP
#define AGENTRY_MCP_DETAIL_HTTP_ENDPOINT_HPP

// The Streamable HTTP rules of MCP, one HTTP request in, one HTTP response out, with no
// sockets: Origin and Host checks, sessions (Mcp-Session-Id), the MCP-Protocol-Version
// header, and the status codes. http.hpp puts it on a socket.

#include <agentry/json/detail/suggest.hpp>
#include <agentry/json/writer.hpp>
#include <agentry/mcp/http_options.hpp>
#include <agentry/mcp/message.hpp>
#include <agentry/mcp/server.hpp>
#include <agentry/mcp/session.hpp>

#include <boost/beast/http/message.hpp>
#include <boost/beast/http/string_body.hpp>

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <map>
#include <memory>
#include <mutex>
#include <random>
#include <string>
#include <string_view>
#include <utility>

namespace agentry::mcp::detail {

namespace http = boost::beast::http;

using http_request = http::request<http::string_body>;
using http_response = http::response<http::string_body>;

struct http_reply {
    http_response response;
    /// Close the connection after the response.
    bool close = false;
    /// Close the connection without a response (the request was cancelled).
    bool drop = false;
};

using json::detail::equal_ignoring_case;

inline bool icontains(std::string_view text, std::string_view part) noexcept {
    for (std::size_t i = 0; i + part.size() <= text.size(); ++i)
        if (equal_ignoring_case(text.substr(i, part.size()), part)) return true;
    return false;
}

inline bool loopback_name(std::string_view host) noexcept {
    return equal_ignoring_case(host, "localhost") || host == "127.0.0.1" || host == "[::1]";
}

/// The host of "host", "host:port", "[v6]" or "[v6]:port".
inline std::string_view host_of(std::string_view authority) noexcept {
    if (!authority.empty() && authority.front() == '[') {
        const std::size_t close = authority.find(']');
        return close == std::string_view::npos ? authority : authority.substr(0, close + 1);
    }
    return authority.substr(0, authority.find(':'));
}

/// An identifier no one can guess: 128 bits from std::random_device, in hex.
inline std::string new_session_id() {
    static std::mutex mutex;
    static std::random_device device;
    std::lock_guard lock(mutex);
    std::string id;
    for (int i = 0; i != 4; ++i) {
        const std::uint32_t word = device();
        for (int shift = 28; shift >= 0; shift -= 4) id += "0123456789abcdef"[(word >> shift) & 0xF];
    }
    return id;
}

template <class Registry>
class http_endpoint {
public:
    http_endpoint(const server<Registry>& srv, const http_options& options, bool loopback)
        : server_(srv), options_(options), loopback_(loopback) {}

    http_reply handle(const http_request& request) {
        http_reply reply;
        try {
            reply = route(request);
        } catch (...) {
            reply = plain(http::status::internal_server_error, "out of memory");
            reply.close = true;
        }
        reply.response.version(request.version());
        reply.response.keep_alive(!reply.close && request.keep_alive());
        reply.response.prepare_payload();
        return reply;
    }

    /// The reply to a body over max_message_size.
    http_reply too_large() const {
        http_reply reply = json(http::status::payload_too_large, {}, error_code::invalid_request,
                                "Invalid Request: the message is longer than the limit of " +
                                    std::to_string(options_.max_message_size) + " bytes");
        reply.close = true;
        reply.response.keep_alive(false);
        reply.response.prepare_payload();
        return reply;
    }

    std::size_t sessions() const {
        std::lock_guard lock(mutex_);
        return sessions_.size();
    }

private:
    struct entry {
        std::shared_ptr<session> state;
        std::uint64_t last_used;
    };

    static http_reply plain(http::status status, std::string_view text) {
        http_reply reply;
        reply.response.result(status);
        reply.response.set(http::field::content_type, "text/plain; charset=utf-8");
        reply.response.body() = std::string(text) + '\n';
        return reply;
    }

    static http_reply json(http::status status, std::string_view id, error_code code, std::string_view message) {
        http_reply reply;
        reply.response.result(status);
        reply.response.set(http::field::content_type, "application/json");
        write_error(reply.response.body(), id, code, message);
        return reply;
    }

    bool origin_allowed(std::string_view origin) const {
        for (const std::string& allowed : options_.allowed_origins)
            if (equal_ignoring_case(origin, allowed)) return true;
        std::string_view rest;
        if (origin.starts_with("http://")) rest = origin.substr(7);
        else if (origin.starts_with("https://")) rest = origin.substr(8);
        else return false;
        return rest.find('/') == std::string_view::npos && loopback_name(host_of(rest));
    }

    bool host_allowed(std::string_view host_header) const {
        const std::string_view host = host_of(host_header);
        if (loopback_name(host)) return true;
        for (const std::string& allowed : options_.allowed_hosts)
            if (equal_ignoring_case(host, allowed)) return true;
        return !loopback_ && options_.allowed_hosts.empty();
    }

    std::shared_ptr<session> find_session(std::string_view id) {
        std::lock_guard lock(mutex_);
        const auto it = sessions_.find(std::string(id));
        if (it == sessions_.end()) return nullptr;
        it->second.last_used = ++clock_;
        return it->second.state;
    }

    std::string add_session(std::shared_ptr<session> state) {
        std::string id = new_session_id();
        std::lock_guard lock(mutex_);
        if (sessions_.size() >= options_.max_sessions && !sessions_.empty()) {
            auto oldest = sessions_.begin();
            for (auto it = sessions_.begin(); it != sessions_.end(); ++it)
                if (it->second.last_used < oldest->second.last_used) oldest = it;
            sessions_.erase(oldest);
        }
        sessions_[id] = {std::move(state), ++clock_};
        return id;
    }

    bool end_session(std::string_view id) {
        std::lock_guard lock(mutex_);
        return sessions_.erase(std::string(id)) != 0;
    }

    http_reply route(const http_request& request) {
        const std::string_view target = request.target();
        if (target.substr(0, target.find('?')) != options_.path) return plain(http::status::not_found, "Not Found");
        if (!host_allowed(request[http::field::host]))
            return json(http::status::forbidden, {}, error_code::invalid_request,
                        "Forbidden: the Host header is not allowed");
        if (request.count(http::field::origin) != 0 && !origin_allowed(request[http::field::origin]))
            return json(http::status::forbidden, {}, error_code::invalid_request,
                        "Forbidden: the Origin is not allowed");
        if (request.method() == http::verb::post) return post(request);
        if (request.method() == http::verb::delete_) return remove(request);
        http_reply reply = plain(http::status::method_not_allowed, "Method Not Allowed");
        reply.response.set(http::field::allow, "POST, DELETE");
        return reply;
    }

    http_reply remove(const http_request& request) {
        const std::string_view id = request["Mcp-Session-Id"];
        if (id.empty())
            return json(http::status::bad_request, {}, error_code::invalid_request,
                        "Bad Request: the Mcp-Session-Id header is missing");
        if (!end_session(id))
            return json(http::status::not_found, {}, error_code::session_not_found, "Session not found");
        http_reply reply;
        reply.response.result(http::status::ok);
        return reply;
    }

    http_reply post(const http_request& request) {
        if (!icontains(request[http::field::content_type], "application/json"))
            return json(http::status::unsupported_media_type, {}, error_code::invalid_request,
                        "Unsupported Media Type: the body must be application/json");
        const std::string_view accept = request[http::field::accept];
        if (!accept.empty() && !icontains(accept, "application/json") && !icontains(accept, "*/*") &&
            !icontains(accept, "application/*"))
            return json(http::status::not_acceptable, {}, error_code::invalid_request,
                        "Not Acceptable: the server answers with application/json");
        received m = read_message(request.body(), options_.max_message_size);
        if (m.kind == message_kind::invalid) return json(http::status::bad_request, m.id, m.code, m.error);

        std::shared_ptr<session> state;
        std::string new_id;
        const bool initialize = m.kind == message_kind::request && m.method == "initialize";
        if (initialize) {
            state = std::make_shared<session>();
        } else {
            const std::string_view id = request["Mcp-Session-Id"];
            if (id.empty())
                return json(http::status::bad_request, m.id, error_code::invalid_request,
                            "Bad Request: the Mcp-Session-Id header is missing; send initialize first");
            state = find_session(id);
            if (!state) return json(http::status::not_found, m.id, error_code::session_not_found, "Session not found");
            const std::string_view version = request["MCP-Protocol-Version"];
            if (!version.empty() && version != state->protocol_version()) {
                std::string message = "Bad Request: unsupported MCP-Protocol-Version ";
                json::write(message, version.substr(0, 40), {.max_size = 0});
                message += "; this session uses " + state->protocol_version();
                return json(http::status::bad_request, m.id, error_code::invalid_request, message);
            }
        }

        const bool answers = m.kind == message_kind::request;
        std::string answer = server_.handle(*state, std::move(m));
        if (!answers) {
            http_reply reply;
            reply.response.result(http::status::accepted);
            return reply;
        }
        if (answer.empty()) {
            http_reply reply;
            reply.drop = true;
            return reply;
        }
        http_reply reply;
        reply.response.result(http::status::ok);
        reply.response.set(http::field::content_type, "application/json");
        if (initialize && state->initialized()) {
            new_id = add_session(std::move(state));
            reply.response.set("Mcp-Session-Id", new_id);
        }
        reply.response.body() = std::move(answer);
        return reply;
    }

    const server<Registry>& server_;
    const http_options& options_;
    bool loopback_;
    mutable std::mutex mutex_;
    std::map<std::string, entry> sessions_;
    std::uint64_t clock_ = 0;
};

} // namespace agentry::mcp::detail

#endif
