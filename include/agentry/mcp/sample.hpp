// SPDX-License-Identifier: BSL-1.0
#ifndef AGENTRY_MCP_SAMPLE_HPP
#define AGENTRY_MCP_SAMPLE_HPP

// agentry::mcp::sample(...): a tool (or a resource or prompt function) asks the client of the
// request being served for a completion from the client's model (MCP sampling/createMessage),
// with text messages, and gets the model's text back:
//
//   std::string summarise(const std::string& path) {
//       auto reply = agentry::mcp::sample("Summarise in one sentence:\n" + read_file(path), 200);
//       return reply.error ? reply.error->message : reply.text;
//   }
//
// A request may offer the model tools (sampling_request::tools, from a registry with
// sampling_tools(registry) or written by hand) and a tool_choice; the answer then may hold the
// model's tool uses (sample_result::tool_uses), and the conversation goes on with a user message
// of tool results (sampling_message::results). Tools are sent only to a client that declared
// `capabilities.sampling.tools` in a 2025-11-25 (or later) session.
//
// The request is sent only when the client declared `capabilities.sampling` in `initialize`;
// otherwise, or outside a request, or where the transport cannot carry it, or after the timeout
// or the served request's cancellation, the result holds a ask_error (ask.hpp).
// An answer whose content is not text (an image, audio), or a tool use when no tool was offered,
// is an invalid_answer.

#include <agentry/detail/text.hpp>
#include <agentry/json/reader.hpp>
#include <agentry/json/value.hpp>
#include <agentry/json/writer.hpp>
#include <agentry/mcp/ask.hpp>
#include <agentry/mcp/detail/server_requests.hpp>
#include <agentry/mcp/detail/tool_table.hpp>
#include <agentry/mcp/message.hpp>
#include <agentry/mcp/prompts.hpp>
#include <agentry/schema/dialect.hpp>
#include <agentry/schema/raw_json.hpp>

#include <cstddef>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace agentry::mcp {

/// A tool the client's model may use: a Tool definition of MCP.
struct sampling_tool {
    std::string name{};
    std::string description{};
    /// The JSON Schema of its arguments, a JSON object's text.
    std::string input_schema = R"({"type":"object"})";
};

/// The model's use of a tool (a `tool_use` content block).
struct sampling_tool_use {
    /// Matches the tool_result that answers it.
    std::string id{};
    std::string name{};
    /// The arguments, a JSON object's text.
    std::string input = "{}";
};

/// The result of a tool use, sent back in a user message (a `tool_result` content block, its
/// content one text block).
struct sampling_tool_result {
    /// The id of the sampling_tool_use it answers.
    std::string tool_use_id{};
    std::string text{};
    bool is_error = false;
};

/// toolChoice's mode: the model decides (auto), must use a tool (required), or must not (none).
enum class sampling_tool_mode : unsigned char { automatic, required, none };

struct sample_result;

/// One message of the conversation to complete: text from `role`, and the assistant's tool uses
/// or the user's tool results. A message with tool uses or results is sent as an array of
/// content blocks (its text, when not empty, first); MCP wants a user message of tool results
/// to hold nothing else.
struct sampling_message {
    mcp::role role = mcp::role::user;
    std::string text{};
    /// role::assistant: the model's tool uses, as an earlier answer gave them.
    std::vector<sampling_tool_use> tool_uses{};
    /// role::user: the results of the tool uses of the assistant message before it.
    std::vector<sampling_tool_result> tool_results{};

    /// The assistant message of an answer (its text and tool uses), to continue the conversation.
    static sampling_message assistant(const sample_result& answer);
    /// A user message of tool results.
    static sampling_message results(std::vector<sampling_tool_result> results) {
        return {mcp::role::user, {}, {}, std::move(results)};
    }
};

/// What the server prefers in a model; the client may ignore it. Priorities are from 0 to 1.
struct model_preferences {
    /// Substrings of model names, most preferred first ("claude-3-5-sonnet", "sonnet").
    std::vector<std::string> hints;
    std::optional<double> cost_priority;
    std::optional<double> speed_priority;
    std::optional<double> intelligence_priority;
};

