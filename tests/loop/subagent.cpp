// SPDX-License-Identifier: BSL-1.0
// Agents as tools (loop/agent_tool.hpp): a sub-agent's run nested in its caller's run_result
// with its usage, the caller's token budget shared with the sub-run, a sub-run that fails
// becoming a tool error, cancellation and the tool timeout reaching the sub-run, parallel
// calls taking turns, a step of a planned run, the sub-agent's own events, and the whole
// through the OpenAI provider class over a replay_transport.
#include "scripted.hpp"

#include <agentry/agent.hpp>
#include <agentry/loop/agent_tool.hpp>
#include <agentry/provider/openai.hpp>
#include <agentry/registry.hpp>
#include <agentry/stop_token.hpp>
#include <agentry/transport/replay.hpp>

#include <doctest/doctest.h>

#include <atomic>
#include <chrono>
#include <condition_variable>
#include <functional>
#include <memory>
#include <mutex>
#include <stdexcept>
#include <string>
#include <vector>

using scripted::answer;
using scripted::call;
using scripted::calls;

namespace {

struct findings {
    std::string summary;
    int sources = 0;
};

struct research_request {
    std::string topic;
};

struct lookup_query {
    std::string term;
};

// What the sub-agent's lookup tool does besides answering, per test.
std::function<void(agentry::stop_token)>& lookup_hook() {
    static std::function<void(agentry::stop_token)> hook;
    return hook;
}

std::string lookup(const lookup_query& q, agentry::stop_token stop) {
    if (lookup_hook()) lookup_hook()(stop);
    return "Two papers on " + q.term;
}

constexpr agentry::registry research_tools{agentry::tool<"lookup", "Looks a term up.">(lookup)};

std::string research_prompt(const research_request& r) { return "Research " + r.topic + "."; }

// The sub-agent: `options` with the system prompt "You research.".
template <agentry::loop_config Config = agentry::loop_config{}>
struct sub_fixture {
    std::shared_ptr<scripted::script> s = std::make_shared<scripted::script>();
    agentry::agent<Config, findings> agent;

    explicit sub_fixture(agentry::agent_options options = {})
        : agent{scripted::model{s}, research_tools, with_prompt(std::move(options)), scripted::quiet_transport{}} {}

    static agentry::agent_options with_prompt(agentry::agent_options options) {
        options.system_prompt = "You research.";
        return options;
    }
};

template <class Sub>
auto research_registry(Sub& sub) {
    return agentry::registry{agentry::tool<"lookup", "Looks a term up.">(lookup),
                             agentry::agent_tool<"research", "Researches a topic.">(sub, research_prompt)};
}

template <agentry::loop_config Config, class Registry>
struct lead_fixture {
    std::shared_ptr<scripted::script> s = std::make_shared<scripted::script>();
    agentry::agent<Config> agent;
    explicit lead_fixture(const Registry& tools)
        : agent(scripted::model{s}, tools, "You answer with research.", scripted::quiet_transport{}) {}
};

template <agentry::loop_config Config, class Registry>
std::unique_ptr<lead_fixture<Config, Registry>> make_lead(const Registry& tools) {
    return std::make_unique<lead_fixture<Config, Registry>>(tools);
}

const agentry::message* tool_result_for(const std::vector<agentry::message>& history, std::string_view id) {
    for (const agentry::message& m : history)
        if (m.role == agentry::role::tool && m.tool_call_id == id) return &m;
    return nullptr;
}

constexpr std::string_view good_findings = R"({"summary":"Two papers agree.","sources":2})";

} // namespace

