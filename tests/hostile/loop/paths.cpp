// SPDX-License-Identifier: BSL-1.0
// A hostile model against the paths a tool call can take: arguments that cannot be put in
// canonical form sent to a tool added at run time that needs approval (they must never reach
// it, approver or not), and a plan whose step inputs multiply one result into megabytes.
#define DOCTEST_CONFIG_IMPLEMENT_WITH_MAIN
#include "scripted.hpp"

#include <agentry/agent.hpp>
#include <agentry/registry.hpp>

#include <doctest/doctest.h>

#include <memory>
#include <mutex>
#include <optional>
#include <string>
#include <vector>

namespace {

constexpr agentry::registry plain{agentry::tool<"echo", "Echoes its text", "text">(+[](std::string t) { return t; })};

constexpr agentry::tool_policy pay_policy{.level = agentry::permission::destructive, .needs_approval = true};

// An added tool "pay" (as an MCP toolset adds one) that records the arguments it receives.
struct payee {
    std::mutex mutex;
    std::vector<std::string> received;

    agentry::dynamic_tool_source source() {
        return [this](const agentry::dynamic_tools_target&) -> agentry::outcome<std::vector<agentry::dynamic_tool>> {
            agentry::dynamic_tool t;
            t.name = "pay";
            t.definition = R"({"type":"function","function":{"name":"pay","description":"Pays","parameters":{"type":"object"}}})";
            t.policy = pay_policy;
            t.call = [this](std::string_view arguments, const agentry::call_scope&) {
                const std::lock_guard lock(mutex);
                received.emplace_back(arguments);
                agentry::tool_result r;
                r.content = "paid";
                return r;
            };
            return std::vector<agentry::dynamic_tool>{t};
        };
    }
};

std::vector<std::string> hostile_arguments() {
    return {
        R"({"amount":1,"to":"friend","amount":1000000})",                // a duplicate key
        std::string(R"({"amount":1000000,"to":"attacker)") + "\xff" + "\"}",  // invalid UTF-8
        R"({"amount":1,"to":"friend"})" + std::string(1100 * 1024, ' '),  // past the size limit
    };
}

} // namespace

TEST_CASE("fault 1: arguments that cannot be canonicalised never reach an added tool that needs approval") {
    for (const bool with_approver : {true, false}) {
        for (const std::string& arguments : hostile_arguments()) {
            CAPTURE(with_approver);
            payee remote;
            int asked = 0;
            agentry::agent_options options;
            if (with_approver)
                options.approver = [&](const agentry::approval_request&) {
                    ++asked;
                    return agentry::approval::deny("no");
                };
            auto s = std::make_shared<scripted::script>();
            agentry::agent<agentry::loop_config{}> agent{scripted::model{s}, plain, std::move(options),
                                                         scripted::quiet_transport{}};
            REQUIRE(agent.add_tools(remote.source()).has_value());
            s->turns = {scripted::calls({scripted::call("c1", "pay", arguments)}), scripted::answer("done")};
            const agentry::run_result r = agent.run("pay my friend");
            CHECK(remote.received.empty());
            CHECK(asked == 0);
            REQUIRE(r.steps.size() == 1);
            CHECK(r.steps[0].status == agentry::tool_status::invalid_arguments);
            CHECK(r.steps[0].attempts.empty());
            CHECK(r.stop == agentry::stop_reason::completed);
            // The model is told why, in a bounded message.
            REQUIRE(s->requests.size() == 2);
            const agentry::message& told = s->requests[1].messages.back();
            CHECK(told.role == agentry::role::tool);
            CHECK(told.text.find("agentry: the arguments of pay were refused before it ran") != std::string::npos);
            CHECK(told.text.size() <= agentry::loop_config{}.max_result_size);
        }
    }
}

