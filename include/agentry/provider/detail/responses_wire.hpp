// SPDX-License-Identifier: BSL-1.0
#ifndef AGENTRY_PROVIDER_DETAIL_RESPONSES_WIRE_HPP
#define AGENTRY_PROVIDER_DETAIL_RESPONSES_WIRE_HPP

// The OpenAI Responses API wire format (POST /responses) as reflected structs: member names
// are the JSON keys. Requests are written with json::write (empty optionals left out);
// responses, output items, stream events and MCP content blocks are read with json::read and
// detail::wire_read_options (members not declared here skipped, null as absent).

#include <agentry/provider/detail/openai_wire.hpp>
#include <agentry/schema/raw_json.hpp>

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <variant>
#include <vector>

namespace agentry::detail::responses_wire {

// ---- request -------------------------------------------------------------------------------

/// {"role":"user"|"assistant","content":text}: an input message in its short form.
struct message_out {
    std::string_view role;
    std::string_view content;
};

/// A call the model made, sent back: `id` (the item's "fc_..." id) only when known.
struct function_call_out {
    std::string_view type;  // "function_call"
    std::optional<std::string> id;
    std::string_view call_id;
    std::string_view name;
    std::string_view arguments;
};

/// One part of a function_call_output given as content: input_text, input_image or input_file.
struct content_out {
    std::string_view type;
    std::optional<std::string> text;
    std::optional<std::string> image_url;
    std::optional<std::string> filename;
    std::optional<std::string> file_data;
};

struct function_call_output_out {
    std::string_view type;  // "function_call_output"
    std::string_view call_id;
    std::variant<std::string_view, std::vector<content_out>> output;
};

/// The answer to a client-executed tool_search_call: the definitions of the tools found.
struct tool_search_output_out {
    std::string_view type;  // "tool_search_output"
    std::string_view call_id;
    std::string_view execution;  // "client"
    raw_json tools;
};

/// An input item: a message, a call, a call's output, a tool search's output, or an output
/// item sent back as received (a reasoning item, a tool_search_call).
using item_out =
    std::variant<message_out, function_call_out, function_call_output_out, tool_search_output_out, raw_json>;

struct named_function {
    std::string_view type;  // "function"
    std::string_view name;
};

struct format_out {
    std::string_view type;  // "json_schema"
    std::string_view name;
    raw_json schema;
    std::optional<bool> strict;
};

struct text_out {
    format_out format;
};

struct reasoning_out {
    std::optional<std::string_view> effort;
    std::optional<std::string_view> summary;
};

struct request_body {
    std::string_view model;
    std::optional<std::string> instructions;
    std::vector<item_out> input;
    std::optional<raw_json> tools;
    /// "none", "required", or one named function; left out for "auto" (the default with tools).
    std::optional<std::variant<std::string_view, named_function>> tool_choice;
    std::optional<bool> parallel_tool_calls;
    std::optional<std::uint32_t> max_output_tokens;
    std::optional<double> temperature;
    std::optional<text_out> text;
    std::optional<reasoning_out> reasoning;
    std::optional<std::vector<std::string_view>> include;
    std::optional<bool> store;
    std::optional<std::string_view> previous_response_id;
    std::optional<std::string_view> prompt_cache_key;
    std::optional<bool> stream;
};

// ---- response, output item, stream event ---------------------------------------------------

/// A part of a message item's content: output_text or refusal.
struct content_in {
    std::optional<std::string> type;
    std::optional<std::string> text;
    std::optional<std::string> refusal;
};

/// An output item: message, function_call, tool_search_call, reasoning, or another kind
/// (skipped).
struct item_in {
    std::optional<std::string> type;
    /// tool_search_call: "client" or "server" (run by OpenAI, skipped).
    std::optional<std::string> execution;
    std::optional<std::string> id;
    std::optional<std::string> call_id;
    std::optional<std::string> name;
    /// A JSON string; a server may send an object.
    std::optional<raw_json> arguments;
    std::optional<std::vector<content_in>> content;
};

/// {"message","type","code"}, as in Chat Completions.
using error_in = openai_wire::error_object;

struct incomplete_details_in {
    std::optional<std::string> reason;
};

// The token details have Chat Completions' members under other names.
using input_details_in = openai_wire::prompt_tokens_details_in;
using output_details_in = openai_wire::completion_tokens_details_in;

struct usage_in {
    std::optional<std::uint64_t> input_tokens;
    std::optional<std::uint64_t> output_tokens;
    std::optional<input_details_in> input_tokens_details;
    std::optional<output_details_in> output_tokens_details;
};

/// A response object; `output` keeps each item's text as received.
struct response_in {
    std::optional<std::string> id;
    std::optional<std::string> status;
    std::optional<std::vector<raw_json>> output;
    std::optional<incomplete_details_in> incomplete_details;
    std::optional<error_in> error;
    std::optional<usage_in> usage;
};

/// The `type` of a stream event, read before the rest.
struct event_type_in {
    std::optional<std::string> type;
};

/// A stream event of one of the kinds read (the others are skipped unread). An `error` event
/// has its message and code at the top level, or (as some servers send) in `error`.
struct event_in {
    std::optional<std::string> type;
    std::optional<std::int64_t> output_index;
    std::optional<raw_json> item;
    std::optional<std::string> item_id;
    std::optional<std::string> delta;
    std::optional<std::string> arguments;
    std::optional<raw_json> response;
    std::optional<std::string> message;
    std::optional<raw_json> code;
    std::optional<error_in> error;
};

} // namespace agentry::detail::responses_wire

#endif
