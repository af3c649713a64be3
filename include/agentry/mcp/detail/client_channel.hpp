// SPDX-License-Identifier: BSL-1.0
#ifndef AGENTRY_MCP_DETAIL_CLIENT_CHANNEL_HPP
#define AGENTRY_MCP_DETAIL_CLIENT_CHANNEL_HPP

// What mcp::client needs of a transport: send a request and wait for its response (seeing the
// server's notifications meanwhile, answering its requests), send a notification, close. Every message of the server
// is read as a json::value, by the rules and limits of the typed reader.

#include <agentry/detail/chrono.hpp>
#include <agentry/detail/text.hpp>
#include <agentry/json/value.hpp>
#include <agentry/mcp/limits.hpp>

#include <atomic>
#include <cstddef>
#include <functional>
#include <optional>
#include <string>
#include <string_view>
#include <utility>

namespace agentry::mcp::detail {

using client_clock = std::chrono::steady_clock;

/// How one request waits.
struct exchange_wait {
    client_clock::time_point deadline = client_clock::time_point::max();
    /// Polled while waiting; true abandons the request. May be null.
    const std::atomic<bool>* cancel = nullptr;
    /// The request's progress token as JSON text (empty: none) and what its progress
    /// notifications are given to.
    std::string progress_token;
    std::function<void(const json::value& params)> on_progress;
};

enum class exchange_status : unsigned char { response, timeout, cancelled, failed };

struct exchange_result {
    exchange_status status = exchange_status::failed;
    json::value response;  // the whole JSON-RPC response
    std::string error;  // for failed: what went wrong, without the "agentry: " prefix
};

/// A message the server sent that is not a response of a request of ours (a notification).
using notification_handler = std::function<void(std::string_view method, const json::value& params)>;
/// A request of the server (a message with a method and an id): the response to send, as text.
using request_handler = std::function<std::string(const json::value& request)>;
/// Every message the client writes, as sent.
using send_hook = std::function<void(std::string_view message)>;

/// What an https:// connection trusts: the system's CAs plus `ca_file` and `ca_pem`, or, with
/// `verify` false, any certificate for any name.
struct tls_settings {
    std::string ca_file;
    std::string ca_pem;
    bool verify = true;
};

/// The answer to one HTTP request outside the MCP session (metadata, registration, tokens).
struct fetched {
    int status = 0;  // 0 when no answer came (see error)
    std::string reason;
    std::string content_type;  // lower case
    std::string location;
    std::string www_authenticate;
    std::string body;
    std::string error;  // why the request or its answer failed, "" when it did not
};

/// What the HTTP transport asks of an authorization (oauth_flow.hpp): the Authorization value
/// to send, and a new one after a 401 or 403 Bearer challenge.
class http_authorizer {
public:
    virtual ~http_authorizer() = default;
    /// The Authorization header value ("" for none) and its generation (new value, new number).
    virtual std::pair<std::string, unsigned> credential() = 0;
    /// The server refused a request sent with credential `generation` with `status` and this
    /// WWW-Authenticate value: true when a new credential is ready (send again), else false
    /// with `why`.
    virtual bool challenge(int status, std::string_view www_authenticate, unsigned generation, std::string& why) = 0;
    /// How many challenges one request may answer before it fails.
    virtual int max_attempts() const noexcept = 0;
};

class client_channel {
public:
    virtual ~client_channel() = default;
    /// Sends `message`, a request whose id is the JSON text `id`, and waits for its response.
    virtual exchange_result exchange(const std::string& id, const std::string& message, const exchange_wait& wait) = 0;
    /// Sends a notification; an empty string when sent, else why not.
    virtual std::string notify(const std::string& message, client_clock::time_point deadline) = 0;
    /// After initialize: the negotiated version (HTTP sends it as a header).
    virtual void set_protocol_version(std::string_view) {}
    /// The session's id (HTTP's Mcp-Session-Id); empty without one.
    virtual std::string session() { return {}; }
    /// Ends the connection (a stdio server is stopped; an HTTP session deleted). Idempotent.
    virtual void close() noexcept = 0;
};

/// "what": the first `n` bytes of a text, for messages: a control character as a space, a byte
/// that is not UTF-8 as \xNN (the result is valid UTF-8).
inline std::string client_excerpt(std::string_view text, std::size_t n = 120) {
    constexpr char hex[] = "0123456789ABCDEF";
    std::string out;
    const std::string_view head = text.substr(0, n);
    for (std::size_t i = 0; i < head.size();) {
        const auto b = static_cast<unsigned char>(head[i]);
        const std::size_t length = agentry::detail::utf8_char_length(head.substr(i));
        if (length == 0) {
            out += "\\x";
            out += hex[b >> 4];
            out += hex[b & 0xF];
            ++i;
        } else {
            if (b < 0x20) out += ' ';
            else out.append(head, i, length);
            i += length;
        }
    }
    if (text.size() > n) out += "...";
    return out;
}

/// A message of the server read by the typed reader's rules: at most `max_size` bytes and
/// max_message_depth levels, strict UTF-8, no key twice in an object. The message, an object
/// whose "jsonrpc" is "2.0"; else nothing, with `why` saying what is wrong ("/result/a:
/// duplicate property", "invalid JSON at byte 7: invalid UTF-8", "not a JSON-RPC 2.0 object").
inline std::optional<json::value> read_server_message(std::string_view text, std::size_t max_size, std::string& why) {
    json::read_options options;
    options.max_size = max_size;
    options.max_depth = max_message_depth;
    options.max_errors = 4;
    json::parsed m = json::parse(text, options);
    if (!m.ok()) {
        why.clear();
        for (const json::read_error& e : m.errors) why += (why.empty() ? "" : "; ") + e.to_string();
        return std::nullopt;
    }
    const json::value* version = m.value.find("jsonrpc");
    if (!m.value.is_object() || !version || version->as_string() != "2.0") {
        why = "not a JSON-RPC 2.0 object";
        return std::nullopt;
    }
    return std::move(m.value);
}

/// The string member `key` of an object, or `fallback`.
inline std::string_view string_at(const json::value& v, std::string_view key, std::string_view fallback = {}) noexcept {
    const json::value* m = v.find(key);
    return m && m->is_string() ? std::string_view(m->as_string()) : fallback;
}

/// Appends `s` as a JSON string.
inline void write_string(std::string& out, std::string_view s) { json::write(out, json::value(s)); }

} // namespace agentry::mcp::detail

#endif
