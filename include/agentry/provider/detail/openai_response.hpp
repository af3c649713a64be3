// SPDX-License-Identifier: BSL-1.0
#ifndef AGENTRY_PROVIDER_DETAIL_OPENAI_RESPONSE_HPP
#define AGENTRY_PROVIDER_DETAIL_OPENAI_RESPONSE_HPP

// Reading OpenAI's answers: a whole chat.completion (read_completion), and the parts the
// assembler of a streamed one uses (openai_stream, defined in provider/impl/openai.ipp). Tool
// calls follow the rule of detail/tool_calls.hpp; errors in the body or stream are typed by
// openai_errors.hpp.

#include <agentry/json/reader.hpp>
#include <agentry/provider/detail/openai_errors.hpp>
#include <agentry/provider/detail/openai_stream.hpp>
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

/// `usage` with the counts `u` carries: prompt and completion tokens, and of those the cached
/// and cache-write prompt tokens (prompt_tokens_details) and the reasoning tokens
/// (completion_tokens_details); a count `u` does not carry is left as it was.
inline void add_usage(token_usage& usage, const std::optional<wire::usage_in>& u) {
    if (!u) return;
    if (u->prompt_tokens) usage.input_tokens = *u->prompt_tokens;
    if (u->completion_tokens) usage.output_tokens = *u->completion_tokens;
    if (const auto& d = u->prompt_tokens_details) {
        if (d->cached_tokens) usage.cached_input_tokens = *d->cached_tokens;
        if (d->cache_write_tokens) usage.cache_write_tokens = *d->cache_write_tokens;
    }
    if (const auto& d = u->completion_tokens_details; d && d->reasoning_tokens)
        usage.reasoning_tokens = *d->reasoning_tokens;
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

} // namespace agentry::detail

#endif
