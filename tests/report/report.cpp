// SPDX-License-Identifier: BSL-1.0
// The run report (report/run_report.hpp, report/stored_report.hpp): the page of a planned run
// with a failure, retries, approvals and a sub-run made by agents over scripted models; exact
// rows and notes for hand-made results; hostile text escaped; cut text and deep sub-runs
// noted; the report of durable runs read back from a SQLite store.
#include "runs.hpp"

#include <agentry/report/run_report.hpp>
#include <agentry/report/stored_report.hpp>
#include <agentry/store/sqlite.hpp>

#include <doctest/doctest.h>

#include <stdlib.h>
#include <unistd.h>

#include <chrono>
#include <cstddef>
#include <string>
#include <string_view>

using namespace std::chrono_literals;

namespace {

bool contains(std::string_view text, std::string_view part) { return text.find(part) != std::string_view::npos; }

std::size_t count(std::string_view text, std::string_view part) {
    std::size_t n = 0;
    for (std::size_t at = text.find(part); at != std::string_view::npos; at = text.find(part, at + 1)) ++n;
    return n;
}

// What no page may hold: a script, an element that fetches, a URL but the SVG namespace.
void check_self_contained(std::string_view page) {
    CHECK(page.starts_with("<!DOCTYPE html>\n<html lang=\"en\"><head><meta charset=\"utf-8\"><meta "
                           "http-equiv=\"Content-Security-Policy\" content=\"default-src 'none'; style-src "
                           "'unsafe-inline'\">"));
    CHECK(page.ends_with("</main></body></html>\n"));
    CHECK_FALSE(contains(page, "<script"));
    CHECK_FALSE(contains(page, "<img"));
    CHECK_FALSE(contains(page, "<link"));
    CHECK_FALSE(contains(page, " src=\""));
    CHECK_FALSE(contains(page, "@import"));
    CHECK(count(page, "http") == count(page, "xmlns=\"http://www.w3.org/2000/svg\"") + 1);  // + the http-equiv
}

agentry::step make_step(std::string id, std::string tool, agentry::tool_status status, std::chrono::microseconds started,
                        std::chrono::microseconds duration) {
    agentry::step s;
    s.turn = 1;
    s.id = std::move(id);
    s.tool = std::move(tool);
    s.status = status;
    s.started = started;
    s.duration = duration;
    s.arguments = "{}";
    return s;
}

// A directory of its own for a store, removed at the end.
struct temp_dir {
    std::string path;
    temp_dir() {
        char name[] = "/tmp/agentry-report-XXXXXX";
        REQUIRE(::mkdtemp(name) != nullptr);
        path = name;
    }
    ~temp_dir() {
        for (const char* f : {"/runs.db", "/runs.db-wal", "/runs.db-shm"}) ::unlink((path + f).c_str());
        ::rmdir(path.c_str());
    }
};

} // namespace

