// SPDX-License-Identifier: BSL-1.0
#ifndef AGENTRY_PROVIDER_IMPL_GEMINI_IPP
#define AGENTRY_PROVIDER_IMPL_GEMINI_IPP

// The definitions of agentry::gemini and its stream reader: included by provider/gemini.hpp
// (header-only) or by provider/src.hpp (separate compilation).

#include <agentry/detail/chrono.hpp>
#include <agentry/json/impl/src.ipp>
#include <agentry/json/reader.hpp>
#include <agentry/json/writer.hpp>
#include <agentry/provider/detail/gemini_wire.hpp>
#include <agentry/detail/separate.hpp>
#include <agentry/provider/detail/sse.hpp>
#include <agentry/provider/detail/tool_calls.hpp>
#include <agentry/provider/detail/tool_content.hpp>
#include <agentry/provider/detail/turns.hpp>
#include <agentry/provider/detail/wire_common.hpp>
#include <agentry/provider/gemini.hpp>
#include <agentry/provider/message.hpp>
#include <agentry/provider/impl/turn.ipp>
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

AGENTRY_DECL void gemini_turn::add(gemini_wire::response_in& r, const stream_events* events) {
    if (r.usageMetadata) {
        const gemini_wire::usage_in& u = *r.usageMetadata;
        c_.usage = token_usage{};
        c_.usage.input_tokens = u.promptTokenCount.value_or(0);
        c_.usage.output_tokens = u.candidatesTokenCount.value_or(0) + u.thoughtsTokenCount.value_or(0);
        c_.usage.cached_input_tokens = u.cachedContentTokenCount.value_or(0);
        c_.usage.reasoning_tokens = u.thoughtsTokenCount.value_or(0);
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
                if (call.arguments.empty()) call.arguments = "{}";  // as settle_tool_calls would
                call.signature = p.thoughtSignature.value_or("");
                const tool_call& added = c_.reply.tool_calls.emplace_back(std::move(call));
                // A call arrives whole: its arguments are one piece.
                if (events && events->on_tool_call) events->on_tool_call(added.id, added.name);
                if (events && events->on_tool_arguments) events->on_tool_arguments(added.id, added.arguments);
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

AGENTRY_DECL turn_result gemini_turn::take(std::string_view source) {
    if (c_.finish == finish_reason::stop && !c_.reply.tool_calls.empty()) c_.finish = finish_reason::tool_calls;
    if (auto bad = settle_tool_calls(source, c_.reply.tool_calls)) return {std::nullopt, malformed(std::move(*bad))};
    return {std::move(c_), {}};
}

} // namespace detail

AGENTRY_DECL void gemini::stream::feed(std::string_view bytes) {
    if (failed()) return;
    parser_.feed(bytes, [this](const detail::sse_event& e) { on_event(e); });
}

AGENTRY_DECL turn_result gemini::stream::finish(const http_response& head) {
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

AGENTRY_DECL void gemini::stream::on_event(const detail::sse_event& e) {
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

AGENTRY_DECL std::optional<provider_error> gemini::refuse(const chat_request& r) const {
    const auto found = detail::first_uncarried(
        r.messages, [](detail::content_kind k) { return k != detail::content_kind::other; });
    if (!found) return std::nullopt;
    return detail::content_refusal("gemini: a function response carries text and images only", *found,
                                   "return text or images");
}

AGENTRY_DECL http_request gemini::request(const chat_request& r) const {
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
            // Content blocks: their texts in the response, their images as its parts.
            auto items = detail::content_items(result);
            const std::string joined = items ? detail::joined_text(*items) : std::string{};
            const std::string& text = items ? joined : result.text;
            std::string response = result.is_error ? R"({"error":)" : R"({"output":)";
            if (detail::is_json(text)) response += text;
            else json::write(response, std::string_view(text));
            response.push_back('}');
            wire::function_response_out fr{detail::result_name(result, calls), raw_json(std::move(response)),
                                           std::nullopt, std::nullopt};
            if (items)
                for (detail::content_item& item : *items)
                    if (item.kind == detail::content_kind::image) {
                        if (!fr.parts) fr.parts.emplace();
                        fr.parts->push_back({{std::move(item.mime_type), std::move(item.data)}});
                    }
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
    http_request out = detail::start_request(
        http, default_base_url,
        (named ? "/" : "/models/") + model + (r.stream ? ":streamGenerateContent?alt=sse" : ":generateContent"),
        {{"content-type", "application/json"}, {"x-goog-api-key", std::move(key)}}, r.cancel);
    json::write(out.body, body, {.omit_empty_optionals = true});
    detail::append_members(out.body, extra_body);
    return out;
}

AGENTRY_DECL turn_result gemini::parse(const http_response& response) const {
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

AGENTRY_DECL gemini::stream gemini::start_stream(stream_events events) const {
    return stream(std::move(events), http.limits.max_event);
}

} // namespace agentry

#endif
