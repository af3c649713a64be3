// SPDX-License-Identifier: BSL-1.0
#ifndef AGENTRY_MCP_LOGGING_HPP
#define AGENTRY_MCP_LOGGING_HPP

// Logging to the MCP client (notifications/message). A tool, resource or prompt function logs
// with agentry::mcp::log while the server runs it:
//
//   std::string sync_files(std::string folder) {
//       agentry::mcp::log(agentry::mcp::log_level::info, "syncing " + folder);
//       ...
//   }
//
// The message goes to the client of the request being served (over Streamable HTTP, on the
// request's SSE stream), when the client asked for that level or a more severe one: with
// logging/setLevel for the session (2024-11-05 to 2025-11-25), or per request in `_meta`
// (2026-07-28). Until a client asks, nothing is sent. Outside a request served by an
// mcp::server (registry.call, the agent loop, another thread), log does nothing.

#include <agentry/json/writer.hpp>

#include <array>
#include <functional>
#include <optional>
#include <string>
#include <string_view>

namespace agentry::mcp {

/// The syslog severities of MCP, least severe first.
enum class log_level : unsigned char { debug, info, notice, warning, error, critical, alert, emergency };

inline constexpr std::array<std::string_view, 8> log_level_names{"debug",    "info",  "notice", "warning",
                                                                 "error",    "critical", "alert", "emergency"};

constexpr std::string_view to_string(log_level level) noexcept {
    return log_level_names[static_cast<unsigned char>(level)];
}

/// The level named `name` on the wire; nothing for another name.
constexpr std::optional<log_level> parse_log_level(std::string_view name) noexcept {
    for (std::size_t i = 0; i != log_level_names.size(); ++i)
        if (log_level_names[i] == name) return static_cast<log_level>(i);
    return std::nullopt;
}

/// Where a transport sends the messages the server writes while it answers a request
/// (notifications), one JSON-RPC message per call.
using message_sink = std::function<void(std::string_view)>;

namespace detail {

// The request a thread is answering, for log() and progress: set by server::handle.
struct request_scope {
    const message_sink* out = nullptr;
    /// The least severe level the client wants; nothing: no log messages.
    std::optional<log_level> level;
};

inline thread_local const request_scope* current_request_ = nullptr;

class request_scope_guard {
public:
    explicit request_scope_guard(const request_scope* scope) noexcept : previous_(current_request_) {
        current_request_ = scope;
    }
    ~request_scope_guard() { current_request_ = previous_; }
    request_scope_guard(const request_scope_guard&) = delete;
    request_scope_guard& operator=(const request_scope_guard&) = delete;

private:
    const request_scope* previous_;
};

/// {"jsonrpc":"2.0","method":"notifications/message","params":{"level":...,"logger":...,"data":...}}
template <class T>
std::string log_notification(log_level level, const T& data, std::string_view logger) {
    std::string out = R"({"jsonrpc":"2.0","method":"notifications/message","params":{"level":")";
    out += to_string(level);
    out += '"';
    if (!logger.empty()) {
        out += ",\"logger\":";
        json::write(out, logger);
    }
    out += ",\"data\":";
    json::write(out, data);
    out += "}}";
    return out;
}

} // namespace detail

/// True when a message at `level` would reach a client now (so that a tool can skip preparing
/// one otherwise).
inline bool log_enabled(log_level level) noexcept {
    const detail::request_scope* r = detail::current_request_;
    return r && r->out && *r->out && r->level && level >= *r->level;
}

/// Sends `data` (a string, or any value agentry writes as JSON) at `level` to the client of the
/// request being served, from `logger` when not empty. Does nothing when the client did not
/// ask for `level`, or outside a request. Never throws.
template <class T>
void log(log_level level, const T& data, std::string_view logger = {}) noexcept {
    if (!log_enabled(level)) return;
    try {
        (*detail::current_request_->out)(detail::log_notification(level, data, logger));
    } catch (...) {
    }
}

inline void log(log_level level, std::string_view text, std::string_view logger = {}) noexcept {
    log<std::string_view>(level, text, logger);
}

} // namespace agentry::mcp

#endif
