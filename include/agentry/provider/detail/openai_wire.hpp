// SPDX-License-Identifier: BSL-1.0
#ifndef AGENTRY_PROVIDER_DETAIL_OPENAI_WIRE_HPP
#define AGENTRY_PROVIDER_DETAIL_OPENAI_WIRE_HPP

// The Chat Completions wire format as reflected structs: member names are the JSON keys.
// Requests are written with json::write (empty optionals left out); responses, stream chunks
// and error bodies are read with json::read and detail::wire_read_options (members not
// declared here skipped, null as absent).

#include <agentry/schema/raw_json.hpp>

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <variant>
#include <vector>

namespace agentry::detail::openai_wire {

// ---- request -------------------------------------------------------------------------------

struct function_out {
    std::string_view name;
    std::string_view arguments;
};

struct tool_call_out {
    std::string_view id;
    std::string_view type;  // "function"
    function_out function;
};

struct message_out {
    std::string_view role;
    /// std::monostate: null (an assistant turn with tool calls and no text).
    std::variant<std::monostate, std::string_view> content;
    std::optional<std::vector<tool_call_out>> tool_calls;
    std::optional<std::string_view> tool_call_id;
};

struct named_function {
    std::string_view name;
};

struct named_tool_choice {
    std::string_view type;  // "function"
    named_function function;
};

struct stream_options_out {
    bool include_usage = true;
};

struct json_schema_out {
    std::string_view name;
    raw_json schema;
    std::optional<bool> strict;
};

/// {"type":"json_schema","json_schema":{...}}: Structured Outputs.
struct response_format_out {
    std::string_view type;  // "json_schema"
    json_schema_out json_schema;
};

struct request_body {
    std::string_view model;
    std::vector<message_out> messages;
    std::optional<raw_json> tools;
    /// "none", "required", or one named function; left out for "auto" (the default with tools).
    std::optional<std::variant<std::string_view, named_tool_choice>> tool_choice;
    std::optional<bool> parallel_tool_calls;
    std::optional<std::uint32_t> max_completion_tokens;
    std::optional<std::uint32_t> max_tokens;
    std::optional<double> temperature;
    std::optional<response_format_out> response_format;
    /// openai::prompt_cache_key: requests sharing it share a prompt cache.
    std::optional<std::string_view> prompt_cache_key;
    std::optional<bool> stream;
    std::optional<stream_options_out> stream_options;
};

// ---- response, stream chunk, error ---------------------------------------------------------

struct error_object {
    std::optional<std::string> message;
    /// A string, or (llama.cpp, vLLM) a number.
    std::optional<raw_json> type;
    std::optional<raw_json> code;
};

struct function_in {
    std::optional<std::string> name;
    /// A JSON string; some servers send the arguments as an object.
    std::optional<raw_json> arguments;
};

struct tool_call_in {
    std::optional<std::int64_t> index;
    std::optional<std::string> id;
    std::optional<function_in> function;
};

/// choices[i].message of a response, choices[i].delta of a stream chunk.
struct message_in {
    std::optional<std::string> content;
    std::optional<std::string> refusal;
    std::optional<std::vector<tool_call_in>> tool_calls;
    /// Deprecated single function call.
    std::optional<function_in> function_call;
};

struct choice_in {
    std::optional<std::int64_t> index;
    std::optional<message_in> message;
    std::optional<message_in> delta;
    std::optional<std::string> finish_reason;
};

struct prompt_tokens_details_in {
    std::optional<std::uint64_t> cached_tokens;
    std::optional<std::uint64_t> cache_write_tokens;
};

struct completion_tokens_details_in {
    std::optional<std::uint64_t> reasoning_tokens;
};

struct usage_in {
    std::optional<std::uint64_t> prompt_tokens;
    std::optional<std::uint64_t> completion_tokens;
    std::optional<prompt_tokens_details_in> prompt_tokens_details;
    std::optional<completion_tokens_details_in> completion_tokens_details;
};

/// A chat.completion, a chat.completion.chunk or an error body. `error` is OpenAI's error
/// object (or a bare message); object/message/type/code are the top-level error of older
/// vLLM releases ({"object":"error","message":...}).
struct body_in {
    std::optional<std::vector<choice_in>> choices;
    std::optional<usage_in> usage;
    std::optional<std::variant<error_object, std::string>> error;
    std::optional<std::string> object;
    std::optional<std::string> message;
    std::optional<raw_json> type;
    std::optional<raw_json> code;
};

} // namespace agentry::detail::openai_wire

#endif
