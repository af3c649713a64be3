// SPDX-License-Identifier: BSL-1.0
// Registry composition (join, select) and the registry-wide rate limit (with_rate_limit,
// rate_limiter), driven by given times, no clock.
#include <agentry/compose.hpp>
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
using time_point = agentry::rate_limiter::clock::time_point;

time_point at(std::chrono::nanoseconds t) { return time_point{} + 1h + t; }

struct session {
    std::string user;
};

long long add(int a, int b) { return static_cast<long long>(a) + b; }
long long sub(int a, int b) { return static_cast<long long>(a) - b; }
std::string whoami(agentry::context<session> s) { return s->user; }
std::string wipe(const std::string& path) { return "wiped " + path; }

constexpr agentry::tool_policy destructive{.level = agentry::permission::destructive,
                                           .needs_approval = true,
                                           .rate = {.calls = 2, .per_ms = 1000}};

constexpr agentry::registry math{
    agentry::tool<"add", "Adds two integers.", "a", "b">(add),
    agentry::tool<"sub", "Subtracts b from a.", "a", "b">(sub),
};
constexpr agentry::registry admin = agentry::registry{
    agentry::tool<"whoami", "Says who calls.">(whoami),
    agentry::with_policy<destructive>(agentry::tool<"wipe", "Wipes a path.", "path">(wipe)),
}.with_options({.max_result_size = 100});

constexpr auto all = agentry::join(math, admin);
constexpr auto three = agentry::join(math, agentry::select<"wipe">(admin),
                                     agentry::registry{agentry::tool<"mul", "Multiplies.", "a", "b">(
                                         +[](int a, int b) { return 1LL * a * b; })});
constexpr auto picked = agentry::select<"wipe", "add">(all);

using all_type = std::remove_cvref_t<decltype(all)>;
using picked_type = std::remove_cvref_t<decltype(picked)>;

static_assert(all_type::size() == 4);
static_assert(all_type::names == std::array<std::string_view, 4>{"add", "sub", "whoami", "wipe"});
static_assert(std::remove_cvref_t<decltype(three)>::names ==
              std::array<std::string_view, 4>{"add", "sub", "wipe", "mul"});
static_assert(picked_type::names == std::array<std::string_view, 2>{"wipe", "add"});
// The context type and the policies come along with the tools.
static_assert(std::is_same_v<all_type::context_type, session>);
static_assert(std::is_void_v<picked_type::context_type>);
static_assert(agentry::registry_policies<picked_type>::table[0].level == agentry::permission::destructive);
static_assert(agentry::registry_policies<picked_type>::table[0].needs_approval);
static_assert(agentry::registry_policies<picked_type>::table[0].rate.calls == 2);
static_assert(agentry::registry_policies<all_type>::table[3].needs_approval);
static_assert(!agentry::registry_policies<all_type>::table[0].needs_approval);

} // namespace

TEST_CASE("join: the definitions are the tools' definitions, in order") {
    constexpr std::string_view m = decltype(math)::definitions<agentry::dialect::anthropic>();
    constexpr std::string_view a = decltype(admin)::definitions<agentry::dialect::anthropic>();
    const std::string joined = std::string(m.substr(0, m.size() - 1)) + "," + std::string(a.substr(1));
    CHECK(all_type::definitions<agentry::dialect::anthropic>() == joined);
    constexpr std::string_view g = decltype(math)::definitions<agentry::dialect::gemini>();
    CHECK(std::remove_cvref_t<decltype(agentry::join(math, agentry::select<"wipe">(admin)))>::definitions<
              agentry::dialect::gemini>()
              .starts_with(g.substr(0, g.size() - 3)));
}

TEST_CASE("join and select: calls reach the same tools, options come from the first registry") {
    session s{"ada"};
    CHECK(all.call("add", R"({"a":2,"b":3})", {.context = s}).content == "5");
    CHECK(all.call("sub", R"({"a":2,"b":3})", {.context = s}).content == "-1");
    CHECK(all.call("whoami", "{}", {.context = s}).content == "ada");
    CHECK(all.call("wipe", R"({"path":"/tmp"})", {.context = s}).content == "wiped /tmp");
    CHECK(all.options().max_result_size == math.options().max_result_size);
    CHECK(three.call("mul", R"({"a":2,"b":3})").content == "6");
    CHECK(picked.call("add", R"({"a":2,"b":3})").content == "5");
    CHECK(picked.options().max_result_size == 64 * 1024);
    CHECK(agentry::select<"whoami">(admin).options().max_result_size == 100);
    const agentry::tool_result unknown = picked.call("sub", "{}");
    CHECK(unknown.status == agentry::tool_status::unknown_tool);
    CHECK(unknown.content == "unknown tool \"sub\". Available tools: wipe, add.");
}

