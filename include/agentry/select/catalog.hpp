// SPDX-License-Identifier: BSL-1.0
#ifndef AGENTRY_SELECT_CATALOG_HPP
#define AGENTRY_SELECT_CATALOG_HPP

// The tools an agent can send, one entry each, and the choice of those sent on one turn:
//
//   agentry::agent<config> agent{model, tools, {.select_tools = agentry::top_k(agentry::bm25{}, 8)}};
//
// An entry's definition is its constant fragment of the tools payload in the agent's dialect
// (registry::definition_fragments<D>(), or an added tool's definition): the payload of any
// subset is those fragments joined in catalog order (the registry's order, then the added
// tools' in the order they joined), so that the same subset gives the same bytes and a
// provider's prompt cache keeps hitting. No schema is written at run time.
//
// A tool_chooser is called before each model turn with the catalog and what the turn is
// about (turn_query); it returns the entries to send (active_tools). Entries marked `always`
// (the agent's built-in tools) are sent whatever it returns. A tool left out of a turn can
// still be called (the model may remember it): choosing tools shapes what the model is shown,
// the tools' policies decide what runs.

#include <agentry/detail/separate.hpp>
#include <agentry/provider/message.hpp>
#include <agentry/schema/dialect.hpp>

#include <cstddef>
#include <cstdint>
#include <functional>
#include <memory>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <vector>

namespace agentry {

/// One tool of an agent.
struct catalog_entry {
    std::string_view name;
    /// Its fragment of the tools payload (one element of the array; for Gemini one function
    /// declaration), in the agent's dialect.
    std::string_view definition;
    std::string_view description;
    /// The tool's category (agentry::in_category, dynamic_tool::category); empty: none.
    std::string_view category;
    /// Sent on every turn, whatever a chooser returns.
    bool always = false;
    /// Added at run time (agent::add_tools), not in the registry.
    bool added = false;
};

/// The tools of an agent, in a fixed order.
class tool_catalog {
public:
    tool_catalog() = default;
    explicit tool_catalog(dialect_kind kind) noexcept : kind_(kind) {}

    dialect_kind kind() const noexcept { return kind_; }
    std::span<const catalog_entry> entries() const noexcept { return entries_; }
    std::size_t size() const noexcept { return entries_.size(); }
    const catalog_entry& operator[](std::size_t i) const noexcept { return entries_[i]; }
    /// The index of the tool `name`.
    AGENTRY_DECL std::optional<std::size_t> find(std::string_view name) const noexcept;
    /// Changes each time tools join, so that an index built from the catalog knows it is stale.
    std::uint64_t version() const noexcept { return version_; }

    /// Adds an entry whose texts the catalog keeps a copy of.
    AGENTRY_DECL void add_owned(std::string name, std::string definition, std::string description,
                                std::string category, bool always, bool added);
    /// Adds an entry whose texts outlive the catalog (constants).
    AGENTRY_DECL void add_constant(const catalog_entry& entry);

    /// The tools payload of the entries `chosen` (indices in any order, repeats allowed) and
    /// every `always` entry, in catalog order: a JSON array in the dialect's shape (Gemini:
    /// [{"functionDeclarations":[...]}]), "[]" when none.
    AGENTRY_DECL std::string payload(std::span<const std::size_t> chosen) const;
    /// The payload of every entry, with those not `chosen` (and not `always`) marked
    /// "defer_loading":true: the form of Anthropic's and OpenAI's tool search, whose deferred
    /// tools the model sees only once a search returns them.
    AGENTRY_DECL std::string deferred_payload(std::span<const std::size_t> chosen) const;

private:
    AGENTRY_DECL std::vector<bool> marks(std::span<const std::size_t> chosen) const;

    dialect_kind kind_ = dialect_kind::standard;
    std::vector<catalog_entry> entries_;
    std::vector<std::shared_ptr<const std::string>> owned_;
    std::uint64_t version_ = 0;
};

/// What a turn is about, for choosing its tools.
struct turn_query {
    /// The conversation the turn sends (system prompt, user messages, replies, results).
    std::span<const message> conversation;
    /// The turn's number in the run, from 1.
    std::uint32_t turn = 1;
    /// The text to choose by: the latest user message.
    std::string_view text;
    /// The tools called in the conversation so far, oldest first.
    std::span<const std::string> called;

    /// The query of `conversation` at `turn`; `called` must outlive it.
    AGENTRY_DECL static turn_query of(std::span<const message> conversation, std::uint32_t turn,
                                      std::vector<std::string>& called);
};

/// The tools a chooser sends on a turn: catalog indices.
struct active_tools {
    std::vector<std::size_t> indices;
    /// The entries named, by name; an unknown name is an error the agent reports (a tool_chooser
    /// that names tools of a registry at compile time uses agentry::tool_names<Registry>).
    std::vector<std::string> names;
    /// Every tool is sent, as without a chooser.
    bool all = false;
    /// Every tool is sent, those not chosen marked "defer_loading":true
    /// (tool_catalog::deferred_payload): for providers' native tool search.
    bool defer_others = false;

    static active_tools every() {
        active_tools a;
        a.all = true;
        return a;
    }
};

/// Chooses the tools of each turn (agent_options::select_tools). An exception stops the run
/// with stop_reason::callback_error.
using tool_chooser = std::function<active_tools(const tool_catalog&, const turn_query&)>;

namespace detail {

/// `fragment` (one tool object) with "defer_loading":true as its last member.
AGENTRY_DECL std::string deferred(std::string_view fragment);

} // namespace detail

} // namespace agentry

#if !defined(AGENTRY_SEPARATE_COMPILATION)
#include <agentry/select/impl/catalog.ipp>
#endif

#endif
