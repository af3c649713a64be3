// SPDX-License-Identifier: BSL-1.0
#ifndef AGENTRY_REPORT_RUN_REPORT_HPP
#define AGENTRY_REPORT_RUN_REPORT_HPP

// agentry::render_report: one run as a self-contained HTML page. Its style is inline; it has
// no script and fetches nothing (its Content-Security-Policy forbids it), so it opens offline
// and can be mailed or attached to a ticket.
//
//   agentry::run_result r = agent.run(agentry::planned{"Compare Paris and Rome."});
//   std::ofstream("run.html") << agentry::render_report(r, {.title = "Weather comparison"});
//
// The page: a summary (run id, stop reason, turns, wall time, tokens); a timeline with a row
// per model turn and per tool call at its start, as wide as it took, labelled with its status,
// tokens and marks (retries, approvals, timeouts, fallbacks, sub-runs); each plan's graph, its
// steps in a column per round with an edge per dependency; each call's arguments, result and
// tries on demand (<details>); and the run of an agent called as a tool (agentry::agent_tool)
// nested under the call that ran it, with its own report. Every text of the run is escaped.
//
// Elements carry stable class names and data attributes for tools that read the page: a row
// is `row turn` or `row call <status class>` (ok, failed, denied, rate-limited) with data-call,
// data-tool, data-status, data-turn, data-retries and data-approval (approved, denied, edited);
// a plan node is `node <plan_step_status>` with data-step and data-round; a dependency is an
// `edge` with data-from and data-to; a sub-run is `section.run.sub-run` with data-step.
//
// A run kept in a run_store (a durable run): render_report(store, id) in report/stored_report.hpp.

#include <agentry/loop/result.hpp>
#include <agentry/report/detail/html.hpp>
#include <agentry/report/detail/plan_graph.hpp>
#include <agentry/report/detail/style.hpp>

#include <algorithm>
#include <chrono>
#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

namespace agentry {

struct report_options {
    /// The page's title; empty: "Run <run id>" ("Run report" for a run without an id).
    std::string title;
    /// Bytes of one call's arguments or result (and a plan's text) shown; longer text is cut at
    /// a character boundary, with a note saying how much was shown.
    std::size_t max_shown = 4096;
    /// Levels of sub-runs shown nested (1: the run's sub-runs, not theirs); a deeper one is
    /// named, with a note, not shown.
    std::size_t max_depth = 4;
};

namespace detail {

/// The class of a call's status on the page.
constexpr std::string_view status_class(tool_status s) noexcept {
    switch (s) {
    case tool_status::ok: return "ok";
    case tool_status::denied: return "denied";
    case tool_status::rate_limited: return "rate-limited";
    case tool_status::invalid_arguments:
    case tool_status::unknown_tool:
    case tool_status::tool_error: return "failed";
    }
    return "failed";
}

constexpr std::string_view approval_class(approval_kind k) noexcept {
    switch (k) {
    case approval_kind::approve: return "approved";
    case approval_kind::deny: return "denied";
    case approval_kind::edit: return "edited";
    }
    return "denied";
}

/// Retries of the call's own tool in `s` (tries numbered past 1).
inline std::uint32_t retries_of(const step& s) {
    return static_cast<std::uint32_t>(std::count_if(s.attempts.begin(), s.attempts.end(), [&](const attempt& a) {
        return a.tool == s.tool && a.number > 1;
    }));
}

inline std::string tokens_text(const token_usage& u) {
    std::string t = std::to_string(u.input_tokens) + " in \xC2\xB7 " + std::to_string(u.output_tokens) + " out";
    if (u.cached_input_tokens != 0) t += " \xC2\xB7 " + std::to_string(u.cached_input_tokens) + " cached";
    if (u.reasoning_tokens != 0) t += " \xC2\xB7 " + std::to_string(u.reasoning_tokens) + " reasoning";
    return t;
}

/// The page, written run by run (a sub-run's section inside its caller's).
class report_page {
public:
    explicit report_page(const report_options& options) : options_(options) {}

