// SPDX-License-Identifier: BSL-1.0
#ifndef AGENTRY_MCP_DETAIL_CALL_APPROVAL_HPP
#define AGENTRY_MCP_DETAIL_CALL_APPROVAL_HPP

// Approval of a tools/call for a tool whose policy needs it (tool_policy::needs_approval): the
// server asks the client's user by elicitation (form mode, a form without fields: accept runs
// the call, decline and cancel do not). The question names the tool and its arguments in
// canonical form (policy/approval.hpp), and the tool then runs with exactly that text, so the
// decision is bound to the arguments shown. Arguments that cannot be put in canonical form are
// refused before anyone is asked, as in the agent.
//
// In a session (2025-06-18 and later) the question is an elicitation/create request on the
// session, while the call waits. A stateless 2026-07-28 request is answered with an
// InputRequiredResult holding the question (inputRequests["approval"]) and a requestState bound
// to the tool and its canonical arguments; the client sends the tools/call again with the user's
// ElicitResult as inputResponses["approval"] and that requestState. An answer whose state does not
// match the arguments sent with it is not used: the question is asked again.
//
// A client that cannot be asked (no elicitation capability, a protocol version without it, a
// transport that cannot carry the request) gets a refusal naming why; the call does not run.

#include <agentry/json/writer.hpp>
#include <agentry/mcp/ask.hpp>
#include <agentry/mcp/detail/server_methods.hpp>
#include <agentry/mcp/detail/server_requests.hpp>
#include <agentry/mcp/elicit.hpp>
#include <agentry/policy/approval.hpp>
#include <agentry/policy/tool_policy.hpp>
#include <agentry/schema/raw_json.hpp>
#include <agentry/tool_result.hpp>

#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <string_view>
#include <utility>

namespace agentry::mcp::detail {

/// What the server decided for one call of a tool that needs approval.
struct call_approval {
    enum class verdict : unsigned char {
        run,             // approved: call the tool with `text`, the canonical arguments
        refused,         // not run: `text` is the tool result's message, `status` its status
        input_required,  // 2026-07-28: `text` is the whole InputRequiredResult to answer with
    };
    verdict kind = verdict::refused;
    std::string text;
    tool_status status = tool_status::denied;

