// SPDX-License-Identifier: BSL-1.0
#ifndef AGENTRY_PROVIDER_OPENAI_HPP
#define AGENTRY_PROVIDER_OPENAI_HPP

// agentry::openai: the OpenAI Chat Completions API (POST {base_url}/chat/completions), and
// the servers that speak it: llama.cpp's llama-server, vLLM, Ollama (/v1), LM Studio.
//
//   agentry::openai gpt{.model = "gpt-4o-mini"};  // the key from OPENAI_API_KEY
//   agentry::openai local{.model = "qwen2.5", .base_url = "http://127.0.0.1:8080/v1",
//                         .max_tokens_as = agentry::openai::max_tokens_field::max_tokens};
//   agentry::turn_result r = agentry::complete(gpt, transport, request);
//
// Requests: role::system messages are sent as "system" messages (OpenAI maps them to
// "developer" for the models that want that; every compatible server knows "system").
// chat_request::tools is inserted as is; tool_choice and parallel_tool_calls are sent only
// with tools, and tool_choice_kind::automatic is left out (it is the default with tools).
// chat_request::max_tokens goes in max_completion_tokens (max_tokens is deprecated and
// refused by reasoning models) unless max_tokens_as says max_tokens, which older
// compatible servers need: Ollama and LM Studio document max_tokens only, and llama-server
// reads max_completion_tokens only since early 2026. agent<> sends the tools in
// openai::dialect, dialect::openai_strict.
//
// Responses and streams: unknown members are skipped and null is absent. finish_reason
// "length" drops a tool call whose arguments are not complete JSON (completion::
// incomplete_tool_call); tool calls with "stop" (as some servers send) finish as tool_calls.
// Streamed tool calls are put together by `index`, tolerating a whole call in one delta,
// arguments in the first delta, the id and name sent again, the full arguments sent again
// instead of the next piece (a delta that starts with all the text so far, unless the
// server has already sent pieces), one index reused for a new call (a different name, or a
// different id with a name), and calls without an index (a delta with an id or a name
// starts the next call; one with neither continues the last). Nothing is returned from a
// stream that did not end with [DONE].
//
// Errors: {"error":{"message","type","code"}} (or a bare string, or older vLLM's top-level
// {"object":"error",...}) becomes a provider_error with the message, and the code when it is
// a string (e.g. "invalid_api_key", "rate_limit_exceeded"), else the type. A 429 whose code
// is insufficient_quota is not retryable; a 429 without Retry-After takes its delay from
// x-ratelimit-reset-requests or -tokens. An error event inside a 200 stream is typed from
// its numeric code, or from words in its type and code; server error when neither says.
//
// Nothing here throws except std::bad_alloc.

#include <agentry/json/reader.hpp>
#include <agentry/json/writer.hpp>
#include <agentry/provider/detail/openai_wire.hpp>
#include <agentry/provider/detail/sse.hpp>
#include <agentry/provider/detail/wire_common.hpp>
#include <agentry/provider/message.hpp>
#include <agentry/provider/provider.hpp>
#include <agentry/schema/dialect.hpp>
#include <agentry/transport/transport.hpp>

#include <algorithm>
#include <atomic>
#include <charconv>
#include <chrono>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace agentry {

struct openai {
    /// The tools payload agent<> asks the registry for. Strict mode suits OpenAI and is
    /// accepted by the compatible servers; a type deriving from openai can name another.
    using dialect = agentry::dialect::openai_strict;

    std::string model{};
    /// With the API version, as the official SDKs take it: "http://127.0.0.1:8080/v1".
    std::string base_url = "https://api.openai.com/v1";
    /// Empty: OPENAI_API_KEY, read when each request is built; neither: no Authorization
    /// header (local servers need none).
    std::string api_key{};
    /// Sent with every request; one named like a default (Authorization, Content-Type,
    /// Accept) replaces it.
    std::vector<http_header> headers{};
    std::chrono::milliseconds connect_timeout{0};
    std::chrono::milliseconds total_timeout{0};
    /// Copied into every request (see http_request::cancel) unless chat_request::cancel is set.
    const std::atomic<bool>* cancel = nullptr;

