// SPDX-License-Identifier: BSL-1.0
#ifndef AGENTRY_PROVIDER_DETAIL_RESPONSES_REQUEST_HPP
#define AGENTRY_PROVIDER_DETAIL_RESPONSES_REQUEST_HPP

// Building a Responses request body from a chat_request (agentry::openai_responses::request
// adds the URL and headers), and the requests it refuses (openai_responses::refuse).
//
// The parts of an assistant message this provider wrote (provider "openai_responses"):
//   "reasoning"         raw: a reasoning item as received; sent back verbatim where it stood
//   "function_call_id"  raw: the JSON string of a function_call item's id ("fc_..."); at
//                       position i + 1 it is the id of tool call i, sent with it so that the
//                       reasoning item before the call is paired with it
//   "response_id"       raw: the JSON string of the response's id (reasoning_state::
//                       previous_response only): the previous_response_id of the next request
//   "tool_search_call"  raw: a client-executed tool_search_call item as received; at position
//                       i + 1 tool call i (named "tool_search") is that item, sent back
//                       verbatim, and its result goes as a tool_search_output whose `tools` is
//                       the result's text (a JSON array of tool definitions; [] otherwise)

#include <agentry/json/reader.hpp>
#include <agentry/json/writer.hpp>
#include <agentry/provider/detail/responses_wire.hpp>
#include <agentry/provider/detail/tool_content.hpp>
#include <agentry/provider/detail/wire_common.hpp>
#include <agentry/provider/message.hpp>
#include <agentry/schema/raw_json.hpp>

#include <algorithm>
#include <cstddef>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <utility>
#include <variant>
#include <vector>

