// SPDX-License-Identifier: BSL-1.0
#ifndef AGENTRY_REPORT_STORED_REPORT_HPP
#define AGENTRY_REPORT_STORED_REPORT_HPP

// The run report (report/run_report.hpp) of a durable run, read from its store: its last state
// checkpoint (turns, calls, plans, sub-runs, usage, timings) and, when it has ended, how.
//
//   agentry::sqlite_store store{{.path = "runs.db"}};
//   std::ofstream("run.html") << agentry::render_report(store, id);
//
// A run still going on, or waiting for a decision, is shown as of its last checkpoint, with
// the store's status; tools/report/agentry_report.cpp is this as a program.

#include <agentry/report/run_report.hpp>
#include <agentry/store/durable.hpp>
#include <agentry/store/run_store.hpp>

#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace agentry {

/// Run `id` of `store` as its checkpoints tell it: the last state, the outcome when it ended,
/// the calls it waits for. Throws store_error when the store has no such run or its
/// checkpoints cannot be read.
template <run_store Store>
run_result stored_result(Store& store, std::string_view id) {
    const std::vector<checkpoint> tail = store.tail(id);
    if (tail.empty() || tail.front().kind != checkpoint_kind::state)
        throw store_error("agentry: render_report: no run " + std::string(id) +
                          " in this store; give the id start_run returned (store.runs lists the runs by status)");
    const run_state state = detail::read_body<run_state>(tail.front().body, id, "state");
    std::optional<run_outcome> outcome;
    std::vector<pending_call> pending;
    for (const checkpoint& c : tail) {
        if (c.kind == checkpoint_kind::done) outcome = detail::read_body<run_outcome>(c.body, id, "done");
        else if (c.kind == checkpoint_kind::pending)
            pending = detail::read_body<std::vector<pending_call>>(c.body, id, "pending");
        else if (c.kind == checkpoint_kind::decided) pending.clear();
    }
    run_result r = result_of(state, outcome);
    r.run_id = std::string(id);
    if (!outcome && !pending.empty()) {
        r.stop = stop_reason::approval_pending;
        r.pending = std::move(pending);
    }
    return r;
}

/// The report of run `id` of `store` (see stored_result), with the run's status in the store.
template <run_store Store>
std::string render_report(Store& store, std::string_view id, const report_options& options = {}) {
    const run_result r = stored_result(store, id);
    const std::optional<run_status> status = store.status(id);
    return detail::render_page(r, options, status ? to_string(*status) : std::string_view("unknown"));
}

} // namespace agentry

#endif
