// SPDX-License-Identifier: BSL-1.0
#ifndef AGENTRY_MCP_SAMPLING_PROVIDER_HPP
#define AGENTRY_MCP_SAMPLING_PROVIDER_HPP

// agentry::mcp::answer_sampling_with(provider, transport, options): a sampling_hook for
// mcp::client_options::on_sample that answers the server's sampling/createMessage with one
// turn of one of agentry's providers (openai, anthropic, gemini, ollama, scripted_model):
//
//   agentry::mcp::client_options options;
//   options.on_sample = agentry::mcp::answer_sampling_with(agentry::openai{.model = "gpt-4o-mini"},
//                                                          agentry::curl_transport{});
//   options.sampling_tools = true;   // the server may offer the model tools
//
// The request becomes one agentry::chat_request: systemPrompt a system message, each message's text
// blocks its text, an assistant's tool_use blocks its tool calls, a user's tool_result blocks
// tool messages; maxTokens and temperature; tools (each inputSchema rewritten into the
// provider's dialect) and toolChoice. An image or audio block is refused (-32602): agentry's
// messages hold text. stopSequences, includeContext and metadata are not passed on (the client
// may ignore them). The provider's reply becomes the CreateMessageResult: its text, and each tool
// call a tool_use block; stopReason endTurn, maxTokens, toolUse (or the provider's own finish
// text). Before anything, options.approve may refuse the request: -1 "User rejected sampling
// request". A failed turn answers -32603 with the provider's message.

#include <agentry/json/value.hpp>
#include <agentry/json/writer.hpp>
#include <agentry/mcp/client_requests.hpp>
#include <agentry/mcp/detail/tool_schema.hpp>
#include <agentry/mcp/toolset.hpp>
#include <agentry/provider/message.hpp>
#include <agentry/provider/provider.hpp>
#include <agentry/schema/dialect.hpp>
#include <agentry/transport/transport.hpp>

#include <concepts>
#include <cstdint>
#include <functional>
#include <memory>
#include <mutex>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace agentry::mcp {

/// How answer_sampling_with answers.
struct sampling_provider_options {
    /// Consulted first with the request's params (JSON text), so that a person can review what
    /// the server asks; false answers -1 "User rejected sampling request". Empty: every request
    /// is answered.
    std::function<bool(std::string_view params)> approve{};
    /// Use the first modelPreferences hint as the model's name (providers with a `model`
    /// member). Off: the provider's configured model, whatever the server prefers.
    bool model_from_hints = false;
    /// The result's `model` when the provider has no `model` member (scripted_model) or it is
    /// empty.
    std::string model_name = "agentry";
};