    /// Appends the section of `r`, `depth` levels below the page's run. For a stored run
    /// (report/stored_report.hpp): `status`, the store's status of the run, and `later`, HTML
    /// shown after the summary; both empty otherwise.
    void run(const run_result& r, std::size_t depth, std::string_view status, const sub_run* from,
             std::string_view later = {}) {
        const std::string ids = "r" + std::to_string(++runs_);
        const std::chrono::microseconds span = std::max(span_of(r), std::chrono::microseconds(1));
        out += "<section class=\"run" + std::string(from ? " sub-run" : "") + "\" id=\"" + ids +
               "\" data-depth=\"" + std::to_string(depth) + "\" data-run-id=\"" + html(r.run_id) + "\"";
        if (from) out += " data-step=\"" + html(from->step_id) + "\" data-tool=\"" + html(from->tool) + "\"";
        out += " data-stop=\"" + std::string(to_string(r.stop)) + "\">";
        summary(r, depth, status, from);
        out += later;
        timeline(r, depth, ids, span);
        plans(r, depth, ids);
        calls(r, depth, ids);
        out += "</section>";
    }

    std::string out;

private:
    std::string heading(std::size_t depth, std::size_t level) const {
        return std::to_string(std::min<std::size_t>(depth + level, 6));
    }
    void open_heading(std::size_t depth, std::size_t level) { out += "<h" + heading(depth, level) + ">"; }
    void close_heading(std::size_t depth, std::size_t level) { out += "</h" + heading(depth, level) + ">"; }

    // Times as recorded are taken within 0 to 100 years, so that sums of two cannot overflow
    // whatever a store held.
    static constexpr std::chrono::hours century{24 * 366 * 100};
    static std::chrono::microseconds bounded(std::chrono::microseconds d) {
        return std::clamp<std::chrono::microseconds>(d, std::chrono::microseconds(0), century);
    }

    // The style placing a bar on a track of `span`: from its start, as wide as it took (within
    // the track).
    static std::string place(std::chrono::microseconds started, std::chrono::microseconds took,
                             std::chrono::microseconds span) {
        const std::chrono::microseconds at = std::min(bounded(started), span);
        return "left:" + percent(at, span) + ";width:" + percent(std::min(bounded(took), span - at), span);
    }

    // The end of the last thing the run timed, or its wall time when later.
    static std::chrono::microseconds span_of(const run_result& r) {
        std::chrono::microseconds end =
            std::clamp<std::chrono::milliseconds>(r.wall_time, std::chrono::milliseconds(0), century);
        for (const turn_timing& t : r.turn_timings) end = std::max(end, bounded(t.started) + bounded(t.duration));
        for (const step& s : r.steps) end = std::max(end, bounded(s.started) + bounded(s.duration));
        return end;
    }

    void item(std::string_view term, const std::string& value, std::string_view cls = {}) {
        out += "<div><dt>" + std::string(term) + "</dt><dd" +
               (cls.empty() ? std::string() : " class=\"" + std::string(cls) + "\"") + ">" + value + "</dd></div>";
    }

