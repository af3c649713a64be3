// SPDX-License-Identifier: BSL-1.0
#ifndef AGENTRY_PROVIDER_IMPL_OPENAI_IPP
#define AGENTRY_PROVIDER_IMPL_OPENAI_IPP

// The definitions of agentry::openai and its stream assembler: included by provider/openai.hpp
// (header-only) or by provider/src.hpp (separate compilation).

#include <agentry/json/impl/src.ipp>
#include <agentry/json/reader.hpp>
#include <agentry/provider/detail/openai_errors.hpp>
#include <agentry/provider/detail/openai_request.hpp>
#include <agentry/provider/detail/openai_response.hpp>
#include <agentry/provider/detail/openai_stream.hpp>
#include <agentry/provider/detail/openai_wire.hpp>
#include <agentry/detail/separate.hpp>
#include <agentry/provider/detail/sse.hpp>
#include <agentry/provider/detail/tool_calls.hpp>
#include <agentry/provider/detail/wire_common.hpp>
#include <agentry/provider/message.hpp>
#include <agentry/provider/openai.hpp>
#include <agentry/provider/impl/turn.ipp>
#include <agentry/provider/provider.hpp>
#include <agentry/transport/transport.hpp>

#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace agentry {

AGENTRY_DECL std::optional<provider_error> openai::refuse(const chat_request& r) const {
    return detail::openai_impl::refusal(r);
}

AGENTRY_DECL http_request openai::request(const chat_request& r) const {
    const std::string key = api_key.empty() ? detail::environment("OPENAI_API_KEY") : api_key;
    http_request out = detail::start_request(http, default_base_url, "/chat/completions",
                                             {{"Content-Type", "application/json"},
                                              {"Accept", r.stream ? "text/event-stream" : "application/json"},
                                              {"Authorization", key.empty() ? std::string{} : "Bearer " + key}},
                                             r.cancel);
    out.body =
        detail::openai_impl::request_body(r, model, max_tokens_as == max_tokens_field::max_tokens, prompt_cache_key);
    return out;
}

AGENTRY_DECL turn_result openai::parse(const http_response& response) const {
    if (response.status < 200 || response.status > 299)
        return {std::nullopt, detail::openai_impl::http_failure(response)};
    return detail::openai_impl::read_completion(response);
}

AGENTRY_DECL openai::stream openai::start_stream(stream_events events) const {
    return stream(std::move(events), http.limits.max_event);
}