namespace detail {

/// One provider turn read from sampling/createMessage params: the conversation and the tools
/// payload the agentry::chat_request views.
struct sampling_turn {
    std::vector<agentry::message> messages;
    std::string tools;
    agentry::tool_choice choice{};
    std::optional<std::uint32_t> max_tokens;
    std::optional<double> temperature;
    /// The first modelPreferences hint; empty without one.
    std::string hint;
    /// Each offered tool's inputSchema as the server wrote it, by name.
    std::vector<std::pair<std::string, json::value>> schemas;
};

inline const json::value* member_of(const json::value& v, std::string_view key) {
    return v.is_object() ? v.find(key) : nullptr;
}
inline std::string string_member(const json::value& v, std::string_view key) {
    const json::value* m = member_of(v, key);
    return m && m->is_string() ? m->as_string() : std::string();
}

// A message's content, one block or an array of blocks, as a list of blocks.
inline std::vector<const json::value*> content_blocks(const json::value* content) {
    std::vector<const json::value*> out;
    if (!content) return out;
    if (content->is_array())
        for (const json::value& b : content->items()) out.push_back(&b);
    else out.push_back(content);
    return out;
}

inline sampling_reply sampling_refusal(std::string why) {
    return sampling_reply::fail(-32602, "agentry: mcp::answer_sampling_with: " + std::move(why));
}

// The text of a tool_result's content blocks (structuredContent without them); nothing when a
// block is not text.
inline std::optional<std::string> tool_result_text(const json::value& block) {
    std::string text;
    for (const json::value* b : content_blocks(member_of(block, "content"))) {
        if (string_member(*b, "type") != "text") return std::nullopt;
        text += string_member(*b, "text");
    }
    if (text.empty())
        if (const json::value* s = member_of(block, "structuredContent")) text = json::to_text(*s);
    return text;
}

/// Reads `params` into `turn` for a provider of dialect `kind`; the refusal (-32602) when the
/// request holds what the provider cannot be given.
inline std::optional<sampling_reply> read_sampling_turn(const json::value& params, dialect_kind kind,
                                                        const dialect_rules& rules, sampling_turn& turn) {
    if (const std::string system = string_member(params, "systemPrompt"); !system.empty())
        turn.messages.push_back(agentry::message::system(system));
    const json::value* messages = member_of(params, "messages");
    if (!messages || !messages->is_array()) return sampling_refusal("the request has no messages array");
    std::size_t n = 0;
    for (const json::value& m : messages->items()) {
        ++n;
        const std::string where = "message " + std::to_string(n);
        const std::string role = string_member(m, "role");
        if (role != "user" && role != "assistant")
            return sampling_refusal(where + " has the role \"" + agentry::detail::printable(role, 40) +
                                    "\"; a sampling message is from the user or the assistant");
        std::string text;
        std::vector<agentry::tool_call> calls;
        std::vector<agentry::message> results;
        for (const json::value* b : content_blocks(member_of(m, "content"))) {
            const std::string type = string_member(*b, "type");
            if (type == "text") {
                text += string_member(*b, "text");
            } else if (type == "tool_use" && role == "assistant") {
                const json::value* input = member_of(*b, "input");
                calls.push_back({string_member(*b, "id"), string_member(*b, "name"),
                                 input ? json::to_text(*input) : std::string("{}"), {}});
            } else if (type == "tool_result" && role == "user") {
                const std::string id = string_member(*b, "toolUseId");
                const std::optional<std::string> content = tool_result_text(*b);
                if (!content)
                    return sampling_refusal(where + " holds a tool_result (" + agentry::detail::printable(id, 100) +
                                            ") whose content is not text, which agentry's providers do not take");
                // The name of the call it answers, from the assistant's messages before it.
                std::string name;
                for (const agentry::message& earlier : turn.messages)
                    for (const agentry::tool_call& c : earlier.tool_calls)
                        if (c.id == id) name = c.name;
                const json::value* is_error = member_of(*b, "isError");
                agentry::message r = agentry::message::of(agentry::role::tool, *content);
                r.tool_call_id = id;
                r.tool_name = std::move(name);
                r.is_error = is_error && is_error->is_bool() && is_error->as_bool();
                results.push_back(std::move(r));
            } else {
                return sampling_refusal(where + " holds " + (type.empty() ? std::string("a block without a type")
                                                                          : agentry::detail::printable(type, 40)) +
                                        " content from the " + role +
                                        ", which agentry's providers do not take (text, an assistant's tool_use and a "
                                        "user's tool_result only)");
            }
        }
        if (role == "assistant") {
            turn.messages.push_back(agentry::message::assistant(std::move(text), std::move(calls)));
        } else {
            for (agentry::message& r : results) turn.messages.push_back(std::move(r));
            if (!text.empty() || results.empty()) turn.messages.push_back(agentry::message::user(std::move(text)));
        }
    }
    if (const json::value* max = member_of(params, "maxTokens"); max && max->is_number()) {
        const double v = max->as_double();
        turn.max_tokens = v <= 0 ? 1u : v >= 4294967295.0 ? 4294967295u : static_cast<std::uint32_t>(v);
    }
    if (const json::value* t = member_of(params, "temperature"); t && t->is_number()) turn.temperature = t->as_double();
    if (const json::value* p = member_of(params, "modelPreferences"))
        if (const json::value* hints = member_of(*p, "hints"); hints && hints->is_array() && !hints->items().empty())
            turn.hint = string_member(hints->items().front(), "name");
    const json::value* tools = member_of(params, "tools");
    if (!tools || !tools->is_array() || tools->items().empty()) return std::nullopt;
    std::string definitions;
    for (const json::value& t : tools->items()) {
        const std::string name = string_member(t, "name");
        if (!valid_tool_name(kind, name))
            return sampling_refusal("the tool name \"" + agentry::detail::printable(name, 100) + "\" is not valid in the " +
                                    std::string(rules.name) + " dialect");
        const json::value* schema = member_of(t, "inputSchema");
        if (!schema || !schema->is_object())
            return sampling_refusal("the tool \"" + name + "\" has no inputSchema object");
        std::string why;
        const std::optional<json::value> converted = schema_converter(kind, rules).convert(*schema, why);
        if (!converted) return sampling_refusal("the tool \"" + name + "\"'s inputSchema, " + why);
        if (!definitions.empty()) definitions += ',';
        definitions += dynamic_definition(kind, name, string_member(t, "description"), *converted);
        turn.schemas.emplace_back(name, *schema);
    }
    turn.tools = kind == dialect_kind::gemini ? R"([{"functionDeclarations":[)" + definitions + "]}]"
                                              : "[" + definitions + "]";
    if (const json::value* choice = member_of(params, "toolChoice")) {
        const std::string mode = string_member(*choice, "mode");
        if (mode == "required") turn.choice = agentry::tool_choice::required();
        else if (mode == "none") turn.choice = agentry::tool_choice::none();
    }
    return std::nullopt;
}

/// The CreateMessageResult of a provider's turn, as a sampling_reply. A tool call's arguments
/// lose the nulls a strict dialect sends for the optional properties of the tool's schema.
inline sampling_reply sampling_result(const agentry::turn_result& turn, std::string model,
                                      const std::vector<std::pair<std::string, json::value>>& schemas = {}) {
    if (!turn.ok())
        return sampling_reply::fail(-32603, "agentry: mcp::answer_sampling_with: the provider failed: " +
                                                agentry::detail::printable(turn.error.message, 500));
    const agentry::completion& c = *turn.value;
    sampling_reply reply;
    reply.model = std::move(model);
    reply.text = c.reply.text.empty() ? c.refusal : c.reply.text;
    switch (c.finish) {
    case agentry::finish_reason::stop: reply.stop_reason = "endTurn"; break;
    case agentry::finish_reason::tool_calls: reply.stop_reason = "toolUse"; break;
    case agentry::finish_reason::max_tokens: reply.stop_reason = "maxTokens"; break;
    default: reply.stop_reason = c.provider_finish.empty() ? "endTurn" : c.provider_finish; break;
    }
    if (c.reply.tool_calls.empty()) return reply;
    reply.stop_reason = "toolUse";
    std::string content = "[";
    if (!reply.text.empty()) {
        content += R"({"type":"text","text":)";
        json::write(content, json::value(reply.text));
        content += '}';
    }
    for (const agentry::tool_call& call : c.reply.tool_calls) {
        json::parsed input = json::parse(call.arguments.empty() ? std::string_view("{}") : call.arguments);
        if (input.ok() && input.value.is_object())
            for (const auto& [name, schema] : schemas)
                if (name == call.name) drop_null_optionals(input.value, schema);
        if (!input.ok() || !input.value.is_object())
            return sampling_reply::fail(-32603, "agentry: mcp::answer_sampling_with: the model's arguments for the tool \"" +
                                                    agentry::detail::printable(call.name, 100) +
                                                    "\" are not a JSON object");
        if (content.size() != 1) content += ',';
        content += R"({"type":"tool_use","id":)";
        json::write(content, json::value(call.id));
        content += R"(,"name":)";
        json::write(content, json::value(call.name));
        content += R"(,"input":)";
        content += json::to_text(input.value);
        content += '}';
    }
    reply.content = content + "]";
    return reply;
}

template <class P>
concept has_model_name = requires(P& p) {
    { p.model } -> std::convertible_to<std::string>;
    p.model = std::string();
};

} // namespace detail