    /// The request member chat_request::max_tokens is sent as.
    enum class max_tokens_field { max_completion_tokens, max_tokens };
    max_tokens_field max_tokens_as = max_tokens_field::max_completion_tokens;

    class stream;

    http_request request(const chat_request& request) const;
    turn_result parse(const http_response& response) const;
    stream start_stream(stream_events events) const;
};

namespace detail::openai_impl {

namespace wire = openai_wire;

inline std::string_view trim(std::string_view s) noexcept {
    while (!s.empty() && (s.front() == ' ' || s.front() == '\t' || s.front() == '\r' || s.front() == '\n'))
        s.remove_prefix(1);
    while (!s.empty() && (s.back() == ' ' || s.back() == '\t' || s.back() == '\r' || s.back() == '\n'))
        s.remove_suffix(1);
    return s;
}

/// OpenAI's reset durations: "1s", "6m0s", "20ms", "1h2m3.5s".
inline std::optional<std::chrono::milliseconds> parse_reset(std::string_view text) {
    text = trim(text);
    if (text.empty()) return std::nullopt;
    double total = 0;
    while (!text.empty()) {
        double amount = 0;
        const auto [end, ec] = std::from_chars(text.data(), text.data() + text.size(), amount);
        if (ec != std::errc{} || amount < 0) return std::nullopt;
        text.remove_prefix(std::size_t(end - text.data()));
        std::size_t unit_size = 1;
        double unit = 0;
        if (text.starts_with("ms")) {
            unit = 1;
            unit_size = 2;
        } else if (text.starts_with("h")) {
            unit = 3600000;
        } else if (text.starts_with("m")) {
            unit = 60000;
        } else if (text.starts_with("s")) {
            unit = 1000;
        } else {
            return std::nullopt;
        }
        text.remove_prefix(unit_size);
        total += amount * unit;
    }
    return std::chrono::milliseconds(static_cast<long long>(total));
}

/// The error an OpenAI-style body carries, if any.
struct error_fields {
    bool present = false;
    std::string message;
    std::string type;
    std::string code;
    /// The code when it is a number (llama.cpp and vLLM put the HTTP status there).
    int numeric_code = 0;

