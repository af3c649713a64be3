// SPDX-License-Identifier: BSL-1.0
// Tool failures through the agent loop: the failure kind the model sees, retries by kind (only
// transient failures and timeouts of idempotent tools), per-tool timeouts and fallback chains;
// cooperative cancellation (a tool's agentry::stop_token) and the run's context.
#include "scripted.hpp"

#include <agentry/agent.hpp>
#include <agentry/call_scope.hpp>
#include <agentry/outcome.hpp>
#include <agentry/policy/fallback.hpp>
#include <agentry/policy/tool_policy.hpp>
#include <agentry/registry.hpp>
#include <agentry/stop_token.hpp>

#include <doctest/doctest.h>

#include <atomic>
#include <chrono>
#include <condition_variable>
#include <map>
#include <memory>
#include <mutex>
#include <stdexcept>
#include <string>
#include <thread>
#include <vector>

using scripted::answer;
using scripted::call;
using scripted::calls;

namespace {

using namespace std::chrono_literals;

std::map<std::string, int> runs;  // per tool, how often it ran

// Fails with kind `kind` the first `failures` times it is called, then answers "ok".
std::atomic<int> flaky_failures{0};
agentry::outcome<std::string> flaky(const std::string& kind) {
    ++runs["flaky"];
    if (flaky_failures > 0) {
        --flaky_failures;
        agentry::failure_kind k = agentry::failure_kind::transient;
        if (kind == "permanent") k = agentry::failure_kind::permanent;
        else if (kind == "invalid_input") k = agentry::failure_kind::invalid_input;
        else if (kind == "not_found") k = agentry::failure_kind::not_found;
        else if (kind == "permission") k = agentry::failure_kind::permission;
        return agentry::fail(k, "the service said " + kind);
    }
    return std::string("ok");
}

std::string throws(const std::string&) {
    ++runs["throws"];
    throw std::runtime_error("boom");
}

// Blocks its first call until released (so that it passes any timeout), answers the others at once.
struct gate {
    std::mutex mutex;
    std::condition_variable cv;
    bool open = false;
    int calls = 0;
    void release() {
        std::lock_guard lock(mutex);
        open = true;
        cv.notify_all();
    }
};
gate slow_gate;

std::string slow(const std::string& text) {
    std::unique_lock lock(slow_gate.mutex);
    if (slow_gate.calls++ == 0) slow_gate.cv.wait(lock, [] { return slow_gate.open; });
    return "slow " + text;
}

struct quote_query {
    std::string symbol;
};
struct cache_query {
    std::string key;
    int max_age_s = 0;
};

agentry::outcome<double> live_quote(const quote_query& q) {
    ++runs["live_quote"];
    if (q.symbol == "ACME") return agentry::fail(agentry::failure_kind::transient, "the exchange is closed");
    return 1.5;
}
agentry::outcome<double> mirror_quote(const quote_query& q) {
    ++runs["mirror_quote"];
    return agentry::fail(agentry::failure_kind::not_found, "no mirror has " + q.symbol);
}
double cached_quote(const cache_query& q) {
    ++runs["cached_quote"];
    return q.key == "quote:ACME" && q.max_age_s == 3600 ? 41.0 : -1.0;
}
cache_query to_cache(const quote_query& q) { return {"quote:" + q.symbol, 3600}; }

constexpr agentry::tool_policy retried{.idempotent = true, .retry = {.attempts = 3, .initial_backoff = 1ms, .max_backoff = 2ms}};
constexpr agentry::tool_policy not_idempotent{};

constexpr agentry::registry tools{
    agentry::with_policy<retried>(agentry::tool<"flaky", "Fails at first", "kind">(flaky)),
    agentry::with_policy<not_idempotent>(agentry::tool<"flaky_write", "Fails at first", "kind">(flaky)),
    agentry::with_policy<retried>(agentry::tool<"throws", "Throws", "text">(throws)),
    agentry::with_policy<agentry::tool_policy{.idempotent = true,
                                              .timeout = 20ms,
                                              .retry = {.attempts = 2, .initial_backoff = 1ms}}>(
        agentry::tool<"slow", "Slow at first", "text">(slow)),
    agentry::with_policy<agentry::tool_policy{.fallback = {"mirror_quote", agentry::adapt<&to_cache>("cached_quote")}}>(
        agentry::tool<"live_quote", "A live quote">(live_quote)),
    agentry::with_policy<agentry::tool_policy{.rate = {.calls = 1, .per_ms = 3'600'000}}>(
        agentry::tool<"mirror_quote", "A quote from a mirror">(mirror_quote)),
    agentry::with_policy<agentry::tool_policy{}>(agentry::tool<"cached_quote", "A cached quote">(cached_quote)),
};

struct fixture {
    std::shared_ptr<scripted::script> s = std::make_shared<scripted::script>();
    agentry::agent<agentry::loop_config{}> agent{scripted::model{s}, tools, "You are a test.",
                                                 scripted::quiet_transport{}};
    fixture() {
        runs.clear();
        flaky_failures = 0;
    }
    const std::string& result_text(std::size_t request = 1) const { return s->requests[request].messages.back().text; }
};

} // namespace

