// SPDX-License-Identifier: BSL-1.0
#ifndef AGENTRY_SELECT_IMPL_BM25_IPP
#define AGENTRY_SELECT_IMPL_BM25_IPP

// The definitions of select/bm25.hpp: included by it header-only, and by <agentry/src.hpp> in
// separate compilation (detail/separate.hpp).

#include <agentry/detail/separate.hpp>
#include <agentry/select/bm25.hpp>

#include <algorithm>
#include <cmath>
#include <cstddef>
#include <cstdint>
#include <span>
#include <string_view>
#include <vector>

namespace agentry {

AGENTRY_DECL void bm25::index(const tool_catalog& catalog) {
    if (indexed_ == &catalog && version_ == catalog.version() && tools_.size() == catalog.size()) return;
    read_.assign(catalog.size(), {});
    tools_.assign(catalog.size(), {});
    postings_.clear();
    double total = 0;
    for (std::size_t i = 0; i != catalog.size(); ++i) {
        const catalog_entry& e = catalog[i];
        detail::tool_terms t;
        const detail::tool_terms* constant = nullptr;
        // A registry's tools lead the catalog in the registry's order.
        if (constants_ && !e.added && i < constants_->size() && (*constants_)[i].name == e.name)
            constant = &(*constants_)[i];
        if (constant) {
            t = *constant;
        } else {
            read_[i] = detail::count_terms(e.definition, e.name);
            t.name = e.name;
            t.terms = read_[i];
            for (const detail::term_count& c : read_[i]) t.length += c.count;
        }
        tools_[i] = t;
        total += t.length;
        for (const detail::term_count& c : t.terms) postings_[c.term].push_back({std::uint32_t(i), c.count});
    }
    average_length_ = catalog.size() == 0 ? 0 : total / double(catalog.size());
    indexed_ = &catalog;
    version_ = catalog.version();
}

AGENTRY_DECL void bm25::score(const tool_catalog& catalog, const turn_query& query, std::span<double> out) {
    score_text(catalog, query.text, out);
}

AGENTRY_DECL void bm25::score_text(const tool_catalog& catalog, std::string_view text, std::span<double> out) {
    index(catalog);
    query_.clear();
    detail::for_each_term(text, [&](std::uint32_t t) { query_.push_back(t); });
    std::sort(query_.begin(), query_.end());
    query_.erase(std::unique(query_.begin(), query_.end()), query_.end());
    const double n = double(catalog.size());
    const double k1 = options_.k1;
    const double b = options_.b;
    for (std::uint32_t term : query_) {
        const auto found = postings_.find(term);
        if (found == postings_.end()) continue;
        const double df = double(found->second.size());
        const double idf = std::log(1.0 + (n - df + 0.5) / (df + 0.5));
        for (const posting& p : found->second) {
            const double tf = p.count;
            const double norm = average_length_ > 0 ? double(tools_[p.tool].length) / average_length_ : 1.0;
            out[p.tool] += idf * tf * (k1 + 1) / (tf + k1 * (1 - b + b * norm));
        }
    }
}

AGENTRY_DECL std::vector<detail::term_count> bm25::terms_of(std::size_t i) const {
    if (i >= tools_.size()) return {};
    return {tools_[i].terms.begin(), tools_[i].terms.end()};
}

} // namespace agentry

#endif
