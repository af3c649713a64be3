// SPDX-License-Identifier: BSL-1.0
#ifndef AGENTRY_MCP_ASK_HPP
#define AGENTRY_MCP_ASK_HPP

// What the requests a server sends to its client share (mcp::elicit in elicit.hpp, mcp::sample
// in sample.hpp): how long to wait for the answer, and why there is none.
//
// A tool (or a resource or prompt function) makes such a request while an mcp::server serves
// the request that runs it; the request goes to that request's client (over Streamable HTTP,
// on the SSE stream of the POST being answered) and the calling thread waits for the answer,
// at most ask_options::timeout, and no longer than the served request lives: its
// cancellation (the tool's agentry::stop_token) ends the wait.

#include <chrono>
#include <string>
#include <string_view>

namespace agentry::mcp {

/// How a request to the client is made.
struct ask_options {
    /// The longest wait for the answer. A person answers elicitation, and a client may ask its
    /// user before sampling: minutes, not seconds.
    std::chrono::milliseconds timeout = std::chrono::minutes(5);
};

/// Why a request to the client has no answer.
enum class ask_failure : unsigned char {
    outside_request,  // not called while an mcp::server serves a request
    no_capability,    // the client did not declare the capability, or its protocol version lacks the method
    no_channel,       // the transport cannot carry a request to the client here
    timeout,          // no answer within ask_options::timeout
    cancelled,        // the request being served was cancelled
    closed,           // the client can no longer answer: its input ended, or the session ended
    client_error,     // the client answered with a JSON-RPC error
    invalid_answer,   // the answer is not the method's result
    invalid_content,  // elicitation: the content the client accepted does not fit the requested type
    input_required,   // a stateless (2026-07-28) call: asked in its InputRequiredResult, the call runs again with the answer
    invalid_request,  // the request cannot be sent as given (sampling: a tool's input_schema is not a JSON object)
};

constexpr std::string_view to_string(ask_failure f) noexcept {
    switch (f) {
    case ask_failure::outside_request: return "outside_request";
    case ask_failure::no_capability: return "no_capability";
    case ask_failure::no_channel: return "no_channel";
    case ask_failure::timeout: return "timeout";
    case ask_failure::cancelled: return "cancelled";
    case ask_failure::closed: return "closed";
    case ask_failure::client_error: return "client_error";
    case ask_failure::invalid_answer: return "invalid_answer";
    case ask_failure::invalid_content: return "invalid_content";
    case ask_failure::input_required: return "input_required";
    case ask_failure::invalid_request: return "invalid_request";
    }
    return "unknown";
}

/// A request to the client that has no usable answer: why, and a message saying it, e.g.
/// "agentry: mcp::elicit: the client did not answer elicitation/create within 300000 ms".
struct ask_error {
    ask_failure kind = ask_failure::outside_request;
    std::string message;
};

} // namespace agentry::mcp

#endif