TEST_CASE("agent_tool: the sub-run's steps and usage are nested in the caller's result") {
    sub_fixture<> sub;
    sub.s->turns = {calls({call("s1", "lookup", R"({"term":"tides"})")}, {7, 3}),
                    answer(std::string(good_findings), {9, 4}),
                    answer(std::string(good_findings), {9, 4})};
    const auto tools = research_registry(sub.agent);
    auto lead = make_lead<agentry::loop_config{}>(tools);
    lead->s->turns = {calls({call("p1", "research", R"({"topic":"tides"})")}),
                      calls({call("p2", "research", R"({"topic":"moons"})")}), answer("Tides follow the moon.")};
    const agentry::run_result r = lead->agent.run("Why are there tides?");

    REQUIRE(r.stop == agentry::stop_reason::completed);
    CHECK(r.text == "Tides follow the moon.");
    REQUIRE(r.steps.size() == 2);
    CHECK(r.steps[0].tool == "research");
    CHECK(r.steps[0].status == agentry::tool_status::ok);
    REQUIRE(r.sub_runs.size() == 2);
    const agentry::sub_run& first = r.sub_runs[0];
    CHECK(first.step_id == "p1");
    CHECK(first.tool == "research");
    CHECK(first.result.stop == agentry::stop_reason::completed);
    REQUIRE(first.result.steps.size() == 1);
    CHECK(first.result.steps[0].tool == "lookup");
    CHECK(first.result.steps[0].result_excerpt == "Two papers on tides");
    CHECK(first.result.usage.input_tokens == 16);
    CHECK(first.result.usage.output_tokens == 7);
    CHECK(r.sub_runs[1].step_id == "p2");
    CHECK(r.sub_runs[1].result.steps.empty());
    // Three turns of the caller (10 + 5 each) and the two sub-runs (16 + 7, 9 + 4).
    CHECK(r.usage.input_tokens == 30 + 16 + 9);
    CHECK(r.usage.output_tokens == 15 + 7 + 4);
    CHECK(r.turn_usage.size() == 3);
    // The model got the typed output as JSON.
    const agentry::message* result = tool_result_for(lead->agent.conversation(), "p1");
    REQUIRE(result != nullptr);
    CHECK(result->text == good_findings);
    // The message the prompt made; each call starts from the sub-agent's system prompt alone.
    REQUIRE(sub.s->requests.size() == 3);
    REQUIRE(sub.s->requests[0].messages.size() == 2);
    CHECK(sub.s->requests[0].messages[1].text == "Research tides.");
    REQUIRE(sub.s->requests[2].messages.size() == 2);
    CHECK(sub.s->requests[2].messages[0].text == "You research.");
    CHECK(sub.s->requests[2].messages[1].text == "Research moons.");
}

TEST_CASE("agent_tool: the caller's token budget is shared with the sub-run") {
    SUBCASE("the sub-run stops when what was left is used up, then the caller stops") {
        sub_fixture<> sub;
        sub.s->turns = {calls({call("s1", "lookup", R"({"term":"a"})")}), calls({call("s2", "lookup", R"({"term":"b"})")}),
                        answer(std::string(good_findings))};
        const auto tools = research_registry(sub.agent);
        constexpr agentry::loop_config budget{.max_total_tokens = 40};
        auto lead = make_lead<budget>(tools);
        lead->s->turns = {calls({call("p1", "research", R"({"topic":"tides"})")}), answer("never asked")};
        const agentry::run_result r = lead->agent.run("Why are there tides?");

        // 15 tokens used by the caller's turn: the sub-run may use 25; it stops after 30.
        REQUIRE(r.sub_runs.size() == 1);
        CHECK(r.sub_runs[0].result.stop == agentry::stop_reason::token_budget);
        CHECK(sub.s->requests.size() == 2);
        CHECK(r.steps[0].status == agentry::tool_status::tool_error);
        const agentry::message* result = tool_result_for(lead->agent.conversation(), "p1");
        REQUIRE(result != nullptr);
        CHECK(result->text.find("research stopped without an answer (token_budget)") != std::string::npos);
        CHECK(r.stop == agentry::stop_reason::token_budget);
        CHECK(agentry::detail::tokens_used(r) == 45);
        CHECK(lead->s->turns.size() == 1);
    }
    SUBCASE("a sub-run is not started when nothing is left") {
        sub_fixture<> sub;
        sub.s->turns = {answer(std::string(good_findings))};
        const auto tools = research_registry(sub.agent);
        constexpr agentry::loop_config budget{.max_total_tokens = 15};
        auto lead = make_lead<budget>(tools);
        lead->s->turns = {calls({call("p1", "research", R"({"topic":"tides"})")})};
        const agentry::run_result r = lead->agent.run("Why are there tides?");
        CHECK(sub.s->requests.empty());
        CHECK(r.sub_runs.empty());
        CHECK(r.stop == agentry::stop_reason::token_budget);
        const agentry::message* result = tool_result_for(lead->agent.conversation(), "p1");
        REQUIRE(result != nullptr);
        CHECK(result->text.find("research was not started: the run's token budget is used up") != std::string::npos);
    }
    SUBCASE("agent_options::max_total_tokens alone limits a run") {
        sub_fixture<> sub({.max_total_tokens = 10});
        sub.s->turns = {calls({call("s1", "lookup", R"({"term":"a"})")}), answer(std::string(good_findings))};
        const agentry::typed_result<findings> r = sub.agent.run("Research tides.");
        CHECK(r.stop == agentry::stop_reason::token_budget);
        CHECK(r.text == "The run used 15 tokens, its budget being 10.");
        CHECK_FALSE(r.output.has_value());
    }
}

