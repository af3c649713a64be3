// SPDX-License-Identifier: BSL-1.0
#ifndef AGENTRY_PROVIDER_IMPL_ANTHROPIC_IPP
#define AGENTRY_PROVIDER_IMPL_ANTHROPIC_IPP

// The definitions of agentry::anthropic and its stream reader: included by provider/anthropic.hpp
// (header-only) or by provider/src.hpp (separate compilation).

#include <agentry/detail/chrono.hpp>
#include <agentry/json/impl/src.ipp>
#include <agentry/json/reader.hpp>
#include <agentry/json/writer.hpp>
#include <agentry/provider/detail/anthropic_request.hpp>
#include <agentry/provider/detail/anthropic_wire.hpp>
#include <agentry/detail/separate.hpp>
#include <agentry/provider/detail/sse.hpp>
#include <agentry/provider/detail/tool_calls.hpp>
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
#include <iterator>
#include <limits>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <utility>
#include <variant>
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
    if (from.output_tokens_details && from.output_tokens_details->thinking_tokens)
        into.output_tokens_details = from.output_tokens_details;
}

inline token_usage anthropic_usage(const anthropic_wire::usage_in& u) noexcept {
    token_usage t;
    t.cached_input_tokens = u.cache_read_input_tokens.value_or(0);
    t.cache_write_tokens = u.cache_creation_input_tokens.value_or(0);
    t.input_tokens = u.input_tokens.value_or(0) + t.cached_input_tokens + t.cache_write_tokens;
    t.output_tokens = u.output_tokens.value_or(0);
    if (u.output_tokens_details) t.reasoning_tokens = u.output_tokens_details->thinking_tokens.value_or(0);
    return t;
}

/// Whether a content block of this type is a part only Anthropic reads.
inline bool anthropic_part_kind(std::string_view type) noexcept {
    return type == "thinking" || type == "redacted_thinking";
}

