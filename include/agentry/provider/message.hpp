// SPDX-License-Identifier: BSL-1.0
#ifndef AGENTRY_PROVIDER_MESSAGE_HPP
#define AGENTRY_PROVIDER_MESSAGE_HPP

// The conversation as agentry keeps it, whatever the provider: messages with their tool calls
// and results, what a model turn returns, token usage and typed provider errors. Each provider
// (provider/openai.hpp, anthropic.hpp, gemini.hpp, ollama.hpp) maps these to its wire format.

#include <agentry/detail/chrono.hpp>
#include <agentry/tool_call.hpp>
#include <agentry/tool_result.hpp>
#include <agentry/trace_context.hpp>

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

enum class role { system, user, assistant, tool };

/// A part of a model reply that only its provider reads and that must go back to it unchanged
/// with the next requests: an OpenAI reasoning item, an Anthropic thinking block with its
/// signature. Kept byte for byte through save()/restore(), summaries (a summary replaces whole
/// messages, never part of one) and durable checkpoints.
struct provider_part {
    /// The provider that wrote it: "openai", "anthropic", "gemini", ...
    std::string provider;
    /// Its kind in that provider's terms: "reasoning", "thinking", "redacted_thinking", ...
    std::string kind;
    /// The part as the provider sent it (its JSON text), never changed.
    std::string raw;
    /// Where it stood in the reply: 0 before the text; n before the reply's tool call n - 1.
    std::uint32_t position = 0;

    /// The position of a part read after `calls` tool calls and, when `text_seen`, some text.
    static constexpr std::uint32_t position_after(std::size_t calls, bool text_seen) noexcept {
        return calls == 0 && !text_seen ? 0u : static_cast<std::uint32_t>(calls + 1);
    }

    friend bool operator==(const provider_part&, const provider_part&) = default;
};

struct message {
    agentry::role role = agentry::role::user;
    std::string text;
    /// role::assistant: the calls of this turn, in the model's order.
    std::vector<tool_call> tool_calls;
    /// role::tool: the id and name of the call this message answers.
    std::string tool_call_id;
    std::string tool_name;
    /// role::tool: the text is an error (Anthropic `is_error`).
    bool is_error = false;
    /// role::assistant: the parts of the reply only its provider reads, in their order; absent
    /// when it has none (so that a conversation saved without them reads as it was written).
    std::optional<std::vector<provider_part>> parts;
    /// role::tool: true when `text` is a JSON array of MCP content blocks (the result of a tool
    /// returning mcp::content, mcp::image, ...: see mcp/content.hpp), which each provider sends
    /// in its own shape (Anthropic image blocks, Responses input_image, Gemini inline data) or
    /// refuses with a provider_error naming the tool; absent: plain text. A tool search's
    /// tool_reference blocks (select/tool_search.hpp) are carried the same way.
    std::optional<bool> content_blocks;

    static message system(std::string text) { return of(agentry::role::system, std::move(text)); }
    static message user(std::string text) { return of(agentry::role::user, std::move(text)); }
    static message assistant(std::string text, std::vector<tool_call> calls = {}) {
        message m = of(agentry::role::assistant, std::move(text));
        m.tool_calls = std::move(calls);
        return m;
    }
    static message tool_result(const tool_call& call, std::string content, bool is_error = false) {
        message m = of(agentry::role::tool, std::move(content));
        m.tool_call_id = call.id;
        m.tool_name = call.name;
        m.is_error = is_error;
        return m;
    }
    /// The message of a call's result as registry::call returns it: its content, an error when
    /// it did not succeed, marked as MCP content when it is (and was not cut at the size cap).
    static message tool_result(const tool_call& call, const agentry::tool_result& result) {
        message m = tool_result(call, result.content, !result.ok());
        if (result.content_blocks && result.ok() && !result.truncated) m.content_blocks = true;
        return m;
    }
    /// A message of `r` with `text` and nothing else.
    static message of(agentry::role r, std::string text) {
        message m;
        m.role = r;
        m.text = std::move(text);
        return m;
    }
};

/// Tokens of one turn, or summed over turns. Every provider's input_tokens counts the whole
/// prompt, cached parts included, and output_tokens the whole output, reasoning included; the
/// other members say how much of those was what, where the provider reports it (0 otherwise).
struct token_usage {
    std::uint64_t input_tokens = 0;
    std::uint64_t output_tokens = 0;
    /// Input tokens read from the provider's prompt cache (OpenAI cached_tokens, Anthropic
    /// cache_read_input_tokens, Gemini cachedContentTokenCount).
    std::uint64_t cached_input_tokens = 0;
    /// Input tokens written to the prompt cache (Anthropic cache_creation_input_tokens, OpenAI
    /// cache_write_tokens where reported).
    std::uint64_t cache_write_tokens = 0;
    /// Output tokens the model spent reasoning (OpenAI reasoning_tokens, Gemini
    /// thoughtsTokenCount, Anthropic thinking_tokens where reported).
    std::uint64_t reasoning_tokens = 0;

    token_usage& operator+=(const token_usage& other) noexcept {
        input_tokens += other.input_tokens;
        output_tokens += other.output_tokens;
        cached_input_tokens += other.cached_input_tokens;
        cache_write_tokens += other.cache_write_tokens;
        reasoning_tokens += other.reasoning_tokens;
        return *this;
    }
    friend bool operator==(const token_usage&, const token_usage&) = default;
};

