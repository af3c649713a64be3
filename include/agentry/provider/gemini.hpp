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
// thinking tokens. chat_request::output becomes generationConfig.responseMimeType
// "application/json" with responseSchema, the OpenAPI 3.0 subset dialect::gemini writes; Gemini 3
// models take it together with function declarations, earlier models refuse the two together
// (HTTP 400).

#include <agentry/json/reader.hpp>
#include <agentry/json/writer.hpp>
#include <agentry/provider/detail/gemini_wire.hpp>
#include <agentry/provider/detail/sse.hpp>
#include <agentry/provider/detail/tool_calls.hpp>
#include <agentry/provider/detail/turns.hpp>
#include <agentry/provider/detail/wire_common.hpp>
#include <agentry/provider/message.hpp>
#include <agentry/provider/provider.hpp>
#include <agentry/schema/dialect.hpp>
#include <agentry/transport/transport.hpp>

#include <atomic>
#include <charconv>
#include <chrono>
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

inline finish_reason gemini_finish(std::string_view reason) noexcept {
    if (reason == "STOP") return finish_reason::stop;
    if (reason == "MAX_TOKENS") return finish_reason::max_tokens;
    if (reason == "SAFETY" || reason == "RECITATION" || reason == "BLOCKLIST" || reason == "PROHIBITED_CONTENT" ||
        reason == "SPII" || reason == "IMAGE_SAFETY")
        return finish_reason::content_filter;
    return finish_reason::other;  // MALFORMED_FUNCTION_CALL, LANGUAGE, OTHER, and reasons added later
}

/// Whether `id` is one agentry assigned ("call_<n>"), which Gemini must not see.
inline bool gemini_assigned_id(std::string_view id) noexcept {
    if (id.size() <= 5 || id.substr(0, 5) != "call_") return false;
    for (char c : id.substr(5))
        if (c < '0' || c > '9') return false;
    return true;
}

/// RetryInfo.retryDelay, a protobuf Duration in JSON ("30s", "1.5s"): empty when unreadable,
/// negative or NaN; past max_server_delay (infinity included) it saturates.
inline std::optional<std::chrono::milliseconds> gemini_retry_delay(std::string_view delay) noexcept {
    if (delay.size() < 2 || delay.back() != 's') return std::nullopt;
    delay.remove_suffix(1);
    const auto number = read_server_number(delay);
    if (!number || number->second != delay.size()) return std::nullopt;
    return delay_from_seconds(number->first);
}

/// Gemini's error of a non-2xx response, or of an error object inside a 2xx stream (`error`).
inline provider_error gemini_error(const http_response& response, const gemini_wire::error_in& error) {
    std::string message = error.message.value_or("");
    std::string type = error.status.value_or("");
    provider_error e = http_error(response, std::move(message), std::move(type));
    if (!error.details) return e;
    for (const gemini_wire::error_detail_in& d : *error.details) {
        if (d.reason == "API_KEY_INVALID") {  // sent with 400 INVALID_ARGUMENT
            e.kind = provider_error_kind::authentication;
            e.retryable = false;
        }
        if (d.retryDelay && !e.retry_after) e.retry_after = gemini_retry_delay(*d.retryDelay);
    }
    return e;
}

inline provider_error gemini_http_error(const http_response& response) {
    const std::size_t first = response.body.find_first_not_of(" \t\r\n");
    if (first != std::string::npos && response.body[first] == '[') {  // streamGenerateContent without alt=sse
        auto list = json::read<std::vector<gemini_wire::response_in>>(response.body, wire_read_options);
        if (list.ok() && !list.value.empty() && list.value.front().error)
            return gemini_error(response, *list.value.front().error);
    } else {
        auto body = json::read<gemini_wire::response_in>(response.body, wire_read_options);
        if (body.ok() && body.value.error) return gemini_error(response, *body.value.error);
    }
    return http_error(response, {}, {});
}

