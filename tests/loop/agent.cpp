// SPDX-License-Identifier: BSL-1.0
#include "scripted.hpp"

#include <agentry/agent.hpp>
#include <agentry/call_scope.hpp>
#include <agentry/policy/tool_policy.hpp>
#include <agentry/registry.hpp>

#include <doctest/doctest.h>

#include <atomic>
#include <chrono>
#include <memory>
#include <stdexcept>
#include <string>
#include <system_error>
#include <thread>
#include <type_traits>
#include <utility>
#include <vector>

using scripted::answer;
using scripted::call;
using scripted::calls;

namespace {

enum class unit { celsius, fahrenheit };

struct weather_query {
    std::string city;
    std::optional<unit> unit_;
};

std::string weather(const weather_query& q) { return q.city + ": 18 C, rain"; }

std::atomic<bool> slow_release{false};

int slow(int ms) {
    const auto until = std::chrono::steady_clock::now() + std::chrono::milliseconds(ms);
    while (std::chrono::steady_clock::now() < until && !slow_release.load())
        std::this_thread::sleep_for(std::chrono::milliseconds(5));
    return ms;
}

constexpr agentry::registry tools{
    agentry::tool<"get_weather", "Current weather for a city">(weather),
    agentry::tool<"add", "Add two integers", "a", "b">(+[](int a, int b) { return static_cast<long long>(a) + b; }),
    agentry::tool<"fail", "Always fails">(+[]() -> int { throw std::runtime_error("disk full"); }),
    agentry::tool<"slow", "Waits", "ms">(slow),
};

// The agent's options, with its system prompt when they have none.
agentry::agent_options with_prompt(agentry::agent_options options) {
    if (options.system_prompt.empty()) options.system_prompt = "You are a test.";
    return options;
}

template <agentry::loop_config Config = agentry::loop_config{}>
struct fixture {
    explicit fixture(agentry::agent_options options = {})
        : agent{scripted::model{s}, tools, with_prompt(std::move(options)), scripted::quiet_transport{}} {}
    std::shared_ptr<scripted::script> s = std::make_shared<scripted::script>();
    agentry::agent<Config> agent;
};

} // namespace

TEST_CASE("a multi-turn run: a tool call, its result, the answer") {
    fixture f;
    f.s->turns = {calls({call("c1", "get_weather", R"({"city":"Paris"})")}), answer("Take an umbrella.")};
    const agentry::run_result r = f.agent.run("Umbrella in Paris?");
    CHECK(r.stop == agentry::stop_reason::completed);
    CHECK(r.text == "Take an umbrella.");
    CHECK(r.turns == 2);
    REQUIRE(r.steps.size() == 1);
    CHECK(r.steps[0].tool == "get_weather");
    CHECK(r.steps[0].status == agentry::tool_status::ok);
    CHECK(r.steps[0].result_excerpt == "Paris: 18 C, rain");
    CHECK(r.usage == agentry::token_usage{20, 10});
    CHECK(r.turn_usage.size() == 2);
    // The second request carries the call and its result.
    REQUIRE(f.s->requests.size() == 2);
    const auto& sent = f.s->requests[1].messages;
    REQUIRE(sent.size() == 4);
    CHECK(sent[0].role == agentry::role::system);
    CHECK(sent[1].text == "Umbrella in Paris?");
    CHECK(sent[2].tool_calls.size() == 1);
    CHECK(sent[3].role == agentry::role::tool);
    CHECK(sent[3].tool_call_id == "c1");
    CHECK(sent[3].text == "Paris: 18 C, rain");
    CHECK(f.s->requests[0].tools);
}

TEST_CASE("parallel calls run together - results go back in the model's order") {
    fixture<agentry::loop_config{.parallel_tool_calls = true, .max_parallelism = 3}> f;
    f.s->turns = {calls({call("a", "slow", R"({"ms":60})"), call("b", "add", R"({"a":1,"b":2})"),
                         call("c", "slow", R"({"ms":20})")}),
                  answer("done")};
    const auto r = f.agent.run("go");
    CHECK(r.stop == agentry::stop_reason::completed);
    const auto& sent = f.s->requests[1].messages;
    REQUIRE(sent.size() == 6);
    CHECK(sent[3].tool_call_id == "a");
    CHECK(sent[3].text == "60");
    CHECK(sent[4].tool_call_id == "b");
    CHECK(sent[4].text == "3");
    CHECK(sent[5].tool_call_id == "c");
    CHECK(sent[5].text == "20");
    REQUIRE(r.steps.size() == 3);
    CHECK(r.steps[1].tool == "add");
}

