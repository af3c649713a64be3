// SPDX-License-Identifier: BSL-1.0
#ifndef AGENTRY_PROVIDER_DETAIL_OPENAI_RESPONSE_HPP
#define AGENTRY_PROVIDER_DETAIL_OPENAI_RESPONSE_HPP

// Reading OpenAI's answers: a whole chat.completion (read_completion), and the assembler of a
// streamed one (openai_stream, which agentry::openai::stream names). Tool calls follow the
// rule of detail/tool_calls.hpp; errors in the body or stream are typed by openai_errors.hpp.

#include <agentry/json/reader.hpp>
#include <agentry/provider/detail/openai_errors.hpp>
#include <agentry/provider/detail/openai_wire.hpp>
#include <agentry/provider/detail/sse.hpp>
#include <agentry/provider/detail/tool_calls.hpp>
#include <agentry/provider/detail/wire_common.hpp>
#include <agentry/provider/message.hpp>
#include <agentry/provider/provider.hpp>
#include <agentry/transport/transport.hpp>

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace agentry::detail {

namespace openai_impl {

/// Sets finish, provider_finish and the tool calls; with "length", drops calls whose
/// arguments were cut off.
inline void conclude(completion& c, std::string_view finish, std::vector<tool_call> calls) {
    c.provider_finish.assign(finish);
    if (finish == "length") {
        const auto cut = std::remove_if(calls.begin(), calls.end(),
                                        [](const tool_call& call) { return !is_json(call.arguments); });
        c.incomplete_tool_call = cut != calls.end();
        calls.erase(cut, calls.end());
    }
    const bool has_calls = !calls.empty();
    c.reply.tool_calls = std::move(calls);
    if (finish == "length") c.finish = finish_reason::max_tokens;
    else if (finish == "content_filter") c.finish = finish_reason::content_filter;
    else if (has_calls) c.finish = finish_reason::tool_calls;
    else if (!c.refusal.empty()) c.finish = finish_reason::refusal;
    else if (finish.empty() || finish == "stop" || finish == "tool_calls" || finish == "function_call")
        c.finish = finish_reason::stop;
    else c.finish = finish_reason::other;
}

inline void add_usage(token_usage& usage, const std::optional<wire::usage_in>& u) {
    if (!u) return;
    if (u->prompt_tokens) usage.input_tokens = *u->prompt_tokens;
    if (u->completion_tokens) usage.output_tokens = *u->completion_tokens;
}

inline turn_result read_completion(const http_response& r) {
    const std::string_view text = trim_space(r.body);
    if (text.empty()) return {std::nullopt, detail::malformed("agentry: OpenAI response: the body is empty")};
    if (text.front() != '{')
        return {std::nullopt, detail::malformed("agentry: OpenAI response is not a JSON object: " +
                                                std::string(text.substr(0, 60)) + (text.size() > 60 ? "..." : ""))};
    auto parsed = json::read<wire::body_in>(r.body, wire_read_options);
    if (!parsed.ok())
        return {std::nullopt,
                detail::malformed("agentry: OpenAI response is not a chat completion: " + first_error(parsed.errors))};
    wire::body_in& body = parsed.value;
    if (const error_fields f = error_of(body); f.present) return {std::nullopt, in_band_failure(r, f)};
    if (!body.choices || body.choices->empty())
        return {std::nullopt, detail::malformed("agentry: OpenAI response: no choices")};
    wire::choice_in* choice = &body.choices->front();
    for (wire::choice_in& c : *body.choices)
        if (c.index.value_or(0) == 0) {
            choice = &c;
            break;
        }
    if (!choice->message)
        return {std::nullopt, detail::malformed("agentry: OpenAI response: the choice has no message")};
    wire::message_in& m = *choice->message;
    completion c;
    c.reply.text = std::move(m.content).value_or(std::string{});
    c.refusal = std::move(m.refusal).value_or(std::string{});
    std::vector<tool_call> calls;
    if (m.tool_calls) {
        calls.reserve(m.tool_calls->size());
        for (wire::tool_call_in& in : *m.tool_calls) {
            tool_call call;
            call.id = std::move(in.id).value_or(std::string{});
            if (in.function) {
                call.name = std::move(in.function->name).value_or(std::string{});
                call.arguments = plain_text(in.function->arguments);
            }
            calls.push_back(std::move(call));
        }
    }
    if (calls.empty() && m.function_call)
        calls.push_back({{}, std::move(m.function_call->name).value_or(std::string{}), plain_text(m.function_call->arguments), {}});
    add_usage(c.usage, body.usage);
    conclude(c, choice->finish_reason.value_or(std::string{}), std::move(calls));
    if (auto bad = settle_tool_calls("OpenAI response", c.reply.tool_calls)) return {std::nullopt, detail::malformed(std::move(*bad))};
    return {std::move(c), {}};
}

} // namespace openai_impl

/// The assembler of a streamed Chat Completion: feed() the body in any split, then finish().
class openai_stream {
public:
    explicit openai_stream(stream_events events, std::size_t max_event = response_limits{}.max_event)
        : parser_(max_event), events_(std::move(events)) {}

    void feed(std::string_view bytes) {
        if (stopped()) return;
        parser_.feed(bytes, [this](const sse_event& e) { on_event(e); });
    }

    /// A line or an event passed max_event: nothing more is read (complete() stops the transfer).
    bool overflowed() const noexcept { return parser_.overflowed(); }

    turn_result finish(const http_response& head) {
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

private:
    // How a server sends a call's arguments, once known: each delta the next piece, or the
    // whole text so far.
    enum class sending { unknown, pieces, whole };

    struct partial {
        std::optional<std::int64_t> index;
        std::string id;
        std::string name;
        std::string arguments;
        bool announced = false;
        sending mode = sending::unknown;
    };

    bool stopped() const noexcept { return done_ || error_ || !unreadable_.empty() || parser_.overflowed(); }

    void on_event(const sse_event& e) {
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

    void on_delta(openai_wire::message_in& d) {
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

    // The call a delta belongs to, a new one when it starts one.
    partial& target(std::optional<std::int64_t> index, std::string_view id, std::string_view name) {
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
        calls_.push_back({index, {}, {}, {}, false, sending::unknown});
        return calls_.back();
    }

    void merge(std::optional<std::int64_t> index, std::string_view id, std::string_view name,
               std::string_view arguments) {
        partial& p = target(index, id, name);
        if (p.id.empty()) p.id.assign(id);
        if (p.name.empty()) p.name.assign(name);
        if (!p.announced && !p.name.empty()) {
            p.announced = true;
            if (events_.on_tool_call) events_.on_tool_call(p.id, p.name);
        }
        if (arguments.empty()) return;
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
    }

    sse_parser parser_;
    stream_events events_;
    std::vector<partial> calls_;
    std::string text_;
    std::string refusal_;
    std::string finish_;
    token_usage usage_;
    std::optional<openai_impl::error_fields> error_;
    std::string unreadable_;
    std::size_t event_count_ = 0;
    bool done_ = false;
};

} // namespace agentry::detail

#endif
