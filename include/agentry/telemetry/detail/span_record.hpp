// SPDX-License-Identifier: BSL-1.0
#ifndef AGENTRY_TELEMETRY_DETAIL_SPAN_RECORD_HPP
#define AGENTRY_TELEMETRY_DETAIL_SPAN_RECORD_HPP

// What agentry::tracer's end_* functions write into the queue: a fixed-size record, its few
// texts in inline buffers (cut, at a UTF-8 boundary, past their sizes), and the conversion of a
// record into an agentry::span with its OpenTelemetry name, kind and attributes, done on the
// tracer's own thread.

#include <agentry/detail/text.hpp>
#include <agentry/outcome.hpp>
#include <agentry/provider/message.hpp>
#include <agentry/telemetry/span.hpp>
#include <agentry/tool_result.hpp>

#include <array>
#include <cstdint>
#include <cstring>
#include <memory>
#include <string>
#include <string_view>
#include <utility>

namespace agentry::detail::spans {

/// The texts of a record, each with its most bytes (cut past it at a UTF-8 boundary).
enum class text : std::uint8_t { name, id, target, other, model, provider, error, reason, message };
inline constexpr std::array<std::uint16_t, 9> text_limits{63, 63, 127, 63, 63, 31, 47, 31, 159};
inline constexpr std::size_t text_room = [] {
    std::size_t n = 0;
    for (std::uint16_t limit : text_limits) n += limit;
    return n;
}();

enum class record_kind : std::uint8_t { run, turn, plan, call, mcp };

// Laid out so that a call's record, the most frequent, writes its first cache lines only: the
// header, then the texts it sets.
struct span_record {
    record_kind kind = record_kind::run;
    std::array<std::uint8_t, 16> trace_id{};
    std::array<std::uint8_t, 8> span_id{};
    std::array<std::uint8_t, 8> parent{};
    /// steady_clock, in nanoseconds since its epoch.
    std::int64_t start = 0;
    std::int64_t end = 0;

    std::uint32_t count = 0;     // run: turns; plan: steps; call: attempts
    std::uint32_t number = 0;    // turn: its number; plan: the turn that wrote it; call: round
    std::uint32_t retries = 0;   // turn: retries; plan: rounds
    int error_code = 0;
    bool failed = false;         // run, plan
    bool has_error_code = false; // mcp
    bool server = false;         // mcp
    bool timed_out = false;      // call
    bool has_status = false;     // call: a step record was given
    tool_status status = tool_status::ok;

    // The texts, packed one after the other in the order set (only the bytes written are
    // touched: a call's record writes a few cache lines, not one per text):
    //   name     run: agent; call: tool; mcp: method; plan: agent
    //   id       run: run id; call: call id; mcp: JSON-RPC request id
    //   target   call: plan step; mcp: target
    //   other    call: fallback tool; mcp: session id
    //   model, provider, error
    //   reason   run: stop reason; turn: finish reason
    //   message  turn: the provider's error message
    std::array<std::uint16_t, 9> text_at{};
    std::array<std::uint16_t, 9> text_size{};
    std::uint16_t text_used = 0;
    // capture_content only: owned, deleted by the consumer.
    std::string* arguments = nullptr;
    std::string* result = nullptr;

    char texts[text_room];
    // run, turn: set by each that reads it (past the texts: a call's record does not touch it).
    token_usage usage{};

    span_record() = default;
    span_record(const span_record&) = delete;
    span_record& operator=(const span_record&) = delete;
    ~span_record() { release_content(); }

    void release_content() noexcept {
        delete std::exchange(arguments, nullptr);
        delete std::exchange(result, nullptr);
    }

    /// Sets text `t` (once per record: the room holds each text at its limit).
    void set(text t, std::string_view value) noexcept {
        const std::size_t i = std::size_t(t);
        const std::size_t n = agentry::detail::utf8_cut(value, text_limits[i]);
        if (n != 0) std::memcpy(texts + text_used, value.data(), n);
        text_at[i] = text_used;
        text_size[i] = static_cast<std::uint16_t>(n);
        text_used = static_cast<std::uint16_t>(text_used + n);
    }
    std::string_view get(text t) const noexcept {
        const std::size_t i = std::size_t(t);
        return {texts + text_at[i], text_size[i]};
    }

