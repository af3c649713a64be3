// SPDX-License-Identifier: BSL-1.0
#ifndef AGENTRY_LOOP_IMPL_SUMMARY_IPP
#define AGENTRY_LOOP_IMPL_SUMMARY_IPP

// The definitions of the history summary (loop/summary.hpp): included by it header-only, and by
// <agentry/src.hpp> in separate compilation (detail/separate.hpp).

#include <agentry/detail/separate.hpp>
#include <agentry/loop/context.hpp>
#include <agentry/loop/result.hpp>
#include <agentry/loop/summary.hpp>
#include <agentry/provider/message.hpp>

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <limits>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace agentry::detail {

AGENTRY_DECL bool is_summary(const message& m) noexcept {
    return m.role == role::system && std::string_view(m.text).substr(0, summary_heading.size()) == summary_heading;
}

AGENTRY_DECL std::optional<summary_plan> plan_summary(std::span<const message> history, std::size_t budget,
                                                      const token_estimator& estimate) {
    if (budget == 0) return std::nullopt;
    std::vector<std::size_t> cost(history.size());
    std::size_t total = 0;
    for (std::size_t i = 0; i != history.size(); ++i) total += cost[i] = estimate(history[i]);
    if (total <= budget) return std::nullopt;
    std::size_t first = 0;
    while (first != history.size() && history[first].role == role::system && !is_summary(history[first])) ++first;
    std::size_t latest_user = history.size();
    for (std::size_t i = history.size(); i-- > first;)
        if (history[i].role == role::user) {
            latest_user = i;
            break;
        }
    // Units, oldest first: before the latest user message an exchange ends at the next user
    // message; the latest user message is one unit, and each turn after it another.
    struct unit {
        std::size_t begin, end;
    };
    std::vector<unit> units;
    for (std::size_t i = first; i != history.size();) {
        std::size_t end = i + 1;
        if (is_summary(history[i])) {
        } else if (i < latest_user) {
            while (end != latest_user && history[end].role != role::user && !is_summary(history[end])) ++end;
        } else {
            while (end != history.size() && history[end].role == role::tool) ++end;
        }
        units.push_back({i, end});
        i = end;
    }
    const std::size_t target = budget - budget / 4;
    summary_plan plan;
    plan.replaced.assign(history.size(), false);
    plan.at = first;
    bool any_turn = false;
    for (std::size_t u = 0; u + 1 < units.size() && total > target; ++u) {
        if (units[u].begin == latest_user) continue;
        for (std::size_t i = units[u].begin; i != units[u].end; ++i) {
            total -= cost[i];
            plan.replaced[i] = true;
            ++plan.count;
            any_turn = any_turn || !is_summary(history[i]);
        }
    }
    if (!any_turn) return std::nullopt;
    return plan;
}

AGENTRY_DECL std::string summary_transcript(std::span<const message> history, const summary_plan& plan) {
    std::string out;
    const auto line = [&out](std::string_view who, std::string_view text) {
        if (!out.empty()) out += "\n\n";
        out += who;
        out += text;
    };
    for (std::size_t i = 0; i != history.size(); ++i) {
        if (!plan.replaced[i]) continue;
        const message& m = history[i];
        switch (m.role) {
        case role::system:
            if (is_summary(m)) {
                const std::size_t body = m.text.find('\n');
                line("Summary of what came before: ",
                     body == std::string::npos ? std::string_view() : std::string_view(m.text).substr(body + 1));
            } else {
                line("System: ", m.text);
            }
            break;
        case role::user: line("User: ", m.text); break;
        case role::assistant:
            if (!m.text.empty() || m.tool_calls.empty()) line("Assistant: ", m.text);
            for (const tool_call& c : m.tool_calls) line("Assistant called " + c.name + " with ", c.arguments);
            break;
        case role::tool:
            line("Result of " + m.tool_name + (m.is_error ? " (an error): " : ": "), m.text);
            break;
        }
    }
    return out;
}

AGENTRY_DECL std::vector<message> summary_request_messages(std::span<const message> history, const summary_plan& plan) {
    return {message::system(
                "You condense the earlier part of a conversation between a user, an AI assistant and the tools the "
                "assistant called, so that the assistant can go on without it. Keep every fact, number, name, "
                "decision and tool result that may still matter, and what is still to be done; leave out "
                "pleasantries and repetition. Answer with the summary alone, in plain text."),
            message::user("Summarize this part of the conversation:\n\n" + summary_transcript(history, plan))};
}

AGENTRY_DECL std::vector<message> apply_summary(std::span<const message> history, const summary_plan& plan,
                                                std::string_view summary) {
    std::vector<message> out;
    out.reserve(history.size() - plan.count + 1);
    out.insert(out.end(), history.begin(), history.begin() + static_cast<std::ptrdiff_t>(plan.at));
    out.push_back(message::system(std::string(summary_heading) + std::to_string(plan.count) +
                                  " messages; the model wrote it to fit the context budget):\n" + std::string(summary)));
    for (std::size_t i = plan.at; i != history.size(); ++i)
        if (!plan.replaced[i]) out.push_back(history[i]);
    return out;
}

AGENTRY_TEMPLATE_DEF
bool compress_history(std::vector<message>& history, std::size_t budget, const token_estimator& estimate,
                      run_result& result, const std::function<turn_result(chat_request&)>& ask) {
    const std::optional<summary_plan> plan = plan_summary(history, budget, estimate);
    if (!plan) return false;
    const std::vector<message> asked = summary_request_messages(history, *plan);
    chat_request request;
    request.messages = asked;
    request.max_tokens = static_cast<std::uint32_t>(
        std::clamp<std::size_t>(budget / 4, 1, std::numeric_limits<std::uint32_t>::max()));
    turn_result r = ask(request);
    if (r.ok()) {
        result.usage += r.value->usage;
        result.summary_usage += r.value->usage;
    }
    std::string failure;
    if (!r.ok()) failure = std::move(r.error.message);
    else if (r.value->finish == finish_reason::refusal) failure = "the model refused to write the summary";
    else if (r.value->reply.text.empty()) failure = "the model wrote no summary";
    if (!failure.empty()) {
        provider_error e = r.ok() ? provider_error{} : std::move(r.error);
        e.message = "agentry: the summary request failed (" + failure + "); the requests were trimmed instead";
        result.summary_error = std::move(e);
        return false;
    }
    history = apply_summary(history, *plan, r.value->reply.text);
    result.summarized_messages += plan->count;
    return true;
}

} // namespace agentry::detail

#endif