namespace agentry::detail::responses_impl {

namespace wire = responses_wire;

inline constexpr std::string_view provider_name = "openai_responses";
/// The name of the tool call a client-executed tool_search_call becomes.
inline constexpr std::string_view tool_search_name = "tool_search";

/// The parts of `m` of this provider and `kind`.
inline std::vector<const provider_part*> parts_of(const message& m, std::string_view kind) {
    std::vector<const provider_part*> out;
    if (m.parts)
        for (const provider_part& p : *m.parts)
            if (p.provider == provider_name && p.kind == kind) out.push_back(&p);
    return out;
}

/// The string a part's raw JSON string holds; empty when it holds none.
inline std::string string_part(const provider_part& p) {
    auto read = json::read<std::string>(p.raw, wire_read_options);
    return read.ok() ? std::move(read.value) : std::string{};
}

/// The last segment of a resource's URI, as the name of the file it is sent as.
inline std::string file_name(std::string_view uri) {
    const std::size_t slash = uri.find_last_of('/');
    std::string_view name = slash == std::string_view::npos ? uri : uri.substr(slash + 1);
    return name.empty() ? std::string("resource") : std::string(name);
}

/// The MCP content blocks of a tool result as function_call_output content, or why they cannot
/// be sent (`why` set; the blocks that can be are still returned).
inline std::vector<wire::content_out> result_content(const message& result, std::string& why) {
    std::vector<wire::content_out> out;
    std::optional<std::vector<mcp_block>> blocks = read_blocks(result.text);
    const std::string tool = "'" + result.tool_name + "' (call " + result.tool_call_id + ")";
    if (!blocks) {
        why = "agentry: openai_responses: the result of tool " + tool +
              " is marked as MCP content blocks but is not a JSON array of them; send it as text (content_blocks unset)";
        return out;
    }
    for (mcp_block& block : *blocks) {
        tool_content_wire::block_in& b = block.in;
        const std::string_view type = block.type();
        wire::content_out c;
        if (type == "text") {
            c.type = "input_text";
            c.text = std::move(b.text).value_or(std::string{});
        } else if (type == "image") {
            c.type = "input_image";
            c.image_url = "data:" + b.mimeType.value_or("image/png") + ";base64," + b.data.value_or(std::string{});
        } else if (type == "resource" && b.resource && b.resource->text) {
            c.type = "input_text";
            c.text = std::move(*b.resource->text);
        } else if (type == "resource" && b.resource && b.resource->blob) {
            c.type = "input_file";
            c.filename = file_name(b.resource->uri.value_or(std::string{}));
            c.file_data = "data:" + b.resource->mimeType.value_or("application/octet-stream") + ";base64," +
                          *b.resource->blob;
        } else if (type == "resource_link" || type == "tool_reference") {
            c.type = "input_text";
            c.text = std::move(block.raw);
        } else {
            if (why.empty())
                why = "agentry: openai_responses: the result of tool " + tool + " has a content block of type '" +
                      std::string(type) +
                      "', which a Responses function_call_output cannot carry (it takes text, images and files); "
                      "return it as text or as an embedded resource blob instead";
            continue;
        }
        out.push_back(std::move(c));
    }
    return out;
}

/// Why `r` cannot be sent, or empty.
inline std::optional<std::string> refusal_of(const chat_request& r) {
    for (const message& m : r.messages) {
        if (m.role == role::tool && m.content_blocks.value_or(false)) {
            std::string why;
            result_content(m, why);
            if (!why.empty()) return why;
        }
        for (const provider_part* p : parts_of(m, "reasoning"))
            if (!is_json_object(p->raw))
                return std::string("agentry: openai_responses: a reasoning part of an assistant message is not a JSON "
                                   "object; restore the conversation as it was saved, or remove the part");
    }
    return std::nullopt;
}

/// Per tool call of `m`, its tool_search_call item, or null for a function call.
inline std::vector<const provider_part*> search_items(const message& m) {
    std::vector<const provider_part*> out(m.tool_calls.size(), nullptr);
    for (const provider_part* p : parts_of(m, "tool_search_call"))
        if (p->position >= 1 && p->position <= m.tool_calls.size() && is_json_object(p->raw)) out[p->position - 1] = p;
    return out;
}

/// The ids of the tool search calls in `messages`.
inline std::vector<std::string> search_call_ids(std::span<const message> messages) {
    std::vector<std::string> out;
    for (const message& m : messages) {
        if (m.role != role::assistant || !m.parts) continue;
        const std::vector<const provider_part*> items = search_items(m);
        for (std::size_t i = 0; i != items.size(); ++i)
            if (items[i]) out.push_back(m.tool_calls[i].id);
    }
    return out;
}

/// The items of an assistant message: its reasoning items where they stood, its text, its calls
/// (a tool search call as the item received).
inline void assistant_items(const message& m, std::vector<wire::item_out>& input) {
    const std::vector<const provider_part*> reasoning = parts_of(m, "reasoning");
    const std::vector<const provider_part*> ids = parts_of(m, "function_call_id");
    std::vector<std::string> call_ids(m.tool_calls.size());
    for (const provider_part* p : ids)
        if (p->position >= 1 && p->position <= m.tool_calls.size()) call_ids[p->position - 1] = string_part(*p);
    const std::vector<const provider_part*> searches = search_items(m);
    const auto reasoning_at = [&](std::uint32_t position) {
        for (const provider_part* p : reasoning)
            if (p->position == position) input.emplace_back(raw_json(p->raw));
    };
    reasoning_at(0);
    if (!m.text.empty()) input.emplace_back(wire::message_out{"assistant", m.text});
    for (std::size_t i = 0; i != m.tool_calls.size(); ++i) {
        reasoning_at(std::uint32_t(i + 1));
        const tool_call& c = m.tool_calls[i];
        if (searches[i]) {
            input.emplace_back(raw_json(searches[i]->raw));
            continue;
        }
        wire::function_call_out call{"function_call", std::nullopt, c.id, c.name, c.arguments};
        if (!call_ids[i].empty()) call.id = std::move(call_ids[i]);
        input.emplace_back(std::move(call));
    }
    for (const provider_part* p : reasoning)
        if (p->position > m.tool_calls.size()) input.emplace_back(raw_json(p->raw));
}

/// The result of a call: a tool_search_output when it answers a tool search call (`search`),
/// else a function_call_output.
inline wire::item_out result_item(const message& m, bool search) {
    if (search) {
        const bool array = !m.is_error && trim_space(m.text).starts_with('[') && is_json(m.text);
        return wire::tool_search_output_out{"tool_search_output", m.tool_call_id, "client",
                                            raw_json(array ? m.text : std::string("[]"))};
    }
    wire::function_call_output_out out{"function_call_output", m.tool_call_id, std::string_view(m.text)};
    if (m.content_blocks.value_or(false)) {
        std::string why;
        std::vector<wire::content_out> content = result_content(m, why);
        if (why.empty() || !content.empty()) out.output = std::move(content);
    }
    return out;
}

/// The settings of agentry::openai_responses a body needs.
struct body_settings {
    std::string_view model;
    bool stateless = true;
    std::string_view reasoning_effort;
    std::string_view reasoning_summary;
    std::string_view prompt_cache_key;
};

/// The index of the last assistant message with a response_id part, and that id; none in
/// stateless mode.
inline std::optional<std::pair<std::size_t, std::string>> anchor(std::span<const message> messages) {
    for (std::size_t i = messages.size(); i-- != 0;) {
        if (messages[i].role != role::assistant) continue;
        const std::vector<const provider_part*> ids = parts_of(messages[i], "response_id");
        if (!ids.empty()) {
            std::string id = string_part(*ids.back());
            if (!id.empty()) return std::pair(i, std::move(id));
        }
    }
    return std::nullopt;
}

inline std::string request_body(const chat_request& r, const body_settings& s) {
    wire::request_body body;
    body.model = s.model;
    std::string instructions;
    for (const message& m : r.messages) {
        if (m.role != role::system || m.text.empty()) continue;
        if (!instructions.empty()) instructions += "\n\n";
        instructions += m.text;
    }
    if (!instructions.empty()) body.instructions = std::move(instructions);

    std::size_t first = 0;
    std::string previous;
    if (!s.stateless)
        if (auto a = anchor(r.messages)) {
            first = a->first + 1;
            previous = std::move(a->second);
            body.previous_response_id = std::string_view(previous);
        }
    const std::vector<std::string> searches = search_call_ids(r.messages);
    for (std::size_t i = first; i != r.messages.size();) {
        const message& m = r.messages[i];
        switch (m.role) {
        case role::system: break;
        case role::user: body.input.emplace_back(wire::message_out{"user", m.text}); break;
        case role::assistant: assistant_items(m, body.input); break;
        case role::tool: {
            const std::size_t end = end_of_tool_run(r.messages, i);
            for (const message* result : in_call_order(r.messages.subspan(i, end - i), calls_before(r.messages, i)))
                body.input.push_back(result_item(
                    *result, std::find(searches.begin(), searches.end(), result->tool_call_id) != searches.end()));
            i = end;
            continue;
        }
        }
        ++i;
    }

    const std::string_view tools = trim_space(r.tools);
    if (!tools.empty() && tools != "[]") {
        body.tools = raw_json(std::string(tools));
        switch (r.tool_choice.kind) {
        case tool_choice_kind::automatic: break;
        case tool_choice_kind::none: body.tool_choice = std::string_view("none"); break;
        case tool_choice_kind::required: body.tool_choice = std::string_view("required"); break;
        case tool_choice_kind::one:
            body.tool_choice = wire::named_function{"function", r.tool_choice.name};
            break;
        }
        body.parallel_tool_calls = r.parallel_tool_calls;
    }
    body.max_output_tokens = r.max_tokens;
    body.temperature = r.temperature;
    if (r.output) {
        wire::format_out format{"json_schema", r.output->name, raw_json(std::string(r.output->schema)), std::nullopt};
        if (r.output->strict) format.strict = true;
        body.text = wire::text_out{std::move(format)};
    }
    if (!s.reasoning_effort.empty() || !s.reasoning_summary.empty()) {
        wire::reasoning_out reasoning;
        if (!s.reasoning_effort.empty()) reasoning.effort = s.reasoning_effort;
        if (!s.reasoning_summary.empty()) reasoning.summary = s.reasoning_summary;
        body.reasoning = reasoning;
    }
    if (s.stateless) {
        body.include = std::vector<std::string_view>{"reasoning.encrypted_content"};
        body.store = false;
    }
    if (!s.prompt_cache_key.empty()) body.prompt_cache_key = s.prompt_cache_key;
    if (r.stream) body.stream = true;

    std::string text;
    json::write(text, body, {.omit_empty_optionals = true});
    return text;
}

} // namespace agentry::detail::responses_impl

#endif
