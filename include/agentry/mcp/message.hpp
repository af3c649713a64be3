// SPDX-License-Identifier: BSL-1.0
#ifndef AGENTRY_MCP_MESSAGE_HPP
#define AGENTRY_MCP_MESSAGE_HPP

// JSON-RPC 2.0 messages as MCP uses them: the envelope as a reflected struct read with
// agentry's reader, its classification (request, notification, response), and the writing of
// responses.
//
//   mcp::received m = mcp::read_message(R"({"jsonrpc":"2.0","id":1,"method":"ping"})");
//   // m.kind == message_kind::request, m.id == "1", m.method == "ping"
//
// A batch (a JSON array; in MCP 2025-03-26 only) is read as an invalid message that keeps its
// text; the server serves it in a 2025-03-26 session and answers an Invalid Request otherwise. An error about a message whose id cannot be read has no `id` member, as the MCP
// schema of 2025-11-25 specifies (JSON-RPC 2.0 itself would write "id":null).

#include <agentry/json/error.hpp>
#include <agentry/json/reader.hpp>
#include <agentry/json/writer.hpp>
#include <agentry/mcp/limits.hpp>
#include <agentry/schema/raw_json.hpp>

#include <algorithm>
#include <cstddef>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace agentry::mcp {

/// The JSON-RPC error codes the server answers with.
enum class error_code : int {
    parse_error = -32700,      // not JSON
    invalid_request = -32600,  // JSON, but not a JSON-RPC 2.0 request MCP accepts
    method_not_found = -32601,
    invalid_params = -32602,   // malformed params, or an unknown tool
    internal_error = -32603,
    session_not_found = -32001,  // Streamable HTTP: an unknown or ended Mcp-Session-Id
    resource_not_found = -32002,
    header_mismatch = -32020,         // 2026-07-28: an HTTP header disagrees with the body
    unsupported_protocol_version = -32022,  // 2026-07-28: a `_meta` version not served
};

/// A JSON-RPC 2.0 message as sent. Every member is optional here; read_message decides what
/// the combination means. Values other than strings are kept as JSON text.
struct message {
    std::optional<std::string> jsonrpc;
    std::optional<raw_json> id;
    std::optional<std::string> method;
    std::optional<raw_json> params;
    std::optional<raw_json> result;
    std::optional<raw_json> error;
};

enum class message_kind : unsigned char {
    request,       // method and id: must be answered
    notification,  // method, no id: never answered
    response,      // result or error, with an id: an answer to a request of the server
    invalid,       // answered with `code` and `error`
};

/// A message read and classified.
struct received {
    message_kind kind = message_kind::invalid;
    /// The id as JSON text, a string or an integer; empty when absent or unusable.
    std::string id;
    std::string method;
    /// The params as JSON text; empty when absent.
    std::string params;
    /// For an invalid message: the error to answer with.
    error_code code = error_code::invalid_request;
    std::string error;
    /// For a JSON array (a batch): its text, served in 2025-03-26 sessions (server.hpp).
    std::string batch;
    /// For a response: its `result`, JSON text (empty for an error response).
    std::string result;
    /// For a response: its `error` object, JSON text (empty for a result).
    std::string response_error;
};

namespace detail {

/// True for the JSON text of an MCP request id: a string, or an integer (-?[0-9]+).
inline bool valid_id(std::string_view text) noexcept {
    if (text.size() >= 2 && text.front() == '"') return true;
    std::size_t i = !text.empty() && text[0] == '-' ? 1 : 0;
    if (i == text.size()) return false;
    for (; i != text.size(); ++i)
        if (text[i] < '0' || text[i] > '9') return false;
    return true;
}

inline std::string join_errors(std::string_view head, const std::vector<json::read_error>& errors) {
    std::string text(head);
    for (std::size_t i = 0; i != errors.size(); ++i) {
        text += i == 0 ? ": " : "; ";
        text += errors[i].to_string();
    }
    return text;
}

inline std::string_view first_non_space(std::string_view text) noexcept {
    const std::size_t at = text.find_first_not_of(" \t\r\n");
    return at == std::string_view::npos ? std::string_view{} : text.substr(at, 1);
}

} // namespace detail

