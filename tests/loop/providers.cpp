// SPDX-License-Identifier: BSL-1.0
// Stop-at tools and summary compression through the real providers (OpenAI, Anthropic, Gemini,
// Ollama) over agentry::replay_transport: each provider's own responses, and the requests it
// builds for the turns and for the summary.
#include <agentry/agent.hpp>
#include <agentry/provider/anthropic.hpp>
#include <agentry/provider/gemini.hpp>
#include <agentry/provider/ollama.hpp>
#include <agentry/provider/openai.hpp>
#include <agentry/registry.hpp>
#include <agentry/transport/replay.hpp>

#include <doctest/doctest.h>

#include <memory>
#include <string>
#include <string_view>
#include <vector>

namespace {

std::string find_place(const std::string& city) { return "Chez Anna, " + city; }
std::string book_table(const std::string& place) { return "Booked a table at " + place + " for 8 pm."; }

constexpr agentry::registry tools{
    agentry::tool<"find_place", "Finds a restaurant in a city.", "city">(find_place),
    agentry::tool<"book_table", "Books a table; its answer is the final answer.", "place">(book_table),
};

constexpr agentry::loop_config config{.context_budget_tokens = 60,
                                      .compression = agentry::context_compression::summary,
                                      .stop_at_tools = {"book_table"},
                                      .max_total_tokens = 150};

// The agent keeps its transport by value: this one shares the script and the requests.
struct shared_replay {
    std::shared_ptr<agentry::replay_transport> t = std::make_shared<agentry::replay_transport>();
    agentry::transport_result send(const agentry::http_request& r) { return t->send(r); }
    agentry::transport_result stream(const agentry::http_request& r, agentry::stream_handlers& h) {
        return t->stream(r, h);
    }
};

// One provider's wire: its responses for a call and an answer, and the field of the output limit.
struct wire {
    std::string (*call)(std::string_view id, std::string_view name, std::string_view arguments);
    std::string (*answer)(std::string_view text, int input, int output);
    std::string_view max_tokens;  // the limit field as sent, with the summary's value
};

// The system prompt, and every message counted as `tokens`.
agentry::agent_options options_counting(std::size_t tokens) {
    return {.system_prompt = "You book tables.",
            .token_estimator = [tokens](const agentry::message&) -> std::size_t { return tokens; }};
}

bool has(std::string_view text, std::string_view part) { return text.find(part) != std::string_view::npos; }

std::string quoted(std::string_view json) {  // JSON text as a JSON string
    std::string out = "\"";
    for (char c : json) {
        if (c == '"' || c == '\\') out += '\\';
        out += c;
    }
    return out + "\"";
}

const wire openai_wire{
    [](std::string_view id, std::string_view name, std::string_view arguments) {
        return R"({"id":"chatcmpl-1","object":"chat.completion","created":1,"model":"gpt-4o-mini","choices":[{"index":0,)"
               R"("message":{"role":"assistant","content":null,"tool_calls":[{"id":")" +
               std::string(id) + R"(","type":"function","function":{"name":")" + std::string(name) +
               R"(","arguments":)" + quoted(arguments) +
               R"(}}]},"finish_reason":"tool_calls"}],"usage":{"prompt_tokens":50,"completion_tokens":10,"total_tokens":60}})";
    },
    [](std::string_view text, int input, int output) {
        return R"({"id":"chatcmpl-2","object":"chat.completion","created":1,"model":"gpt-4o-mini","choices":[{"index":0,)"
               R"("message":{"role":"assistant","content":")" +
               std::string(text) + R"("},"finish_reason":"stop"}],"usage":{"prompt_tokens":)" + std::to_string(input) +
               R"(,"completion_tokens":)" + std::to_string(output) +
               R"(,"total_tokens":)" + std::to_string(input + output) + "}}";
    },
    R"("max_completion_tokens":15)"};

const wire anthropic_wire{
    [](std::string_view id, std::string_view name, std::string_view arguments) {
        return R"({"id":"msg_1","type":"message","role":"assistant","model":"claude-x","content":[{"type":"tool_use","id":")" +
               std::string(id) + R"(","name":")" + std::string(name) + R"(","input":)" + std::string(arguments) +
               R"(}],"stop_reason":"tool_use","stop_sequence":null,"usage":{"input_tokens":50,"output_tokens":10}})";
    },
    [](std::string_view text, int input, int output) {
        return R"({"id":"msg_2","type":"message","role":"assistant","model":"claude-x","content":[{"type":"text","text":")" +
               std::string(text) + R"("}],"stop_reason":"end_turn","stop_sequence":null,"usage":{"input_tokens":)" +
               std::to_string(input) + R"(,"output_tokens":)" + std::to_string(output) + "}}";
    },
    R"("max_tokens":15)"};