    void summary(const run_result& r, std::size_t depth, std::string_view status, const sub_run* from) {
        out += "<header class=\"summary\">";
        open_heading(depth, 1);
        if (from)
            out += "Sub-run of <span class=\"tool\">" + html(from->tool) + "</span> (call " + html(from->step_id) + ")";
        else if (!options_.title.empty()) out += html(options_.title);
        else out += r.run_id.empty() ? std::string("Run report") : "Run " + html(r.run_id);
        close_heading(depth, 1);
        out += "<dl class=\"summary\">";
        if (!r.run_id.empty()) item("Run", html(r.run_id), "run-id");
        if (!status.empty()) item("Status", html(status), "status-" + std::string(status));
        if (status == "runnable")
            item("Stop", "not yet: shown as of its last checkpoint", "stop running");
        else
            item("Stop", std::string(to_string(r.stop)), "stop " + std::string(to_string(r.stop)));
        item("Turns", std::to_string(r.turns));
        // wall_time is in milliseconds: a shorter run shows the end of the last thing it timed.
        item("Wall time", duration_text(span_of(r)));
        item("Tokens", tokens_text(r.usage), "tokens-total");
        std::size_t failed = 0, retried = 0, approvals = 0;
        for (const step& s : r.steps) {
            if (status_class(s.status) == "failed") ++failed;
            if (retries_of(s) != 0) ++retried;
            if (s.decision) ++approvals;
        }
        item("Tool calls", std::to_string(r.steps.size()) + " (failed " + std::to_string(failed) + ", retried " +
                               std::to_string(retried) + ", approvals " + std::to_string(approvals) + ")");
        if (!r.plans.empty()) item("Plans", std::to_string(r.plans.size()));
        if (!r.sub_runs.empty()) item("Sub-runs", std::to_string(r.sub_runs.size()));
        out += "</dl>";
        if (r.error)
            out += "<p class=\"error\">Provider error" +
                   (r.error->status != 0 ? " (HTTP " + std::to_string(r.error->status) + ")" : std::string()) + ": " +
                   html(r.error->message) + "</p>";
        if (!r.text.empty())
            out += "<details class=\"answer\" open><summary>" + std::string(from ? "Its answer" : "Answer") +
                   "</summary><pre>" + html(r.text) + "</pre></details>";
        if (!r.pending.empty()) {
            out += "<div class=\"pending\"><p>Waiting for a decision:</p><ul>";
            for (const pending_call& p : r.pending)
                out += "<li class=\"pending-call\" data-call=\"" + html(p.call_id) + "\"><span class=\"tool\">" +
                       html(p.tool) + "</span> " + html_shown(p.arguments, options_.max_shown) + "</li>";
            out += "</ul></div>";
        }
        out += "</header>";
    }

    void timeline(const run_result& r, std::size_t depth, const std::string& ids, std::chrono::microseconds span) {
        const std::size_t turns = std::max(r.turn_timings.size(), r.turn_usage.size());
        if (turns == 0 && r.steps.empty()) return;
        out += "<section class=\"timeline\">";
        open_heading(depth, 2);
        out += "Timeline";
        close_heading(depth, 2);
        out += "<div class=\"legend\"><span><i class=\"turn\"></i>model turn</span><span><i class=\"ok\"></i>call "
               "ok</span><span><i class=\"failed\"></i>call failed</span><span><i class=\"denied\"></i>call denied or "
               "rate limited</span></div>";
        out += "<div class=\"axis\"><span class=\"label\"></span><div class=\"track\">";
        for (int k = 0; k <= 4; ++k) {
            const std::chrono::microseconds at = span * k / 4;
            out += "<span class=\"tick" + std::string(k == 0 ? " first" : k == 4 ? " last" : "") + "\" style=\"left:" +
                   percent(at, span) + "\">" + duration_text(at) + "</span>";
        }
        out += "</div></div>";
        // Turns and calls by start; a turn before the calls it made.
        struct row {
            std::chrono::microseconds started;
            bool turn;
            std::size_t index;
        };
        std::vector<row> rows;
        for (std::size_t i = 0; i != turns; ++i)
            rows.push_back(
                {i < r.turn_timings.size() ? r.turn_timings[i].started : std::chrono::microseconds(0), true, i});
        for (std::size_t i = 0; i != r.steps.size(); ++i) rows.push_back({r.steps[i].started, false, i});
        std::stable_sort(rows.begin(), rows.end(), [](const row& a, const row& b) {
            return a.started != b.started ? a.started < b.started : a.turn && !b.turn;
        });
        for (const row& w : rows) {
            if (w.turn) turn_row(r, w.index, span);
            else call_row(r, w.index, ids, span);
        }
        out += "</section>";
    }

