// SPDX-License-Identifier: BSL-1.0
#ifndef AGENTRY_SELECT_BM25_HPP
#define AGENTRY_SELECT_BM25_HPP

// agentry::bm25: scores tools by Okapi BM25 between the turn's text (the latest user message)
// and each tool's name, description and parameters (its definition; select/detail/terms.hpp
// says how words become terms).
//
//   auto choose = agentry::top_k(agentry::bm25::of(tools), 8);     // the registry's terms are constants
//   auto choose = agentry::top_k(agentry::bm25{}, 8);              // every tool's terms read at run time
//
// bm25::of(registry) takes each registry tool's terms from a constant computed at compile time
// (one constant evaluation per tool, so large registries stay within the compilers' constexpr
// step limits); tools added at run time (add_tools) are read when they join. The postings (term
// -> tools) are assembled from those once per catalog version, in time linear in the terms.
// A turn then costs the query's terms times their postings, plus a partial sort in top_k.

#include <agentry/detail/separate.hpp>
#include <agentry/registry.hpp>
#include <agentry/schema/dialect.hpp>
#include <agentry/select/catalog.hpp>
#include <agentry/select/detail/terms.hpp>

#include <cstddef>
#include <cstdint>
#include <memory>
#include <span>
#include <string>
#include <string_view>
#include <unordered_map>
#include <utility>
#include <vector>

namespace agentry {

/// The parameters of agentry::bm25.
struct bm25_options {
    /// How fast repeating a term stops adding to a score.
    double k1 = 1.2;
    /// How much a long definition is discounted (0: not at all, 1: fully). Low by default: a long
    /// schema is rarely less relevant for being long. k1 and b were chosen on the selection
    /// fixture's tuning requests (benchmarks/select).
    double b = 0.2;
};

namespace detail {

/// The terms of registry tool I, from its standard-dialect definition, as a constant.
template <class Registry, std::size_t I>
struct registry_tool_terms {
    static constexpr std::string_view text = Registry::template definition_fragments<dialect::standard>()[I];
    static constexpr std::size_t size = count_terms(text, Registry::names[I]).size();
    static constexpr constant_terms<size> value = [] {
        constant_terms<size> out;
        const std::vector<term_count> all = count_terms(text, Registry::names[I]);
        for (std::size_t i = 0; i != size; ++i) {
            out.terms[i] = all[i];
            out.length += all[i].count;
        }
        return out;
    }();
};

/// One tool's terms: a view of a constant, or of terms read at run time.
struct tool_terms {
    std::string_view name;
    std::span<const term_count> terms;
    std::uint32_t length = 0;
};

template <class Registry, std::size_t... I>
std::vector<tool_terms> registry_terms(std::index_sequence<I...>) {
    return {tool_terms{Registry::names[I], registry_tool_terms<Registry, I>::value.terms,
                       registry_tool_terms<Registry, I>::value.length}...};
}

} // namespace detail

class bm25 {
public:
    using options = bm25_options;

    bm25() = default;
    explicit bm25(options o) : options_(o) {}

    /// BM25 whose registry tools' terms are constants of `tools`' type.
    template <class Registry>
    static bm25 of(const Registry&, options o = {}) {
        bm25 s(o);
        s.constants_ = std::make_shared<const std::vector<detail::tool_terms>>(
            detail::registry_terms<Registry>(std::make_index_sequence<Registry::size()>{}));
        return s;
    }

    /// Adds each entry's BM25 score for query.text to `out`.
    AGENTRY_DECL void score(const tool_catalog& catalog, const turn_query& query, std::span<double> out);
    /// The scores of `text` alone, for entries of `catalog` (out.size() == catalog.size()).
    AGENTRY_DECL void score_text(const tool_catalog& catalog, std::string_view text, std::span<double> out);

    /// Entry i's terms as the index holds them (after a score of that catalog), sorted by term.
    AGENTRY_DECL std::vector<detail::term_count> terms_of(std::size_t i) const;

private:
    struct posting {
        std::uint32_t tool;
        std::uint32_t count;
    };
    AGENTRY_DECL void index(const tool_catalog& catalog);

    options options_{};
    std::shared_ptr<const std::vector<detail::tool_terms>> constants_;
    // The index of one catalog version.
    const tool_catalog* indexed_ = nullptr;
    std::uint64_t version_ = 0;
    std::vector<std::vector<detail::term_count>> read_;  // terms read at run time, per entry
    std::vector<detail::tool_terms> tools_;              // per entry
    std::unordered_map<std::uint32_t, std::vector<posting>> postings_;
    double average_length_ = 0;
    std::vector<std::uint32_t> query_;
};

} // namespace agentry

#if !defined(AGENTRY_SEPARATE_COMPILATION)
#include <agentry/select/impl/bm25.ipp>
#endif

#endif
