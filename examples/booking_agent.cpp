// SPDX-License-Identifier: BSL-1.0
// An agent whose run ends when its booking tool has run (the tool's result is the answer),
// within a token budget, a tool-call budget and a stop condition of its own, and whose
// conversation is kept within its context budget by summaries the model writes. The model's
// replies are replayed (agentry::replay_transport), so that the example runs without a network.
#include <agentry/agent.hpp>
#include <agentry/provider/openai.hpp>
#include <agentry/registry.hpp>
#include <agentry/transport/replay.hpp>

#include <algorithm>
#include <cstdio>
#include <string>

std::string find_place(const std::string& city) { return "Chez Anna, 12 rue Haute, " + city; }
std::string book_table(const std::string& place, int people) {
    return "Table for " + std::to_string(people) + " booked at " + place + ", 8 pm.";
}

constexpr agentry::registry tools{
    agentry::tool<"find_place", "Finds a restaurant in a city.", "city">(find_place),
    agentry::tool<"book_table", "Books a table; the booking is the final answer.", "place", "people">(book_table),
};

constexpr agentry::loop_config config{
    .context_budget_tokens = 100,
    .compression = agentry::context_compression::summary,
    .stop_at_tools = {"book_table"},
    .max_total_tokens = 20'000,
    .max_tool_calls = 10,
};

// The agent keeps its transport by value: this one answers from a script that main keeps.
struct replayed {
    agentry::replay_transport* script;
    agentry::transport_result send(const agentry::http_request& r) { return script->send(r); }
    agentry::transport_result stream(const agentry::http_request& r, agentry::stream_handlers& h) {
        return script->stream(r, h);
    }
};

// The model's replies, as OpenAI sends them.
std::string tool_call(const char* id, const char* name, const char* arguments) {
    return std::string(R"({"choices":[{"message":{"role":"assistant","content":null,"tool_calls":[{"id":")") + id +
           R"(","type":"function","function":{"name":")" + name + R"(","arguments":")" + arguments +
           R"("}}]},"finish_reason":"tool_calls"}],"usage":{"prompt_tokens":120,"completion_tokens":20}})";
}
std::string answer(const char* text) {
    return std::string(R"({"choices":[{"message":{"role":"assistant","content":")") + text +
           R"("},"finish_reason":"stop"}],"usage":{"prompt_tokens":150,"completion_tokens":30}})";
}

int main() {
    agentry::replay_transport model{{
        agentry::replay_response::ok(tool_call("c1", "find_place", R"({\"city\":\"Lyon\"})")),
        agentry::replay_response::ok(answer("Chez Anna, 12 rue Haute, has tables tonight.")),
        agentry::replay_response::ok(tool_call("c2", "find_place", R"({\"city\":\"Nice\"})")),
        agentry::replay_response::ok(answer("The user looked for a restaurant in Lyon: Chez Anna, 12 rue Haute.")),
        agentry::replay_response::ok(tool_call("c3", "book_table", R"({\"place\":\"Chez Anna, Lyon\",\"people\":4})")),
    }};
    // Stop once the model has looked for places three times without booking.
    const agentry::agent_options options{
        .system_prompt = "You book restaurant tables.",
        .stop_condition =
            [](const agentry::run_state_view& state) {
                return std::count_if(state.result.steps.begin(), state.result.steps.end(),
                                     [](const agentry::step& s) { return s.tool == "find_place"; }) >= 3;
            },
    };
    agentry::agent<config> agent{agentry::openai{.model = "gpt-4o-mini"}, tools, options, replayed{&model}};

    agentry::run_result r = agent.run("Is there a good place in Lyon?");
    std::printf("%s: %s\n", std::string(agentry::to_string(r.stop)).c_str(), r.text.c_str());

    r = agent.run("Book it for 4 people; look in Nice too.");
    std::printf("%s: %s\n", std::string(agentry::to_string(r.stop)).c_str(), r.text.c_str());
    std::printf("summarized: %zu messages, in %llu + %llu tokens\n", r.summarized_messages,
                static_cast<unsigned long long>(r.summary_usage.input_tokens),
                static_cast<unsigned long long>(r.summary_usage.output_tokens));
    if (r.summary_error) std::printf("summary failed, trimmed instead: %s\n", r.summary_error->message.c_str());
    for (const agentry::message& m : agent.conversation())
        if (m.role == agentry::role::system) std::printf("system: %s\n", m.text.c_str());
    return r.stop == agentry::stop_reason::stop_at_tool && r.summarized_messages != 0 ? 0 : 1;
}