    void turn_row(const run_result& r, std::size_t i, std::chrono::microseconds span) {
        const bool timed = i < r.turn_timings.size();
        const turn_timing t = timed ? r.turn_timings[i] : turn_timing{};
        out += "<div class=\"row turn\" data-turn=\"" + std::to_string(i + 1) + "\" data-retries=\"" +
               std::to_string(t.retries) + "\"><span class=\"label\">Turn " + std::to_string(i + 1);
        if (i < r.turn_usage.size()) out += " <span class=\"tokens\">" + tokens_text(r.turn_usage[i]) + "</span>";
        if (t.retries != 0)
            out += "<span class=\"mark retry\" data-retries=\"" + std::to_string(t.retries) + "\">" +
                   std::to_string(t.retries) + (t.retries == 1 ? " retry" : " retries") + "</span>";
        out += "</span><div class=\"track\">";
        if (timed)
            out += "<span class=\"bar\" style=\"" + place(t.started, t.duration, span) + "\" title=\"Turn " +
                   std::to_string(i + 1) + ": " + duration_text(t.duration) + "\"></span>";
        out += "</div></div>";
    }

    // The marks of a call: retries, approval, timeout, fallback, sub-run.
    std::string marks(const run_result& r, const step& s) const {
        std::string m;
        if (const std::uint32_t n = retries_of(s); n != 0)
            m += "<span class=\"mark retry\" data-retries=\"" + std::to_string(n) + "\">" + std::to_string(n) +
                 (n == 1 ? " retry" : " retries") + "</span>";
        if (s.decision) {
            const std::string_view a = approval_class(*s.decision);
            m += "<span class=\"approval " + std::string(a) + "\">" + std::string(a) + "</span>";
        }
        if (s.timed_out) m += "<span class=\"mark timeout\">timed out</span>";
        if (!s.fallback.empty()) m += "<span class=\"mark fallback\">fallback " + html(s.fallback) + "</span>";
        for (const sub_run& sr : r.sub_runs)
            if (sr.step_id == s.id && sr.tool == s.tool) {
                m += "<span class=\"mark sub-run\">sub-run</span>";
                break;
            }
        return m;
    }

    void call_row(const run_result& r, std::size_t i, const std::string& ids, std::chrono::microseconds span) {
        const step& s = r.steps[i];
        const std::string cls(status_class(s.status));
        const std::string status(to_string(s.status));
        out += "<div class=\"row call " + cls + "\" data-call=\"" + html(s.id) + "\" data-tool=\"" + html(s.tool) +
               "\" data-status=\"" + status + "\" data-turn=\"" + std::to_string(s.turn) + "\" data-retries=\"" +
               std::to_string(retries_of(s)) + "\"";
        if (s.decision) out += " data-approval=\"" + std::string(approval_class(*s.decision)) + "\"";
        out += "><span class=\"label\"><span class=\"tool\">" + html(s.tool) + "</span><span class=\"status " + cls +
               "\">" + status + "</span>" + marks(r, s) + "<span class=\"call-id\">" + html(s.id) +
               "</span></span><div class=\"track\"><a class=\"bar\" href=\"#" +
               ids + "-call-" + std::to_string(i) + "\" style=\"" + place(s.started, s.duration, span) +
               "\" title=\"" + html(s.tool) + ": " + status + ", " +
               duration_text(s.duration) + "\">";
        // One segment per try when there were several; the gaps stand for the waits between them.
        if (s.attempts.size() > 1)
            for (const attempt& a : s.attempts)
                out += "<span class=\"attempt " + std::string(status_class(a.status)) + "\"></span>";
        out += "</a></div></div>";
    }