TEST_CASE("agent_tool: a sub-run without an answer is a tool error the caller's model sees") {
    SUBCASE("a provider error") {
        sub_fixture<> sub;
        sub.s->turns = {scripted::failure(401, false)};
        const auto tools = research_registry(sub.agent);
        auto lead = make_lead<agentry::loop_config{}>(tools);
        lead->s->turns = {calls({call("p1", "research", R"({"topic":"tides"})")}), answer("I could not research it.")};
        const agentry::run_result r = lead->agent.run("Why are there tides?");
        CHECK(r.stop == agentry::stop_reason::completed);
        CHECK(r.steps[0].status == agentry::tool_status::tool_error);
        CHECK(r.steps[0].failure == agentry::failure_kind::transient);
        REQUIRE(r.sub_runs.size() == 1);
        CHECK(r.sub_runs[0].result.stop == agentry::stop_reason::provider_error);
        const agentry::message* result = tool_result_for(lead->agent.conversation(), "p1");
        REQUIRE(result != nullptr);
        CHECK(result->text.find("research stopped without an answer (provider_error): HTTP 401") != std::string::npos);
        // The caller's model got the error with the next request.
        CHECK(lead->s->requests.back().messages.back().text == result->text);
    }
    SUBCASE("an answer that stays invalid") {
        sub_fixture<agentry::loop_config{.max_output_repairs = 0}> sub;
        sub.s->turns = {answer("not JSON")};
        const auto tools = research_registry(sub.agent);
        auto lead = make_lead<agentry::loop_config{}>(tools);
        lead->s->turns = {calls({call("p1", "research", R"({"topic":"tides"})")}), answer("No research.")};
        const agentry::run_result r = lead->agent.run("Why are there tides?");
        CHECK(r.stop == agentry::stop_reason::completed);
        CHECK(r.steps[0].failure == agentry::failure_kind::permanent);
        REQUIRE(r.sub_runs.size() == 1);
        CHECK(r.sub_runs[0].result.stop == agentry::stop_reason::invalid_output_exhausted);
        CHECK(tool_result_for(lead->agent.conversation(), "p1")->text.find("(invalid_output_exhausted)") !=
              std::string::npos);
    }
    SUBCASE("a prompt function that throws") {
        sub_fixture<> sub;
        const agentry::registry tools{agentry::agent_tool<"research", "Researches a topic.">(
            sub.agent, [](const research_request&) -> std::string { throw std::runtime_error("no topic"); })};
        auto lead = make_lead<agentry::loop_config{}>(tools);
        lead->s->turns = {calls({call("p1", "research", R"({"topic":"tides"})")}), answer("No research.")};
        const agentry::run_result r = lead->agent.run("Why are there tides?");
        CHECK(r.stop == agentry::stop_reason::completed);
        CHECK(r.steps[0].status == agentry::tool_status::tool_error);
        CHECK(sub.s->requests.empty());
        CHECK(r.sub_runs.empty());
    }
    SUBCASE("invalid arguments never reach the sub-agent") {
        sub_fixture<> sub;
        const auto tools = research_registry(sub.agent);
        auto lead = make_lead<agentry::loop_config{}>(tools);
        lead->s->turns = {calls({call("p1", "research", R"({"subject":"tides"})")}), answer("No research.")};
        const agentry::run_result r = lead->agent.run("Why are there tides?");
        CHECK(r.steps[0].status == agentry::tool_status::invalid_arguments);
        CHECK(sub.s->requests.empty());
    }
}