TEST_CASE("page: a planned run with a failure, retries, approvals and a sub-run") {
    const agentry::run_result r = report_test::planned_run();
    REQUIRE(r.stop == agentry::stop_reason::completed);
    REQUIRE(r.plans.size() == 2);
    REQUIRE(r.sub_runs.size() == 1);
    const std::string page = agentry::render_report(r, {.title = "A warm city break"});
    check_self_contained(page);
    CHECK(contains(page, "<title>A warm city break</title>"));
    // The summary.
    CHECK(contains(page, "<section class=\"run\" id=\"r1\" data-depth=\"0\" data-run-id=\"" + r.run_id +
                             "\" data-stop=\"completed\"><header class=\"summary\"><h1>A warm city break</h1>"));
    CHECK(contains(page, "<div><dt>Stop</dt><dd class=\"stop completed\">completed</dd></div><div><dt>Turns</dt><dd>3</dd></div>"));
    // Three turns and the sub-run's two.
    CHECK(contains(page, "<dd class=\"tokens-total\">1020 in \xC2\xB7 180 out</dd>"));
    CHECK(contains(page, "<dd>8 (failed 1, retried 1, approvals 2)</dd>"));
    CHECK(contains(page, "<div><dt>Plans</dt><dd>2</dd></div><div><dt>Sub-runs</dt><dd>1</dd></div>"));
    // The timeline: the turn retried after the 429, the failure, the retried call, the approvals.
    CHECK(contains(page, "<div class=\"row turn\" data-turn=\"1\" data-retries=\"1\"><span class=\"label\">Turn 1 "
                         "<span class=\"tokens\">200 in \xC2\xB7 60 out</span><span class=\"mark retry\" "
                         "data-retries=\"1\">1 retry</span></span>"));
    CHECK(contains(page, "<div class=\"row call failed\" data-call=\"p1/s2\" data-tool=\"weather_at\" "
                         "data-status=\"tool_error\" data-turn=\"1\" data-retries=\"0\"><span class=\"label\"><span "
                         "class=\"tool\">weather_at</span><span class=\"status failed\">tool_error</span><span "
                         "class=\"call-id\">p1/s2</span></span>"));
    CHECK(contains(page, "<div class=\"row call ok\" data-call=\"p1/s3\" data-tool=\"quote\" data-status=\"ok\" "
                         "data-turn=\"1\" data-retries=\"1\"><span class=\"label\"><span class=\"tool\">quote</span><span "
                         "class=\"status ok\">ok</span><span class=\"mark retry\" data-retries=\"1\">1 retry</span>"));
    CHECK(contains(page, "<span class=\"attempt failed\"></span><span class=\"attempt ok\"></span></a>"));
    CHECK(contains(page, "data-call=\"p1/s4\" data-tool=\"book\" data-status=\"ok\" data-turn=\"1\" data-retries=\"0\" "
                         "data-approval=\"approved\">"));
    CHECK(contains(page, "data-call=\"p2/s8\" data-tool=\"book\" data-status=\"ok\" data-turn=\"2\" data-retries=\"0\" "
                         "data-approval=\"edited\">"));
    CHECK(contains(page, "<span class=\"tool\">research</span><span class=\"status ok\">ok</span><span class=\"mark "
                         "sub-run\">sub-run</span>"));
    CHECK(count(page, "<div class=\"row turn\"") == 3 + 2);
    CHECK(count(page, "<div class=\"row call ") == 8 + 1);
    // Each plan's graph: nodes by round, edges within the plan, the statuses.
    CHECK(contains(page, "<div class=\"plan\" id=\"r1-plan-1\" data-plan=\"1\" data-rounds=\"1\"><h2>Plan 1 <span "
                         "class=\"when\">turn 1 \xC2\xB7 5 steps \xC2\xB7 1 round \xC2\xB7 "));
    CHECK(contains(page, "<div class=\"plan\" id=\"r1-plan-2\" data-plan=\"2\" data-rounds=\"2\">"));
    CHECK(contains(page, "<text class=\"round-label\" x=\"12\" y=\"26\">Round 1</text><text class=\"round-label\" "
                         "x=\"262\" y=\"26\">Not run</text>"));
    CHECK(contains(page, "<a href=\"#r1-plan-1-step-1\"><g class=\"node failed\" data-step=\"s2\" data-round=\"1\"><title>s2 "
                         "(weather_at): failed, tool_error</title><rect x=\"12\" y=\"100\" width=\"180\" height=\"46\" "
                         "rx=\"6\"/>"));
    CHECK(contains(page, "<g class=\"node not_run\" data-step=\"s5\" data-round=\"0\"><title>s5 (compare): not_run; after s1 "
                         "s2</title><rect x=\"262\" y=\"38\""));
    CHECK(contains(page, "<path class=\"edge\" data-from=\"s1\" data-to=\"s5\" d=\"M192,61 C227,61 227,61 262,61\" "
                         "marker-end=\"url(#r1-plan-1-arrow)\"/>"));
    CHECK(contains(page, "<path class=\"edge\" data-from=\"s2\" data-to=\"s5\""));
    CHECK(contains(page, "<path class=\"edge\" data-from=\"s6\" data-to=\"s9\""));
    CHECK_FALSE(contains(page, "data-from=\"s1\" data-to=\"s9\""));  // s1 is plan 1's: in the title
    CHECK(contains(page, "<g class=\"node ok\" data-step=\"s9\" data-round=\"2\"><title>s9 (compare): ok; after s1 (an "
                         "earlier plan&#39;s) s6</title>"));
    CHECK(contains(page, "<details class=\"plan-step failed\" id=\"r1-plan-1-step-1\" data-step=\"s2\"><summary><span "
                         "class=\"tool\">s2</span> weather_at<span class=\"status failed\">failed</span><span "
                         "class=\"status failed\">tool_error</span>"));
    CHECK(contains(page, "<p>Why</p><pre>the plan stopped before this step</pre>"));
    // Arguments and results on demand; the edit shown.
    CHECK(contains(page, "<details class=\"call-detail failed\" id=\"r1-call-1\" data-call=\"p1/s2\"><summary><span "
                         "class=\"tool\">weather_at</span><span class=\"status failed\">tool_error</span> <span "
                         "class=\"when\">(not_found)</span>"));
    CHECK(contains(page, "<p>Arguments (as the approver edited them)</p><pre>{&quot;city&quot;:&quot;Rome&quot;,&quot;"
                         "nights&quot;:2}</pre>"));
    CHECK(contains(page, "<tr class=\"attempt-row\"><td>1</td><td class=\"tool\">quote</td><td>tool_error</td><td>"
                         "transient</td>"));
    CHECK(contains(page, "<tr class=\"attempt-row retry\"><td>2</td><td class=\"tool\">quote</td><td>ok</td><td></td>"));
    // The sub-run, nested right after the call that ran it, with its own timeline and calls.
    const std::string sub = "<div class=\"nested\" data-step=\"p2/s7\"><section class=\"run sub-run\" id=\"r2\" "
                            "data-depth=\"1\" data-run-id=\"" +
                            r.sub_runs[0].result.run_id +
                            "\" data-step=\"p2/s7\" data-tool=\"research\" data-stop=\"completed\"><header "
                            "class=\"summary\"><h2>Sub-run of <span class=\"tool\">research</span> (call p2/s7)</h2>";
    const std::size_t at = page.find(sub);
    REQUIRE(at != std::string::npos);
    CHECK(page.rfind("<details class=\"call-detail ok\" id=\"r1-call-5\" data-call=\"p2/s7\">", at) != std::string::npos);
    CHECK(page.find("id=\"r1-call-6\"") > at);
    CHECK(contains(page, "<div class=\"row call ok\" data-call=\"l1\" data-tool=\"lookup\""));
    CHECK(contains(page, "<details class=\"answer\" open><summary>Its answer</summary><pre>Rome has three open "
                         "museums.</pre></details>"));
    // Text of the run is escaped: the lookup's result has markup characters.
    CHECK(contains(page, "Three museums in Rome are open &lt;late&gt; &amp; &#39;free&#39;"));
    CHECK_FALSE(contains(page, "<late>"));
}

