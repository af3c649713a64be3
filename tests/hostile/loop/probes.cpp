// SPDX-License-Identifier: BSL-1.0
// The agent loop against a hostile server or model: delays of any size from the provider, and
// a turn with 100,000 tool calls. Each probe is bounded in time and count.
#define DOCTEST_CONFIG_IMPLEMENT_WITH_MAIN
#include "scripted.hpp"

#include <agentry/agent.hpp>
#include <agentry/registry.hpp>

#include <doctest/doctest.h>

#include <chrono>
#include <cstdint>
#include <memory>
#include <string>
#include <vector>

namespace {

using namespace std::chrono_literals;
using days = std::chrono::duration<std::int64_t, std::ratio<86400>>;

constexpr agentry::registry tools{
    agentry::tool<"add", "Add two integers", "a", "b">(+[](int a, int b) -> long long { return static_cast<long long>(a) + b; }),
};

template <agentry::loop_config Config = agentry::loop_config{}>
struct fixture {
    std::shared_ptr<scripted::script> s = std::make_shared<scripted::script>();
    agentry::agent<Config> agent;
    explicit fixture(agentry::agent_options options = {})
        : agent{scripted::model{s}, tools, std::move(options), scripted::quiet_transport{}} {}
};

agentry::turn_result rate_limited(std::chrono::milliseconds retry_after) {
    agentry::turn_result r = scripted::failure(429, true);
    r.error.retry_after = retry_after;
    return r;
}

// The delay of the first retry; the run is cancelled in on_retry, so that nothing sleeps.
template <agentry::loop_config Config = agentry::loop_config{}>
std::chrono::milliseconds first_delay(std::chrono::milliseconds retry_after) {
    std::chrono::milliseconds seen{-1};
    fixture<Config>* running = nullptr;
    agentry::agent_events events;
    events.on_retry = [&](const agentry::provider_error&, std::chrono::milliseconds delay) {
        seen = delay;
        running->agent.cancel();
    };
    fixture<Config> f({.events = events});
    running = &f;
    f.s->turns = {rate_limited(retry_after), scripted::answer("never")};
    const agentry::run_result r = f.agent.run("hi");
    CHECK(r.stop == agentry::stop_reason::cancelled);
    CHECK(f.s->requests.size() == 1);
    return seen;
}

} // namespace

// A run stopped because the server asked for a wait past retry.max_server_delay.
template <agentry::loop_config Config = agentry::loop_config{}>
void check_not_retried(std::chrono::milliseconds retry_after) {
    int retries = 0;
    agentry::agent_events events;
    events.on_retry = [&](const agentry::provider_error&, std::chrono::milliseconds) { ++retries; };
    fixture<Config> f({.events = events});
    f.s->turns = {rate_limited(retry_after), scripted::answer("never")};
    const agentry::run_result r = f.agent.run("hi");
    CHECK(r.stop == agentry::stop_reason::provider_error);
    CHECK(r.text == "HTTP 429 (not retried: the server asked for a wait of " + std::to_string(retry_after.count()) +
                        " ms, longer than retry.max_server_delay of " + std::to_string(Config.retry.max_server_delay.ms) +
                        " ms)");
    REQUIRE(r.error);
    CHECK(r.error->retry_after == retry_after);
    CHECK(retries == 0);
    CHECK(f.s->requests.size() == 1);
}

TEST_CASE("Retry-After: 99999999999 is not waited for: past retry_policy::max_server_delay the run stops at once") {
    check_not_retried(std::chrono::seconds(99'999'999'999));
    check_not_retried<agentry::loop_config{.retry = {.max_server_delay = 5s}}>(std::chrono::seconds(99'999'999'999));
    check_not_retried(std::chrono::milliseconds::max());
}

TEST_CASE("a server delay up to the cap is honoured, a negative one ignored") {
    CHECK(first_delay(1min) == 1min);
    CHECK(first_delay(30s) == 30s);
    // A negative hint counts as none: the backoff of the first retry, 500 ms +-50 %.
    for (const auto hint : {std::chrono::milliseconds::min(), -1ms}) {
        const auto delay = first_delay(hint);
        CHECK(delay >= 250ms);
        CHECK(delay <= 750ms);
    }
}

TEST_CASE("the longest cap the loop allows sleeps without overflow until cancelled") {
    constexpr agentry::loop_config config{.retry = {.max_server_delay = days(36'500)}};
    CHECK(first_delay<config>(days(36'500)) == days(36'500));
    check_not_retried<config>(std::chrono::seconds(99'999'999'999));
}

TEST_CASE("a wait past the run's time limit is not made: the run stops with provider_error") {
    int retries = 0;
    agentry::agent_events events;
    events.on_retry = [&](const agentry::provider_error&, std::chrono::milliseconds) { ++retries; };
    fixture<agentry::loop_config{.max_total_time = 10s}> f({.events = events});
    f.s->turns = {rate_limited(30s), scripted::answer("never")};
    const agentry::run_result r = f.agent.run("hi");
    CHECK(r.stop == agentry::stop_reason::provider_error);
    CHECK(r.text == "HTTP 429 (not retried: the wait of 30000 ms would pass the run's time limit of 10000 ms)");
    REQUIRE(r.error);
    CHECK(r.error->status == 429);
    CHECK(retries == 0);
    CHECK(f.s->requests.size() == 1);
}

TEST_CASE("the longest limits the loop allows do not overflow a deadline") {
    constexpr agentry::loop_config config{.max_total_time = days(36'500), .tool_timeout = days(36'500)};
    fixture<config> f;
    f.s->turns = {scripted::calls({scripted::call("1", "add", R"({"a":2147483647,"b":1})")}), scripted::answer("done")};
    const agentry::run_result r = f.agent.run("go");
    CHECK(r.stop == agentry::stop_reason::completed);
    REQUIRE(r.steps.size() == 1);
    CHECK(r.steps[0].result_excerpt == "2147483648");
}

TEST_CASE("a turn with 100,000 tool calls runs 32 and keeps the history bounded") {
    fixture f;
    std::vector<agentry::tool_call> many;
    many.reserve(100'000);
    for (int i = 0; i != 100'000; ++i)  // different arguments: not a loop
        many.push_back(scripted::call("c" + std::to_string(i), "add", "{\"a\":" + std::to_string(i) + ",\"b\":2}"));
    f.s->turns = {scripted::calls(std::move(many)), scripted::answer("done")};
    const agentry::run_result r = f.agent.run("go");
    CHECK(r.stop == agentry::stop_reason::completed);
    CHECK(r.steps.size() == 32);
    CHECK(r.tool_calls_over_limit == 100'000 - 32);
    // user, the reply with 33 calls, 33 results, the answer.
    const auto& history = f.agent.conversation();
    REQUIRE(history.size() == 36);
    CHECK(history[1].tool_calls.size() == 33);
    CHECK(history[34].tool_call_id == "c32");
    CHECK(history[34].is_error);
    CHECK(history[34].text.starts_with("Not run: at most 32 tool calls are run per turn, and this turn made 100000; "));
}
