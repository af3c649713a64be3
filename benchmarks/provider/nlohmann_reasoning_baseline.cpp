// SPDX-License-Identifier: BSL-1.0
// The baseline of reasoning.hpp: the same work written the usual way with nlohmann::json.
//
// - Request: a DOM built from the messages, then dump(); the same URL and headers as agentry.
//   The provider parts (reasoning items, thinking blocks, function call ids) are kept by the
//   user as nlohmann::json values beside the history, parsed once, and copied into each
//   request's DOM (reasoning_mode::parts_dom, cached_tools_dom); or parsed from their text
//   for every request (parts_text). The tools payload as in nlohmann_baseline.cpp.
// - Response: nlohmann::json::parse, then the text, the calls, the finish reason and every
//   usage count read from the DOM; each part's `raw` is its item dumped back to text (the same
//   JSON value as agentry's, not the same bytes).
// - Stream: the body split into lines, each `data:` line parsed with nlohmann::json::parse.
//   Responses: the items of response.output_item.done and the response of response.completed
//   read as a whole response is. Anthropic: blocks assembled from their deltas, a thinking
//   block written back as {"type","thinking","signature"}.
// Errors are reported as agentry::provider_error so that both sides return the same type.

#include "alloc_counter.hpp"
#include "reasoning.hpp"

#include <benchmark/benchmark.h>
#include <nlohmann/json.hpp>

#include <cstdint>
#include <map>
#include <optional>
#include <span>
#include <string>
#include <utility>
#include <vector>