/// A sampling/createMessage request.
struct sampling_request {
    std::vector<sampling_message> messages;
    /// The most tokens the model may produce (the client may produce fewer).
    std::size_t max_tokens = 1000;
    /// Sent when not empty; the client may change or omit it.
    std::string system_prompt;
    std::optional<model_preferences> preferences;
    /// Tools the model may use (`tools`); sent only to a client that declared
    /// capabilities.sampling.tools. sampling_tools(registry) lists a registry's.
    std::vector<sampling_tool> tools{};
    /// `toolChoice`; not sent when empty (the client's default is auto).
    std::optional<sampling_tool_mode> tool_choice{};
};

/// The client's completion: the model's text and tool uses, or why there is none.
struct sample_result {
    std::string text;
    /// The tools the model wants used (stop_reason "toolUse"), in its order; only when the
    /// request offered tools.
    std::vector<sampling_tool_use> tool_uses;
    /// The model that wrote it, as the client names it.
    std::string model;
    /// Why the model stopped ("endTurn", "maxTokens", ...); empty when the client did not say.
    std::string stop_reason;
    std::optional<ask_error> error;

    bool ok() const noexcept { return !error; }
};

inline sampling_message sampling_message::assistant(const sample_result& answer) {
    return {mcp::role::assistant, answer.text, answer.tool_uses, {}};
}

/// The tools of `tools` (an agentry::registry) as sampling tools: each one's name, description
/// and inputSchema as tools/list writes them (the compile-time MCP schema).
template <class Registry>
std::vector<sampling_tool> sampling_tools(const Registry&) {
    using table = detail::tool_table_of<Registry, agentry::dialect::mcp>;
    std::vector<sampling_tool> out;
    out.reserve(table::size);
    for (const std::string_view definition : table::definitions) {
        const json::parsed d = json::parse(definition);
        sampling_tool t;
        if (const json::value* v = d.value.find("name"); v && v->is_string()) t.name = v->as_string();
        if (const json::value* v = d.value.find("description"); v && v->is_string()) t.description = v->as_string();
        if (const json::value* v = d.value.find("inputSchema")) t.input_schema = json::to_text(*v);
        out.push_back(std::move(t));
    }
    return out;
}

