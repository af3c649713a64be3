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
// the store's status, and with the calls checkpointed since (started, or finished with their
// result), which the last state does not hold yet: those of a turn in progress, or of a run
// whose process stopped. tools/report/agentry_report.cpp is this as a program.

#include <agentry/report/run_report.hpp>
#include <agentry/store/durable.hpp>
#include <agentry/store/run_store.hpp>

#include <cstddef>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace agentry {

namespace detail {

/// The run as the checkpoints from its last state on tell it (see stored_result).
inline run_result result_of_tail(const std::optional<run_tail>& tail, std::string_view id) {
    if (!tail)
        throw store_error("agentry: render_report: no run " + std::string(id) +
                          " in this store; give the id start_run returned (store.runs lists the runs by status)");
    run_result r = result_of(tail->state, tail->outcome);
    r.run_id = std::string(id);
    if (!tail->outcome && tail->pending && !tail->decided) {
        r.stop = stop_reason::approval_pending;
        r.pending = *tail->pending;
    }
    return r;
}

/// The calls checkpointed after the last state of `tail`, as a section of the report; empty
/// when there are none.
inline std::string later_calls(const run_tail& tail, std::size_t max_shown) {
    const std::vector<call_record>& started = tail.started;
    const std::vector<std::optional<call_outcome>>& finished = tail.finished;
    if (started.empty()) return {};
    std::string out = "<section class=\"later-calls\"><p class=\"note\">Calls checkpointed after the last state "
                      "(the run's state does not hold them yet):</p>";
    for (std::size_t i = 0; i != started.size(); ++i) {
        const call_record& c = started[i];
        const std::optional<call_outcome>& o = finished[i];
        const std::string status = !o ? "started" : o->unknown ? "unknown" : std::string(to_string(o->status));
        out += "<details class=\"later-call " + status + "\" data-call=\"" + html(c.id) + "\"><summary><span "
               "class=\"tool\">" + html(c.tool) + "</span><span class=\"status " +
               (o ? std::string(status_class(o->status)) : std::string("not_run")) + "\">" +
               (o ? status : std::string("started, no result recorded")) + "</span><span class=\"call-id\">" +
               html(c.id) + "</span></summary><div class=\"body\"><p>Arguments</p>" +
               html_shown(c.arguments, max_shown);
        if (o) out += "<p>Result</p>" + html_shown(o->content, max_shown);
        out += "</div></details>";
    }
    return out + "</section>";
}

} // namespace detail

/// Run `id` of `store` as its checkpoints tell it: the last state, the outcome when it ended,
/// the calls it waits for. Throws store_error when the store has no such run or its
/// checkpoints cannot be read.
template <run_store Store>
run_result stored_result(Store& store, std::string_view id) {
    return detail::result_of_tail(detail::read_tail(store.tail(id), id), id);
}

/// The report of run `id` of `store` (see stored_result and the top of this file), with the
/// run's status in the store.
template <run_store Store>
std::string render_report(Store& store, std::string_view id, const report_options& options = {}) {
    const std::optional<detail::run_tail> tail = detail::read_tail(store.tail(id), id);
    const run_result r = detail::result_of_tail(tail, id);
    const std::optional<run_status> status = store.status(id);
    return detail::render_page(r, options, status ? to_string(*status) : std::string_view("unknown"),
                               detail::later_calls(*tail, options.max_shown));
}

} // namespace agentry

#endif
