// SPDX-License-Identifier: BSL-1.0
#ifndef AGENTRY_PROVIDER_ANTHROPIC_HPP
#define AGENTRY_PROVIDER_ANTHROPIC_HPP

// agentry::anthropic: the Anthropic Messages API (POST {base_url}/v1/messages).
//
//   agentry::anthropic claude{.model = "claude-sonnet-4-5"};   // key from ANTHROPIC_API_KEY
//   agentry::chat_request request{.messages = history, .tools = tools.definitions<agentry::dialect::anthropic>()};
//   agentry::turn_result turn = agentry::complete(claude, transport, request);
//
// Requests: role::system messages become the top-level `system` (joined by a blank line);
// consecutive user and tool messages become one user message, its tool_result blocks first and
// in the order of the calls they answer; `max_tokens`, which Anthropic requires, falls back to
// anthropic::max_tokens. Responses: text blocks are joined; thinking and redacted_thinking
// blocks become reply.parts (sent back unchanged, in their place, with the next requests);
// server-tool blocks are skipped. A tool_use block cut off by max_tokens is left out and flagged
// (completion::incomplete_tool_call). Input token counts include cache reads and writes.
// chat_request::output becomes output_config.format (structured outputs, generally available
// without a beta header; it may be sent with tools, and the answer is the text of the reply).
// Prompt caching is on by default (anthropic::cache): breakpoints on the last tool, the system
// prompt and the last block of the conversation. A tool result of MCP content blocks
// (message::content_blocks) is sent as text, image and document blocks, and tool_reference
// blocks (a tool search's result, select/tool_search.hpp) as they are.
//
// The definitions are in impl/anthropic.ipp, included at the end of this header unless the program
// compiles the providers separately (detail/separate.hpp).

#include <agentry/detail/chrono.hpp>
#include <agentry/provider/detail/anthropic_wire.hpp>
#include <agentry/detail/separate.hpp>
#include <agentry/provider/detail/sse.hpp>
#include <agentry/provider/http_settings.hpp>
#include <agentry/provider/message.hpp>
#include <agentry/provider/provider.hpp>
#include <agentry/schema/dialect.hpp>
#include <agentry/transport/transport.hpp>

#include <atomic>
#include <cstddef>
#include <cstdint>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace agentry {

/// Extended thinking (the request's `thinking`).
struct anthropic_thinking {
    enum class kind {
        /// {"type":"enabled","budget_tokens":N}: manual thinking, on the models that take it
        /// (deprecated from the 4.6 models, refused by later ones).
        enabled,
        /// {"type":"adaptive"}: the model decides how much to think (the 4.6 models and later);
        /// anthropic::effort guides it.
        adaptive,
    };
    kind type = kind::enabled;
    /// kind::enabled: the most tokens to think with; at least 1024 and less than max_tokens
    /// (with interleaved thinking and tools it may pass max_tokens).
    std::uint32_t budget_tokens = 1024;
};

struct anthropic {
    /// The tools payload agent<> asks the registry for.
    using dialect = agentry::dialect::anthropic;
    /// gen_ai.provider.name (OpenTelemetry).
    static constexpr std::string_view provider_name = "anthropic";
    /// The schema of a typed answer (output_config.format): structured outputs take the
    /// subset strict tools take.
    using output_dialect = agentry::dialect::anthropic_strict;

    /// http.base_url when it is empty: without the API path, as the official SDKs take it;
    /// requests go to {base_url}/v1/messages.
    static constexpr std::string_view default_base_url = "https://api.anthropic.com";

    /// How long the prompt cache keeps what the breakpoints mark.
    enum class cache_ttl { off, five_minutes, one_hour };