/// A completion being assembled from one response or from the chunks of a stream.
class gemini_turn {
public:
    /// Takes one response or chunk, calling `events` (may be null) for its text and calls.
    void add(gemini_wire::response_in& r, const stream_events* events = nullptr) {
        if (r.usageMetadata) {
            const gemini_wire::usage_in& u = *r.usageMetadata;
            c_.usage = {u.promptTokenCount.value_or(0), u.candidatesTokenCount.value_or(0) + u.thoughtsTokenCount.value_or(0)};
        }
        if (r.promptFeedback && r.promptFeedback->blockReason) {
            c_.provider_finish = *r.promptFeedback->blockReason;
            c_.finish = finish_reason::content_filter;
            done_ = true;
        }
        if (!r.candidates || r.candidates->empty()) return;
        candidate_ = true;
        gemini_wire::candidate_in& candidate = (*r.candidates)[0];
        if (candidate.content && candidate.content->parts) {
            for (gemini_wire::part_in& p : *candidate.content->parts) {
                if (p.functionCall) {
                    tool_call call;
                    call.id = p.functionCall->id && !p.functionCall->id->empty() ? std::move(*p.functionCall->id)
                                                                                 : "call_" + std::to_string(calls_);
                    ++calls_;
                    call.name = std::move(p.functionCall->name).value_or("");
                    if (p.functionCall->args) call.arguments = std::move(p.functionCall->args->text());
                    call.signature = p.thoughtSignature.value_or("");
                    c_.reply.tool_calls.push_back(std::move(call));
                    if (events && events->on_tool_call)
                        events->on_tool_call(c_.reply.tool_calls.back().id, c_.reply.tool_calls.back().name);
                } else if (p.text && !p.thought.value_or(false) && !p.text->empty()) {
                    c_.reply.text += *p.text;
                    if (events && events->on_text) events->on_text(*p.text);
                }
            }
        }
        if (candidate.finishReason && !candidate.finishReason->empty()) {
            c_.provider_finish = *candidate.finishReason;
            c_.finish = gemini_finish(c_.provider_finish);
            done_ = true;
        }
    }

    /// A finishReason or a prompt block has arrived.
    bool done() const noexcept { return done_; }
    /// A candidate or a prompt block has arrived.
    bool any() const noexcept { return candidate_ || done_; }

    /// The completion, or the error of a malformed tool call.
    turn_result take(std::string_view source) {
        if (c_.finish == finish_reason::stop && !c_.reply.tool_calls.empty()) c_.finish = finish_reason::tool_calls;
        if (auto bad = settle_tool_calls(source, c_.reply.tool_calls)) return {std::nullopt, malformed(std::move(*bad))};
        return {std::move(c_), {}};
    }

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

    /// "gemini-2.5-flash", or a resource name with its collection ("tunedModels/x").
    std::string model{};
    /// With the API version, as in the REST reference.
    std::string base_url = "https://generativelanguage.googleapis.com/v1beta";
    /// Empty: the GOOGLE_API_KEY environment variable, else GEMINI_API_KEY (the order of the
    /// google-genai SDKs), read by each request().
    std::string api_key{};
    /// Sent after agentry's own headers, replacing any of the same name.
    std::vector<http_header> headers{};
    /// A JSON object whose members are added to every request body, e.g.
    /// R"({"safetySettings":[...]})"; they must not repeat a member agentry writes.
    std::string extra_body{};
    std::chrono::milliseconds connect_timeout{0};
    std::chrono::milliseconds total_timeout{0};
    /// Copied into every request (see http_request::cancel) unless chat_request::cancel is set.
    const std::atomic<bool>* cancel = nullptr;
    /// The most a response may make agentry hold (see response_limits).
    response_limits limits{};
    /// Send the key (or any credential header) over plain http:// to a host that is not
    /// loopback; otherwise complete() refuses such a request (provider_error_kind::insecure).
    bool allow_plain_http_credentials = false;

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

    void feed(std::string_view bytes) {
        if (failed()) return;
        parser_.feed(bytes, [this](const detail::sse_event& e) { on_event(e); });
    }

    /// A line or an event passed max_event: nothing more is read (complete() stops the transfer).
    bool overflowed() const noexcept { return parser_.overflowed(); }

    turn_result finish(const http_response& head) {
        if (head.status < 200 || head.status > 299) return {std::nullopt, detail::gemini_http_error(head)};
        if (parser_.overflowed())
            return {std::nullopt, detail::too_large("a gemini stream event or line", parser_.max_event(), "max_event")};
        if (!failed() && parser_.pending()) {  // the last event may lack its blank line
            at_end_ = true;
            parser_.feed("\n\n", [this](const detail::sse_event& e) { on_event(e); });
        }
        if (error_) {
            http_response as_http{static_cast<int>(error_->code.value_or(500)), head.headers, {}};
            provider_error e = detail::gemini_error(as_http, *error_);
            e.status = head.status;
            return {std::nullopt, std::move(e)};
        }
        if (malformed_) return {std::nullopt, detail::malformed(std::move(*malformed_))};
        if (!turn_.done()) return {std::nullopt, detail::malformed("gemini: the stream ended before a finishReason")};
        return turn_.take("gemini stream");
    }

private:
    bool failed() const noexcept { return error_.has_value() || malformed_.has_value() || parser_.overflowed(); }

    void on_event(const detail::sse_event& e) {
        if (failed()) return;
        auto read = json::read<detail::gemini_wire::response_in>(e.data, detail::wire_read_options);
        if (!read.ok()) {
            malformed_ = at_end_ ? std::string("gemini: the stream ended before a finishReason, inside an event")
                                 : "gemini: unreadable stream chunk: " + detail::first_error(read.errors);
            return;
        }
        if (read.value.error) {
            error_ = std::move(*read.value.error);
            return;
        }
        turn_.add(read.value, &events_);
    }

