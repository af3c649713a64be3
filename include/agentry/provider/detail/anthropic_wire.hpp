// SPDX-License-Identifier: BSL-1.0
#ifndef AGENTRY_PROVIDER_DETAIL_ANTHROPIC_WIRE_HPP
#define AGENTRY_PROVIDER_DETAIL_ANTHROPIC_WIRE_HPP

// The Anthropic Messages wire format as reflected structs: member names are the JSON keys.
// Requests are written with json::write (empty optionals left out); responses, stream events
// and error bodies are read with json::read and detail::wire_read_options.

#include <agentry/schema/raw_json.hpp>

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <variant>
#include <vector>

namespace agentry::detail::anthropic_wire {

// ---- request -------------------------------------------------------------------------------

/// {"type":"ephemeral","ttl":"5m"|"1h"}: a prompt cache breakpoint.
struct cache_control_out {
    std::string_view type;
    std::string_view ttl;
};

/// A text, tool_use or tool_result block; the members of the other kinds are left empty.
struct block_out {
    std::string_view type;
    std::optional<std::string_view> text;
    std::optional<std::string_view> id;
    std::optional<std::string_view> name;
    std::optional<raw_json> input;
    std::optional<std::string_view> tool_use_id;
    /// A tool_result's content: its text, or a JSON array of content blocks.
    std::optional<std::variant<std::string_view, raw_json>> content;
    std::optional<bool> is_error;
    std::optional<cache_control_out> cache_control;
};

inline block_out text_block(std::string_view text) {
    block_out b;
    b.type = "text";
    b.text = text;
    return b;
}

/// A thinking block assembled from a stream: {"type":"thinking","thinking":...,"signature":...}.
struct thinking_block_out {
    std::string_view type;
    std::string_view thinking;
    std::string_view signature;
};

/// A block agentry writes, or a provider part sent back as it was received.
using content_out = std::variant<block_out, raw_json>;

struct message_out {
    std::string_view role;
    /// A string: the message is one text block.
    std::variant<std::string_view, std::vector<content_out>> content;
};

struct tool_choice_out {
    std::string_view type;  // auto, any, tool, none
    std::optional<std::string_view> name;
    std::optional<bool> disable_parallel_tool_use;
};

/// {"type":"enabled","budget_tokens":N} or {"type":"adaptive"}.
struct thinking_out {
    std::string_view type;
    std::optional<std::uint32_t> budget_tokens;
};

struct format_out {
    std::string_view type;  // "json_schema"
    raw_json schema;
};

/// output_config: structured outputs (JSON outputs) and effort.
struct output_config_out {
    std::optional<std::string_view> effort;
    std::optional<format_out> format;
};

struct request_body {
    std::string_view model;
    std::uint32_t max_tokens = 0;
    /// A string, or one text block with a cache breakpoint.
    std::optional<std::variant<std::string_view, std::vector<block_out>>> system;
    std::vector<message_out> messages;
    std::optional<raw_json> tools;
    std::optional<tool_choice_out> tool_choice;
    std::optional<thinking_out> thinking;
    std::optional<double> temperature;
    std::optional<output_config_out> output_config;
    std::optional<bool> stream;
};

// ---- response, stream event, error ---------------------------------------------------------

/// usage.output_tokens_details.
struct output_details_in {
    std::optional<std::uint64_t> thinking_tokens;
};

struct usage_in {
    std::optional<std::uint64_t> input_tokens;
    std::optional<std::uint64_t> cache_creation_input_tokens;
    std::optional<std::uint64_t> cache_read_input_tokens;
    std::optional<std::uint64_t> output_tokens;
    std::optional<output_details_in> output_tokens_details;
};

/// A content block: text, tool_use, thinking (with its signature), redacted_thinking (data).
struct block_in {
    std::string type;
    std::optional<std::string> text;
    std::optional<std::string> id;
    std::optional<std::string> name;
    std::optional<raw_json> input;
    std::optional<std::string> thinking;
    std::optional<std::string> signature;
};

struct message_in {
    /// Each block as received: thinking blocks are kept byte for byte.
    std::vector<raw_json> content;
    std::optional<std::string> stop_reason;
    std::optional<usage_in> usage;
};

struct error_in {
    std::optional<std::string> type;
    std::optional<std::string> message;
};

/// {"type":"error","error":{"type","message"}}, the body of every error response.
struct error_body {
    std::optional<error_in> error;
};

/// content_block_delta's delta (text_delta, input_json_delta, thinking_delta, signature_delta)
/// and message_delta's.
struct delta_in {
    std::optional<std::string> type;
    std::optional<std::string> text;
    std::optional<std::string> partial_json;
    std::optional<std::string> thinking;
    std::optional<std::string> signature;
    std::optional<std::string> stop_reason;
};

/// message_start's message: only its usage is read.
struct start_message_in {
    std::optional<usage_in> usage;
};

/// One stream event: the members of every kind this reader handles.
struct event_in {
    std::optional<std::string> type;
    std::optional<std::uint64_t> index;
    std::optional<start_message_in> message;
    /// As received: a redacted_thinking block is kept byte for byte.
    std::optional<raw_json> content_block;
    std::optional<delta_in> delta;
    std::optional<usage_in> usage;
    std::optional<error_in> error;
};

} // namespace agentry::detail::anthropic_wire

#endif
