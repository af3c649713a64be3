// SPDX-License-Identifier: BSL-1.0
#ifndef AGENTRY_SELECT_IMPL_SELECTOR_IPP
#define AGENTRY_SELECT_IMPL_SELECTOR_IPP

// The definitions of select/selector.hpp: included by it header-only, and by <agentry/src.hpp>
// in separate compilation (detail/separate.hpp).

#include <agentry/detail/separate.hpp>
#include <agentry/select/selector.hpp>

#include <algorithm>
#include <cstddef>
#include <map>
#include <numeric>
#include <span>
#include <string_view>
#include <utility>
#include <vector>

namespace agentry {

AGENTRY_DECL void selector_sum::score(const tool_catalog& catalog, const turn_query& query, std::span<double> out) {
    for (const part& p : parts_) {
        scratch_.assign(out.size(), 0.0);
        p.scorer.score(catalog, query, scratch_);
        const double top = scratch_.empty() ? 0.0 : *std::max_element(scratch_.begin(), scratch_.end());
        if (!(top > 0)) continue;
        const double scale = p.weight / top;
        for (std::size_t i = 0; i != out.size(); ++i)
            if (scratch_[i] > 0) out[i] += scratch_[i] * scale;
    }
}

AGENTRY_DECL selector_sum operator*(selector s, double w) { return selector_sum({{std::move(s), w}}); }

AGENTRY_DECL selector_sum operator+(selector_sum a, selector_sum b) {
    std::vector<selector_sum::part> parts = a.parts();
    parts.insert(parts.end(), b.parts().begin(), b.parts().end());
    return selector_sum(std::move(parts));
}

AGENTRY_DECL selector_sum operator+(selector_sum a, selector b) { return std::move(a) + std::move(b) * 1.0; }

AGENTRY_DECL selector_sum operator+(selector a, selector_sum b) { return std::move(a) * 1.0 + std::move(b); }

AGENTRY_DECL std::vector<std::size_t> highest(std::span<const double> scores, std::size_t k) {
    std::vector<std::size_t> order;
    order.reserve(scores.size());
    for (std::size_t i = 0; i != scores.size(); ++i)
        if (scores[i] > 0) order.push_back(i);
    const auto before = [&](std::size_t a, std::size_t b) {
        return scores[a] > scores[b] || (scores[a] == scores[b] && a < b);
    };
    if (order.size() > k) {
        std::nth_element(order.begin(), order.begin() + std::ptrdiff_t(k), order.end(), before);
        order.resize(k);
    }
    std::sort(order.begin(), order.end(), before);
    return order;
}

AGENTRY_DECL tool_chooser top_k(selector s, std::size_t k, top_k_options options) {
    return [s = std::move(s), k, options, scores = std::make_shared<std::vector<double>>()](
               const tool_catalog& catalog, const turn_query& query) {
        scores->assign(catalog.size(), 0.0);
        s.score(catalog, query, *scores);
        active_tools chosen;
        chosen.indices = highest(*scores, k);
        if (chosen.indices.empty() && options.all_without_evidence) return active_tools::every();
        if (options.keep_called)
            for (const std::string& name : query.called)
                if (std::optional<std::size_t> i = catalog.find(name)) chosen.indices.push_back(*i);
        return chosen;
    };
}

AGENTRY_DECL void by_category::score(const tool_catalog& catalog, const turn_query& query, std::span<double> out) {
    scratch_.assign(out.size(), 0.0);
    inner_.score(catalog, query, scratch_);
    std::map<std::string_view, double> best;
    for (std::size_t i = 0; i != catalog.size(); ++i) {
        const std::string_view c = catalog[i].category;
        if (c.empty()) continue;
        double& b = best[c];
        b = std::max(b, scratch_[i]);
    }
    std::vector<std::pair<std::string_view, double>> ranked(best.begin(), best.end());
    std::stable_sort(ranked.begin(), ranked.end(), [](const auto& a, const auto& b) { return a.second > b.second; });
    if (ranked.size() > keep_) ranked.resize(keep_);
    for (std::size_t i = 0; i != catalog.size(); ++i) {
        const std::string_view c = catalog[i].category;
        const bool kept = c.empty() || std::any_of(ranked.begin(), ranked.end(), [&](const auto& r) {
                              return r.first == c && r.second > 0;
                          });
        if (kept) out[i] += scratch_[i];
    }
}

} // namespace agentry

#endif
