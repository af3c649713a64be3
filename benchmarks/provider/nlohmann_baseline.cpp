// SPDX-License-Identifier: BSL-1.0
// The baseline: the same work written the usual way with nlohmann::json.
//
// - Request: a DOM built from the messages (the tools payload parsed into it, for every
//   request or once and then copied), then dump(); the same URL and headers as agentry.
// - Response: nlohmann::json::parse, then content, refusal, tool calls (id, name,
//   arguments), finish_reason and usage (with its cached and reasoning tokens) read from the DOM.
// - Stream: the body split into lines, each `data:` line parsed with nlohmann::json::parse,
//   text appended, tool-call deltas accumulated by `index`, ended by [DONE].
// Errors are reported as agentry::provider_error so that both sides return the same type.

#include "alloc_counter.hpp"
#include "cases.hpp"

#include <benchmark/benchmark.h>
#include <nlohmann/json.hpp>

#include <cstdint>
#include <string>
#include <utility>

namespace bench::nlohmann_impl {

using nlohmann::json;

namespace {

const char* role_name(agentry::role r) {
    switch (r) {
    case agentry::role::system: return "system";
    case agentry::role::user: return "user";
    case agentry::role::assistant: return "assistant";
    case agentry::role::tool: return "tool";
    }
    return "user";
}

const json& cached_tools(std::string_view text) {
    static std::string key;
    static json dom;
    if (key != text) {
        dom = json::parse(text);
        key.assign(text);
    }
    return dom;
}

agentry::turn_result failure(std::string message, int status = 200) {
    agentry::turn_result r;
    r.error.kind = status >= 200 && status <= 299 ? agentry::provider_error_kind::malformed
                                                 : agentry::provider_error_kind::server;
    r.error.status = status;
    r.error.message = std::move(message);
    return r;
}

/// finish_reason as agentry::finish_reason.
agentry::finish_reason finish_of(const std::string& finish, bool has_calls, bool refused) {
    if (finish == "length") return agentry::finish_reason::max_tokens;
    if (finish == "content_filter") return agentry::finish_reason::content_filter;
    if (has_calls) return agentry::finish_reason::tool_calls;
    if (refused) return agentry::finish_reason::refusal;
    if (finish.empty() || finish == "stop" || finish == "tool_calls") return agentry::finish_reason::stop;
    return agentry::finish_reason::other;
}

std::string string_or_empty(const json& object, const char* key) {
    const auto it = object.find(key);
    return it != object.end() && it->is_string() ? it->get<std::string>() : std::string{};
}

std::uint64_t number_or_zero(const json& object, const char* key) {
    const auto it = object.find(key);
    return it != object.end() && it->is_number_unsigned() ? it->get<std::uint64_t>() : 0;
}

void read_usage(const json& body, agentry::token_usage& usage) {
    const auto u = body.find("usage");
    if (u == body.end() || !u->is_object()) return;
    usage.input_tokens = number_or_zero(*u, "prompt_tokens");
    usage.output_tokens = number_or_zero(*u, "completion_tokens");
    if (const auto d = u->find("prompt_tokens_details"); d != u->end() && d->is_object()) {
        usage.cached_input_tokens = number_or_zero(*d, "cached_tokens");
        usage.cache_write_tokens = number_or_zero(*d, "cache_write_tokens");
    }
    if (const auto d = u->find("completion_tokens_details"); d != u->end() && d->is_object())
        usage.reasoning_tokens = number_or_zero(*d, "reasoning_tokens");
}

} // namespace

agentry::http_request build(const agentry::chat_request& r, tools_mode mode) {
    const agentry::openai& p = fixture().provider;
    json body;
    body["model"] = p.model;
    json& messages = body["messages"] = json::array();
    for (const agentry::message& m : r.messages) {
        json out;
        out["role"] = role_name(m.role);
        if (m.role == agentry::role::assistant && !m.tool_calls.empty()) {
            out["content"] = m.text.empty() ? json(nullptr) : json(m.text);
            json& calls = out["tool_calls"] = json::array();
            for (const agentry::tool_call& c : m.tool_calls)
                calls.push_back({{"id", c.id},
                                 {"type", "function"},
                                 {"function", {{"name", c.name}, {"arguments", c.arguments}}}});
        } else {
            out["content"] = m.text;
        }
        if (m.role == agentry::role::tool) out["tool_call_id"] = m.tool_call_id;
        messages.push_back(std::move(out));
    }
    if (!r.tools.empty() && r.tools != "[]") {
        body["tools"] = mode == tools_mode::parse_each_request ? json::parse(r.tools) : cached_tools(r.tools);
        switch (r.tool_choice.kind) {
        case agentry::tool_choice_kind::automatic: break;
        case agentry::tool_choice_kind::none: body["tool_choice"] = "none"; break;
        case agentry::tool_choice_kind::required: body["tool_choice"] = "required"; break;
        case agentry::tool_choice_kind::one:
            body["tool_choice"] = {{"type", "function"}, {"function", {{"name", r.tool_choice.name}}}};
            break;
        }
        if (r.parallel_tool_calls) body["parallel_tool_calls"] = *r.parallel_tool_calls;
    }
    if (r.max_tokens) body["max_completion_tokens"] = *r.max_tokens;
    if (r.temperature) body["temperature"] = *r.temperature;
    if (r.stream) {
        body["stream"] = true;
        body["stream_options"] = {{"include_usage", true}};
    }

    agentry::http_request http;
    http.url = (p.http.base_url.empty() ? std::string(agentry::openai::default_base_url) : p.http.base_url) +
               "/chat/completions";
    http.headers = {{"Content-Type", "application/json"},
                    {"Accept", r.stream ? "text/event-stream" : "application/json"},
                    {"Authorization", "Bearer " + p.api_key}};
    http.body = body.dump();
    return http;
}

agentry::turn_result parse(const agentry::http_response& response) {
    if (response.status < 200 || response.status > 299)
        return failure("HTTP " + std::to_string(response.status), response.status);
    const json body = json::parse(response.body, nullptr, false);
    if (body.is_discarded() || !body.is_object()) return failure("the response is not a JSON object");
    if (const auto e = body.find("error"); e != body.end() && !e->is_null())
        return failure(e->is_object() ? string_or_empty(*e, "message") : e->dump());
    const auto choices = body.find("choices");
    if (choices == body.end() || !choices->is_array() || choices->empty()) return failure("no choices");
    const json& choice = choices->front();
    const auto message = choice.find("message");
    if (message == choice.end() || !message->is_object()) return failure("the choice has no message");

    agentry::completion c;
    c.reply.text = string_or_empty(*message, "content");
    c.refusal = string_or_empty(*message, "refusal");
    if (const auto calls = message->find("tool_calls"); calls != message->end() && calls->is_array()) {
        for (const json& call : *calls) {
            const auto function = call.find("function");
            if (function == call.end() || !function->is_object()) return failure("a tool call has no function");
            agentry::tool_call out;
            out.id = string_or_empty(call, "id");
            out.name = string_or_empty(*function, "name");
            if (const auto args = function->find("arguments"); args != function->end())
                out.arguments = args->is_string() ? args->get<std::string>() : args->dump();
            c.reply.tool_calls.push_back(std::move(out));
        }
    }
    read_usage(body, c.usage);
    c.provider_finish = string_or_empty(choice, "finish_reason");
    c.finish = finish_of(c.provider_finish, !c.reply.tool_calls.empty(), !c.refusal.empty());
    return {std::move(c), {}};
}

agentry::turn_result assemble(std::string_view sse) {
    agentry::completion c;
    bool done = false;
    for (std::size_t pos = 0; pos < sse.size() && !done;) {
        std::size_t end = sse.find('\n', pos);
        if (end == std::string_view::npos) end = sse.size();
        std::string_view line = sse.substr(pos, end - pos);
        pos = end + 1;
        if (!line.empty() && line.back() == '\r') line.remove_suffix(1);
        if (!line.starts_with("data:")) continue;
        line.remove_prefix(5);
        if (!line.empty() && line.front() == ' ') line.remove_prefix(1);
        if (line == "[DONE]") {
            done = true;
            continue;
        }
        const json chunk = json::parse(line, nullptr, false);
        if (chunk.is_discarded() || !chunk.is_object()) return failure("a stream event is not a JSON object");
        if (const auto e = chunk.find("error"); e != chunk.end() && !e->is_null()) return failure(e->dump());
        read_usage(chunk, c.usage);
        const auto choices = chunk.find("choices");
        if (choices == chunk.end() || !choices->is_array()) continue;
        for (const json& choice : *choices) {
            if (choice.value("index", 0) != 0) continue;
            if (const auto delta = choice.find("delta"); delta != choice.end() && delta->is_object()) {
                if (const auto t = delta->find("content"); t != delta->end() && t->is_string())
                    c.reply.text += t->get_ref<const std::string&>();
                if (const auto t = delta->find("refusal"); t != delta->end() && t->is_string())
                    c.refusal += t->get_ref<const std::string&>();
                if (const auto calls = delta->find("tool_calls"); calls != delta->end() && calls->is_array()) {
                    for (const json& call : *calls) {
                        const std::size_t index = call.value("index", std::size_t(0));
                        if (index >= c.reply.tool_calls.size()) c.reply.tool_calls.resize(index + 1);
                        agentry::tool_call& out = c.reply.tool_calls[index];
                        if (const auto id = call.find("id"); id != call.end() && id->is_string())
                            out.id = id->get<std::string>();
                        if (const auto f = call.find("function"); f != call.end() && f->is_object()) {
                            if (const auto n = f->find("name"); n != f->end() && n->is_string())
                                out.name = n->get<std::string>();
                            if (const auto a = f->find("arguments"); a != f->end() && a->is_string())
                                out.arguments += a->get_ref<const std::string&>();
                        }
                    }
                }
            }
            if (const auto f = choice.find("finish_reason"); f != choice.end() && f->is_string())
                c.provider_finish = f->get<std::string>();
        }
    }
    if (!done) return failure("the stream ended before [DONE]");
    c.finish = finish_of(c.provider_finish, !c.reply.tool_calls.empty(), !c.refusal.empty());
    return {std::move(c), {}};
}

namespace {

void request_case(benchmark::State& state, tools_mode mode) {
    const turn_fixture& f = fixture();
    timed(state, [&] { return build(f.request, mode); });
}

void parse_case(benchmark::State& state) {
    const turn_fixture& f = fixture();
    timed(state, [&] { return parse(f.response); });
}

void turn_case(benchmark::State& state, tools_mode mode) {
    const turn_fixture& f = fixture();
    timed(state, [&] {
        agentry::http_request http = build(f.request, mode);
        benchmark::DoNotOptimize(http);
        return parse(f.response);
    });
}

void sse_case(benchmark::State& state, const std::vector<const recorded_stream*>& streams) {
    std::size_t bytes = 0;
    for (const recorded_stream* s : streams) bytes += s->body.size();
    timed(state, [&] {
        std::size_t calls = 0;
        for (const recorded_stream* s : streams) {
            agentry::turn_result r = assemble(s->body);
            calls += r.ok() ? r.value->reply.tool_calls.size() : 100;
        }
        return calls;
    });
    state.SetBytesProcessed(std::int64_t(state.iterations()) * std::int64_t(bytes));
}

} // namespace

void register_benchmarks(const std::vector<recorded_stream>& streams) {
    benchmark::RegisterBenchmark("nlohmann/request", request_case, tools_mode::parse_each_request);
    benchmark::RegisterBenchmark("nlohmann/parse", parse_case);
    benchmark::RegisterBenchmark("nlohmann/turn", turn_case, tools_mode::parse_each_request);
    benchmark::RegisterBenchmark("nlohmann_cached_tools/request", request_case, tools_mode::cached_dom);
    benchmark::RegisterBenchmark("nlohmann_cached_tools/turn", turn_case, tools_mode::cached_dom);
    std::vector<const recorded_stream*> all;
    for (const recorded_stream& s : streams) {
        all.push_back(&s);
        benchmark::RegisterBenchmark(("nlohmann/sse/" + s.name).c_str(), sse_case, std::vector{&s});
    }
    if (!all.empty()) benchmark::RegisterBenchmark("nlohmann/sse/all", sse_case, all);
}

} // namespace bench::nlohmann_impl
