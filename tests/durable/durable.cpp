// SPDX-License-Identifier: BSL-1.0
// Durable runs: the run store conformance suite (against SQLite and PostgreSQL), resuming mid
// turn, exactly-once tool effects, crash tests with SIGKILL at deterministic points, and a
// scale test with four worker processes. The crash and scale tests run this executable again
// as a worker (--worker ...).

#define DOCTEST_CONFIG_IMPLEMENT
#include <doctest/doctest.h>

#include "fixture.hpp"
#include "pg_server.hpp"

#include <agentry/select/learned.hpp>
#include <agentry/store/durable.hpp>
#include <agentry/store/postgres.hpp>
#include <agentry/store/sqlite.hpp>
#include <agentry/store/worker.hpp>

#include <poll.h>
#include <signal.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <atomic>
#include <cstdio>
#include <filesystem>
#include <functional>
#include <iostream>
#include <map>
#include <memory>
#include <string>
#include <type_traits>
#include <vector>

namespace {

using durable_test::effects_count;
using durable_test::sql_text;

// The temporary folder of this process's SQLite files, removed at exit.
const std::filesystem::path& scratch() {
    static const std::filesystem::path dir = [] {
        std::string t = (std::filesystem::temp_directory_path() / "agentry-durable-XXXXXX").string();
        if (!::mkdtemp(t.data())) throw std::runtime_error("cannot make a temporary folder");
        return std::filesystem::path(t);
    }();
    return dir;
}

std::string fresh_name(const char* stem) {
    static int n = 0;
    return std::string(stem) + "_" + std::to_string(::getpid()) + "_" + std::to_string(++n);
}

// The test's PostgreSQL server, started on first use; null (and the reason printed once) when
// there is none.
durable_test::pg_server* server() {
    static std::string why;
    static std::unique_ptr<durable_test::pg_server> s = [] {
        auto started = durable_test::pg_server::start(why);
        if (!started) std::cout << "durable: PostgreSQL tests skipped: " << why << "\n";
        return started;
    }();
    return s.get();
}

// Where a test's store lives: an SQLite file or a PostgreSQL database.
struct place {
    bool postgres = false;
    std::string where;  // the file, or the conninfo
};

std::optional<place> fresh_place(bool postgres) {
    if (!postgres) return place{false, (scratch() / (fresh_name("runs") + ".db")).string()};
    durable_test::pg_server* s = server();
    if (!s) return std::nullopt;
    const std::string db = fresh_name("runs");
    REQUIRE(s->create_database(db));
    return place{true, s->conninfo(db)};
}

template <class F>
void with_store(const place& p, std::string worker, F&& f) {
    if (p.postgres) {
        agentry::postgres_store s{{.conninfo = p.where, .worker = std::move(worker)}};
        f(s);
    } else {
        agentry::sqlite_store s{{.path = p.where, .worker = std::move(worker)}};
        f(s);
    }
}

std::vector<agentry::checkpoint_kind> kinds(const std::vector<agentry::checkpoint>& cs) {
    std::vector<agentry::checkpoint_kind> out;
    for (const auto& c : cs) out.push_back(c.kind);
    return out;
}

// --- the loop's hook (loop/checkpoint.hpp) and agentry::continuation, without a store ---

// Logs what the agent tells it; answers the calls in `kept`; throws from state() when asked.
struct recorder final : agentry::checkpointer {
    std::vector<std::string> log;
    std::map<std::string, std::string> kept;
    bool fail_state = false;