TEST_CASE("agent_tool: the caller's cancel() and tool timeout stop the sub-run") {
    SUBCASE("cancel") {
        sub_fixture<> sub;
        sub.s->turns = {calls({call("s1", "lookup", R"({"term":"a"})")}), answer(std::string(good_findings))};
        const auto tools = research_registry(sub.agent);
        auto lead = make_lead<agentry::loop_config{}>(tools);
        lead->s->turns = {calls({call("p1", "research", R"({"topic":"tides"})")}), answer("never asked")};
        bool stop_seen = false;
        lookup_hook() = [&](agentry::stop_token stop) {
            lead->agent.cancel();
            stop_seen = stop.stop_requested();  // the sub-run's own tools are told at once
        };
        const agentry::run_result r = lead->agent.run("Why are there tides?");
        lookup_hook() = nullptr;
        CHECK(stop_seen);
        CHECK(r.stop == agentry::stop_reason::cancelled);
        REQUIRE(r.sub_runs.size() == 1);
        CHECK(r.sub_runs[0].result.stop == agentry::stop_reason::cancelled);
        CHECK(sub.s->turns.size() == 1);  // the sub-run asked its model nothing after the cancel
        CHECK(lead->s->turns.size() == 1);
    }
    SUBCASE("the caller's tool timeout") {
        sub_fixture<> sub;
        sub.s->turns = {calls({call("s1", "lookup", R"({"term":"a"})")}), answer(std::string(good_findings))};
        std::mutex m;
        std::condition_variable_any cv;
        bool stopped = false;
        lookup_hook() = [&](agentry::stop_token stop) {
            // Wakes when the stop token is signalled (registered before the lock is taken, as it
            // runs at once when the stop came first); bounded, so that the test fails rather
            // than hangs if it never is.
            const agentry::stop_callback wake(stop, [&] {
                const std::lock_guard lock(m);
                cv.notify_all();
            });
            std::unique_lock lock(m);
            cv.wait_for(lock, std::chrono::seconds(30), [&] { return stop.stop_requested(); });
            stopped = stop.stop_requested();
        };
        {
            const auto tools = research_registry(sub.agent);
            constexpr agentry::loop_config timed{.tool_timeout = std::chrono::milliseconds(50)};
            auto lead = make_lead<timed>(tools);
            lead->s->turns = {calls({call("p1", "research", R"({"topic":"tides"})")}), answer("It took too long.")};
            const agentry::run_result r = lead->agent.run("Why are there tides?");
            CHECK(r.stop == agentry::stop_reason::completed);
            CHECK(r.steps[0].timed_out);
            // The caller's destructor waits for the abandoned call, which ends once the sub-run
            // is cancelled.
            lead.reset();
        }
        lookup_hook() = nullptr;
        CHECK(stopped);
        CHECK(sub.s->turns.size() == 1);
    }
}

