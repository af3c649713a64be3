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
#include <agentry/detail/invoke.hpp>
#include <agentry/detail/text.hpp>
#include <agentry/outcome.hpp>
#include <agentry/policy/token_bucket.hpp>
#include <agentry/policy/tool_policy.hpp>
#include <agentry/registry.hpp>
#include <agentry/schema/dialect.hpp>
#include <agentry/tool_result.hpp>

#include <cstddef>
#include <exception>
#include <functional>
#include <map>
#include <memory>
#include <optional>
#include <span>
#include <stop_token>
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
    /// Runs a call with the model's arguments (JSON text); `stop` is signalled at the call's
    /// timeout and on agent::cancel(). May be called from several threads, and on a thread the
    /// loop abandons at the timeout (the policy's, else loop_config::tool_timeout).
    std::function<tool_result(std::string_view arguments, std::stop_token stop)> call;
    /// Applied by the agent as a registry tool's policy; a fallback chain is refused (registry
    /// tools only), as is retry.attempts > 1 without idempotent. None: destructive, no approval.
    std::optional<tool_policy> policy{};
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

// The stop token of the agent's call scope, when the call has one.
inline std::stop_token stop_of() noexcept { return {}; }
template <class... Rest>
std::stop_token stop_of(const call_scope& scope, const Rest&...) noexcept {
    return scope.stop;
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

    const dynamic_policy* policy_of(std::string_view name) const noexcept {
        const auto found = policies.find(name);
        return found == policies.end() ? nullptr : &found->second;
    }
};

/// What is wrong with `p` as the policy of a tool added at run time (a sentence naming the
/// field and the fix), or empty.
inline std::string dynamic_policy_problem(const tool_policy& p) {
    if (!p.fallback.empty())
        return "its policy has a fallback chain, which only registry tools can have (checked at compile time); "
               "leave tool_policy::fallback empty";
    if (p.rate.calls != 0 && p.rate.per_ms <= 0)
        return "its policy's rate_limit::per_ms is " + std::to_string(p.rate.per_ms) +
               "; it must be positive when rate_limit::calls is set";
    if (!valid_config_time(p.timeout) || !valid_config_time(p.retry.initial_backoff) ||
        !valid_config_time(p.retry.max_backoff))
        return "its policy's timeout, retry.initial_backoff and retry.max_backoff must be between 0 and 100 years";
    if (p.retry.attempts == 0)
        return "its policy's retry.attempts is 0; it counts every try, the first included, so it must be at least 1 "
               "(1: no retry)";
    if (p.retry.attempts > 1 && !p.idempotent)
        return "its policy has retry.attempts " + std::to_string(p.retry.attempts) +
               " without idempotent = true (a retried call may run twice); declare the tool idempotent or leave "
               "retries out";
    return {};
}

/// Why a tool with policy `p` (none: destructive, no approval) cannot join an agent whose
/// loop_config::max_permission is `ceiling`, or empty.
inline std::string above_ceiling(const std::optional<tool_policy>& p, permission ceiling) {
    const permission level = p ? p->level : permission::destructive;
    if (level <= ceiling || (p && p->needs_approval)) return {};
    return "its permission level, " + std::string(to_string(level)) + (p ? "" : " (it has no policy)") +
           ", is above loop_config::max_permission, " + std::string(to_string(ceiling)) +
           ", and it needs no approval; give it a policy with needs_approval = true or a lower level, or raise the "
           "ceiling";
}

/// `payload` (a definitions<D>() array) with `tools` appended.
inline std::string append_definitions(dialect_kind kind, std::string_view payload, const std::vector<dynamic_tool>& tools) {
    std::string out(payload);
    const std::string_view tail = kind == dialect_kind::gemini ? "]}]" : "]";
    if (out.size() < tail.size() || std::string_view(out).substr(out.size() - tail.size()) != tail)
        out = kind == dialect_kind::gemini ? "[{\"functionDeclarations\":[]}]" : "[]";
    std::string added;
    for (const dynamic_tool& t : tools) {
        if (!added.empty()) added += ',';
        added += t.definition;
    }
    if (added.empty()) return out;
    std::size_t at = out.size() - tail.size();
    const std::size_t before = out.find_last_not_of(" \n\t\r", at - 1);
    out.insert(at, out[before] == '[' ? added : "," + added);
    return out;
}

