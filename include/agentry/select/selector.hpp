// SPDX-License-Identifier: BSL-1.0
#ifndef AGENTRY_SELECT_SELECTOR_HPP
#define AGENTRY_SELECT_SELECTOR_HPP

// agentry::selector: scores every tool of a catalog for a turn, and the choosers made of one.
//
//   auto choose = agentry::top_k(agentry::bm25::of(tools) * 0.7 + agentry::learned_boost{table} * 0.3, 8);
//   agentry::agent<config> agent{model, tools, {.select_tools = choose}};
//
// A scorer is any object with
//   void score(const tool_catalog&, const turn_query&, std::span<double> scores);
// that adds its evidence for entry i to scores[i] (0: none; higher: more relevant); it is kept
// by a shared pointer, so a copy of the selector shares its caches. Selectors compose: a sum
// scales each part to [0, 1] (by its highest score on the turn) before weighting it, so parts
// measured in different units (BM25, cosine, counts) add up.

#include <agentry/detail/separate.hpp>
#include <agentry/select/catalog.hpp>

#include <concepts>
#include <cstddef>
#include <memory>
#include <span>
#include <string_view>
#include <utility>
#include <vector>

namespace agentry {

template <class S>
concept tool_scorer = requires(S& s, const tool_catalog& c, const turn_query& q, std::span<double> out) {
    s.score(c, q, out);
};

/// A scorer, type-erased and shared.
class selector {
public:
    selector() = default;
    template <tool_scorer S>
        requires(!std::same_as<std::remove_cvref_t<S>, selector>)
    selector(S scorer)  // NOLINT(google-explicit-constructor): selectors convert as they compose
        : part_(std::make_shared<model<S>>(std::move(scorer))) {}

    /// Adds the scores of the catalog's entries for `query` to `out` (out.size() == catalog.size()).
    void score(const tool_catalog& catalog, const turn_query& query, std::span<double> out) const {
        if (part_) part_->score(catalog, query, out);
    }
    explicit operator bool() const noexcept { return part_ != nullptr; }

private:
    struct concept_t {
        virtual ~concept_t() = default;
        virtual void score(const tool_catalog&, const turn_query&, std::span<double>) = 0;
    };
    template <class S>
    struct model final : concept_t {
        explicit model(S s) : scorer(std::move(s)) {}
        void score(const tool_catalog& c, const turn_query& q, std::span<double> out) override { scorer.score(c, q, out); }
        S scorer;
    };
    std::shared_ptr<concept_t> part_;
};

/// Parts scaled to [0, 1] on each turn, weighted and added.
class selector_sum {
public:
    struct part {
        selector scorer;
        double weight = 1;
    };
    selector_sum() = default;
    explicit selector_sum(std::vector<part> parts) : parts_(std::move(parts)) {}
    AGENTRY_DECL void score(const tool_catalog& catalog, const turn_query& query, std::span<double> out);
    const std::vector<part>& parts() const noexcept { return parts_; }

private:
    std::vector<part> parts_;
    std::vector<double> scratch_;
};

/// `s` weighted by `w` (as a part of a sum).
AGENTRY_DECL selector_sum operator*(selector s, double w);
AGENTRY_DECL selector_sum operator+(selector_sum a, selector_sum b);
AGENTRY_DECL selector_sum operator+(selector_sum a, selector b);
AGENTRY_DECL selector_sum operator+(selector a, selector_sum b);

/// How top_k chooses.
struct top_k_options {
    /// Tools called earlier in the conversation are sent again (a model often calls them again).
    bool keep_called = true;
    /// With no evidence for any tool (every score 0): every tool is sent; false: none but the
    /// agent's built-in tools.
    bool all_without_evidence = true;
};

/// A chooser sending the `k` tools `s` scores highest (ties in catalog order), only those
/// scoring above 0.
AGENTRY_DECL tool_chooser top_k(selector s, std::size_t k, top_k_options options = {});

/// Two stages: the categories whose tools `s` scores highest (a category's score is its best
/// tool's), at most `categories` of them, then only the tools of those categories keep their
/// score (tools without a category always keep theirs).
class by_category {
public:
    by_category(selector s, std::size_t categories) : inner_(std::move(s)), keep_(categories) {}
    AGENTRY_DECL void score(const tool_catalog& catalog, const turn_query& query, std::span<double> out);

private:
    selector inner_;
    std::size_t keep_;
    std::vector<double> scratch_;
};

/// The indices of the `k` highest of `scores` above 0, highest first, ties in index order.
AGENTRY_DECL std::vector<std::size_t> highest(std::span<const double> scores, std::size_t k);

} // namespace agentry

#if !defined(AGENTRY_SEPARATE_COMPILATION)
#include <agentry/select/impl/selector.ipp>
#endif

#endif
