// SPDX-License-Identifier: BSL-1.0
#ifndef AGENTRY_LOOP_IMPL_DYNAMIC_TOOLS_IPP
#define AGENTRY_LOOP_IMPL_DYNAMIC_TOOLS_IPP

// The definitions of the tools added at run time (loop/dynamic_tools.hpp): included by it
// header-only, and by <agentry/src.hpp> in separate compilation (detail/separate.hpp).

#include <agentry/stop_token.hpp>
#include <agentry/tool/detail/invoke.hpp>
#include <agentry/detail/separate.hpp>
#include <agentry/loop/dynamic_tools.hpp>
#include <agentry/outcome.hpp>
#include <agentry/policy/token_bucket.hpp>
#include <agentry/registry.hpp>
#include <agentry/json/value.hpp>
#include <agentry/tool_result.hpp>

#include <cstddef>
#include <exception>
#include <map>
#include <memory>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace agentry::detail {

AGENTRY_DECL bool printable_tool_name(std::string_view name) noexcept {
    if (name.empty()) return false;
    for (char c : name)
        if (static_cast<unsigned char>(c) < 0x20 || c == 0x7F) return false;
    return true;
}

AGENTRY_DECL std::string dynamic_policy_problem(const tool_policy& p) {
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

AGENTRY_DECL std::string above_ceiling(const std::optional<tool_policy>& p, permission ceiling) {
    const permission level = p ? p->level : permission::destructive;
    if (level <= ceiling || (p && p->needs_approval)) return {};
    return "its permission level, " + std::string(to_string(level)) + (p ? "" : " (it has no policy)") +
           ", is above loop_config::max_permission, " + std::string(to_string(ceiling)) +
           ", and it needs no approval; give it a policy with needs_approval = true or a lower level, or raise the "
           "ceiling";
}

AGENTRY_DECL std::string append_definitions(dialect_kind kind, std::string_view payload,
                                            const std::vector<dynamic_tool>& tools) {
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

AGENTRY_DECL const dynamic_policy* dynamic_state::policy_of(std::string_view name) const noexcept {
    const auto found = policies.find(name);
    return found == policies.end() ? nullptr : &found->second;
}

AGENTRY_TEMPLATE_DEF
outcome<void> collect_dynamic_tools(const dynamic_tool_source& source, const dynamic_context& context,
                                    std::string_view payload, const std::shared_ptr<dynamic_state>& state,
                                    dynamic_addition& added) {
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
        if (!printable_tool_name(t.name))
            return fail(failure_kind::invalid_input,
                        t.name.empty() ? std::string("agentry: agent::add_tools: a tool has an empty name; name it; "
                                                     "nothing was added")
                                       : "agentry: agent::add_tools: the tool name \"" + printable(t.name, 130) +
                                             "\" holds a control character; a tool name must be printable; nothing "
                                             "was added");
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
    if (total > context.rules.max_tools && !context.chosen_per_turn)
        return fail(failure_kind::invalid_input,
                    "agentry: agent::add_tools: " + std::to_string(total) + " tools, more than the " +
                        std::to_string(context.rules.max_tools) + " the " + std::string(context.rules.name) +
                        " dialect allows in one request; leave some out");
    next->payload = append_definitions(context.kind, payload, *tools);
    auto names = std::make_shared<std::vector<std::string>>(context.static_names.begin(), context.static_names.end());
    names->insert(names->end(), next->names.begin(), next->names.end());
    added = {std::move(next), std::make_shared<const std::vector<dynamic_tool>>(std::move(*tools)), std::move(names)};
    return {};
}

AGENTRY_DECL void catalog_tools(tool_catalog& catalog, const std::vector<dynamic_tool>& added) {
    for (const dynamic_tool& t : added) {
        std::string description;
        const json::parsed read = json::parse(t.definition);
        const json::value* d = read.value.find("description");
        if (!d) {
            const json::value* f = read.value.find("function");
            d = f ? f->find("description") : nullptr;
        }
        if (d && d->is_string()) description = d->as_string();
        catalog.add_owned(t.name, t.definition, std::move(description), t.category, t.always_sent, true);
    }
}

AGENTRY_TEMPLATE_DEF
bool call_dynamic_tool(const std::vector<dynamic_tool>& tools, std::string_view name,
                       std::string_view arguments, const call_scope& scope, std::size_t cap,
                       tool_result& out) {
    for (const dynamic_tool& t : tools) {
        if (t.name != name) continue;
        try {
            out = t.call(arguments, scope);
            if (cut_text(out.content, cap)) out.truncated = true;
        } catch (const std::exception& e) {
            out = tool_result{};
            out.status = tool_status::tool_error;
            out.content = t.name + " failed: " + e.what();
        } catch (...) {
            out = tool_result{};
            out.status = tool_status::tool_error;
            out.content = t.name + " failed with an unknown exception";
        }
        return true;
    }
    return false;
}

AGENTRY_TEMPLATE_DEF
void name_unknown_tool(tool_result& out, std::string_view name, const std::vector<std::string>& names) {
    try {
        out.content = unknown_tool_text(name, names);
    } catch (...) {  // the registry's answer stays
    }
}

} // namespace agentry::detail

#endif
