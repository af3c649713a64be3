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
#include <agentry/mcp/detail/input_rounds.hpp>
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

/// The question the user is asked.
inline std::string approval_question(std::string_view tool, permission level, std::string_view canonical) {
    std::string out = "Allow the tool \"" + std::string(tool) + "\" (permission: " + std::string(to_string(level)) +
                      ") to run with these arguments?\n";
    out += canonical;
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

/// Decides a call of `tool` (permission `level`) with `arguments`, asking as the request being
/// served allows.
inline call_approval approve_call(std::string_view tool, permission level, std::string_view arguments,
                                  const asking_scope* scope, const ask_options& options = {}) {
    std::optional<std::string> canonical = agentry::detail::canonical_json(arguments);
    if (!canonical) {
        tool_result r = agentry::detail::not_canonical(tool, arguments);
        return refusal(std::move(r.content), r.status);
    }
    // An answer the client gave in this stateless round decides, whatever the retry declares.
    if (scope && scope->version.empty() && scope->rounds)
        if (const auto given = scope->rounds->answer(approval_input_key)) return decided(tool, *given, std::move(*canonical));
    const std::string who = "the approval of " + std::string(tool);
    if (std::optional<ask_error> e = cannot_ask(scope, who)) return refusal(std::move(e->message) + "; the call was not run.");
    if (scope->protocol() < "2025-06-18")
        return refusal(not_asked(tool, "protocol version " + std::string(scope->protocol()) +
                                           " has no elicitation (it is defined from 2025-06-18)"));
    if (!scope->abilities().elicitation_form)
        return refusal(not_asked(tool, scope->version.empty()
                                           ? "the request's _meta clientCapabilities do not include elicitation (form "
                                             "mode)"
                                           : "the client did not declare the elicitation capability (form mode) in "
                                             "initialize"));
    std::string request = scope->protocol() <= "2025-06-18" ? R"({"message":)" : R"({"mode":"form","message":)";
    json::write(request, approval_question(tool, level, *canonical));
    request += R"(,"requestedSchema":)";
    request += approval_form;
    request += '}';
    asked answer = ask(*scope, who, "elicitation/create", request, options.timeout, approval_input_key);
    if (answer.error && answer.error->kind == ask_failure::input_required)
        return {call_approval::verdict::input_required, {}, tool_status::ok};
    if (answer.error) return refusal(std::move(answer.error->message) + "; the call was not run.");
    return decided(tool, answer.result, std::move(*canonical));
}

/// A tools/call on its way to its tool: in a stateless (2026-07-28) request, the call's rounds
/// of questions (input_rounds.hpp) in the asking scope while it runs; then the approval when its
/// tool needs it. Lives in the frame that calls the tool.
class prepared_call {
public:
    /// `known`: a tool of the server; `policy`: its policy, when it declares one.
    prepared_call(std::string_view tool, bool known, const tool_policy* policy, std::string_view arguments,
                  std::string_view params)
        : arguments_(arguments) {
        const asking_scope* served = current_asking_;
        if (served && served->version.empty() && known) {
            rounds_.emplace(tool, arguments, params);
            scope_ = *served;
            scope_.rounds = &*rounds_;
            guard_.emplace(&scope_);
        }
        if (policy == nullptr || !policy->needs_approval) return;
        approval_ = approve_call(tool, policy->level, arguments, current_asking_);
        if (approval_.kind == call_approval::verdict::run) arguments_ = approval_.text;
    }
    prepared_call(const prepared_call&) = delete;
    prepared_call& operator=(const prepared_call&) = delete;

    /// The call does not run: the approval refused it, or waits for the client's answer.
    bool held() const noexcept { return approval_.kind != call_approval::verdict::run; }
    /// The result of a call the approval refused.
    tool_result refused() { return std::move(approval_).refused(); }
    /// The arguments to call the tool with: canonical once approved.
    std::string_view arguments() const noexcept { return arguments_; }
    /// The InputRequiredResult to answer with, when the call asked what the client has not answered.
    std::optional<std::string> input_required() const {
        if (rounds_ && rounds_->input_required()) return rounds_->result();
        return std::nullopt;
    }

private:
    std::string_view arguments_;
    call_approval approval_{call_approval::verdict::run, {}, tool_status::ok};
    std::optional<input_rounds> rounds_;
    asking_scope scope_{};
    std::optional<asking_scope_guard> guard_;
};

} // namespace agentry::mcp::detail

#endif