TEST_CASE("recovery: a transient failure of an idempotent tool is retried, then succeeds") {
    fixture f;
    flaky_failures = 2;
    f.s->turns = {calls({call("1", "flaky", R"({"kind":"transient"})")}), answer("done")};
    const agentry::run_result r = f.agent.run("go");
    CHECK(r.stop == agentry::stop_reason::completed);
    CHECK(runs["flaky"] == 3);
    REQUIRE(r.steps.size() == 1);
    const agentry::step& s = r.steps[0];
    CHECK(s.status == agentry::tool_status::ok);
    CHECK_FALSE(s.failure);
    REQUIRE(s.attempts.size() == 3);
    for (std::uint32_t i = 0; i != 3; ++i) {
        CHECK(s.attempts[i].tool == "flaky");
        CHECK(s.attempts[i].number == i + 1);
    }
    CHECK(s.attempts[0].status == agentry::tool_status::tool_error);
    CHECK(s.attempts[0].failure == agentry::failure_kind::transient);
    CHECK(s.attempts[1].failure == agentry::failure_kind::transient);
    CHECK(s.attempts[2].status == agentry::tool_status::ok);
    CHECK(s.fallback.empty());
    CHECK(f.result_text() == "ok");
}

TEST_CASE("recovery: retries stop at retry.attempts, the model sees the kind and the tries") {
    fixture f;
    flaky_failures = 5;
    f.s->turns = {calls({call("1", "flaky", R"({"kind":"transient"})")}), answer("done")};
    const agentry::run_result r = f.agent.run("go");
    CHECK(runs["flaky"] == 3);
    REQUIRE(r.steps.size() == 1);
    CHECK(r.steps[0].status == agentry::tool_status::tool_error);
    CHECK(r.steps[0].failure == agentry::failure_kind::transient);
    CHECK(r.steps[0].attempts.size() == 3);
    CHECK(f.result_text() ==
          "transient: flaky failed: the service said transient (it may succeed if tried again later; tried 3 times)");
    CHECK(f.s->requests[1].messages.back().is_error);
}

TEST_CASE("recovery: permanent, invalid_input, not_found and permission failures are never retried") {
    const std::map<std::string, std::string> advice{
        {"permanent", "(it will fail again with the same arguments)"},
        {"invalid_input", "(change the arguments before trying again)"},
        {"not_found", "(what the arguments name does not exist; check it or ask the user)"},
        {"permission", "(this caller is not allowed to do it; do not try again)"},
    };
    for (const auto& entry : advice) {
        const std::string& kind = entry.first;
        const std::string& text = entry.second;
        CAPTURE(kind);
        fixture f;
        flaky_failures = 1;
        f.s->turns = {calls({call("1", "flaky", R"({"kind":")" + kind + R"("})")}), answer("done")};
        const agentry::run_result r = f.agent.run("go");
        CHECK(runs["flaky"] == 1);
        REQUIRE(r.steps.size() == 1);
        CHECK(r.steps[0].attempts.size() == 1);
        CHECK(r.steps[0].failure.has_value());
        CHECK(agentry::to_string(*r.steps[0].failure) == kind);
        CHECK(f.result_text() == kind + ": flaky failed: the service said " + kind + " " + text);
    }
}

