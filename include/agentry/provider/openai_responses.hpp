// SPDX-License-Identifier: BSL-1.0
#ifndef AGENTRY_PROVIDER_OPENAI_RESPONSES_HPP
#define AGENTRY_PROVIDER_OPENAI_RESPONSES_HPP

// agentry::openai_responses: the OpenAI Responses API (POST {base_url}/responses), the API
// OpenAI's reasoning models keep their reasoning across tool calls with.
//
//   agentry::openai_responses gpt{.model = "gpt-5-mini", .reasoning_effort = "low"};  // key: OPENAI_API_KEY
//   agentry::turn_result r = agentry::complete(gpt, transport, request);
//
// Requests: role::system messages become `instructions` (joined by a blank line, sent with every
// request); user messages {"role":"user","content":text}; an assistant message its items in
// order: its reasoning items (provider_part "reasoning", verbatim, where they stood), its text
// ({"role":"assistant","content":text}) and its calls ({"type":"function_call","id","call_id",
// "name","arguments"}, `id` from its "function_call_id" part); tool results
// {"type":"function_call_output","call_id","output"}, in the order of the calls, `output` the
// text, or input_text / input_image / input_file content for MCP content blocks
// (message::content_blocks; audio is refused). chat_request::tools is inserted as is (agent<>
// asks for dialect::openai_responses_strict: flat function tools); tool_choice and
// parallel_tool_calls only with tools, "auto" left out; max_tokens as max_output_tokens;
// chat_request::output as text.format {"type":"json_schema",name,schema,strict}. A client-
// executed tool search (select/tool_search.hpp): a tool_search_call output item is a call
// named "tool_search" (its item kept as provider_part "tool_search_call" and sent back as
// received), its result a {"type":"tool_search_output","call_id","execution":"client","tools"}
// item whose tools are the result's text, a JSON array of definitions ([] for an error).
//
// Reasoning state (`state`):
//   stateless          "store":false and "include":["reasoning.encrypted_content"]: each
//                      reasoning item comes back with its encrypted content and is sent back
//                      whole, so nothing is kept on OpenAI's side (zero data retention works).
//   previous_response  the response is stored (store left at its default, true) and each reply
//                      records the response's id (provider_part "response_id"); the next request
//                      sends previous_response_id and only the messages after that reply.
//
// Responses: reasoning items become provider_parts (their JSON as received: from `output`, or
// in a stream from response.output_item.done); message items' output_text is the reply's text,
// a refusal completion::refusal; function_call items the tool calls (id: call_id). status
// "incomplete" finishes max_tokens (max_output_tokens: a call whose arguments are not complete
// JSON is dropped, completion::incomplete_tool_call) or content_filter; "failed", an `error`
// or an error event is a provider_error typed as Chat Completions' errors are. A 404 "Item
// with id 'rs_...' not found" gets a hint on how to avoid it.
//
// Streams (SSE): response.output_item.added (on_tool_call), response.function_call_arguments.
// delta (on_tool_arguments, by the item's call_id), response.output_text.delta (on_text),
// response.output_item.done (the final items), response.completed / .incomplete / .failed (the
// final response), error; other events are skipped; a stream without a final response event
// returns nothing.
//
// The parts: detail/responses_wire.hpp (the wire format), detail/responses_request.hpp (the
// body, the refusals), detail/responses_response.hpp (a response object into a turn),
// impl/openai_responses.ipp (the definitions, included here unless the program is built with
// separate compilation, detail/separate.hpp).
//
// Nothing here throws except std::bad_alloc.

#include <agentry/detail/separate.hpp>
#include <agentry/provider/detail/openai_stream.hpp>
#include <agentry/provider/detail/sse.hpp>
#include <agentry/provider/http_settings.hpp>
#include <agentry/provider/message.hpp>
#include <agentry/provider/provider.hpp>
#include <agentry/schema/dialect.hpp>
#include <agentry/transport/transport.hpp>

#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace agentry {

struct openai_responses {
    /// The tools payload agent<> asks the registry for: flat function tools, `"strict":true`.
    using dialect = agentry::dialect::openai_responses_strict;
    /// gen_ai.provider.name (OpenTelemetry).
    static constexpr std::string_view provider_name = "openai";
    /// The schema of a typed answer (text.format): Structured Outputs' subset.
    using output_dialect = agentry::dialect::openai_strict;

    /// http.base_url when it is empty: with the API version; requests go to {base_url}/responses.
    static constexpr std::string_view default_base_url = "https://api.openai.com/v1";

    /// Where the model's reasoning is kept between turns (see the top of this header).
    enum class reasoning_state { stateless, previous_response };

    std::string model{};
    /// Empty: OPENAI_API_KEY, read when each request is built; neither: no Authorization header.
    std::string api_key{};
    /// Where and how requests are sent; a header named like one of agentry's replaces it.
    http_settings http{};
    reasoning_state state = reasoning_state::stateless;
    /// reasoning.effort ("minimal", "low", "medium", "high", ...); empty: not sent.
    std::string reasoning_effort{};
    /// reasoning.summary ("auto", "concise", "detailed"); empty: not sent.
    std::string reasoning_summary{};
    /// prompt_cache_key, which groups requests sharing a prompt prefix for the cache; empty: not sent.
    std::string prompt_cache_key{};
    /// A JSON object whose members are added to every request body, e.g. R"({"service_tier":"flex"})";
    /// they must not repeat a member agentry writes.
    std::string extra_body{};

    http_request request(const chat_request& request) const;
    turn_result parse(const http_response& response) const;
    class stream;
    stream start_stream(stream_events events) const;
    /// A request this provider cannot send: a tool result with content a function_call_output
    /// cannot carry, a reasoning part that is not a JSON object.
    std::optional<provider_error> refuse(const chat_request& request) const;
};

/// Reads a streamed response: feed() the body in any split, then finish().
class openai_responses::stream {
public:
    /// `keep_id`: the response's id becomes a response_id part (reasoning_state::previous_response).
    explicit stream(stream_events events, bool keep_id = false, std::size_t max_event = response_limits{}.max_event)
        : events_(std::move(events)), parser_(max_event), keep_id_(keep_id) {}

    void feed(std::string_view bytes);

    /// A line or an event passed max_event: nothing more is read (complete() stops the transfer).
    bool overflowed() const noexcept { return parser_.overflowed(); }

    turn_result finish(const http_response& head);

private:
    struct call_state {
        std::string item_id;
        std::string call_id;
        std::string name;
        bool announced = false;
        /// Pieces of its arguments were given to on_tool_arguments.
        bool pieces = false;
    };

    bool stopped() const noexcept {
        return done_ || error_.has_value() || malformed_.has_value() || parser_.overflowed();
    }
    void on_event(const detail::sse_event& e);
    /// The call of this item id (without one: of this call id), a new one if none is.
    call_state& call_for(std::string_view item_id, std::string_view call_id);
    void announce(call_state& call);

    stream_events events_;
    detail::sse_parser parser_;
    bool keep_id_ = false;
    std::vector<call_state> calls_;
    /// response.output_item.done: (output_index, the item's JSON text).
    std::vector<std::pair<std::int64_t, std::string>> items_;
    /// The response of response.completed, .incomplete or .failed.
    std::string final_;
    std::optional<detail::openai_impl::error_fields> error_;
    std::optional<std::string> malformed_;
    std::size_t event_count_ = 0;
    bool done_ = false;
};

} // namespace agentry

#if !defined(AGENTRY_SEPARATE_COMPILATION)
#include <agentry/provider/impl/openai_responses.ipp>
#endif

#endif