TEST_CASE("invalid arguments go back to the model, which repairs the call") {
    fixture f;
    f.s->turns = {calls({call("1", "add", R"({"a":1,"b":"two"})")}), calls({call("2", "add", R"({"a":1,"b":2})")}),
                  answer("3")};
    const auto r = f.agent.run("1+2?");
    CHECK(r.stop == agentry::stop_reason::completed);
    REQUIRE(r.steps.size() == 2);
    CHECK(r.steps[0].status == agentry::tool_status::invalid_arguments);
    const auto& sent = f.s->requests[1].messages;
    CHECK(sent.back().is_error);
    CHECK(sent.back().text ==
          "add: invalid arguments: /b: expected an integer, got a string \"two\". Fix the arguments and call add again.");
    CHECK(r.steps[1].status == agentry::tool_status::ok);
}

TEST_CASE("invalid arguments round after round stop the run") {
    fixture<agentry::loop_config{.max_invalid_rounds = 2}> f;
    f.s->turns = {calls({call("1", "add", R"({"a":1})")}), calls({call("2", "add", R"({"b":1})")}), answer("never")};
    const auto r = f.agent.run("add");
    CHECK(r.stop == agentry::stop_reason::invalid_arguments_exhausted);
    CHECK(r.text == "The model sent invalid arguments to add 2 rounds in a row.");
    CHECK(r.turns == 2);
}

TEST_CASE("an unknown tool and a throwing tool become results the model sees") {
    fixture f;
    f.s->turns = {calls({call("1", "get_wether", R"({"city":"Oslo"})"), call("2", "fail", "{}")}), answer("sorry")};
    const auto r = f.agent.run("weather");
    CHECK(r.stop == agentry::stop_reason::completed);
    REQUIRE(r.steps.size() == 2);
    CHECK(r.steps[0].status == agentry::tool_status::unknown_tool);
    CHECK(r.steps[1].status == agentry::tool_status::tool_error);
    const auto& sent = f.s->requests[1].messages;
    CHECK(sent[3].text.starts_with("unknown tool \"get_wether\" (did you mean \"get_weather\"?)"));
    CHECK(sent[4].text == "fail failed: disk full");
    CHECK(sent[4].is_error);
}

TEST_CASE("a tool past its timeout is abandoned - the run goes on") {
    slow_release = false;
    fixture<agentry::loop_config{.tool_timeout = std::chrono::milliseconds(30)}> f;
    f.s->turns = {calls({call("1", "slow", R"({"ms":5000})"), call("2", "add", R"({"a":2,"b":2})")}), answer("ok")};
    const auto r = f.agent.run("go");
    slow_release = true;  // lets the abandoned call end
    CHECK(r.stop == agentry::stop_reason::completed);
    REQUIRE(r.steps.size() == 2);
    CHECK(r.steps[0].timed_out);
    CHECK(r.steps[0].status == agentry::tool_status::tool_error);
    CHECK(r.steps[0].result_excerpt == "slow did not finish within 30 ms; it was abandoned. Try a narrower request or "
                                       "another tool.");
    CHECK(r.steps[1].status == agentry::tool_status::ok);
}

TEST_CASE("loop detection: the same call three times, and A,B,A,B,A,B") {
    fixture<agentry::loop_config{.max_turns = 20}> same;
    for (int i = 0; i != 5; ++i) same.s->turns.push_back(calls({call(std::to_string(i), "add", R"({"a":1,"b":1})")}));
    auto r = same.agent.run("loop");
    CHECK(r.stop == agentry::stop_reason::loop_detected);
    CHECK(r.turns == 3);
    fixture<agentry::loop_config{.max_turns = 20}> pair;
    for (int i = 0; i != 8; ++i)
        pair.s->turns.push_back(calls({call(std::to_string(i), "add", i % 2 ? R"({"a":1,"b":1})" : R"({"a":2,"b":2})")}));
    r = pair.agent.run("loop");
    CHECK(r.stop == agentry::stop_reason::loop_detected);
    CHECK(r.turns == 6);
    fixture<agentry::loop_config{.max_turns = 6, .loop_threshold = 0}> off;
    for (int i = 0; i != 8; ++i) off.s->turns.push_back(calls({call(std::to_string(i), "add", R"({"a":1,"b":1})")}));
    CHECK(off.agent.run("loop").stop == agentry::stop_reason::max_turns);
}

