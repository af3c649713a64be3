// SPDX-License-Identifier: BSL-1.0
#ifndef AGENTRY_LOOP_SUMMARY_HPP
#define AGENTRY_LOOP_SUMMARY_HPP

// Context compression by summary (loop_config::compression = context_compression::summary):
// once the history passes loop_config::context_budget_tokens, its oldest turns are replaced,
// in the conversation itself, by one system message holding a summary the model writes in an
// extra request. What is kept: the leading system prompt, the latest user message, the last
// turn, and the newest turns that fit in three quarters of the budget (the summary may take the
// last quarter). Before the latest user message whole exchanges go (a user message and the
// replies up to the next one); after it, whole turns (a reply with its tool calls and all their
// results), so a call is never separated from its results. An earlier summary is folded into
// the next one. When the summary request fails, nothing changes and the requests are trimmed
// (context.hpp).

#include <agentry/detail/separate.hpp>
#include <agentry/loop/context.hpp>
#include <agentry/loop/result.hpp>
#include <agentry/provider/message.hpp>

#include <cstddef>
#include <cstdint>
#include <functional>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <vector>

namespace agentry::detail {

/// The start of the system message that holds a summary, which marks it in a saved
/// conversation.
inline constexpr std::string_view summary_heading = "Summary of the earlier conversation (it replaces ";

AGENTRY_DECL bool is_summary(const message& m) noexcept;

/// The messages of a history a summary replaces.
struct summary_plan {
    /// Per message: replaced.
    std::vector<bool> replaced;
    std::size_t count = 0;
    /// Where the summary goes: after the leading system prompt.
    std::size_t at = 0;
};

/// What to replace so that `history` fits `budget`, or nothing when it fits already or no
/// message but an earlier summary could go.
AGENTRY_DECL std::optional<summary_plan> plan_summary(std::span<const message> history, std::size_t budget,
                                                      const token_estimator& estimate);

/// The replaced messages as a plain transcript for the summary request.
AGENTRY_DECL std::string summary_transcript(std::span<const message> history, const summary_plan& plan);

/// The instructions and the transcript of the summary request.
AGENTRY_DECL std::vector<message> summary_request_messages(std::span<const message> history, const summary_plan& plan);

/// `history` with the planned messages replaced by `summary`, after the leading system prompt.
AGENTRY_DECL std::vector<message> apply_summary(std::span<const message> history, const summary_plan& plan,
                                                std::string_view summary);

/// Replaces the oldest turns of `history` by a summary when it passes `budget`: `ask` sends
/// the summary request (a chat_request -> turn_result). Its usage joins `result`; a failure
/// (an error, a refusal, an empty summary) is kept in result.summary_error and leaves `history`
/// as it was. True when `history` changed.
AGENTRY_TEMPLATE_DECL
bool compress_history(std::vector<message>& history, std::size_t budget, const token_estimator& estimate,
                      run_result& result, const std::function<turn_result(chat_request&)>& ask);

} // namespace agentry::detail

#if !defined(AGENTRY_SEPARATE_COMPILATION)
#include <agentry/loop/impl/summary.ipp>
#endif

#endif
