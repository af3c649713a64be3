// SPDX-License-Identifier: BSL-1.0
#ifndef AGENTRY_SELECT_TOOL_SEARCH_HPP
#define AGENTRY_SELECT_TOOL_SEARCH_HPP

// agentry::tool_search: a tool the model calls to find the tools it needs, backed by any
// agentry::selector, so that a turn need not show every tool:
//
//   agentry::tool_search search{catalog, agentry::bm25::of(tools)};
//   agentry::agent<config> agent{model, tools, {.select_tools = agentry::searched_tools(search)}};
//   agent.add_tools(agentry::tool_search_source(search));   // loop/tool_search_source.hpp
//
// The search scores the catalog it is given (the agent's tools in the agent's dialect); the
// chooser finds the chosen names in the agent's own catalog.
//
// The model calls it with {"query": string, "limit"?: integer 1..20}; it scores the catalog for
// the query (the search tool and `always` entries left out) and answers with the best matches
// scoring above 0. Its form follows the catalog's dialect:
//
//   portable          (OpenAI Chat, Gemini, Ollama, or tool_search_options::native false) an
//                     ordinary function tool; its result is [{"name","description"},...]; the
//                     chooser sends the search tool, the tools earlier results named and the
//                     tools already called, nothing else.
//   anthropic         a tool whose result is [{"type":"tool_reference","tool_name":...},...]
//                     (message::content_blocks: the Anthropic provider sends them as the
//                     tool_result's content, which loads those tools for the model); every tool
//                     is sent on each turn, those not found yet with "defer_loading":true.
//   openai_responses  the Responses API's {"type":"tool_search","execution":"client",...} tool;
//                     the model's tool_search_call is a call named "tool_search", its result the
//                     found tools' definitions, sent as the tool_search_output's `tools`; every
//                     function is sent, those not found yet with "defer_loading":true.
//
// What was found is read from the conversation (the results of earlier search calls), so it
// survives save()/restore() and resumed runs. A search costs one score of every entry.

#include <agentry/detail/separate.hpp>
#include <agentry/policy/tool_policy.hpp>
#include <agentry/provider/message.hpp>
#include <agentry/select/catalog.hpp>
#include <agentry/select/selector.hpp>
#include <agentry/tool_result.hpp>

#include <cstddef>
#include <cstdint>
#include <memory>
#include <span>
#include <string>
#include <string_view>
#include <vector>

namespace agentry {

enum class tool_search_form : unsigned char { portable, anthropic, openai_responses };

constexpr std::string_view to_string(tool_search_form f) noexcept {
    switch (f) {
    case tool_search_form::portable: return "portable";
    case tool_search_form::anthropic: return "anthropic";
    case tool_search_form::openai_responses: return "openai_responses";
    }
    return "portable";
}

struct tool_search_options {
    /// The provider's own tool search where the dialect has one (Anthropic, OpenAI Responses);
    /// false: the portable form whatever the dialect.
    bool native = true;
    /// The matches returned when the model gives no limit; from 1 to 20.
    std::uint32_t limit = 5;
    /// The tool's name in the portable and Anthropic forms (the Responses tool has none: its
    /// calls are named "tool_search").
    std::string name = "search_tools";
    std::string description = "Search the tools you can use by what they do, in a few words. Returns the tools "
                              "that match; call it before you need a tool you have not been given.";
};

/// A search tool over a catalog; copies share the catalog and the selector.
class tool_search {
public:
    /// Searches `catalog` (in the agent's dialect) with `scorer`. Throws std::invalid_argument
    /// ("agentry: tool_search: ...") for a limit outside 1..20, an empty name, or a name the
    /// catalog already has for another tool.
    AGENTRY_DECL tool_search(tool_catalog catalog, selector scorer, tool_search_options options = {});

    AGENTRY_DECL tool_search_form form() const noexcept;
    /// The name of its calls: options.name, or "tool_search" in the Responses form.
    AGENTRY_DECL std::string_view name() const noexcept;
    /// Its entry of the tools payload, in the catalog's dialect and the form's shape.
    AGENTRY_DECL std::string_view definition() const noexcept;
    AGENTRY_DECL const tool_catalog& catalog() const noexcept;
    /// Read only and idempotent: a search changes nothing.
    AGENTRY_DECL static tool_policy policy();

    /// The catalog indices of the best `limit` matches of `query`, best first, ties in catalog
    /// order; only entries scoring above 0, never the search tool or an `always` entry.
    AGENTRY_DECL std::vector<std::size_t> search(std::string_view query, std::size_t limit) const;
    /// Runs a call with the model's arguments: the matches in the form's shape (content_blocks
    /// in the Anthropic form), or invalid_arguments naming what is wrong.
    AGENTRY_DECL tool_result call(std::string_view arguments) const;
    /// The tools the results of earlier search calls in `conversation` named, first found first,
    /// each once (an error result names none).
    AGENTRY_DECL std::vector<std::string> found(std::span<const message> conversation) const;
    /// The entries to send on a turn: the search tool (when the catalog has it), the tools found
    /// and the tools called, the others deferred in the native forms (defer_others); never
    /// active_tools::every(). Names are looked up in `catalog` (the agent's).
    AGENTRY_DECL active_tools choose(const tool_catalog& catalog, const turn_query& query) const;
    /// The tools payload of a turn choosing `chosen` (choose()'s answer) from `catalog`, as the
    /// agent builds it, the search tool's definition appended when the catalog lacks it: the
    /// chosen entries, or with defer_others every entry, the others deferred.
    AGENTRY_DECL std::string payload(const tool_catalog& catalog, const active_tools& chosen) const;

private:
    struct state;
    std::shared_ptr<const state> state_;
};

/// The chooser of a tool search (agent_options::select_tools): tool_search::choose.
AGENTRY_DECL tool_chooser searched_tools(tool_search search);

} // namespace agentry

#if !defined(AGENTRY_SEPARATE_COMPILATION)
#include <agentry/select/impl/tool_search.ipp>
#endif

#endif
