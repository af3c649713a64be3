// SPDX-License-Identifier: BSL-1.0
#ifndef AGENTRY_TOOL_RESULT_HPP
#define AGENTRY_TOOL_RESULT_HPP

// The outcome of one tool call, as registry::call returns it.

#include <agentry/json/error.hpp>
#include <agentry/outcome.hpp>

#include <cstddef>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace agentry {

enum class tool_status : unsigned char {
    ok,                 // the tool ran; content is its result
    invalid_arguments,  // the arguments broke the schema; content says how, errors list it
    unknown_tool,       // no tool has that name; content lists the names
    tool_error,         // the tool threw or returned a failure; content carries the message
    denied,             // not run: the approver, or a decision given to resume, refused it; content says why
    rate_limited,       // not run: the tool's rate limit was reached; content says when to try again
};

constexpr std::string_view to_string(tool_status s) noexcept {
    switch (s) {
    case tool_status::ok: return "ok";
    case tool_status::invalid_arguments: return "invalid_arguments";
    case tool_status::unknown_tool: return "unknown_tool";
    case tool_status::tool_error: return "tool_error";
    case tool_status::denied: return "denied";
    case tool_status::rate_limited: return "rate_limited";
    }
    return "unknown";
}

struct tool_result {
    tool_status status = tool_status::ok;
    /// What the model is sent: the result (JSON, or a std::string result as it is) on
    /// success, otherwise a short explanation of what to fix.
    std::string content;
    /// The argument errors, for invalid_arguments.
    std::vector<json::read_error> errors;
    /// The repairs applied to the arguments (see agentry::json::repairs).
    std::vector<std::string> repairs;
    /// The result was cut at the size cap.
    bool truncated = false;
    /// `content` is a JSON array of MCP content blocks (a tool returning mcp::content, an
    /// image, ...: mcp/content.hpp), not a result's text.
    bool content_blocks = false;
    /// For a tool_error from a returned failure (agentry::outcome, std::expected): its kind.
    std::optional<failure_kind> failure;

    bool ok() const noexcept { return status == tool_status::ok; }
};

/// How registry::call reads arguments and writes results.
struct call_options {
    json::read_options arguments{};
    /// Cap on `content` for a result, in bytes; longer results are cut with a marker.
    std::size_t max_result_size = 64 * 1024;
};

} // namespace agentry

#endif
