// SPDX-License-Identifier: BSL-1.0
// expect: agentry: loop_config::max_permission: the registry holds a tool (named by tool_above_ceiling<...>) whose permission level is above the ceiling and that needs no approval
// names: save_record
#include <agentry/agent.hpp>
#include <agentry/policy/tool_policy.hpp>
#include <agentry/provider/openai.hpp>
#include <agentry/registry.hpp>

// A write tool under a read-only ceiling must need approval.
struct null_transport {
    agentry::transport_result send(const agentry::http_request&) { return {{200, {}, ""}, {}}; }
    agentry::transport_result stream(const agentry::http_request&, agentry::stream_handlers&) {
        return {{200, {}, ""}, {}};
    }
};

long long save(int a) { return a; }

#ifdef AGENTRY_COMPILE_FAIL
constexpr agentry::tool_policy policy{.level = agentry::permission::write};
#else
constexpr agentry::tool_policy policy{.level = agentry::permission::write, .needs_approval = true};
#endif

constexpr agentry::registry tools{
    agentry::with_policy<agentry::tool_policy{}>(agentry::tool<"peek", "Reads.", "a">(save)),
    agentry::with_policy<policy>(agentry::tool<"save_record", "Saves.", "a">(save)),
};

int main() {
    agentry::agent<agentry::loop_config{.max_permission = agentry::permission::read_only}> a{
        agentry::openai{.model = "m"}, tools, "system", null_transport{}};
    return a.conversation().size() == 1 ? 0 : 1;
}