namespace detail {

// CreateMessageResult, as far as sample reads it; a content block's other members (annotations,
// _meta, an image's data) are skipped.
struct sampled_block {
    std::string type;
    std::optional<std::string> text;
    std::optional<std::string> id;
    std::optional<std::string> name;
    std::optional<raw_json> input;
};
struct sampled_message {
    raw_json content;
    std::string model;
    std::optional<std::string> stopReason;
};

// {"type":"text","text":...} or, from 2025-11-25, an array of blocks: their texts joined, and
// the tool uses when `tools` (a tool use needs an id, a name and an object input); the type of
// another block otherwise.
inline bool sampled_text(std::string_view content, std::string& text, std::string& other,
                         std::vector<sampling_tool_use>* tools = nullptr) {
    json::read_options options;
    options.max_size = content.size();
    options.ignore_unknown_properties = true;
    std::vector<sampled_block> blocks;
    if (!content.empty() && content.front() == '[') {
        auto r = json::read<std::vector<sampled_block>>(content, options);
        if (!r.ok()) return false;
        blocks = std::move(r.value);
    } else {
        auto r = json::read<sampled_block>(content, options);
        if (!r.ok()) return false;
        blocks.push_back(std::move(r.value));
    }
    for (sampled_block& b : blocks) {
        if (tools && b.type == "tool_use" && b.id && b.name && b.input && b.input->text().starts_with('{')) {
            tools->push_back({std::move(*b.id), std::move(*b.name), std::string(b.input->text())});
            continue;
        }
        if (b.type != "text" || !b.text) {
            other = b.type.substr(0, 40);
            return false;
        }
        text += *b.text;
    }
    return true;
}

inline std::string sampling_params(const sampling_request& request) {
    std::string out = R"({"messages":[)";
    for (std::size_t i = 0; i != request.messages.size(); ++i) {
        const sampling_message& m = request.messages[i];
        out += i == 0 ? R"({"role":)" : R"(,{"role":)";
        out += m.role == role::user ? R"("user")" : R"("assistant")";
        if (m.tool_uses.empty() && m.tool_results.empty()) {
            out += R"(,"content":{"type":"text","text":)";
            json::write(out, m.text);
            out += "}}";
            continue;
        }
        out += R"(,"content":[)";
        bool first = true;
        const auto block = [&](std::string_view type) {
            out += first ? R"({"type":")" : R"(,{"type":")";
            first = false;
            out += type;
            out += '"';
        };
        if (!m.text.empty()) {
            block("text");
            out += R"(,"text":)";
            json::write(out, m.text);
            out += '}';
        }
        for (const sampling_tool_use& u : m.tool_uses) {
            block("tool_use");
            out += R"(,"id":)";
            json::write(out, u.id);
            out += R"(,"name":)";
            json::write(out, u.name);
            out += R"(,"input":)";
            out += u.input;
            out += '}';
        }
        for (const sampling_tool_result& r : m.tool_results) {
            block("tool_result");
            out += R"(,"toolUseId":)";
            json::write(out, r.tool_use_id);
            out += R"(,"content":[{"type":"text","text":)";
            json::write(out, r.text);
            out += "}]";
            if (r.is_error) out += R"(,"isError":true)";
            out += '}';
        }
        out += "]}";
    }
    out += ']';
    if (!request.system_prompt.empty()) {
        out += R"(,"systemPrompt":)";
        json::write(out, request.system_prompt);
    }
    if (const auto& p = request.preferences) {
        out += R"(,"modelPreferences":{)";
        bool first = true;
        const auto member = [&](std::string_view name) {
            out += first ? "\"" : ",\"";
            first = false;
            out += name;
            out += "\":";
        };
        if (!p->hints.empty()) {
            member("hints");
            out += '[';
            for (std::size_t i = 0; i != p->hints.size(); ++i) {
                out += i == 0 ? R"({"name":)" : R"(,{"name":)";
                json::write(out, p->hints[i]);
                out += '}';
            }
            out += ']';
        }
        const auto priority = [&](std::string_view name, const std::optional<double>& value) {
            if (!value) return;
            member(name);
            json::write(out, *value);
        };
        priority("costPriority", p->cost_priority);
        priority("speedPriority", p->speed_priority);
        priority("intelligencePriority", p->intelligence_priority);
        out += '}';
    }
    out += R"(,"maxTokens":)";
    out += std::to_string(request.max_tokens);
    if (!request.tools.empty()) {
        out += R"(,"tools":[)";
        for (std::size_t i = 0; i != request.tools.size(); ++i) {
            const sampling_tool& t = request.tools[i];
            out += i == 0 ? R"({"name":)" : R"(,{"name":)";
            json::write(out, t.name);
            if (!t.description.empty()) {
                out += R"(,"description":)";
                json::write(out, t.description);
            }
            out += R"(,"inputSchema":)";
            out += t.input_schema;
            out += '}';
        }
        out += ']';
    }
    if (request.tool_choice) {
        out += R"(,"toolChoice":{"mode":)";
        out += *request.tool_choice == sampling_tool_mode::required ? R"("required"})"
               : *request.tool_choice == sampling_tool_mode::none   ? R"("none"})"
                                                                    : R"("auto"})";
    }
    out += '}';
    return out;
}

// Why `request`'s tools cannot be sent in `scope`, or nothing: the client must have declared
// capabilities.sampling.tools in a session of 2025-11-25 or later; each input_schema and each
// tool use's input must be a JSON object.
inline std::optional<ask_error> sampling_tools_problem(const asking_scope& scope, const sampling_request& request) {
    const std::string_view head = "agentry: mcp::sample: ";
    const auto is_object = [](std::string_view text) {
        const json::parsed p = json::parse(text);
        return p.ok() && p.value.is_object();
    };
    for (const sampling_tool& t : request.tools)
        if (!is_object(t.input_schema))
            return ask_error{ask_failure::invalid_request,
                             std::string(head) + "the input_schema of the tool \"" + agentry::detail::printable(t.name, 100) +
                                 "\" is not a JSON object; give the JSON Schema of its arguments, e.g. {\"type\":\"object\"}"};
    for (const sampling_message& m : request.messages)
        for (const sampling_tool_use& u : m.tool_uses)
            if (!is_object(u.input))
                return ask_error{ask_failure::invalid_request,
                                 std::string(head) + "the input of the tool use \"" + agentry::detail::printable(u.id, 100) +
                                     "\" is not a JSON object; give the arguments the model sent"};
    if (request.tools.empty()) return std::nullopt;
    const std::string tool = agentry::detail::printable(request.tools.front().name, 100);
    if (scope.protocol() < std::string_view("2025-11-25"))
        return ask_error{ask_failure::no_capability,
                         std::string(head) + "the request offers the tool \"" + tool +
                             "\", but the client does not support sampling with tools: the session's protocol version " +
                             std::string(scope.protocol()) + " predates it (2025-11-25); send the request without tools"};
    if (!scope.abilities().sampling_tools)
        return ask_error{ask_failure::no_capability,
                         std::string(head) + "the request offers the tool \"" + tool +
                             "\", but the client does not support sampling with tools (it did not declare "
                             "capabilities.sampling.tools in " +
                             (scope.version.empty() ? "the request's _meta clientCapabilities" : "initialize") +
                             "); send the request without tools"};
    return std::nullopt;
}

} // namespace detail

/// Asks the client of the request being served to complete `request` with its model
/// (sampling/createMessage), and waits for the answer at most options.timeout. Never throws but
/// std::bad_alloc.
inline sample_result sample(const sampling_request& request, const ask_options& options = {}) {
    sample_result out;
    const detail::asking_scope* scope = detail::current_asking_;
    out.error = detail::cannot_ask(scope, "mcp::sample");
    if (out.error) return out;
    if (!scope->abilities().sampling) {
        out.error = ask_error{ask_failure::no_capability,
                                  std::string("agentry: mcp::sample: the client did not declare the sampling "
                                              "capability in ") +
                                      (scope->version.empty() ? "the request's _meta clientCapabilities" : "initialize")};
        return out;
    }
    if (auto problem = detail::sampling_tools_problem(*scope, request)) {
        out.error = std::move(problem);
        return out;
    }
    detail::asked answer =
        detail::ask(*scope, "mcp::sample", "sampling/createMessage", detail::sampling_params(request), options.timeout);
    if (answer.error) {
        out.error = std::move(answer.error);
        return out;
    }
    auto result = json::read<detail::sampled_message>(answer.result, detail::answer_reading(answer.result));
    if (!result.ok()) {
        out.error = ask_error{
            ask_failure::invalid_answer,
            detail::join_errors("agentry: mcp::sample: the client's answer to sampling/createMessage is not a "
                                "CreateMessageResult",
                                result.errors)};
        return out;
    }
    std::string other;
    if (!detail::sampled_text(result.value.content.text(), out.text, other,
                              request.tools.empty() ? nullptr : &out.tool_uses)) {
        out.text.clear();
        out.tool_uses.clear();
        out.error = ask_error{ask_failure::invalid_answer,
                                  other.empty() ? "agentry: mcp::sample: the content of the client's answer to "
                                                  "sampling/createMessage is not a text block"
                                                : "agentry: mcp::sample: the client's model answered with " + other +
                                                      " content; mcp::sample takes text" +
                                                      (request.tools.empty() ? "" : " and tool uses")};
        return out;
    }
    out.model = std::move(result.value.model);
    out.stop_reason = std::move(result.value.stopReason).value_or(std::string());
    return out;
}

/// Asks for a completion of one user message, `prompt`, of at most `max_tokens` tokens.
inline sample_result sample(std::string_view prompt, std::size_t max_tokens, const ask_options& options = {}) {
    sampling_request request;
    request.messages.push_back({role::user, std::string(prompt)});
    request.max_tokens = max_tokens;
    return sample(request, options);
}

} // namespace agentry::mcp

#endif