    void plans(const run_result& r, std::size_t depth, const std::string& ids) {
        if (r.plans.empty()) return;
        out += "<section class=\"plans\">";
        for (std::size_t k = 0; k != r.plans.size(); ++k) {
            const plan_record& p = r.plans[k];
            const std::string pid = ids + "-plan-" + std::to_string(k + 1);
            out += "<div class=\"plan\" id=\"" + pid + "\" data-plan=\"" + std::to_string(k + 1) + "\" data-rounds=\"" +
                   std::to_string(p.rounds) + "\">";
            open_heading(depth, 2);
            out += "Plan " + std::to_string(k + 1) + " <span class=\"when\">turn " + std::to_string(p.turn) +
                   " \xC2\xB7 " +
                   std::to_string(p.steps.size()) + (p.steps.size() == 1 ? " step" : " steps") + " \xC2\xB7 " +
                   std::to_string(p.rounds) + (p.rounds == 1 ? " round" : " rounds") + " \xC2\xB7 " +
                   duration_text(p.wall_time) + "</span>";
            close_heading(depth, 2);
            if (!p.errors.empty()) {
                out += "<ul class=\"errors plan-errors\">";
                for (const std::string& e : p.errors) out += "<li>" + html(e) + "</li>";
                out += "</ul>";
            }
            if (!p.steps.empty()) plan_graph(out, p, pid);
            for (std::size_t j = 0; j != p.steps.size(); ++j) plan_step(p.steps[j], pid + "-step-" + std::to_string(j));
            if (!p.text.empty())
                out += "<details class=\"plan-text\"><summary>The plan as the model sent it</summary>" +
                       html_shown(p.text, options_.max_shown) + "</details>";
            out += "</div>";
        }
        out += "</section>";
    }

    void plan_step(const plan_step_record& s, const std::string& id) {
        const std::string status(to_string(s.status));
        out += "<details class=\"plan-step " + status + "\" id=\"" + id + "\" data-step=\"" + html(s.id) +
               "\"><summary>" +
               "<span class=\"tool\">" + html(s.id) + "</span> " + html(s.tool) + "<span class=\"status " + status +
               "\">" + status + "</span>";
        if (s.status == plan_step_status::failed)
            out += "<span class=\"status failed\">" + std::string(to_string(s.call_status)) + "</span>";
        out += " <span class=\"when\">";
        if (s.round != 0)
            out += "round " + std::to_string(s.round) + " \xC2\xB7 at " + duration_text(s.started) + " \xC2\xB7 took " +
                   duration_text(s.duration);
        else out += "not run";
        out += "</span></summary><div class=\"body\">";
        if (!s.depends_on.empty()) {
            out += "<p>After:";
            for (const std::string& d : s.depends_on) out += " <span class=\"tool\">" + html(d) + "</span>";
            out += "</p>";
        }
        out += "<p>Arguments</p>" + html_shown(s.arguments, options_.max_shown);
        out += "<p>" + std::string(s.round != 0 ? "Result" : "Why") + "</p>" + html_shown(s.result, options_.max_shown);
        out += "</div></details>";
    }

    void calls(const run_result& r, std::size_t depth, const std::string& ids) {
        std::vector<bool> shown(r.sub_runs.size(), false);
        if (!r.steps.empty()) {
            out += "<section class=\"calls\">";
            open_heading(depth, 2);
            out += "Tool calls";
            close_heading(depth, 2);
            for (std::size_t i = 0; i != r.steps.size(); ++i) {
                call(r, r.steps[i], ids + "-call-" + std::to_string(i));
                for (std::size_t k = 0; k != r.sub_runs.size(); ++k)
                    if (!shown[k] && r.sub_runs[k].step_id == r.steps[i].id && r.sub_runs[k].tool == r.steps[i].tool) {
                        shown[k] = true;
                        nested(r.sub_runs[k], depth);
                    }
            }
            out += "</section>";
        }
        if (std::find(shown.begin(), shown.end(), false) == shown.end()) return;
        // Sub-runs of calls the run did not record (a call cut short by a stop).
        out += "<section class=\"other-sub-runs\">";
        open_heading(depth, 2);
        out += "Other sub-runs";
        close_heading(depth, 2);
        for (std::size_t k = 0; k != r.sub_runs.size(); ++k)
            if (!shown[k]) nested(r.sub_runs[k], depth);
        out += "</section>";
    }