inline std::string_view anthropic_ttl(anthropic::cache_ttl ttl) noexcept {
    return ttl == anthropic::cache_ttl::one_hour ? "1h" : "5m";
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
    if (!parts_.empty()) {
        c.reply.parts.emplace();
        for (part_block& p : parts_) {
            if (p.part.kind == "thinking")
                json::write(p.part.raw, detail::anthropic_wire::thinking_block_out{"thinking", p.thinking, p.signature});
            c.reply.parts->push_back(std::move(p.part));
        }
    }
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

AGENTRY_DECL void anthropic::stream::arguments(tool_block& b, bool at_stop) {
    if (b.sent == 0 && b.input.find_first_not_of(" \t\r\n") == std::string::npos) {
        if (!at_stop) return;
        b.input = "{}";
    }
    if (b.sent == b.input.size()) return;
    const std::string_view piece = std::string_view(b.input).substr(b.sent);
    b.sent = b.input.size();
    if (events_.on_tool_arguments) events_.on_tool_arguments(b.id, piece);
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
        auto block = json::read<detail::anthropic_wire::block_in>(ev.content_block->text(), detail::wire_read_options);
        if (!block.ok()) {
            malformed_ = "anthropic: unreadable content_block_start event: /content_block" + detail::first_error(block.errors);
            return;
        }
        detail::anthropic_wire::block_in& b = block.value;
        if (b.type == "text") {
            text_seen_ = true;
            text(b.text.value_or(""));
        } else if (b.type == "tool_use") {
            tools_.push_back({*ev.index, std::move(b.id).value_or(""), std::move(b.name).value_or(""), {}, false, 0});
            if (events_.on_tool_call) events_.on_tool_call(tools_.back().id, tools_.back().name);
        } else if (detail::anthropic_part_kind(b.type)) {
            part_block p;
            p.index = *ev.index;
            p.part = {"anthropic", b.type, {}, position()};
            if (b.type == "redacted_thinking") p.part.raw = std::move(ev.content_block->text());
            p.thinking = std::move(b.thinking).value_or("");
            p.signature = std::move(b.signature).value_or("");
            parts_.push_back(std::move(p));
        }
    } else if (kind == "content_block_delta") {
        if (!ev.delta || !ev.index) return missing(kind, "delta and index");
        const std::string type = ev.delta->type.value_or("");
        if (type == "text_delta") {
            text(ev.delta->text.value_or(""));
        } else if (type == "input_json_delta") {
            if (tool_block* b = tool_at(*ev.index)) {
                b->input.append(ev.delta->partial_json.value_or(""));
                arguments(*b, false);
            }
        } else if (type == "thinking_delta") {
            if (part_block* p = part_at(*ev.index)) p->thinking.append(ev.delta->thinking.value_or(""));
        } else if (type == "signature_delta") {
            if (part_block* p = part_at(*ev.index)) p->signature.append(ev.delta->signature.value_or(""));
        }
    } else if (kind == "content_block_stop") {
        if (!ev.index) return;
        if (tool_block* b = tool_at(*ev.index)) {
            b->stopped = true;
            arguments(*b, true);
        }
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

namespace detail {

/// A tool result as a tool_result block: MCP content blocks as a block array when they can all
/// be sent (refuse() refuses the others), else the text.
inline anthropic_wire::block_out anthropic_tool_result(const message& result) {
    anthropic_wire::block_out b;
    b.type = "tool_result";
    b.tool_use_id = result.tool_call_id;
    if (result.content_blocks.value_or(false))
        if (anthropic_result_content blocks = anthropic_result_blocks(result.text); !blocks.json.empty())
            b.content = raw_json(std::move(blocks.json));
    if (!b.content && !result.text.empty()) b.content = std::string_view(result.text);
    if (result.is_error) b.is_error = true;
    return b;
}

/// The conversation as Anthropic's alternating user and assistant messages (the rule of
/// detail/turns.hpp), an assistant's Anthropic parts in their places: those at position 0,
/// the text, then per call i those at position i + 1 and the call; those past the last call
/// at the end.
inline std::vector<anthropic_wire::message_out> anthropic_messages(std::span<const message> messages) {
    namespace wire = anthropic_wire;
    struct open_turn {
        std::string_view role;
        std::vector<wire::content_out> results;
        std::vector<wire::content_out> blocks;
    };
    std::vector<open_turn> turns;
    const auto add = [&](std::string_view side, wire::content_out block, bool is_result) {
        if (turns.empty() || turns.back().role != side) turns.push_back({side, {}, {}});
        (is_result ? turns.back().results : turns.back().blocks).push_back(std::move(block));
    };
    for (std::size_t i = 0; i != messages.size();) {
        const message& m = messages[i];
        if (m.role == role::tool) {
            const std::size_t end = end_of_tool_run(messages, i);
            for (const message* r : in_call_order(messages.subspan(i, end - i), calls_before(messages, i)))
                add("user", anthropic_tool_result(*r), true);
            i = end;
            continue;
        }
        if (m.role == role::user && !m.text.empty()) {
            add("user", wire::text_block(m.text), false);
        } else if (m.role == role::assistant) {
            const std::size_t calls = m.tool_calls.size();
            const auto parts = [&](std::uint32_t from, std::uint32_t to) {
                if (!m.parts) return;
                for (const provider_part& p : *m.parts)
                    if (p.provider == "anthropic" && p.position >= from && p.position <= to)
                        add("assistant", raw_json(p.raw), false);
            };
            parts(0, 0);
            if (!m.text.empty()) add("assistant", wire::text_block(m.text), false);
            for (std::size_t c = 0; c != calls; ++c) {
                parts(std::uint32_t(c + 1), std::uint32_t(c + 1));
                wire::block_out b;
                b.type = "tool_use";
                b.id = m.tool_calls[c].id;
                b.name = m.tool_calls[c].name;
                b.input = arguments_object(m.tool_calls[c].arguments);
                add("assistant", std::move(b), false);
            }
            parts(std::uint32_t(calls + 1), std::numeric_limits<std::uint32_t>::max());
        }
        ++i;
    }
    std::vector<wire::message_out> out;
    out.reserve(turns.size());
    for (open_turn& t : turns) {
        t.results.insert(t.results.end(), std::make_move_iterator(t.blocks.begin()), std::make_move_iterator(t.blocks.end()));
        out.push_back({t.role, std::move(t.results)});
    }
    return out;
}

} // namespace detail

AGENTRY_DECL http_request anthropic::request(const chat_request& r) const {
    namespace wire = detail::anthropic_wire;
    wire::request_body body;
    body.model = model;
    body.max_tokens = r.max_tokens.value_or(max_tokens);
    const std::optional<wire::cache_control_out> breakpoint =
        cache == cache_ttl::off ? std::nullopt
                                : std::optional<wire::cache_control_out>(wire::cache_control_out{"ephemeral", detail::anthropic_ttl(cache)});

    std::string system;
    for (const message& m : r.messages) {
        if (m.role != role::system || m.text.empty()) continue;
        if (!system.empty()) system += "\n\n";
        system += m.text;
    }
    if (!system.empty() && breakpoint) {
        wire::block_out b = wire::text_block(system);
        b.cache_control = breakpoint;
        body.system = std::vector<wire::block_out>{std::move(b)};
    } else if (!system.empty()) {
        body.system = std::string_view(system);
    }

    body.messages = detail::anthropic_messages(r.messages);
    if (breakpoint && !body.messages.empty()) {
        auto& last = std::get<std::vector<wire::content_out>>(body.messages.back().content);
        for (auto it = last.rbegin(); it != last.rend(); ++it)
            if (auto* b = std::get_if<wire::block_out>(&*it)) {
                b->cache_control = breakpoint;
                break;
            }
    }
    for (wire::message_out& m : body.messages) {
        auto& blocks = std::get<std::vector<wire::content_out>>(m.content);
        const auto* only = blocks.size() == 1 ? std::get_if<wire::block_out>(&blocks.front()) : nullptr;
        if (only == nullptr || only->type != "text" || only->cache_control) continue;
        const std::string_view text = *only->text;  // copied out before the blocks are destroyed
        m.content = text;
    }

    if (!r.tools.empty()) {
        std::string last;
        if (breakpoint)
            last = std::string(R"("cache_control":{"type":"ephemeral","ttl":")") + std::string(breakpoint->ttl) + "\"}";
        body.tools = raw_json(detail::splice_tools(r.tools, eager_tool_input ? R"("eager_input_streaming":true)" : "", last));
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
    const bool manual = thinking && thinking->type == anthropic_thinking::kind::enabled;
    if (thinking)
        body.thinking = wire::thinking_out{manual ? "enabled" : "adaptive",
                                           manual ? std::optional<std::uint32_t>(thinking->budget_tokens) : std::nullopt};
    body.temperature = r.temperature;
    if (r.output || !effort.empty()) {
        body.output_config.emplace();
        if (!effort.empty()) body.output_config->effort = effort;
        if (r.output) body.output_config->format = wire::format_out{"json_schema", raw_json(std::string(r.output->schema))};
    }
    if (r.stream) body.stream = true;

    http_request out = detail::start_request(
        http, default_base_url, "/v1/messages",
        {{"content-type", "application/json"},
         {"x-api-key", api_key.empty() ? detail::environment("ANTHROPIC_API_KEY") : api_key},
         {"anthropic-version", "2023-06-01"},
         {"anthropic-beta", manual && interleaved_thinking && !r.tools.empty() ? "interleaved-thinking-2025-05-14" : ""}},
        r.cancel);
    json::write(out.body, body, {.omit_empty_optionals = true});
    detail::append_members(out.body, extra_body);
    return out;
}

AGENTRY_DECL std::optional<provider_error> anthropic::refuse(const chat_request& r) const {
    const auto refused = [](std::string message) { return std::optional<provider_error>(detail::refused(std::move(message))); };
    if (thinking) {
        const bool manual = thinking->type == anthropic_thinking::kind::enabled;
        const tool_choice_kind choice = r.tool_choice.kind;
        if (manual && !r.tools.empty() && (choice == tool_choice_kind::one || choice == tool_choice_kind::required))
            return refused("agentry: anthropic: with thinking enabled the Messages API takes tool_choice auto or none only, "
                           "and this request forces " +
                           (choice == tool_choice_kind::one ? "tool '" + r.tool_choice.name + "'" : std::string("a tool call")) +
                           "; leave thinking off for this request, use adaptive thinking (anthropic_thinking::kind::adaptive) "
                           "where the model takes a forced tool, or let the model choose (tool_choice::automatic(); in "
                           "agent<>: loop_config::tool_choice automatic; planned runs do not force their plan tool "
                           "with manual thinking)");
        const std::uint32_t limit = r.max_tokens.value_or(max_tokens);
        const std::string budget = std::to_string(thinking->budget_tokens);
        if (manual && thinking->budget_tokens < 1024)
            return refused("agentry: anthropic: anthropic_thinking::budget_tokens is " + budget +
                           ", under the Messages API's minimum of 1024; set it to 1024 or more");
        if (manual && thinking->budget_tokens >= limit && !(interleaved_thinking && !r.tools.empty()))
            return refused("agentry: anthropic: anthropic_thinking::budget_tokens (" + budget +
                           ") must be less than max_tokens (" + std::to_string(limit) +
                           ", the request's or anthropic::max_tokens); raise max_tokens or lower budget_tokens");
        if (r.temperature)
            return refused("agentry: anthropic: with thinking the Messages API takes no temperature, and this request "
                           "sets one; leave chat_request::temperature unset, or leave thinking off for this request");
    }
    for (std::size_t i = 0; i != r.messages.size(); ++i) {
        const message& m = r.messages[i];
        if (m.role != role::tool || !m.content_blocks.value_or(false)) continue;
        const detail::anthropic_result_content blocks = detail::anthropic_result_blocks(m.text);
        if (blocks.unsendable.empty()) continue;
        return refused("agentry: anthropic: the result of tool '" +
                       std::string(detail::result_name(m, detail::calls_before(r.messages, i))) + "' holds " +
                       blocks.unsendable +
                       ", which a tool_result cannot carry (it takes text, JPEG, PNG, GIF and WebP images, and PDF "
                       "documents); have the tool return those, or text in place of the rest");
    }
    return std::nullopt;
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
    bool last_is_call = false, text_seen = false;
    for (raw_json& item : read.value.content) {
        auto block = json::read<detail::anthropic_wire::block_in>(item.text(), detail::wire_read_options);
        if (!block.ok())
            return {std::nullopt, detail::malformed("anthropic: unreadable response: /content/" +
                                                    std::to_string(&item - read.value.content.data()) +
                                                    detail::first_error(block.errors))};
        detail::anthropic_wire::block_in& b = block.value;
        last_is_call = false;
        if (b.type == "text") {
            c.reply.text += b.text.value_or("");
            text_seen = true;
        } else if (b.type == "tool_use") {
            std::string input = b.input ? std::move(b.input->text()) : std::string{};
            c.reply.tool_calls.push_back({std::move(b.id).value_or(""), std::move(b.name).value_or(""), std::move(input), {}});
            last_is_call = true;
        } else if (detail::anthropic_part_kind(b.type)) {
            const std::size_t calls = c.reply.tool_calls.size();
            if (!c.reply.parts) c.reply.parts.emplace();
            c.reply.parts->push_back(
                {"anthropic", b.type, std::move(item.text()), provider_part::position_after(calls, text_seen)});
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