    /// provider_error::type: the code when it is a word, else the type.
    std::string label() const { return !code.empty() && numeric_code == 0 ? code : type; }
    bool mentions(std::string_view word) const {
        return type.find(word) != std::string::npos || code.find(word) != std::string::npos;
    }
};

inline void read_code(error_fields& f, const std::optional<raw_json>& code) {
    f.code = plain_text(code);
    if (code && !code->text().empty() && code->text().front() != '"') {
        int n = 0;
        const auto [end, ec] = std::from_chars(f.code.data(), f.code.data() + f.code.size(), n);
        if (ec == std::errc{} && end == f.code.data() + f.code.size()) f.numeric_code = n;
    }
}

/// `error_event`: the body came as an SSE `event: error`, so its top-level members describe it.
inline error_fields error_of(const wire::body_in& body, bool error_event = false) {
    error_fields f;
    if (body.error) {
        f.present = true;
        if (const auto* o = std::get_if<wire::error_object>(&*body.error)) {
            f.message = o->message.value_or(std::string{});
            f.type = plain_text(o->type);
            read_code(f, o->code);
        } else {
            f.message = std::get<std::string>(*body.error);
        }
    } else if (error_event || (body.object && *body.object == "error")) {
        f.present = true;
        f.message = body.message.value_or(std::string{});
        f.type = plain_text(body.type);
        read_code(f, body.code);
    }
    return f;
}

inline void adjust_rate_limit(provider_error& e, const error_fields& f, const http_response& r) {
    if (f.type == "insufficient_quota" || f.code == "insufficient_quota") e.retryable = false;
    if (e.kind != provider_error_kind::rate_limited || e.retry_after) return;
    const auto requests = parse_reset(r.header("x-ratelimit-reset-requests"));
    const auto tokens = parse_reset(r.header("x-ratelimit-reset-tokens"));
    if (f.type == "requests" && requests) e.retry_after = requests;
    else if (f.type == "tokens" && tokens) e.retry_after = tokens;
    else if (requests && tokens) e.retry_after = std::max(*requests, *tokens);
    else e.retry_after = requests ? requests : tokens;
}

/// The typed error of a non-2xx response.
inline provider_error http_failure(const http_response& r) {
    error_fields f;
    const auto parsed = json::read<wire::body_in>(r.body, wire_read_options);
    if (parsed.ok()) f = error_of(parsed.value);
    provider_error e = detail::http_error(r, f.message, f.label());
    adjust_rate_limit(e, f, r);
    return e;
}

/// The typed error of an error reported inside a 2xx body or stream.
inline provider_error in_band_failure(const http_response& head, const error_fields& f) {
    http_response as_status;
    as_status.headers = head.headers;
    if (f.numeric_code >= 400 && f.numeric_code <= 599) as_status.status = f.numeric_code;
    else if (f.mentions("insufficient_quota") || f.mentions("rate_limit") || f.type == "requests" || f.type == "tokens")
        as_status.status = 429;
    else if (f.mentions("authentication") || f.mentions("invalid_api_key")) as_status.status = 401;
    else if (f.mentions("permission")) as_status.status = 403;
    else if (f.mentions("invalid_request") || f.mentions("context_length") || f.mentions("not_found"))
        as_status.status = 400;
    else as_status.status = 500;
    provider_error e = detail::http_error(
        as_status, f.message.empty() ? "the server reported an error without a message" : f.message, f.label());
    e.status = head.status;
    adjust_rate_limit(e, f, head);
    return e;
}

/// Sets finish, provider_finish and the tool calls; with "length", drops calls whose
/// arguments were cut off.
inline void conclude(completion& c, std::string_view finish, std::vector<tool_call> calls) {
    c.provider_finish.assign(finish);
    if (finish == "length") {
        const auto cut = std::remove_if(calls.begin(), calls.end(),
                                        [](const tool_call& call) { return !is_json(call.arguments); });
        c.incomplete_tool_call = cut != calls.end();
        calls.erase(cut, calls.end());
    }
    const bool has_calls = !calls.empty();
    c.reply.tool_calls = std::move(calls);
    if (finish == "length") c.finish = finish_reason::max_tokens;
    else if (finish == "content_filter") c.finish = finish_reason::content_filter;
    else if (has_calls) c.finish = finish_reason::tool_calls;
    else if (!c.refusal.empty()) c.finish = finish_reason::refusal;
    else if (finish.empty() || finish == "stop" || finish == "tool_calls" || finish == "function_call")
        c.finish = finish_reason::stop;
    else c.finish = finish_reason::other;
}

inline void add_usage(token_usage& usage, const std::optional<wire::usage_in>& u) {
    if (!u) return;
    if (u->prompt_tokens) usage.input_tokens = *u->prompt_tokens;
    if (u->completion_tokens) usage.output_tokens = *u->completion_tokens;
}

inline std::string default_id(std::size_t i) { return "call_" + std::to_string(i); }

inline turn_result read_completion(const http_response& r) {
    const std::string_view text = trim(r.body);
    if (text.empty()) return {std::nullopt, detail::malformed("agentry: OpenAI response: the body is empty")};
    if (text.front() != '{')
        return {std::nullopt, detail::malformed("agentry: OpenAI response is not a JSON object: " +
                                                std::string(text.substr(0, 60)) + (text.size() > 60 ? "..." : ""))};
    auto parsed = json::read<wire::body_in>(r.body, wire_read_options);
    if (!parsed.ok())
        return {std::nullopt,
                detail::malformed("agentry: OpenAI response is not a chat completion: " + first_error(parsed.errors))};
    wire::body_in& body = parsed.value;
    if (const error_fields f = error_of(body); f.present) return {std::nullopt, in_band_failure(r, f)};
    if (!body.choices || body.choices->empty())
        return {std::nullopt, detail::malformed("agentry: OpenAI response: no choices")};
    wire::choice_in* choice = &body.choices->front();
    for (wire::choice_in& c : *body.choices)
        if (c.index.value_or(0) == 0) {
            choice = &c;
            break;
        }
    if (!choice->message)
        return {std::nullopt, detail::malformed("agentry: OpenAI response: the choice has no message")};
    wire::message_in& m = *choice->message;
    completion c;
    c.reply.text = std::move(m.content).value_or(std::string{});
    c.refusal = std::move(m.refusal).value_or(std::string{});
    std::vector<tool_call> calls;
    if (m.tool_calls) {
        calls.reserve(m.tool_calls->size());
        for (std::size_t i = 0; i != m.tool_calls->size(); ++i) {
            wire::tool_call_in& in = (*m.tool_calls)[i];
            if (!in.function || !in.function->name || in.function->name->empty())
                return {std::nullopt, detail::malformed("agentry: OpenAI response: /choices/0/message/tool_calls/" +
                                                        std::to_string(i) + " has no function name")};
            tool_call call;
            call.id = in.id && !in.id->empty() ? std::move(*in.id) : default_id(i);
            call.name = std::move(*in.function->name);
            call.arguments = plain_text(in.function->arguments);
            calls.push_back(std::move(call));
        }
    }
    if (calls.empty() && m.function_call && m.function_call->name && !m.function_call->name->empty())
        calls.push_back({default_id(0), std::move(*m.function_call->name), plain_text(m.function_call->arguments), {}});
    add_usage(c.usage, body.usage);
    conclude(c, choice->finish_reason.value_or(std::string{}), std::move(calls));
    return {std::move(c), {}};
}

} // namespace detail::openai_impl