    void nested(const sub_run& sr, std::size_t depth) {
        out += "<div class=\"nested\" data-step=\"" + html(sr.step_id) + "\">";
        if (depth + 1 > options_.max_depth)
            out += "<p class=\"depth-cut\">The sub-run of " + html(sr.tool) + " (call " + html(sr.step_id) + ", " +
                   std::string(to_string(sr.result.stop)) + ", " + std::to_string(sr.result.steps.size()) +
                   " tool calls) is not shown: it is deeper than report_options::max_depth (" +
                   std::to_string(options_.max_depth) + ").</p>";
        else run(sr.result, depth + 1, {}, &sr);
        out += "</div>";
    }

    void call(const run_result& r, const step& s, const std::string& id) {
        const std::string cls(status_class(s.status));
        const std::string status(to_string(s.status));
        out += "<details class=\"call-detail " + cls + "\" id=\"" + id + "\" data-call=\"" + html(s.id) +
               "\"><summary><span class=\"tool\">" + html(s.tool) + "</span><span class=\"status " + cls + "\">" +
               status + "</span>";
        if (s.failure) out += " <span class=\"when\">(" + std::string(to_string(*s.failure)) + ")</span>";
        out += marks(r, s) + " <span class=\"when\">turn " + std::to_string(s.turn) + " \xC2\xB7 at " +
               duration_text(s.started) + " \xC2\xB7 took " + duration_text(s.duration) + "</span></summary>";
        out += "<div class=\"body\"><p>Call <span class=\"tool\">" + html(s.id) + "</span></p>";
        out += "<p>Arguments" + std::string(s.arguments_edited ? " (as the approver edited them)" : "") + "</p>" +
               html_shown(s.arguments, options_.max_shown);
        out += "<p>Result (its start, as the run keeps it)</p>" + html_shown(s.result_excerpt, options_.max_shown);
        if (!s.repairs.empty()) {
            out += "<p>Repairs of the arguments</p><ul>";
            for (const std::string& repair : s.repairs) out += "<li>" + html(repair) + "</li>";
            out += "</ul>";
        }
        if (!s.attempts.empty()) {
            out += "<table class=\"attempts\"><tr><th>Try</th><th>Tool</th><th>Status</th><th>Failure</th><th>Took"
                   "</th></tr>";
            for (const attempt& a : s.attempts) {
                const bool retry = a.tool == s.tool && a.number > 1;
                out += "<tr class=\"attempt-row" + std::string(retry ? " retry" : "") +
                       std::string(a.tool != s.tool ? " fallback" : "") + "\"><td>" + std::to_string(a.number) +
                       "</td><td class=\"tool\">" + html(a.tool) + "</td><td>" + std::string(to_string(a.status)) +
                       (a.timed_out ? ", timed out" : "") + "</td><td>" +
                       (a.failure ? std::string(to_string(*a.failure)) : std::string()) + "</td><td>" +
                       duration_text(a.duration) + "</td></tr>";
            }
            out += "</table>";
        }
        out += "</div></details>";
    }

    const report_options& options_;
    std::size_t runs_ = 0;
};

/// The page of `r`; `status` and `later` as report_page::run takes them.
inline std::string render_page(const run_result& r, const report_options& options, std::string_view status,
                               std::string_view later) {
    report_page page(options);
    const std::string title = !options.title.empty() ? options.title
                              : r.run_id.empty()     ? std::string("Run report")
                                                     : "Run " + r.run_id;
    page.out = "<!DOCTYPE html>\n<html lang=\"en\"><head><meta charset=\"utf-8\">"
               "<meta http-equiv=\"Content-Security-Policy\" content=\"default-src 'none'; style-src 'unsafe-inline'\">"
               "<meta name=\"viewport\" content=\"width=device-width, initial-scale=1\"><meta name=\"generator\" "
               "content=\"agentry\"><title>" +
               html(title) + "</title><style>" + std::string(report_style) +
               "</style></head><body><main class=\"report\">";
    page.run(r, 0, status, nullptr, later);
    page.out += "<footer>Run report written by agentry.</footer></main></body></html>\n";
    return std::move(page.out);
}

} // namespace detail

/// The report of `r` as one HTML page (see the top of this file).
inline std::string render_report(const run_result& r, const report_options& options = {}) {
    return detail::render_page(r, options, {}, {});
}

} // namespace agentry

#endif