    stream_events events_;
    detail::sse_parser parser_;
    detail::gemini_turn turn_;
    std::optional<detail::gemini_wire::error_in> error_;
    std::optional<std::string> malformed_;
    bool at_end_ = false;  // finish() is reading an event the stream ended in
};

inline http_request gemini::request(const chat_request& r) const {
    namespace wire = detail::gemini_wire;
    wire::request_body body;

    for (const message& m : r.messages)
        if (m.role == role::system && !m.text.empty()) {
            if (!body.systemInstruction) body.systemInstruction.emplace();
            body.systemInstruction->parts.push_back(wire::text_part(m.text));
        }

    auto turns = detail::group_turns<wire::part_out>(
        r.messages, "user", "model", [](std::string_view text) { return wire::text_part(text); },
        [](const tool_call& call) {
            wire::part_out p;
            p.functionCall = wire::function_call_out{call.name, detail::arguments_object(call.arguments), std::nullopt};
            if (!call.id.empty() && !detail::gemini_assigned_id(call.id)) p.functionCall->id = call.id;
            if (!call.signature.empty()) p.thoughtSignature = call.signature;
            return p;
        },
        [](const message& result, std::span<const tool_call> calls) {
            std::string response = result.is_error ? R"({"error":)" : R"({"output":)";
            if (detail::is_json(result.text)) response += result.text;
            else json::write(response, std::string_view(result.text));
            response.push_back('}');
            wire::function_response_out fr{detail::result_name(result, calls), raw_json(std::move(response)), std::nullopt};
            if (!result.tool_call_id.empty() && !detail::gemini_assigned_id(result.tool_call_id))
                fr.id = result.tool_call_id;
            wire::part_out p;
            p.functionResponse = std::move(fr);
            return p;
        });
    body.contents.reserve(turns.size());
    for (auto& t : turns) body.contents.push_back({t.role, std::move(t.parts)});

    if (!r.tools.empty()) {
        body.tools = raw_json(std::string(r.tools));
        switch (r.tool_choice.kind) {
        case tool_choice_kind::automatic: break;
        case tool_choice_kind::none: body.toolConfig = wire::tool_config_out{{"NONE", std::nullopt}}; break;
        case tool_choice_kind::required: body.toolConfig = wire::tool_config_out{{"ANY", std::nullopt}}; break;
        case tool_choice_kind::one:
            body.toolConfig =
                wire::tool_config_out{{"ANY", std::vector<std::string_view>{std::string_view(r.tool_choice.name)}}};
            break;
        }
    }
    if (r.max_tokens || r.temperature || r.output)
        body.generationConfig = wire::generation_config_out{r.max_tokens, r.temperature, std::nullopt, std::nullopt};
    if (r.output) {
        body.generationConfig->responseMimeType = "application/json";
        body.generationConfig->responseSchema = raw_json(std::string(r.output->schema));
    }

    std::string key = api_key;
    if (key.empty()) key = detail::environment("GOOGLE_API_KEY");
    if (key.empty()) key = detail::environment("GEMINI_API_KEY");
    const bool named = model.find('/') != std::string::npos;
    http_request http;
    http.url = detail::join_url(base_url, (named ? "/" : "/models/") + model +
                                              (r.stream ? ":streamGenerateContent?alt=sse" : ":generateContent"));
    http.headers = detail::merge_headers({{"content-type", "application/json"}, {"x-goog-api-key", std::move(key)}}, headers);
    json::write(http.body, body, {.omit_empty_optionals = true});
    detail::append_members(http.body, extra_body);
    http.connect_timeout = connect_timeout;
    http.total_timeout = total_timeout;
    http.cancel = r.cancel != nullptr ? r.cancel : cancel;
    http.max_body = limits.max_body;
    http.allow_plain_http_credentials = allow_plain_http_credentials;
    return http;
}

inline turn_result gemini::parse(const http_response& response) const {
    if (response.status < 200 || response.status > 299) return {std::nullopt, detail::gemini_http_error(response)};
    auto read = json::read<detail::gemini_wire::response_in>(response.body, detail::wire_read_options);
    if (!read.ok())
        return {std::nullopt, detail::malformed("gemini: unreadable response: " + detail::first_error(read.errors))};
    if (read.value.error) return {std::nullopt, detail::gemini_error(response, *read.value.error)};
    detail::gemini_turn turn;
    turn.add(read.value);
    if (!turn.any())
        return {std::nullopt, detail::malformed("gemini: unreadable response: no candidate and no promptFeedback.blockReason")};
    return turn.take("gemini response");
}

inline gemini::stream gemini::start_stream(stream_events events) const {
    return stream(std::move(events), limits.max_event);
}

} // namespace agentry

#endif
