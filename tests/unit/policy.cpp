// SPDX-License-Identifier: BSL-1.0
// agentry/policy/: tool policies, the registry's policy table and ceiling, approval values,
// the token bucket (driven by given times, no clock).
#include <agentry/policy/approval.hpp>
#include <agentry/policy/registry_policies.hpp>
#include <agentry/policy/token_bucket.hpp>
#include <agentry/policy/tool_policy.hpp>
#include <agentry/registry.hpp>

#include <doctest/doctest.h>

#include <atomic>
#include <chrono>
#include <string>
#include <thread>
#include <vector>

namespace {

using namespace std::chrono_literals;
using time_point = agentry::token_bucket::clock::time_point;

long long add(int a, int b) { return static_cast<long long>(a) + b; }

constexpr agentry::tool_policy guarded{.level = agentry::permission::write,
                                       .needs_approval = true,
                                       .rate = {.calls = 3, .per_ms = 1000},
                                       .idempotent = true};

constexpr agentry::registry plain{agentry::tool<"add", "Add two integers", "a", "b">(add)};
constexpr agentry::registry policied{agentry::with_policy<guarded>(agentry::tool<"add", "Add two integers", "a", "b">(add)),
                                     agentry::tool<"sub", "Subtract", "a", "b">(+[](int a, int b) { return 0LL + a - b; })};

using plain_policies = agentry::registry_policies<std::remove_cvref_t<decltype(plain)>>;
using policied_policies = agentry::registry_policies<std::remove_cvref_t<decltype(policied)>>;

// The policy changes nothing the model sees.
static_assert(decltype(policied)::definitions<agentry::dialect::openai>().starts_with(
    decltype(plain)::definitions<agentry::dialect::openai>().substr(
        0, decltype(plain)::definitions<agentry::dialect::openai>().size() - 1)));
static_assert(agentry::is_tool<std::remove_cvref_t<decltype(agentry::with_policy<guarded>(
                  agentry::tool<"add", "Add two integers", "a", "b">(add)))>>);

static_assert(!plain_policies::any);
static_assert(policied_policies::any);
static_assert(policied_policies::any_rate);
static_assert(policied_policies::table[0] .level == agentry::permission::write);
static_assert(policied_policies::table[0].needs_approval);
static_assert(policied_policies::table[0].idempotent);
static_assert(policied_policies::table[0].rate.calls == 3);
// A tool without a policy counts as destructive, without approval.
static_assert(policied_policies::table[1].level == agentry::permission::destructive);
static_assert(!policied_policies::table[1].needs_approval);
static_assert(!policied_policies::table[1].rate.limited());

static_assert(plain_policies::within<agentry::permission::destructive>());
static_assert(policied_policies::within<agentry::permission::destructive>());

time_point at(std::chrono::nanoseconds t) { return time_point{} + 1h + t; }

} // namespace

TEST_CASE("policy: a policied tool dispatches exactly like the tool") {
    const agentry::tool_result a = plain.call("add", R"({"a":2,"b":3})");
    const agentry::tool_result b = policied.call("add", R"({"a":2,"b":3})");
    CHECK(a.content == "5");
    CHECK(b.content == "5");
    CHECK(policied.call("add", R"({"a":2})").status == agentry::tool_status::invalid_arguments);
}

TEST_CASE("policy: names of permission levels and statuses") {
    CHECK(agentry::to_string(agentry::permission::read_only) == "read_only");
    CHECK(agentry::to_string(agentry::permission::write) == "write");
    CHECK(agentry::to_string(agentry::permission::destructive) == "destructive");
    CHECK(agentry::to_string(static_cast<agentry::permission>(9)) == "unknown");
    CHECK(agentry::to_string(agentry::tool_status::denied) == "denied");
    CHECK(agentry::to_string(agentry::tool_status::rate_limited) == "rate_limited");
}

TEST_CASE("policy: approval values") {
    CHECK(agentry::approval::approve().kind == agentry::approval_kind::approve);
    const agentry::approval d = agentry::approval::deny("no");
    CHECK(d.kind == agentry::approval_kind::deny);
    CHECK(d.reason == "no");
    const agentry::approval e = agentry::approval::edit(R"({"a":1})");
    CHECK(e.kind == agentry::approval_kind::edit);
    CHECK(e.arguments == R"({"a":1})");
    CHECK(agentry::approval{}.kind == agentry::approval_kind::deny);  // the default refuses
}

