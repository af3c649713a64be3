// SPDX-License-Identifier: BSL-1.0
// Representative chat requests and the exact body agentry::openai must build for each: the
// unit tests compare the bodies, print_requests.cpp prints them for request_schema.mjs.

#ifndef AGENTRY_TESTS_PROVIDER_OPENAI_SAMPLES_HPP
#define AGENTRY_TESTS_PROVIDER_OPENAI_SAMPLES_HPP

#include <agentry/provider/openai.hpp>
#include <agentry/registry.hpp>

#include "../sample_tools.hpp"
#include <agentry/schema/json_schema.hpp>

#include <cstdint>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <vector>

namespace openai_samples {

using provider_samples::get_weather;
using provider_samples::packing_list;
using provider_samples::tools;
using provider_samples::unit;
using provider_samples::weather;
using provider_samples::weather_query;

inline constexpr std::string_view strict_tools = tools.definitions<agentry::dialect::openai_strict>();
inline constexpr std::string_view loose_tools = tools.definitions<agentry::dialect::openai>();
inline constexpr std::string_view packing_schema = agentry::json_schema<packing_list, agentry::dialect::openai_strict>();

using provider_samples::make_request;
using provider_samples::request_options;

struct sample {
    std::string name;
    agentry::openai provider;
    std::vector<agentry::message> messages;
    request_options options;
    std::string expected;

