// SPDX-License-Identifier: BSL-1.0
#ifndef AGENTRY_PROVIDER_DETAIL_OPENAI_REQUEST_HPP
#define AGENTRY_PROVIDER_DETAIL_OPENAI_REQUEST_HPP

// Building a Chat Completions request body from a chat_request (agentry::openai::request adds
// the URL, headers and options).

#include <agentry/json/writer.hpp>
#include <agentry/provider/detail/openai_wire.hpp>
#include <agentry/provider/detail/tool_content.hpp>
#include <agentry/provider/detail/wire_common.hpp>
#include <agentry/provider/message.hpp>
#include <agentry/schema/raw_json.hpp>

#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <variant>
#include <vector>

namespace agentry::detail::openai_impl {

/// The error for a request Chat Completions cannot carry: a tool result holding anything but
/// text (a tool message takes text parts only).
inline std::optional<provider_error> refusal(const chat_request& r) {
    const auto found = first_uncarried(r.messages, [](content_kind k) { return k == content_kind::text; });
    if (!found) return std::nullopt;
    const std::string_view fix = found->kind == content_kind::image
                                     ? "use agentry::openai_responses, anthropic or gemini for tools that return "
                                       "images, or return text"
                                     : "return text instead";
    return content_refusal("openai: Chat Completions takes only text in a tool message", *found, fix);
}

/// The JSON body for `r` to `model`; `legacy_max_tokens`: max_tokens is sent as "max_tokens"
/// rather than "max_completion_tokens"; `prompt_cache_key`: sent when not empty. A tool result
/// of content blocks goes as the texts of its blocks joined (refusal() turns away those with
/// other blocks, which a request built without it leaves out).
inline std::string request_body(const chat_request& r, std::string_view model, bool legacy_max_tokens,
                                std::string_view prompt_cache_key = {}) {
    namespace wire = openai_wire;
    wire::request_body body;
    body.model = model;
    body.messages.reserve(r.messages.size());
    // The joined texts of content-block results, which the body's string_views point into.
    std::vector<std::string> joined;
    joined.reserve(r.messages.size());
    for (const message& m : r.messages) {
        wire::message_out out;
        out.content = std::string_view(m.text);
        switch (m.role) {
        case role::system: out.role = "system"; break;
        case role::user: out.role = "user"; break;
        case role::assistant:
            out.role = "assistant";
            if (!m.tool_calls.empty()) {
                std::vector<wire::tool_call_out> calls;
                calls.reserve(m.tool_calls.size());
                for (const tool_call& c : m.tool_calls) calls.push_back({c.id, "function", {c.name, c.arguments}});
                out.tool_calls = std::move(calls);
                if (m.text.empty()) out.content = std::monostate{};
            }
            break;
        case role::tool:
            out.role = "tool";
            out.tool_call_id = std::string_view(m.tool_call_id);
            if (const auto items = content_items(m))
                out.content = std::string_view(joined.emplace_back(joined_text(*items)));
            break;
        }
        body.messages.push_back(std::move(out));
    }
    const std::string_view tools = trim_space(r.tools);
    if (!tools.empty() && tools != "[]") {
        body.tools = raw_json(std::string(tools));
        switch (r.tool_choice.kind) {
        case tool_choice_kind::automatic: break;
        case tool_choice_kind::none: body.tool_choice = std::string_view("none"); break;
        case tool_choice_kind::required: body.tool_choice = std::string_view("required"); break;
        case tool_choice_kind::one:
            body.tool_choice = wire::named_tool_choice{"function", {r.tool_choice.name}};
            break;
        }
        body.parallel_tool_calls = r.parallel_tool_calls;
    }
    if (r.max_tokens) {
        if (legacy_max_tokens) body.max_tokens = r.max_tokens;
        else body.max_completion_tokens = r.max_tokens;
    }
    body.temperature = r.temperature;
    if (r.output) {
        wire::json_schema_out format{r.output->name, raw_json(std::string(r.output->schema)), std::nullopt};
        if (r.output->strict) format.strict = true;
        body.response_format = wire::response_format_out{"json_schema", std::move(format)};
    }
    if (!prompt_cache_key.empty()) body.prompt_cache_key = prompt_cache_key;
    if (r.stream) {
        body.stream = true;
        body.stream_options = wire::stream_options_out{true};
    }

    std::string text;
    json::write(text, body, {.omit_empty_optionals = true});
    return text;
}

} // namespace agentry::detail::openai_impl

#endif