TEST_CASE("fault 1: well-formed arguments still reach the approver, and run once approved") {
    payee remote;
    std::vector<std::string> seen;
    auto s = std::make_shared<scripted::script>();
    agentry::agent<agentry::loop_config{}> agent{scripted::model{s}, plain,
                                                 {.approver =
                                                      [&](const agentry::approval_request& r) {
                                                          seen.emplace_back(r.arguments);
                                                          return agentry::approval::approve();
                                                      }},
                                                 scripted::quiet_transport{}};
    REQUIRE(agent.add_tools(remote.source()).has_value());
    s->turns = {scripted::calls({scripted::call("c1", "pay", R"({ "to": "friend", "amount": 1 })")}),
                scripted::answer("done")};
    CHECK(agent.run("pay").stop == agentry::stop_reason::completed);
    REQUIRE(seen.size() == 1);
    CHECK(seen[0] == R"({"amount":1,"to":"friend"})");
    REQUIRE(remote.received.size() == 1);
}

namespace {

std::string big_result() { return R"({"items":[")" + std::string(16 * 1024 - 16, 'x') + R"("]})"; }

constexpr agentry::registry plan_tools{
    agentry::tool<"fetch", "Returns a large document">(+[]() { return agentry::raw_json(big_result()); }),
    agentry::tool<"store", "Stores items", "items">(+[](std::vector<std::string> items) { return items.size(); }),
};

constexpr agentry::loop_config planning{.planning = {.enabled = true, .max_repairs = 0}};

std::string plan_with_inputs(std::size_t n) {
    std::string inputs;
    for (std::size_t i = 0; i != n; ++i)
        inputs += std::string(i ? "," : "") + R"({"argument":"/items/-","step":"s1","pointer":"/items/0"})";
    return R"({"steps":[{"id":"s1","tool":"fetch","arguments":{},"depends_on":[],"inputs":[]},{"id":"s2","tool":"store","arguments":{"items":[]},"depends_on":["s1"],"inputs":[)" +
           inputs + "]}]}";
}

} // namespace

TEST_CASE("fault 2: a step with 800 inputs is refused before anything is built, in a bounded message") {
    auto s = std::make_shared<scripted::script>();
    agentry::agent<planning> agent{scripted::model{s}, plan_tools, "", scripted::quiet_transport{}};
    s->turns = {scripted::calls({scripted::call("p1", "make_plan", plan_with_inputs(800))})};
    const agentry::run_result r = agent.run(agentry::planned{"store them"});
    CHECK(r.stop == agentry::stop_reason::plan_invalid);
    REQUIRE(!r.plans.empty());
    REQUIRE(!r.plans.back().errors.empty());
    CHECK(r.plans.back().errors.front().find("plan_options::max_inputs_per_step") != std::string::npos);
    for (const agentry::message& m : agent.conversation()) CHECK(m.text.size() <= 64 * 1024);
    CHECK(r.steps.size() == 1);  // s1 ran; s2 never did
}

TEST_CASE("fault 2: inputs that grow a step's arguments past max_arguments_size are refused") {
    constexpr agentry::loop_config small{
        .planning = {.enabled = true, .max_repairs = 0, .max_inputs_per_step = 16, .max_arguments_size = 40 * 1024}};
    auto s = std::make_shared<scripted::script>();
    agentry::agent<small> agent{scripted::model{s}, plan_tools, "", scripted::quiet_transport{}};
    s->turns = {scripted::calls({scripted::call("p1", "make_plan", plan_with_inputs(4))})};
    const agentry::run_result r = agent.run(agentry::planned{"store them"});
    CHECK(r.stop == agentry::stop_reason::plan_invalid);
    REQUIRE(!r.plans.empty());
    REQUIRE(!r.plans.back().errors.empty());
    CHECK(r.plans.back().errors.front().find("plan_options::max_arguments_size") != std::string::npos);
    for (const agentry::message& m : agent.conversation()) CHECK(m.text.size() <= 64 * 1024);
}

TEST_CASE("fault 2: within the limits the inputs are set and the step runs") {
    auto s = std::make_shared<scripted::script>();
    agentry::agent<planning> agent{scripted::model{s}, plan_tools, "", scripted::quiet_transport{}};
    s->turns = {scripted::calls({scripted::call("p1", "make_plan", plan_with_inputs(3))}), scripted::answer("stored")};
    const agentry::run_result r = agent.run(agentry::planned{"store them"});
    CHECK(r.stop == agentry::stop_reason::completed);
    REQUIRE(r.steps.size() == 2);
    CHECK(r.steps[1].status == agentry::tool_status::ok);
    CHECK(r.steps[1].result_excerpt == "3");
}