TEST_CASE("agent_tool: parallel calls of one sub-agent take turns") {
    sub_fixture<> sub;
    sub.s->turns = {answer(std::string(good_findings)), answer(std::string(good_findings))};
    const auto tools = research_registry(sub.agent);
    constexpr agentry::loop_config parallel{.parallel_tool_calls = true};
    auto lead = make_lead<parallel>(tools);
    lead->s->turns = {calls({call("p1", "research", R"({"topic":"tides"})"), call("p2", "research", R"({"topic":"moons"})")}),
                      answer("Both done.")};
    const agentry::run_result r = lead->agent.run("Tides and moons?");
    CHECK(r.stop == agentry::stop_reason::completed);
    REQUIRE(r.sub_runs.size() == 2);
    CHECK(r.steps[0].status == agentry::tool_status::ok);
    CHECK(r.steps[1].status == agentry::tool_status::ok);
    const bool ids = (r.sub_runs[0].step_id == "p1" && r.sub_runs[1].step_id == "p2") ||
                     (r.sub_runs[0].step_id == "p2" && r.sub_runs[1].step_id == "p1");
    CHECK(ids);
    // One run at a time, each from the system prompt alone.
    REQUIRE(sub.s->requests.size() == 2);
    CHECK(sub.s->requests[0].messages.size() == 2);
    CHECK(sub.s->requests[1].messages.size() == 2);
}

namespace {

// The agents keep their transport by value; this one forwards to a replay_transport the test reads.
struct replay_at {
    agentry::replay_transport* to;
    agentry::transport_result send(const agentry::http_request& r) { return to->send(r); }
    agentry::transport_result stream(const agentry::http_request& r, agentry::stream_handlers& h) {
        return to->stream(r, h);
    }
};

std::string openai_body(const std::string& message, std::string_view finish, int in, int out) {
    return R"({"id":"chatcmpl-1","object":"chat.completion","created":1741569952,"model":"gpt-4o-mini",)"
           R"("choices":[{"index":0,"message":)" +
           message + R"(,"logprobs":null,"finish_reason":")" + std::string(finish) +
           R"("}],"usage":{"prompt_tokens":)" + std::to_string(in) + R"(,"completion_tokens":)" +
           std::to_string(out) + R"(,"total_tokens":)" + std::to_string(in + out) + "}}";
}

} // namespace

TEST_CASE("agent_tool: through the OpenAI provider class over a replay_transport") {
    const agentry::openai model{.model = "gpt-4o-mini", .api_key = "sk-test"};
    agentry::replay_transport sub_http{{agentry::replay_response::ok(openai_body(
        R"({"role":"assistant","content":"{\"summary\":\"Two papers agree.\",\"sources\":2}","refusal":null})", "stop",
        30, 12))}};
    agentry::agent<agentry::loop_config{}, findings> researcher{model, research_tools, "You research.",
                                                                replay_at{&sub_http}};
    const agentry::registry tools{agentry::agent_tool<"research", "Researches a topic.">(researcher, research_prompt)};
    agentry::replay_transport lead_http{{
        agentry::replay_response::ok(openai_body(
            R"({"role":"assistant","content":null,"tool_calls":[{"id":"call_1","type":"function",)"
            R"("function":{"name":"research","arguments":"{\"topic\":\"tides\"}"}}]})",
            "tool_calls", 20, 8)),
        agentry::replay_response::ok(openai_body(R"({"role":"assistant","content":"The moon.","refusal":null})",
                                                 "stop", 40, 4)),
    }};
    agentry::agent<agentry::loop_config{.max_total_tokens = 1000}> lead{model, tools, "You answer.", replay_at{&lead_http}};
    const agentry::run_result r = lead.run("Why are there tides?");

    REQUIRE(r.stop == agentry::stop_reason::completed);
    CHECK(r.text == "The moon.");
    REQUIRE(r.sub_runs.size() == 1);
    CHECK(r.sub_runs[0].step_id == "call_1");
    CHECK(r.sub_runs[0].result.text == "{\"summary\":\"Two papers agree.\",\"sources\":2}");
    CHECK(r.sub_runs[0].result.usage.input_tokens == 30);
    CHECK(r.usage.input_tokens == 20 + 30 + 40);
    CHECK(r.usage.output_tokens == 8 + 12 + 4);
    // The tool's parameters are the input struct's schema; the sub-agent asked for its output.
    REQUIRE(lead_http.requests().size() == 2);
    CHECK(lead_http.requests()[0].body.find(R"("name":"research")") != std::string::npos);
    CHECK(lead_http.requests()[0].body.find(R"("topic":{"type":"string"})") != std::string::npos);
    REQUIRE(sub_http.requests().size() == 1);
    CHECK(sub_http.requests()[0].body.find(R"("response_format")") != std::string::npos);
    CHECK(sub_http.requests()[0].body.find("Research tides.") != std::string::npos);
    CHECK(lead_http.requests()[1].body.find(R"(Two papers agree.)") != std::string::npos);
}