    agentry::chat_request request() const { return make_request(messages, options); }
};

inline agentry::tool_call paris_call() { return {"call_a1", "get_weather", R"({"city":"Paris","units":null})", {}}; }
inline agentry::tool_call add_call() { return {"call_b2", "add", R"({"a":2,"b":3})", {}}; }

/// A tool result of MCP content blocks (message::content_blocks).
inline agentry::message blocks_result(const agentry::tool_call& call, std::string blocks) {
    agentry::message m = agentry::message::tool_result(call, std::move(blocks));
    m.content_blocks = true;
    return m;
}

inline std::vector<sample> samples() {
    using agentry::message;
    const std::string strict(strict_tools);
    const std::string loose(loose_tools);
    const agentry::openai gpt{.model = "gpt-4o-mini"};
    std::vector<sample> out;

    out.push_back({"text only, no tools",
                   gpt,
                   {message::system("You are terse."), message::user("Hello")},
                   {},
                   R"({"model":"gpt-4o-mini","messages":[{"role":"system","content":"You are terse."},)"
                   R"({"role":"user","content":"Hello"}]})"});

    out.push_back({"tools, automatic choice (left out)",
                   gpt,
                   {message::user("Weather in Paris?")},
                   {.tools = strict_tools},
                   R"({"model":"gpt-4o-mini","messages":[{"role":"user","content":"Weather in Paris?"}],"tools":)" +
                       strict + "}"});

    out.push_back({"tool_choice none",
                   gpt,
                   {message::user("Just chat.")},
                   {.tools = loose_tools, .tool_choice = agentry::tool_choice::none()},
                   R"({"model":"gpt-4o-mini","messages":[{"role":"user","content":"Just chat."}],"tools":)" + loose +
                       R"(,"tool_choice":"none"})"});

    out.push_back({"tool_choice required, no parallel calls",
                   gpt,
                   {message::user("Add 2 and 3.")},
                   {.tools = strict_tools, .tool_choice = agentry::tool_choice::required(), .parallel_tool_calls = false},
                   R"({"model":"gpt-4o-mini","messages":[{"role":"user","content":"Add 2 and 3."}],"tools":)" + strict +
                       R"(,"tool_choice":"required","parallel_tool_calls":false})"});

    out.push_back({"tool_choice one named tool",
                   gpt,
                   {message::user("Paris?")},
                   {.tools = strict_tools, .tool_choice = agentry::tool_choice::one("get_weather")},
                   R"({"model":"gpt-4o-mini","messages":[{"role":"user","content":"Paris?"}],"tools":)" + strict +
                       R"(,"tool_choice":{"type":"function","function":{"name":"get_weather"}}})"});

    out.push_back({"tool_choice and parallel_tool_calls without tools (left out)",
                   gpt,
                   {message::user("Hi")},
                   {.tool_choice = agentry::tool_choice::required(), .parallel_tool_calls = true},
                   R"({"model":"gpt-4o-mini","messages":[{"role":"user","content":"Hi"}]})"});

    out.push_back({"multi-turn with parallel tool calls and their results",
                   gpt,
                   {message::system("Use the tools."), message::user("Weather in Paris, and 2+3?"),
                    message::assistant("", {paris_call(), add_call()}),
                    message::tool_result(paris_call(), R"({"temperature":21.5,"condition":"sunny"})"),
                    message::tool_result(add_call(), "5"), message::assistant("Sunny, 21.5 C; 2+3 = 5."),
                    message::user("Thanks!")},
                   {.tools = strict_tools, .parallel_tool_calls = true, .max_tokens = 256, .temperature = 0.2},
                   R"({"model":"gpt-4o-mini","messages":[{"role":"system","content":"Use the tools."},)"
                   R"({"role":"user","content":"Weather in Paris, and 2+3?"},)"
                   R"({"role":"assistant","content":null,"tool_calls":[)"
                   R"({"id":"call_a1","type":"function","function":{"name":"get_weather",)"
                   R"("arguments":"{\"city\":\"Paris\",\"units\":null}"}},)"
                   R"({"id":"call_b2","type":"function","function":{"name":"add","arguments":"{\"a\":2,\"b\":3}"}}]},)"
                   R"({"role":"tool","content":"{\"temperature\":21.5,\"condition\":\"sunny\"}","tool_call_id":"call_a1"},)"
                   R"({"role":"tool","content":"5","tool_call_id":"call_b2"},)"
                   R"({"role":"assistant","content":"Sunny, 21.5 C; 2+3 = 5."},)"
                   R"({"role":"user","content":"Thanks!"}],"tools":)" +
                       strict +
                       R"(,"parallel_tool_calls":true,"max_completion_tokens":256,"temperature":0.2})"});

    out.push_back({"assistant text with a tool call, a tool error result",
                   gpt,
                   {message::user("Paris?"), message::assistant("Let me check.", {paris_call()}),
                    message::tool_result(paris_call(), "error: the weather service is down", true)},
                   {.tools = strict_tools},
                   R"({"model":"gpt-4o-mini","messages":[{"role":"user","content":"Paris?"},)"
                   R"({"role":"assistant","content":"Let me check.","tool_calls":[)"
                   R"({"id":"call_a1","type":"function","function":{"name":"get_weather",)"
                   R"("arguments":"{\"city\":\"Paris\",\"units\":null}"}}]},)"
                   R"({"role":"tool","content":"error: the weather service is down","tool_call_id":"call_a1"}],"tools":)" +
                       strict + "}"});

    out.push_back({"streamed, with usage",
                   gpt,
                   {message::user("Weather in Paris?")},
                   {.tools = strict_tools, .stream = true},
                   R"({"model":"gpt-4o-mini","messages":[{"role":"user","content":"Weather in Paris?"}],"tools":)" +
                       strict + R"(,"stream":true,"stream_options":{"include_usage":true}})"});

    out.push_back({"max_tokens for an older compatible server",
                   agentry::openai{.model = "qwen2.5:7b",
                                   .http = {.base_url = "http://127.0.0.1:11434/v1/"},
                                   .max_tokens_as = agentry::openai::max_tokens_field::max_tokens},
                   {message::user("Hi")},
                   {.max_tokens = 64, .temperature = 0, .stream = true},
                   R"({"model":"qwen2.5:7b","messages":[{"role":"user","content":"Hi"}],"max_tokens":64,)"
                   R"("temperature":0,"stream":true,"stream_options":{"include_usage":true}})"});

    out.push_back({"structured output, strict, with tools",
                   gpt,
                   {message::user("What should I pack for Paris?")},
                   {.tools = strict_tools, .output = agentry::output_format{"final_answer", packing_schema, true}},
                   R"({"model":"gpt-4o-mini","messages":[{"role":"user","content":"What should I pack for Paris?"}],)"
                   R"("tools":)" + strict + R"(,"response_format":{"type":"json_schema","json_schema":)"
                   R"({"name":"final_answer","schema":)" + std::string(packing_schema) + R"(,"strict":true}}})"});

    out.push_back({"structured output, not strict, streamed",
                   gpt,
                   {message::user("Pack for Rome.")},
                   {.stream = true, .output = agentry::output_format{"final_answer", packing_schema, false}},
                   R"({"model":"gpt-4o-mini","messages":[{"role":"user","content":"Pack for Rome."}],)"
                   R"("response_format":{"type":"json_schema","json_schema":{"name":"final_answer","schema":)" +
                       std::string(packing_schema) +
                       R"(}},"stream":true,"stream_options":{"include_usage":true}})"});

    out.push_back({"prompt_cache_key, streamed",
                   agentry::openai{.model = "gpt-4o-mini", .prompt_cache_key = "conversation-42"},
                   {message::user("Hello")},
                   {.stream = true},
                   R"({"model":"gpt-4o-mini","messages":[{"role":"user","content":"Hello"}],)"
                   R"("prompt_cache_key":"conversation-42","stream":true,"stream_options":{"include_usage":true}})"});

    out.push_back({"a tool result of text content blocks, sent as their texts joined",
                   gpt,
                   {message::user("Paris?"), message::assistant("", {paris_call()}),
                    blocks_result(paris_call(), R"([{"type":"text","text":"Sunny"},)"
                                                R"({"type":"resource","resource":{"uri":"notes://paris",)"
                                                R"("mimeType":"text/plain","text":"21.5 C"}}])")},
                   {.tools = strict_tools},
                   R"({"model":"gpt-4o-mini","messages":[{"role":"user","content":"Paris?"},)"
                   R"({"role":"assistant","content":null,"tool_calls":[)"
                   R"({"id":"call_a1","type":"function","function":{"name":"get_weather",)"
                   R"("arguments":"{\"city\":\"Paris\",\"units\":null}"}}]},)"
                   R"({"role":"tool","content":"Sunny\n21.5 C","tool_call_id":"call_a1"}],"tools":)" +
                       strict + "}"});

    out.push_back({"text that needs escaping",
                   gpt,
                   {message::user("Say \"hi\"\n\tthen \\ stop \xC3\xA9\xE2\x82\xAC")},
                   {},
                   "{\"model\":\"gpt-4o-mini\",\"messages\":[{\"role\":\"user\",\"content\":"
                   "\"Say \\\"hi\\\"\\n\\tthen \\\\ stop \xC3\xA9\xE2\x82\xAC\"}]}"});
    return out;
}

} // namespace openai_samples

#endif