namespace bench::nlohmann_impl {

using nlohmann::json;

namespace {

agentry::turn_result failure(std::string message) {
    agentry::turn_result r;
    r.error.kind = agentry::provider_error_kind::malformed;
    r.error.status = 200;
    r.error.message = std::move(message);
    return r;
}

std::string string_or_empty(const json& object, const char* key) {
    const auto it = object.find(key);
    return it != object.end() && it->is_string() ? it->get<std::string>() : std::string{};
}

std::optional<std::uint64_t> count(const json& object, const char* key) {
    const auto it = object.find(key);
    if (it == object.end() || !it->is_number_unsigned()) return std::nullopt;
    return it->get<std::uint64_t>();
}

/// The tools payload parsed once per text.
const json& cached_dom(std::string_view text) {
    static std::map<const char*, json> dom;
    auto it = dom.find(text.data());
    if (it == dom.end()) it = dom.emplace(text.data(), json::parse(text)).first;
    return it->second;
}

/// The provider parts of a history as its user keeps them: per message, one value per part.
using kept_parts = std::vector<std::vector<json>>;

const kept_parts& parts_of(std::span<const agentry::message> messages) {
    static std::map<std::pair<const agentry::message*, std::size_t>, kept_parts> kept;
    auto it = kept.find({messages.data(), messages.size()});
    if (it == kept.end()) {
        kept_parts parts(messages.size());
        for (std::size_t i = 0; i != messages.size(); ++i)
            if (messages[i].parts)
                for (const agentry::provider_part& p : *messages[i].parts) parts[i].push_back(json::parse(p.raw));
        it = kept.emplace(std::pair(messages.data(), messages.size()), std::move(parts)).first;
    }
    return it->second;
}

/// Part k of message i: copied from the kept values, or parsed from its text.
json part_value(reasoning_mode mode, const kept_parts* kept, const agentry::message& m, std::size_t i, std::size_t k) {
    return mode == reasoning_mode::parts_text ? json::parse((*m.parts)[k].raw) : (*kept)[i][k];
}

json tools_value(reasoning_mode mode, std::string_view tools) {
    return mode == reasoning_mode::cached_tools_dom ? cached_dom(tools) : json::parse(tools);
}

std::string system_text(std::span<const agentry::message> messages) {
    std::string out;
    for (const agentry::message& m : messages) {
        if (m.role != agentry::role::system || m.text.empty()) continue;
        if (!out.empty()) out += "\n\n";
        out += m.text;
    }
    return out;
}

// ---- OpenAI Responses -----------------------------------------------------------------------

/// The completion of a response object whose output items are `items`.
agentry::turn_result responses_completion(const json& response, const std::vector<const json*>& items) {
    const std::string status = string_or_empty(response, "status");
    if (const auto e = response.find("error"); (e != response.end() && !e->is_null()) || status == "failed")
        return failure(e != response.end() && e->is_object() ? string_or_empty(*e, "message") : "failed");
    agentry::completion c;
    std::vector<agentry::provider_part> parts;
    bool text_before = false;
    for (const json* item : items) {
        const std::string type = string_or_empty(*item, "type");
        const std::size_t calls = c.reply.tool_calls.size();
        if (type == "reasoning") {
            parts.push_back({"openai_responses", "reasoning", item->dump(),
                             calls == 0 && !text_before ? 0u : std::uint32_t(calls + 1)});
        } else if (type == "message") {
            if (const auto content = item->find("content"); content != item->end() && content->is_array())
                for (const json& part : *content) {
                    const std::string kind = string_or_empty(part, "type");
                    if (kind == "output_text") c.reply.text += string_or_empty(part, "text");
                    else if (kind == "refusal") c.refusal += string_or_empty(part, "refusal");
                }
            text_before = true;
        } else if (type == "function_call") {
            const std::string id = string_or_empty(*item, "id");
            if (!id.empty()) parts.push_back({"openai_responses", "function_call_id", json(id).dump(), std::uint32_t(calls + 1)});
            agentry::tool_call call;
            call.id = string_or_empty(*item, "call_id");
            call.name = string_or_empty(*item, "name");
            if (const auto a = item->find("arguments"); a != item->end() && !a->is_null())
                call.arguments = a->is_string() ? a->get<std::string>() : a->dump();
            c.reply.tool_calls.push_back(std::move(call));
        }
    }
    if (!parts.empty()) c.reply.parts = std::move(parts);
    if (const auto u = response.find("usage"); u != response.end() && u->is_object()) {
        c.usage.input_tokens = count(*u, "input_tokens").value_or(0);
        c.usage.output_tokens = count(*u, "output_tokens").value_or(0);
        if (const auto d = u->find("input_tokens_details"); d != u->end() && d->is_object()) {
            c.usage.cached_input_tokens = count(*d, "cached_tokens").value_or(0);
            c.usage.cache_write_tokens = count(*d, "cache_write_tokens").value_or(0);
        }
        if (const auto d = u->find("output_tokens_details"); d != u->end() && d->is_object())
            c.usage.reasoning_tokens = count(*d, "reasoning_tokens").value_or(0);
    }
    if (status == "incomplete") {
        const auto details = response.find("incomplete_details");
        const std::string reason =
            details != response.end() && details->is_object() ? string_or_empty(*details, "reason") : std::string{};
        c.provider_finish = reason.empty() ? status : reason;
        c.finish = reason == "max_output_tokens" ? agentry::finish_reason::max_tokens
                   : reason == "content_filter"  ? agentry::finish_reason::content_filter
                                                 : agentry::finish_reason::other;
    } else {
        c.provider_finish = status;
        if (!c.reply.tool_calls.empty()) c.finish = agentry::finish_reason::tool_calls;
        else if (!c.refusal.empty()) c.finish = agentry::finish_reason::refusal;
        else if (status.empty() || status == "completed") c.finish = agentry::finish_reason::stop;
        else c.finish = agentry::finish_reason::other;
    }
    return {std::move(c), {}};
}

// ---- Anthropic ------------------------------------------------------------------------------

agentry::finish_reason anthropic_finish(const std::string& stop_reason) {
    if (stop_reason == "end_turn" || stop_reason == "stop_sequence") return agentry::finish_reason::stop;
    if (stop_reason == "tool_use") return agentry::finish_reason::tool_calls;
    if (stop_reason == "max_tokens" || stop_reason == "model_context_window_exceeded")
        return agentry::finish_reason::max_tokens;
    if (stop_reason == "refusal") return agentry::finish_reason::refusal;
    return agentry::finish_reason::other;
}

/// Anthropic's usage counts, as read so far.
struct anthropic_counts {
    std::optional<std::uint64_t> input, cache_write, cache_read, output, thinking;

