// SPDX-License-Identifier: BSL-1.0
#ifndef AGENTRY_PROVIDER_OLLAMA_HPP
#define AGENTRY_PROVIDER_OLLAMA_HPP

// agentry::ollama: Ollama's native chat API (POST {base_url}/api/chat), whole or streamed as
// newline-delimited JSON. Tools use the OpenAI-shaped payload.
//
//   agentry::ollama local{.model = "qwen3"};
//   agentry::chat_request request{.messages = history, .tools = tools.definitions<agentry::dialect::openai>()};
//   agentry::turn_result turn = agentry::complete(local, transport, request);
//
// Requests: a call's arguments go as a JSON object; tool results are role "tool" messages with
// tool_name (and tool_call_id), in the order of the calls they answer; `stream` is always
// written, as Ollama streams by default; max_tokens and temperature go in "options" as
// num_predict and temperature. Ollama has no tool_choice: none leaves the tools out, one sends
// only that tool's definition, required sends them all and cannot force a call. Calls without
// an id (older Ollama releases) are numbered "call_0", "call_1", ... in each turn.
// chat_request::output becomes "format" (a JSON Schema: structured outputs), sent with the tools.

#include <agentry/json/reader.hpp>
#include <agentry/json/writer.hpp>
#include <agentry/provider/detail/ollama_wire.hpp>
#include <agentry/provider/detail/sse.hpp>
#include <agentry/provider/detail/tool_calls.hpp>
#include <agentry/provider/detail/wire_common.hpp>
#include <agentry/provider/message.hpp>
#include <agentry/provider/provider.hpp>
#include <agentry/schema/dialect.hpp>
#include <agentry/transport/transport.hpp>

#include <atomic>
#include <chrono>
#include <cstddef>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace agentry {

namespace detail {

/// The entries of the tools array `tools` whose function is `name`; all of them when none is.
inline std::string ollama_tools_named(std::string_view tools, std::string_view name) {
    auto list = json::read<std::vector<raw_json>>(tools, wire_read_options);
    if (!list.ok()) return std::string(tools);
    std::string out = "[";
    for (const raw_json& entry : list.value) {
        auto tool = json::read<ollama_wire::tool_in>(entry.text(), wire_read_options);
        if (!tool.ok() || !tool.value.function || tool.value.function->name != name) continue;
        if (out.size() != 1) out.push_back(',');
        out += entry.text();
    }
    if (out.size() == 1) return std::string(tools);
    out.push_back(']');
    return out;
}

inline provider_error ollama_http_error(const http_response& response) {
    auto body = json::read<ollama_wire::chunk_in>(response.body, wire_read_options);
    std::string message;
    if (body.ok() && body.value.error) message = std::move(*body.value.error);
    return http_error(response, std::move(message), {});
}

/// A completion being assembled from one response or from the lines of a stream.
class ollama_turn {
public:
    /// Takes one response or line, calling `events` (may be null) for its text and calls.
    void add(ollama_wire::chunk_in& r, const stream_events* events = nullptr) {
        if (r.message) {
            if (r.message->content && !r.message->content->empty()) {
                c_.reply.text += *r.message->content;
                if (events && events->on_text) events->on_text(*r.message->content);
            }
            if (r.message->tool_calls)
                for (ollama_wire::tool_call_in& in : *r.message->tool_calls) {
                    tool_call call;
                    call.id = in.id && !in.id->empty() ? std::move(*in.id) : "call_" + std::to_string(calls_);
                    ++calls_;
                    if (in.function) {
                        call.name = in.function->name.value_or("");
                        call.arguments = plain_text(in.function->arguments);
                    }
                    c_.reply.tool_calls.push_back(std::move(call));
                    if (events && events->on_tool_call)
                        events->on_tool_call(c_.reply.tool_calls.back().id, c_.reply.tool_calls.back().name);
                }
        }
        if (r.done.value_or(false)) {
            done_ = true;
            c_.provider_finish = r.done_reason.value_or("");
            c_.usage = {r.prompt_eval_count.value_or(0), r.eval_count.value_or(0)};
        }
    }

    /// The last line (done: true) has arrived.
    bool done() const noexcept { return done_; }

