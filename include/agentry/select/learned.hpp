// SPDX-License-Identifier: BSL-1.0
#ifndef AGENTRY_SELECT_LEARNED_HPP
#define AGENTRY_SELECT_LEARNED_HPP

// agentry::learned_boost: which tools follow which, learned from runs, as a scorer: after a
// call of `a`, each tool `b` scores P(b follows a), from the calls of the runs it learned from
// (the last tool called in the conversation counts fully, the one before it half).
//
//   agentry::learned_boost follows;
//   auto choose = agentry::top_k(agentry::bm25::of(tools) * 1.0 + follows * 0.5, 8);
//   ...
//   follows.learn(result);                                  // after each run
//   follows.save_to(store);                                 // sqlite_store or postgres_store
//   follows.load_from(store);                               // at start
//
// Copies share one table (a selector holds a copy); learning and scoring may happen on several
// threads. Saved as JSON text, {"version":1,"follows":{"a":{"b":3}}}, in a durable store's
// named values (store/sqlite.hpp, store/postgres.hpp: put_value, value) or anywhere else.

#include <agentry/detail/separate.hpp>
#include <agentry/policy/step.hpp>
#include <agentry/outcome.hpp>
#include <agentry/select/catalog.hpp>

#include <cstdint>
#include <map>
#include <memory>
#include <mutex>
#include <optional>
#include <span>
#include <string>
#include <string_view>

namespace agentry {

class learned_boost {
public:
    /// The key save_to and load_from use by default.
    static constexpr std::string_view default_key = "agentry.learned_boost";

    learned_boost() : table_(std::make_shared<table>()) {}

    /// Counts each pair of consecutive calls among `steps` (a run_result's, in order; sub-runs'
    /// own steps are theirs).
    AGENTRY_DECL void learn(std::span<const step> steps);
    /// learn(result.steps), for a run_result or typed_result.
    template <class Result>
        requires requires(const Result& r) { std::span<const step>(r.steps); }
    void learn(const Result& result) {
        learn(std::span<const step>(result.steps));
    }
    /// Counts `times` calls of `to` right after `from`.
    AGENTRY_DECL void record(std::string_view from, std::string_view to, std::uint32_t times = 1);
    /// P(`to` follows `from`): 0 when `from` was never followed by a call.
    AGENTRY_DECL double follows(std::string_view from, std::string_view to) const;

    /// Adds each entry's boost after the conversation's last calls to `out`.
    AGENTRY_DECL void score(const tool_catalog& catalog, const turn_query& query, std::span<double> out);

    /// The table as JSON text.
    AGENTRY_DECL std::string save() const;
    /// Replaces the table with one save() wrote; on a failure (text that is not one) nothing
    /// changes.
    AGENTRY_DECL outcome<void> load(std::string_view text);

    /// Stores the table in `store`'s named values under `key`.
    template <class Store>
    void save_to(Store& store, std::string_view key = default_key) const {
        store.put_value(key, save());
    }
    /// Loads the table `store` holds under `key`; none there: an empty table, and success.
    template <class Store>
    outcome<void> load_from(Store& store, std::string_view key = default_key) {
        const std::optional<std::string> text = store.value(key);
        if (!text) return {};
        return load(*text);
    }

private:
    struct table {
        mutable std::mutex mutex;
        std::map<std::string, std::map<std::string, std::uint64_t, std::less<>>, std::less<>> follows;
    };
    std::shared_ptr<table> table_;
};

} // namespace agentry

#if !defined(AGENTRY_SEPARATE_COMPILATION)
#include <agentry/select/impl/learned.ipp>
#endif

#endif
