// SPDX-License-Identifier: BSL-1.0
#ifndef AGENTRY_LOOP_DYNAMIC_TOOLS_HPP
#define AGENTRY_LOOP_DYNAMIC_TOOLS_HPP

// Tools an agent learns at run time (an MCP server's, for one), next to its static registry:
// a name, the definition in the provider's dialect, and a function to call. A source gives
// them for the agent's dialect through agent::add_tools; the definitions join the tools
// payload and calls of those names go to the source's functions. The layers above the loop
// (mcp/toolset.hpp) adapt themselves to this; the loop knows nothing of them.
//
// A tool may carry a tool_policy, given at run time: the agent applies it as it applies a
// registry tool's (permission ceiling, approval, rate limit, timeout, retries, idempotent),
// except a fallback chain, which only registry tools have. A tool without one counts as
// destructive and needs no approval, as a registry tool without one does.

#include <agentry/call_scope.hpp>
#include <agentry/tool/detail/invoke.hpp>
#include <agentry/detail/separate.hpp>
#include <agentry/detail/text.hpp>
#include <agentry/outcome.hpp>
#include <agentry/policy/token_bucket.hpp>
#include <agentry/policy/tool_policy.hpp>
#include <agentry/registry.hpp>
#include <agentry/schema/dialect.hpp>
#include <agentry/select/catalog.hpp>
#include <agentry/tool_result.hpp>

#include <cstddef>
#include <exception>
#include <functional>
#include <map>
#include <memory>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace agentry {

struct dynamic_tool {
    std::string name;
    /// One entry of the tools payload in the agent's dialect: for OpenAI
    /// {"type":"function","function":{...}}, for Anthropic {"name",...,"input_schema"}, for
    /// Gemini one function declaration {"name","description","parameters"}.
    std::string definition;
    /// Runs a call with the model's arguments (JSON text). `scope.stop` is signalled at the
    /// call's timeout and on agent::cancel(); `scope.run_id` and `scope.call_id` name the call
    /// (agentry::call_info), `scope.on_progress` takes its progress reports (may be empty).
    /// The scope is valid for the call only. May be called from several threads, and on a
    /// thread the loop abandons at the timeout (the policy's, else loop_config::tool_timeout).
    std::function<tool_result(std::string_view arguments, const call_scope& scope)> call;
    /// Applied by the agent as a registry tool's policy; a fallback chain is refused (registry
    /// tools only), as is retry.attempts > 1 without idempotent. None: destructive, no approval.
    std::optional<tool_policy> policy{};
    /// The tool's category, for selection in two stages (agentry::by_category); empty: none.
    std::string category{};
    /// Sent on every turn, whatever agent_options::select_tools chooses (a built-in tool, such
    /// as a search tool).
    bool always_sent = false;
};

/// What a source is told of the agent it joins.
struct dynamic_tools_target {
    dialect_kind kind = dialect_kind::standard;
    dialect_rules rules{};
    /// True for a name the agent already has (its registry's, or added before).
    std::function<bool(std::string_view)> taken;
    /// loop_config::max_permission: a tool above it must need approval (agent::add_tools
    /// refuses it otherwise).
    permission max_permission = permission::destructive;
};

/// Gives the tools for an agent, or the failure that stops them from joining it.
using dynamic_tool_source = std::function<outcome<std::vector<dynamic_tool>>(const dynamic_tools_target&)>;

namespace detail {

// The agent's call scope, when the call has one.
inline const call_scope& scope_of() noexcept {
    static const call_scope none{};
    return none;
}
template <class... Rest>
const call_scope& scope_of(const call_scope& scope, const Rest&...) noexcept {
    return scope;
}

/// What agent<> keeps of its dialect, registry and loop_config for add_tools.
struct dynamic_context {
    dialect_kind kind = dialect_kind::standard;
    dialect_rules rules{};
    bool (*has_static)(std::string_view) noexcept = nullptr;
    std::size_t static_count = 0;
    /// The registry's tool names, for the unknown-tool answer.
    std::span<const std::string_view> static_names{};
    permission ceiling = permission::destructive;
    /// loop_config::max_result_size.
    std::size_t max_result_size = 0;
    /// The tools are chosen per turn (agent_options::select_tools): the dialect's limit on the
    /// tools of one request applies to each turn's choice, not to all the agent's tools.
    bool chosen_per_turn = false;