TEST_CASE("policy: canonical arguments") {
    CHECK(agentry::detail::canonical_json(R"( {"b": 1.0, "a": ["x", {"d":null,"c":true}]} )") ==
          std::string(R"({"a":["x",{"c":true,"d":null}],"b":1})"));
    CHECK(agentry::detail::canonical_json(R"({"a":10e-1})") == agentry::detail::canonical_json(R"({"a":1})"));
    CHECK_FALSE(agentry::detail::canonical_json(R"({"a":)"));
    CHECK_FALSE(agentry::detail::canonical_json(""));
    CHECK_FALSE(agentry::detail::canonical_json(R"({"a":1} x)"));
    CHECK_FALSE(agentry::detail::canonical_json(std::string(100, '[') + std::string(100, ']')));  // too deep
}

TEST_CASE("token bucket: a full bucket gives `calls` tokens, then says how long to wait") {
    agentry::token_bucket b({.calls = 3, .per_ms = 1000});
    CHECK(b.try_take(at(0ns)) == 0ns);
    CHECK(b.try_take(at(0ns)) == 0ns);
    CHECK(b.try_take(at(0ns)) == 0ns);
    // One token per 1000/3 ms.
    const std::chrono::nanoseconds wait = b.try_take(at(0ns));
    CHECK(wait >= 333'333'333ns);
    CHECK(wait <= 333'333'334ns);
    // A refusal takes nothing: the same wait, less the time passed.
    CHECK(b.try_take(at(100ms)) <= 233'333'334ns);
    CHECK(b.try_take(at(100ms)) >= 233'333'333ns);
    CHECK(b.try_take(at(wait)) == 0ns);
    CHECK(b.try_take(at(wait)) > 0ns);
}

TEST_CASE("token bucket: refills up to its capacity, no more") {
    agentry::token_bucket b({.calls = 2, .per_ms = 60'000});
    CHECK(b.try_take(at(0ns)) == 0ns);
    CHECK(b.try_take(at(0ns)) == 0ns);
    CHECK(b.try_take(at(0ns)) == 30s);
    CHECK(b.try_take(at(10min)) == 0ns);
    CHECK(b.try_take(at(10min)) == 0ns);
    CHECK(b.try_take(at(10min)) == 30s);
}

TEST_CASE("token bucket: time going backwards adds nothing") {
    agentry::token_bucket b({.calls = 1, .per_ms = 1000});
    CHECK(b.try_take(at(5s)) == 0ns);
    CHECK(b.try_take(at(1s)) == 1s);
    CHECK(b.try_take(at(5s)) == 1s);
    CHECK(b.try_take(at(6s)) == 0ns);
}

TEST_CASE("token bucket: extreme limits stay finite") {
    agentry::token_bucket slow({.calls = 1, .per_ms = std::numeric_limits<std::int64_t>::max()});
    CHECK(slow.try_take(at(0ns)) == 0ns);
    CHECK(slow.try_take(at(0ns)) > 0ns);
    agentry::token_bucket fast({.calls = std::numeric_limits<std::uint32_t>::max(), .per_ms = 1});
    for (int i = 0; i != 1000; ++i) CHECK(fast.try_take(at(0ns)) == 0ns);
    agentry::token_bucket zero_window({.calls = 1, .per_ms = 0});  // counts as 1 ms
    CHECK(zero_window.try_take(at(0ns)) == 0ns);
    CHECK(zero_window.try_take(at(0ns)) == 1ms);
}

TEST_CASE("token bucket: several threads never take more than there is") {
    agentry::token_bucket b({.calls = 1000, .per_ms = 1'000'000});
    std::atomic<int> taken{0};
    std::vector<std::thread> threads;
    for (int t = 0; t != 4; ++t)
        threads.emplace_back([&] {
            for (int i = 0; i != 500; ++i)
                if (b.try_take(at(0ns)) == 0ns) ++taken;
        });
    for (std::thread& t : threads) t.join();
    CHECK(taken.load() == 1000);
}
