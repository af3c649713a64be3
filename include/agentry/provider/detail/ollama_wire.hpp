// SPDX-License-Identifier: BSL-1.0
#ifndef AGENTRY_PROVIDER_DETAIL_OLLAMA_WIRE_HPP
#define AGENTRY_PROVIDER_DETAIL_OLLAMA_WIRE_HPP

// Ollama's native /api/chat wire format as reflected structs: member names are the JSON keys.
// Requests are written with json::write (empty optionals left out); responses, stream lines
// and error bodies are read with json::read and detail::wire_read_options.

#include <agentry/schema/raw_json.hpp>

#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace agentry::detail::ollama_wire {

// ---- request -------------------------------------------------------------------------------

struct function_out {
    std::size_t index = 0;
    std::string_view name;
    /// An object, not a string as in OpenAI's format.
    raw_json arguments;
};

struct tool_call_out {
    std::optional<std::string_view> id;
    function_out function;
};

struct message_out {
    std::string_view role;  // system, user, assistant, tool
    std::string_view content;
    /// base64; images a tool returned, on its tool message.
    std::optional<std::vector<std::string>> images;
    std::optional<std::vector<tool_call_out>> tool_calls;
    std::optional<std::string_view> tool_name;
    std::optional<std::string_view> tool_call_id;
};

struct options_out {
    std::optional<std::uint32_t> num_predict;
    std::optional<double> temperature;
};

struct request_body {
    std::string_view model;
    std::vector<message_out> messages;
    std::optional<raw_json> tools;
    /// A JSON Schema the answer must follow (structured outputs).
    std::optional<raw_json> format;
    /// Always written: Ollama streams when it is absent.
    bool stream = false;
    /// options_out's members and ollama::extra_options, as one object.
    std::optional<raw_json> options;
};

/// An entry of the tools payload, read for its function's name.
struct tool_in {
    struct function_name {
        std::optional<std::string> name;
    };
    std::optional<function_name> function;
};

// ---- response, stream line, error ----------------------------------------------------------

struct function_in {
    std::optional<std::string> name;
    /// An object; a string holding the object is accepted too.
    std::optional<raw_json> arguments;
};

struct tool_call_in {
    /// Sent by recent Ollama releases; older ones send none.
    std::optional<std::string> id;
    std::optional<function_in> function;
};

struct message_in {
    std::optional<std::string> content;
    std::optional<std::vector<tool_call_in>> tool_calls;
};

/// A whole response, one line of a stream, or an error body ({"error":"..."}).
struct chunk_in {
    std::optional<message_in> message;
    std::optional<bool> done;
    std::optional<std::string> done_reason;
    std::optional<std::uint64_t> prompt_eval_count;
    std::optional<std::uint64_t> eval_count;
    std::optional<std::string> error;
};

} // namespace agentry::detail::ollama_wire

#endif
