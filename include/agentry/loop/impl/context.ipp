// SPDX-License-Identifier: BSL-1.0
#ifndef AGENTRY_LOOP_IMPL_CONTEXT_IPP
#define AGENTRY_LOOP_IMPL_CONTEXT_IPP

// The definitions of the history trimming (loop/context.hpp): included by it header-only, and by
// <agentry/src.hpp> in separate compilation (detail/separate.hpp).

#include <agentry/detail/separate.hpp>
#include <agentry/loop/context.hpp>
#include <agentry/provider/detail/tool_content.hpp>
#include <agentry/provider/message.hpp>

#include <cstddef>
#include <span>
#include <vector>

namespace agentry {

AGENTRY_DECL std::size_t estimate_tokens(const message& m) {
    std::size_t bytes = m.text.size() + m.tool_call_id.size() + m.tool_name.size();
    for (const tool_call& c : m.tool_calls) bytes += c.id.size() + c.name.size() + c.arguments.size();
    std::size_t images = 0;
    if (m.content_blocks.value_or(false))
        if (const auto blocks = detail::read_blocks(m.text))
            for (const detail::mcp_block& b : *blocks)
                if (b.type() == "image" && b.in.data) {  // priced as an image, not as its base64 text
                    bytes -= b.in.data->size();
                    ++images;
                }
    return 4 + (bytes + 3) / 4 + images * image_tokens;
}

AGENTRY_DECL detail::trimmed_history detail::trim_history(std::span<const message> history, std::size_t budget,
                                                          const token_estimator& estimate) {
    trimmed_history out;
    std::size_t total = 0;
    std::vector<std::size_t> cost(history.size());
    for (std::size_t i = 0; i != history.size(); ++i) total += cost[i] = estimate(history[i]);
    if (budget == 0 || total <= budget) {
        out.messages.assign(history.begin(), history.end());
        return out;
    }
    // Kept whatever the budget: leading system messages, the latest user message and the last
    // group. A group is a message, or an assistant message with tool calls and the results
    // after it; the others are left out whole, oldest first.
    std::size_t first = 0;
    while (first != history.size() && history[first].role == role::system) ++first;
    struct group {
        std::size_t begin, end;
        bool keep;
    };
    std::vector<group> groups;
    for (std::size_t i = first; i != history.size();) {
        std::size_t end = i + 1;
        while (end != history.size() && history[end].role == role::tool) ++end;
        groups.push_back({i, end, false});
        i = end;
    }
    if (!groups.empty()) groups.back().keep = true;
    for (std::size_t g = groups.size(); g-- > 0;)
        if (history[groups[g].begin].role == role::user) {
            groups[g].keep = true;
            break;
        }
    std::vector<bool> dropped(history.size(), false);
    for (group& g : groups) {
        if (total <= budget) break;
        if (g.keep) continue;
        for (std::size_t i = g.begin; i != g.end; ++i) {
            total -= cost[i];
            dropped[i] = true;
            ++out.removed;
        }
    }
    for (std::size_t i = 0; i != history.size(); ++i)
        if (!dropped[i]) out.messages.push_back(history[i]);
    return out;
}

} // namespace agentry

#endif
