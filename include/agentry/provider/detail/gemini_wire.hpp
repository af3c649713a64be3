// SPDX-License-Identifier: BSL-1.0
#ifndef AGENTRY_PROVIDER_DETAIL_GEMINI_WIRE_HPP
#define AGENTRY_PROVIDER_DETAIL_GEMINI_WIRE_HPP

// The Gemini generateContent wire format as reflected structs: member names are the JSON keys
// (camelCase, as Gemini's REST API spells them). Requests are written with json::write (empty
// optionals left out); responses, stream chunks and error bodies are read with json::read and
// detail::wire_read_options.

#include <agentry/schema/raw_json.hpp>

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace agentry::detail::gemini_wire {

// ---- request -------------------------------------------------------------------------------

struct function_call_out {
    std::string_view name;
    raw_json args;
    /// Only a call id Gemini itself sent.
    std::optional<std::string_view> id;
};

struct inline_data_out {
    std::string mimeType;
    /// base64
    std::string data;
};

/// Media of a function response (Gemini 3 models): an image a tool returned.
struct function_response_part_out {
    inline_data_out inlineData;
};

struct function_response_out {
    std::string_view name;
    /// {"output": value} or {"error": value}.
    raw_json response;
    std::optional<std::string_view> id;
    std::optional<std::vector<function_response_part_out>> parts;
};

struct part_out {
    std::optional<std::string_view> text;
    std::optional<function_call_out> functionCall;
    std::optional<function_response_out> functionResponse;
    std::optional<std::string_view> thoughtSignature;
};

inline part_out text_part(std::string_view text) {
    part_out p;
    p.text = text;
    return p;
}

struct content_out {
    std::string_view role;  // user, model
    std::vector<part_out> parts;
};

struct system_instruction_out {
    std::vector<part_out> parts;
};

struct function_calling_config_out {
    std::string_view mode;  // AUTO, ANY, NONE
    std::optional<std::vector<std::string_view>> allowedFunctionNames;
};

struct tool_config_out {
    function_calling_config_out functionCallingConfig;
};

struct generation_config_out {
    std::optional<std::uint32_t> maxOutputTokens;
    std::optional<double> temperature;
    /// "application/json" with responseSchema (an OpenAPI 3.0 Schema object): structured output.
    std::optional<std::string_view> responseMimeType;
    std::optional<raw_json> responseSchema;
};

struct request_body {
    std::vector<content_out> contents;
    std::optional<system_instruction_out> systemInstruction;
    std::optional<raw_json> tools;
    std::optional<tool_config_out> toolConfig;
    std::optional<generation_config_out> generationConfig;
};

// ---- response, stream chunk, error ---------------------------------------------------------

struct function_call_in {
    std::optional<std::string> id;
    std::optional<std::string> name;
    std::optional<raw_json> args;
};

struct part_in {
    std::optional<std::string> text;
    /// A thought summary, not part of the answer.
    std::optional<bool> thought;
    std::optional<function_call_in> functionCall;
    std::optional<std::string> thoughtSignature;
};

struct content_in {
    std::optional<std::vector<part_in>> parts;
};

struct candidate_in {
    std::optional<content_in> content;
    std::optional<std::string> finishReason;
};

struct prompt_feedback_in {
    std::optional<std::string> blockReason;
};

struct usage_in {
    /// The whole prompt, cached content included.
    std::optional<std::uint64_t> promptTokenCount;
    std::optional<std::uint64_t> candidatesTokenCount;
    std::optional<std::uint64_t> thoughtsTokenCount;
    /// The part of the prompt read from the cache.
    std::optional<std::uint64_t> cachedContentTokenCount;
};

/// An entry of error.details: ErrorInfo (reason) or RetryInfo (retryDelay, e.g. "30s").
struct error_detail_in {
    std::optional<std::string> reason;
    std::optional<std::string> retryDelay;
};

struct error_in {
    std::optional<std::int64_t> code;
    std::optional<std::string> message;
    std::optional<std::string> status;
    std::optional<std::vector<error_detail_in>> details;
};

/// A GenerateContentResponse (whole, or one stream chunk), or an error body.
struct response_in {
    std::optional<std::vector<candidate_in>> candidates;
    std::optional<prompt_feedback_in> promptFeedback;
    std::optional<usage_in> usageMetadata;
    std::optional<error_in> error;
};

} // namespace agentry::detail::gemini_wire

#endif