const wire gemini_wire{
    [](std::string_view, std::string_view name, std::string_view arguments) {
        return R"({"candidates":[{"content":{"role":"model","parts":[{"functionCall":{"name":")" + std::string(name) +
               R"(","args":)" + std::string(arguments) +
               R"(}}]},"finishReason":"STOP","index":0}],"usageMetadata":{"promptTokenCount":50,"candidatesTokenCount":10,)"
               R"("totalTokenCount":60},"modelVersion":"gemini-x"})";
    },
    [](std::string_view text, int input, int output) {
        return R"({"candidates":[{"content":{"role":"model","parts":[{"text":")" + std::string(text) +
               R"("}]},"finishReason":"STOP","index":0}],"usageMetadata":{"promptTokenCount":)" + std::to_string(input) +
               R"(,"candidatesTokenCount":)" + std::to_string(output) +
               R"(,"totalTokenCount":)" + std::to_string(input + output) + R"(},"modelVersion":"gemini-x"})";
    },
    R"("maxOutputTokens":15)"};

const wire ollama_wire{
    [](std::string_view, std::string_view name, std::string_view arguments) {
        return R"({"model":"qwen3","created_at":"2025-01-01T00:00:00Z","message":{"role":"assistant","content":"",)"
               R"("tool_calls":[{"function":{"name":")" +
               std::string(name) + R"(","arguments":)" + std::string(arguments) +
               R"(}}]},"done_reason":"stop","done":true,"prompt_eval_count":50,"eval_count":10})";
    },
    [](std::string_view text, int input, int output) {
        return R"({"model":"qwen3","created_at":"2025-01-01T00:00:00Z","message":{"role":"assistant","content":")" +
               std::string(text) + R"("},"done_reason":"stop","done":true,"prompt_eval_count":)" + std::to_string(input) +
               R"(,"eval_count":)" + std::to_string(output) + "}";
    },
    R"("num_predict":15)"};

// Two runs: the first finds a place; in the second the history passes the budget after a tool
// turn, the model writes a summary, and then calls book_table, whose result ends the run.
template <class P>
void book_with_summary(P model, const wire& w) {
    shared_replay http;
    for (const std::string& body :
         {w.call("call_1", "find_place", R"({"city":"Lyon"})"), w.answer("Chez Anna is free.", 50, 10),
          w.call("call_2", "find_place", R"({"city":"Nice"})"), w.answer("Lyon: Chez Anna is free.", 30, 7),
          w.call("call_3", "book_table", R"({"place":"Chez Anna"})")})
        http.t->push(agentry::replay_response::ok(body));
    agentry::agent<config> agent{std::move(model), tools, options_counting(10), http};

    agentry::run_result r = agent.run("Find a place in Lyon.");
    REQUIRE_MESSAGE(r.stop == agentry::stop_reason::completed, r.text);
    CHECK(r.text == "Chez Anna is free.");

    r = agent.run("Book it, and look in Nice too.");
    REQUIRE_MESSAGE(r.stop == agentry::stop_reason::stop_at_tool, r.text);
    CHECK(r.text == "Booked a table at Chez Anna for 8 pm.");
    CHECK(r.turns == 2);
    CHECK(r.summarized_messages == 4);
    CHECK(r.summary_usage == agentry::token_usage{30, 7});
    CHECK(r.usage == agentry::token_usage{130, 27});
    CHECK_FALSE(r.summary_error);
    CHECK(http.t->pending() == 0);

    const std::vector<agentry::http_request> sent = http.t->requests();
    REQUIRE(sent.size() == 5);
    // The summary request: the transcript of the replaced turns, its own instructions, no tools.
    const std::string& summary = sent[3].body;
    CHECK(has(summary, "You condense the earlier part of a conversation"));
    CHECK(has(summary, "Summarize this part of the conversation:"));
    CHECK(has(summary, "User: Find a place in Lyon."));
    CHECK(has(summary, R"(Assistant called find_place with {\"city\":\"Lyon\"})"));
    CHECK(has(summary, "Result of find_place: Chez Anna, Lyon"));
    CHECK(has(summary, "Assistant: Chez Anna is free."));
    CHECK(has(summary, w.max_tokens));
    CHECK_FALSE(has(summary, "book_table"));
    CHECK_FALSE(has(summary, "You book tables."));
    CHECK_FALSE(has(summary, "Nice"));
    // The turn after it: the system prompt, the summary, the latest user message and its turn.
    const std::string& next = sent[4].body;
    CHECK(has(next, "You book tables."));
    CHECK(has(next, "Summary of the earlier conversation (it replaces 4 messages; the model wrote it to fit the "
                    "context budget):\\nLyon: Chez Anna is free."));
    CHECK(has(next, "Book it, and look in Nice too."));
    CHECK(has(next, "Chez Anna, Nice"));
    CHECK(has(next, "book_table"));
    CHECK_FALSE(has(next, "Find a place in Lyon."));
    CHECK_FALSE(has(next, "Chez Anna, Lyon"));
    CHECK(has(agent.save(), "Lyon: Chez Anna is free."));
}