    void state(std::span<const agentry::message> conversation, const agentry::run_result& progress) override {
        if (fail_state) throw std::runtime_error("the disk is full");
        log.push_back("state " + std::to_string(conversation.size()) + " turns " + std::to_string(progress.turns));
    }
    std::optional<agentry::tool_result> before_call(const agentry::tool_call& call, bool idempotent) override {
        log.push_back("before " + call.id + (idempotent ? " idempotent" : ""));
        const auto it = kept.find(call.id);
        if (it == kept.end()) return std::nullopt;
        agentry::tool_result r;
        r.content = it->second;
        return r;
    }
    void after_call(const agentry::tool_call& call, const agentry::tool_result& result) override {
        log.push_back("after " + call.id + " " + result.content);
    }
};

TEST_CASE("loop: the checkpointer hears every turn and call, and may answer a call") {
    durable_test::effects_path = (scratch() / (fresh_name("effects") + ".db")).string();
    recorder r;
    auto agent = durable_test::make_agent({.checkpointer = &r});
    SUBCASE("every turn, every call before and after, every turn's results") {
        const agentry::run_result result = agent->run("job-h");
        CHECK(result.text == "done job-h: charged 250 cents; noted: charged");
        CHECK(r.log == std::vector<std::string>{"state 3 turns 1", "before c1", "after c1 charged 250 cents",
                                                "before c2 idempotent", "after c2 noted: charged", "state 5 turns 1",
                                                "state 6 turns 2"});
        CHECK(effects_count("SELECT count(*) FROM charges") == 1);
    }
    SUBCASE("a call it answers is not run") {
        r.kept["c1"] = "charged earlier";
        const agentry::run_result result = agent->run("job-h");
        CHECK(result.text == "done job-h: charged earlier; noted: charged");
        CHECK(r.log.at(2) == "before c2 idempotent");  // no after c1
        CHECK(effects_count("SELECT count(*) FROM charges") == 0);
        REQUIRE(result.steps.size() == 2);
        CHECK(result.steps[0].result_excerpt == "charged earlier");
    }
    SUBCASE("a throw stops the run with its message") {
        r.fail_state = true;
        const agentry::run_result result = agent->run("job-h");
        CHECK(result.stop == agentry::stop_reason::provider_error);
        CHECK(result.text.find("the disk is full") != std::string::npos);
        CHECK(effects_count("SELECT count(*) FROM charges") == 0);  // stopped before the calls
    }
    durable_test::effects_path.clear();
}

TEST_CASE("loop: a continuation goes on from a restored conversation") {
    durable_test::effects_path = (scratch() / (fresh_name("effects") + ".db")).string();
    auto first = durable_test::make_agent();
    std::vector<agentry::message> conversation = first->conversation();
    conversation.push_back(agentry::message::user("job-c"));
    std::string saved;
    SUBCASE("the calls of the last turn run first") {
        conversation.push_back(durable_test::reply(conversation).value->reply);
        agentry::json::write(saved, conversation);
        auto agent = durable_test::make_agent();
        REQUIRE(agent->restore(saved));
        agentry::run_result so_far;
        so_far.turns = 1;
        so_far.usage = {10, 5};
        const agentry::run_result result = agent->run(agentry::continuation{so_far});
        CHECK(result.stop == agentry::stop_reason::completed);
        CHECK(result.text == "done job-c: charged 250 cents; noted: charged");
        CHECK(result.turns == 2);  // counted on
        CHECK(result.usage.input_tokens == 20);
        REQUIRE(result.steps.size() == 2);
        CHECK(result.steps[0].turn == 1);  // the turn that made the calls
        CHECK(effects_count("SELECT count(*) FROM charges") == 1);
    }
    SUBCASE("after a user message or results, the model is asked") {
        agentry::json::write(saved, conversation);
        auto agent = durable_test::make_agent();
        REQUIRE(agent->restore(saved));
        const agentry::run_result result = agent->run(agentry::continuation{});
        CHECK(result.text == "done job-c: charged 250 cents; noted: charged");
        CHECK(result.turns == 2);
    }
    SUBCASE("a conversation that ends with the answer is not sent again") {
        conversation.push_back(agentry::message::assistant("already answered"));
        agentry::json::write(saved, conversation);
        recorder r;
        auto agent = durable_test::make_agent({.checkpointer = &r});
        REQUIRE(agent->restore(saved));
        const agentry::run_result result = agent->run(agentry::continuation{});
        CHECK(result.stop == agentry::stop_reason::completed);
        CHECK(result.text == "already answered");
        CHECK(r.log.empty());
        CHECK(effects_count("SELECT count(*) FROM charges") == 0);
    }
    durable_test::effects_path.clear();
}

// --- the conformance suite: every case runs against both stores ---

template <class Store>
void conformance_records(Store& s) {
    const std::string id = s.create_run(R"({"conversation":[]})");
    CHECK(id.size() == 32);
    CHECK(s.status(id) == agentry::run_status::runnable);
    CHECK(s.append(id, agentry::checkpoint_kind::call_started, "{\"a\":1}") == 2);
    CHECK(s.append(id, agentry::checkpoint_kind::call_finished, "{\"a\":2}") == 3);
    CHECK(s.append(id, agentry::checkpoint_kind::state, "{\"s\":2}") == 4);
    CHECK(s.append(id, agentry::checkpoint_kind::call_started, "{\"a\":3}") == 5);
    const std::vector<agentry::checkpoint> all = s.history(id);
    REQUIRE(all.size() == 5);
    for (std::size_t i = 0; i != all.size(); ++i) CHECK(all[i].seq == i + 1);
    CHECK(all[1].body == "{\"a\":1}");
    const std::vector<agentry::checkpoint> tail = s.tail(id);
    REQUIRE(tail.size() == 2);
    CHECK(tail[0].seq == 4);
    CHECK(tail[0].body == "{\"s\":2}");
    CHECK(tail[1].kind == agentry::checkpoint_kind::call_started);
    CHECK(s.unfinished() == 1);
    CHECK(s.finish(id, "{}") == 6);
    CHECK(s.status(id) == agentry::run_status::done);
    CHECK(s.unfinished() == 0);
    // A done run takes no more checkpoints; an unknown run has none.
    CHECK_THROWS_WITH_AS(s.append(id, agentry::checkpoint_kind::state, "{}"),
                         doctest::Contains("is done; it takes no more checkpoints"), agentry::store_error);
    CHECK_THROWS_WITH_AS(s.finish(id, "{}"), doctest::Contains("is done"), agentry::store_error);
    CHECK(s.history(id).size() == 6);
    CHECK_THROWS_WITH_AS(s.append("nope", agentry::checkpoint_kind::state, "{}"), doctest::Contains("no run nope"),
                         agentry::store_error);
    CHECK(s.history("nope").empty());
    CHECK(s.tail("nope").empty());
    CHECK(!s.status("nope"));
}

// Two connections with different worker names (the same store type; with_store makes every pair).
template <class Store, class Other>
void conformance_leases(Store& a, Other& b) {
    if constexpr (std::is_same_v<Store, Other>) {
        using namespace std::chrono_literals;
        CHECK(!a.claim(10s));  // nothing runnable
        const std::string first = a.create_run("{}");
        const std::string second = a.create_run("{}");
        CHECK(a.claim(60s) == first);  // oldest first
        CHECK(b.claim(60s) == second);  // the leased one is skipped
        CHECK(!b.claim(60s));
        CHECK(a.heartbeat(first, 60s));
        CHECK(!b.heartbeat(first, 60s));  // not b's
        // Only the owner writes.
        CHECK(a.append(first, agentry::checkpoint_kind::state, "{}") == 2);
        CHECK_THROWS_WITH_AS(b.append(first, agentry::checkpoint_kind::state, "{}"),
                             doctest::Contains(("is leased by another worker, not " + b.worker()).c_str()), agentry::store_error);
        CHECK_THROWS_AS(b.finish(first, "{}"), agentry::store_error);
        CHECK(a.history(first).size() == 2);
        // Released, the run is free again.
        a.release(first);
        CHECK(b.claim(60s) == first);
        CHECK(!a.heartbeat(first, 60s));
        // An expired lease is free too: a lease of 0 ms has expired as soon as it is taken, and
        // its owner can neither renew it nor write.
        b.release(first);
        CHECK(a.claim(0ms) == first);
        CHECK(!a.heartbeat(first, 60s));
        CHECK_THROWS_WITH_AS(a.append(first, agentry::checkpoint_kind::state, "{}"), doctest::Contains("has expired"),
                             agentry::store_error);
        CHECK(b.claim(60s) == first);
        CHECK(!a.heartbeat(first, 60s));
        CHECK(b.finish(first, "{}") == 3);
        CHECK(!b.heartbeat(first, 60s));  // done
        CHECK(a.unfinished() == 1);
        // Given b's name, a connection writes as b (b still holds the second run): one worker's
        // connections share its leases.
        const std::string third = a.create_run("{}");
        a.set_worker(b.worker());
        CHECK(a.heartbeat(second, 60s));
        CHECK(a.append(second, agentry::checkpoint_kind::state, "{}") == 2);
        a.set_worker("");
        CHECK(a.worker().size() == 32);
        CHECK(a.worker() != b.worker());
        CHECK(!a.heartbeat(second, 60s));
        CHECK(a.claim(60s) == third);
    }
}

template <class Store>
void conformance_run(Store& s) {
    auto agent = durable_test::make_agent();
    const std::string id = agentry::start_run(s, *agent, "job-a");
    agentry::run_result r = agentry::resume_run(s, *agent, id);
    CHECK(r.stop == agentry::stop_reason::completed);
    CHECK(r.text == "done job-a: charged 250 cents; noted: charged");
    CHECK(r.turns == 2);
    CHECK(r.steps.size() == 2);
    CHECK(r.usage.input_tokens == 20);
    using k = agentry::checkpoint_kind;
    CHECK(kinds(s.history(id)) == std::vector<k>{k::state, k::state, k::call_started, k::call_finished,
                                                  k::call_started, k::call_finished, k::state, k::state, k::done});
    CHECK(s.status(id) == agentry::run_status::done);
    // The state after turn 1 holds the model's calls; the last one the answer.
    const agentry::run_state after_turn =
        agentry::detail::read_body<agentry::run_state>(s.history(id)[1].body, id, "state");
    CHECK(after_turn.turns == 1);
    CHECK(after_turn.conversation.back().tool_calls.size() == 2);
    // A done run is not run again: its result comes from the store.
    auto other = durable_test::make_agent();
    agentry::run_result again = agentry::resume_run(s, *other, id);
    CHECK(again.text == r.text);
    CHECK(again.turns == 2);
    CHECK(again.steps.size() == 2);
    CHECK(other->conversation().size() == 1);  // untouched: only its system prompt
    CHECK(s.history(id).size() == 9);
    CHECK_THROWS_WITH_AS(agentry::resume_run(s, *other, "nope"), doctest::Contains("no run nope"), agentry::store_error);
}

// A crash after turn 1 and the start of both calls, charge finished, note not: resuming
// answers charge from the store, and runs note again only because it is idempotent; a
// crash after charge started makes its outcome unknown.
template <class Store>
void conformance_mid_turn(Store& s, bool charge_finished) {
    auto first = durable_test::make_agent();
    const std::string id = agentry::start_run(s, *first, "job-m");
    // What a process that crashed left: the state after turn 1, and the calls' records.
    agentry::run_state state = agentry::detail::read_body<agentry::run_state>(s.history(id)[0].body, id, "state");
    state.turns = 1;
    state.conversation.push_back(durable_test::reply(state.conversation).value->reply);
    s.append(id, agentry::checkpoint_kind::state, agentry::detail::write_body(state));
    s.append(id, agentry::checkpoint_kind::call_started, R"({"id":"c1","tool":"charge","arguments":"{}"})");
    if (charge_finished)
        s.append(id, agentry::checkpoint_kind::call_finished,
                 R"({"id":"c1","status":"ok","content":"charged before the crash","unknown":false})");
    s.append(id, agentry::checkpoint_kind::call_started, R"({"id":"c2","tool":"note","arguments":"{}"})");
    durable_test::effects_path = (scratch() / (fresh_name("effects") + ".db")).string();
    std::vector<std::string> unknown;
    agentry::durable_options options;
    options.on_unknown_outcome = [&](std::string_view run, const agentry::tool_call& call) {
        CHECK(run == id);
        unknown.push_back(call.name);
    };
    auto second = durable_test::make_agent();
    const agentry::run_result r = agentry::resume_run(s, *second, id, options);
    CHECK(r.stop == agentry::stop_reason::completed);
    CHECK(r.turns == 2);
    CHECK(effects_count("SELECT count(*) FROM charges") == 0);  // charge never ran here
    CHECK(effects_count("SELECT count(*) FROM notes") == 1);    // note ran again
    if (charge_finished) {
        CHECK(unknown.empty());
        CHECK(r.text == "done job-m: charged before the crash; noted: charged");
    } else {
        CHECK(unknown == std::vector<std::string>{"charge"});
        CHECK(r.text.find("done job-m: charge: the outcome of this call is unknown") == 0);
        CHECK(r.steps.at(0).status == agentry::tool_status::tool_error);
        const auto tail = s.history(id);
        const auto finished = std::find_if(tail.begin(), tail.end(), [](const agentry::checkpoint& c) {
            return c.kind == agentry::checkpoint_kind::call_finished;
        });
        REQUIRE(finished != tail.end());
        CHECK(finished->body.find("\"unknown\":true") != std::string::npos);
    }
    durable_test::effects_path.clear();
}

template <class Store>
void conformance_failures(Store& s) {
    auto agent = durable_test::make_agent();
    // Unreadable checkpoints are reported, naming the run.
    const std::string bad = s.create_run("not json");
    CHECK_THROWS_WITH_AS(agentry::resume_run(s, *agent, bad), doctest::Contains(("state checkpoint of run " + bad).c_str()),
                         agentry::store_error);
    CHECK(s.status(bad) == agentry::run_status::runnable);  // left for a newer version to read
}

// What agent::run(agentry::approvals{decisions}) says of `decisions` on the paused run `id`, in memory.
template <class Store>
std::string agent_refusal(Store& s, const std::string& id, const std::vector<agentry::approval_decision>& decisions) {
    const agentry::run_state state =
        agentry::detail::read_body<agentry::run_state>(s.tail(id).front().body, id, "state");
    auto agent = durable_test::make_approval_agent();
    REQUIRE(agent->restore(agentry::detail::write_body(state.conversation)));
    const agentry::run_result r = agent->run(agentry::approvals{decisions});
    CHECK(r.stop == agentry::stop_reason::approval_pending);
    return r.text;
}

// Agent A runs to approval_pending; another connection and agent (another process, as far as
// the store can tell) read the pending call, decide, and resume.
void conformance_approval(const place& p, bool approve) {
    durable_test::effects_path = (scratch() / (fresh_name("effects") + ".db")).string();
    std::string id;
    with_store(p, "", [&](auto& a) {
        auto agent = durable_test::make_approval_agent();
        id = agentry::start_run(a, *agent, "job-a");
        const agentry::run_result r = agentry::resume_run(a, *agent, id);
        CHECK(r.stop == agentry::stop_reason::approval_pending);
        REQUIRE(r.pending.size() == 1);
        CHECK(r.pending[0].tool == "charge");
        CHECK(r.turns == 1);
        CHECK(a.status(id) == agentry::run_status::waiting);
        CHECK(kinds(a.history(id)) == std::vector<agentry::checkpoint_kind>{
                                          agentry::checkpoint_kind::state, agentry::checkpoint_kind::state,
                                          agentry::checkpoint_kind::state, agentry::checkpoint_kind::pending});
        // Resuming a waiting run runs nothing and says what it waits for.
        const agentry::run_result again = agentry::resume_run(a, *durable_test::make_approval_agent(), id);
        CHECK(again.stop == agentry::stop_reason::approval_pending);
        CHECK(again.pending.size() == 1);
        CHECK(again.turns == 1);
        CHECK(a.history(id).size() == 4);
        // Not a worker's: claimed by none, not counted as runnable, refused to append to.
        CHECK_FALSE(a.claim(std::chrono::minutes(1)).has_value());
        CHECK(a.unfinished() == 0);
        CHECK_THROWS_WITH_AS(a.append(id, agentry::checkpoint_kind::state, "{}"),
                             doctest::Contains("waits for decisions on its pending tool calls"), agentry::store_error);
    });
    CHECK(effects_count("SELECT count(*) FROM charges") == 0);
    CHECK(effects_count("SELECT count(*) FROM notes") == 0);  // the turn's calls wait together

    with_store(p, "", [&](auto& b) {
        CHECK(b.runs(agentry::run_status::waiting) == std::vector<std::string>{id});
        CHECK(b.runs(agentry::run_status::runnable).empty());
        const std::vector<agentry::pending_call> pending = agentry::pending_approvals(b, id);
        REQUIRE(pending.size() == 1);
        CHECK(pending[0].call_id == "c1");
        CHECK(pending[0].tool == "charge");
        CHECK(pending[0].arguments == R"({"cents":250,"job":"job-a"})");  // canonical form
        CHECK(pending[0].level == agentry::permission::write);

        // Decisions the agent would refuse are refused with its message; the run stays waiting.
        const std::vector<std::vector<agentry::approval_decision>> wrong{
            {{"c9", pending[0].arguments, agentry::approval::approve()}},
            {{"c1", R"({"cents":99999,"job":"job-a"})", agentry::approval::approve()}},
            {},
            {agentry::decide(pending[0], agentry::approval::approve()),
             agentry::decide(pending[0], agentry::approval::approve())},
        };
        for (const auto& decisions : wrong) {
            const std::string expected = agent_refusal(b, id, decisions);
            CHECK(expected.find("agentry: agent::run(agentry::approvals{...}): ") == 0);
            CHECK_THROWS_WITH_AS(agentry::decide_run(b, id, decisions), expected.c_str(), agentry::store_error);
            CHECK(b.status(id) == agentry::run_status::waiting);
            CHECK(b.history(id).size() == 4);
        }

        const agentry::approval answer = approve ? agentry::approval::approve() : agentry::approval::deny("too dear");
        const std::vector<agentry::approval_decision> decisions{agentry::decide(pending[0], answer)};
        agentry::decide_run(b, id, decisions);
        CHECK(b.status(id) == agentry::run_status::runnable);
        CHECK(b.runs(agentry::run_status::waiting).empty());
        CHECK(agentry::pending_approvals(b, id).empty());
        CHECK(b.history(id).back().kind == agentry::checkpoint_kind::decided);
        // A second decision finds the run no longer waiting.
        CHECK_THROWS_WITH_AS(agentry::decide_run(b, id, decisions),
                             doctest::Contains("is runnable, not waiting for a decision"), agentry::store_error);

        auto agent = durable_test::make_approval_agent();
        const agentry::run_result r = agentry::resume_run(b, *agent, id);
        CHECK(r.stop == agentry::stop_reason::completed);
        CHECK(r.turns == 2);  // counted on from the first process
        CHECK(b.status(id) == agentry::run_status::done);
        if (approve) {
            CHECK(r.text == "done job-a: charged 250 cents; noted: charged");
        } else {
            CHECK(r.text.find("too dear") != std::string::npos);
            CHECK(r.steps.at(0).status != agentry::tool_status::ok);
        }
        // Done: not run again.
        CHECK(agentry::resume_run(b, *durable_test::make_approval_agent(), id).text == r.text);
        CHECK_THROWS_WITH_AS(agentry::decide_run(b, id, decisions), doctest::Contains("is done, not waiting"),
                             agentry::store_error);
    });
    CHECK(effects_count("SELECT count(*) FROM charges") == (approve ? 1 : 0));
    CHECK(effects_count("SELECT count(*) FROM notes") == 1);
    with_store(p, "", [&](auto& s) {
        CHECK_THROWS_WITH_AS(agentry::decide_run(s, "no-such-run", std::vector<agentry::approval_decision>{}),
                             doctest::Contains("is not in this store"), agentry::store_error);
        CHECK(agentry::pending_approvals(s, "no-such-run").empty());
        CHECK_THROWS_WITH_AS(s.decide("no-such-run", "[]"), doctest::Contains("no run no-such-run"),
                             agentry::store_error);
    });
    durable_test::effects_path.clear();
}

// A process that crashed after the decision and while the approved call ran: the next one
// applies the same decisions, and the call recorded finished is not run again.
template <class Store>
void conformance_crash_after_decision(Store& s) {
    durable_test::effects_path = (scratch() / (fresh_name("effects") + ".db")).string();
    auto first = durable_test::make_approval_agent();
    const std::string id = agentry::start_run(s, *first, "job-x");
    CHECK(agentry::resume_run(s, *first, id).stop == agentry::stop_reason::approval_pending);
    const std::vector<agentry::pending_call> pending = agentry::pending_approvals(s, id);
    REQUIRE(pending.size() == 1);
    agentry::decide_run(s, id, std::vector{agentry::decide(pending[0], agentry::approval::approve())});
    s.append(id, agentry::checkpoint_kind::call_started, R"({"id":"c1","tool":"charge","arguments":"{}"})");
    s.append(id, agentry::checkpoint_kind::call_finished,
             R"({"id":"c1","status":"ok","content":"charged before the crash","unknown":false})");
    auto second = durable_test::make_approval_agent();
    const agentry::run_result r = agentry::resume_run(s, *second, id);
    CHECK(r.stop == agentry::stop_reason::completed);
    CHECK(r.text == "done job-x: charged before the crash; noted: charged");
    CHECK(effects_count("SELECT count(*) FROM charges") == 0);  // not run again
    CHECK(effects_count("SELECT count(*) FROM notes") == 1);
    durable_test::effects_path.clear();
}

// A worker leaves a run that stops for approval waiting, does not take it while it waits, and
// takes it once it has its decisions.
template <class Store>
void conformance_worker_approval(const place& p) {
    durable_test::effects_path = (scratch() / (fresh_name("effects") + ".db")).string();
    const auto connect = [&] {
        if constexpr (std::is_same_v<Store, agentry::postgres_store>)
            return agentry::postgres_store{{.conninfo = p.where}};
        else
            return agentry::sqlite_store{{.path = p.where}};
    };
    std::string id;
    {
        Store s = connect();
        id = agentry::start_run(s, *durable_test::make_approval_agent(), "job-w");
    }
    std::vector<agentry::stop_reason> heard;
    agentry::worker_options options;
    options.poll = std::chrono::milliseconds(5);
    options.until_drained = true;
    options.on_done = [&](std::string_view run, const agentry::run_result& r) {
        CHECK(run == id);
        heard.push_back(r.stop);
    };
    CHECK(agentry::run_worker<Store>(connect, [] { return durable_test::make_approval_agent(); }, options) == 0);
    CHECK(heard == std::vector<agentry::stop_reason>{agentry::stop_reason::approval_pending});
    // Waiting: a worker finds nothing to take.
    CHECK(agentry::run_worker<Store>(connect, [] { return durable_test::make_approval_agent(); }, options) == 0);
    CHECK(heard.size() == 1);
    CHECK(effects_count("SELECT count(*) FROM charges") == 0);
    {
        Store s = connect();
        const std::vector<agentry::pending_call> pending = agentry::pending_approvals(s, id);
        REQUIRE(pending.size() == 1);
        agentry::decide_run(s, id, std::vector{agentry::decide(pending[0], agentry::approval::approve())});
    }
    CHECK(agentry::run_worker<Store>(connect, [] { return durable_test::make_approval_agent(); }, options) == 1);
    CHECK(heard.back() == agentry::stop_reason::completed);
    CHECK(effects_count("SELECT count(*) FROM charges") == 1);
    Store s = connect();
    CHECK(s.status(id) == agentry::run_status::done);
    durable_test::effects_path.clear();
}

// The tools' agentry::call_info in a durable run: a model that calls charge in turn 1, note in
// turn 2, then answers; tools that record what they read.
namespace keyed {

struct seen_call {
    std::string tool, run_id, call_id;
    bool operator==(const seen_call&) const = default;
};

std::vector<seen_call> seen;
std::function<void()> after_charge;  // what charge does once it has recorded its call

std::string charge(agentry::call_info info, std::string job, int cents) {
    seen.push_back({"charge", std::string(info.run_id), std::string(info.call_id)});
    if (after_charge) after_charge();
    return "charged " + job + " " + std::to_string(cents) + " cents";
}

std::string note(std::string job, agentry::call_info info, std::string text) {
    seen.push_back({"note", std::string(info.run_id), std::string(info.call_id)});
    return "noted on " + job + ": " + text;
}

constexpr agentry::registry tools{
    agentry::with_policy<agentry::tool_policy{.level = agentry::permission::write}>(
        agentry::tool<"charge", "Charges the job's account", "job", "cents">(charge)),
    agentry::with_policy<agentry::tool_policy{.level = agentry::permission::write, .idempotent = true}>(
        agentry::tool<"note", "Writes a note on the job", "job", "text">(note)),
};

agentry::turn_result reply(const std::vector<agentry::message>& messages) {
    const auto replies = std::count_if(messages.begin(), messages.end(),
                                       [](const agentry::message& m) { return m.role == agentry::role::assistant; });
    if (replies == 0) return scripted::calls({scripted::call("call_charge_1", "charge", R"({"job":"job-i","cents":250})")});
    if (replies == 1) return scripted::calls({scripted::call("call_note_2", "note", R"({"job":"job-i","text":"paid"})")});
    return scripted::answer("done job-i");
}

using agent = agentry::agent<durable_test::config>;

std::unique_ptr<agent> make() {
    return std::make_unique<agent>(durable_test::job_model{.replies = &reply}, tools, "You run jobs.",
                                   scripted::quiet_transport{});
}

} // namespace keyed

// The first process stops (agent::cancel) after charge; a second agent resumes the run: both
// tools read the store's run id and the model's id of their call.
template <class Store>
void conformance_call_info(Store& s) {
    keyed::seen.clear();
    auto first = keyed::make();
    const std::string id = agentry::start_run(s, *first, "job-i");
    keyed::after_charge = [&] { first->cancel(); };
    const agentry::run_result stopped = agentry::resume_run(s, *first, id);
    keyed::after_charge = nullptr;
    REQUIRE(stopped.stop == agentry::stop_reason::cancelled);
    CHECK(stopped.run_id == id);
    CHECK(s.status(id) == agentry::run_status::runnable);
    REQUIRE(keyed::seen.size() == 1);
    CHECK(keyed::seen[0] == keyed::seen_call{"charge", id, "call_charge_1"});

    auto second = keyed::make();
    const agentry::run_result r = agentry::resume_run(s, *second, id);
    CHECK(r.stop == agentry::stop_reason::completed);
    CHECK(r.text == "done job-i");
    CHECK(r.run_id == id);
    CHECK(s.status(id) == agentry::run_status::done);
    CHECK(keyed::seen == std::vector<keyed::seen_call>{{"charge", id, "call_charge_1"}, {"note", id, "call_note_2"}});
}

void conformance(bool postgres) {
    const std::optional<place> p = fresh_place(postgres);
    if (!p) return;
    SUBCASE("checkpoints are numbered, read back, and refused when the run is done or unknown") {
        with_store(*p, "", [](auto& s) { conformance_records(s); });
    }
    SUBCASE("leases: claimed once, renewed, released, expired; only the owner writes") {
        with_store(*p, "worker-a", [&](auto& a) { with_store(*p, "worker-b", [&](auto& b) { conformance_leases(a, b); }); });
    }
    SUBCASE("a run is checkpointed at every turn and call, and a done run is not run again") {
        with_store(*p, "", [](auto& s) { conformance_run(s); });
    }
    SUBCASE("resumed mid-turn: a finished call is not run again, an idempotent one is") {
        with_store(*p, "", [](auto& s) { conformance_mid_turn(s, true); });
    }
    SUBCASE("resumed mid-turn: a started non-idempotent call is reported unknown, not run") {
        with_store(*p, "", [](auto& s) { conformance_mid_turn(s, false); });
    }
    SUBCASE("a run whose checkpoint cannot be read is reported, not run") {
        with_store(*p, "", [](auto& s) { conformance_failures(s); });
    }
    SUBCASE("a pending approval waits in the store; another process decides (approve) and resumes") {
        conformance_approval(*p, true);
    }
    SUBCASE("a pending approval waits in the store; another process decides (deny) and resumes") {
        conformance_approval(*p, false);
    }
    SUBCASE("a crash after the decision: the next process applies it, a finished call is not run again") {
        with_store(*p, "", [](auto& s) { conformance_crash_after_decision(s); });
    }
    SUBCASE("the tools read the store's run id, the same in a second agent, and the model's call id") {
        with_store(*p, "", [](auto& s) { conformance_call_info(s); });
    }
    SUBCASE("a worker leaves a run waiting for approval and takes it after the decision") {
        if (p->postgres) conformance_worker_approval<agentry::postgres_store>(*p);
        else conformance_worker_approval<agentry::sqlite_store>(*p);
    }
}

TEST_CASE("store.sqlite: conformance") { conformance(false); }
TEST_CASE("store.postgres: conformance") { conformance(true); }

TEST_CASE("store: a lost lease stops the run and leaves it to the new owner") {
    const std::optional<place> p = fresh_place(false);
    agentry::sqlite_store a{{.path = p->where, .worker = "a"}};
    agentry::sqlite_store b{{.path = p->where, .worker = "b"}};
    auto agent = durable_test::make_agent();
    const std::string id = agentry::start_run(a, *agent, "job-l");
    REQUIRE(b.claim(std::chrono::minutes(1)) == id);
    // a resumes a run b holds: its first checkpoint is refused, nothing is run, and the run
    // stays runnable with b.
    durable_test::effects_path = (scratch() / (fresh_name("effects") + ".db")).string();
    CHECK_THROWS_WITH_AS(agentry::resume_run(a, *agent, id), doctest::Contains("lost its lease"), agentry::store_error);
    CHECK(effects_count("SELECT count(*) FROM charges") == 0);
    CHECK(a.status(id) == agentry::run_status::runnable);
    CHECK(a.history(id).size() == 1);
    durable_test::effects_path.clear();
}

// A conversation whose last turn called `tool` with `arguments`, without results yet, and the
// progress of `rounds` earlier rounds of that same call with `status`.
struct continued {
    std::unique_ptr<durable_test::job_agent> agent = durable_test::make_agent();
    agentry::run_result progress;
};

continued continued_run(const std::string& arguments, agentry::tool_status status, std::uint32_t rounds) {
    continued c;
    std::vector<agentry::message> conversation = c.agent->conversation();
    conversation.push_back(agentry::message::user("job-r"));
    agentry::message reply = agentry::message::assistant("");
    agentry::tool_call call;
    call.id = "c1";
    call.name = "charge";
    call.arguments = arguments;
    reply.tool_calls.push_back(call);
    conversation.push_back(reply);
    std::string saved;
    agentry::json::write(saved, conversation);
    REQUIRE(c.agent->restore(saved));
    c.progress.turns = rounds + 1;
    for (std::uint32_t i = 1; i <= rounds; ++i) {
        agentry::step s;
        s.turn = i;
        s.id = "c1";
        s.tool = "charge";
        s.arguments = arguments;
        s.status = status;
        c.progress.steps.push_back(s);
    }
    return c;
}

TEST_CASE("loop: a continued run counts invalid-argument rounds and the loop window on from its steps") {
    SUBCASE("two invalid rounds before: the third stops the run") {
        continued c = continued_run(R"({"job":"job-r","cents":"many"})", agentry::tool_status::invalid_arguments, 2);
        const agentry::run_result r = c.agent->run(agentry::continuation{c.progress});
        CHECK(r.stop == agentry::stop_reason::invalid_arguments_exhausted);
        CHECK(r.text == "The model sent invalid arguments to charge 3 rounds in a row.");
    }
    SUBCASE("no rounds before: one invalid round does not") {
        continued c = continued_run(R"({"job":"job-r","cents":"many"})", agentry::tool_status::invalid_arguments, 0);
        CHECK(c.agent->run(agentry::continuation{c.progress}).stop == agentry::stop_reason::completed);
    }
    SUBCASE("an ok round between resets the count") {
        continued c = continued_run(R"({"job":"job-r","cents":"many"})", agentry::tool_status::invalid_arguments, 2);
        c.progress.steps[1].status = agentry::tool_status::ok;
        c.progress.steps[1].arguments = R"({"job":"job-r","cents":1})";  // not a loop either
        CHECK(c.agent->run(agentry::continuation{c.progress}).stop == agentry::stop_reason::completed);
    }
    SUBCASE("the same call twice before: the third is a loop") {
        continued c = continued_run(R"({"job":"job-r","cents":250})", agentry::tool_status::ok, 2);
        const agentry::run_result r = c.agent->run(agentry::continuation{c.progress});
        CHECK(r.stop == agentry::stop_reason::loop_detected);
        CHECK(r.steps.size() == 3);
    }
    SUBCASE("the same call once before: no loop") {
        continued c = continued_run(R"({"job":"job-r","cents":250})", agentry::tool_status::ok, 1);
        CHECK(c.agent->run(agentry::continuation{c.progress}).stop == agentry::stop_reason::completed);
    }
}

TEST_CASE("loop: max_total_time counts on from the progress's wall time") {
    constexpr agentry::loop_config timed{.max_turns = 4, .max_total_time = std::chrono::hours(1)};
    agentry::agent<timed> agent(durable_test::job_model{}, durable_test::tools, "You run jobs.",
                                scripted::quiet_transport{});
    std::vector<agentry::message> conversation = agent.conversation();
    conversation.push_back(agentry::message::user("job-t"));
    std::string saved;
    agentry::json::write(saved, conversation);
    REQUIRE(agent.restore(saved));
    agentry::run_result progress;
    SUBCASE("an hour spent: the limit is reached before the next turn") {
        progress.wall_time = std::chrono::hours(1);
        const agentry::run_result r = agent.run(agentry::continuation{progress});
        CHECK(r.stop == agentry::stop_reason::timeout);
        CHECK(r.turns == 0);
        CHECK(r.wall_time >= std::chrono::hours(1));
    }
    SUBCASE("none spent: the run goes on") {
        CHECK(agent.run(agentry::continuation{progress}).stop == agentry::stop_reason::completed);
    }
}

TEST_CASE("store: state checkpoints carry the run time, which a resumed run counts on from") {
    const std::optional<place> p = fresh_place(false);
    agentry::sqlite_store s{{.path = p->where}};
    auto agent = durable_test::make_agent();
    const std::string id = agentry::start_run(s, *agent, "job-t");
    CHECK_FALSE(agentry::detail::read_body<agentry::run_state>(s.history(id)[0].body, id, "state").run_time_ms);
    const agentry::run_result r = agentry::resume_run(s, *agent, id);
    CHECK(r.stop == agentry::stop_reason::completed);
    std::size_t states = 0;
    for (const agentry::checkpoint& c : s.history(id))
        if (c.kind == agentry::checkpoint_kind::state && c.seq != 1) {
            ++states;
            const auto state = agentry::detail::read_body<agentry::run_state>(c.body, id, "state");
            REQUIRE(state.run_time_ms.has_value());
            CHECK(*state.run_time_ms >= 0);
            CHECK(state.summarized_messages == std::optional<std::size_t>(0));
            CHECK(state.summary_usage.has_value());
        }
    CHECK(states == 3);
    // A state checkpoint that says an hour was spent: the resumed run stops at once.
    constexpr agentry::loop_config timed{.max_turns = 4, .max_total_time = std::chrono::hours(1)};
    agentry::agent<timed> slow(durable_test::job_model{}, durable_test::tools, "You run jobs.",
                               scripted::quiet_transport{});
    const std::string late = agentry::start_run(s, slow, "job-late");
    agentry::run_state state = agentry::detail::read_body<agentry::run_state>(s.history(late)[0].body, late, "state");
    state.run_time_ms = 3'600'000;
    s.append(late, agentry::checkpoint_kind::state, agentry::detail::write_body(state));
    const agentry::run_result timed_out = agentry::resume_run(s, slow, late);
    CHECK(timed_out.stop == agentry::stop_reason::timeout);
    CHECK(s.status(late) == agentry::run_status::done);
    // Times no run can have taken are bounded: a negative one counts as none, a huge one as
    // past any limit.
    for (const std::int64_t bogus : {std::int64_t(-5), std::int64_t(9'000'000'000'000'000'000)}) {
        const std::string odd = agentry::start_run(s, slow, "job-odd");
        state.run_time_ms = bogus;
        s.append(odd, agentry::checkpoint_kind::state, agentry::detail::write_body(state));
        CHECK(agentry::resume_run(s, slow, odd).stop ==
              (bogus < 0 ? agentry::stop_reason::completed : agentry::stop_reason::timeout));
    }
}

TEST_CASE("store.sqlite: errors opening") {
    CHECK_THROWS_WITH_AS(agentry::sqlite_store({.path = "/nonexistent-dir/x/runs.db"}),
                         doctest::Contains("agentry: sqlite_store: cannot open /nonexistent-dir/x/runs.db"),
                         agentry::store_error);
}

TEST_CASE("store.postgres: errors connecting") {
    CHECK_THROWS_WITH_AS(agentry::postgres_store({.conninfo = "host=127.0.0.1 port=1 connect_timeout=5"}),
                         doctest::Contains("agentry: postgres_store: cannot connect"), agentry::store_error);
}

// --- processes ---

// Starts this executable as a worker; returns its pid.
pid_t spawn_worker(const place& p, const std::string& effects, const std::string& point, int notify, int lease_ms,
                   const std::string& name) {
    const std::vector<std::string> args{"/proc/self/exe", "--worker", p.postgres ? "postgres" : "sqlite", p.where,
                                        effects, point.empty() ? "-" : point, std::to_string(notify),
                                        std::to_string(lease_ms), name};
    const pid_t pid = ::fork();
    if (pid == 0) {
        std::vector<char*> argv;
        for (const std::string& a : args) argv.push_back(const_cast<char*>(a.c_str()));
        argv.push_back(nullptr);
        ::execv("/proc/self/exe", argv.data());
        ::_exit(127);
    }
    return pid;
}

int wait_exit(pid_t pid) {
    int status = 0;
    ::waitpid(pid, &status, 0);
    return WIFEXITED(status) ? WEXITSTATUS(status) : 128 + (WIFSIGNALED(status) ? WTERMSIG(status) : 0);
}

// A worker stops at `point` and is killed; another finishes the run.
void crash(bool postgres, const std::string& point) {
    const std::optional<place> p = fresh_place(postgres);
    if (!p) return;
    const std::string effects = (scratch() / (fresh_name("effects") + ".db")).string();
    durable_test::effects_path = effects;
    std::string id;
    with_store(*p, "", [&](auto& s) { id = agentry::start_run(s, *durable_test::make_agent(), "job-k"); });
    int pipe_fds[2];
    REQUIRE(::pipe(pipe_fds) == 0);
    const pid_t first = spawn_worker(*p, effects, point, pipe_fds[1], 1000, "first");
    ::close(pipe_fds[1]);
    // Bounded: a worker that never reaches the point fails the test instead of hanging it.
    pollfd ready{pipe_fds[0], POLLIN, 0};
    const int polled = ::poll(&ready, 1, 120'000);
    char byte = 0;
    const bool stopped = polled == 1 && ::read(pipe_fds[0], &byte, 1) == 1;
    ::kill(first, SIGKILL);
    CHECK(wait_exit(first) == 128 + SIGKILL);
    ::close(pipe_fds[0]);
    REQUIRE_MESSAGE(stopped, "the first worker did not reach " << point);
    const pid_t second = spawn_worker(*p, effects, "", -1, 1000, "second");
    CHECK(wait_exit(second) == 0);

    // The run completed once, in the second worker.
    CHECK(effects_count("SELECT count(*) FROM finished WHERE job = 'job-k'") == 1);
    CHECK(effects_count("SELECT count(*) FROM finished WHERE worker = 'second'") == 1);
    // No duplicated effect of the non-idempotent tool; the idempotent one has one row.
    CHECK(effects_count("SELECT count(*) FROM charges WHERE job = 'job-k'") == 1);
    CHECK(effects_count("SELECT count(*) FROM notes WHERE job = 'job-k'") == 1);
    with_store(*p, "", [&](auto& s) {
        CHECK(s.status(id) == agentry::run_status::done);
        const auto history = s.history(id);
        CHECK(std::count_if(history.begin(), history.end(),
                            [](const agentry::checkpoint& c) { return c.kind == agentry::checkpoint_kind::done; }) == 1);
        const agentry::run_outcome outcome =
            agentry::detail::read_body<agentry::run_outcome>(history.back().body, id, "done");
        CHECK(outcome.stop == agentry::stop_reason::completed);
        if (point == "tool:charge") {
            // charge ran (its row is there) but did not finish: reported unknown, not run again.
            CHECK(effects_count("SELECT count(*) FROM unknowns WHERE job = 'job-k'") == 1);
            CHECK(outcome.text.find("done job-k: charge: the outcome of this call is unknown") == 0);
            CHECK(effects_count("SELECT runs FROM notes WHERE job = 'job-k'") == 1);
        } else if (point == "tool:note") {
            // charge finished before the crash and is not run again; note is, being idempotent.
            CHECK(effects_count("SELECT count(*) FROM unknowns") == 0);
            CHECK(effects_count("SELECT runs FROM notes WHERE job = 'job-k'") == 2);
            CHECK(outcome.text == "done job-k: charged 250 cents; noted: charged");
        } else {
            CHECK(effects_count("SELECT count(*) FROM unknowns") == 0);
            CHECK(effects_count("SELECT runs FROM notes WHERE job = 'job-k'") == 1);
            CHECK(outcome.text == "done job-k: charged 250 cents; noted: charged");
        }
    });
    durable_test::effects_path.clear();
}

TEST_CASE("crash.sqlite: killed in a model turn") { crash(false, "model:2"); }
TEST_CASE("crash.sqlite: killed in a tool call, not idempotent") { crash(false, "tool:charge"); }
TEST_CASE("crash.sqlite: killed in a tool call, idempotent") { crash(false, "tool:note"); }
TEST_CASE("crash.postgres: killed in a model turn") { crash(true, "model:2"); }
TEST_CASE("crash.postgres: killed in a tool call, not idempotent") { crash(true, "tool:charge"); }
TEST_CASE("crash.postgres: killed in a tool call, idempotent") { crash(true, "tool:note"); }

TEST_CASE("scale.postgres: 4 worker processes, 200 runs, each completed exactly once") {
    const std::optional<place> p = fresh_place(true);
    if (!p) return;
    constexpr int runs = 200;
    const std::string effects = (scratch() / (fresh_name("effects") + ".db")).string();
    durable_test::effects_path = effects;
    durable_test::effects_exec("");
    std::vector<std::string> ids;
    {
        agentry::postgres_store s{{.conninfo = p->where}};
        auto agent = durable_test::make_agent();
        for (int i = 0; i != runs; ++i) ids.push_back(agentry::start_run(s, *agent, "job-" + std::to_string(i)));
    }
    std::vector<pid_t> workers;
    for (int w = 0; w != 4; ++w) workers.push_back(spawn_worker(*p, effects, "", -1, 30'000, "w" + std::to_string(w)));
    for (pid_t w : workers) CHECK(wait_exit(w) == 0);
    CHECK(effects_count("SELECT count(*) FROM finished") == runs);
    CHECK(effects_count("SELECT count(DISTINCT job) FROM finished") == runs);
    CHECK(effects_count("SELECT count(*) FROM charges") == runs);
    CHECK(effects_count("SELECT count(DISTINCT job) FROM charges") == runs);
    CHECK(effects_count("SELECT count(*) FROM notes WHERE runs = 1") == runs);
    agentry::postgres_store s{{.conninfo = p->where}};
    CHECK(s.unfinished() == 0);
    for (const std::string& id : ids) {
        const auto history = s.history(id);
        CHECK(std::count_if(history.begin(), history.end(),
                            [](const agentry::checkpoint& c) { return c.kind == agentry::checkpoint_kind::done; }) == 1);
    }
    durable_test::effects_path.clear();
}

// The worker process: --worker <sqlite|postgres> <where> <effects> <kill point|-> <notify fd>
// <lease ms> <name>. Runs runs until none is left unfinished.
int worker_main(char** argv) {
    const std::string kind = argv[2];
    const std::string where = argv[3];
    durable_test::effects_path = argv[4];
    durable_test::kill_point = std::string(argv[5]) == "-" ? "" : argv[5];
    durable_test::notify_fd = std::stoi(argv[6]);
    const std::string name = argv[8];
    agentry::worker_options options;
    options.lease = std::chrono::milliseconds(std::stoi(argv[7]));
    options.heartbeat = options.lease / 3;
    options.poll = std::chrono::milliseconds(20);
    options.until_drained = true;
    options.durable.on_unknown_outcome = [](std::string_view run, const agentry::tool_call& call) {
        std::cerr << "worker: run " << run << ": the outcome of " << call.name << " is unknown\n";
        durable_test::effects_exec("INSERT INTO unknowns VALUES('job-k', " + sql_text(call.id) + ");");
    };
    options.on_done = [&](std::string_view, const agentry::run_result& r) {
        const std::string job = r.text.substr(5, r.text.find(':') - 5);
        durable_test::effects_exec("INSERT INTO finished VALUES(" + sql_text(job) + ", " + sql_text(name) + ");");
    };
    options.on_failure = [](std::string_view run, const agentry::store_error& e) {
        std::cerr << "worker: run " << run << ": " << e.what() << "\n";
    };
    std::size_t done = 0;
    if (kind == "postgres")
        done = agentry::run_worker<agentry::postgres_store>(
            [&] { return agentry::postgres_store{{.conninfo = where, .worker = name}}; },
            [] { return durable_test::make_agent(); }, options);
    else
        done = agentry::run_worker<agentry::sqlite_store>(
            [&] { return agentry::sqlite_store{{.path = where, .worker = name}}; },
            [] { return durable_test::make_agent(); }, options);
    std::cout << "worker " << name << ": finished " << done << " runs\n";
    return 0;
}

} // namespace

int main(int argc, char** argv) {
    if (argc == 9 && std::string(argv[1]) == "--worker") {
        try {
            return worker_main(argv);
        } catch (const std::exception& e) {
            std::cerr << "worker: " << e.what() << "\n";
            return 1;
        }
    }
    doctest::Context context(argc, argv);
    const int rc = context.run();
    std::error_code ignored;
    std::filesystem::remove_all(scratch(), ignored);
    return rc;
}

// --- a learned_boost kept in the store's named values (select/learned.hpp) ---

void learned_in_store(bool postgres) {
    const std::optional<place> p = fresh_place(postgres);
    if (!p) return;
    agentry::learned_boost learned;
    learned.record("search_flights", "book_flight", 3);
    learned.record("search_flights", "get_forecast");
    with_store(*p, "w", [&](auto& store) {
        CHECK(!store.value("agentry.learned_boost"));
        agentry::learned_boost empty;
        CHECK(empty.load_from(store));  // nothing stored yet: an empty table
        CHECK(empty.save() == R"({"version":1,"follows":{}})");
        learned.save_to(store);
        learned.record("book_flight", "send_email");
        learned.save_to(store);  // replaces
        store.put_value("other", "kept apart");
    });
    with_store(*p, "w2", [&](auto& store) {
        agentry::learned_boost again;
        REQUIRE(again.load_from(store));
        CHECK(again.save() ==
              R"({"version":1,"follows":{"book_flight":{"send_email":1},"search_flights":{"book_flight":3,)"
              R"("get_forecast":1}}})");
        CHECK(again.follows("search_flights", "book_flight") == 0.75);
        CHECK(store.value("other") == "kept apart");
        store.put_value("agentry.learned_boost", "{\"version\":2}");
        const agentry::outcome<void> refused = again.load_from(store);
        REQUIRE(!refused);
        CHECK(refused.error().message ==
              "agentry: learned_boost::load: no \"version\":1; give the text learned_boost::save() wrote");
        CHECK(again.follows("search_flights", "book_flight") == 0.75);  // unchanged
    });
}

TEST_CASE("store.sqlite: a learned_boost saved in the named values and loaded by another connection") {
    learned_in_store(false);
}
TEST_CASE("store.postgres: a learned_boost saved in the named values and loaded by another connection") {
    learned_in_store(true);
}
