// SPDX-License-Identifier: BSL-1.0
// What a person approving a tool call reads: the model spells numbers as it likes (1e2, 3e0,
// 250.00) and the approval screen shows them in RFC 8785's canonical form (100, 3, 250); an
// integer past 2^53 is shown with its own digits, never rounded to another amount; decisions
// saved with the canonical form of earlier versions (1e2) still hold.
#define DOCTEST_CONFIG_IMPLEMENT_WITH_MAIN
#include "scripted.hpp"

#include <agentry/agent.hpp>
#include <agentry/policy/approval.hpp>
#include <agentry/policy/tool_policy.hpp>
#include <agentry/registry.hpp>

#include <doctest/doctest.h>

#include <cstdint>
#include <memory>
#include <string>
#include <vector>

using scripted::answer;
using scripted::call;
using scripted::calls;

namespace {

std::vector<std::string> booked;  // what book ran with, in order

std::string book(std::uint64_t amount, int nights) {
    booked.push_back(std::to_string(amount) + "/" + std::to_string(nights));
    return "booked";
}

constexpr agentry::tool_policy needs_approval{.level = agentry::permission::write, .needs_approval = true};

constexpr agentry::registry tools{
    agentry::with_policy<needs_approval>(agentry::tool<"book", "Books a stay", "amount", "nights">(book)),
};

struct fixture {
    std::shared_ptr<scripted::script> s = std::make_shared<scripted::script>();
    agentry::agent<agentry::loop_config{}> agent;
    explicit fixture(agentry::agent_options options = {})
        : agent{scripted::model{s}, tools, std::move(options), scripted::quiet_transport{}} {
        booked.clear();
    }
};

} // namespace

TEST_CASE("the approver reads the amounts as numbers people write: 100 and 3, not 1e2 and 3e0") {
    std::vector<std::string> seen;
    fixture f({.approver = [&](const agentry::approval_request& r) {
        seen.emplace_back(r.arguments);
        return agentry::approval::approve();
    }});
    f.s->turns = {calls({call("c1", "book", R"({"nights":3e0,"amount":1e2})"),
                         call("c2", "book", R"({"amount":25000E-2,"nights":2.0})")}),
                  answer("Booked.")};
    const agentry::run_result r = f.agent.run("Book it");
    CHECK(r.stop == agentry::stop_reason::completed);
    CHECK(seen == std::vector<std::string>{R"({"amount":100,"nights":3})", R"({"amount":250,"nights":2})"});
    CHECK(booked == std::vector<std::string>{"100/3", "250/2"});
}

TEST_CASE("a paused run lists its calls in canonical form, and a decision in the old form (1e2) still holds") {
    fixture f;
    f.s->turns = {calls({call("c1", "book", R"({"amount":100.0,"nights":3})")}), answer("Booked.")};
    const agentry::run_result r = f.agent.run("Book it");
    REQUIRE(r.stop == agentry::stop_reason::approval_pending);
    REQUIRE(r.pending.size() == 1);
    CHECK(r.pending[0].arguments == R"({"amount":100,"nights":3})");
    // As agentry::decide wrote it before the canonical form was RFC 8785's.
    const std::vector<agentry::approval_decision> old{{"c1", R"({"amount":1e2,"nights":3e0})", agentry::approval::approve()}};
    const agentry::run_result resumed = f.agent.run(agentry::approvals{old});
    CHECK(resumed.stop == agentry::stop_reason::completed);
    CHECK(booked == std::vector<std::string>{"100/3"});
}

TEST_CASE("an integer past 2^53 is shown as sent, and a decision for the rounded amount does not run it") {
    fixture f;
    f.s->turns = {calls({call("c1", "book", R"({"amount":9007199254740993,"nights":1})")}), answer("Booked.")};
    const agentry::run_result r = f.agent.run("Book it");
    REQUIRE(r.stop == agentry::stop_reason::approval_pending);
    REQUIRE(r.pending.size() == 1);
    // RFC 8785 alone would show the nearest double, 9007199254740992: another amount.
    CHECK(r.pending[0].arguments == R"({"amount":9007199254740993,"nights":1})");
    const std::vector<agentry::approval_decision> rounded{
        {"c1", R"({"amount":9007199254740992,"nights":1})", agentry::approval::approve()}};
    const agentry::run_result refused = f.agent.run(agentry::approvals{rounded});
    CHECK(refused.stop == agentry::stop_reason::approval_pending);
    CHECK(booked.empty());
    const std::vector<agentry::approval_decision> exact{agentry::decide(r.pending[0], agentry::approval::approve())};
    CHECK(f.agent.run(agentry::approvals{exact}).stop == agentry::stop_reason::completed);
    CHECK(booked == std::vector<std::string>{"9007199254740993/1"});
}
