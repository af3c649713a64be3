// SPDX-License-Identifier: BSL-1.0
#ifndef AGENTRY_MCP_DETAIL_HTTP_ENDPOINT_HPP
#define AGENTRY_MCP_DETAIL_HTTP_ENDPOINT_HPP

// The Streamable HTTP rules of MCP, one HTTP request in, one HTTP response out, with no
// sockets: Origin and Host checks, bearer-token authorization and the Protected Resource
// Metadata document, sessions (Mcp-Session-Id), the MCP-Protocol-Version header, 2026-07-28's
// Mcp-Method and Mcp-Name headers (standard_headers.hpp), and the status codes. http.hpp puts
// it on a socket.

#include <agentry/detail/random_id.hpp>
#include <agentry/json/writer.hpp>
#include <agentry/mcp/auth.hpp>
#include <agentry/mcp/detail/http_fields.hpp>
#include <agentry/mcp/detail/standard_headers.hpp>
#include <agentry/mcp/http_options.hpp>
#include <agentry/mcp/logging.hpp>
#include <agentry/mcp/message.hpp>
#include <agentry/mcp/server.hpp>
#include <agentry/mcp/session.hpp>
#include <agentry/mcp/version.hpp>
#include <agentry/telemetry/metrics.hpp>

#include <boost/beast/http/message.hpp>
#include <boost/beast/http/string_body.hpp>

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <functional>
#include <map>
#include <memory>
#include <mutex>
#include <optional>
#include <stdexcept>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

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
    /// A GET stream for this session: the connection answers with an event stream and sends the
    /// session's server-initiated messages on it (session::listen).
    std::shared_ptr<session> listen;
    /// With `listen`: the event sent first (a subscription's acknowledgement).
    std::string first_event;
};

/// Appends the status line and header fields of `response` to `out`, as Beast's serializer
/// writes them, so that the connection sends them and the body in one write.
inline void append_response_head(std::string& out, const http_response& response) {
    out += "HTTP/1.1 ";
    out[out.size() - 4] = static_cast<char>('0' + response.version() / 10);
    out[out.size() - 2] = static_cast<char>('0' + response.version() % 10);
    out += std::to_string(response.result_int());
    out += ' ';
    out += response.reason();
    out += "\r\n";
    for (const auto& field : response) {
        out += field.name_string();
        out += ": ";
        out += field.value();
        out += "\r\n";
    }
    out += "\r\n";
}

/// An identifier no one can guess: 128 bits from std::random_device, in hex.
inline std::string new_session_id() { return agentry::detail::random_name(); }

/// The Protected Resource Metadata document (RFC 9728), written with the JSON writer.
struct resource_metadata {
    std::string resource;
    std::vector<std::string> authorization_servers;
    std::optional<std::vector<std::string>> scopes_supported;
    std::vector<std::string> bearer_methods_supported;
    std::optional<std::string> resource_name;
};

inline constexpr std::string_view metadata_prefix = "/.well-known/oauth-protected-resource";

/// Characters allowed in a quoted auth-param value we write: printable ASCII but '"' and '\'.
inline bool quotable(std::string_view text) noexcept {
    for (char c : text)
        if (c < 0x21 || c > 0x7E || c == '"' || c == '\\') return false;
    return true;
}

