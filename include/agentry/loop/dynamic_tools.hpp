// SPDX-License-Identifier: BSL-1.0
#ifndef AGENTRY_LOOP_DYNAMIC_TOOLS_HPP
#define AGENTRY_LOOP_DYNAMIC_TOOLS_HPP

// Tools an agent learns at run time (an MCP server's, for one), next to its static registry:
// a name, the definition in the provider's dialect, and a function to call. A source gives
// them for the agent's dialect through agent::add_tools; the definitions join the tools
// payload and calls of those names go to the source's functions. The layers above the loop
// (mcp/toolset.hpp) adapt themselves to this; the loop knows nothing of them.

#include <agentry/call_scope.hpp>
#include <agentry/outcome.hpp>
#include <agentry/schema/dialect.hpp>
#include <agentry/tool_result.hpp>

#include <cstddef>
#include <exception>
#include <functional>
#include <memory>
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
    /// loop abandons at loop_config::tool_timeout.
    std::function<tool_result(std::string_view arguments, std::stop_token stop)> call;
};

/// What a source is told of the agent it joins.
struct dynamic_tools_target {
    dialect_kind kind = dialect_kind::standard;
    dialect_rules rules{};
    /// True for a name the agent already has (its registry's, or added before).
    std::function<bool(std::string_view)> taken;
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

/// What agent<> keeps of its dialect and registry for add_tools.
struct dynamic_context {
    dialect_kind kind = dialect_kind::standard;
    dialect_rules rules{};
    bool (*has_static)(std::string_view) noexcept = nullptr;
    std::size_t static_count = 0;

    template <class D, class Registry>
    static dynamic_context of() noexcept {
        return {D::kind, D::rules, +[](std::string_view name) noexcept { return Registry::find(name) != Registry::size(); },
                Registry::size()};
    }
};

/// The tools added so far and the payload that lists them with the registry's.
struct dynamic_state {
    std::string payload;
    std::vector<std::string> names;
};

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

/// agent::add_tools: asks `source` for its tools, appends their definitions to the payload
/// and routes calls of their names to them (other names to the calls before).
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
    outcome<std::vector<dynamic_tool>> tools = source(target);
    if (!tools) return std::move(tools).error();
    for (const dynamic_tool& t : *tools) {
        if (target.taken(t.name))
            return fail(failure_kind::invalid_input, "agentry: agent::add_tools: the agent already has a tool named \"" +
                                                         t.name + "\"; give the source a prefix for its names");
        if (!t.call) return fail(failure_kind::invalid_input, "agentry: agent::add_tools: " + t.name + " has no call");
        next->names.push_back(t.name);
    }
    const std::size_t total = context.static_count + next->names.size();
    if (total > context.rules.max_tools)
        return fail(failure_kind::invalid_input,
                    "agentry: agent::add_tools: " + std::to_string(total) + " tools, more than the " +
                        std::to_string(context.rules.max_tools) + " the " + std::string(context.rules.name) +
                        " dialect allows in one request; leave some out");
    next->payload = append_definitions(context.kind, payload, *tools);
    auto added = std::make_shared<const std::vector<dynamic_tool>>(std::move(*tools));
    // The rest of the call's arguments (the agent's scope and context) go to the registry.
    call = [previous = std::move(call), added](std::string_view name, std::string_view arguments,
                                               auto&&... rest) -> tool_result {
        for (const dynamic_tool& t : *added) {
            if (t.name != name) continue;
            try {
                return t.call(arguments, stop_of(rest...));
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
        return previous(name, arguments, rest...);
    };
    state = std::move(next);
    payload = state->payload;
    return {};
}

} // namespace detail
} // namespace agentry

#endif
