// SPDX-License-Identifier: BSL-1.0
#ifndef AGENTRY_PROVIDER_IMPL_OLLAMA_IPP
#define AGENTRY_PROVIDER_IMPL_OLLAMA_IPP

// The definitions of agentry::ollama and its stream reader: included by provider/ollama.hpp
// (header-only) or by provider/src.hpp (separate compilation).

#include <agentry/detail/chrono.hpp>
#include <agentry/json/impl/src.ipp>
#include <agentry/json/reader.hpp>
#include <agentry/json/writer.hpp>
#include <agentry/provider/detail/ollama_wire.hpp>
#include <agentry/detail/separate.hpp>
#include <agentry/provider/detail/sse.hpp>
#include <agentry/provider/detail/tool_calls.hpp>
#include <agentry/provider/detail/tool_content.hpp>
#include <agentry/provider/detail/wire_common.hpp>
#include <agentry/provider/ollama.hpp>
#include <agentry/provider/message.hpp>
#include <agentry/provider/impl/turn.ipp>
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

/// The entries of the tools array `tools` whose function is `name`; all of them when none is.
inline std::string ollama_tools_named(std::string_view tools, std::string_view name) {
    auto list = json::read<std::vector<raw_json>>(tools, wire_read_options);
    if (!list.ok()) return std::string(tools);
    std::string out = "[";
    for (const raw_json& entry : list.value) {
        auto tool = json::read<ollama_wire::tool_in>(entry.text(), wire_read_options);
        if (!tool.ok() || !tool.value.function || tool.value.function->name != name) continue;
        if (out.size() != 1) out.push_back(',');
        out += entry.text();
    }
    if (out.size() == 1) return std::string(tools);
    out.push_back(']');
    return out;
}

inline provider_error ollama_http_error(const http_response& response) {
    auto body = json::read<ollama_wire::chunk_in>(response.body, wire_read_options);
    std::string message;
    if (body.ok() && body.value.error) message = std::move(*body.value.error);
    return http_error(response, std::move(message), {});
}

AGENTRY_DECL void ollama_turn::add(ollama_wire::chunk_in& r, const stream_events* events) {
    if (r.message) {
        if (r.message->content && !r.message->content->empty()) {
            c_.reply.text += *r.message->content;
            if (events && events->on_text) events->on_text(*r.message->content);
        }
        if (r.message->tool_calls)
            for (ollama_wire::tool_call_in& in : *r.message->tool_calls) {
                tool_call call;
                call.id = in.id && !in.id->empty() ? std::move(*in.id) : "call_" + std::to_string(calls_);
                ++calls_;
                if (in.function) {
                    call.name = in.function->name.value_or("");
                    call.arguments = plain_text(in.function->arguments);
                }
                if (call.arguments.find_first_not_of(" \t\r\n") == std::string::npos)
                    call.arguments = "{}";  // as settle_tool_calls would
                const tool_call& added = c_.reply.tool_calls.emplace_back(std::move(call));
                // A call arrives whole: its arguments are one piece.
                if (events && events->on_tool_call) events->on_tool_call(added.id, added.name);
                if (events && events->on_tool_arguments) events->on_tool_arguments(added.id, added.arguments);
            }
    }
    if (r.done.value_or(false)) {
        done_ = true;
        c_.provider_finish = r.done_reason.value_or("");
        c_.usage = {r.prompt_eval_count.value_or(0), r.eval_count.value_or(0)};
    }
}

AGENTRY_DECL turn_result ollama_turn::take(std::string_view source) {
    const std::string_view reason = c_.provider_finish;
    if (reason == "length") c_.finish = finish_reason::max_tokens;
    else if (reason != "stop" && !reason.empty()) c_.finish = finish_reason::other;  // load, unload
    else if (!c_.reply.tool_calls.empty()) c_.finish = finish_reason::tool_calls;
    else c_.finish = finish_reason::stop;
    if (auto bad = settle_tool_calls(source, c_.reply.tool_calls)) return {std::nullopt, malformed(std::move(*bad))};
    return {std::move(c_), {}};
}

} // namespace detail

AGENTRY_DECL void ollama::stream::feed(std::string_view bytes) {
    if (failed() || turn_.done()) return;
    parser_.feed(bytes, [this](std::string_view line) { on_line(line); });
}

AGENTRY_DECL turn_result ollama::stream::finish(const http_response& head) {
    if (head.status < 200 || head.status > 299) return {std::nullopt, detail::ollama_http_error(head)};
    if (parser_.overflowed())
        return {std::nullopt, detail::too_large("an ollama stream line", parser_.max_event(), "max_event")};
    if (!failed() && !turn_.done() && !parser_.rest().empty()) {  // the last line may lack its newline
        const std::string rest(parser_.rest());
        at_end_ = true;
        on_line(rest);
    }
    if (error_) {
        provider_error e = detail::http_error({500, head.headers, {}}, std::move(*error_), {});
        e.status = head.status;
        return {std::nullopt, std::move(e)};
    }
    if (malformed_) return {std::nullopt, detail::malformed(std::move(*malformed_))};
    if (!turn_.done())
        return {std::nullopt, detail::malformed("ollama: the stream ended before its last line (\"done\": true)")};
    return turn_.take("ollama stream");
}

