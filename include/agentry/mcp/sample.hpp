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
// The request is sent only when the client declared `capabilities.sampling` in `initialize`;
// otherwise, or outside a request, or where the transport cannot carry it, or after the timeout
// or the served request's cancellation, the result holds a ask_error (ask.hpp).
// An answer whose content is not text (an image, audio, a tool use) is an invalid_answer.

#include <agentry/json/reader.hpp>
#include <agentry/json/writer.hpp>
#include <agentry/mcp/detail/server_requests.hpp>
#include <agentry/mcp/message.hpp>
#include <agentry/mcp/prompts.hpp>
#include <agentry/mcp/ask.hpp>
#include <agentry/schema/raw_json.hpp>

#include <cstddef>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace agentry::mcp {

/// One message of the conversation to complete: text from `role`.
struct sampling_message {
    mcp::role role = mcp::role::user;
    std::string text;
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
};

/// The client's completion: the model's text, or why there is none.
struct sample_result {
    std::string text;
    /// The model that wrote it, as the client names it.
    std::string model;
    /// Why the model stopped ("endTurn", "maxTokens", ...); empty when the client did not say.
    std::string stop_reason;
    std::optional<ask_error> error;

    bool ok() const noexcept { return !error; }
};

namespace detail {

// CreateMessageResult, as far as sample reads it; a content block's other members (annotations,
// _meta, an image's data) are skipped.
struct sampled_block {
    std::string type;
    std::optional<std::string> text;
};
struct sampled_message {
    raw_json content;
    std::string model;
    std::optional<std::string> stopReason;
};

// {"type":"text","text":...} or, from 2025-11-25, an array of blocks: their texts joined; the
// type of a block that is not text otherwise.
inline bool sampled_text(std::string_view content, std::string& text, std::string& other) {
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
        out += R"(,"content":{"type":"text","text":)";
        json::write(out, m.text);
        out += "}}";
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
    out += '}';
    return out;
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
    if (!detail::sampled_text(result.value.content.text(), out.text, other)) {
        out.text.clear();
        out.error = ask_error{ask_failure::invalid_answer,
                                  other.empty() ? "agentry: mcp::sample: the content of the client's answer to "
                                                  "sampling/createMessage is not a text block"
                                                : "agentry: mcp::sample: the client's model answered with " + other +
                                                      " content; mcp::sample takes text"};
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
