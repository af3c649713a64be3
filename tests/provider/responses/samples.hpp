// SPDX-License-Identifier: BSL-1.0
// Representative chat requests and the exact body agentry::openai_responses must build for
// each: request.cpp compares the bodies, print_requests.cpp prints them for request_schema.mjs.

#ifndef AGENTRY_TESTS_PROVIDER_RESPONSES_SAMPLES_HPP
#define AGENTRY_TESTS_PROVIDER_RESPONSES_SAMPLES_HPP

#include <agentry/provider/openai_responses.hpp>
#include <agentry/registry.hpp>

#include "../sample_tools.hpp"
#include <agentry/schema/json_schema.hpp>

#include <cstdint>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <vector>

namespace responses_samples {

using provider_samples::get_weather;
using provider_samples::packing_list;
using provider_samples::tools;
using provider_samples::unit;
using provider_samples::weather;
using provider_samples::weather_query;

inline constexpr std::string_view strict_tools = tools.definitions<agentry::dialect::openai_responses_strict>();
inline constexpr std::string_view loose_tools = tools.definitions<agentry::dialect::openai_responses>();
inline constexpr std::string_view packing_schema = agentry::json_schema<packing_list, agentry::dialect::openai_strict>();

using state = agentry::openai_responses::reasoning_state;

using provider_samples::make_request;
using provider_samples::request_options;

struct sample {
    std::string name;
    agentry::openai_responses provider;
    std::vector<agentry::message> messages;
    request_options options;
    std::string expected;