AGENTRY_DECL void ollama::stream::on_line(std::string_view line) {
    if (failed() || turn_.done()) return;
    if (line.find_first_not_of(" \t\r") == std::string_view::npos) return;
    auto read = json::read<detail::ollama_wire::chunk_in>(line, detail::wire_read_options);
    if (!read.ok()) {
        malformed_ = at_end_ ? std::string("ollama: the stream ended before its last line (\"done\": true), inside a line")
                             : "ollama: unreadable stream line: " + detail::first_error(read.errors);
        return;
    }
    if (read.value.error) {
        error_ = std::move(*read.value.error);
        return;
    }
    turn_.add(read.value, &events_);
}

AGENTRY_DECL std::optional<provider_error> ollama::refuse(const chat_request& r) const {
    const auto found = detail::first_uncarried(
        r.messages, [](detail::content_kind k) { return k != detail::content_kind::other; });
    if (!found) return std::nullopt;
    return detail::content_refusal("ollama: a tool message carries text and images only", *found,
                                   "return text or images");
}

AGENTRY_DECL http_request ollama::request(const chat_request& r) const {
    namespace wire = detail::ollama_wire;
    wire::request_body body;
    body.model = model;
    const std::span<const message> messages = r.messages;
    body.messages.reserve(messages.size());
    // The joined texts of content-block results, which the body's string_views point into.
    std::vector<std::string> joined;
    joined.reserve(messages.size());
    for (std::size_t i = 0; i != messages.size();) {
        const message& m = messages[i];
        if (m.role == role::tool) {
            const std::size_t end = detail::end_of_tool_run(messages, i);
            const auto calls = detail::calls_before(messages, i);
            for (const message* result : detail::in_call_order(messages.subspan(i, end - i), calls)) {
                wire::message_out out;
                out.role = "tool";
                out.content = result->text;
                if (auto items = detail::content_items(*result)) {  // texts as the content, images as images
                    out.content = joined.emplace_back(detail::joined_text(*items));
                    for (detail::content_item& item : *items)
                        if (item.kind == detail::content_kind::image) {
                            if (!out.images) out.images.emplace();
                            out.images->push_back(std::move(item.data));
                        }
                }
                const std::string_view name = detail::result_name(*result, calls);
                if (!name.empty()) out.tool_name = name;
                if (!result->tool_call_id.empty()) out.tool_call_id = result->tool_call_id;
                body.messages.push_back(std::move(out));
            }
            i = end;
            continue;
        }
        wire::message_out out;
        out.role = m.role == role::system ? "system" : m.role == role::user ? "user" : "assistant";
        out.content = m.text;
        if (m.role == role::assistant && !m.tool_calls.empty()) {
            out.tool_calls.emplace();
            for (std::size_t k = 0; k != m.tool_calls.size(); ++k) {
                const tool_call& call = m.tool_calls[k];
                wire::tool_call_out c{std::nullopt, {k, call.name, detail::arguments_object(call.arguments)}};
                if (!call.id.empty()) c.id = call.id;
                out.tool_calls->push_back(std::move(c));
            }
        }
        body.messages.push_back(std::move(out));
        ++i;
    }

    if (!r.tools.empty()) {
        if (r.tool_choice.kind == tool_choice_kind::one)
            body.tools = raw_json(detail::ollama_tools_named(r.tools, r.tool_choice.name));
        else if (r.tool_choice.kind != tool_choice_kind::none)
            body.tools = raw_json(std::string(r.tools));
    }
    if (r.output) body.format = raw_json(std::string(r.output->schema));
    body.stream = r.stream;
    std::string options;
    json::write(options, wire::options_out{r.max_tokens, r.temperature}, {.omit_empty_optionals = true});
    detail::append_members(options, extra_options);
    if (options != "{}") body.options = raw_json(std::move(options));

    http_request out =
        detail::start_request(http, default_base_url, "/api/chat", {{"content-type", "application/json"}}, r.cancel);
    json::write(out.body, body, {.omit_empty_optionals = true});
    detail::append_members(out.body, extra_body);
    return out;
}

AGENTRY_DECL turn_result ollama::parse(const http_response& response) const {
    if (response.status < 200 || response.status > 299) return {std::nullopt, detail::ollama_http_error(response)};
    auto read = json::read<detail::ollama_wire::chunk_in>(response.body, detail::wire_read_options);
    if (!read.ok())
        return {std::nullopt, detail::malformed("ollama: unreadable response: " + detail::first_error(read.errors))};
    if (read.value.error) {
        provider_error e = detail::http_error({500, response.headers, {}}, std::move(*read.value.error), {});
        e.status = response.status;
        return {std::nullopt, std::move(e)};
    }
    if (!read.value.message) return {std::nullopt, detail::malformed("ollama: unreadable response: /message: missing required property")};
    detail::ollama_turn turn;
    turn.add(read.value);
    return turn.take("ollama response");
}

AGENTRY_DECL ollama::stream ollama::start_stream(stream_events events) const {
    return stream(std::move(events), http.limits.max_event);
}

} // namespace agentry

#endif