TEST_CASE("page: the rows of a hand-made run, exactly") {
    agentry::run_result r;
    r.run_id = "run-1";
    r.turns = 1;
    r.wall_time = 10ms;
    r.turn_usage = {{100, 20}};
    r.turn_timings = {{0us, 2000us, 0}};
    agentry::step s = make_step("c1", "fetch", agentry::tool_status::tool_error, 2500us, 5000us);
    s.timed_out = true;
    s.fallback = "cached";
    s.attempts = {{"fetch", 1, agentry::tool_status::tool_error, std::nullopt, true, 4000us},
                  {"cached", 1, agentry::tool_status::ok, std::nullopt, false, 500us}};
    r.steps.push_back(s);
    agentry::step denied = make_step("c2", "wipe", agentry::tool_status::denied, 2500us, 0us);
    denied.decision = agentry::approval_kind::deny;
    r.steps.push_back(denied);
    const std::string page = agentry::render_report(r);
    check_self_contained(page);
    CHECK(contains(page, "<title>Run run-1</title>"));
    CHECK(contains(page, "<h1>Run run-1</h1><dl class=\"summary\"><div><dt>Run</dt><dd class=\"run-id\">run-1</dd></div>"
                         "<div><dt>Stop</dt><dd class=\"stop completed\">completed</dd></div><div><dt>Turns</dt><dd>1</dd>"
                         "</div><div><dt>Wall time</dt><dd>10.0 ms</dd></div><div><dt>Tokens</dt><dd "
                         "class=\"tokens-total\">0 in \xC2\xB7 0 out</dd></div><div><dt>Tool calls</dt><dd>2 (failed 1, "
                         "retried 0, approvals 1)</dd></div></dl>"));
    CHECK(contains(page, "<div class=\"axis\"><span class=\"label\"></span><div class=\"track\"><span class=\"tick first\" "
                         "style=\"left:0.000%\">0 \xC2\xB5s</span><span class=\"tick\" style=\"left:25.000%\">2.5 "
                         "ms</span><span class=\"tick\" style=\"left:50.000%\">5.0 ms</span><span class=\"tick\" "
                         "style=\"left:75.000%\">7.5 ms</span><span class=\"tick last\" style=\"left:100.000%\">10.0 "
                         "ms</span></div></div>"));
    CHECK(contains(page, "<div class=\"row turn\" data-turn=\"1\" data-retries=\"0\"><span class=\"label\">Turn 1 <span "
                         "class=\"tokens\">100 in \xC2\xB7 20 out</span></span><div class=\"track\"><span class=\"bar\" "
                         "style=\"left:0.000%;width:20.000%\" title=\"Turn 1: 2.0 ms\"></span></div></div>"));
    // A fallback's try is no retry; the timeout and the fallback are marked.
    CHECK(contains(page, "<div class=\"row call failed\" data-call=\"c1\" data-tool=\"fetch\" data-status=\"tool_error\" "
                         "data-turn=\"1\" data-retries=\"0\"><span class=\"label\"><span class=\"tool\">fetch</span><span "
                         "class=\"status failed\">tool_error</span><span class=\"mark timeout\">timed out</span><span "
                         "class=\"mark fallback\">fallback cached</span><span class=\"call-id\">c1</span></span><div "
                         "class=\"track\"><a class=\"bar\" href=\"#r1-call-0\" style=\"left:25.000%;width:50.000%\" "
                         "title=\"fetch: tool_error, 5.0 ms\"><span class=\"attempt failed\"></span><span class=\"attempt "
                         "ok\"></span></a></div></div>"));
    CHECK(contains(page, "<div class=\"row call denied\" data-call=\"c2\" data-tool=\"wipe\" data-status=\"denied\" "
                         "data-turn=\"1\" data-retries=\"0\" data-approval=\"denied\"><span class=\"label\"><span "
                         "class=\"tool\">wipe</span><span class=\"status denied\">denied</span><span class=\"approval "
                         "denied\">denied</span>"));
    CHECK(contains(page, "<tr class=\"attempt-row fallback\"><td>1</td><td class=\"tool\">cached</td><td>ok</td>"));
    CHECK(contains(page, "<td>tool_error, timed out</td>"));
    CHECK_FALSE(contains(page, "class=\"plans\""));
    CHECK_FALSE(contains(page, "<section class=\"run sub-run\""));
    CHECK_FALSE(contains(page, "mark sub-run"));
}