/// Reads one message of at most `max_size` bytes. Never throws except std::bad_alloc.
inline received read_message(std::string_view text, std::size_t max_size = default_max_message_size) {
    received out;
    if (text.size() > max_size) {
        out.error = "Invalid Request: the message is " + std::to_string(text.size()) +
                    " bytes long, more than the limit of " + std::to_string(max_size);
        return out;
    }
    json::read_options options;
    options.max_size = max_size;
    options.max_depth = max_message_depth;
    options.max_errors = 8;
    auto r = json::read<message>(text, options);
    message& m = r.value;
    // The id is answered with whenever it was read, even when something else is wrong.
    if (m.id && detail::valid_id(m.id->text())) out.id = std::move(m.id->text());
    if (!r.ok()) {
        const auto syntax = std::find_if(r.errors.begin(), r.errors.end(),
                                         [](const json::read_error& e) { return e.kind == json::error_kind::syntax; });
        if (syntax != r.errors.end()) {
            out.code = error_code::parse_error;
            out.error = "Parse error: " + syntax->message;
        } else if (detail::first_non_space(text) == "[") {
            out.error = "Invalid Request: JSON-RPC batches are only served in a 2025-03-26 session; send one "
                        "message at a time";
            out.batch = std::string(text);
        } else {
            out.error = detail::join_errors("Invalid Request", r.errors);
        }
        return out;
    }
    if (!m.jsonrpc || *m.jsonrpc != "2.0") {
        out.error = "Invalid Request: \"jsonrpc\" must be \"2.0\"";
        return out;
    }
    if (m.id && out.id.empty()) {
        out.error = "Invalid Request: \"id\" must be a string or an integer";
        return out;
    }
    if (m.method) {
        if (m.result || m.error) {
            out.error = "Invalid Request: a request has no \"result\" or \"error\"";
            return out;
        }
        out.kind = m.id ? message_kind::request : message_kind::notification;
        out.method = std::move(*m.method);
        if (m.params) out.params = std::move(m.params->text());
        return out;
    }
    if (m.result || m.error) {
        // Never answered, even when malformed: answering an error with an error can loop.
        out.kind = message_kind::response;
        if (m.error) out.response_error = std::move(m.error->text());
        else out.result = std::move(m.result->text());
        return out;
    }
    out.error = "Invalid Request: a message needs a \"method\"";
    return out;
}

/// Appends {"jsonrpc":"2.0","id":ID,"result":RESULT}; `id` and `result` are JSON text.
inline void write_result(std::string& out, std::string_view id, std::string_view result) {
    out += R"({"jsonrpc":"2.0","id":)";
    out += id;
    out += R"(,"result":)";
    out += result;
    out += '}';
}

/// Appends an error response; without an id (an empty `id`) when the request's was unreadable.
/// `data`, JSON text, is sent as the error's `data` when not empty.
inline void write_error(std::string& out, std::string_view id, error_code code, std::string_view message,
                        std::string_view data = {}) {
    out += R"({"jsonrpc":"2.0",)";
    if (!id.empty()) {
        out += R"("id":)";
        out += id;
        out += ',';
    }
    out += R"("error":{"code":)";
    out += std::to_string(static_cast<int>(code));
    out += R"(,"message":)";
    json::write(out, message);
    if (!data.empty()) {
        out += R"(,"data":)";
        out += data;
    }
    out += "}}";
}

/// The error response to an invalid message.
inline std::string error_response(const received& m) {
    std::string out;
    write_error(out, m.id, m.code, m.error);
    return out;
}

} // namespace agentry::mcp

#endif
