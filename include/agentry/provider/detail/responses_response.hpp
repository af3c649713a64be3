// SPDX-License-Identifier: BSL-1.0
#ifndef AGENTRY_PROVIDER_DETAIL_RESPONSES_RESPONSE_HPP
#define AGENTRY_PROVIDER_DETAIL_RESPONSES_RESPONSE_HPP

// Reading a Responses response object into a turn_result: the output items (a whole response's
// `output`, or a stream's response.output_item.done items), its status and usage, and its
// errors, typed as Chat Completions' are (detail/openai_errors.hpp). The parts written are
// those detail/responses_request.hpp sends back.

#include <agentry/json/reader.hpp>
#include <agentry/json/writer.hpp>
#include <agentry/provider/detail/openai_errors.hpp>
#include <agentry/provider/detail/openai_stream.hpp>
#include <agentry/provider/detail/responses_request.hpp>
#include <agentry/provider/detail/responses_wire.hpp>
#include <agentry/provider/detail/tool_calls.hpp>
#include <agentry/provider/detail/wire_common.hpp>
#include <agentry/provider/message.hpp>
#include <agentry/provider/provider.hpp>
#include <agentry/transport/transport.hpp>

#include <cstddef>
#include <cstdint>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace agentry::detail::responses_impl {

/// The error fields of a Responses error object (a failed response's `error`, an error event).
/// A failed response's codes name no HTTP status: those that are not the server's fault
/// (invalid_prompt, the image codes, ...) are typed as a bad request.
inline openai_impl::error_fields error_fields_of(std::optional<std::string> message, const std::optional<raw_json>& type,
                                                 const std::optional<raw_json>& code) {
    openai_impl::error_fields f;
    f.present = true;
    f.message = std::move(message).value_or(std::string{});
    f.type = plain_text(type);
    openai_impl::read_code(f, code);
    if (f.type.empty() && f.numeric_code == 0 && !f.code.empty() && f.code != "rate_limit_exceeded" &&
        f.code != "insufficient_quota")
        f.type = f.code == "server_error" || f.code == "vector_store_timeout" ? "server_error" : "invalid_request_error";
    return f;
}

/// `e` with a hint added when it is the failure of a reasoning item sent by id alone.
inline provider_error with_hint(provider_error e) {
    if (e.kind == provider_error_kind::bad_request && e.message.find("Item with id 'rs_") != std::string::npos &&
        e.message.find("not found") != std::string::npos)
        e.message += " (agentry: the reasoning item was sent by its id without its encrypted content, and the server "
                     "did not store it; use reasoning_state::stateless, which sends store:false and asks for "
                     "reasoning.encrypted_content, or reasoning_state::previous_response)";
    return e;
}

/// The typed error of a non-2xx response.
inline provider_error failure_of(const http_response& r) { return with_hint(openai_impl::http_failure(r)); }

inline provider_error reported_failure(const http_response& head, const openai_impl::error_fields& f) {
    return with_hint(openai_impl::in_band_failure(head, f));
}

inline token_usage usage_of(const std::optional<wire::usage_in>& u) {
    token_usage out;
    if (!u) return out;
    out.input_tokens = u->input_tokens.value_or(0);
    out.output_tokens = u->output_tokens.value_or(0);
    if (u->input_tokens_details) {
        out.cached_input_tokens = u->input_tokens_details->cached_tokens.value_or(0);
        out.cache_write_tokens = u->input_tokens_details->cache_write_tokens.value_or(0);
    }
    if (u->output_tokens_details) out.reasoning_tokens = u->output_tokens_details->reasoning_tokens.value_or(0);
    return out;
}

/// A JSON string holding `text`.
inline std::string json_string(std::string_view text) {
    std::string out;
    json::write(out, text);
    return out;
}

