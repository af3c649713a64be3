// SPDX-License-Identifier: BSL-1.0
#ifndef AGENTRY_LOOP_DETAIL_FEATURES_HPP
#define AGENTRY_LOOP_DETAIL_FEATURES_HPP

// Which parts of the engine (loop/engine.hpp) an agent needs, decided at compile time from its
// loop_config and its registry's policies: a part nothing needs is not even referenced, so a
// header-only program does not compile it.

#include <agentry/loop/config.hpp>
#include <agentry/loop/engine.hpp>
#include <agentry/policy/approval.hpp>
#include <agentry/policy/detail/threads.hpp>

#include <algorithm>

namespace agentry::detail {

/// The engine's parts an agent with `Config` and a registry whose policies are `Policies`
/// (registry_policies<R>) uses; header-only, only they are compiled.
template <loop_config Config, class Policies>
engine_features features_of() {
    namespace parts = engine_parts;
    static constexpr loop_config config = Config;  // AGENTRY_WORKAROUND_CLASS_NTTP_READS (config.hpp)
    constexpr auto any = [](auto pred) {
        if constexpr (Policies::any) return std::any_of(Policies::table.begin(), Policies::table.end(), pred);
        else return false;
    };
    engine_features f;
    if constexpr (config.large_results != large_result::cut) f.large_results = &parts::large_results;
    if constexpr (any([](const tool_policy& p) { return p.needs_approval; })) {
        f.canonical = &parts::canonical;
        f.approval = &parts::approval;
        f.canonical_text = &canonical_json;
    }
    if constexpr (config.max_permission != permission::destructive) f.ceiling = &parts::ceiling;
    if constexpr (Policies::any_rate) f.rate_limit = &parts::rate_limit;
    if constexpr (any([](const tool_policy& p) { return !p.fallback.empty(); })) f.fallback = &parts::fallback;
    if constexpr (!config.tool_timeout.is_zero() || any([](const tool_policy& p) { return !p.timeout.is_zero(); }))
        f.timeout = &parts::timeout;
    if constexpr (config.context_budget_tokens != 0) f.fit = &parts::fit;
    if constexpr (config.context_budget_tokens != 0 && config.compression == context_compression::summary)
        f.compress = &parts::compress;
    if constexpr (config.parallel_tool_calls) f.run_workers = &run_workers;
    return f;
}

} // namespace agentry::detail

#endif