    /// The tool result of a refusal.
    tool_result refused() && {
        tool_result out;
        out.status = status;
        out.content = std::move(text);
        return out;
    }
};

/// The key of the approval question in inputRequests and inputResponses.
inline constexpr std::string_view approval_input_key = "approval";

/// The form of the question: no fields, the decision is the user's action.
inline constexpr std::string_view approval_form = R"({"type":"object","properties":{}})";

// tools/call params as far as the 2026-07-28 round trip needs them.
struct approval_meta {
    std::optional<client_capabilities_params> capabilities;
};
struct round_trip_params {
    std::optional<std::map<std::string, raw_json, std::less<>>> inputResponses;
    std::optional<std::string> requestState;
    std::optional<std::map<std::string, raw_json, std::less<>>> _meta;
};

/// The question the user is asked.
inline std::string approval_question(std::string_view tool, permission level, std::string_view canonical) {
    std::string out = "Allow the tool \"" + std::string(tool) + "\" (permission: " + std::string(to_string(level)) +
                      ") to run with these arguments?\n";
    out += canonical;
    return out;
}

/// requestState for the question about `tool` with `canonical` arguments: a 64-bit FNV-1a of both.
inline std::string approval_state(std::string_view tool, std::string_view canonical) {
    std::uint64_t h = 14695981039346656037ull;
    const auto mix = [&h](std::string_view text) {
        for (const char c : text) {
            h ^= static_cast<unsigned char>(c);
            h *= 1099511628211ull;
        }
    };
    mix(tool);
    mix(std::string_view("\0", 1));
    mix(canonical);
    std::string out = "approval:";
    for (int shift = 60; shift >= 0; shift -= 4) out += "0123456789abcdef"[(h >> shift) & 0xf];
    return out;
}

inline call_approval refusal(std::string text, tool_status status = tool_status::denied) {
    return {call_approval::verdict::refused, std::move(text), status};
}

/// The decision carried by the ElicitResult `answer` (JSON text) for `tool`.
inline call_approval decided(std::string_view tool, std::string_view answer, std::string canonical) {
    const auto r = json::read<elicit_answer>(answer, answer_reading(answer));
    if (!r.ok())
        return refusal(join_errors("agentry: the approval of " + std::string(tool) +
                                       ": the client's answer to elicitation/create is not an ElicitResult; the "
                                       "call was not run",
                                   r.errors));
    switch (r.value.action) {
    case elicit_action::accept: return {call_approval::verdict::run, std::move(canonical), tool_status::ok};
    case elicit_action::decline:
        return refusal("The user denied this call of " + std::string(tool) +
                       ". It was not run; do not make it again unchanged.");
    case elicit_action::cancel: break;
    }
    return refusal("The user dismissed the approval of this call of " + std::string(tool) +
                   " without deciding. It was not run.");
}

inline std::string not_asked(std::string_view tool, std::string_view why) {
    return "agentry: " + std::string(tool) + " needs approval (its policy says needs_approval), which this MCP "
           "server asks the client's user for by elicitation, but " + std::string(why) + "; the call was not run.";
}

/// The stateless (2026-07-28) round trip: the answer in `params`, or the question.
inline call_approval approve_stateless(std::string_view tool, std::string_view question, std::string canonical,
                                       std::string_view params) {
    round_trip_params p;
    std::string ignored;
    if (!read_params(params, p, ignored)) p = {};
    const std::string state = approval_state(tool, canonical);
    if (p.inputResponses && p.requestState == state)
        if (const auto it = p.inputResponses->find(approval_input_key); it != p.inputResponses->end())
            return decided(tool, it->second.text(), std::move(canonical));
    bool form = false;
    if (p._meta)
        if (const auto it = p._meta->find("io.modelcontextprotocol/clientCapabilities"); it != p._meta->end()) {
            std::string text(it->second.text());
            text = R"({"capabilities":)" + text + "}";
            form = read_client_abilities(text).elicitation_form;
        }
    if (!form)
        return refusal(not_asked(tool, "the request's _meta clientCapabilities do not include elicitation (form "
                                       "mode)"));
    std::string out = R"({"resultType":"input_required","inputRequests":{)";
    json::write(out, approval_input_key);
    out += R"(:{"method":"elicitation/create","params":{"mode":"form","message":)";
    json::write(out, question);
    out += R"(,"requestedSchema":)";
    out += approval_form;
    out += R"(}}},"requestState":)";
    json::write(out, state);
    out += '}';
    return {call_approval::verdict::input_required, std::move(out), tool_status::ok};
}

/// Decides a call of `tool` (permission `level`) with `arguments`, asking as the request being
/// served allows; `params` are the tools/call params (for the 2026-07-28 round trip).
inline call_approval approve_call(std::string_view tool, permission level, std::string_view arguments,
                                  std::string_view params, const asking_scope* scope,
                                  const ask_options& options = {}) {
    std::optional<std::string> canonical = agentry::detail::canonical_json(arguments);
    if (!canonical) {
        tool_result r = agentry::detail::not_canonical(tool, arguments);
        return refusal(std::move(r.content), r.status);
    }
    const std::string question = approval_question(tool, level, *canonical);
    if (scope && scope->requests && scope->version.empty())
        return approve_stateless(tool, question, std::move(*canonical), params);
    const std::string who = "the approval of " + std::string(tool);
    if (std::optional<ask_error> e = cannot_ask(scope, who)) return refusal(std::move(e->message) + "; the call was not run.");
    if (scope->version < "2025-06-18")
        return refusal(not_asked(tool, "protocol version " + std::string(scope->version) +
                                           " has no elicitation (it is defined from 2025-06-18)"));
    if (!scope->requests->abilities().elicitation_form)
        return refusal(not_asked(tool, "the client did not declare the elicitation capability (form mode) in "
                                       "initialize"));
    std::string request = scope->version <= "2025-06-18" ? R"({"message":)" : R"({"mode":"form","message":)";
    json::write(request, question);
    request += R"(,"requestedSchema":)";
    request += approval_form;
    request += '}';
    asked answer = ask(*scope, who, "elicitation/create", request, options.timeout);
    if (answer.error) return refusal(std::move(answer.error->message) + "; the call was not run.");
    return decided(tool, answer.result, std::move(*canonical));
}

} // namespace agentry::mcp::detail

#endif
