// SPDX-License-Identifier: BSL-1.0
#ifndef AGENTRY_PROVIDER_IMPL_ANTHROPIC_IPP
#define AGENTRY_PROVIDER_IMPL_ANTHROPIC_IPP

// The definitions of agentry::anthropic and its stream reader: included by provider/anthropic.hpp
// (header-only) or by provider/src.hpp (separate compilation).

#include <agentry/detail/chrono.hpp>
#include <agentry/json/impl/src.ipp>
#include <agentry/json/reader.hpp>
#include <agentry/json/writer.hpp>
#include <agentry/provider/detail/anthropic_wire.hpp>
#include <agentry/detail/separate.hpp>
#include <agentry/provider/detail/sse.hpp>
#include <agentry/provider/detail/tool_calls.hpp>
#include <agentry/provider/detail/turns.hpp>
#include <agentry/provider/detail/wire_common.hpp>
#include <agentry/provider/anthropic.hpp>
#include <agentry/provider/message.hpp>
#include <agentry/provider/impl/turn.ipp>
#include <agentry/provider/provider.hpp>
#include <agentry/schema/dialect.hpp>
#include <agentry/transport/transport.hpp>

#include <atomic>
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

inline finish_reason anthropic_finish(std::string_view stop_reason) noexcept {
    if (stop_reason == "end_turn" || stop_reason == "stop_sequence") return finish_reason::stop;
    if (stop_reason == "tool_use") return finish_reason::tool_calls;
    if (stop_reason == "max_tokens" || stop_reason == "model_context_window_exceeded") return finish_reason::max_tokens;
    if (stop_reason == "refusal") return finish_reason::refusal;
    return finish_reason::other;  // pause_turn, and reasons added later
}

/// The HTTP status Anthropic gives an error of this type (for errors sent inside a stream).
inline int anthropic_error_status(std::string_view type) noexcept {
    if (type == "invalid_request_error") return 400;
    if (type == "authentication_error") return 401;
    if (type == "billing_error") return 402;
    if (type == "permission_error") return 403;
    if (type == "not_found_error") return 404;
    if (type == "request_too_large") return 413;
    if (type == "rate_limit_error") return 429;
    if (type == "timeout_error") return 504;
    if (type == "overloaded_error") return 529;
    return 500;  // api_error, and types added later
}

inline provider_error anthropic_http_error(const http_response& response) {
    auto body = json::read<anthropic_wire::error_body>(response.body, wire_read_options);
    std::string message, type;
    if (body.ok() && body.value.error) {
        message = body.value.error->message.value_or("");
        type = body.value.error->type.value_or("");
    }
    return http_error(response, std::move(message), std::move(type));
}

/// Takes the counts `from` has.
inline void merge_usage(anthropic_wire::usage_in& into, const anthropic_wire::usage_in& from) noexcept {
    if (from.input_tokens) into.input_tokens = from.input_tokens;
    if (from.cache_creation_input_tokens) into.cache_creation_input_tokens = from.cache_creation_input_tokens;
    if (from.cache_read_input_tokens) into.cache_read_input_tokens = from.cache_read_input_tokens;
    if (from.output_tokens) into.output_tokens = from.output_tokens;
}

inline token_usage anthropic_usage(const anthropic_wire::usage_in& u) noexcept {
    return {u.input_tokens.value_or(0) + u.cache_creation_input_tokens.value_or(0) + u.cache_read_input_tokens.value_or(0),
            u.output_tokens.value_or(0)};
}

} // namespace detail

AGENTRY_DECL void anthropic::stream::feed(std::string_view bytes) {
    if (done_ || failed()) return;
    parser_.feed(bytes, [this](const detail::sse_event& e) { on_event(e); });
}