TEST_CASE("text: durations, numbers and escaping are written the same everywhere") {
    using agentry::detail::duration_text;
    CHECK(duration_text(850us) == "850 \xC2\xB5s");
    CHECK(duration_text(12'345us) == "12.3 ms");
    CHECK(duration_text(4'567'000us) == "4.56 s");
    CHECK(duration_text(125s) == "2 min 5 s");
    CHECK(duration_text(-5us) == "0 \xC2\xB5s");
    CHECK(agentry::detail::percent(1us, 3us) == "33.333%");
    CHECK(agentry::detail::percent(5us, 3us) == "100.000%");
    CHECK(agentry::detail::percent(1us, 0us) == "100.000%");
    CHECK(agentry::detail::html("<a href='x'>&\"\t\x01\xFF\xC3\xA9") ==
          "&lt;a href=&#39;x&#39;&gt;&amp;&quot;\t\xEF\xBF\xBD\xEF\xBF\xBD\xC3\xA9");
}

TEST_CASE("text: hostile names, arguments and results are escaped everywhere") {
    const std::string evil = "<script>alert(\"x\")</script>'\"><img src=x onerror=alert(1)>";
    const std::string escaped =
        "&lt;script&gt;alert(&quot;x&quot;)&lt;/script&gt;&#39;&quot;&gt;&lt;img src=x onerror=alert(1)&gt;";
    agentry::run_result r;
    r.run_id = evil;
    r.text = evil;
    r.turns = 1;
    agentry::step s = make_step(evil, evil, agentry::tool_status::ok, 0us, 1us);
    s.arguments = evil;
    s.result_excerpt = evil;
    s.repairs = {evil};
    s.fallback = evil;
    s.attempts = {{evil, 1, agentry::tool_status::ok, std::nullopt, false, 1us}};
    r.steps.push_back(s);
    agentry::plan_record plan;
    plan.text = evil;
    plan.errors = {evil};
    plan.steps.push_back({evil, evil, evil, {evil}, agentry::plan_step_status::ok, agentry::tool_status::ok, 1, evil, {}, {}});
    r.plans.push_back(plan);
    r.pending.push_back({evil, evil, evil, evil, agentry::permission::write});
    agentry::sub_run sub;
    sub.step_id = evil;
    sub.tool = evil;
    sub.result.run_id = evil;
    sub.result.text = evil;
    r.sub_runs.push_back(sub);
    agentry::provider_error e;
    e.message = evil;
    r.error = e;
    const std::string page = agentry::render_report(r, {.title = evil});
    check_self_contained(page);
    CHECK(contains(page, "<title>" + escaped + "</title>"));
    CHECK(contains(page, "data-call=\"" + escaped + "\" data-tool=\"" + escaped + "\""));
    CHECK(contains(page, "<g class=\"node ok\" data-step=\"" + escaped + "\""));
    CHECK(contains(page, "<text x=\"22\" y=\"57\" class=\"node-id\">&lt;script&gt;alert(&quot;x&quot;)&lt;/s\xE2\x80\xA6</text>"));
    CHECK(contains(page, "<ul class=\"errors plan-errors\"><li>" + escaped + "</li></ul>"));
    CHECK(contains(page, "<p class=\"error\">Provider error: " + escaped + "</p>"));
    CHECK(contains(page, "<section class=\"run sub-run\" id=\"r2\" data-depth=\"1\" data-run-id=\"" + escaped +
                             "\" data-step=\"" + escaped + "\" data-tool=\"" + escaped + "\""));
    CHECK(count(page, escaped) >= 20);
}

TEST_CASE("text: long text is cut with a note, and deep sub-runs are named, not shown") {
    agentry::run_result r;
    agentry::step s = make_step("c1", "echo", agentry::tool_status::ok, 0us, 1us);
    s.arguments = R"({"text":"abcdefghijklmnop"})";
    s.result_excerpt = "\xC3\xA9\xC3\xA9\xC3\xA9";  // three two-byte characters
    r.steps.push_back(s);
    agentry::sub_run inner;
    inner.step_id = "i1";
    inner.tool = "inner";
    agentry::sub_run outer;
    outer.step_id = "c1";
    outer.tool = "echo";
    outer.result.steps.push_back(make_step("i1", "inner", agentry::tool_status::ok, 0us, 1us));
    outer.result.sub_runs.push_back(inner);
    r.sub_runs.push_back(outer);
    agentry::sub_run orphan;
    orphan.step_id = "gone";
    orphan.tool = "echo";
    r.sub_runs.push_back(orphan);
    agentry::report_options options;
    options.max_shown = 5;
    options.max_depth = 1;
    const std::string page = agentry::render_report(r, options);
    check_self_contained(page);
    CHECK(contains(page, "<pre>{&quot;tex</pre><p class=\"cut\">Cut: 5 of 27 bytes shown (report_options::max_shown).</p>"));
    CHECK(contains(page, "<pre>\xC3\xA9\xC3\xA9</pre><p class=\"cut\">Cut: 4 of 6 bytes shown (report_options::max_shown).</p>"));
    CHECK(contains(page, "<div class=\"nested\" data-step=\"c1\"><section class=\"run sub-run\" id=\"r2\" data-depth=\"1\""));
    CHECK(contains(page, "<div class=\"nested\" data-step=\"i1\"><p class=\"depth-cut\">The sub-run of inner (call i1, "
                         "completed, 0 tool calls) is not shown: it is deeper than report_options::max_depth (1).</p></div>"));
    // A sub-run whose call the run did not record.
    CHECK(contains(page, "<section class=\"other-sub-runs\"><h2>Other sub-runs</h2><div class=\"nested\" "
                         "data-step=\"gone\"><section class=\"run sub-run\" id=\"r3\""));
}

TEST_CASE("store: durable runs read back from a SQLite store") {
    temp_dir dir;
    agentry::sqlite_store store{{.path = dir.path + "/runs.db"}};
    const std::string id = report_test::durable_run(store);
    REQUIRE(store.status(id) == agentry::run_status::done);
    // The state checkpoints keep the sub-run.
    const agentry::run_result r = agentry::stored_result(store, id);
    CHECK(r.run_id == id);
    CHECK(r.stop == agentry::stop_reason::completed);
    CHECK(r.text == "Lyon: 2 nights booked; no weather for Atlantis.");
    REQUIRE(r.steps.size() == 4);
    REQUIRE(r.sub_runs.size() == 1);
    CHECK(r.sub_runs[0].step_id == "c4");
    CHECK(r.sub_runs[0].result.steps.size() == 1);
    REQUIRE(r.turn_timings.size() == 2);
    CHECK(r.turn_timings[0].retries == 1);
    const std::string page = agentry::render_report(store, id);
    check_self_contained(page);
    CHECK(contains(page, "<div><dt>Status</dt><dd class=\"status-done\">done</dd></div><div><dt>Stop</dt><dd class=\"stop "
                         "completed\">completed</dd></div>"));
    CHECK(contains(page, "<div class=\"row call failed\" data-call=\"c1\" data-tool=\"weather_at\" data-status=\"tool_error\""));
    CHECK(contains(page, "<div class=\"row call ok\" data-call=\"c2\" data-tool=\"quote\" data-status=\"ok\" data-turn=\"1\" "
                         "data-retries=\"1\">"));
    CHECK(contains(page, "data-call=\"c3\" data-tool=\"book\" data-status=\"ok\" data-turn=\"1\" data-retries=\"0\" "
                         "data-approval=\"edited\">"));
    CHECK(contains(page, "<div class=\"nested\" data-step=\"c4\"><section class=\"run sub-run\""));

    // The planned run as kept by a state checkpoint: its plans come back.
    const agentry::run_result planned = report_test::planned_run();
    const std::string pid = report_test::stored_planned_run(store, planned);
    const agentry::run_result back = agentry::stored_result(store, pid);
    REQUIRE(back.plans.size() == 2);
    CHECK(back.plans[1].steps[3].depends_on == std::vector<std::string>{"s1", "s6"});
    CHECK(back.plans[1].steps[3].round == 2);
    REQUIRE(back.sub_runs.size() == 1);
    CHECK(back.sub_runs[0].result.run_id == planned.sub_runs[0].result.run_id);
    const std::string planned_page = agentry::render_report(store, pid);
    CHECK(contains(planned_page, "<g class=\"node failed\" data-step=\"s2\" data-round=\"1\">"));
    CHECK(contains(planned_page, "<path class=\"edge\" data-from=\"s6\" data-to=\"s9\""));

    // A run waiting for a decision shows the call it waits for.
    const std::string waiting = report_test::durable_run(store, false);
    REQUIRE(store.status(waiting) == agentry::run_status::waiting);
    const std::string waiting_page = agentry::render_report(store, waiting);
    CHECK(contains(waiting_page, "<dd class=\"status-waiting\">waiting</dd></div><div><dt>Stop</dt><dd class=\"stop "
                                 "approval_pending\">approval_pending</dd>"));
    CHECK(contains(waiting_page, "<li class=\"pending-call\" data-call=\"c3\"><span class=\"tool\">book</span> "
                                 "<pre>{&quot;city&quot;:&quot;Lyon&quot;,&quot;nights&quot;:4}</pre></li>"));

    // A state checkpoint of an older version, without plans and sub-runs, still reads.
    const std::string old = store.create_run(R"({"conversation":[],"turns":1,"turn_usage":[],"usage":{"input_tokens":3,)"
                                             R"("output_tokens":1},"steps":[],"trimmed_messages":0,"tool_calls_over_limit":0})");
    const agentry::run_result old_result = agentry::stored_result(store, old);
    CHECK(old_result.plans.empty());
    CHECK(old_result.sub_runs.empty());
    CHECK(contains(agentry::render_report(store, old), "<dd class=\"status-runnable\">runnable</dd></div><div><dt>Stop</dt>"
                                                       "<dd class=\"stop running\">not yet: shown as of its last "
                                                       "checkpoint</dd>"));

    // Calls checkpointed after the last state: one finished, one started when its process stopped.
    store.append(old, agentry::checkpoint_kind::call_started, R"({"id":"c9","tool":"quote","arguments":"{\"city\":\"Oslo\"}"})");
    store.append(old, agentry::checkpoint_kind::call_finished, R"({"id":"c9","status":"ok","content":"95 EUR","unknown":false})");
    store.append(old, agentry::checkpoint_kind::call_started, R"({"id":"c10","tool":"book","arguments":"{}"})");
    const std::string later = agentry::render_report(store, old);
    CHECK(contains(later, "</header><section class=\"later-calls\"><p class=\"note\">Calls checkpointed after the last "
                          "state (the run's state does not hold them yet):</p><details class=\"later-call ok\" "
                          "data-call=\"c9\"><summary><span class=\"tool\">quote</span><span class=\"status ok\">ok</span>"
                          "<span class=\"call-id\">c9</span></summary><div class=\"body\"><p>Arguments</p><pre>{&quot;city"
                          "&quot;:&quot;Oslo&quot;}</pre><p>Result</p><pre>95 EUR</pre></div></details><details "
                          "class=\"later-call started\" data-call=\"c10\"><summary><span class=\"tool\">book</span><span "
                          "class=\"status not_run\">started, no result recorded</span>"));
    CHECK_FALSE(contains(page, "later-calls\""));

    CHECK_THROWS_WITH_AS(agentry::render_report(store, "nope"),
                         "agentry: render_report: no run nope in this store; give the id start_run returned "
                         "(store.runs lists the runs by status)",
                         agentry::store_error);
}

TEST_CASE("page: times however large or negative are bounded") {
    agentry::run_result r;
    r.wall_time = std::chrono::milliseconds::max();
    r.turn_timings = {{std::chrono::microseconds::max(), std::chrono::microseconds::max(), 0}};
    r.steps.push_back(make_step("c1", "echo", agentry::tool_status::ok, std::chrono::microseconds::min(),
                                std::chrono::microseconds::max()));
    const std::string page = agentry::render_report(r);
    check_self_contained(page);
    CHECK(contains(page, "<span class=\"tick last\" style=\"left:100.000%\">"));
    CHECK(contains(page, "<span class=\"bar\" style=\"left:50.000%;width:50.000%\""));
    CHECK(contains(page, "<a class=\"bar\" href=\"#r1-call-0\" style=\"left:0.000%;width:50.000%\""));
}
