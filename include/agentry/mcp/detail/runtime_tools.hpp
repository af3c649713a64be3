// SPDX-License-Identifier: BSL-1.0
#ifndef AGENTRY_MCP_DETAIL_RUNTIME_TOOLS_HPP
#define AGENTRY_MCP_DETAIL_RUNTIME_TOOLS_HPP

// The tools an MCP server serves beside its registry, added and removed while it runs
// (server::add_tools, server::remove_tool): the same dynamic_tool an agent's add_tools takes,
// from the same sources (mcp::toolset: a gateway to other servers' tools). Each is listed from
// its definition (the MCP dialect's tools/list entry) with the annotations its policy implies,
// and called as a registry tool is: its arguments read by the typed reader's rules and checked
// against its inputSchema, then its policy's rate limit, retries and timeout by the agent's own
// layers (approval and the ceiling are the server's, as for registry tools).
//
// Readers take a snapshot (a shared_ptr to an immutable list) under a short lock; a change
// builds a new list, so a call in progress keeps the tool it started with.

#include <agentry/call_scope.hpp>
#include <agentry/detail/text.hpp>
#include <agentry/json/schema_check.hpp>
#include <agentry/json/value.hpp>
#include <agentry/loop/dynamic_tools.hpp>
#include <agentry/mcp/detail/argument_check.hpp>
#include <agentry/mcp/detail/served_policies.hpp>
#include <agentry/mcp/detail/tool_listing.hpp>
#include <agentry/mcp/version.hpp>
#include <agentry/policy/layers/rate_limit.hpp>
#include <agentry/policy/layers/retry.hpp>
#include <agentry/policy/layers/timeout.hpp>
#include <agentry/policy/pipeline.hpp>
#include <agentry/policy/token_bucket.hpp>
#include <agentry/tool_result.hpp>

#include <array>
#include <cstddef>
#include <exception>
#include <memory>
#include <mutex>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace agentry::mcp::detail {

struct runtime_tool {
    dynamic_tool tool;
    /// Its tools/list entry for each served version.
    std::array<std::string, served_protocol_versions.size()> listed;
    /// Null when the definition has no inputSchema.
    std::shared_ptr<const json::schema_checker> checker;
    std::shared_ptr<rate_limiter> limits;
};

using runtime_list = std::vector<std::shared_ptr<const runtime_tool>>;

class runtime_tools {
public:
    runtime_tools() {
        layers_.push_back(std::make_unique<rate_limit_layer>(fixed_duration{}));
        layers_.push_back(std::make_unique<retry_layer>());
        layers_.push_back(std::make_unique<timeout_layer>(fixed_duration{}, agentry::detail::make_running_calls()));
    }
    runtime_tools(const runtime_tools&) = delete;
    runtime_tools& operator=(const runtime_tools&) = delete;

    std::shared_ptr<const runtime_list> snapshot() const {
        std::lock_guard lock(mutex_);
        return list_;
    }

    /// The tool named `name`, or null.
    std::shared_ptr<const runtime_tool> find(std::string_view name) const {
        const std::shared_ptr<const runtime_list> list = snapshot();
        for (const auto& t : *list)
            if (t->tool.name == name) return t;
        return nullptr;
    }

    /// Adds the tools of `source` (all or none): "" when added, else why not (after "agentry:
    /// mcp::server::add_tools: "). `taken` says whether the registry has a name.
    template <class Taken>
    std::string add(const dynamic_tool_source& source, const dynamic_tools_target& base, const Taken& taken) {
        if (!source) return "the tool source is empty";
        std::lock_guard one(adding_);
        auto next = std::make_shared<runtime_list>(*snapshot());
        dynamic_tools_target target = base;
        target.taken = [&](std::string_view name) {
            if (taken(name)) return true;
            for (const auto& t : *next)
                if (t->tool.name == name) return true;
            return false;
        };
        outcome<std::vector<dynamic_tool>> tools = [&]() -> outcome<std::vector<dynamic_tool>> {
            try {
                return source(target);
            } catch (const std::exception& e) {
                return fail(failure_kind::permanent, std::string("the tool source threw: ") + e.what());
            }
        }();
        if (!tools) return tools.error().message;
        for (dynamic_tool& t : *tools) {
            const std::string quoted = "tool \"" + agentry::detail::printable(t.name, 130) + "\": ";
            if (!agentry::detail::printable_tool_name(t.name))
                return t.name.empty() ? "a tool has an empty name; name it; nothing was added"
                                      : quoted + "its name holds a control character; nothing was added";
            if (target.taken(t.name))
                return quoted + "the server already has a tool of this name; give the source a prefix for its "
                                "names; nothing was added";
            if (!t.call) return quoted + "it has no call; nothing was added";
            std::string problem = t.policy ? agentry::detail::dynamic_policy_problem(*t.policy) : std::string();
            const permission level = t.policy ? t.policy->level : permission::destructive;
            if (problem.empty() && level > target.max_permission && !(t.policy && t.policy->needs_approval))
                problem = "its permission level, " + std::string(to_string(level)) +
                          (t.policy ? "" : " (it has no policy)") + ", is above the server's mcp::ceiling, " +
                          std::string(to_string(target.max_permission)) +
                          ", and it needs no approval; give it a policy with needs_approval = true or a lower level";
            if (!problem.empty()) return quoted + problem + "; nothing was added";
            auto entry = std::make_shared<runtime_tool>();
            if (std::string why = describe(t, *entry); !why.empty()) return quoted + why + "; nothing was added";
            if (t.policy && t.policy->rate.limited())
                entry->limits = std::make_shared<rate_limiter>(std::span(&*t.policy, 1));
            entry->tool = std::move(t);
            next->push_back(std::move(entry));
        }
        std::lock_guard lock(mutex_);
        list_ = std::move(next);
        return {};
    }