AGENTRY_DECL turn_result anthropic::stream::finish(const http_response& head) {
    if (head.status < 200 || head.status > 299) return {std::nullopt, detail::anthropic_http_error(head)};
    if (parser_.overflowed())
        return {std::nullopt, detail::too_large("an anthropic stream event or line", parser_.max_event(), "max_event")};
    if (!done_ && !failed() && parser_.pending()) {  // the last event may lack its blank line
        at_end_ = true;
        parser_.feed("\n\n", [this](const detail::sse_event& e) { on_event(e); });
    }
    if (error_) {
        http_response as_http{detail::anthropic_error_status(error_->type), head.headers, {}};
        provider_error e = detail::http_error(as_http, std::move(error_->message), std::move(error_->type));
        e.status = head.status;
        return {std::nullopt, std::move(e)};
    }
    if (malformed_) return {std::nullopt, detail::malformed(std::move(*malformed_))};
    if (!done_) return {std::nullopt, detail::malformed("anthropic: the stream ended before message_stop")};
    completion c;
    c.reply.text = std::move(text_);
    c.provider_finish = std::move(stop_reason_);
    c.finish = detail::anthropic_finish(c.provider_finish);
    c.usage = detail::anthropic_usage(usage_);
    for (tool_block& b : tools_) {
        if (b.input.empty()) b.input = "{}";
        const bool cut = !b.stopped || (c.finish == finish_reason::max_tokens && !detail::is_json(b.input));
        if (cut) {
            c.incomplete_tool_call = true;
            continue;
        }
        c.reply.tool_calls.push_back({std::move(b.id), std::move(b.name), std::move(b.input), {}});
    }
    if (auto bad = detail::settle_tool_calls("anthropic stream", c.reply.tool_calls))
        return {std::nullopt, detail::malformed(std::move(*bad))};
    return {std::move(c), {}};
}

AGENTRY_DECL void anthropic::stream::text(std::string_view piece) {
    if (piece.empty()) return;
    text_.append(piece);
    if (events_.on_text) events_.on_text(piece);
}

AGENTRY_DECL void anthropic::stream::on_event(const detail::sse_event& e) {
    if (done_ || failed()) return;
    std::string_view kind = e.name;
    if (!kind.empty() && kind != "message_start" && kind != "content_block_start" && kind != "content_block_delta" &&
        kind != "content_block_stop" && kind != "message_delta" && kind != "message_stop" && kind != "error")
        return;  // ping, and events added later
    auto read = json::read<detail::anthropic_wire::event_in>(e.data, detail::wire_read_options);
    if (!read.ok()) {
        const std::string event = std::string(kind.empty() ? "stream" : kind) + " event";
        malformed_ = at_end_ ? "anthropic: the stream ended before message_stop, inside a " + event
                             : "anthropic: unreadable " + event + ": " + detail::first_error(read.errors);
        return;
    }
    detail::anthropic_wire::event_in& ev = read.value;
    if (kind.empty() && ev.type) kind = *ev.type;
    if (kind == "message_start") {
        if (ev.message && ev.message->usage) detail::merge_usage(usage_, *ev.message->usage);
    } else if (kind == "content_block_start") {
        if (!ev.content_block || !ev.index) return missing(kind, "content_block and index");
        detail::anthropic_wire::block_in& b = *ev.content_block;
        if (b.type == "text") {
            text(b.text.value_or(""));
        } else if (b.type == "tool_use") {
            tools_.push_back({*ev.index, std::move(b.id).value_or(""), std::move(b.name).value_or(""), {}, false});
            if (events_.on_tool_call) events_.on_tool_call(tools_.back().id, tools_.back().name);
        }
    } else if (kind == "content_block_delta") {
        if (!ev.delta || !ev.index) return missing(kind, "delta and index");
        const std::string type = ev.delta->type.value_or("");
        if (type == "text_delta") {
            text(ev.delta->text.value_or(""));
        } else if (type == "input_json_delta") {
            if (tool_block* b = tool_at(*ev.index)) b->input.append(ev.delta->partial_json.value_or(""));
        }
    } else if (kind == "content_block_stop") {
        if (ev.index)
            if (tool_block* b = tool_at(*ev.index)) b->stopped = true;
    } else if (kind == "message_delta") {
        if (ev.delta && ev.delta->stop_reason) stop_reason_ = std::move(*ev.delta->stop_reason);
        if (ev.usage) detail::merge_usage(usage_, *ev.usage);
    } else if (kind == "message_stop") {
        done_ = true;
    } else if (kind == "error") {
        stream_error err;
        if (ev.error) {
            err.type = ev.error->type.value_or("");
            err.message = ev.error->message.value_or("");
        }
        error_ = std::move(err);
    }
}

AGENTRY_DECL void anthropic::stream::missing(std::string_view kind, std::string_view what) {
    malformed_ = "anthropic: a " + std::string(kind) + " event without " + std::string(what);
}