/// The assembler of a streamed Chat Completion: feed() the body in any split, then finish().
class openai::stream {
public:
    explicit stream(stream_events events) : events_(std::move(events)) {}

    void feed(std::string_view bytes) {
        if (stopped()) return;
        parser_.feed(bytes, [this](const detail::sse_event& e) { on_event(e); });
    }

    turn_result finish(const http_response& head) {
        namespace impl = detail::openai_impl;
        if (head.status != 0 && (head.status < 200 || head.status > 299))
            return {std::nullopt, impl::http_failure(head)};
        if (!unreadable_.empty()) return {std::nullopt, detail::malformed(std::move(unreadable_))};
        if (error_) return {std::nullopt, impl::in_band_failure(head, *error_)};
        if (!done_) {
            std::string message = "agentry: OpenAI stream ended before [DONE]";
            if (parser_.pending()) message += ", in the middle of an event";
            if (!calls_.empty()) message += "; its tool calls were not returned";
            return {std::nullopt, detail::malformed(std::move(message))};
        }
        completion c;
        c.reply.text = std::move(text_);
        c.refusal = std::move(refusal_);
        c.usage = usage_;
        std::vector<tool_call> calls;
        calls.reserve(calls_.size());
        for (std::size_t i = 0; i != calls_.size(); ++i) {
            partial& p = calls_[i];
            if (p.name.empty())
                return {std::nullopt, detail::malformed("agentry: OpenAI stream: tool call " + std::to_string(i) +
                                                        (p.id.empty() ? std::string{} : " (" + p.id + ")") +
                                                        " has no function name")};
            calls.push_back({p.id.empty() ? impl::default_id(i) : std::move(p.id), std::move(p.name),
                             std::move(p.arguments), {}});
        }
        calls_.clear();
        impl::conclude(c, finish_, std::move(calls));
        return {std::move(c), {}};
    }

private:
    // How a server sends a call's arguments, once known: each delta the next piece, or the
    // whole text so far.
    enum class sending { unknown, pieces, whole };