    agentry::chat_request request() const { return make_request(messages, options); }
};

inline agentry::openai_responses provider(state s = state::stateless) {
    agentry::openai_responses p;
    p.model = "gpt-5-mini";
    p.state = s;
    return p;
}

inline agentry::provider_part part(std::string kind, std::string raw, std::uint32_t position) {
    return {"openai_responses", std::move(kind), std::move(raw), position};
}

/// Reasoning items as a reasoning model returns them with reasoning.encrypted_content.
inline const std::string reasoning_1 =
    R"({"id":"rs_1","type":"reasoning","summary":[{"type":"summary_text","text":"Need the weather and a sum."}],)"
    R"("encrypted_content":"gAAAAB1"})";
inline const std::string reasoning_2 = R"({"id":"rs_2","type":"reasoning","summary":[],"encrypted_content":"gAAAAB2"})";

inline agentry::tool_call weather_call() { return {"call_1", "get_weather", R"({"city":"Paris","units":null})", {}}; }
inline agentry::tool_call add_call() { return {"call_2", "add", R"({"a":2,"b":3})", {}}; }

/// An assistant turn with reasoning before its text and before its second call, text, two calls.
inline agentry::message reasoning_turn() {
    agentry::message m = agentry::message::assistant("Checking both.", {weather_call(), add_call()});
    m.parts = std::vector<agentry::provider_part>{
        part("reasoning", reasoning_1, 0),
        part("function_call_id", R"("fc_1")", 1),
        part("reasoning", reasoning_2, 2),
        part("function_call_id", R"("fc_2")", 2),
    };
    return m;
}

/// An image tool result as MCP content blocks (a 1x1 PNG's first bytes as the data).
inline agentry::message blocks_result() {
    agentry::message m = agentry::message::tool_result(
        weather_call(),
        R"([{"type":"text","text":"Sunny, 21.5 C"},{"type":"image","data":"iVBORw0KGgo=","mimeType":"image/png"},)"
        R"({"type":"resource","resource":{"uri":"file:///data/notes.txt","mimeType":"text/plain","text":"Bring a hat."}},)"
        R"({"type":"resource","resource":{"uri":"file:///data/report.pdf","mimeType":"application/pdf","blob":"JVBERi0x"}},)"
        R"({"type":"resource_link","uri":"https://example.com/forecast","name":"forecast"}])");
    m.content_blocks = true;
    return m;
}

inline std::vector<sample> samples() {
    using agentry::message;
    const std::string stateless_tail = R"(,"include":["reasoning.encrypted_content"],"store":false)";
    std::vector<sample> out;

    out.push_back({"a first turn", provider(),
                   {message::system("You are terse."), message::user("Weather in Paris?")},
                   {.tools = strict_tools},
                   R"({"model":"gpt-5-mini","instructions":"You are terse.","input":[{"role":"user","content":"Weather in Paris?"}],)"
                   R"("tools":)" + std::string(strict_tools) + stateless_tail + "}"});

    {
        agentry::openai_responses p = provider();
        p.reasoning_effort = "low";
        p.reasoning_summary = "auto";
        p.prompt_cache_key = "weather-v1";
        message second = message::tool_result(add_call(), "5");
        message first = message::tool_result(weather_call(), R"({"temperature":21.5,"condition":"sunny"})");
        out.push_back({"reasoning items, text, two calls and their results, stateless", p,
                       {message::system("You are terse."), message::system("Use metric units."),
                        message::user("Weather in Paris, and 2+3?"), reasoning_turn(), second, first},
                       {.tools = strict_tools, .parallel_tool_calls = true, .max_tokens = 500},
                       R"({"model":"gpt-5-mini","instructions":"You are terse.\n\nUse metric units.","input":[)"
                       R"({"role":"user","content":"Weather in Paris, and 2+3?"},)" +
                           reasoning_1 + R"(,{"role":"assistant","content":"Checking both."},)"
                           R"({"type":"function_call","id":"fc_1","call_id":"call_1","name":"get_weather",)"
                           R"("arguments":"{\"city\":\"Paris\",\"units\":null}"},)" +
                           reasoning_2 +
                           R"(,{"type":"function_call","id":"fc_2","call_id":"call_2","name":"add","arguments":"{\"a\":2,\"b\":3}"},)"
                           R"({"type":"function_call_output","call_id":"call_1","output":"{\"temperature\":21.5,\"condition\":\"sunny\"}"},)"
                           R"({"type":"function_call_output","call_id":"call_2","output":"5"}],)"
                           R"("tools":)" + std::string(strict_tools) +
                           R"(,"parallel_tool_calls":true,"max_output_tokens":500,"reasoning":{"effort":"low","summary":"auto"})" +
                           stateless_tail + R"(,"prompt_cache_key":"weather-v1"})"});
    }

    {
        message answered = message::assistant({}, {weather_call()});
        answered.parts = std::vector<agentry::provider_part>{
            part("reasoning", R"({"id":"rs_1","type":"reasoning","summary":[]})", 0),
            part("function_call_id", R"("fc_1")", 1),
            part("response_id", R"("resp_1")", 0),
        };
        out.push_back({"previous_response: only the items after the last response, and its id",
                       provider(state::previous_response),
                       {message::system("You are terse."), message::user("Weather in Paris?"), answered,
                        message::tool_result(weather_call(), "sunny"), message::user("And tomorrow?")},
                       {.tools = strict_tools},
                       R"({"model":"gpt-5-mini","instructions":"You are terse.","input":[)"
                       R"({"type":"function_call_output","call_id":"call_1","output":"sunny"},)"
                       R"({"role":"user","content":"And tomorrow?"}],"tools":)" +
                           std::string(strict_tools) + R"(,"previous_response_id":"resp_1"})"});
    }

    out.push_back({"previous_response: a first turn sends everything and no id",
                   provider(state::previous_response),
                   {message::user("Hello")},
                   {},
                   R"({"model":"gpt-5-mini","input":[{"role":"user","content":"Hello"}]})"});

    out.push_back({"MCP content blocks in a function_call_output", provider(),
                   {message::user("Weather in Paris?"), message::assistant({}, {weather_call()}), blocks_result()},
                   {.tools = loose_tools},
                   R"({"model":"gpt-5-mini","input":[{"role":"user","content":"Weather in Paris?"},)"
                   R"({"type":"function_call","call_id":"call_1","name":"get_weather","arguments":"{\"city\":\"Paris\",\"units\":null}"},)"
                   R"({"type":"function_call_output","call_id":"call_1","output":[)"
                   R"({"type":"input_text","text":"Sunny, 21.5 C"},)"
                   R"({"type":"input_image","image_url":"data:image/png;base64,iVBORw0KGgo="},)"
                   R"({"type":"input_text","text":"Bring a hat."},)"
                   R"({"type":"input_file","filename":"report.pdf","file_data":"data:application/pdf;base64,JVBERi0x"},)"
                   R"x({"type":"input_text","text":"{\"type\":\"resource_link\",\"uri\":\"https://example.com/forecast\",\"name\":\"forecast\"}"}]}],)x"
                   R"("tools":)" + std::string(loose_tools) + stateless_tail + "}"});

    out.push_back({"a typed output", provider(),
                   {message::user("What should I pack?")},
                   {.tools = strict_tools,
                    .output = agentry::output_format{"final_answer", packing_schema, true}},
                   R"({"model":"gpt-5-mini","input":[{"role":"user","content":"What should I pack?"}],"tools":)" +
                       std::string(strict_tools) +
                       R"(,"text":{"format":{"type":"json_schema","name":"final_answer","schema":)" +
                       std::string(packing_schema) + R"(,"strict":true}})" + stateless_tail + "}"});

    const auto choice = [&](std::string name, agentry::tool_choice c, std::optional<bool> parallel, std::string expected) {
        out.push_back({std::move(name), provider(), {message::user("Hi")},
                       {.tools = strict_tools, .tool_choice = std::move(c), .parallel_tool_calls = parallel},
                       R"({"model":"gpt-5-mini","input":[{"role":"user","content":"Hi"}],"tools":)" +
                           std::string(strict_tools) + expected + stateless_tail + "}"});
    };
    choice("tool_choice none", agentry::tool_choice::none(), std::nullopt, R"(,"tool_choice":"none")");
    choice("tool_choice required", agentry::tool_choice::required(), std::nullopt, R"(,"tool_choice":"required")");
    choice("tool_choice one function, no parallel calls", agentry::tool_choice::one("add"), false,
           R"(,"tool_choice":{"type":"function","name":"add"},"parallel_tool_calls":false)");
    choice("tool_choice auto is left out", agentry::tool_choice::automatic(), std::nullopt, "");

    out.push_back({"no tools: no tool_choice or parallel_tool_calls; temperature; streamed", provider(),
                   {message::user("Hi")},
                   {.tool_choice = agentry::tool_choice::required(), .parallel_tool_calls = true, .temperature = 0.5,
                    .stream = true},
                   R"({"model":"gpt-5-mini","input":[{"role":"user","content":"Hi"}],"temperature":0.5)" +
                       stateless_tail + R"(,"stream":true})"});

    {
        agentry::openai_responses p = provider();
        p.extra_body = R"({"service_tier":"flex","truncation":"auto"})";
        out.push_back({"extra_body members at the end", p, {message::user("Hi")}, {},
                       R"({"model":"gpt-5-mini","input":[{"role":"user","content":"Hi"}])" + stateless_tail +
                           R"(,"service_tier":"flex","truncation":"auto"})"});
    }
    return out;
}

} // namespace responses_samples

#endif