    /// The completion, or the error of a malformed tool call.
    turn_result take(std::string_view source) {
        const std::string_view reason = c_.provider_finish;
        if (reason == "length") c_.finish = finish_reason::max_tokens;
        else if (reason != "stop" && !reason.empty()) c_.finish = finish_reason::other;  // load, unload
        else if (!c_.reply.tool_calls.empty()) c_.finish = finish_reason::tool_calls;
        else c_.finish = finish_reason::stop;
        if (auto bad = settle_tool_calls(source, c_.reply.tool_calls)) return {std::nullopt, malformed(std::move(*bad))};
        return {std::move(c_), {}};
    }

private:
    completion c_;
    std::size_t calls_ = 0;
    bool done_ = false;
};

} // namespace detail

struct ollama {
    /// The tools payload agent<> asks the registry for: Ollama takes OpenAI's shape.
    using dialect = agentry::dialect::openai;

    /// "qwen3", "llama3.1:8b", ...
    std::string model{};
    /// Without the API path.
    std::string base_url = "http://127.0.0.1:11434";
    /// Sent after agentry's own headers, replacing any of the same name (e.g. an Authorization
    /// header for a server behind a proxy).
    std::vector<http_header> headers{};
    /// A JSON object whose members are added to "options", e.g. R"({"num_ctx":32768})".
    std::string extra_options{};
    /// A JSON object whose members are added to every request body, e.g.
    /// R"({"keep_alive":"10m"})"; they must not repeat a member agentry writes.
    std::string extra_body{};
    std::chrono::milliseconds connect_timeout{0};
    std::chrono::milliseconds total_timeout{0};
    /// Copied into every request (see http_request::cancel) unless chat_request::cancel is set.
    const std::atomic<bool>* cancel = nullptr;
    /// The most a response may make agentry hold (see response_limits).
    response_limits limits{};
    /// Send a credential header given in `headers` over plain http:// to a host that is not
    /// loopback; otherwise complete() refuses such a request (provider_error_kind::insecure).
    bool allow_plain_http_credentials = false;

    http_request request(const chat_request& request) const;
    turn_result parse(const http_response& response) const;
    class stream;
    stream start_stream(stream_events events) const;
};

/// Reads a streamed /api/chat body: one JSON object per line, the last with "done": true; a
/// line {"error": "..."} ends the turn with that error.
class ollama::stream {
public:
    explicit stream(stream_events events, std::size_t max_event = response_limits{}.max_event)
        : events_(std::move(events)), parser_(max_event) {}

    void feed(std::string_view bytes) {
        if (failed() || turn_.done()) return;
        parser_.feed(bytes, [this](std::string_view line) { on_line(line); });
    }

    /// A line or an event passed max_event: nothing more is read (complete() stops the transfer).
    bool overflowed() const noexcept { return parser_.overflowed(); }

    turn_result finish(const http_response& head) {
        if (head.status < 200 || head.status > 299) return {std::nullopt, detail::ollama_http_error(head)};
        if (parser_.overflowed())
            return {std::nullopt, detail::too_large("an ollama stream line", parser_.max_event(), "max_event")};
        if (!failed() && !turn_.done() && !parser_.rest().empty()) {  // the last line may lack its newline
            const std::string rest(parser_.rest());
            at_end_ = true;
            on_line(rest);
        }
        if (error_) {
            provider_error e = detail::http_error({500, head.headers, {}}, std::move(*error_), {});
            e.status = head.status;
            return {std::nullopt, std::move(e)};
        }
        if (malformed_) return {std::nullopt, detail::malformed(std::move(*malformed_))};
        if (!turn_.done())
            return {std::nullopt, detail::malformed("ollama: the stream ended before its last line (\"done\": true)")};
        return turn_.take("ollama stream");
    }

private:
    bool failed() const noexcept { return error_.has_value() || malformed_.has_value() || parser_.overflowed(); }

    void on_line(std::string_view line) {
        if (failed() || turn_.done()) return;
        if (line.find_first_not_of(" \t\r") == std::string_view::npos) return;
        auto read = json::read<detail::ollama_wire::chunk_in>(line, detail::wire_read_options);
        if (!read.ok()) {
            malformed_ = at_end_ ? std::string("ollama: the stream ended before its last line (\"done\": true), inside a line")
                                 : "ollama: unreadable stream line: " + detail::first_error(read.errors);
            return;
        }
        if (read.value.error) {
            error_ = std::move(*read.value.error);
            return;
        }
        turn_.add(read.value, &events_);
    }

