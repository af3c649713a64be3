// SPDX-License-Identifier: BSL-1.0
#ifndef AGENTRY_LOOP_TOOL_SEARCH_SOURCE_HPP
#define AGENTRY_LOOP_TOOL_SEARCH_SOURCE_HPP

// A tool search (select/tool_search.hpp) as a tool added to an agent, in one call
//
//   auto search = agentry::enable_tool_search(agent, agentry::bm25::of(tools));
//
// or in two, with a catalog of one's own:
//
//   agent.add_tools(agentry::tool_search_source(search));
//   agent.select_tools(agentry::searched_tools(search));
//
// The search tool joins with its definition in the search's form, tool_search::policy() (read
// only, idempotent), so its calls pass the agent's call pipeline as any added tool's do, and
// always_sent (sent on every turn, never deferred, whatever agent_options::select_tools chooses).
// An agent of another dialect than the search's catalog refuses it.

#include <agentry/loop/dynamic_tools.hpp>
#include <agentry/outcome.hpp>
#include <agentry/select/tool_search.hpp>

#include <optional>
#include <stdexcept>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace agentry {

/// The source adding `search` to an agent (agent::add_tools).
inline dynamic_tool_source tool_search_source(tool_search search) {
    return [search = std::move(search)](const dynamic_tools_target& target) -> outcome<std::vector<dynamic_tool>> {
        if (target.kind != search.catalog().kind())
            return fail(failure_kind::invalid_input,
                        "agentry: tool_search_source: the search's catalog is in another dialect than the agent's; "
                        "build the catalog for the agent's provider");
        dynamic_tool tool;
        tool.name = std::string(search.name());
        tool.definition = std::string(search.definition());
        tool.call = [search](std::string_view arguments, const call_scope&) { return search.call(arguments); };
        tool.policy = tool_search::policy();
        tool.always_sent = true;
        std::vector<dynamic_tool> tools;
        tools.push_back(std::move(tool));
        return tools;
    };
}

/// Gives `agent` a tool search over its tools (its catalog: the registry's and those added so
/// far) scored by `scorer`: the search tool joins (tool_search_source) and each turn's tools
/// become the search's choice (searched_tools). Tools added later are not searched: add them
/// first. The search, or why it could not be made or added (nothing changed then).
template <class Agent>
outcome<tool_search> enable_tool_search(Agent& agent, selector scorer, tool_search_options options = {}) {
    std::optional<tool_search> search;
    try {
        search.emplace(agent.catalog(), std::move(scorer), std::move(options));
    } catch (const std::invalid_argument& e) {
        return fail(failure_kind::invalid_input, e.what());
    }
    if (outcome<void> added = agent.add_tools(tool_search_source(*search)); !added) return std::move(added).error();
    agent.select_tools(searched_tools(*search));
    return std::move(*search);
}

} // namespace agentry

#endif
