// SPDX-License-Identifier: BSL-1.0
#ifndef AGENTRY_SELECT_IMPL_CATALOG_IPP
#define AGENTRY_SELECT_IMPL_CATALOG_IPP

// The definitions of select/catalog.hpp: included by it header-only, and by <agentry/src.hpp>
// in separate compilation (detail/separate.hpp).

#include <agentry/detail/separate.hpp>
#include <agentry/select/catalog.hpp>

#include <cstddef>
#include <memory>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace agentry {

AGENTRY_DECL std::optional<std::size_t> tool_catalog::find(std::string_view name) const noexcept {
    for (std::size_t i = 0; i != entries_.size(); ++i)
        if (entries_[i].name == name) return i;
    return std::nullopt;
}

AGENTRY_DECL void tool_catalog::add_owned(std::string name, std::string definition, std::string description,
                                          std::string category, bool always, bool added) {
    // One block per entry: the views stay valid however the vectors grow.
    auto block = std::make_shared<const std::string>(name + definition + description + category);
    const std::string_view all = *block;
    catalog_entry e;
    e.name = all.substr(0, name.size());
    e.definition = all.substr(name.size(), definition.size());
    e.description = all.substr(name.size() + definition.size(), description.size());
    e.category = all.substr(name.size() + definition.size() + description.size());
    e.always = always;
    e.added = added;
    owned_.push_back(std::move(block));
    entries_.push_back(e);
    ++version_;
}

AGENTRY_DECL void tool_catalog::add_constant(const catalog_entry& entry) {
    entries_.push_back(entry);
    ++version_;
}

AGENTRY_DECL std::vector<bool> tool_catalog::marks(std::span<const std::size_t> chosen) const {
    std::vector<bool> on(entries_.size(), false);
    for (std::size_t i : chosen)
        if (i < on.size()) on[i] = true;
    for (std::size_t i = 0; i != entries_.size(); ++i)
        if (entries_[i].always) on[i] = true;
    return on;
}

AGENTRY_DECL std::string tool_catalog::payload(std::span<const std::size_t> chosen) const {
    const std::vector<bool> on = marks(chosen);
    const bool gemini = kind_ == dialect_kind::gemini;
    std::size_t size = 2;
    for (std::size_t i = 0; i != entries_.size(); ++i)
        if (on[i]) size += entries_[i].definition.size() + 1;
    std::string out;
    out.reserve(size + (gemini ? 26 : 0));
    out += gemini ? "[{\"functionDeclarations\":[" : "[";
    bool first = true;
    for (std::size_t i = 0; i != entries_.size(); ++i) {
        if (!on[i]) continue;
        if (!first) out += ',';
        first = false;
        out += entries_[i].definition;
    }
    if (gemini && first) return "[]";  // Gemini refuses an empty functionDeclarations
    out += gemini ? "]}]" : "]";
    return out;
}

AGENTRY_DECL std::string tool_catalog::deferred_payload(std::span<const std::size_t> chosen) const {
    const std::vector<bool> on = marks(chosen);
    std::string out = "[";
    for (std::size_t i = 0; i != entries_.size(); ++i) {
        if (i != 0) out += ',';
        if (on[i]) out += entries_[i].definition;
        else out += detail::deferred(entries_[i].definition);
    }
    out += ']';
    return out;
}

AGENTRY_DECL turn_query turn_query::of(std::span<const message> conversation, std::uint32_t turn,
                                       std::vector<std::string>& called) {
    turn_query q;
    q.conversation = conversation;
    q.turn = turn;
    called.clear();
    for (const message& m : conversation) {
        if (m.role == role::user) q.text = m.text;
        for (const tool_call& c : m.tool_calls) called.push_back(c.name);
    }
    q.called = called;
    return q;
}

namespace detail {

AGENTRY_DECL std::string deferred(std::string_view fragment) {
    std::string out(fragment);
    const std::size_t close = out.find_last_of('}');
    if (close == std::string::npos) return out;
    out.insert(close, ",\"defer_loading\":true");
    return out;
}

} // namespace detail

} // namespace agentry

#endif
