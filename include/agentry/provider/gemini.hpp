// SPDX-License-Identifier: BSL-1.0
#ifndef AGENTRY_PROVIDER_GEMINI_HPP
#define AGENTRY_PROVIDER_GEMINI_HPP

// agentry::gemini: the Gemini API's generateContent and streamGenerateContent (alt=sse).
//
//   agentry::gemini model{.model = "gemini-2.5-flash"};   // key from GOOGLE_API_KEY or GEMINI_API_KEY
//   agentry::chat_request request{.messages = history, .tools = tools.definitions<agentry::dialect::gemini>()};
//   agentry::turn_result turn = agentry::complete(model, transport, request);
//
// Requests: role::system messages become systemInstruction; assistant turns are role "model";
// consecutive user and tool messages become one "user" content, its functionResponse parts
// first and in the order of the calls they answer, each {"output": result} or, for an error,
// {"error": result} (a result that is JSON goes in as that value, other text as a string).
// Calls come without ids: agentry numbers them "call_0", "call_1", ... in each turn and never
// sends those back; an id Gemini does send is kept and sent back. A part's thoughtSignature is
// kept in tool_call::signature and returned with its call. Output token counts include
// thinking tokens, which are also reasoning_tokens; cachedContentTokenCount (implicit caching)
// is cached_input_tokens. chat_request::output becomes generationConfig.responseMimeType
// "application/json" with responseSchema, the OpenAPI 3.0 subset dialect::gemini writes; Gemini 3
// models take it together with function declarations, earlier models refuse the two together
// (HTTP 400).
//
// A tool result of content blocks (message::content_blocks) is one functionResponse: its texts
// (resource links as their JSON) joined in the response object, its images as the response's
// parts (inlineData: multimodal function responses, Gemini 3); one holding audio or a binary
// resource is refused (refuse()). Calls arrive whole: a streamed call's arguments are one
// stream_events::on_tool_arguments piece.
//
// The definitions are in impl/gemini.ipp, included at the end of this header unless the program
// compiles the providers separately (detail/separate.hpp).

#include <agentry/detail/chrono.hpp>
#include <agentry/provider/detail/gemini_wire.hpp>
#include <agentry/detail/separate.hpp>
#include <agentry/provider/detail/sse.hpp>
#include <agentry/provider/http_settings.hpp>
#include <agentry/provider/message.hpp>
#include <agentry/provider/provider.hpp>
#include <agentry/schema/dialect.hpp>
#include <agentry/transport/transport.hpp>

#include <atomic>
#include <charconv>
#include <cstddef>
#include <cstdint>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace agentry {

namespace detail {

/// A completion being assembled from one response or from the chunks of a stream.
class gemini_turn {
public:
    /// Takes one response or chunk, calling `events` (may be null) for its text and calls.
    void add(gemini_wire::response_in& r, const stream_events* events = nullptr);

    /// A finishReason or a prompt block has arrived.
    bool done() const noexcept { return done_; }
    /// A candidate or a prompt block has arrived.
    bool any() const noexcept { return candidate_ || done_; }

    /// The completion, or the error of a malformed tool call.
    turn_result take(std::string_view source);

private:
    completion c_;
    std::size_t calls_ = 0;
    bool candidate_ = false;
    bool done_ = false;
};

} // namespace detail

struct gemini {
    /// The tools payload agent<> asks the registry for.
    using dialect = agentry::dialect::gemini;
    /// gen_ai.provider.name (OpenTelemetry).
    static constexpr std::string_view provider_name = "gcp.gemini";

    /// http.base_url when it is empty: with the API version, as in the REST reference.
    static constexpr std::string_view default_base_url = "https://generativelanguage.googleapis.com/v1beta";

    /// "gemini-2.5-flash", or a resource name with its collection ("tunedModels/x").
    std::string model{};
    /// Empty: the GOOGLE_API_KEY environment variable, else GEMINI_API_KEY (the order of the
    /// google-genai SDKs), read by each request().
    std::string api_key{};
    /// Where and how requests are sent; a header named like one of agentry's replaces it.
    http_settings http{};
    /// A JSON object whose members are added to every request body, e.g.
    /// R"({"safetySettings":[...]})"; they must not repeat a member agentry writes.
    std::string extra_body{};

    /// A request a function response cannot carry: a tool result holding audio or a binary
    /// resource (complete() returns this error and sends nothing).
    std::optional<provider_error> refuse(const chat_request& request) const;
    http_request request(const chat_request& request) const;
    turn_result parse(const http_response& response) const;
    class stream;
    stream start_stream(stream_events events) const;
};

/// Reads a streamGenerateContent?alt=sse body: each event a GenerateContentResponse with the
/// next parts; the turn is complete once a finishReason (or a prompt block) has arrived.
class gemini::stream {
public:
    explicit stream(stream_events events, std::size_t max_event = response_limits{}.max_event)
        : events_(std::move(events)), parser_(max_event) {}

    void feed(std::string_view bytes);

    /// A line or an event passed max_event: nothing more is read (complete() stops the transfer).
    bool overflowed() const noexcept { return parser_.overflowed(); }

    turn_result finish(const http_response& head);

private:
    bool failed() const noexcept { return error_.has_value() || malformed_.has_value() || parser_.overflowed(); }

    void on_event(const detail::sse_event& e);

    stream_events events_;
    detail::sse_parser parser_;
    detail::gemini_turn turn_;
    std::optional<detail::gemini_wire::error_in> error_;
    std::optional<std::string> malformed_;
    bool at_end_ = false;  // finish() is reading an event the stream ended in
};

} // namespace agentry

#if !defined(AGENTRY_SEPARATE_COMPILATION)
#include <agentry/provider/impl/gemini.ipp>
#endif

#endif