    struct partial {
        std::optional<std::int64_t> index;
        std::string id;
        std::string name;
        std::string arguments;
        bool announced = false;
        sending mode = sending::unknown;
    };

    bool stopped() const noexcept { return done_ || error_ || !unreadable_.empty(); }

    void on_event(const detail::sse_event& e) {
        namespace wire = detail::openai_wire;
        namespace impl = detail::openai_impl;
        if (stopped()) return;
        ++event_count_;
        const std::string_view data = impl::trim(e.data);
        if (data == "[DONE]") {
            done_ = true;
            return;
        }
        if (data.empty()) return;
        auto parsed = json::read<wire::body_in>(data, detail::wire_read_options);
        if (!parsed.ok()) {
            if (e.name == "error") {
                error_.emplace();
                error_->present = true;
                error_->message.assign(data);
                return;
            }
            unreadable_ = "agentry: OpenAI stream: event " + std::to_string(event_count_) +
                          " is not a chat completion chunk: " + detail::first_error(parsed.errors);
            return;
        }
        wire::body_in& chunk = parsed.value;
        if (impl::error_fields f = impl::error_of(chunk, e.name == "error"); f.present) {
            if (f.message.empty()) f.message.assign(data);
            error_ = std::move(f);
            return;
        }
        impl::add_usage(usage_, chunk.usage);
        if (!chunk.choices) return;
        for (wire::choice_in& choice : *chunk.choices) {
            if (choice.index.value_or(0) != 0) continue;
            if (choice.delta) on_delta(*choice.delta);
            if (choice.finish_reason) finish_ = std::move(*choice.finish_reason);
        }
    }

    void on_delta(detail::openai_wire::message_in& d) {
        if (d.content && !d.content->empty()) {
            text_ += *d.content;
            if (events_.on_text) events_.on_text(*d.content);
        }
        if (d.refusal) refusal_ += *d.refusal;
        if (d.tool_calls)
            for (auto& call : *d.tool_calls) {
                std::string_view id = call.id ? std::string_view(*call.id) : std::string_view{};
                std::string_view name;
                std::string arguments;
                if (call.function) {
                    if (call.function->name) name = *call.function->name;
                    arguments = detail::plain_text(call.function->arguments);
                }
                merge(call.index, id, name, arguments);
            }
        if (d.function_call) {
            const auto& name = d.function_call->name;
            merge(std::nullopt, {}, name ? std::string_view(*name) : std::string_view{},
                  detail::plain_text(d.function_call->arguments));
        }
    }

    // The call a delta belongs to, a new one when it starts one.
    partial& target(std::optional<std::int64_t> index, std::string_view id, std::string_view name) {
        partial* found = nullptr;
        if (index) {
            for (auto it = calls_.rbegin(); it != calls_.rend(); ++it)
                if (it->index == index) {
                    found = &*it;
                    break;
                }
            if (found) {
                const bool other_id = !id.empty() && !found->id.empty() && id != found->id && !name.empty();
                const bool other_name = !name.empty() && !found->name.empty() && name != found->name;
                if (other_id || other_name) found = nullptr;
            }
        } else {
            if (!id.empty())
                for (partial& p : calls_)
                    if (p.id == id) found = &p;
            if (!found && id.empty() && name.empty() && !calls_.empty()) found = &calls_.back();
        }
        if (found) return *found;
        calls_.push_back({index, {}, {}, {}, false, sending::unknown});
        return calls_.back();
    }