TEST_CASE("recovery: a transient failure of a tool that is not idempotent is not retried") {
    fixture f;
    flaky_failures = 1;
    f.s->turns = {calls({call("1", "flaky_write", R"({"kind":"transient"})")}), answer("done")};
    const agentry::run_result r = f.agent.run("go");
    CHECK(runs["flaky"] == 1);
    REQUIRE(r.steps.size() == 1);
    CHECK(r.steps[0].attempts.size() == 1);
    CHECK(r.steps[0].failure == agentry::failure_kind::transient);
    CHECK(f.result_text() == "transient: flaky_write failed: the service said transient (it may succeed if tried again later)");
}

TEST_CASE("recovery: an exception has no kind and is not retried") {
    fixture f;
    f.s->turns = {calls({call("1", "throws", R"({"text":"x"})")}), answer("done")};
    const agentry::run_result r = f.agent.run("go");
    CHECK(runs["throws"] == 1);
    REQUIRE(r.steps.size() == 1);
    CHECK_FALSE(r.steps[0].failure);
    CHECK(r.steps[0].attempts.size() == 1);
    CHECK(f.result_text() == "throws failed: boom");
}

TEST_CASE("recovery: the per-tool timeout overrides the loop's, a timed-out idempotent call is retried") {
    // The loop has no tool timeout; slow's own is 20 ms. Its first call blocks until released,
    // so it passes the timeout whatever the machine's speed; the retry answers at once.
    fixture f;
    f.s->turns = {calls({call("1", "slow", R"({"text":"x"})")}), answer("done")};
    const agentry::run_result r = f.agent.run("go");
    slow_gate.release();
    CHECK(r.stop == agentry::stop_reason::completed);
    REQUIRE(r.steps.size() == 1);
    const agentry::step& s = r.steps[0];
    CHECK(s.status == agentry::tool_status::ok);
    CHECK(s.timed_out);
    REQUIRE(s.attempts.size() == 2);
    CHECK(s.attempts[0].timed_out);
    CHECK(s.attempts[0].status == agentry::tool_status::tool_error);
    CHECK_FALSE(s.attempts[1].timed_out);
    CHECK(s.attempts[1].status == agentry::tool_status::ok);
    CHECK(f.result_text() == "slow x");
}

TEST_CASE("recovery: a failed call goes down its fallback chain, through an adapter") {
    fixture f;
    f.s->turns = {calls({call("1", "live_quote", R"({"symbol":"ACME"})")}), answer("done")};
    const agentry::run_result r = f.agent.run("go");
    CHECK(r.stop == agentry::stop_reason::completed);
    CHECK(runs["live_quote"] == 1);  // not idempotent: not retried
    CHECK(runs["mirror_quote"] == 1);
    CHECK(runs["cached_quote"] == 1);
    REQUIRE(r.steps.size() == 1);
    const agentry::step& s = r.steps[0];
    CHECK(s.tool == "live_quote");
    CHECK(s.status == agentry::tool_status::ok);
    CHECK(s.fallback == "cached_quote");
    CHECK_FALSE(s.failure);
    REQUIRE(s.attempts.size() == 3);
    CHECK(s.attempts[0].tool == "live_quote");
    CHECK(s.attempts[0].failure == agentry::failure_kind::transient);
    CHECK(s.attempts[1].tool == "mirror_quote");
    CHECK(s.attempts[1].failure == agentry::failure_kind::not_found);
    CHECK(s.attempts[2].tool == "cached_quote");
    CHECK(s.attempts[2].status == agentry::tool_status::ok);
    // The adapter made {"key":"quote:ACME","max_age_s":3600}: the cache answers 41.
    CHECK(f.result_text() == "(live_quote failed, so its fallback cached_quote answered instead.)\n41");
    CHECK_FALSE(f.s->requests[1].messages.back().is_error);
}