    stream_events events_;
    detail::ndjson_parser parser_;
    detail::ollama_turn turn_;
    std::optional<std::string> error_;
    std::optional<std::string> malformed_;
    bool at_end_ = false;  // finish() is reading the line the stream ended in
};

inline http_request ollama::request(const chat_request& r) const {
    namespace wire = detail::ollama_wire;
    wire::request_body body;
    body.model = model;
    const std::span<const message> messages = r.messages;
    body.messages.reserve(messages.size());
    for (std::size_t i = 0; i != messages.size();) {
        const message& m = messages[i];
        if (m.role == role::tool) {
            const std::size_t end = detail::end_of_tool_run(messages, i);
            const auto calls = detail::calls_before(messages, i);
            for (const message* result : detail::in_call_order(messages.subspan(i, end - i), calls)) {
                wire::message_out out;
                out.role = "tool";
                out.content = result->text;
                const std::string_view name = detail::result_name(*result, calls);
                if (!name.empty()) out.tool_name = name;
                if (!result->tool_call_id.empty()) out.tool_call_id = result->tool_call_id;
                body.messages.push_back(std::move(out));
            }
            i = end;
            continue;
        }
        wire::message_out out;
        out.role = m.role == role::system ? "system" : m.role == role::user ? "user" : "assistant";
        out.content = m.text;
        if (m.role == role::assistant && !m.tool_calls.empty()) {
            out.tool_calls.emplace();
            for (std::size_t k = 0; k != m.tool_calls.size(); ++k) {
                const tool_call& call = m.tool_calls[k];
                wire::tool_call_out c{std::nullopt, {k, call.name, detail::arguments_object(call.arguments)}};
                if (!call.id.empty()) c.id = call.id;
                out.tool_calls->push_back(std::move(c));
            }
        }
        body.messages.push_back(std::move(out));
        ++i;
    }

    if (!r.tools.empty()) {
        if (r.tool_choice.kind == tool_choice_kind::one)
            body.tools = raw_json(detail::ollama_tools_named(r.tools, r.tool_choice.name));
        else if (r.tool_choice.kind != tool_choice_kind::none)
            body.tools = raw_json(std::string(r.tools));
    }
    if (r.output) body.format = raw_json(std::string(r.output->schema));
    body.stream = r.stream;
    std::string options;
    json::write(options, wire::options_out{r.max_tokens, r.temperature}, {.omit_empty_optionals = true});
    detail::append_members(options, extra_options);
    if (options != "{}") body.options = raw_json(std::move(options));

    http_request http;
    http.url = detail::join_url(base_url, "/api/chat");
    http.headers = detail::merge_headers({{"content-type", "application/json"}}, headers);
    json::write(http.body, body, {.omit_empty_optionals = true});
    detail::append_members(http.body, extra_body);
    http.connect_timeout = connect_timeout;
    http.total_timeout = total_timeout;
    http.cancel = r.cancel != nullptr ? r.cancel : cancel;
    http.max_body = limits.max_body;
    http.allow_plain_http_credentials = allow_plain_http_credentials;
    return http;
}

inline turn_result ollama::parse(const http_response& response) const {
    if (response.status < 200 || response.status > 299) return {std::nullopt, detail::ollama_http_error(response)};
    auto read = json::read<detail::ollama_wire::chunk_in>(response.body, detail::wire_read_options);
    if (!read.ok())
        return {std::nullopt, detail::malformed("ollama: unreadable response: " + detail::first_error(read.errors))};
    if (read.value.error) {
        provider_error e = detail::http_error({500, response.headers, {}}, std::move(*read.value.error), {});
        e.status = response.status;
        return {std::nullopt, std::move(e)};
    }
    if (!read.value.message) return {std::nullopt, detail::malformed("ollama: unreadable response: /message: missing required property")};
    detail::ollama_turn turn;
    turn.add(read.value);
    return turn.take("ollama response");
}

inline ollama::stream ollama::start_stream(stream_events events) const {
    return stream(std::move(events), limits.max_event);
}

} // namespace agentry

#endif