namespace detail {

AGENTRY_DECL void openai_stream::feed(std::string_view bytes) {
    if (stopped()) return;
    parser_.feed(bytes, [this](const sse_event& e) { on_event(e); });
}

AGENTRY_DECL turn_result openai_stream::finish(const http_response& head) {
    namespace impl = openai_impl;
    if (head.status != 0 && (head.status < 200 || head.status > 299))
        return {std::nullopt, impl::http_failure(head)};
    if (parser_.overflowed())
        return {std::nullopt, too_large("an OpenAI stream event or line", parser_.max_event(), "max_event")};
    if (!unreadable_.empty()) return {std::nullopt, malformed(std::move(unreadable_))};
    if (error_) return {std::nullopt, impl::in_band_failure(head, *error_)};
    if (!done_) {
        std::string message = "agentry: OpenAI stream ended before [DONE]";
        if (parser_.pending()) message += ", in the middle of an event";
        if (!calls_.empty()) message += "; its tool calls were not returned";
        return {std::nullopt, malformed(std::move(message))};
    }
    if (events_.on_tool_arguments && finish_ != "length")  // blank arguments become {} (kept unless cut off)
        for (const partial& p : calls_)
            if (p.announced && p.given == 0) events_.on_tool_arguments(p.announced_id, "{}");
    completion c;
    c.reply.text = std::move(text_);
    c.refusal = std::move(refusal_);
    c.usage = usage_;
    std::vector<tool_call> calls;
    calls.reserve(calls_.size());
    for (partial& p : calls_) calls.push_back({std::move(p.id), std::move(p.name), std::move(p.arguments), {}});
    calls_.clear();
    impl::conclude(c, finish_, std::move(calls));
    if (auto bad = settle_tool_calls("OpenAI stream", c.reply.tool_calls))
        return {std::nullopt, malformed(std::move(*bad))};
    return {std::move(c), {}};
}

AGENTRY_DECL void openai_stream::on_event(const sse_event& e) {
    namespace wire = openai_wire;
    namespace impl = openai_impl;
    if (stopped()) return;
    ++event_count_;
    const std::string_view data = trim_space(e.data);
    if (data == "[DONE]") {
        done_ = true;
        return;
    }
    if (data.empty()) return;
    auto parsed = json::read<wire::body_in>(data, wire_read_options);
    if (!parsed.ok()) {
        if (e.name == "error") {
            error_.emplace();
            error_->present = true;
            error_->message.assign(data);
            return;
        }
        unreadable_ = "agentry: OpenAI stream: event " + std::to_string(event_count_) +
                      " is not a chat completion chunk: " + first_error(parsed.errors);
        return;
    }
    wire::body_in& chunk = parsed.value;
    if (impl::error_fields f = impl::error_of(chunk, e.name == "error"); f.present) {
        if (f.message.empty()) f.message.assign(data);
        error_ = std::move(f);
        return;
    }
    impl::add_usage(usage_, chunk.usage);
    if (!chunk.choices) return;
    for (wire::choice_in& choice : *chunk.choices) {
        if (choice.index.value_or(0) != 0) continue;
        if (choice.delta) on_delta(*choice.delta);
        if (choice.finish_reason) finish_ = std::move(*choice.finish_reason);
    }
}

AGENTRY_DECL void openai_stream::on_delta(openai_wire::message_in& d) {
    if (d.content && !d.content->empty()) {
        text_ += *d.content;
        if (events_.on_text) events_.on_text(*d.content);
    }
    if (d.refusal) refusal_ += *d.refusal;
    if (d.tool_calls)
        for (auto& call : *d.tool_calls) {
            std::string_view id = call.id ? std::string_view(*call.id) : std::string_view{};
            std::string_view name;
            std::string arguments;
            if (call.function) {
                if (call.function->name) name = *call.function->name;
                arguments = plain_text(call.function->arguments);
            }
            merge(call.index, id, name, arguments);
        }
    if (d.function_call) {
        const auto& name = d.function_call->name;
        merge(std::nullopt, {}, name ? std::string_view(*name) : std::string_view{},
              plain_text(d.function_call->arguments));
    }
}

AGENTRY_DECL openai_stream::partial& openai_stream::target(std::optional<std::int64_t> index, std::string_view id,
                                                        std::string_view name) {
    partial* found = nullptr;
    if (index) {
        for (auto it = calls_.rbegin(); it != calls_.rend(); ++it)
            if (it->index == index) {
                found = &*it;
                break;
            }
        if (found) {
            const bool other_id = !id.empty() && !found->id.empty() && id != found->id && !name.empty();
            const bool other_name = !name.empty() && !found->name.empty() && name != found->name;
            if (other_id || other_name) found = nullptr;
        }
    } else {
        if (!id.empty())
            for (partial& p : calls_)
                if (p.id == id) found = &p;
        if (!found && id.empty() && name.empty() && !calls_.empty()) found = &calls_.back();
    }
    if (found) return *found;
    partial& p = calls_.emplace_back();
    p.index = index;
    return p;
}

AGENTRY_DECL void openai_stream::merge(std::optional<std::int64_t> index, std::string_view id, std::string_view name,
                                       std::string_view arguments) {
    partial& p = target(index, id, name);
    if (p.id.empty()) p.id.assign(id);
    if (p.name.empty()) p.name.assign(name);
    if (!p.announced && !p.name.empty()) {
        p.announced = true;
        p.announced_id = p.id;
        if (events_.on_tool_call) events_.on_tool_call(p.id, p.name);
    }
    if (arguments.empty()) {
        give(p);  // arguments that came before the name
        return;
    }
    // The arguments only grow, each delta extending the text so far, so that the pieces given
    // join to the final text: a delta that does not start with the text so far is the next
    // piece (even from a server that sent the whole text before), never a replacement.
    if (p.arguments.empty()) {
        p.arguments.assign(arguments);
    } else if (!arguments.starts_with(p.arguments)) {
        p.arguments.append(arguments);
        p.mode = sending::pieces;
    } else if (p.mode != sending::pieces) {
        // The whole arguments so far, sent again with more: keep the longer text.
        p.arguments.assign(arguments);
        p.mode = sending::whole;
    } else if (arguments.size() != p.arguments.size()) {
        // A server that sent pieces so far: a piece that repeats the text before it
        // ({"a": then {"a":1}}), unless it is that text exactly (the whole call again).
        p.arguments.append(arguments);
    }
    give(p);
}

AGENTRY_DECL void openai_stream::give(partial& p) {
    if (!p.announced || !events_.on_tool_arguments || p.given == p.arguments.size()) return;
    if (p.arguments.find_first_not_of(" \t\r\n") == std::string::npos) return;
    const std::size_t from = p.given;
    p.given = p.arguments.size();
    events_.on_tool_arguments(p.announced_id, std::string_view(p.arguments).substr(from));
}

} // namespace detail

} // namespace agentry

#endif