TEST_CASE("recovery: a fallback past its rate limit is skipped, when every fallback fails the model sees each") {
    fixture f;
    f.s->turns = {calls({call("1", "live_quote", R"({"symbol":"ACME"})")}),
                  calls({call("2", "live_quote", R"({"symbol":"ACME"})")}), answer("done")};
    const agentry::run_result r = f.agent.run("go");
    CHECK(runs["mirror_quote"] == 1);  // its one call an hour went to the first step
    REQUIRE(r.steps.size() == 2);
    const agentry::step& s = r.steps[1];
    REQUIRE(s.attempts.size() == 3);
    CHECK(s.attempts[1].tool == "mirror_quote");
    CHECK(s.attempts[1].status == agentry::tool_status::rate_limited);
    CHECK(s.fallback == "cached_quote");
}

TEST_CASE("recovery: a call that succeeds or has invalid arguments does not fall back") {
    fixture f;
    f.s->turns = {calls({call("1", "live_quote", R"({"symbol":"XYZ"})"), call("2", "live_quote", R"({"symbol":7})")}),
                  answer("done")};
    const agentry::run_result r = f.agent.run("go");
    REQUIRE(r.steps.size() == 2);
    CHECK(r.steps[0].status == agentry::tool_status::ok);
    CHECK(r.steps[0].attempts.size() == 1);
    CHECK(r.steps[1].status == agentry::tool_status::invalid_arguments);
    CHECK(r.steps[1].attempts.size() == 1);
    CHECK(runs["mirror_quote"] == 0);
    CHECK(runs["cached_quote"] == 0);
}

namespace {

agentry::outcome<double> broken_cache(const cache_query&) {
    ++runs["broken_cache"];
    return agentry::fail(agentry::failure_kind::permanent, "the cache is down");
}
cache_query refuse_to_adapt(const quote_query&) { throw std::runtime_error("cannot adapt"); }

constexpr agentry::registry failing{
    agentry::with_policy<agentry::tool_policy{.fallback = {agentry::adapt<&refuse_to_adapt>("broken_cache"),
                                                           agentry::adapt<&to_cache>("broken_cache")}}>(
        agentry::tool<"live_quote", "A live quote">(live_quote)),
    agentry::with_policy<agentry::tool_policy{}>(agentry::tool<"broken_cache", "A cached quote">(broken_cache)),
};

} // namespace

TEST_CASE("recovery: an adapter that throws and a fallback that fails leave the failure, with what each said") {
    auto s = std::make_shared<scripted::script>();
    agentry::agent<agentry::loop_config{}> agent{scripted::model{s}, failing, "You are a test.", scripted::quiet_transport{}};
    runs.clear();
    s->turns = {calls({call("1", "live_quote", R"({"symbol":"ACME"})")}), answer("done")};
    const agentry::run_result r = agent.run("go");
    REQUIRE(r.steps.size() == 1);
    const agentry::step& st = r.steps[0];
    CHECK(st.status == agentry::tool_status::tool_error);
    CHECK(st.failure == agentry::failure_kind::transient);
    CHECK(st.fallback.empty());
    REQUIRE(st.attempts.size() == 3);
    CHECK(st.attempts[1].status == agentry::tool_status::invalid_arguments);
    CHECK(st.attempts[2].failure == agentry::failure_kind::permanent);
    CHECK(runs["broken_cache"] == 1);
    CHECK(s->requests[1].messages.back().text ==
          "transient: live_quote failed: the exchange is closed (it may succeed if tried again later)\n"
          "(Its fallback broken_cache failed too: its adapter could not convert the arguments)\n"
          "(Its fallback broken_cache failed too: permanent: broken_cache failed: the cache is down (it will fail "
          "again with the same arguments))");
}

namespace {

// A tool that waits until it is asked to stop (or, so that a failing test cannot hang, until
// released), and records that it saw the request.
struct cooperative_state {
    std::mutex mutex;
    std::condition_variable_any cv;
    bool started = false;
    bool released = false;
    bool saw_stop = false;

