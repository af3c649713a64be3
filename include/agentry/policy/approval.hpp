// SPDX-License-Identifier: BSL-1.0
#ifndef AGENTRY_POLICY_APPROVAL_HPP
#define AGENTRY_POLICY_APPROVAL_HPP

// Human approval of tool calls: what the approver sees (approval_request) and what it answers
// (approval). The agent asks its approver (agent_options::approver) before each call of a tool
// whose policy says needs_approval. Without an approver the run stops with the calls pending
// (pending_call), and a run from agentry::approvals takes the decisions (approval_decision), each bound to the
// exact arguments it was made for.

#include <agentry/detail/separate.hpp>
#include <agentry/policy/tool_policy.hpp>
#include <agentry/tool_result.hpp>

#include <functional>
#include <optional>
#include <string>
#include <string_view>
#include <utility>

namespace agentry {

/// One call waiting for a decision.
struct approval_request {
    std::string_view call_id;
    std::string_view tool;
    /// The arguments in canonical form, RFC 8785's (JSON Canonicalization Scheme): members
    /// sorted by key, no spaces, numbers as ECMAScript writes them (`100`, `0.5`, `1e+21`), so
    /// that equal arguments read the same whatever the model's spelling. An integer a double
    /// would change (9007199254740993) keeps its exact digits rather than being rounded.
    std::string_view arguments;
    /// What the model wrote in the turn that made the call (often its reason); may be empty.
    std::string_view model_text;
    permission level = permission::destructive;
};

enum class approval_kind : unsigned char { approve, deny, edit };

/// The approver's answer.
struct approval {
    approval_kind kind = approval_kind::deny;
    /// deny: why, sent to the model with the denial.
    std::string reason;
    /// edit: the arguments to run instead (JSON), validated against the tool's schema again.
    std::string arguments;

    static approval approve() { return {approval_kind::approve, {}, {}}; }
    static approval deny(std::string reason) { return {approval_kind::deny, std::move(reason), {}}; }
    static approval edit(std::string arguments) { return {approval_kind::edit, {}, std::move(arguments)}; }
};

using approver = std::function<approval(const approval_request&)>;

/// A call waiting for a decision when a run stopped with stop_reason::approval_pending.
struct pending_call {
    std::string call_id;
    std::string tool;
    /// The arguments in canonical form, as in approval_request.
    std::string arguments;
    /// What the model wrote in the turn that made the call; may be empty.
    std::string model_text;
    permission level = permission::destructive;
};

/// The decision on a pending call, for agentry::approvals: the call's id, the canonical arguments it
/// was made for (a decision for other arguments is refused) and the answer.
struct approval_decision {
    std::string call_id;
    std::string arguments;
    approval answer;
};

/// `answer` bound to `call`: decide(call, approval::approve()).
inline approval_decision decide(const pending_call& call, approval answer) {
    return {call.call_id, call.arguments, std::move(answer)};
}

namespace detail {

/// The canonical text of JSON `text` (RFC 8785, as approval_request::arguments describes it),
/// or nothing when it is not one JSON value within the reader's default limits (size, depth,
/// unique keys, UTF-8).
AGENTRY_DECL std::optional<std::string> canonical_json(std::string_view text);

/// Whether a decision made for the arguments `decided` holds for a call whose arguments are
/// `arguments` (the model's text, or a canonical text of it): the same text, or the same JSON
/// value (both canonicalised), or `decided` is `arguments` as the canonical form before RFC
/// 8785 wrote it (numbers as digits and exponent, `1e2`; a decision or checkpoint saved then).
AGENTRY_DECL bool same_arguments(std::string_view decided, std::string_view arguments);

/// The refusal of a call of `tool` whose arguments `text` cannot be put in canonical form, with
/// the reader's errors (each names its JSON Pointer; none quotes the arguments whole).
AGENTRY_DECL tool_result not_canonical(std::string_view tool, std::string_view text);

} // namespace detail

} // namespace agentry

#if !defined(AGENTRY_SEPARATE_COMPILATION)
#include <agentry/policy/impl/approval.ipp>
#endif

#endif