AGENTRY_DECL http_request anthropic::request(const chat_request& r) const {
    namespace wire = detail::anthropic_wire;
    wire::request_body body;
    body.model = model;
    body.max_tokens = r.max_tokens.value_or(max_tokens);

    std::string system;
    for (const message& m : r.messages) {
        if (m.role != role::system || m.text.empty()) continue;
        if (!system.empty()) system += "\n\n";
        system += m.text;
    }
    if (!system.empty()) body.system = system;

    auto turns = detail::group_turns<wire::block_out>(
        r.messages, "user", "assistant", [](std::string_view text) { return wire::text_block(text); },
        [](const tool_call& call) {
            wire::block_out b;
            b.type = "tool_use";
            b.id = call.id;
            b.name = call.name;
            b.input = detail::arguments_object(call.arguments);
            return b;
        },
        [](const message& result, std::span<const tool_call>) {
            wire::block_out b;
            b.type = "tool_result";
            b.tool_use_id = result.tool_call_id;
            if (!result.text.empty()) b.content = result.text;
            if (result.is_error) b.is_error = true;
            return b;
        });
    body.messages.reserve(turns.size());
    for (auto& t : turns) {
        if (t.parts.size() == 1 && t.parts.front().type == "text")
            body.messages.push_back({t.role, *t.parts.front().text});
        else
            body.messages.push_back({t.role, std::move(t.parts)});
    }

    if (!r.tools.empty()) {
        body.tools = raw_json(std::string(r.tools));
        const std::optional<bool> disable =
            r.parallel_tool_calls == false ? std::optional<bool>(true) : std::nullopt;
        switch (r.tool_choice.kind) {
        case tool_choice_kind::automatic:
            if (disable) body.tool_choice = wire::tool_choice_out{"auto", std::nullopt, disable};
            break;
        case tool_choice_kind::none: body.tool_choice = wire::tool_choice_out{"none", std::nullopt, std::nullopt}; break;
        case tool_choice_kind::required: body.tool_choice = wire::tool_choice_out{"any", std::nullopt, disable}; break;
        case tool_choice_kind::one:
            body.tool_choice = wire::tool_choice_out{"tool", std::string_view(r.tool_choice.name), disable};
            break;
        }
    }
    body.temperature = r.temperature;
    if (r.output)
        body.output_config = wire::output_config_out{{"json_schema", raw_json(std::string(r.output->schema))}};
    if (r.stream) body.stream = true;

    http_request out = detail::start_request(
        http, default_base_url, "/v1/messages",
        {{"content-type", "application/json"},
         {"x-api-key", api_key.empty() ? detail::environment("ANTHROPIC_API_KEY") : api_key},
         {"anthropic-version", "2023-06-01"}},
        r.cancel);
    json::write(out.body, body, {.omit_empty_optionals = true});
    detail::append_members(out.body, extra_body);
    return out;
}

AGENTRY_DECL turn_result anthropic::parse(const http_response& response) const {
    if (response.status < 200 || response.status > 299) return {std::nullopt, detail::anthropic_http_error(response)};
    auto read = json::read<detail::anthropic_wire::message_in>(response.body, detail::wire_read_options);
    if (!read.ok())
        return {std::nullopt, detail::malformed("anthropic: unreadable response: " + detail::first_error(read.errors))};
    completion c;
    c.provider_finish = read.value.stop_reason.value_or("");
    c.finish = detail::anthropic_finish(c.provider_finish);
    if (read.value.usage) c.usage = detail::anthropic_usage(*read.value.usage);
    bool last_is_call = false;
    for (detail::anthropic_wire::block_in& b : read.value.content) {
        last_is_call = false;
        if (b.type == "text") {
            c.reply.text += b.text.value_or("");
        } else if (b.type == "tool_use") {
            std::string input = b.input ? std::move(b.input->text()) : std::string{};
            c.reply.tool_calls.push_back({std::move(b.id).value_or(""), std::move(b.name).value_or(""), std::move(input), {}});
            last_is_call = true;
        }
    }
    if (last_is_call && c.finish == finish_reason::max_tokens) {
        c.reply.tool_calls.pop_back();
        c.incomplete_tool_call = true;
    }
    if (auto bad = detail::settle_tool_calls("anthropic response", c.reply.tool_calls))
        return {std::nullopt, detail::malformed(std::move(*bad))};
    return {std::move(c), {}};
}

AGENTRY_DECL anthropic::stream anthropic::start_stream(stream_events events) const {
    return stream(std::move(events), http.limits.max_event);
}

} // namespace agentry

#endif