    void release() {
        std::lock_guard lock(mutex);
        released = true;
        cv.notify_all();
    }
    // Waits (at most about 20 s, in steps) for `flag`; true when it became true.
    bool wait_for(bool cooperative_state::*flag) {
        for (int i = 0; i != 20'000; ++i) {
            {
                std::lock_guard lock(mutex);
                if (this->*flag) return true;
            }
            std::this_thread::sleep_for(1ms);
        }
        return false;
    }
};
cooperative_state coop;

std::string wait_for_stop(agentry::stop_token stop, const std::string& job) {
    // The stop wakes the wait (condition_variable_any takes std::stop_token only): registered
    // before the lock is taken, as it runs at once when the stop came first.
    const agentry::stop_callback wake(stop, [] {
        const std::lock_guard lock(coop.mutex);
        coop.cv.notify_all();
    });
    std::unique_lock lock(coop.mutex);
    coop.started = true;
    coop.cv.wait(lock, [&] { return coop.released || stop.stop_requested(); });
    coop.saw_stop = stop.stop_requested();
    return job + (coop.saw_stop ? " stopped" : " released");
}

constexpr agentry::registry cooperative{
    agentry::with_policy<agentry::tool_policy{.timeout = 20ms}>(
        agentry::tool<"export_with_timeout", "Exports until stopped", "job">(wait_for_stop)),
    agentry::with_policy<agentry::tool_policy{}>(agentry::tool<"export", "Exports until stopped", "job">(wait_for_stop)),
};

void reset_coop() {
    std::lock_guard lock(coop.mutex);
    coop.started = coop.released = coop.saw_stop = false;
}

} // namespace

TEST_CASE("cancellation: a tool's timeout signals its agentry::stop_token, and the tool stops") {
    reset_coop();
    bool saw = false;
    {
        auto s = std::make_shared<scripted::script>();
        agentry::agent<agentry::loop_config{}> agent{scripted::model{s}, cooperative, "You are a test.",
                                                     scripted::quiet_transport{}};
        s->turns = {calls({call("1", "export_with_timeout", R"({"job":"a"})")}), answer("done")};
        const agentry::run_result r = agent.run("go");
        CHECK(r.stop == agentry::stop_reason::completed);
        REQUIRE(r.steps.size() == 1);
        CHECK(r.steps[0].timed_out);
        CHECK(s->requests[1].messages.back().text ==
              "export_with_timeout did not finish within 20 ms; it was abandoned. Try a narrower request or another "
              "tool.");
        saw = coop.wait_for(&cooperative_state::saw_stop);
        coop.release();  // only matters when the token was not signalled
    }  // the destructor waits for the abandoned call, which has ended
    CHECK(saw);
}

TEST_CASE("cancellation: agent.cancel() signals the agentry::stop_token of a running tool") {
    reset_coop();
    auto s = std::make_shared<scripted::script>();
    agentry::agent<agentry::loop_config{}> agent{scripted::model{s}, cooperative, "You are a test.",
                                                 scripted::quiet_transport{}};
    s->turns = {calls({call("1", "export", R"({"job":"b"})")}), answer("never")};
    std::thread canceller([&] {
        if (coop.wait_for(&cooperative_state::started)) agent.cancel();
        else coop.release();
    });
    const agentry::run_result r = agent.run("go");
    canceller.join();
    CHECK(r.stop == agentry::stop_reason::cancelled);
    CHECK(coop.saw_stop);
    REQUIRE(r.steps.size() == 1);
    CHECK(r.steps[0].result_excerpt == "b stopped");
    CHECK(s->requests.size() == 1);
}

namespace {

struct app_session {
    std::string user;
    std::vector<std::string> audit;
};

std::string whoami(agentry::context<app_session> session, const std::string& why) {
    session->audit.push_back(why);
    return session->user;
}

constexpr agentry::registry with_context{
    agentry::tool<"whoami", "The user's name", "why">(whoami),
    agentry::with_policy<agentry::tool_policy{.level = agentry::permission::write, .needs_approval = true}>(
        agentry::tool<"sign", "Signs as the user", "why">(whoami)),
};

} // namespace