// A failed summary request (HTTP 400) leaves the conversation alone and the turn is trimmed (each
// message counts 12 tokens: 72 after the second tool turn).
template <class P>
void summary_fails(P model, const wire& w, std::string error_body) {
    shared_replay http;
    http.t->push(agentry::replay_response::ok(w.call("call_1", "find_place", R"({"city":"Lyon"})")));
    http.t->push(agentry::replay_response::ok(w.call("call_2", "find_place", R"({"city":"Nice"})")));
    http.t->push({.status = 400, .headers = {{"Content-Type", "application/json"}}, .body = std::move(error_body)});
    http.t->push(agentry::replay_response::ok(w.answer("Both are free.", 50, 10)));
    agentry::agent<config> agent{std::move(model), tools, options_counting(12), http};

    const agentry::run_result r = agent.run("Find places in Lyon and Nice.");
    REQUIRE_MESSAGE(r.stop == agentry::stop_reason::completed, r.text);
    CHECK(r.text == "Both are free.");
    REQUIRE(r.summary_error);
    CHECK(r.summary_error->status == 400);
    CHECK(r.summary_error->kind == agentry::provider_error_kind::bad_request);
    CHECK(has(r.summary_error->message, "agentry: the summary request failed ("));
    CHECK(has(r.summary_error->message, "); the requests were trimmed instead"));
    CHECK(r.summarized_messages == 0);
    CHECK(r.trimmed_messages == 2);
    const std::vector<agentry::http_request> sent = http.t->requests();
    REQUIRE(sent.size() == 4);
    CHECK(has(sent[3].body, "(2 earlier messages of this conversation were left out to fit the context budget.)"));
    CHECK_FALSE(has(sent[3].body, "Chez Anna, Lyon"));
    CHECK(has(sent[3].body, "Chez Anna, Nice"));
    CHECK(agent.conversation().size() == 7);
}

// The usage each provider reports counts toward the token budget: three turns of 60 tokens pass
// 150, so there is no fourth request (each message counts 1 token here: no compression).
template <class P>
void token_budget(P model, const wire& w) {
    shared_replay http;
    for (const char* city : {"Lyon", "Nice", "Rome"})
        http.t->push(agentry::replay_response::ok(w.call("call_1", "find_place", R"({"city":")" + std::string(city) + "\"}")));
    agentry::agent<config> agent{std::move(model), tools, options_counting(1), http};
    const agentry::run_result r = agent.run("Find places.");
    CHECK(r.stop == agentry::stop_reason::token_budget);
    CHECK(r.text == "The run used 180 tokens, its budget being 150.");
    CHECK(r.usage == agentry::token_usage{150, 30});
    CHECK(r.steps.size() == 3);
    CHECK(http.t->requests().size() == 3);
}

} // namespace

TEST_CASE("providers: OpenAI - stop at a tool after a summary, the token budget") {
    book_with_summary(agentry::openai{.model = "gpt-4o-mini", .api_key = "k"}, openai_wire);
    token_budget(agentry::openai{.model = "gpt-4o-mini", .api_key = "k"}, openai_wire);
    summary_fails(agentry::openai{.model = "gpt-4o-mini", .api_key = "k"}, openai_wire,
                  R"({"error":{"message":"bad summary","type":"invalid_request_error"}})");
}

TEST_CASE("providers: Anthropic - stop at a tool after a summary, the token budget") {
    book_with_summary(agentry::anthropic{.model = "claude-x", .api_key = "k"}, anthropic_wire);
    token_budget(agentry::anthropic{.model = "claude-x", .api_key = "k"}, anthropic_wire);
    summary_fails(agentry::anthropic{.model = "claude-x", .api_key = "k"}, anthropic_wire,
                  R"({"type":"error","error":{"type":"invalid_request_error","message":"bad summary"}})");
}

TEST_CASE("providers: Gemini - stop at a tool after a summary, the token budget") {
    book_with_summary(agentry::gemini{.model = "gemini-x", .api_key = "k"}, gemini_wire);
    token_budget(agentry::gemini{.model = "gemini-x", .api_key = "k"}, gemini_wire);
    summary_fails(agentry::gemini{.model = "gemini-x", .api_key = "k"}, gemini_wire,
                  R"({"error":{"code":400,"message":"bad summary","status":"INVALID_ARGUMENT"}})");
}

TEST_CASE("providers: Ollama - stop at a tool after a summary, the token budget") {
    book_with_summary(agentry::ollama{.model = "qwen3"}, ollama_wire);
    token_budget(agentry::ollama{.model = "qwen3"}, ollama_wire);
    summary_fails(agentry::ollama{.model = "qwen3"}, ollama_wire, R"({"error":"bad summary"})");
}