    void clear() noexcept {
        text_size = {};
        text_used = 0;
        count = number = retries = 0;
        error_code = 0;
        failed = has_error_code = server = timed_out = has_status = false;
        status = tool_status::ok;
        arguments = result = nullptr;
    }
};

inline void add(span& s, std::string_view key, std::string_view value) {
    s.attributes.push_back({key, attribute_value(std::in_place_type<std::string>, value)});
}
inline void add_if(span& s, std::string_view key, std::string_view value) {
    if (!value.empty()) add(s, key, value);
}
inline void add(span& s, std::string_view key, std::uint64_t value) {
    s.attributes.push_back({key, attribute_value(std::in_place_type<std::int64_t>, static_cast<std::int64_t>(value))});
}
inline void add_if(span& s, std::string_view key, std::uint64_t value) {
    if (value != 0) add(s, key, value);
}

inline void add_usage(span& s, const token_usage& u) {
    add(s, "gen_ai.usage.input_tokens", u.input_tokens);
    add(s, "gen_ai.usage.output_tokens", u.output_tokens);
    add_if(s, "gen_ai.usage.cache_read.input_tokens", u.cached_input_tokens);
    add_if(s, "gen_ai.usage.cache_creation.input_tokens", u.cache_write_tokens);
    add_if(s, "gen_ai.usage.reasoning.output_tokens", u.reasoning_tokens);
}

inline void set_error(span& s, std::string_view type, std::string_view message = {}) {
    s.status = span_status::error;
    s.status_message.assign(message);
    add(s, "error.type", type);
}

inline std::string joined(std::string_view a, std::string_view b) {
    std::string out;
    out.reserve(a.size() + 1 + b.size());
    out.append(a);
    if (!b.empty()) {
        out += ' ';
        out.append(b);
    }
    return out;
}

/// The span of a record; `offset` turns its steady_clock times into Unix nanoseconds.
/// Takes the record's captured content.
inline span to_span(span_record& r, std::int64_t offset) {
    const std::unique_ptr<std::string> arguments(std::exchange(r.arguments, nullptr));
    const std::unique_ptr<std::string> result(std::exchange(r.result, nullptr));
    span s;
    s.trace_id = r.trace_id;
    s.span_id = r.span_id;
    s.parent_span_id = r.parent;
    s.start_unix_ns = static_cast<std::uint64_t>(r.start + offset);
    s.end_unix_ns = static_cast<std::uint64_t>(r.end + offset);
    s.attributes.reserve(12);
    switch (r.kind) {
    case record_kind::run:
        s.name = joined("invoke_agent", r.get(text::name));
        s.kind = span_kind::internal;
        add(s, "gen_ai.operation.name", "invoke_agent");
        add_if(s, "gen_ai.agent.name", r.get(text::name));
        add_if(s, "gen_ai.provider.name", r.get(text::provider));
        add_if(s, "gen_ai.request.model", r.get(text::model));
        add_if(s, "agentry.run.id", r.get(text::id));
        add_usage(s, r.usage);
        add(s, "agentry.run.turns", r.count);
        add_if(s, "agentry.run.stop", r.get(text::reason));
        if (r.failed) set_error(s, r.get(text::error).empty() ? std::string_view("run_failed") : r.get(text::error));
        break;
    case record_kind::turn:
        s.name = joined("chat", r.get(text::model));
        s.kind = span_kind::client;
        add(s, "gen_ai.operation.name", "chat");
        add_if(s, "gen_ai.provider.name", r.get(text::provider));
        add_if(s, "gen_ai.request.model", r.get(text::model));
        add_usage(s, r.usage);
        if (!r.get(text::reason).empty())
            s.attributes.push_back({"gen_ai.response.finish_reasons",
                                    attribute_value(std::in_place_type<std::vector<std::string>>,
                                                    1, std::string(r.get(text::reason)))});
        add(s, "agentry.turn", r.number);
        add(s, "agentry.retries", r.retries);
        if (!r.get(text::error).empty()) set_error(s, r.get(text::error), r.get(text::message));
        break;
    case record_kind::plan:
        s.name = joined("plan", r.get(text::name));
        s.kind = span_kind::internal;
        add(s, "gen_ai.operation.name", "plan");
        add_if(s, "gen_ai.agent.name", r.get(text::name));
        add(s, "agentry.plan.turn", r.number);
        add(s, "agentry.plan.steps", r.count);
        add(s, "agentry.plan.rounds", r.retries);
        if (r.failed) set_error(s, "plan_failed");
        break;
    case record_kind::call:
        s.name = joined("execute_tool", r.get(text::name));
        s.kind = span_kind::internal;
        add(s, "gen_ai.operation.name", "execute_tool");
        add_if(s, "gen_ai.tool.name", r.get(text::name));
        add_if(s, "gen_ai.tool.call.id", r.get(text::id));
        add(s, "gen_ai.tool.type", "function");
        if (arguments) add(s, "gen_ai.tool.call.arguments", *arguments);
        if (result) add(s, "gen_ai.tool.call.result", *result);
        if (r.has_status) {
            add(s, "agentry.tool.status", to_string(r.status));
            add(s, "agentry.tool.attempts", r.count);
        }
        add_if(s, "agentry.tool.fallback", r.get(text::other));
        if (!r.get(text::target).empty()) {
            add(s, "agentry.plan.step", r.get(text::target));
            add(s, "agentry.plan.round", r.number);
        }
        if (r.has_status && r.status != tool_status::ok) set_error(s, r.get(text::error));
        break;
    case record_kind::mcp: {
        const std::string_view method = r.get(text::name);
        const bool named = method == "tools/call" || method == "prompts/get";
        s.name = joined(method, named ? r.get(text::target) : std::string_view());
        s.kind = r.server ? span_kind::server : span_kind::client;
        add(s, "mcp.method.name", method);
        add_if(s, "mcp.session.id", r.get(text::other));
        add_if(s, "jsonrpc.request.id", r.get(text::id));
        if (method == "tools/call") {
            add(s, "gen_ai.operation.name", "execute_tool");
            add_if(s, "gen_ai.tool.name", r.get(text::target));
        } else if (method == "prompts/get") {
            add_if(s, "gen_ai.prompt.name", r.get(text::target));
        } else if (method.starts_with("resources/") || method == "notifications/resources/updated") {
            add_if(s, "mcp.resource.uri", r.get(text::target));
        }
        if (r.has_error_code) {
            const std::string code = std::to_string(r.error_code);
            add(s, "rpc.response.status_code", code);
            set_error(s, code);
        } else if (!r.get(text::error).empty()) {
            set_error(s, r.get(text::error));
        } else if (r.failed) {
            set_error(s, "tool_error");
        }
        break;
    }
    }
    return s;
}

} // namespace agentry::detail::spans

#endif