TEST_CASE("agent_tool: a step of a planned run nests its sub-run too") {
    sub_fixture<> sub;
    sub.s->turns = {answer(std::string(good_findings), {9, 4})};
    const auto tools = research_registry(sub.agent);
    constexpr agentry::loop_config planning{.planning = {.enabled = true}};
    auto lead = make_lead<planning>(tools);
    lead->s->turns = {
        calls({call("p1", "make_plan",
                    R"({"steps":[{"id":"s1","tool":"research","arguments":{"topic":"tides"},"depends_on":[],"inputs":[]}]})")}),
        answer("Tides follow the moon.")};
    const agentry::run_result r = lead->agent.run(agentry::planned{"Why are there tides?"});
    REQUIRE(r.stop == agentry::stop_reason::completed);
    REQUIRE(r.sub_runs.size() == 1);
    CHECK(r.sub_runs[0].step_id == "p1/s1");
    CHECK(r.sub_runs[0].result.stop == agentry::stop_reason::completed);
    CHECK(r.usage.input_tokens == 20 + 9);
    CHECK(r.usage.output_tokens == 10 + 4);
}

TEST_CASE("agent_tool: the sub-agent's own agent_options::events are called during the sub-run") {
    std::vector<std::uint32_t> turns_ended;
    std::vector<std::string> tools_started;
    agentry::agent_events events;
    events.on_turn_end = [&](std::uint32_t turn, const agentry::token_usage&) { turns_ended.push_back(turn); };
    events.on_tool_start = [&](const agentry::tool_call& c) { tools_started.push_back(c.name); };
    sub_fixture<> sub({.events = events});
    sub.s->turns = {calls({call("s1", "lookup", R"({"term":"tides"})")}), answer(std::string(good_findings))};
    const auto tools = research_registry(sub.agent);
    auto lead = make_lead<agentry::loop_config{}>(tools);
    lead->s->turns = {calls({call("p1", "research", R"({"topic":"tides"})")}), answer("Tides follow the moon.")};
    const agentry::run_result r = lead->agent.run("Why are there tides?");
    CHECK(r.stop == agentry::stop_reason::completed);
    REQUIRE(r.sub_runs.size() == 1);
    CHECK(r.sub_runs[0].result.turns == 2);
    // The sub-run's two turns and its one call; the caller's own turns are not the sub-agent's.
    CHECK(turns_ended == std::vector<std::uint32_t>{1, 2});
    CHECK(tools_started == std::vector<std::string>{"lookup"});
}

TEST_CASE("agent_tool: with its own on_turn_end, the sub-run still stops at the caller's cancel()") {
    bool own_called = false;
    agentry::agent_events events;
    events.on_turn_end = [&](std::uint32_t, const agentry::token_usage&) { own_called = true; };
    sub_fixture<> sub({.events = events});
    sub.s->turns = {calls({call("s1", "lookup", R"({"term":"a"})")}), answer(std::string(good_findings))};
    const auto tools = research_registry(sub.agent);
    auto lead = make_lead<agentry::loop_config{}>(tools);
    lead->s->turns = {calls({call("p1", "research", R"({"topic":"tides"})")}), answer("never asked")};
    lookup_hook() = [&](agentry::stop_token) { lead->agent.cancel(); };
    const agentry::run_result r = lead->agent.run("Why are there tides?");
    lookup_hook() = nullptr;
    CHECK(own_called);
    CHECK(r.stop == agentry::stop_reason::cancelled);
    REQUIRE(r.sub_runs.size() == 1);
    CHECK(r.sub_runs[0].result.stop == agentry::stop_reason::cancelled);
    CHECK(sub.s->turns.size() == 1);
}
