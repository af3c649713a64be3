// SPDX-License-Identifier: BSL-1.0
// An agent in the AI-planned mode: the model writes one plan (flights and a hotel looked up at
// the same time, then the cheapest flight booked with the id taken from the search's result),
// the agent runs it as a graph, and the model answers from the results. The model is replayed
// from recorded OpenAI replies, so that the example runs without a network.
#include <agentry/agent.hpp>
#include <agentry/outcome.hpp>
#include <agentry/provider/openai.hpp>
#include <agentry/registry.hpp>

#include <cstddef>
#include <cstdio>
#include <string>
#include <vector>

struct flight {
    std::string id;
    int price;
};
struct flights {
    std::vector<flight> found;
};

flights find_flights(const std::string& to) {
    if (to == "Rome") return {{{"AZ331", 129}, {"FR118", 74}}};
    return {};
}

int hotel_price(const std::string& city) { return city == "Rome" ? 95 : 120; }

agentry::outcome<std::string> book_flight(const std::string& flight_id) {
    if (flight_id.empty()) return agentry::fail(agentry::failure_kind::invalid_input, "give a flight id");
    return "booked " + flight_id;
}

constexpr agentry::registry tools{
    agentry::tool<"find_flights", "Flights to a city, cheapest last", "to">(find_flights),
    agentry::tool<"hotel_price", "Price of a night in a city, in euros", "city">(hotel_price),
    agentry::tool<"book_flight", "Books a flight by its id", "flight_id">(book_flight),
};

// The plan schema is generated only with planning enabled; a failed step is re-planned.
constexpr agentry::loop_config config{
    .max_turns = 6,
    .parallel_tool_calls = true,
    .planning = {.enabled = true, .on_failure = agentry::plan_failure::replan},
};

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

// The plan the model sent: s1 and s2 at once, then s3 with the id of the cheapest flight.
const std::string plan =
    R"({"steps":[)"
    R"({"id":"s1","tool":"find_flights","arguments":{"to":"Rome"},"depends_on":[],"inputs":[]},)"
    R"({"id":"s2","tool":"hotel_price","arguments":{"city":"Rome"},"depends_on":[],"inputs":[]},)"
    R"({"id":"s3","tool":"book_flight","arguments":{"flight_id":""},"depends_on":["s1"],)"
    R"("inputs":[{"argument":"/flight_id","step":"s1","pointer":"/found/1/id"}]}]})";

std::string escaped(const std::string& text) {
    std::string out;
    agentry::json::write(out, text);
    return out;
}

int main() {
    replay model_replies{{
        R"({"choices":[{"message":{"role":"assistant","content":null,"tool_calls":[)"
        R"({"id":"c1","type":"function","function":{"name":"make_plan","arguments":)" + escaped(plan) + "}}]},"
        R"("finish_reason":"tool_calls"}],"usage":{"prompt_tokens":400,"completion_tokens":90}})",
        R"({"choices":[{"message":{"role":"assistant","content":"I booked FR118 (74 euros); a night in Rome )"
        R"(costs 95 euros."},"finish_reason":"stop"}],"usage":{"prompt_tokens":600,"completion_tokens":20}})",
    }};
    agentry::agent<config> agent{agentry::openai{.model = "gpt-4o-mini"}, tools, "Plan the tool calls, then answer.",
                                 model_replies};

    const agentry::run_result result =
        agent.run(agentry::planned{"Book the cheapest flight to Rome and tell me the hotel price."});
    for (const agentry::plan_record& p : result.plans) {
        std::printf("plan of turn %u: %u rounds\n", p.turn, p.rounds);
        for (const std::string& e : p.errors) std::printf("  refused: %s\n", e.c_str());
        for (const agentry::plan_step_record& s : p.steps)
            std::printf("  %s round %u: %s %s -> %.*s %s\n", s.id.c_str(), s.round, s.tool.c_str(),
                        s.arguments.c_str(), int(agentry::to_string(s.status).size()),
                        agentry::to_string(s.status).data(), s.result.c_str());
    }
    std::printf("answer: %s\n", result.text.c_str());
    return result.stop == agentry::stop_reason::completed ? 0 : 1;
}