    std::string model{};
    /// Empty: the ANTHROPIC_API_KEY environment variable, read by each request().
    std::string api_key{};
    /// Where and how requests are sent; a header named like one of agentry's (e.g.
    /// anthropic-version) replaces it.
    http_settings http{};
    /// The output limit when the chat_request has none (Anthropic requires one).
    std::uint32_t max_tokens = 4096;
    /// A JSON object whose members are added to every request body, e.g. R"({"top_k":40})";
    /// they must not repeat a member agentry writes.
    std::string extra_body{};
    /// Extended thinking; absent: off. The thinking blocks of each reply go back with the next
    /// requests (message::parts).
    std::optional<anthropic_thinking> thinking{};
    /// With kind::enabled thinking and tools: send `anthropic-beta: interleaved-thinking-2025-05-14`,
    /// so that the model thinks between tool calls (adaptive thinking does so without it). A
    /// user's own anthropic-beta header replaces it: list this value there too.
    bool interleaved_thinking = true;
    /// output_config.effort: "low", "medium", "high", "xhigh" or "max" (which ones a model takes
    /// varies); empty: the model's default.
    std::string effort{};
    /// Prompt caching: breakpoints ({"type":"ephemeral","ttl":"5m"|"1h"}) on the last tool, on the
    /// system prompt (then sent as one text block) and on the last block of the last message.
    cache_ttl cache = cache_ttl::five_minutes;
    /// Adds "eager_input_streaming":true to every tool: its streamed arguments arrive unbuffered
    /// and unvalidated (fine-grained tool streaming), so a piece may end mid-token and a call cut
    /// off by max_tokens may hold invalid JSON.
    bool eager_tool_input = false;

    http_request request(const chat_request& request) const;
    /// A request the Messages API would refuse, refused before sending: with manual thinking a
    /// forced tool_choice, a budget under 1024 or not under max_tokens; with any thinking a
    /// temperature; a tool result holding content blocks a tool_result cannot carry.
    std::optional<provider_error> refuse(const chat_request& request) const;
    /// Whether a request may force a tool call (tool_choice required or one): not with manual
    /// thinking. agent<> asks planned runs' plan without forcing it then.
    bool forces_tools() const noexcept { return !thinking || thinking->type != anthropic_thinking::kind::enabled; }
    turn_result parse(const http_response& response) const;
    class stream;
    stream start_stream(stream_events events) const;
};

/// Reads a streamed Messages response: message_start, content_block_start/delta/stop,
/// message_delta, message_stop; ping and unknown events are skipped, an error event ends the
/// turn with that error.
class anthropic::stream {
public:
    explicit stream(stream_events events, std::size_t max_event = response_limits{}.max_event)
        : events_(std::move(events)), parser_(max_event) {}

    void feed(std::string_view bytes);

    /// A line or an event passed max_event: nothing more is read (complete() stops the transfer).
    bool overflowed() const noexcept { return parser_.overflowed(); }

    turn_result finish(const http_response& head);

private:
    struct tool_block {
        std::uint64_t index = 0;
        std::string id;
        std::string name;
        std::string input;
        bool stopped = false;
        /// How much of `input` went to on_tool_arguments (none while it is blank).
        std::size_t sent = 0;
    };
    /// A thinking or redacted_thinking block being read.
    struct part_block {
        std::uint64_t index = 0;
        provider_part part;
        std::string thinking;   // a thinking block's text and signature, written by finish()
        std::string signature;
    };
    struct stream_error {
        std::string type;
        std::string message;
    };

    bool failed() const noexcept { return error_.has_value() || malformed_.has_value() || parser_.overflowed(); }

    tool_block* tool_at(std::uint64_t index) noexcept {
        for (auto it = tools_.rbegin(); it != tools_.rend(); ++it)
            if (it->index == index) return &*it;
        return nullptr;
    }

    part_block* part_at(std::uint64_t index) noexcept {
        for (auto it = parts_.rbegin(); it != parts_.rend(); ++it)
            if (it->index == index) return &*it;
        return nullptr;
    }

    void text(std::string_view piece);

    /// Passes on what `b` has of its arguments: nothing while they are blank; at the block's
    /// end, "{}" for blank ones, so that the pieces joined are the call's arguments.
    void arguments(tool_block& b, bool at_stop);

    /// Where a part read now stood: 0 before any text or call, n + 1 after n calls.
    std::uint32_t position() const noexcept {
        return provider_part::position_after(tools_.size(), text_seen_);
    }

    void on_event(const detail::sse_event& e);

    void missing(std::string_view kind, std::string_view what);

    stream_events events_;
    detail::sse_parser parser_;
    std::string text_;
    std::vector<tool_block> tools_;
    std::vector<part_block> parts_;
    bool text_seen_ = false;
    std::string stop_reason_;
    detail::anthropic_wire::usage_in usage_;
    std::optional<stream_error> error_;
    std::optional<std::string> malformed_;
    bool done_ = false;
    bool at_end_ = false;  // finish() is reading an event the stream ended in
};

} // namespace agentry

#if !defined(AGENTRY_SEPARATE_COMPILATION)
#include <agentry/provider/impl/anthropic.ipp>
#endif

#endif