template <class Registry>
class http_endpoint {
public:
    /// Throws std::invalid_argument when options.authorization is incomplete, or when
    /// options.metrics is set and metrics_path is the MCP endpoint's path.
    http_endpoint(const server<Registry>& srv, const http_options& options, bool loopback)
        : server_(srv), options_(options), loopback_(loopback) {
        if (options_.metrics && options_.metrics_path == options_.path)
            throw std::invalid_argument("agentry: mcp::http_options::metrics_path \"" + options_.metrics_path +
                                        "\" is the MCP endpoint's path too; give the metrics another path, e.g. "
                                        "\"/metrics\"");
        const authorization& auth = options_.authorization;
        if (!auth.verify) return;
        const std::size_t scheme = auth.resource.find("://");
        if (scheme == std::string::npos || !quotable(auth.resource) ||
            !(auth.resource.starts_with("https://") || auth.resource.starts_with("http://")))
            throw std::invalid_argument("agentry: mcp::http_options::authorization.resource must be this server's "
                                        "absolute http(s) URL as clients reach it, e.g. https://mcp.example.com/mcp");
        if (auth.authorization_servers.empty())
            throw std::invalid_argument("agentry: mcp::http_options::authorization.authorization_servers must name at "
                                        "least one authorization server (RFC 9728, MCP authorization)");
        for (const std::string& scope : auth.required_scopes)
            if (scope.empty() || !quotable(scope))
                throw std::invalid_argument("agentry: mcp::http_options::authorization.required_scopes: a scope must be "
                                            "printable ASCII without spaces, '\"' or '\\'");
        const std::size_t path = auth.resource.find('/', scheme + 3);
        const std::string_view resource_path =
            path == std::string::npos ? std::string_view{} : std::string_view(auth.resource).substr(path);
        metadata_url_ = auth.resource.substr(0, path) + std::string(metadata_prefix) +
                        std::string(resource_path == "/" ? std::string_view{} : resource_path);
        for (const std::string& scope : auth.required_scopes) {
            if (!scopes_.empty()) scopes_ += ' ';
            scopes_ += scope;
        }
        resource_metadata doc{auth.resource, auth.authorization_servers, std::nullopt, {"header"}, std::nullopt};
        if (!auth.scopes_supported.empty()) doc.scopes_supported = auth.scopes_supported;
        else if (!auth.required_scopes.empty()) doc.scopes_supported = auth.required_scopes;
        if (!auth.resource_name.empty()) doc.resource_name = auth.resource_name;
        json::write(metadata_, doc, {.omit_empty_optionals = true});
    }