/// A sampling_hook answering sampling/createMessage with one turn of `p` over `transport` (its
/// model, its dialect for the tools), as the header comment says. The hook may be called from
/// several threads: turns take the transport one at a time. Never throws but std::bad_alloc.
template <provider P, transport T>
sampling_hook answer_sampling_with(P p, T transport, sampling_provider_options options = {}) {
    struct parts {
        parts(P p, T t, sampling_provider_options o) : provider(std::move(p)), transport(std::move(t)), options(std::move(o)) {}
        P provider;
        T transport;
        sampling_provider_options options;
        std::mutex mutex;
    };
    auto shared = std::make_shared<parts>(std::move(p), std::move(transport), std::move(options));
    return [shared](std::string_view params) -> sampling_reply {
        parts& s = *shared;
        if (s.options.approve && !s.options.approve(params)) return sampling_reply::rejected();
        const json::parsed read = json::parse(params);
        if (!read.ok() || !read.value.is_object())
            return detail::sampling_refusal("the request's params are not a JSON object");
        using D = typename P::dialect;
        detail::sampling_turn turn;
        if (auto refused = detail::read_sampling_turn(read.value, D::kind, D::rules, turn)) return std::move(*refused);
        agentry::chat_request request;
        request.messages = turn.messages;
        request.tools = turn.tools;
        request.tool_choice = turn.choice;
        request.max_tokens = turn.max_tokens;
        request.temperature = turn.temperature;
        std::optional<P> chosen;
        if constexpr (detail::has_model_name<P>)
            if (s.options.model_from_hints && !turn.hint.empty()) {
                chosen.emplace(s.provider);
                chosen->model = turn.hint;
            }
        const P& provider = chosen ? *chosen : s.provider;
        std::string model = s.options.model_name;
        if constexpr (detail::has_model_name<P>)
            if (!std::string(provider.model).empty()) model = provider.model;
        agentry::turn_result result;
        {
            std::lock_guard lock(s.mutex);
            result = agentry::complete(provider, s.transport, request);
        }
        return detail::sampling_result(result, std::move(model), turn.schemas);
    };
}

} // namespace agentry::mcp

#endif