enum class finish_reason {
    stop,            // the model finished its answer
    tool_calls,      // the model wants its tool calls run
    max_tokens,      // cut off by the output limit
    refusal,         // the model refused
    content_filter,  // the provider filtered the output
    other,
};

constexpr std::string_view to_string(finish_reason r) noexcept {
    switch (r) {
    case finish_reason::stop: return "stop";
    case finish_reason::tool_calls: return "tool_calls";
    case finish_reason::max_tokens: return "max_tokens";
    case finish_reason::refusal: return "refusal";
    case finish_reason::content_filter: return "content_filter";
    case finish_reason::other: return "other";
    }
    return "other";
}

/// One model turn.
struct completion {
    message reply = message::assistant({});
    finish_reason finish = finish_reason::stop;
    /// The refusal text, when the provider sends one apart from the content.
    std::string refusal;
    token_usage usage;
    /// A tool call was cut off by max_tokens: it is not in reply.tool_calls, and must not be run.
    bool incomplete_tool_call = false;
    /// The provider's own finish text ("tool_calls", "end_turn", "STOP", ...).
    std::string provider_finish;
};

enum class tool_choice_kind { automatic, none, required, one };

struct tool_choice {
    tool_choice_kind kind = tool_choice_kind::automatic;
    /// tool_choice_kind::one: the tool to call.
    std::string name;

    static tool_choice automatic() { return {}; }
    static tool_choice none() { return {tool_choice_kind::none, {}}; }
    static tool_choice required() { return {tool_choice_kind::required, {}}; }
    static tool_choice one(std::string name) { return {tool_choice_kind::one, std::move(name)}; }
};

/// A JSON answer the model must give, sent with the provider's own structured output
/// (OpenAI response_format, Anthropic output_config.format, Gemini responseSchema, Ollama
/// format). The final answer is then that JSON as the reply's text.
struct output_format {
    /// The schema's name (OpenAI's json_schema.name: letters, digits, '_' and '-', at most 64).
    std::string_view name;
    /// The JSON Schema, in the dialect the provider's structured output takes.
    std::string_view schema;
    /// OpenAI strict mode (`"strict":true`); the other providers have no such switch.
    bool strict = false;
};

/// What a provider is asked for one turn.
struct chat_request {
    /// The conversation; role::system messages become the provider's system instructions.
    std::span<const message> messages{};
    /// The tools payload in the provider's dialect (registry.definitions<D>()); empty: none.
    std::string_view tools{};
    agentry::tool_choice tool_choice{};
    std::optional<bool> parallel_tool_calls{};
    std::optional<std::uint32_t> max_tokens{};
    std::optional<double> temperature{};
    bool stream = false;
    /// Set from another thread to abandon the request (copied into http_request::cancel).
    const std::atomic<bool>* cancel = nullptr;
    /// The answer must be JSON of this schema; empty: free text.
    std::optional<output_format> output{};
    /// The span the request belongs to, sent as the W3C traceparent header; not valid(): none.
    trace_context trace{};
};

enum class provider_error_kind {
    transport,       // the request did not complete (see transport_error)
    bad_request,     // 400, 404, 413, 422: the request is wrong; fix it, do not retry
    authentication,  // 401: the API key is missing or wrong
    permission,      // 403
    rate_limited,    // 429
    server,          // 5xx (and Anthropic 529 "overloaded")
    malformed,       // a 2xx whose body or stream agentry could not read
    too_large,       // the response passed response_limits (its body, or one streamed event or line)
    insecure,        // refused before sending: credentials over plain http:// to a host that is not loopback
};

constexpr std::string_view to_string(provider_error_kind k) noexcept {
    switch (k) {
    case provider_error_kind::transport: return "transport";
    case provider_error_kind::bad_request: return "bad_request";
    case provider_error_kind::authentication: return "authentication";
    case provider_error_kind::permission: return "permission";
    case provider_error_kind::rate_limited: return "rate_limited";
    case provider_error_kind::server: return "server";
    case provider_error_kind::malformed: return "malformed";
    case provider_error_kind::too_large: return "too_large";
    case provider_error_kind::insecure: return "insecure";
    }
    return "unknown";
}

struct provider_error {
    provider_error_kind kind = provider_error_kind::malformed;
    /// The HTTP status; 0 for a transport error.
    int status = 0;
    /// The provider's message (from its error body), or agentry's description; credentials
    /// the request carried, and text shaped like one, are replaced by "[redacted]".
    std::string message;
    /// The provider's error type or code ("rate_limit_error", "invalid_api_key", ...).
    std::string type;
    /// Whether sending the same request again may succeed.
    bool retryable = false;
    /// From Retry-After (seconds or an HTTP date) or the provider's own hint; never negative,
    /// and at most detail::max_server_delay (24 hours) whatever the server wrote.
    std::optional<std::chrono::milliseconds> retry_after;
};

/// A completion or the error that stopped it.
struct turn_result {
    std::optional<completion> value;
    provider_error error;

    bool ok() const noexcept { return value.has_value(); }
};

} // namespace agentry

#endif