/// The turn of response `r` whose output items are `items` (each an item's JSON text as
/// received); `keep_id`: the response's id becomes a response_id part. `source` names what was
/// read in messages ("OpenAI Responses response", "... stream").
inline turn_result conclude(const http_response& head, wire::response_in& r, std::span<const std::string_view> items,
                            bool keep_id, std::string_view source) {
    const std::string status = r.status.value_or(std::string{});
    if (r.error || status == "failed") {
        openai_impl::error_fields f =
            r.error ? error_fields_of(std::move(r.error->message), r.error->type, r.error->code)
                    : error_fields_of(std::nullopt, std::nullopt, std::nullopt);
        if (f.message.empty()) f.message = "the response failed without an error message";
        return {std::nullopt, reported_failure(head, f)};
    }
    std::vector<wire::item_in> read;
    read.reserve(items.size());
    for (std::size_t i = 0; i != items.size(); ++i) {
        auto item = json::read<wire::item_in>(items[i], wire_read_options);
        if (!item.ok())
            return {std::nullopt, malformed("agentry: " + std::string(source) + ": output item " + std::to_string(i) +
                                            " is unreadable: " + first_error(item.errors))};
        read.push_back(std::move(item.value));
    }
    completion c;
    const std::string reason =
        r.incomplete_details ? r.incomplete_details->reason.value_or(std::string{}) : std::string{};
    const bool cut = status == "incomplete" && reason == "max_output_tokens";
    // The calls, without those cut off by the output limit.
    std::vector<bool> kept;
    for (const wire::item_in& item : read)
        if (item.type == "function_call") {
            const bool whole = !cut || is_json(plain_text(item.arguments));
            c.incomplete_tool_call = c.incomplete_tool_call || !whole;
            kept.push_back(whole);
        }
    std::vector<provider_part> parts;
    std::size_t call = 0;
    bool text_before = false;
    for (std::size_t i = 0; i != read.size(); ++i) {
        wire::item_in& item = read[i];
        const std::size_t calls = c.reply.tool_calls.size();
        if (item.type == "reasoning") {
            const std::uint32_t position = provider_part::position_after(calls, text_before);
            parts.push_back({std::string(provider_name), "reasoning", std::string(items[i]), position});
        } else if (item.type == "message" && item.content) {
            for (wire::content_in& part : *item.content) {
                if (part.type == "output_text") c.reply.text += part.text.value_or(std::string{});
                else if (part.type == "refusal") c.refusal += part.refusal.value_or(std::string{});
            }
            text_before = true;
        } else if (item.type == "tool_search_call" && item.execution != "server") {
            parts.push_back({std::string(provider_name), "tool_search_call", std::string(items[i]),
                             std::uint32_t(calls + 1)});
            c.reply.tool_calls.push_back({std::move(item.call_id).value_or(std::string{}), std::string(tool_search_name),
                                          plain_text(item.arguments), {}});
        } else if (item.type == "function_call") {
            if (!kept[call++]) continue;
            if (item.id && !item.id->empty())
                parts.push_back({std::string(provider_name), "function_call_id", json_string(*item.id),
                                 std::uint32_t(calls + 1)});
            c.reply.tool_calls.push_back({std::move(item.call_id).value_or(std::string{}),
                                          std::move(item.name).value_or(std::string{}), plain_text(item.arguments), {}});
        }
    }
    if (keep_id && r.id && !r.id->empty())
        parts.push_back({std::string(provider_name), "response_id", json_string(*r.id), 0});
    if (!parts.empty()) c.reply.parts = std::move(parts);
    c.usage = usage_of(r.usage);
    if (status == "incomplete") {
        c.provider_finish = reason.empty() ? status : reason;
        if (cut) c.finish = finish_reason::max_tokens;
        else if (reason == "content_filter") c.finish = finish_reason::content_filter;
        else c.finish = finish_reason::other;
    } else {
        c.provider_finish = status;
        if (!c.reply.tool_calls.empty()) c.finish = finish_reason::tool_calls;
        else if (!c.refusal.empty()) c.finish = finish_reason::refusal;
        else if (status.empty() || status == "completed") c.finish = finish_reason::stop;
        else c.finish = finish_reason::other;
    }
    if (auto bad = settle_tool_calls(source, c.reply.tool_calls)) return {std::nullopt, malformed(std::move(*bad))};
    return {std::move(c), {}};
}

/// A whole response.
inline turn_result read_response(const http_response& response, bool keep_id) {
    constexpr std::string_view source = "OpenAI Responses response";
    const std::string_view text = trim_space(response.body);
    if (text.empty() || text.front() != '{')
        return {std::nullopt, malformed("agentry: " + std::string(source) + " is not a JSON object: " +
                                        std::string(text.substr(0, 60)) + (text.size() > 60 ? "..." : ""))};
    auto parsed = json::read<wire::response_in>(response.body, wire_read_options);
    if (!parsed.ok())
        return {std::nullopt,
                malformed("agentry: " + std::string(source) + " is not a response object: " + first_error(parsed.errors))};
    std::vector<std::string_view> items;
    if (parsed.value.output)
        for (const raw_json& item : *parsed.value.output) items.push_back(item.text());
    return conclude(response, parsed.value, items, keep_id, source);
}

} // namespace agentry::detail::responses_impl

#endif