    void merge(std::optional<std::int64_t> index, std::string_view id, std::string_view name,
               std::string_view arguments) {
        partial& p = target(index, id, name);
        if (p.id.empty()) p.id.assign(id);
        if (p.name.empty()) p.name.assign(name);
        if (!p.announced && !p.name.empty()) {
            p.announced = true;
            if (events_.on_tool_call) events_.on_tool_call(p.id, p.name);
        }
        if (arguments.empty()) return;
        if (p.arguments.empty()) {
            p.arguments.assign(arguments);
        } else if (!arguments.starts_with(p.arguments)) {
            p.arguments.append(arguments);
            p.mode = sending::pieces;
        } else if (p.mode != sending::pieces) {
            // The whole arguments so far, sent again with more: keep the longer text.
            p.arguments.assign(arguments);
            p.mode = sending::whole;
        } else if (arguments.size() != p.arguments.size()) {
            // A server that sent pieces so far: a piece that repeats the text before it
            // ({"a": then {"a":1}}), unless it is that text exactly (the whole call again).
            p.arguments.append(arguments);
        }
    }

    detail::sse_parser parser_;
    stream_events events_;
    std::vector<partial> calls_;
    std::string text_;
    std::string refusal_;
    std::string finish_;
    token_usage usage_;
    std::optional<detail::openai_impl::error_fields> error_;
    std::string unreadable_;
    std::size_t event_count_ = 0;
    bool done_ = false;
};

inline http_request openai::request(const chat_request& r) const {
    namespace wire = detail::openai_wire;
    wire::request_body body;
    body.model = model;
    body.messages.reserve(r.messages.size());
    for (const message& m : r.messages) {
        wire::message_out out;
        out.content = std::string_view(m.text);
        switch (m.role) {
        case role::system: out.role = "system"; break;
        case role::user: out.role = "user"; break;
        case role::assistant:
            out.role = "assistant";
            if (!m.tool_calls.empty()) {
                std::vector<wire::tool_call_out> calls;
                calls.reserve(m.tool_calls.size());
                for (const tool_call& c : m.tool_calls) calls.push_back({c.id, "function", {c.name, c.arguments}});
                out.tool_calls = std::move(calls);
                if (m.text.empty()) out.content = std::monostate{};
            }
            break;
        case role::tool:
            out.role = "tool";
            out.tool_call_id = std::string_view(m.tool_call_id);
            break;
        }
        body.messages.push_back(std::move(out));
    }
    const std::string_view tools = detail::openai_impl::trim(r.tools);
    if (!tools.empty() && tools != "[]") {
        body.tools = raw_json(std::string(tools));
        switch (r.tool_choice.kind) {
        case tool_choice_kind::automatic: break;
        case tool_choice_kind::none: body.tool_choice = std::string_view("none"); break;
        case tool_choice_kind::required: body.tool_choice = std::string_view("required"); break;
        case tool_choice_kind::one:
            body.tool_choice = wire::named_tool_choice{"function", {r.tool_choice.name}};
            break;
        }
        body.parallel_tool_calls = r.parallel_tool_calls;
    }
    if (r.max_tokens) {
        if (max_tokens_as == max_tokens_field::max_tokens) body.max_tokens = r.max_tokens;
        else body.max_completion_tokens = r.max_tokens;
    }
    body.temperature = r.temperature;
    if (r.stream) {
        body.stream = true;
        body.stream_options = wire::stream_options_out{true};
    }

    http_request http;
    http.url = detail::join_url(base_url, "/chat/completions");
    const std::string key = api_key.empty() ? detail::environment("OPENAI_API_KEY") : api_key;
    http.headers = detail::merge_headers({{"Content-Type", "application/json"},
                                          {"Accept", r.stream ? "text/event-stream" : "application/json"},
                                          {"Authorization", key.empty() ? std::string{} : "Bearer " + key}},
                                         headers);
    json::write(http.body, body, {.omit_empty_optionals = true});
    http.connect_timeout = connect_timeout;
    http.total_timeout = total_timeout;
    http.cancel = r.cancel != nullptr ? r.cancel : cancel;
    return http;
}

inline turn_result openai::parse(const http_response& response) const {
    if (response.status < 200 || response.status > 299)
        return {std::nullopt, detail::openai_impl::http_failure(response)};
    return detail::openai_impl::read_completion(response);
}

inline openai::stream openai::start_stream(stream_events events) const { return stream(std::move(events)); }

} // namespace agentry

#endif
