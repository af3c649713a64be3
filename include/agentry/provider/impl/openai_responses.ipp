// SPDX-License-Identifier: BSL-1.0
#ifndef AGENTRY_PROVIDER_IMPL_OPENAI_RESPONSES_IPP
#define AGENTRY_PROVIDER_IMPL_OPENAI_RESPONSES_IPP

// The definitions of agentry::openai_responses and its stream reader: included by
// provider/openai_responses.hpp (header-only) or by provider/src.hpp (separate compilation).

#include <agentry/detail/separate.hpp>
#include <agentry/json/impl/src.ipp>
#include <agentry/json/reader.hpp>
#include <agentry/provider/detail/openai_errors.hpp>
#include <agentry/provider/detail/responses_request.hpp>
#include <agentry/provider/detail/responses_response.hpp>
#include <agentry/provider/detail/responses_wire.hpp>
#include <agentry/provider/detail/sse.hpp>
#include <agentry/provider/detail/wire_common.hpp>
#include <agentry/provider/impl/turn.ipp>
#include <agentry/provider/message.hpp>
#include <agentry/provider/openai_responses.hpp>
#include <agentry/provider/provider.hpp>
#include <agentry/transport/transport.hpp>

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace agentry {

AGENTRY_DECL http_request openai_responses::request(const chat_request& r) const {
    const std::string key = api_key.empty() ? detail::environment("OPENAI_API_KEY") : api_key;
    http_request out = detail::start_request(http, default_base_url, "/responses",
                                             {{"Content-Type", "application/json"},
                                              {"Accept", r.stream ? "text/event-stream" : "application/json"},
                                              {"Authorization", key.empty() ? std::string{} : "Bearer " + key}},
                                             r.cancel);
    detail::responses_impl::body_settings settings;
    settings.model = model;
    settings.stateless = state == reasoning_state::stateless;
    settings.reasoning_effort = reasoning_effort;
    settings.reasoning_summary = reasoning_summary;
    settings.prompt_cache_key = prompt_cache_key;
    out.body = detail::responses_impl::request_body(r, settings);
    detail::append_members(out.body, extra_body);
    return out;
}

AGENTRY_DECL turn_result openai_responses::parse(const http_response& response) const {
    if (response.status < 200 || response.status > 299)
        return {std::nullopt, detail::responses_impl::failure_of(response)};
    return detail::responses_impl::read_response(response, state == reasoning_state::previous_response);
}

AGENTRY_DECL openai_responses::stream openai_responses::start_stream(stream_events events) const {
    return stream(std::move(events), state == reasoning_state::previous_response, http.limits.max_event);
}

AGENTRY_DECL std::optional<provider_error> openai_responses::refuse(const chat_request& r) const {
    std::optional<std::string> why = detail::responses_impl::refusal_of(r);
    if (!why) return std::nullopt;
    return detail::refused(std::move(*why));
}

AGENTRY_DECL void openai_responses::stream::feed(std::string_view bytes) {
    if (stopped()) return;
    parser_.feed(bytes, [this](const detail::sse_event& e) { on_event(e); });
}

AGENTRY_DECL openai_responses::stream::call_state& openai_responses::stream::call_for(std::string_view item_id,
                                                                                     std::string_view call_id) {
    for (call_state& c : calls_)
        if (item_id.empty() ? !call_id.empty() && c.call_id == call_id : c.item_id == item_id) return c;
    calls_.push_back({std::string(item_id), std::string(call_id), {}, false, false});
    return calls_.back();
}

AGENTRY_DECL void openai_responses::stream::announce(call_state& call) {
    if (call.announced || call.name.empty()) return;
    call.announced = true;
    if (events_.on_tool_call) events_.on_tool_call(call.call_id, call.name);
}

AGENTRY_DECL void openai_responses::stream::on_event(const detail::sse_event& e) {
    namespace wire = detail::responses_wire;
    if (stopped()) return;
    ++event_count_;
    const std::string_view data = detail::trim_space(e.data);
    if (data.empty()) return;
    std::string type = e.name;
    if (type.empty()) {
        auto head = json::read<wire::event_type_in>(data, detail::wire_read_options);
        if (!head.ok()) {
            malformed_ = "agentry: OpenAI Responses stream: event " + std::to_string(event_count_) +
                         " is not a JSON object: " + detail::first_error(head.errors);
            return;
        }
        type = head.value.type.value_or(std::string{});
    }
    static constexpr std::string_view read_events[] = {
        "response.output_item.added", "response.function_call_arguments.delta", "response.output_text.delta",
        "response.output_item.done",  "response.completed",                     "response.incomplete",
        "response.failed",            "error",
    };
    if (std::find(std::begin(read_events), std::end(read_events), type) == std::end(read_events)) return;
    auto parsed = json::read<wire::event_in>(data, detail::wire_read_options);
    if (!parsed.ok()) {
        malformed_ = "agentry: OpenAI Responses stream: event " + std::to_string(event_count_) + " (" + type +
                     ") is unreadable: " + detail::first_error(parsed.errors);
        return;
    }
    wire::event_in& ev = parsed.value;
    const auto missing = [&](std::string_view what) {
        malformed_ = "agentry: OpenAI Responses stream: event " + std::to_string(event_count_) + " (" + type +
                     ") has no " + std::string(what);
    };
    if (type == "response.output_text.delta") {
        if (ev.delta && !ev.delta->empty() && events_.on_text) events_.on_text(*ev.delta);
    } else if (type == "response.output_item.added" || type == "response.output_item.done") {
        if (!ev.item) return missing("item");
        auto item = json::read<wire::item_in>(ev.item->text(), detail::wire_read_options);
        if (!item.ok()) {
            malformed_ = "agentry: OpenAI Responses stream: the item of event " + std::to_string(event_count_) + " (" +
                         type + ") is unreadable: " + detail::first_error(item.errors);
            return;
        }
        if (type == "response.output_item.done") {
            if (!ev.output_index) return missing("output_index");
            items_.emplace_back(*ev.output_index, std::move(ev.item->text()));
        }
        if (item.value.type != "function_call") return;
        const std::string call_id = item.value.call_id.value_or(std::string{});
        call_state& call = call_for(item.value.id.value_or(std::string{}), call_id);
        if (call.call_id.empty()) call.call_id = call_id;
        if (call.name.empty()) call.name = item.value.name.value_or(std::string{});
        announce(call);
        if (type == "response.output_item.done" && call.announced && !call.pieces) {
            // No deltas came for this call: its arguments whole, as one piece.
            const std::string arguments = detail::plain_text(item.value.arguments);
            call.pieces = true;
            if (!arguments.empty() && events_.on_tool_arguments) events_.on_tool_arguments(call.call_id, arguments);
        }
    } else if (type == "response.function_call_arguments.delta") {
        if (!ev.item_id) return missing("item_id");
        call_state& call = call_for(*ev.item_id, {});
        if (!call.announced || !ev.delta || ev.delta->empty()) return;
        call.pieces = true;
        if (events_.on_tool_arguments) events_.on_tool_arguments(call.call_id, *ev.delta);
    } else if (type == "error") {
        std::optional<std::string> message = std::move(ev.message);
        std::optional<raw_json> code = std::move(ev.code);
        std::optional<raw_json> error_type;
        if (ev.error) {
            if (!message) message = std::move(ev.error->message);
            if (!code) code = std::move(ev.error->code);
            error_type = std::move(ev.error->type);
        }
        error_ = detail::responses_impl::error_fields_of(std::move(message), error_type, code);
        if (error_->message.empty()) error_->message.assign(data);
    } else {
        if (!ev.response) return missing("response");
        final_ = std::move(ev.response->text());
        done_ = true;
    }
}

AGENTRY_DECL turn_result openai_responses::stream::finish(const http_response& head) {
    namespace wire = detail::responses_wire;
    namespace impl = detail::responses_impl;
    constexpr std::string_view source = "OpenAI Responses stream";
    if (head.status != 0 && (head.status < 200 || head.status > 299)) return {std::nullopt, impl::failure_of(head)};
    if (parser_.overflowed())
        return {std::nullopt, detail::too_large("an OpenAI Responses stream event or line", parser_.max_event(), "max_event")};
    const bool cut_event = parser_.pending();
    const bool read_before = !stopped();
    if (read_before && cut_event)  // the last event may lack its blank line
        parser_.feed("\n\n", [this](const detail::sse_event& e) { on_event(e); });
    if (error_) return {std::nullopt, impl::reported_failure(head, *error_)};
    // An event cut off at the end is no event: the stream ended early.
    if (malformed_ && !(read_before && cut_event && !done_))
        return {std::nullopt, detail::malformed(std::move(*malformed_))};
    if (!done_) {
        std::string message = "agentry: OpenAI Responses stream ended before response.completed, "
                              "response.incomplete or response.failed";
        if (cut_event) message += ", in the middle of an event";
        if (!calls_.empty()) message += "; its tool calls were not returned";
        return {std::nullopt, detail::malformed(std::move(message))};
    }
    auto response = json::read<wire::response_in>(final_, detail::wire_read_options);
    if (!response.ok())
        return {std::nullopt, detail::malformed("agentry: " + std::string(source) +
                                                ": the final response is unreadable: " + detail::first_error(response.errors))};
    // The final items: those of response.output_item.done, by output_index; the final
    // response's own for an index no such event gave.
    std::map<std::int64_t, std::string_view> by_index;
    if (response.value.output)
        for (std::size_t i = 0; i != response.value.output->size(); ++i)
            by_index[std::int64_t(i)] = (*response.value.output)[i].text();
    for (const auto& [index, text] : items_) by_index[index] = text;
    std::vector<std::string_view> items;
    items.reserve(by_index.size());
    for (const auto& [index, text] : by_index) items.push_back(text);
    return impl::conclude(head, response.value, items, keep_id_, source);
}

} // namespace agentry

#endif
