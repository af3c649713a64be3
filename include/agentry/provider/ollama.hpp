// SPDX-License-Identifier: BSL-1.0
#ifndef AGENTRY_PROVIDER_OLLAMA_HPP
#define AGENTRY_PROVIDER_OLLAMA_HPP

// agentry::ollama: Ollama's native chat API (POST {base_url}/api/chat), whole or streamed as
// newline-delimited JSON. Tools use the OpenAI-shaped payload.
//
//   agentry::ollama local{.model = "qwen3"};
//   agentry::chat_request request{.messages = history, .tools = tools.definitions<agentry::dialect::openai>()};
//   agentry::turn_result turn = agentry::complete(local, transport, request);
//
// Requests: a call's arguments go as a JSON object; tool results are role "tool" messages with
// tool_name (and tool_call_id), in the order of the calls they answer; `stream` is always
// written, as Ollama streams by default; max_tokens and temperature go in "options" as
// num_predict and temperature. Ollama has no tool_choice: none leaves the tools out, one sends
// only that tool's definition, required sends them all and cannot force a call. Calls without
// an id (older Ollama releases) are numbered "call_0", "call_1", ... in each turn.
// chat_request::output becomes "format" (a JSON Schema: structured outputs), sent with the tools.
// A tool result of content blocks (message::content_blocks) is a tool message with its texts
// (resource links as their JSON) joined as the content and its images (base64) in "images";
// one holding audio or a binary resource is refused (refuse()). Calls arrive whole: a streamed call's
// arguments are one stream_events::on_tool_arguments piece.
//
// The definitions are in impl/ollama.ipp, included at the end of this header unless the program
// compiles the providers separately (detail/separate.hpp).

#include <agentry/detail/chrono.hpp>
#include <agentry/provider/detail/ollama_wire.hpp>
#include <agentry/detail/separate.hpp>
#include <agentry/provider/detail/sse.hpp>
#include <agentry/provider/http_settings.hpp>
#include <agentry/provider/message.hpp>
#include <agentry/provider/provider.hpp>
#include <agentry/schema/dialect.hpp>
#include <agentry/transport/transport.hpp>

#include <atomic>
#include <cstddef>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace agentry {

namespace detail {

/// A completion being assembled from one response or from the lines of a stream.
class ollama_turn {
public:
    /// Takes one response or line, calling `events` (may be null) for its text and calls.
    void add(ollama_wire::chunk_in& r, const stream_events* events = nullptr);

    /// The last line (done: true) has arrived.
    bool done() const noexcept { return done_; }

    /// The completion, or the error of a malformed tool call.
    turn_result take(std::string_view source);

private:
    completion c_;
    std::size_t calls_ = 0;
    bool done_ = false;
};

} // namespace detail

struct ollama {
    /// The tools payload agent<> asks the registry for: Ollama takes OpenAI's shape.
    using dialect = agentry::dialect::openai;
    /// gen_ai.provider.name (OpenTelemetry).
    static constexpr std::string_view provider_name = "ollama";

    /// http.base_url when it is empty: without the API path.
    static constexpr std::string_view default_base_url = "http://127.0.0.1:11434";

    /// "qwen3", "llama3.1:8b", ...
    std::string model{};
    /// Where and how requests are sent; a header named like one of agentry's replaces it (e.g.
    /// an Authorization header for a server behind a proxy, which allow_plain_http_credentials
    /// lets go over plain http:// to a host that is not loopback).
    http_settings http{};
    /// A JSON object whose members are added to "options", e.g. R"({"num_ctx":32768})".
    std::string extra_options{};
    /// A JSON object whose members are added to every request body, e.g.
    /// R"({"keep_alive":"10m"})"; they must not repeat a member agentry writes.
    std::string extra_body{};

    /// A request a tool message cannot carry: a tool result holding audio or a binary resource
    /// (complete() returns this error and sends nothing).
    std::optional<provider_error> refuse(const chat_request& request) const;
    http_request request(const chat_request& request) const;
    turn_result parse(const http_response& response) const;
    class stream;
    stream start_stream(stream_events events) const;
};

/// Reads a streamed /api/chat body: one JSON object per line, the last with "done": true; a
/// line {"error": "..."} ends the turn with that error.
class ollama::stream {
public:
    explicit stream(stream_events events, std::size_t max_event = response_limits{}.max_event)
        : events_(std::move(events)), parser_(max_event) {}

    void feed(std::string_view bytes);

    /// A line or an event passed max_event: nothing more is read (complete() stops the transfer).
    bool overflowed() const noexcept { return parser_.overflowed(); }

    turn_result finish(const http_response& head);

private:
    bool failed() const noexcept { return error_.has_value() || malformed_.has_value() || parser_.overflowed(); }

    void on_line(std::string_view line);

    stream_events events_;
    detail::ndjson_parser parser_;
    detail::ollama_turn turn_;
    std::optional<std::string> error_;
    std::optional<std::string> malformed_;
    bool at_end_ = false;  // finish() is reading the line the stream ended in
};

} // namespace agentry

#if !defined(AGENTRY_SEPARATE_COMPILATION)
#include <agentry/provider/impl/ollama.ipp>
#endif

#endif