TEST_CASE("max turns: force stops with a message, generate asks once more with tool_choice none") {
    fixture<agentry::loop_config{.max_turns = 2}> force;
    for (int i = 0; i != 4; ++i) force.s->turns.push_back(calls({call(std::to_string(i), "add", "{\"a\":" + std::to_string(i) + ",\"b\":1}")}));
    auto r = force.agent.run("go");
    CHECK(r.stop == agentry::stop_reason::max_turns);
    CHECK(r.text == "Stopped after 2 turns without a final answer.");
    CHECK(force.s->requests.size() == 2);

    fixture<agentry::loop_config{.max_turns = 2, .early_stopping = agentry::early_stopping::generate}> generate;
    generate.s->turns = {calls({call("1", "add", R"({"a":1,"b":1})")}), calls({call("2", "add", R"({"a":2,"b":1})")}),
                         answer("It is 3.")};
    r = generate.agent.run("go");
    CHECK(r.stop == agentry::stop_reason::max_turns);
    CHECK(r.text == "It is 3.");
    CHECK(r.turns == 3);
    REQUIRE(generate.s->requests.size() == 3);
    CHECK(generate.s->requests[2].tools);
    CHECK(generate.s->requests[2].choice == agentry::tool_choice_kind::none);
}

TEST_CASE("the total time limit stops the run") {
    slow_release = false;
    fixture<agentry::loop_config{.max_total_time = std::chrono::milliseconds(50)}> f;
    f.s->turns = {calls({call("1", "slow", R"({"ms":100})")}), answer("late")};
    const auto r = f.agent.run("go");
    CHECK(r.stop == agentry::stop_reason::timeout);
    CHECK(r.turns == 1);
}

TEST_CASE("a 429 is retried (Retry-After honoured) - a 401 stops the run") {
    int retries = 0;
    agentry::agent_events events;
    events.on_retry = [&](const agentry::provider_error& e, std::chrono::milliseconds delay) {
        ++retries;
        CHECK(e.status == 429);
        CHECK(delay.count() >= 5);
    };
    fixture<agentry::loop_config{.retry = {.max_retries = 2, .initial_backoff = std::chrono::milliseconds(1), .max_backoff = std::chrono::milliseconds(2)}}> f(
        {.events = events});
    f.s->turns = {scripted::failure(429, true, 5), answer("hello")};
    auto r = f.agent.run("hi");
    CHECK(r.stop == agentry::stop_reason::completed);
    CHECK(r.text == "hello");
    CHECK(retries == 1);
    CHECK(r.turns == 1);

    fixture g;
    g.s->turns = {scripted::failure(401, false), answer("never")};
    r = g.agent.run("hi");
    CHECK(r.stop == agentry::stop_reason::provider_error);
    REQUIRE(r.error);
    CHECK(r.error->status == 401);
    CHECK(r.text == "HTTP 401");
    CHECK(g.s->requests.size() == 1);
}

