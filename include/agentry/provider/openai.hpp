// SPDX-License-Identifier: BSL-1.0
#ifndef AGENTRY_PROVIDER_OPENAI_HPP
#define AGENTRY_PROVIDER_OPENAI_HPP

// agentry::openai: the OpenAI Chat Completions API (POST {base_url}/chat/completions), and
// the servers that speak it: llama.cpp's llama-server, vLLM, Ollama (/v1), LM Studio.
//
//   agentry::openai gpt{.model = "gpt-4o-mini"};  // the key from OPENAI_API_KEY
//   agentry::openai local{.model = "qwen2.5", .http = {.base_url = "http://127.0.0.1:8080/v1"},
//                         .max_tokens_as = agentry::openai::max_tokens_field::max_tokens};
//   agentry::turn_result r = agentry::complete(gpt, transport, request);
//
// Requests: role::system messages are sent as "system" messages (OpenAI maps them to
// "developer" for the models that want that; every compatible server knows "system").
// chat_request::tools is inserted as is; tool_choice and parallel_tool_calls are sent only
// with tools, and tool_choice_kind::automatic is left out (it is the default with tools).
// chat_request::max_tokens goes in max_completion_tokens (max_tokens is deprecated and
// refused by reasoning models) unless max_tokens_as says max_tokens, which older
// compatible servers need: Ollama and LM Studio document max_tokens only, and llama-server
// reads max_completion_tokens only since early 2026. agent<> sends the tools in
// openai::dialect, dialect::openai_strict. chat_request::output becomes response_format
// {"type":"json_schema","json_schema":{name, schema, strict}} (Structured Outputs), which may
// be sent with tools: the calls come first, the final answer is the JSON text.
//
// Responses and streams: unknown members are skipped and null is absent. finish_reason
// "length" drops a tool call whose arguments are not complete JSON (completion::
// incomplete_tool_call); tool calls with "stop" (as some servers send) finish as tool_calls.
// Streamed tool calls are put together by `index`, tolerating a whole call in one delta,
// arguments in the first delta, the id and name sent again, the full arguments sent again
// instead of the next piece (a delta that starts with all the text so far, unless the
// server has already sent pieces), one index reused for a new call (a different name, or a
// different id with a name), and calls without an index (a delta with an id or a name
// starts the next call; one with neither continues the last). Nothing is returned from a
// stream that did not end with [DONE]. stream_events::on_tool_arguments gets what each delta
// adds to a call's arguments once its name is known (a re-sent whole text: only its new end;
// a delta that does not extend the text so far is the next piece, as it is assembled), and
// blank arguments as "{}" at the end, so that a returned call's pieces join to its arguments.
//
// Usage: prompt_tokens and completion_tokens, and of those the cached and cache-write prompt
// tokens (prompt_tokens_details) and the reasoning tokens (completion_tokens_details). Caching:
// OpenAI's is implicit; prompt_cache_key is sent when set. A tool message takes text only: a
// tool result of content blocks (message::content_blocks) goes as its texts joined, and one
// holding an image or another block that is not text is refused (refuse()).
//
// Errors: {"error":{"message","type","code"}} (or a bare string, or older vLLM's top-level
// {"object":"error",...}) becomes a provider_error with the message, and the code when it is
// a string (e.g. "invalid_api_key", "rate_limit_exceeded"), else the type; a non-2xx is typed
// by its status, an error inside a 2xx body or stream by its documented code and type
// (detail/openai_errors.hpp).
//
// The parts, one header each, as the other providers can be laid out too:
//   detail/openai_wire.hpp       the wire format as reflected structs
//   detail/openai_request.hpp    chat_request -> request body
//   detail/openai_response.hpp   a whole response, and what the stream assembler reads with
//   detail/openai_errors.hpp     error bodies and events -> provider_error
//   detail/openai_stream.hpp     the stream assembler (openai::stream), declared
//   impl/openai.ipp              the definitions that tie them together
// This header declares agentry::openai; it includes impl/openai.ipp unless the program is built
// with separate compilation (detail/separate.hpp).
//
// Nothing here throws except std::bad_alloc.

#include <agentry/detail/chrono.hpp>
#include <agentry/provider/detail/openai_stream.hpp>
#include <agentry/detail/separate.hpp>
#include <agentry/provider/http_settings.hpp>
#include <agentry/provider/message.hpp>
#include <agentry/provider/provider.hpp>
#include <agentry/schema/dialect.hpp>
#include <agentry/transport/transport.hpp>

#include <atomic>
#include <optional>
#include <string>
#include <utility>
#include <vector>

namespace agentry {

struct openai {
    /// The tools payload agent<> asks the registry for. Strict mode suits OpenAI and is
    /// accepted by the compatible servers; a type deriving from openai can name another.
    using dialect = agentry::dialect::openai_strict;
    /// gen_ai.provider.name (OpenTelemetry).
    static constexpr std::string_view provider_name = "openai";
    /// The assembler of a streamed Chat Completion: feed() the body in any split, then finish().
    using stream = detail::openai_stream;

    /// http.base_url when it is empty: with the API version, as the official SDKs take it
    /// (a local server's: "http://127.0.0.1:8080/v1").
    static constexpr std::string_view default_base_url = "https://api.openai.com/v1";

    std::string model{};
    /// Empty: OPENAI_API_KEY, read when each request is built; neither: no Authorization
    /// header (local servers need none).
    std::string api_key{};
    /// Where and how requests are sent; a header named like one of agentry's (Authorization,
    /// Content-Type, Accept) replaces it.
    http_settings http{};

    /// The request member chat_request::max_tokens is sent as.
    enum class max_tokens_field { max_completion_tokens, max_tokens };
    max_tokens_field max_tokens_as = max_tokens_field::max_completion_tokens;

    /// Sent as "prompt_cache_key" when not empty: OpenAI routes requests with the same key and
    /// prompt prefix together, for more cache hits (e.g. one key per conversation or user).
    std::string prompt_cache_key{};

    /// A request Chat Completions cannot carry: a tool result holding an image or another block
    /// that is not text (complete() returns this error and sends nothing).
    std::optional<provider_error> refuse(const chat_request& request) const;
    http_request request(const chat_request& request) const;
    turn_result parse(const http_response& response) const;
    stream start_stream(stream_events events) const;
};

} // namespace agentry

#if !defined(AGENTRY_SEPARATE_COMPILATION)
#include <agentry/provider/impl/openai.ipp>
#endif

#endif