TEST_CASE("context: run(input, ctx) and run(agentry::approvals{...}, ctx) give the tools the run's object") {
    auto s = std::make_shared<scripted::script>();
    agentry::agent<agentry::loop_config{}> agent{scripted::model{s}, with_context, "You are a test.",
                                                 scripted::quiet_transport{}};
    s->turns = {calls({call("1", "whoami", R"({"why":"greeting"})")}), answer("Hello, ada."),
                calls({call("2", "sign", R"({"why":"contract"})")}), answer("Signed.")};
    app_session ada{"ada", {}};
    agentry::run_result r = agent.run("Who am I?", ada);
    CHECK(r.stop == agentry::stop_reason::completed);
    CHECK(s->requests[1].messages.back().text == "ada");
    CHECK(ada.audit == std::vector<std::string>{"greeting"});

    app_session bob{"bob", {}};
    r = agent.run("Sign it.", bob);
    REQUIRE(r.stop == agentry::stop_reason::approval_pending);
    const std::vector<agentry::approval_decision> yes{agentry::decide(r.pending[0], agentry::approval::approve())};
    r = agent.run(agentry::approvals{yes}, bob);
    CHECK(r.stop == agentry::stop_reason::completed);
    CHECK(bob.audit == std::vector<std::string>{"contract"});
    CHECK(ada.audit.size() == 1);
}

TEST_CASE("context: a run without the tools' context, or with another type, stops at once with invalid_input") {
    auto s = std::make_shared<scripted::script>();
    agentry::agent<agentry::loop_config{}> agent{scripted::model{s}, with_context, "You are a test.",
                                                 scripted::quiet_transport{}};
    s->turns = {calls({call("1", "whoami", R"({"why":"greeting"})")}), answer("never")};
    agentry::run_result r = agent.run("Who am I?");
    CHECK(r.stop == agentry::stop_reason::invalid_input);
    CHECK(r.text == "agentry: agent::run(input): this agent's tools take agentry::context<T>; call run(input, ctx) "
                    "with the T object for the run");
    CHECK(r.run_id.size() == 32);

    std::string other = "not a session";
    r = agent.run("Who am I?", other);
    CHECK(r.stop == agentry::stop_reason::invalid_input);
    CHECK(r.text == "agentry: agent::run(input, ctx): ctx is not of the type the tools take (the T of their "
                    "agentry::context<T>, the registry's context_type); pass that object");

    // The other inputs are refused alike, before they are looked at.
    r = agent.run(agentry::approvals{});
    CHECK(r.stop == agentry::stop_reason::invalid_input);
    r = agent.run(agentry::continuation{}, other);
    CHECK(r.stop == agentry::stop_reason::invalid_input);
    CHECK(s->requests.empty());
    CHECK(agent.conversation().size() == 1);  // the system prompt: no input was added

    // The run with the right object goes on from there.
    app_session ada{"ada", {}};
    CHECK(agent.run("Who am I?", ada).stop == agentry::stop_reason::completed);
    CHECK(ada.audit == std::vector<std::string>{"greeting"});
}

TEST_CASE("context: run(input, ctx) on an agent whose tools take no context stops at once with invalid_input") {
    auto s = std::make_shared<scripted::script>();
    agentry::agent<agentry::loop_config{}> agent{scripted::model{s}, cooperative, "You are a test.",
                                                 scripted::quiet_transport{}};
    s->turns = {answer("never")};
    app_session ada{"ada", {}};
    const agentry::run_result r = agent.run("Who am I?", ada);
    CHECK(r.stop == agentry::stop_reason::invalid_input);
    CHECK(r.text == "agentry: agent::run(input, ctx): no tool of this agent takes agentry::context<T>; call run(input)");
    CHECK(s->requests.empty());
    CHECK(agent.conversation().size() == 1);
    CHECK(agent.run("Hello.").stop == agentry::stop_reason::completed);
}