TEST_CASE("with_rate_limit: the same registry, with its limit in registry_policies") {
    constexpr auto limited = agentry::with_rate_limit<agentry::rate_limit{.calls = 3, .per_ms = 1000}>(math);
    using limited_type = std::remove_cvref_t<decltype(limited)>;
    using policies = agentry::registry_policies<limited_type>;
    static_assert(policies::any && policies::any_rate);
    static_assert(policies::registry_rate.calls == 3 && policies::registry_rate.per_ms == 1000);
    static_assert(!agentry::registry_policies<decltype(math)>::registry_rate.limited());
    static_assert(!agentry::registry_policies<all_type>::registry_rate.limited());
    static_assert(policies::table.size() == 2);
    static_assert(limited_type::definitions<agentry::dialect::openai>() ==
                  decltype(math)::definitions<agentry::dialect::openai>());
    CHECK(limited.call("add", R"({"a":1,"b":1})").content == "2");
    const auto options = limited.with_options({.max_result_size = 10});
    static_assert(std::is_same_v<std::remove_cvref_t<decltype(options)>, limited_type>);
    CHECK(options.options().max_result_size == 10);
    CHECK(limited_type::find("sub") == 1);
}

TEST_CASE("rate_limiter: the shared bucket limits all tools together") {
    using policies = agentry::registry_policies<
        std::remove_cvref_t<decltype(agentry::with_rate_limit<agentry::rate_limit{.calls = 3, .per_ms = 1000}>(math))>>;
    agentry::rate_limiter limiter(policies::table, policies::registry_rate);
    CHECK(limiter.try_take(0, at(0ns)));
    CHECK(limiter.try_take(1, at(0ns)));
    CHECK(limiter.try_take(0, at(0ns)));
    const agentry::rate_limiter::verdict refused = limiter.try_take(1, at(0ns));
    CHECK_FALSE(refused);
    CHECK(refused.shared);
    CHECK(refused.wait == std::chrono::nanoseconds(333'333'334));
    CHECK(limiter.refusal("sub", 1, refused) ==
          "rate_limited: the tools here may be called at most 3 times per 1000 ms in all; sub was not run. Try "
          "again in 334 ms, or go on without it.");
    CHECK(limiter.try_take(1, at(334ms)));
    CHECK_FALSE(limiter.try_take(0, at(334ms)));
    // An index past the tools (an unknown tool) takes nothing.
    CHECK(limiter.try_take(2, at(334ms)));
}

TEST_CASE("rate_limiter: a call takes from its tool and the shared bucket, or from neither") {
    using policies = agentry::registry_policies<picked_type>;  // wipe: 2 per second; add: none
    agentry::rate_limiter limiter(policies::table, agentry::rate_limit{.calls = 3, .per_ms = 3000});
    CHECK(limiter.try_take(0, at(0ns)));
    CHECK(limiter.try_take(0, at(0ns)));
    // wipe's own bucket is empty: refused by it, and the shared token stays.
    const agentry::rate_limiter::verdict refused = limiter.try_take(0, at(0ns));
    CHECK_FALSE(refused);
    CHECK_FALSE(refused.shared);
    CHECK(refused.wait == 500ms);
    CHECK(limiter.refusal("wipe", 0, refused) ==
          "rate_limited: wipe may be called at most 2 times per 1000 ms; it was not run. Try again in 500 ms, or go "
          "on without it.");
    CHECK(limiter.try_take(1, at(0ns)));  // the shared token not taken above
    // Now the shared bucket is empty (1 per second) and wipe's refills in 500 ms: the longer
    // wait, the shared one, is the answer.
    const agentry::rate_limiter::verdict both = limiter.try_take(0, at(0ns));
    CHECK(both.shared);
    CHECK(both.wait == 1s);
    CHECK(limiter.try_take(0, at(1s)));
}

TEST_CASE("rate_limiter: without a shared limit, the tools' own buckets") {
    using policies = agentry::registry_policies<picked_type>;
    agentry::rate_limiter limiter(policies::table);
    CHECK(limiter.try_take(0, at(0ns)));
    CHECK(limiter.try_take(0, at(0ns)));
    CHECK_FALSE(limiter.try_take(0, at(0ns)));
    for (int i = 0; i != 100; ++i) CHECK(limiter.try_take(1, at(0ns)));  // add: no limit
    CHECK(limiter.try_take(5, at(0ns)));
}

TEST_CASE("try_take_both: one bucket given twice takes one token") {
    agentry::token_bucket b({.calls = 2, .per_ms = 1000});
    CHECK(try_take_both(b, b, at(0ns)).first == 0ns);
    CHECK(try_take_both(b, b, at(0ns)).second == 0ns);
    CHECK(try_take_both(b, b, at(0ns)).first == 500ms);
}

TEST_CASE("rate_limiter: several threads never take more than the shared limit or a tool's own") {
    constexpr agentry::tool_policy limited{.rate = {.calls = 300, .per_ms = 1'000'000}};
    constexpr agentry::tool_policy free{};
    const std::array<agentry::tool_policy, 3> table{limited, free, limited};
    agentry::rate_limiter limiter(table, agentry::rate_limit{.calls = 500, .per_ms = 1'000'000});
    std::array<std::atomic<int>, 3> taken{};
    std::vector<std::thread> threads;
    for (int t = 0; t != 6; ++t)
        threads.emplace_back([&, t] {
            for (int i = 0; i != 400; ++i) {
                const std::size_t tool = static_cast<std::size_t>((t + i) % 3);
                if (limiter.try_take(tool, at(0ns))) ++taken[tool];
            }
        });
    for (std::thread& t : threads) t.join();
    CHECK(taken[0].load() + taken[1].load() + taken[2].load() == 500);
    CHECK(taken[0].load() <= 300);
    CHECK(taken[2].load() <= 300);
}
