// SPDX-License-Identifier: BSL-1.0
// The models user code can give an agent directly: agentry::scripted_model (a function of the
// conversation, or a list of replies) with agentry::scripted_transport, and a replay_transport
// moved into the agent.
#include <agentry/agent.hpp>
#include <agentry/provider/openai.hpp>
#include <agentry/provider/scripted.hpp>
#include <agentry/registry.hpp>
#include <agentry/transport/replay.hpp>

#include <doctest/doctest.h>

#include <stdexcept>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace {

std::string get_time(const std::string& city) { return "10:00 in " + city; }

constexpr agentry::registry tools{agentry::tool<"get_time", "The local time in a city.", "city">(get_time)};
constexpr agentry::loop_config config{.max_turns = 4};

// Calls get_time for the city the user named, then answers with what the tool said.
agentry::completion time_model(const agentry::chat_request& r) {
    const agentry::message& last = r.messages.back();
    if (last.role == agentry::role::tool) return agentry::scripted_model::answer("It is " + last.text + ".");
    const std::string city = last.text.find("Lyon") != std::string::npos ? "Lyon" : "Paris";
    return agentry::scripted_model::call("get_time", R"({"city":")" + city + R"("})", {.input_tokens = 10,
                                                                                        .output_tokens = 2});
}

} // namespace

TEST_CASE("scripted_model: a function of the conversation drives a run, and each conversation is kept") {
    const agentry::scripted_model model{time_model};
    agentry::agent<config> agent{model, tools, agentry::agent_options{}, agentry::scripted_transport{}};
    const agentry::run_result r = agent.run("What time is it in Lyon?");
    CHECK(r.stop == agentry::stop_reason::completed);
    CHECK(r.text == "It is 10:00 in Lyon.");
    CHECK(r.turns == 2);
    REQUIRE(r.steps.size() == 1);
    CHECK(r.steps[0].tool == "get_time");
    CHECK(r.steps[0].arguments == R"({"city":"Lyon"})");
    CHECK(r.usage.input_tokens == 10);
    const std::vector<std::vector<agentry::message>> seen = model.conversations();
    REQUIRE(seen.size() == 2);
    CHECK(seen[0].back().text == "What time is it in Lyon?");
    REQUIRE(seen[1].size() >= 3);
    CHECK(seen[1].back().role == agentry::role::tool);
    CHECK(seen[1].back().tool_call_id == "call_1");
    CHECK(seen[1].back().text == "10:00 in Lyon");
}

TEST_CASE("scripted_model: a list of replies is used in order, and a turn past the last stops the run") {
    const agentry::scripted_model model{std::vector<agentry::completion>{
        agentry::scripted_model::call("get_time", R"({"city":"Paris"})"),
        agentry::scripted_model::answer("Ten o'clock."),
    }};
    agentry::agent<config> agent{model, tools, agentry::agent_options{}, agentry::scripted_transport{}};
    const agentry::run_result first = agent.run("Time in Paris?");
    CHECK(first.stop == agentry::stop_reason::completed);
    CHECK(first.text == "Ten o'clock.");
    CHECK(model.pending() == 0);
    const agentry::run_result second = agent.run("And now?");
    CHECK(second.stop == agentry::stop_reason::provider_error);
    REQUIRE(second.error.has_value());
    CHECK(second.error->kind == agentry::provider_error_kind::malformed);
    CHECK(second.error->message == "agentry: scripted_model has no reply left for turn 3");
}

TEST_CASE("scripted_model: an answer function that throws fails the turn with its message") {
    const agentry::scripted_model model{[](const agentry::chat_request&) -> agentry::completion {
        throw std::runtime_error("the script ran out");
    }};
    agentry::agent<config> agent{model, tools, agentry::agent_options{}, agentry::scripted_transport{}};
    const agentry::run_result r = agent.run("Hello");
    CHECK(r.stop == agentry::stop_reason::provider_error);
    REQUIRE(r.error.has_value());
    CHECK(r.error->message == "agentry: scripted_model's answer function threw: the script ran out");
}

TEST_CASE("scripted_model: a streamed turn gives the events its text and calls, then the same reply") {
    const agentry::scripted_model model{std::vector<agentry::completion>{
        agentry::scripted_model::calls({{"", "get_time", R"({"city":"Paris"})", {}},
                                        {"c9", "get_time", R"({"city":"Lyon"})", {}}}),
        agentry::scripted_model::answer("Done."),
    }};
    agentry::scripted_transport http;
    std::vector<std::string> named;
    std::vector<std::string> pieces;
    std::string text;
    const agentry::stream_events events{
        .on_text = [&](std::string_view t) { text += t; },
        .on_tool_call = [&](std::string_view id, std::string_view name) { named.push_back(std::string(id) + " " + std::string(name)); },
        .on_tool_arguments = [&](std::string_view id, std::string_view piece) {
            pieces.push_back(std::string(id) + " " + std::string(piece));
        },
    };
    const std::vector<agentry::message> conversation{agentry::message::user("Times?")};
    agentry::chat_request request{.messages = conversation, .stream = true};
    const agentry::turn_result calls = agentry::complete(model, http, request, events);
    REQUIRE(calls.ok());
    CHECK(calls.value->finish == agentry::finish_reason::tool_calls);
    REQUIRE(calls.value->reply.tool_calls.size() == 2);
    CHECK(calls.value->reply.tool_calls[0].id == "call_1");
    CHECK(named == std::vector<std::string>{"call_1 get_time", "c9 get_time"});
    CHECK(pieces == std::vector<std::string>{R"(call_1 {"city":"Paris"})", R"(c9 {"city":"Lyon"})"});
    const agentry::turn_result done = agentry::complete(model, http, request, events);
    REQUIRE(done.ok());
    CHECK(done.value->reply.text == "Done.");
    CHECK(text == "Done.");
}

TEST_CASE("scripted_model: a response that is not one of its turns is a malformed turn") {
    const agentry::scripted_model model{time_model};
    agentry::http_response response;
    response.status = 200;
    response.body = "17";
    const agentry::turn_result r = model.parse(response);
    CHECK_FALSE(r.ok());
    CHECK(r.error.kind == agentry::provider_error_kind::malformed);
}

TEST_CASE("replay_transport: moved into an agent, it answers the agent's requests") {
    const std::string call_reply =
        R"({"choices":[{"message":{"role":"assistant","content":null,"tool_calls":[{"id":"c1","type":"function",)"
        R"("function":{"name":"get_time","arguments":"{\"city\":\"Paris\"}"}}]},"finish_reason":"tool_calls"}]})";
    const std::string text_reply =
        R"({"choices":[{"message":{"role":"assistant","content":"It is ten."},"finish_reason":"stop"}]})";
    agentry::replay_transport script{{agentry::replay_response::ok(call_reply), agentry::replay_response::ok(text_reply)}};
    agentry::agent<config> agent{agentry::openai{.model = "gpt-4o-mini"}, tools, agentry::agent_options{},
                                 std::move(script)};
    const agentry::run_result r = agent.run("Time in Paris?");
    CHECK(r.stop == agentry::stop_reason::completed);
    CHECK(r.text == "It is ten.");
    CHECK(script.pending() == 0);
    CHECK(script.requests().empty());
}