    void merge(const json& u) {
        if (!u.is_object()) return;
        if (auto v = count(u, "input_tokens")) input = v;
        if (auto v = count(u, "cache_creation_input_tokens")) cache_write = v;
        if (auto v = count(u, "cache_read_input_tokens")) cache_read = v;
        if (auto v = count(u, "output_tokens")) output = v;
        if (const auto d = u.find("output_tokens_details"); d != u.end() && d->is_object())
            if (auto v = count(*d, "thinking_tokens")) thinking = v;
    }

    agentry::token_usage usage() const {
        agentry::token_usage t;
        t.cached_input_tokens = cache_read.value_or(0);
        t.cache_write_tokens = cache_write.value_or(0);
        t.input_tokens = input.value_or(0) + t.cached_input_tokens + t.cache_write_tokens;
        t.output_tokens = output.value_or(0);
        t.reasoning_tokens = thinking.value_or(0);
        return t;
    }
};

} // namespace

// ---- OpenAI Responses -----------------------------------------------------------------------

agentry::http_request build(const responses_turn& f, const agentry::chat_request& r, reasoning_mode mode) {
    const agentry::openai_responses& p = f.provider;
    const kept_parts* kept = mode == reasoning_mode::parts_text ? nullptr : &parts_of(r.messages);
    json body;
    body["model"] = p.model;
    if (std::string instructions = system_text(r.messages); !instructions.empty())
        body["instructions"] = std::move(instructions);
    json& input = body["input"] = json::array();
    for (std::size_t i = 0; i != r.messages.size(); ++i) {
        const agentry::message& m = r.messages[i];
        switch (m.role) {
        case agentry::role::system: break;
        case agentry::role::user: input.push_back({{"role", "user"}, {"content", m.text}}); break;
        case agentry::role::tool:
            input.push_back({{"type", "function_call_output"}, {"call_id", m.tool_call_id}, {"output", m.text}});
            break;
        case agentry::role::assistant: {
            const std::size_t n = m.parts ? m.parts->size() : 0;
            const auto is = [&](std::size_t k, const char* kind) {
                const agentry::provider_part& q = (*m.parts)[k];
                return q.provider == "openai_responses" && q.kind == kind;
            };
            const auto reasoning_at = [&](std::uint32_t from, std::uint32_t to) {
                for (std::size_t k = 0; k != n; ++k)
                    if (is(k, "reasoning") && (*m.parts)[k].position >= from && (*m.parts)[k].position <= to)
                        input.push_back(part_value(mode, kept, m, i, k));
            };
            reasoning_at(0, 0);
            if (!m.text.empty()) input.push_back({{"role", "assistant"}, {"content", m.text}});
            for (std::size_t c = 0; c != m.tool_calls.size(); ++c) {
                reasoning_at(std::uint32_t(c + 1), std::uint32_t(c + 1));
                json call{{"type", "function_call"}};
                for (std::size_t k = 0; k != n; ++k)
                    if (is(k, "function_call_id") && (*m.parts)[k].position == c + 1)
                        call["id"] = part_value(mode, kept, m, i, k);
                call["call_id"] = m.tool_calls[c].id;
                call["name"] = m.tool_calls[c].name;
                call["arguments"] = m.tool_calls[c].arguments;
                input.push_back(std::move(call));
            }
            reasoning_at(std::uint32_t(m.tool_calls.size() + 1), UINT32_MAX);
            break;
        }
        }
    }
    if (!r.tools.empty() && r.tools != "[]") {
        body["tools"] = tools_value(mode, r.tools);
        switch (r.tool_choice.kind) {
        case agentry::tool_choice_kind::automatic: break;
        case agentry::tool_choice_kind::none: body["tool_choice"] = "none"; break;
        case agentry::tool_choice_kind::required: body["tool_choice"] = "required"; break;
        case agentry::tool_choice_kind::one:
            body["tool_choice"] = {{"type", "function"}, {"name", r.tool_choice.name}};
            break;
        }
        if (r.parallel_tool_calls) body["parallel_tool_calls"] = *r.parallel_tool_calls;
    }
    if (r.max_tokens) body["max_output_tokens"] = *r.max_tokens;
    if (r.temperature) body["temperature"] = *r.temperature;
    if (!p.reasoning_effort.empty()) body["reasoning"]["effort"] = p.reasoning_effort;
    if (!p.reasoning_summary.empty()) body["reasoning"]["summary"] = p.reasoning_summary;
    body["include"] = {"reasoning.encrypted_content"};
    body["store"] = false;
    if (!p.prompt_cache_key.empty()) body["prompt_cache_key"] = p.prompt_cache_key;
    if (r.stream) body["stream"] = true;

    agentry::http_request http;
    http.url = (p.http.base_url.empty() ? std::string(agentry::openai_responses::default_base_url) : p.http.base_url) +
               "/responses";
    http.headers = {{"Content-Type", "application/json"},
                    {"Accept", r.stream ? "text/event-stream" : "application/json"},
                    {"Authorization", "Bearer " + p.api_key}};
    http.body = body.dump();
    return http;
}

agentry::turn_result parse(const responses_turn&, const agentry::http_response& response) {
    if (response.status < 200 || response.status > 299) return failure("HTTP " + std::to_string(response.status));
    const json body = json::parse(response.body, nullptr, false);
    if (body.is_discarded() || !body.is_object()) return failure("the response is not a JSON object");
    std::vector<const json*> items;
    if (const auto output = body.find("output"); output != body.end() && output->is_array())
        for (const json& item : *output) items.push_back(&item);
    return responses_completion(body, items);
}

agentry::turn_result assemble(const responses_turn&, std::string_view sse) {
    std::map<std::int64_t, json> done_items;
    json final_response;
    for (std::size_t pos = 0; pos < sse.size() && final_response.is_null();) {
        std::size_t end = sse.find('\n', pos);
        if (end == std::string_view::npos) end = sse.size();
        std::string_view line = sse.substr(pos, end - pos);
        pos = end + 1;
        if (!line.empty() && line.back() == '\r') line.remove_suffix(1);
        if (!line.starts_with("data:")) continue;
        line.remove_prefix(5);
        if (!line.empty() && line.front() == ' ') line.remove_prefix(1);
        json event = json::parse(line, nullptr, false);
        if (event.is_discarded() || !event.is_object()) return failure("a stream event is not a JSON object");
        const std::string type = string_or_empty(event, "type");
        if (type == "response.output_item.done") {
            const auto item = event.find("item");
            if (item == event.end()) return failure("an output_item.done event without its item");
            done_items[event.value("output_index", std::int64_t(0))] = std::move(*item);
        } else if (type == "response.completed" || type == "response.incomplete" || type == "response.failed") {
            const auto response = event.find("response");
            if (response == event.end() || !response->is_object()) return failure("a final event without its response");
            final_response = std::move(*response);
        } else if (type == "error") {
            return failure(event.dump());
        }
    }
    if (final_response.is_null()) return failure("the stream ended before response.completed");
    std::map<std::int64_t, const json*> by_index;
    if (const auto output = final_response.find("output"); output != final_response.end() && output->is_array())
        for (std::size_t i = 0; i != output->size(); ++i) by_index[std::int64_t(i)] = &(*output)[i];
    for (const auto& [index, item] : done_items) by_index[index] = &item;
    std::vector<const json*> items;
    for (const auto& [index, item] : by_index) items.push_back(item);
    return responses_completion(final_response, items);
}

// ---- Anthropic ------------------------------------------------------------------------------

agentry::http_request build(const anthropic_turn& f, const agentry::chat_request& r, reasoning_mode mode) {
    const agentry::anthropic& p = f.provider;
    const kept_parts* kept = mode == reasoning_mode::parts_text ? nullptr : &parts_of(r.messages);
    const bool caching = p.cache != agentry::anthropic::cache_ttl::off;
    const json breakpoint{{"type", "ephemeral"}, {"ttl", p.cache == agentry::anthropic::cache_ttl::one_hour ? "1h" : "5m"}};
    json body;
    body["model"] = p.model;
    body["max_tokens"] = r.max_tokens.value_or(p.max_tokens);
    if (std::string system = system_text(r.messages); !system.empty()) {
        if (caching) body["system"] = json::array({{{"type", "text"}, {"text", std::move(system)}, {"cache_control", breakpoint}}});
        else body["system"] = std::move(system);
    }
    json& messages = body["messages"] = json::array();
    // The last block that is not a part: (message, block) indexes.
    std::optional<std::pair<std::size_t, std::size_t>> last_block;
    const auto add = [&](const char* role, json block, bool part) {
        if (messages.empty() || messages.back()["role"] != role) messages.push_back({{"role", role}, {"content", json::array()}});
        json& content = messages.back()["content"];
        content.push_back(std::move(block));
        if (!part) last_block = std::pair(messages.size() - 1, content.size() - 1);
    };
    for (std::size_t i = 0; i != r.messages.size(); ++i) {
        const agentry::message& m = r.messages[i];
        if (m.role == agentry::role::user && !m.text.empty()) {
            add("user", {{"type", "text"}, {"text", m.text}}, false);
        } else if (m.role == agentry::role::tool) {
            json result{{"type", "tool_result"}, {"tool_use_id", m.tool_call_id}};
            if (!m.text.empty()) result["content"] = m.text;
            if (m.is_error) result["is_error"] = true;
            add("user", std::move(result), false);
        } else if (m.role == agentry::role::assistant) {
            const std::size_t n = m.parts ? m.parts->size() : 0;
            const auto parts_at = [&](std::uint32_t from, std::uint32_t to) {
                for (std::size_t k = 0; k != n; ++k) {
                    const agentry::provider_part& q = (*m.parts)[k];
                    if (q.provider == "anthropic" && q.position >= from && q.position <= to)
                        add("assistant", part_value(mode, kept, m, i, k), true);
                }
            };
            parts_at(0, 0);
            if (!m.text.empty()) add("assistant", {{"type", "text"}, {"text", m.text}}, false);
            for (std::size_t c = 0; c != m.tool_calls.size(); ++c) {
                parts_at(std::uint32_t(c + 1), std::uint32_t(c + 1));
                add("assistant",
                    {{"type", "tool_use"},
                     {"id", m.tool_calls[c].id},
                     {"name", m.tool_calls[c].name},
                     {"input", json::parse(m.tool_calls[c].arguments)}},
                    false);
            }
            parts_at(std::uint32_t(m.tool_calls.size() + 1), UINT32_MAX);
        }
    }
    if (caching && last_block && last_block->first + 1 == messages.size())
        messages[last_block->first]["content"][last_block->second]["cache_control"] = breakpoint;
    for (json& m : messages) {
        json& content = m["content"];
        if (content.size() == 1 && content[0]["type"] == "text" && !content[0].contains("cache_control")) {
            json text = std::move(content[0]["text"]);
            content = std::move(text);
        }
    }
    if (!r.tools.empty()) {
        json tools = tools_value(mode, r.tools);
        if (caching && !tools.empty()) tools.back()["cache_control"] = breakpoint;
        if (p.eager_tool_input)
            for (json& t : tools) t["eager_input_streaming"] = true;
        body["tools"] = std::move(tools);
        const bool disable = r.parallel_tool_calls == false;
        json choice;
        switch (r.tool_choice.kind) {
        case agentry::tool_choice_kind::automatic:
            if (disable) choice = {{"type", "auto"}};
            break;
        case agentry::tool_choice_kind::none: choice = {{"type", "none"}}; break;
        case agentry::tool_choice_kind::required: choice = {{"type", "any"}}; break;
        case agentry::tool_choice_kind::one: choice = {{"type", "tool"}, {"name", r.tool_choice.name}}; break;
        }
        if (disable && choice.is_object() && choice["type"] != "none") choice["disable_parallel_tool_use"] = true;
        if (!choice.is_null()) body["tool_choice"] = std::move(choice);
    }
    const bool manual = p.thinking && p.thinking->type == agentry::anthropic_thinking::kind::enabled;
    if (p.thinking)
        body["thinking"] = manual ? json{{"type", "enabled"}, {"budget_tokens", p.thinking->budget_tokens}}
                                  : json{{"type", "adaptive"}};
    if (r.temperature) body["temperature"] = *r.temperature;
    if (!p.effort.empty()) body["output_config"]["effort"] = p.effort;
    if (r.stream) body["stream"] = true;

    agentry::http_request http;
    http.url = (p.http.base_url.empty() ? std::string(agentry::anthropic::default_base_url) : p.http.base_url) +
               "/v1/messages";
    http.headers = {{"content-type", "application/json"}, {"x-api-key", p.api_key}, {"anthropic-version", "2023-06-01"}};
    if (manual && p.interleaved_thinking && !r.tools.empty())
        http.headers.push_back({"anthropic-beta", "interleaved-thinking-2025-05-14"});
    http.body = body.dump();
    return http;
}

agentry::turn_result parse(const anthropic_turn&, const agentry::http_response& response) {
    if (response.status < 200 || response.status > 299) return failure("HTTP " + std::to_string(response.status));
    const json body = json::parse(response.body, nullptr, false);
    if (body.is_discarded() || !body.is_object()) return failure("the response is not a JSON object");
    const auto content = body.find("content");
    if (content == body.end() || !content->is_array()) return failure("the response has no content");
    agentry::completion c;
    bool text_seen = false;
    for (const json& block : *content) {
        const std::string type = string_or_empty(block, "type");
        if (type == "text") {
            c.reply.text += string_or_empty(block, "text");
            text_seen = true;
        } else if (type == "tool_use") {
            const auto input = block.find("input");
            c.reply.tool_calls.push_back(
                {string_or_empty(block, "id"), string_or_empty(block, "name"), input != block.end() ? input->dump() : "", {}});
        } else if (type == "thinking" || type == "redacted_thinking") {
            const std::size_t calls = c.reply.tool_calls.size();
            if (!c.reply.parts) c.reply.parts.emplace();
            c.reply.parts->push_back(
                {"anthropic", type, block.dump(), calls == 0 && !text_seen ? 0u : std::uint32_t(calls + 1)});
        }
    }
    c.provider_finish = string_or_empty(body, "stop_reason");
    c.finish = anthropic_finish(c.provider_finish);
    anthropic_counts counts;
    if (const auto u = body.find("usage"); u != body.end()) counts.merge(*u);
    c.usage = counts.usage();
    return {std::move(c), {}};
}

agentry::turn_result assemble(const anthropic_turn&, std::string_view sse) {
    struct block {
        std::string type;
        json value;  // a thinking block's text and signature, a redacted_thinking block as sent
        agentry::tool_call call;
        std::uint32_t position = 0;
    };
    std::map<std::int64_t, block> blocks;
    std::string text, stop_reason;
    anthropic_counts counts;
    bool text_seen = false, done = false;
    std::size_t calls = 0;
    for (std::size_t pos = 0; pos < sse.size() && !done;) {
        std::size_t end = sse.find('\n', pos);
        if (end == std::string_view::npos) end = sse.size();
        std::string_view line = sse.substr(pos, end - pos);
        pos = end + 1;
        if (!line.empty() && line.back() == '\r') line.remove_suffix(1);
        if (!line.starts_with("data:")) continue;
        line.remove_prefix(5);
        if (!line.empty() && line.front() == ' ') line.remove_prefix(1);
        json event = json::parse(line, nullptr, false);
        if (event.is_discarded() || !event.is_object()) return failure("a stream event is not a JSON object");
        const std::string type = string_or_empty(event, "type");
        const std::int64_t index = event.value("index", std::int64_t(-1));
        if (type == "message_start") {
            if (const auto m = event.find("message"); m != event.end() && m->is_object())
                if (const auto u = m->find("usage"); u != m->end()) counts.merge(*u);
        } else if (type == "content_block_start") {
            const auto cb = event.find("content_block");
            if (cb == event.end() || !cb->is_object()) return failure("a content_block_start without its block");
            block b;
            b.type = string_or_empty(*cb, "type");
            if (b.type == "text") {
                text += string_or_empty(*cb, "text");
                text_seen = true;
            } else if (b.type == "tool_use") {
                b.call.id = string_or_empty(*cb, "id");
                b.call.name = string_or_empty(*cb, "name");
                ++calls;
            } else if (b.type == "thinking" || b.type == "redacted_thinking") {
                b.position = calls == 0 && !text_seen ? 0u : std::uint32_t(calls + 1);
                b.value = b.type == "thinking" ? json{{"type", "thinking"}, {"thinking", ""}, {"signature", ""}} : *cb;
            }
            blocks[index] = std::move(b);
        } else if (type == "content_block_delta") {
            const auto d = event.find("delta");
            const auto it = blocks.find(index);
            if (d == event.end() || !d->is_object() || it == blocks.end()) continue;
            const std::string kind = string_or_empty(*d, "type");
            if (kind == "text_delta") text += string_or_empty(*d, "text");
            else if (kind == "input_json_delta") it->second.call.arguments += string_or_empty(*d, "partial_json");
            else if (kind == "thinking_delta")
                it->second.value["thinking"].get_ref<std::string&>() += string_or_empty(*d, "thinking");
            else if (kind == "signature_delta")
                it->second.value["signature"].get_ref<std::string&>() += string_or_empty(*d, "signature");
        } else if (type == "message_delta") {
            if (const auto d = event.find("delta"); d != event.end() && d->is_object())
                if (const auto s = d->find("stop_reason"); s != d->end() && s->is_string()) stop_reason = s->get<std::string>();
            if (const auto u = event.find("usage"); u != event.end()) counts.merge(*u);
        } else if (type == "message_stop") {
            done = true;
        } else if (type == "error") {
            return failure(event.dump());
        }
    }
    if (!done) return failure("the stream ended before message_stop");
    agentry::completion c;
    c.reply.text = std::move(text);
    for (auto& [index, b] : blocks) {
        if (b.type == "tool_use") {
            if (b.call.arguments.empty()) b.call.arguments = "{}";
            c.reply.tool_calls.push_back(std::move(b.call));
        } else if (b.type == "thinking" || b.type == "redacted_thinking") {
            if (!c.reply.parts) c.reply.parts.emplace();
            c.reply.parts->push_back({"anthropic", b.type, b.value.dump(), b.position});
        }
    }
    c.provider_finish = std::move(stop_reason);
    c.finish = anthropic_finish(c.provider_finish);
    c.usage = counts.usage();
    return {std::move(c), {}};
}

namespace {

template <class Turn>
void request_case(benchmark::State& state, const Turn* f, reasoning_mode mode) {
    timed(state, [&] { return build(*f, f->request, mode); });
}

template <class Turn>
void parse_case(benchmark::State& state, const Turn* f) {
    timed(state, [&] { return parse(*f, f->response); });
}

template <class Turn>
void turn_case(benchmark::State& state, const Turn* f, reasoning_mode mode) {
    timed(state, [&] {
        agentry::http_request http = build(*f, f->request, mode);
        benchmark::DoNotOptimize(http);
        return parse(*f, f->response);
    });
}

template <class Turn>
void sse_case(benchmark::State& state, const Turn* f) {
    timed(state, [&] { return assemble(*f, f->stream); });
    state.SetBytesProcessed(std::int64_t(state.iterations()) * std::int64_t(f->stream.size()));
}

template <class Turn>
void register_all(const std::string& name, const Turn* f) {
    const std::pair<const char*, reasoning_mode> modes[] = {
        {"nlohmann/", reasoning_mode::parts_dom},
        {"nlohmann_cached_tools/", reasoning_mode::cached_tools_dom},
        {"nlohmann_parts_text/", reasoning_mode::parts_text},
    };
    for (const auto& [prefix, mode] : modes) {
        benchmark::RegisterBenchmark((prefix + name + "/request").c_str(), request_case<Turn>, f, mode);
        benchmark::RegisterBenchmark((prefix + name + "/turn").c_str(), turn_case<Turn>, f, mode);
    }
    benchmark::RegisterBenchmark(("nlohmann/" + name + "/parse").c_str(), parse_case<Turn>, f);
    benchmark::RegisterBenchmark(("nlohmann/" + name + "/sse").c_str(), sse_case<Turn>, f);
}

} // namespace

void register_reasoning_benchmarks() {
    register_all("responses", &responses_fixture());
    register_all("anthropic", &anthropic_fixture());
}

} // namespace bench::nlohmann_impl
