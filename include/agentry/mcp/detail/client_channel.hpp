// SPDX-License-Identifier: BSL-1.0
#ifndef AGENTRY_MCP_DETAIL_CLIENT_CHANNEL_HPP
#define AGENTRY_MCP_DETAIL_CLIENT_CHANNEL_HPP

// What mcp::client needs of a transport: send a request and wait for its response (seeing the
// server's notifications meanwhile), send a notification, close.

#include <agentry/mcp/detail/client_json.hpp>

#include <atomic>
#include <chrono>
#include <functional>
#include <string>
#include <string_view>

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
    std::function<void(const jvalue& params)> on_progress;
};

enum class exchange_status : unsigned char { response, timeout, cancelled, failed };

struct exchange_result {
    exchange_status status = exchange_status::failed;
    jvalue response;    // the whole JSON-RPC response
    std::string error;  // for failed: what went wrong, without the "agentry: " prefix
};

/// A message the server sent that is not a response of a request of ours (a notification).
using notification_handler = std::function<void(std::string_view method, const jvalue& params)>;
/// Every message the client writes, as sent.
using send_hook = std::function<void(std::string_view message)>;

class client_channel {
public:
    virtual ~client_channel() = default;
    /// Sends `message`, a request whose id is the JSON text `id`, and waits for its response.
    virtual exchange_result exchange(const std::string& id, const std::string& message, const exchange_wait& wait) = 0;
    /// Sends a notification; an empty string when sent, else why not.
    virtual std::string notify(const std::string& message, client_clock::time_point deadline) = 0;
    /// After initialize: the negotiated version (HTTP sends it as a header).
    virtual void set_protocol_version(std::string_view) {}
    /// Ends the connection (a stdio server is stopped; an HTTP session deleted). Idempotent.
    virtual void close() noexcept = 0;
};

/// "what": the first `n` bytes of a text, for messages.
inline std::string client_excerpt(std::string_view text, std::size_t n = 120) {
    std::string out;
    for (char c : text.substr(0, n)) out += static_cast<unsigned char>(c) < 0x20 ? ' ' : c;
    if (text.size() > n) out += "...";
    return out;
}

} // namespace agentry::mcp::detail

#endif
