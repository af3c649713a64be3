// SPDX-License-Identifier: BSL-1.0
#ifndef AGENTRY_LOOP_CONTEXT_HPP
#define AGENTRY_LOOP_CONTEXT_HPP

// Fitting the history into a token budget: the oldest messages after the system prompt are
// left out first, an assistant message with tool calls always together with the results that
// follow it, and the latest user message is always kept. The conversation itself is left whole;
// loop/summary.hpp replaces old turns in it by a summary instead (context_compression::summary),
// and this trimming still applies after it, and in its place when the summary fails.

#include <agentry/detail/separate.hpp>
#include <agentry/provider/message.hpp>

#include <cstddef>
#include <functional>
#include <span>
#include <vector>

namespace agentry {

/// Estimated tokens of a message; the default counts a token per 4 bytes of text, names and
/// arguments, plus 4 per message, and image_tokens per image of a tool result of MCP content
/// blocks (message::content_blocks) instead of its base64 bytes.
using token_estimator = std::function<std::size_t(const message&)>;

/// What the default estimate counts for an image: about what the providers bill for a
/// picture of a megapixel or so (Anthropic: width x height / 750).
inline constexpr std::size_t image_tokens = 1600;

AGENTRY_DECL std::size_t estimate_tokens(const message& m);

namespace detail {

/// The messages of `history` to send within `budget` tokens, and how many were left out.
struct trimmed_history {
    std::vector<message> messages;
    std::size_t removed = 0;
};

AGENTRY_DECL trimmed_history trim_history(std::span<const message> history, std::size_t budget,
                                          const token_estimator& estimate);

} // namespace detail

} // namespace agentry

#if !defined(AGENTRY_SEPARATE_COMPILATION)
#include <agentry/loop/impl/context.ipp>
#endif

#endif
