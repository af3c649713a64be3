// SPDX-License-Identifier: BSL-1.0
// A typed final answer: the agent reads the model's answer into a trip_plan, every constraint
// checked, and sends an answer that does not validate back to the model with the reader's
// errors. The model is replayed from recorded OpenAI replies, so this runs without a network.

#include <agentry/agent.hpp>
#include <agentry/provider/openai.hpp>
#include <agentry/registry.hpp>

#include <cstddef>
#include <cstdio>
#include <optional>
#include <string>
#include <vector>

struct forecast_query {
    std::string city;
};

std::string forecast(const forecast_query& q) { return q.city + ": dry, 24 C all week"; }

constexpr agentry::registry tools{agentry::tool<"forecast", "The week's weather for a city">(forecast)};

struct day_plan {
    agentry::in_range<int, 1, 14> day;
    std::string activity;
};

struct trip_plan {
    std::string city;
    agentry::sized_vector<day_plan, 1, 14> days;
    std::optional<std::string> packing_note;
};

constexpr agentry::loop_config config{.max_turns = 6, .max_output_repairs = 2};

// Answers each request with the next recorded reply.
struct replay {
    std::vector<std::string> replies;
    std::size_t next = 0;

    agentry::transport_result send(const agentry::http_request&) {
        const std::string body = next < replies.size() ? replies[next++] : replies.back();
        return {{200, {}, body}, {}};
    }
    agentry::transport_result stream(const agentry::http_request& request, agentry::stream_handlers&) {
        return send(request);
    }
};

int main() {
    replay model{{
        // A tool call first: tools and the structured output go in the same requests.
        R"({"choices":[{"message":{"role":"assistant","content":null,"tool_calls":[{"id":"c1","type":"function",)"
        R"("function":{"name":"forecast","arguments":"{\"city\":\"Lyon\"}"}}]},"finish_reason":"tool_calls"}],)"
        R"("usage":{"prompt_tokens":120,"completion_tokens":15}})",
        // An answer with day 0, below the minimum of 1: sent back with the error.
        R"({"choices":[{"message":{"role":"assistant","content":"{\"city\":\"Lyon\",\"days\":[{\"day\":0,)"
        R"(\"activity\":\"Fourviere\"}],\"packing_note\":null}"},"finish_reason":"stop"}],)"
        R"("usage":{"prompt_tokens":160,"completion_tokens":30}})",
        // The corrected answer.
        R"({"choices":[{"message":{"role":"assistant","content":"{\"city\":\"Lyon\",\"days\":[{\"day\":1,)"
        R"(\"activity\":\"Fourviere\"},{\"day\":2,\"activity\":\"Vieux Lyon\"}],\"packing_note\":\"Sunglasses\"}"},)"
        R"("finish_reason":"stop"}],"usage":{"prompt_tokens":220,"completion_tokens":40}})",
    }};
    agentry::agent<config, trip_plan> planner{agentry::openai{.model = "gpt-4o-mini"}, tools, "You plan short trips.",
                                              model};
    const agentry::typed_result<trip_plan> r = planner.run("Plan two days in Lyon.");
    if (!r.output) {
        std::printf("no plan: %s (%s)\n", r.text.c_str(), std::string(agentry::to_string(r.stop)).c_str());
        return 1;
    }
    for (const agentry::message& m : planner.conversation())
        if (m.role == agentry::role::user) std::printf("user: %s\n", m.text.c_str());
    std::printf("plan for %s:\n", r.output->city.c_str());
    for (const day_plan& d : *r.output->days) std::printf("  day %d: %s\n", *d.day, d.activity.c_str());
    if (r.output->packing_note) std::printf("pack: %s\n", r.output->packing_note->c_str());
    return 0;
}