    /// Removes the tool `name`; false when there is none.
    bool remove(std::string_view name) {
        std::lock_guard one(adding_);
        auto next = std::make_shared<runtime_list>(*snapshot());
        const std::size_t before = next->size();
        std::erase_if(*next, [&](const auto& t) { return t->tool.name == name; });
        if (next->size() == before) return false;
        std::lock_guard lock(mutex_);
        list_ = std::move(next);
        return true;
    }

    /// Appends ",<entry>" for each tool to a tools/list array for the version at `version`.
    static void append_listed(std::string& out, const runtime_list& list, std::size_t version, bool first) {
        for (const auto& t : list) {
            if (!first) out += ',';
            first = false;
            out += t->listed[version];
        }
    }

    /// Calls `t` with `arguments`: read by the typed reader's rules, checked against its
    /// inputSchema, then through its policy's layers; the result cut at `cap`.
    tool_result call(const runtime_tool& t, std::string_view arguments, const call_scope& scope,
                     const json::read_options& read, std::size_t cap) const {
        const std::string& name = t.tool.name;
        json::parsed args = json::parse(arguments, read);
        if (!args.ok() || !args.value.is_object())
            return failed(tool_status::invalid_arguments,
                          name + ": invalid arguments: " +
                              (args.ok() ? std::string("not a JSON object") : join_read_errors(args.errors)) +
                              ". Send a JSON object and call " + name + " again.");
        if (t.checker)
            if (const std::vector<json::read_error> problems = (*t.checker)(args.value); !problems.empty())
                return failed(tool_status::invalid_arguments, name + ": invalid arguments: " +
                                                                  join_read_errors(problems) +
                                                                  ". Fix the arguments and call " + name + " again.");
        tool_invocation invocation;
        invocation.call.name = name;
        invocation.call.arguments = std::string(arguments);
        invocation.stop = scope.stop;
        if (t.tool.policy) invocation.rules.policy = &*t.tool.policy;
        invocation.rules.limits = t.limits.get();
        const auto relay = std::make_shared<progress_relay>(scope.on_progress);
        const call_target target = [tool = t.tool.call, relay](const tool_invocation& c) {
            const call_scope tried{.stop = c.stop, .on_progress = [relay](const progress_update& u) { (*relay)(u); }};
            try {
                return tool(c.call.arguments, tried);
            } catch (const std::exception& e) {
                return failed(tool_status::tool_error, c.call.name + " failed: " + e.what());
            } catch (...) {
                return failed(tool_status::tool_error, c.call.name + " failed");
            }
        };
        tool_result out = t.tool.policy ? call_chain(layers_, target)(invocation) : target(invocation);
        relay->close();
        if (cap != 0 && out.content.size() > cap) {
            out.content.resize(cap);
            out.truncated = true;
        }
        return out;
    }

private:
    static tool_result failed(tool_status status, std::string text) { return mcp_tool_result(status, std::move(text)); }

    // The entry's listings and checker from the tool's definition: "" or what is wrong.
    static std::string describe(const dynamic_tool& t, runtime_tool& entry) {
        json::parsed d = json::parse(t.definition);
        if (!d.ok() || !d.value.is_object())
            return "its definition is not a JSON object (an MCP tools/list entry: name, description, inputSchema)";
        const json::value* named = d.value.find("name");
        if (!named || named->as_string() != t.name)
            return "its definition's name is not \"" + agentry::detail::printable(t.name, 130) + "\"";
        if (const json::value* schema = d.value.find("inputSchema")) {
            if (!schema->is_object()) return "its definition's inputSchema is not an object";
            entry.checker = std::make_shared<const json::schema_checker>(*schema);
            if (const auto* p = broken_pattern(*entry.checker, entry.checker->schema()))
                return "its inputSchema's pattern \"" + agentry::detail::printable(p->source, 100) +
                       "\" is not a valid ECMA-262 regular expression (" + p->error + ")";
        }
        const tool_hints hints = policy_hints(t.policy.has_value(), t.policy.value_or(tool_policy{}));
        const annotation_text extra = annotation_members({}, hints);
        const bool annotated = d.value.find("annotations") != nullptr;
        const std::string text = json::to_text(d.value);
        for (std::size_t v = 0; v != served_protocol_versions.size(); ++v) {
            const protocol_features f = features_of(served_protocol_versions[v]);
            std::string& out = entry.listed[v];
            out = text.substr(0, text.size() - 1);
            if (f.tool_annotations && !annotated) out += extra.hints;
            out += '}';
        }
        return {};
    }

    mutable std::mutex mutex_;
    std::mutex adding_;  // one change at a time
    std::shared_ptr<const runtime_list> list_ = std::make_shared<runtime_list>();
    std::vector<std::unique_ptr<call_layer>> layers_;
};

} // namespace agentry::mcp::detail

#endif