    template <class D, class Registry>
    static dynamic_context of(permission ceiling, std::size_t max_result_size) noexcept {
        return {D::kind,         D::rules,
                +[](std::string_view name) noexcept { return Registry::find(name) != Registry::size(); },
                Registry::size(), Registry::names,
                ceiling,         max_result_size};
    }
};

/// The policy of a tool added by add_tools, and its rate limiter (one bucket, index 0; null
/// without a limit). The registry's shared limit (with_rate_limit) does not count these calls.
struct dynamic_policy {
    tool_policy policy;
    std::shared_ptr<rate_limiter> limits;
};

/// The tools added so far and the payload that lists them with the registry's.
struct dynamic_state {
    std::string payload;
    std::vector<std::string> names;
    /// The tools that have a policy.
    std::map<std::string, dynamic_policy, std::less<>> policies;
    /// Some tool's policy needs approval.
    bool any_approval = false;

    const dynamic_policy* policy_of(std::string_view name) const noexcept;
};

/// Whether `name` can name a tool added at run time in any dialect: not empty, no control
/// character (a name reaches messages, logs and the provider's payload).
AGENTRY_DECL bool printable_tool_name(std::string_view name) noexcept;

/// What is wrong with `p` as the policy of a tool added at run time (a sentence naming the
/// field and the fix), or empty.
AGENTRY_DECL std::string dynamic_policy_problem(const tool_policy& p);

/// Why a tool with policy `p` (none: destructive, no approval) cannot join an agent whose
/// loop_config::max_permission is `ceiling`, or empty.
AGENTRY_DECL std::string above_ceiling(const std::optional<tool_policy>& p, permission ceiling);

/// `payload` (a definitions<D>() array) with `tools` appended.
AGENTRY_DECL std::string append_definitions(dialect_kind kind, std::string_view payload,
                                            const std::vector<dynamic_tool>& tools);

/// What add_dynamic_tools installs once the source's tools passed the checks: the next state
/// (names, policies, payload), the tools, and the names of all the agent's tools.
struct dynamic_addition {
    std::shared_ptr<dynamic_state> next;
    std::shared_ptr<const std::vector<dynamic_tool>> tools;
    std::shared_ptr<const std::vector<std::string>> names;
};

/// The first part of add_dynamic_tools: asks `source` for its tools and checks them against
/// `context` and the tools added before (`state`); `added` is set when they pass.
AGENTRY_TEMPLATE_DECL
outcome<void> collect_dynamic_tools(const dynamic_tool_source& source, const dynamic_context& context,
                                    std::string_view payload, const std::shared_ptr<dynamic_state>& state,
                                    dynamic_addition& added);

/// A call of `name` when one of `tools` has that name: true, and `out` its result, cut at
/// `cap`, or the failure it threw as a tool_error; false for another name.
AGENTRY_TEMPLATE_DECL
bool call_dynamic_tool(const std::vector<dynamic_tool>& tools, std::string_view name,
                       std::string_view arguments, const call_scope& scope, std::size_t cap,
                       tool_result& out);

/// The registry's answer `out` for `name`, with the unknown-tool text naming all `names`.
AGENTRY_TEMPLATE_DECL
void name_unknown_tool(tool_result& out, std::string_view name, const std::vector<std::string>& names);

/// Adds the tools `added` to `catalog`, each with the description its definition holds.
AGENTRY_DECL void catalog_tools(tool_catalog& catalog, const std::vector<dynamic_tool>& added);

/// agent::add_tools: asks `source` for its tools, checks their policies and the permission
/// ceiling, appends their definitions to the payload and routes calls of their names to them
/// (other names to the calls before). A result is cut at max_result_size, as a registry
/// tool's is; so is a failure's text, which comes from the source too.
template <class CallFn>
outcome<void> add_dynamic_tools(const dynamic_tool_source& source, const dynamic_context& context,
                                std::string_view& payload, std::shared_ptr<dynamic_state>& state, CallFn& call,
                                tool_catalog* catalog = nullptr) {
    dynamic_addition added;
    if (outcome<void> checked = collect_dynamic_tools(source, context, payload, state, added); !checked) return checked;
    if (catalog) catalog_tools(*catalog, *added.tools);
    // The rest of the call's arguments (the agent's scope and context) go to the registry.
    call = [previous = std::move(call), tools = added.tools, names = added.names,
            cap = context.max_result_size](std::string_view name, std::string_view arguments,
                                           auto&&... rest) -> tool_result {
        tool_result found;
        if (call_dynamic_tool(*tools, name, arguments, scope_of(rest...), cap, found)) return found;
        tool_result out = previous(name, arguments, rest...);
        if (out.status == tool_status::unknown_tool) name_unknown_tool(out, name, *names);
        return out;
    };
    state = std::move(added.next);
    payload = state->payload;
    return {};
}

} // namespace detail
} // namespace agentry

#if !defined(AGENTRY_SEPARATE_COMPILATION)
#include <agentry/loop/impl/dynamic_tools.ipp>
#endif

#endif