TEST_CASE("a server delay at retry.max_server_delay is waited for, a longer one stops the run at once") {
    using namespace std::chrono_literals;
    constexpr agentry::loop_config config{.retry = {.initial_backoff = 1ms, .max_backoff = 2ms, .max_server_delay = 5ms}};
    const auto rate_limited = [](std::chrono::milliseconds retry_after) {
        agentry::turn_result r = scripted::failure(429, true);
        r.error.retry_after = retry_after;
        return r;
    };
    std::vector<std::chrono::milliseconds> waits;
    agentry::agent_events events;
    events.on_retry = [&](const agentry::provider_error&, std::chrono::milliseconds delay) { waits.push_back(delay); };

    SUBCASE("at the cap: waited for, then retried") {
        fixture<config> f({.events = events});
        f.s->turns = {rate_limited(5ms), answer("hello")};
        const agentry::run_result r = f.agent.run("hi");
        CHECK(r.stop == agentry::stop_reason::completed);
        CHECK(r.text == "hello");
        CHECK(f.s->requests.size() == 2);
        CHECK(waits == std::vector{5ms});
    }
    SUBCASE("just over the cap: no wait, no retry, the delay in the result") {
        fixture<config> f({.events = events});
        f.s->turns = {rate_limited(6ms), answer("never")};
        const agentry::run_result r = f.agent.run("hi");
        CHECK(r.stop == agentry::stop_reason::provider_error);
        CHECK(r.text == "HTTP 429 (not retried: the server asked for a wait of 6 ms, longer than "
                        "retry.max_server_delay of 5 ms)");
        REQUIRE(r.error);
        CHECK(r.error->kind == agentry::provider_error_kind::rate_limited);
        CHECK(r.error->retry_after == 6ms);
        CHECK(f.s->requests.size() == 1);
        CHECK(waits.empty());
    }
    SUBCASE("far over the cap (Retry-After: 99999999999): stops at once; the run goes on later") {
        fixture<config> f({.events = events});
        f.s->turns = {rate_limited(std::chrono::seconds(99'999'999'999)), answer("later")};
        agentry::run_result r = f.agent.run("hi");
        CHECK(r.stop == agentry::stop_reason::provider_error);
        CHECK(r.text == "HTTP 429 (not retried: the server asked for a wait of 99999999999000 ms, longer than "
                        "retry.max_server_delay of 5 ms)");
        REQUIRE(r.error);
        CHECK(r.error->retry_after == std::chrono::seconds(99'999'999'999));
        CHECK(f.s->requests.size() == 1);
        CHECK(waits.empty());
        r = f.agent.run(agentry::continuation{std::move(r)});
        CHECK(r.stop == agentry::stop_reason::completed);
        CHECK(r.text == "later");
        CHECK(f.s->requests.size() == 2);
    }
}

TEST_CASE("the context budget leaves out old turns, never a call without its results") {
    fixture<agentry::loop_config{.max_turns = 30, .loop_threshold = 0, .context_budget_tokens = 120}> f;
    for (int i = 0; i != 12; ++i)
        f.s->turns.push_back(calls({call("c" + std::to_string(i), "add", "{\"a\":" + std::to_string(i) + ",\"b\":100}"),
                                    call("d" + std::to_string(i), "add", "{\"a\":" + std::to_string(i) + ",\"b\":200}")}));
    f.s->turns.push_back(answer("finished"));
    const auto r = f.agent.run("Add a long series of numbers, please, and keep going until the end.");
    CHECK(r.stop == agentry::stop_reason::completed);
    CHECK(r.trimmed_messages > 0);
    for (const auto& asked : f.s->requests) {
        const auto& m = asked.messages;
        REQUIRE(!m.empty());
        CHECK(m[0].role == agentry::role::system);
        bool user_kept = false;
        for (std::size_t i = 0; i != m.size(); ++i) {
            user_kept = user_kept || m[i].role == agentry::role::user;
            if (m[i].role == agentry::role::tool) CHECK(i > 0);
            if (m[i].role == agentry::role::tool) CHECK((m[i - 1].role == agentry::role::tool || !m[i - 1].tool_calls.empty()));
            if (!m[i].tool_calls.empty()) {
                REQUIRE(i + m[i].tool_calls.size() < m.size());
                for (std::size_t k = 0; k != m[i].tool_calls.size(); ++k)
                    CHECK(m[i + 1 + k].tool_call_id == m[i].tool_calls[k].id);
            }
        }
        CHECK(user_kept);
    }
    CHECK(f.s->requests.back().messages[0].text.find("earlier messages of this conversation were left out") !=
          std::string::npos);
}

TEST_CASE("the conversation saves to JSON and a new agent continues it") {
    fixture f;
    f.s->turns = {calls({call("c1", "add", R"({"a":1,"b":2})")}), answer("3")};
    f.agent.run("1+2?");
    const std::string saved = f.agent.save();
    fixture g;
    REQUIRE(g.agent.restore(saved));
    CHECK(g.agent.conversation().size() == f.agent.conversation().size());
    g.s->turns = {answer("6")};
    const auto r = g.agent.run("and doubled?");
    CHECK(r.text == "6");
    const auto& sent = g.s->requests[0].messages;
    REQUIRE(sent.size() == 6);
    CHECK(sent[2].tool_calls[0].arguments == R"({"a":1,"b":2})");
    CHECK(sent[3].tool_call_id == "c1");
    CHECK(sent[5].text == "and doubled?");
    CHECK_FALSE(g.agent.restore("{\"not\":\"a conversation\"}"));
    CHECK(g.agent.conversation().size() == 7);
}

TEST_CASE("cancel from another thread stops the run") {
    slow_release = false;
    fixture f;
    f.s->turns = {calls({call("1", "slow", R"({"ms":2000})"), call("2", "add", R"({"a":1,"b":1})")}), answer("no")};
    std::thread canceller([&] {
        while (f.s->requests.empty()) std::this_thread::sleep_for(std::chrono::milliseconds(1));
        f.agent.cancel();
        slow_release = true;
    });
    const auto r = f.agent.run("go");
    canceller.join();
    CHECK(r.stop == agentry::stop_reason::cancelled);
    // Every call of the turn has a result, so that the conversation can go on.
    const auto& history = f.agent.conversation();
    CHECK(history.back().role == agentry::role::tool);
    CHECK(history.back().tool_call_id == "2");
}

TEST_CASE("events: streamed text, tool start and end, turn end") {
    std::string streamed;
    std::vector<std::string> seen;
    agentry::agent_events events;
    events.on_text = [&](std::string_view t) { streamed += t; };
    events.on_tool_start = [&](const agentry::tool_call& c) { seen.push_back("start " + c.name); };
    events.on_tool_end = [&](const agentry::step& s) { seen.push_back("end " + s.tool + " " + s.result_excerpt); };
    events.on_turn_end = [&](std::uint32_t turn, const agentry::token_usage&) { seen.push_back("turn " + std::to_string(turn)); };
    fixture f({.events = events});
    f.s->turns = {calls({call("1", "add", R"({"a":1,"b":2})")}), answer("The sum is 3.")};
    const auto r = f.agent.run("sum");
    CHECK(r.text == "The sum is 3.");
    CHECK(streamed == "The sum is 3.");
    CHECK(seen == std::vector<std::string>{"turn 1", "start add", "end add 3", "turn 2"});
    CHECK(f.s->requests[0].stream);
}

TEST_CASE("a refusal stops the run with the refusal") {
    fixture f;
    agentry::completion c;
    c.finish = agentry::finish_reason::refusal;
    c.refusal = "I can't help with that.";
    f.s->turns = {{c, {}}};
    const auto r = f.agent.run("bad");
    CHECK(r.stop == agentry::stop_reason::refused);
    CHECK(r.text == "I can't help with that.");
}

namespace {
struct strict_model : scripted::model {
    using dialect = agentry::dialect::openai_strict;
};
} // namespace

TEST_CASE("with a strict dialect, null for an optional argument means absent") {
    auto s = std::make_shared<scripted::script>();
    agentry::agent<agentry::loop_config{}> strict{strict_model{{s}}, tools, "", scripted::quiet_transport{}};
    s->turns = {calls({call("1", "get_weather", R"({"city":"Paris","unit_":null})")}), answer("ok")};
    auto r = strict.run("weather");
    REQUIRE(r.steps.size() == 1);
    CHECK(r.steps[0].status == agentry::tool_status::ok);
    fixture lenient;
    lenient.s->turns = {calls({call("1", "get_weather", R"({"city":"Paris","unit_":null})")}), answer("ok")};
    r = lenient.agent.run("weather");
    REQUIRE(r.steps.size() == 1);
    CHECK(r.steps[0].status == agentry::tool_status::invalid_arguments);
}

namespace {

// Throws `what` from any callback it stands for.
struct thrower {
    const char* what;
    template <class... A>
    void operator()(const A&...) const {
        throw std::runtime_error(what);
    }
};

// Every tool call of the assistant messages of `history` has a result after it.
bool every_call_answered(const std::vector<agentry::message>& history) {
    for (std::size_t i = 0; i != history.size(); ++i)
        for (std::size_t k = 0; k != history[i].tool_calls.size(); ++k)
            if (i + 1 + k >= history.size() || history[i + 1 + k].tool_call_id != history[i].tool_calls[k].id)
                return false;
    return true;
}

// Makes every thread start fail while it lives.
struct threads_refused {
    threads_refused() {
        agentry::detail::before_thread_start = +[] {
            throw std::system_error(std::make_error_code(std::errc::resource_unavailable_try_again));
        };
    }
    ~threads_refused() { agentry::detail::before_thread_start = nullptr; }
    threads_refused(const threads_refused&) = delete;
    threads_refused& operator=(const threads_refused&) = delete;
};

std::vector<agentry::tool_call> adds(int n) {
    std::vector<agentry::tool_call> out;
    for (int i = 0; i != n; ++i) out.push_back(call("c" + std::to_string(i), "add", "{\"a\":" + std::to_string(i) + ",\"b\":1}"));
    return out;
}

} // namespace

TEST_CASE("cancel during parallel calls: no call starts after it") {
    agentry::agent<agentry::loop_config{.parallel_tool_calls = true, .max_parallelism = 2}>* running = nullptr;
    agentry::agent_events events;
    events.on_tool_start = [&](const agentry::tool_call&) { running->cancel(); };
    fixture<agentry::loop_config{.parallel_tool_calls = true, .max_parallelism = 2}> f({.events = events});
    running = &f.agent;
    f.s->turns = {calls(adds(6)), answer("never")};
    const auto r = f.agent.run("go");
    CHECK(r.stop == agentry::stop_reason::cancelled);
    CHECK(r.turns == 1);
    // Each of the two workers may have started one call before it saw the cancel.
    CHECK(r.steps.size() <= 2);
    const auto& history = f.agent.conversation();
    CHECK(every_call_answered(history));
    std::size_t not_run = 0;
    for (const auto& m : history) not_run += m.text == "The run was cancelled before this call." ? 1 : 0;
    CHECK(not_run == 6 - r.steps.size());
}

TEST_CASE("a callback that throws stops the run with callback_error - the history stays valid") {
    SUBCASE("on_tool_end, sequential") {
        agentry::agent_events events;
        events.on_tool_end = thrower{"observer broke"};
        fixture f({.events = events});
        f.s->turns = {calls(adds(3)), answer("never")};
        const auto r = f.agent.run("go");
        CHECK(r.stop == agentry::stop_reason::callback_error);
        CHECK(r.text == "agentry: the on_tool_end callback threw: observer broke; the run stopped");
        CHECK_FALSE(r.error);
        CHECK(r.steps.size() == 1);
        CHECK(every_call_answered(f.agent.conversation()));
        CHECK(f.agent.conversation().back().text == "The run stopped before this call.");
        CHECK(f.s->requests.size() == 1);
    }
    SUBCASE("on_tool_start, parallel") {
        agentry::agent_events events;
        events.on_tool_start = thrower{"starter broke"};
        fixture<agentry::loop_config{.parallel_tool_calls = true, .max_parallelism = 3}> f({.events = events});
        f.s->turns = {calls(adds(5)), answer("never")};
        const auto r = f.agent.run("go");
        CHECK(r.stop == agentry::stop_reason::callback_error);
        CHECK(r.text == "agentry: the on_tool_start callback threw: starter broke; the run stopped");
        CHECK(r.steps.empty());
        CHECK(every_call_answered(f.agent.conversation()));
    }
    SUBCASE("on_turn_end: the reply is not kept") {
        agentry::agent_events events;
        events.on_turn_end = thrower{"counter broke"};
        fixture f({.events = events});
        f.s->turns = {calls(adds(1)), answer("never")};
        const auto r = f.agent.run("go");
        CHECK(r.stop == agentry::stop_reason::callback_error);
        CHECK(r.text == "agentry: the on_turn_end callback threw: counter broke; the run stopped");
        CHECK(r.steps.empty());
        CHECK(f.agent.conversation().back().role == agentry::role::user);
    }
    SUBCASE("on_text, while streaming: not a provider error") {
        agentry::agent_events events;
        events.on_text = thrower{"screen broke"};
        fixture f({.events = events});
        f.s->turns = {answer("Hello there.")};
        const auto r = f.agent.run("hi");
        CHECK(r.stop == agentry::stop_reason::callback_error);
        CHECK(r.text == "agentry: the on_text callback threw: screen broke; the run stopped");
        CHECK_FALSE(r.error);
    }
    SUBCASE("on_retry") {
        agentry::agent_events events;
        events.on_retry = thrower{"logger broke"};
        fixture f({.events = events});
        f.s->turns = {scripted::failure(429, true, 0), answer("never")};
        const auto r = f.agent.run("hi");
        CHECK(r.stop == agentry::stop_reason::callback_error);
        CHECK(r.text == "agentry: the on_retry callback threw: logger broke; the run stopped");
        CHECK(f.s->requests.size() == 1);
    }
    SUBCASE("the token estimator") {
        fixture<agentry::loop_config{.context_budget_tokens = 1000}> f(
            {.token_estimator = [](const agentry::message&) -> std::size_t { throw 42; }});
        f.s->turns = {answer("never")};
        const auto r = f.agent.run("hi");
        CHECK(r.stop == agentry::stop_reason::callback_error);
        CHECK(r.text ==
              "agentry: the token estimator callback threw an exception that is not a std::exception; the run stopped");
        CHECK(f.s->requests.empty());
    }
    CHECK(agentry::to_string(agentry::stop_reason::callback_error) == "callback_error");
}

TEST_CASE("a thread that cannot start does not end the process") {
    SUBCASE("parallel calls run on the agent's own thread") {
        fixture<agentry::loop_config{.parallel_tool_calls = true, .max_parallelism = 4}> f;
        f.s->turns = {calls(adds(4)), answer("done")};
        const threads_refused refused;
        const auto r = f.agent.run("go");
        CHECK(r.stop == agentry::stop_reason::completed);
        REQUIRE(r.steps.size() == 4);
        for (const auto& s : r.steps) CHECK(s.status == agentry::tool_status::ok);
    }
    SUBCASE("a call with a timeout becomes a tool error the model sees") {
        fixture<agentry::loop_config{.tool_timeout = std::chrono::seconds(5)}> f;
        f.s->turns = {calls(adds(1)), answer("done")};
        const threads_refused refused;
        const auto r = f.agent.run("go");
        CHECK(r.stop == agentry::stop_reason::completed);
        REQUIRE(r.steps.size() == 1);
        CHECK(r.steps[0].status == agentry::tool_status::tool_error);
        CHECK(r.steps[0].result_excerpt == "agentry: could not start a thread to run add; it was not run. Try again later.");
    }
}

namespace {

struct counter {
    std::atomic<bool> release{false};
    std::atomic<int> finished{0};
    int wait(int n) {
        while (!release.load()) std::this_thread::sleep_for(std::chrono::milliseconds(1));
        finished.fetch_add(1);
        return n;
    }
};

} // namespace

TEST_CASE("the agent's destructor waits for an abandoned call, so a bound object outliving the agent is safe") {
    counter c;
    {
        const agentry::registry bound{agentry::tool<"wait", "Waits until released.", "n">(&counter::wait, &c)};
        auto s = std::make_shared<scripted::script>();
        agentry::agent<agentry::loop_config{.tool_timeout = std::chrono::milliseconds(1)}> a{
            scripted::model{s}, bound, "", scripted::quiet_transport{}};
        s->turns = {calls({call("1", "wait", R"({"n":7})")}), answer("ok")};
        const auto r = a.run("go");
        REQUIRE(r.steps.size() == 1);
        CHECK(r.steps[0].timed_out);
        CHECK(c.finished.load() == 0);
        c.release = true;
    }
    CHECK(c.finished.load() == 1);
}

TEST_CASE("max_tool_calls_per_turn: the extra calls are not run - one error result stands for them") {
    fixture<agentry::loop_config{.max_tool_calls_per_turn = 3}> f;
    f.s->turns = {calls(adds(10)), answer("done")};
    const auto r = f.agent.run("go");
    CHECK(r.stop == agentry::stop_reason::completed);
    CHECK(r.steps.size() == 3);
    CHECK(r.tool_calls_over_limit == 7);
    REQUIRE(f.s->requests.size() == 2);
    const auto& sent = f.s->requests[1].messages;
    REQUIRE(sent.size() == 7);
    CHECK(sent[2].tool_calls.size() == 4);
    CHECK(sent[5].text == "3");
    CHECK(sent[6].tool_call_id == "c3");
    CHECK(sent[6].is_error);
    CHECK(sent[6].text == "Not run: at most 3 tool calls are run per turn, and this turn made 10; this call and the 6 "
                          "after it were not run and are left out of the conversation. Make the calls still needed in "
                          "the next turn, fewer at a time.");
    CHECK(every_call_answered(f.agent.conversation()));
    fixture<agentry::loop_config{.max_tool_calls_per_turn = 3}> exact;
    exact.s->turns = {calls(adds(3)), answer("done")};
    CHECK(exact.agent.run("go").tool_calls_over_limit == 0);
    CHECK(exact.s->requests[1].messages.size() == 6);
}

TEST_CASE("time limits: fixed_duration and the saturating deadline") {
    using namespace std::chrono_literals;
    static_assert(agentry::fixed_duration(2min).ms == 120'000);
    static_assert(agentry::fixed_duration(1500ms).get() == 1500ms);
    static_assert(agentry::loop_config{}.retry.max_server_delay == agentry::fixed_duration(1min));
    static_assert(agentry::loop_config{}.max_tool_calls_per_turn == 32);
    static_assert(!std::is_convertible_v<std::chrono::microseconds, agentry::fixed_duration>);
    static_assert(!std::is_convertible_v<int, agentry::fixed_duration>);
    const auto now = std::chrono::steady_clock::now();
    CHECK(agentry::detail::deadline_after(now, 5ms) == now + 5ms);
    CHECK(agentry::detail::deadline_after(now, -5ms) == now);
    CHECK(agentry::detail::deadline_after(now, std::chrono::milliseconds::min()) == now);
    CHECK(agentry::detail::deadline_after(now, std::chrono::milliseconds::max()) ==
          std::chrono::steady_clock::time_point::max());
    CHECK(agentry::detail::deadline_after(now, std::chrono::seconds(99'999'999'999)) ==
          std::chrono::steady_clock::time_point::max());
    std::atomic<bool> cancelled{true};
    CHECK_FALSE(agentry::detail::sleep_unless(std::chrono::seconds(99'999'999'999), cancelled));
    CHECK_FALSE(agentry::detail::sleep_unless(std::chrono::milliseconds::max(), cancelled));
    std::atomic<bool> running{false};
    CHECK(agentry::detail::sleep_unless(std::chrono::milliseconds::min(), running));
    CHECK(agentry::detail::sleep_unless(0ms, running));
}

TEST_CASE("the README's add is defined for every pair of integers its schema admits") {
    CHECK(tools.call("add", R"({"a":2147483647,"b":1})").content == "2147483648");
    CHECK(tools.call("add", R"({"a":-2147483648,"b":-1})").content == "-2147483649");
    CHECK(tools.call("add", R"({"a":2147483648,"b":0})").status == agentry::tool_status::invalid_arguments);
}

namespace {

std::vector<std::string> noted;  // run id/call id, per call of note

std::string note(agentry::call_info info, const std::string& text) {
    noted.push_back(std::string(info.run_id) + "/" + std::string(info.call_id));
    return text;
}

constexpr agentry::registry noting{
    agentry::tool<"note", "Notes a text.", "text">(note),
    agentry::with_policy<agentry::tool_policy{.level = agentry::permission::write, .needs_approval = true}>(
        agentry::tool<"careful_note", "Notes a text once approved.", "text">(note)),
};

bool hex_id(const std::string& id) {
    return id.size() == 32 && id.find_first_not_of("0123456789abcdef") == std::string::npos;
}

} // namespace

TEST_CASE("run ids: each run has one, tools read it and the model's call id through agentry::call_info") {
    noted.clear();
    auto s = std::make_shared<scripted::script>();
    agentry::agent<agentry::loop_config{}> a{scripted::model{s}, noting, "", scripted::quiet_transport{}};
    s->turns = {calls({call("c7", "note", R"({"text":"x"})")}), answer("noted"), answer("again")};
    const agentry::run_result first = a.run("Note x.");
    CHECK(first.stop == agentry::stop_reason::completed);
    CHECK(hex_id(first.run_id));
    CHECK(noted == std::vector<std::string>{first.run_id + "/c7"});
    const agentry::run_result second = a.run("Again.");
    CHECK(hex_id(second.run_id));
    CHECK(second.run_id != first.run_id);

    // Decisions given with the paused run's progress go on under its id.
    s->turns = {calls({call("c8", "careful_note", R"({"text":"y"})")}), answer("done")};
    const agentry::run_result paused = a.run("Note y carefully.");
    REQUIRE(paused.stop == agentry::stop_reason::approval_pending);
    const std::vector<agentry::approval_decision> yes{agentry::decide(paused.pending[0], agentry::approval::approve())};
    const agentry::run_result resumed = a.run(agentry::approvals{yes, paused});
    CHECK(resumed.stop == agentry::stop_reason::completed);
    CHECK(resumed.run_id == paused.run_id);
    CHECK(noted.back() == paused.run_id + "/c8");
}