    /// Answers `request`, which came from the client address `client`. Notifications written
    /// while a request is answered go to `events` (an SSE stream the connection opens) when the
    /// client accepts text/event-stream over HTTP/1.1, and are dropped otherwise.
    http_reply handle(const http_request& request, std::string_view client = {}, const message_sink& events = {}) {
        http_reply reply;
        try {
            reply = route(request, client, events);
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
        return closing(std::move(reply));
    }

    /// The reply to malformed HTTP or a framing limit passed (431 or 400); the connection closes.
    http_reply refuse(http::status status, std::string_view text) const { return closing(plain(status, text)); }

    std::size_t sessions() const {
        std::lock_guard lock(mutex_);
        return sessions_.size();
    }

    /// The URL of the Protected Resource Metadata document; empty without authorization.
    const std::string& metadata_url() const noexcept { return metadata_url_; }

    /// Sends a log message to every session with a GET stream whose client asked for `level`
    /// (logging/setLevel). Returns the number of sessions it went to.
    template <class T>
    std::size_t log(log_level level, const T& data, std::string_view logger = {}) {
        const std::string message = log_notification(level, data, logger);
        std::vector<std::shared_ptr<session>> targets;
        {
            std::lock_guard lock(mutex_);
            for (const auto& [id, e] : sessions_)
                if (const auto wanted = e.state->level(); wanted && level >= *wanted) targets.push_back(e.state);
        }
        std::size_t sent = 0;
        for (const auto& target : targets) sent += target->post(message) ? 1 : 0;
        return sent;
    }

private:
    struct entry {
        std::shared_ptr<session> state;
        std::uint64_t last_used;
        std::string client;
        /// A request other than `initialize` used the session.
        bool confirmed = false;
    };
    using session_map = std::map<std::string, entry, std::less<>>;

    static http_reply closing(http_reply reply) {
        reply.close = true;
        reply.response.keep_alive(false);
        reply.response.prepare_payload();
        return reply;
    }

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

    bool origin_allowed(std::string_view field) const {
        const auto o = parse_origin(field);
        if (!o) return false;
        if (loopback_host(o->where.host)) return true;
        for (const std::string& allowed : options_.allowed_origins)
            if (const auto a = parse_origin(allowed); a && *a == *o) return true;
        return false;
    }

    bool host_allowed(std::string_view field) const {
        const auto a = parse_authority(field);
        if (!a) return false;
        if (loopback_host(a->host)) return true;
        for (const std::string& allowed : options_.allowed_hosts)
            if (equal_ignoring_case(a->host, allowed)) return true;
        return !loopback_ && options_.allowed_hosts.empty();
    }

    /// A 401 or 403 with its WWW-Authenticate challenge; `error` empty when no token was sent.
    http_reply challenge(http::status status, std::string_view error, std::string_view message) const {
        http_reply reply = json(status, {}, error_code::invalid_request, message);
        std::string value = "Bearer resource_metadata=\"" + metadata_url_ + '"';
        if (!error.empty()) value += ", error=\"" + std::string(error) + '"';
        if (!scopes_.empty()) value += ", scope=\"" + scopes_ + '"';
        reply.response.set(http::field::www_authenticate, value);
        return reply;
    }

    /// The identity of the request's bearer token, or the reply refusing it.
    std::optional<identity> authenticate(const http_request& request, http_reply& refusal) const {
        const auto field = request.find(http::field::authorization);
        const std::string_view token = field == request.end() ? std::string_view{} : bearer_token(field->value());
        if (request.count(http::field::authorization) > 1 || (field != request.end() && token.empty())) {
            refusal = challenge(http::status::unauthorized, "invalid_request",
                                "Unauthorized: send one Authorization header, \"Bearer <token>\"");
            return std::nullopt;
        }
        if (token.empty()) {
            refusal = challenge(http::status::unauthorized, {}, "Unauthorized: a bearer token is required");
            return std::nullopt;
        }
        std::optional<identity> who;
        try {
            who = options_.authorization.verify(token);
        } catch (...) {
            refusal = plain(http::status::internal_server_error, "the token could not be verified");
            return std::nullopt;
        }
        if (!who) {
            refusal = challenge(http::status::unauthorized, "invalid_token", "Unauthorized: the token is not valid");
            return std::nullopt;
        }
        for (const std::string& scope : options_.authorization.required_scopes)
            if (!who->has_scope(scope)) {
                refusal = challenge(http::status::forbidden, "insufficient_scope",
                                    "Forbidden: the token lacks the scope \"" + scope + '"');
                return std::nullopt;
            }
        return who;
    }

    /// The session `id` when it exists and belongs to `who` (nullptr without authorization).
    std::shared_ptr<session> find_session(std::string_view id, const identity* who) {
        std::lock_guard lock(mutex_);
        const auto it = sessions_.find(id);
        if (it == sessions_.end()) return nullptr;
        const identity* owner = it->second.state->owner();
        if (who && (!owner || owner->subject != who->subject)) return nullptr;
        it->second.last_used = ++clock_;
        it->second.confirmed = true;
        return it->second.state;
    }

    /// The session to end among those `pick` admits: one never confirmed if any, else the least
    /// recently used. end() when none.
    template <class Pick>
    typename session_map::iterator victim(Pick pick) {
        auto best = sessions_.end();
        for (auto it = sessions_.begin(); it != sessions_.end(); ++it) {
            if (!pick(it->second)) continue;
            if (best == sessions_.end() || (!it->second.confirmed && best->second.confirmed) ||
                (it->second.confirmed == best->second.confirmed && it->second.last_used < best->second.last_used))
                best = it;
        }
        return best;
    }

    std::string add_session(std::shared_ptr<session> state, std::string_view client) {
        std::string id = new_session_id();
        state->set_id(id);
        std::lock_guard lock(mutex_);
        std::map<std::string, std::size_t, std::less<>> per_client;
        for (const auto& [key, e] : sessions_) ++per_client[e.client];
        if (per_client[std::string(client)] >= options_.max_sessions_per_client) {
            const auto it = victim([&](const entry& e) { return e.client == client; });
            if (it != sessions_.end()) {
                --per_client[it->second.client];
                it->second.state->requests().close("the session ended");
                it->second.state->stop_listening();
                sessions_.erase(it);
            }
        }
        if (sessions_.size() >= options_.max_sessions) {
            auto it = victim([](const entry& e) { return !e.confirmed; });
            if (it == sessions_.end()) {
                std::string_view busiest;
                std::size_t most = 0;
                for (const auto& [address, count] : per_client)
                    if (count > most) most = count, busiest = address;
                it = victim([&](const entry& e) { return e.client == busiest; });
            }
            if (it != sessions_.end()) {
                it->second.state->requests().close("the session ended");
                it->second.state->stop_listening();
                sessions_.erase(it);
            }
        }
        sessions_[id] = {std::move(state), ++clock_, std::string(client)};
        return id;
    }

    http_reply route(const http_request& request, std::string_view client, const message_sink& events) {
        const std::string_view target = request.target();
        const std::string_view path = target.substr(0, target.find('?'));
        const bool metadata = !metadata_url_.empty() && path.starts_with(metadata_prefix) &&
                              (path.size() == metadata_prefix.size() ||
                               path.substr(metadata_prefix.size()) == options_.path);
        const bool scrape = options_.metrics && path == options_.metrics_path;
        if (path != options_.path && !metadata && !scrape) return plain(http::status::not_found, "Not Found");
        if (request.count(http::field::host) != 1 || !host_allowed(request[http::field::host]))
            return json(http::status::forbidden, {}, error_code::invalid_request,
                        "Forbidden: the Host header is not allowed");
        if (metadata) {
            if (request.method() != http::verb::get) return not_allowed("GET");
            http_reply reply;
            reply.response.result(http::status::ok);
            reply.response.set(http::field::content_type, "application/json");
            reply.response.body() = metadata_;
            return reply;
        }
        if (request.count(http::field::origin) > 1 ||
            (request.count(http::field::origin) == 1 && !origin_allowed(request[http::field::origin])))
            return json(http::status::forbidden, {}, error_code::invalid_request,
                        "Forbidden: the Origin is not allowed");
        std::optional<identity> who;
        if (options_.authorization.verify) {
            http_reply refusal;
            who = authenticate(request, refusal);
            if (!who) return refusal;
        }
        if (scrape) return metrics_page(request);
        const identity* caller = who ? &*who : nullptr;
        if (request.method() == http::verb::post)
            return post(request, client, caller, streams(request) ? events : message_sink{});
        if (request.method() == http::verb::delete_) return remove(request, caller);
        if (request.method() == http::verb::get) return listen(request, caller);
        return not_allowed("GET, POST, DELETE");
    }

    // 405, with the methods the path takes.
    http_reply not_allowed(std::string_view allow) const {
        http_reply reply = plain(http::status::method_not_allowed, "Method Not Allowed");
        reply.response.set(http::field::allow, allow);
        return reply;
    }

    // GET <metrics_path>: the counters in the Prometheus text format.
    http_reply metrics_page(const http_request& request) const {
        if (request.method() != http::verb::get) return not_allowed("GET");
        http_reply reply;
        reply.response.result(http::status::ok);
        reply.response.set(http::field::content_type, "text/plain; version=0.0.4; charset=utf-8");
        reply.response.body() = options_.metrics->prometheus();
        return reply;
    }

    static bool streams(const http_request& request) {
        return request.version() == 11 && accepts_event_stream(request[http::field::accept]);
    }

    // GET: the session's stream of server-initiated messages.
    http_reply listen(const http_request& request, const identity* who) {
        if (!streams(request))
            return json(http::status::not_acceptable, {}, error_code::invalid_request,
                        "Not Acceptable: the GET stream is text/event-stream over HTTP/1.1");
        const std::string_view id = request["Mcp-Session-Id"];
        if (id.empty())
            return json(http::status::bad_request, {}, error_code::invalid_request,
                        "Bad Request: the Mcp-Session-Id header is missing; send initialize first");
        std::shared_ptr<session> state = find_session(id, who);
        if (!state) return json(http::status::not_found, {}, error_code::session_not_found, "Session not found");
        http_reply reply;
        reply.response.result(http::status::ok);
        reply.listen = std::move(state);
        return reply;
    }

    // subscriptions/listen (2026-07-28): the acknowledgement, then the subscription's
    // notifications, on an event stream kept open as the GET stream is.
    http_reply subscription(const received& m, bool streams) {
        if (!streams)
            return json(http::status::not_acceptable, m.id, error_code::invalid_request,
                        "Not Acceptable: subscriptions/listen answers with an event stream over HTTP/1.1; accept "
                        "text/event-stream");
        std::string first;
        std::string refusal;
        std::shared_ptr<session> sub = server_.open_subscription(m, first, refusal);
        if (!sub) return json_body(http::status::ok, std::move(refusal));
        http_reply reply;
        reply.response.result(http::status::ok);
        reply.listen = std::move(sub);
        reply.first_event = std::move(first);
        return reply;
    }

    http_reply remove(const http_request& request, const identity* who) {
        const std::string_view id = request["Mcp-Session-Id"];
        if (id.empty())
            return json(http::status::bad_request, {}, error_code::invalid_request,
                        "Bad Request: the Mcp-Session-Id header is missing");
        {
            std::lock_guard lock(mutex_);
            const auto it = sessions_.find(id);
            const identity* owner = it == sessions_.end() ? nullptr : it->second.state->owner();
            if (it == sessions_.end() || (who && (!owner || owner->subject != who->subject)))
                return json(http::status::not_found, {}, error_code::session_not_found, "Session not found");
            it->second.state->requests().close("the session ended");
            it->second.state->stop_listening();
            sessions_.erase(it);
        }
        http_reply reply;
        reply.response.result(http::status::ok);
        return reply;
    }

    http_reply post(const http_request& request, std::string_view client, const identity* who,
                    const message_sink& events) {
        if (!is_json_content_type(request[http::field::content_type]))
            return json(http::status::unsupported_media_type, {}, error_code::invalid_request,
                        "Unsupported Media Type: the body must be application/json");
        if (!accepts_json(request[http::field::accept]))
            return json(http::status::not_acceptable, {}, error_code::invalid_request,
                        "Not Acceptable: the server answers with application/json");
        received m = read_message(request.body(), options_.max_message_size);
        if (m.kind == message_kind::invalid && m.batch.empty())
            return json(http::status::bad_request, m.id, m.code, m.error);

        std::shared_ptr<session> state;
        const bool initialize = m.kind == message_kind::request && m.method == "initialize";
        const std::string_view id = request["Mcp-Session-Id"];
        const std::string_view version = request["MCP-Protocol-Version"];
        // Without a session: 2026-07-28, server/discover, or a version not served (answered -32022).
        const bool stateless = id.empty() && m.kind == message_kind::request && !initialize &&
                               (version == stateless_protocol_version || m.method == "server/discover" ||
                                (!version.empty() && !detail::served_version(version)));
        // The _meta version (2026-07-28) must agree with the header: without a session when a header
        // is sent (server/discover may come without one), and always in a session, whose rules the
        // header was checked against, so that a _meta of its own cannot change them.
        const std::optional<std::string> meta_version =
            m.kind == message_kind::request ? detail::read_meta(m.params).version : std::nullopt;
        if (stateless ? !version.empty() : meta_version.has_value())
            if (meta_version.value_or(std::string()) != version)
                return json(http::status::bad_request, m.id, error_code::header_mismatch,
                            header_mismatch_text(version, meta_version));
        if (stateless && meta_version == stateless_protocol_version) {
            const auto header = [&](std::string_view name) -> header_value {
                const auto it = request.find(name);
                return it == request.end() ? header_value{} : header_value{it->value()};
            };
            if (const auto problem = standard_header_problem(header("Mcp-Method"), header("Mcp-Name"), m.method, m.params))
                return json(http::status::bad_request, m.id, error_code::header_mismatch, *problem);
            if (m.kind == message_kind::request && m.method == "subscriptions/listen") return subscription(m, streams(request));
        }
        if (stateless) {
            state = std::make_shared<session>(who ? std::make_shared<const identity>(*who) : nullptr);
        } else if (initialize) {
            state = std::make_shared<session>(who ? std::make_shared<const identity>(*who) : nullptr);
        } else {
            if (id.empty())
                return json(http::status::bad_request, m.id, error_code::invalid_request,
                            "Bad Request: the Mcp-Session-Id header is missing; send initialize first");
            state = find_session(id, who);
            if (!state) return json(http::status::not_found, m.id, error_code::session_not_found, "Session not found");
            // A session answers in its negotiated version; a header naming another version that
            // sessions are held in is accepted (as the official SDKs and conformance suite do).
            if (!version.empty() && version != state->protocol_version() && !supported_protocol_version(version)) {
                std::string message = "Bad Request: unsupported MCP-Protocol-Version ";
                json::write(message, version.substr(0, 40));
                message += "; this session uses " + state->protocol_version();
                return json(http::status::bad_request, m.id, error_code::invalid_request, message);
            }
        }

        const bool answers = m.kind == message_kind::request;
        const bool batch = !m.batch.empty();
        std::string answer = server_.handle(*state, std::move(m), events, options_.max_message_size);
        if (batch && answer.starts_with("{"))
            return json_body(http::status::bad_request, std::move(answer));  // not served in this session
        if (!answers && answer.empty()) {
            http_reply reply;
            reply.response.result(http::status::accepted);
            return reply;
        }
        if (answer.empty()) {
            http_reply reply;
            reply.drop = true;
            return reply;
        }
        const bool unsupported = answer.find(R"("error":{"code":-32022,)") != std::string::npos &&
                                 answer.find(R"("result":)") == std::string::npos;
        http_reply reply = json_body(unsupported ? http::status::bad_request : http::status::ok, std::move(answer));
        if (initialize && state->initialized()) reply.response.set("Mcp-Session-Id", add_session(std::move(state), client));
        return reply;
    }

    // The -32020 message: the header and the _meta version, each cut to 40 bytes.
    static std::string header_mismatch_text(std::string_view header, const std::optional<std::string>& meta) {
        std::string out = "Bad Request: the MCP-Protocol-Version header ";
        if (header.empty()) {
            out += "is missing";
        } else {
            json::write(out, header.substr(0, 40));
            out += " differs from the request's _meta protocol version";
        }
        if (meta) {
            out += header.empty() ? " while the request's _meta names protocol version " : " ";
            json::write(out, std::string_view(*meta).substr(0, 40));
        } else {
            out += ", which names none";
        }
        return out;
    }

    static http_reply json_body(http::status status, std::string body) {
        http_reply reply;
        reply.response.result(status);
        reply.response.set(http::field::content_type, "application/json");
        reply.response.body() = std::move(body);
        return reply;
    }

    const server<Registry>& server_;
    const http_options& options_;
    bool loopback_;
    std::string metadata_url_;
    std::string metadata_;
    std::string scopes_;
    mutable std::mutex mutex_;
    session_map sessions_;
    std::uint64_t clock_ = 0;
};

} // namespace agentry::mcp::detail

#endif