/// agent::add_tools: asks `source` for its tools, checks their policies and the permission
/// ceiling, appends their definitions to the payload and routes calls of their names to them
/// (other names to the calls before). A result is cut at max_result_size, as a registry
/// tool's is; so is a failure's text, which comes from the source too.
template <class CallFn>
outcome<void> add_dynamic_tools(const dynamic_tool_source& source, const dynamic_context& context,
                                std::string_view& payload, std::shared_ptr<dynamic_state>& state, CallFn& call) {
    if (!source) return fail(failure_kind::invalid_input, "agentry: agent::add_tools: the tool source is empty");
    auto next = std::make_shared<dynamic_state>(state ? *state : dynamic_state{});
    dynamic_tools_target target;
    target.kind = context.kind;
    target.rules = context.rules;
    target.taken = [&context, &next](std::string_view name) {
        if (context.has_static && context.has_static(name)) return true;
        for (const std::string& n : next->names)
            if (n == name) return true;
        return false;
    };
    target.max_permission = context.ceiling;
    outcome<std::vector<dynamic_tool>> tools = source(target);
    if (!tools) return std::move(tools).error();
    for (const dynamic_tool& t : *tools) {
        if (target.taken(t.name))
            return fail(failure_kind::invalid_input, "agentry: agent::add_tools: the agent already has a tool named \"" +
                                                         t.name + "\"; give the source a prefix for its names");
        if (!t.call) return fail(failure_kind::invalid_input, "agentry: agent::add_tools: " + t.name + " has no call");
        std::string problem = t.policy ? dynamic_policy_problem(*t.policy) : std::string();
        if (problem.empty()) problem = above_ceiling(t.policy, context.ceiling);
        if (!problem.empty())
            return fail(failure_kind::invalid_input,
                        "agentry: agent::add_tools: tool \"" + t.name + "\": " + problem + "; nothing was added");
        next->names.push_back(t.name);
        if (t.policy) {
            dynamic_policy& p = next->policies[t.name];
            p.policy = *t.policy;
            if (p.policy.rate.limited()) p.limits = std::make_shared<rate_limiter>(std::span(&p.policy, 1));
            next->any_approval = next->any_approval || p.policy.needs_approval;
        }
    }
    const std::size_t total = context.static_count + next->names.size();
    if (total > context.rules.max_tools)
        return fail(failure_kind::invalid_input,
                    "agentry: agent::add_tools: " + std::to_string(total) + " tools, more than the " +
                        std::to_string(context.rules.max_tools) + " the " + std::string(context.rules.name) +
                        " dialect allows in one request; leave some out");
    next->payload = append_definitions(context.kind, payload, *tools);
    auto added = std::make_shared<const std::vector<dynamic_tool>>(std::move(*tools));
    auto names = std::make_shared<std::vector<std::string>>(context.static_names.begin(), context.static_names.end());
    names->insert(names->end(), next->names.begin(), next->names.end());
    // The rest of the call's arguments (the agent's scope and context) go to the registry.
    call = [previous = std::move(call), added, names = std::shared_ptr<const std::vector<std::string>>(std::move(names)),
            cap = context.max_result_size](std::string_view name, std::string_view arguments,
                                           auto&&... rest) -> tool_result {
        for (const dynamic_tool& t : *added) {
            if (t.name != name) continue;
            try {
                tool_result out = t.call(arguments, stop_of(rest...));
                if (cut_text(out.content, cap)) out.truncated = true;
                return out;
            } catch (const std::exception& e) {
                tool_result out;
                out.status = tool_status::tool_error;
                out.content = t.name + " failed: " + e.what();
                return out;
            } catch (...) {
                tool_result out;
                out.status = tool_status::tool_error;
                out.content = t.name + " failed with an unknown exception";
                return out;
            }
        }
        tool_result out = previous(name, arguments, rest...);
        if (out.status == tool_status::unknown_tool) {
            try {
                out.content = unknown_tool_text(name, *names);
            } catch (...) {  // the registry's answer stays
            }
        }
        return out;
    };
    state = std::move(next);
    payload = state->payload;
    return {};
}

} // namespace detail
} // namespace agentry

#endif
