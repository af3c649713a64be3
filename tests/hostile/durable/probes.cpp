// SPDX-License-Identifier: BSL-1.0
// Durable runs against a second worker: a worker whose connect() opens its connections as
// docs/durable.md writes it (no worker name) holds its run while a tool call goes on longer
// than the lease, and no other worker takes it meanwhile; a store refuses a write once the
// writer's lease has expired. Each probe runs against SQLite and PostgreSQL (its own server,
// or skipped with a printed reason).
#define DOCTEST_CONFIG_IMPLEMENT
#include <doctest/doctest.h>

#include "pg_server.hpp"
#include "scripted.hpp"

#include <agentry/agent.hpp>
#include <agentry/registry.hpp>
#include <agentry/store/durable.hpp>
#include <agentry/store/postgres.hpp>
#include <agentry/store/sqlite.hpp>
#include <agentry/store/worker.hpp>

#include <libpq-fe.h>
#include <sqlite3.h>
#include <unistd.h>

#include <atomic>
#include <chrono>
#include <condition_variable>
#include <cstdint>
#include <filesystem>
#include <iostream>
#include <memory>
#include <mutex>
#include <optional>
#include <string>
#include <thread>
#include <vector>

namespace {

using namespace std::chrono_literals;

// The tool `hold` (not idempotent) stays in its call until the test opens the gate.
struct gate {
    std::mutex mutex;
    std::condition_variable changed;
    bool entered = false;
    bool open = false;
};

gate& the_gate() {
    static gate g;
    return g;
}

std::string hold(std::string job) {
    gate& g = the_gate();
    std::unique_lock lock(g.mutex);
    g.entered = true;
    g.changed.notify_all();
    g.changed.wait(lock, [&] { return g.open; });
    return "held " + job;
}

constexpr agentry::registry tools{agentry::tool<"hold", "Holds the job until it is let go", "job">(hold)};

// Answers from the conversation alone: a first turn calls hold, the next answers.
agentry::turn_result reply(const std::vector<agentry::message>& messages) {
    for (const agentry::message& m : messages)
        if (m.role == agentry::role::assistant) return scripted::answer("done");
    return scripted::calls({scripted::call("h1", "hold", R"({"job":"j1"})")});
}

struct hold_model {
    using dialect = agentry::dialect::openai;
    std::shared_ptr<std::vector<agentry::message>> seen = std::make_shared<std::vector<agentry::message>>();

    agentry::http_request request(const agentry::chat_request& r) const {
        seen->assign(r.messages.begin(), r.messages.end());
        return {};
    }
    agentry::turn_result parse(const agentry::http_response&) const { return reply(*seen); }

    struct stream {
        const hold_model* m;
        void feed(std::string_view) {}
        agentry::turn_result finish(const agentry::http_response&) { return reply(*m->seen); }
    };
    stream start_stream(agentry::stream_events) const { return {this}; }
};

inline constexpr agentry::loop_config config{.max_turns = 4};
using hold_agent = agentry::agent<config>;

// `options` with the system prompt "You hold jobs.".
std::unique_ptr<hold_agent> make_agent(agentry::agent_options options = {}) {
    options.system_prompt = "You hold jobs.";
    return std::make_unique<hold_agent>(hold_model{}, tools, std::move(options), scripted::quiet_transport{});
}

// The temporary folder of this process's SQLite files, removed at exit.
const std::filesystem::path& scratch() {
    static const std::filesystem::path dir = [] {
        std::string t = (std::filesystem::temp_directory_path() / "agentry-hostile-durable-XXXXXX").string();
        if (!::mkdtemp(t.data())) throw std::runtime_error("cannot make a temporary folder");
        return std::filesystem::path(t);
    }();
    return dir;
}

std::string fresh_name(const char* stem) {
    static int n = 0;
    return std::string(stem) + "_" + std::to_string(::getpid()) + "_" + std::to_string(++n);
}

// The probes' PostgreSQL server, started on first use; null (and the reason printed once) when
// there is none.
durable_test::pg_server* server() {
    static std::string why;
    static std::unique_ptr<durable_test::pg_server> s = [] {
        auto started = durable_test::pg_server::start(why);
        if (!started) std::cout << "hostile.durable: PostgreSQL probes skipped: " << why << "\n";
        return started;
    }();
    return s.get();
}

std::optional<std::string> fresh_database() {
    durable_test::pg_server* s = server();
    if (!s) return std::nullopt;
    const std::string db = fresh_name("runs");
    REQUIRE(s->create_database(db));
    return s->conninfo(db);
}

// A run's lease as the database holds it, and the store's clock, in milliseconds.
struct lease_seen {
    std::string owner;
    std::int64_t until = 0;
    std::int64_t now = 0;
};

lease_seen peek_sqlite(const std::string& path, const std::string& run) {
    lease_seen out;
    sqlite3* db = nullptr;
    REQUIRE(sqlite3_open_v2(path.c_str(), &db, SQLITE_OPEN_READONLY, nullptr) == SQLITE_OK);
    sqlite3_busy_timeout(db, 30'000);
    sqlite3_stmt* s = nullptr;
    REQUIRE(sqlite3_prepare_v2(db, "SELECT coalesce(owner, ''), lease_until FROM agentry_runs WHERE id = ?1", -1, &s,
                               nullptr) == SQLITE_OK);
    sqlite3_bind_text(s, 1, run.c_str(), -1, SQLITE_TRANSIENT);
    const bool found = sqlite3_step(s) == SQLITE_ROW;
    if (found) {
        out.owner = reinterpret_cast<const char*>(sqlite3_column_text(s, 0));
        out.until = sqlite3_column_int64(s, 1);
    }
    sqlite3_finalize(s);
    sqlite3_close(db);
    REQUIRE(found);
    out.now = std::chrono::duration_cast<std::chrono::milliseconds>(std::chrono::system_clock::now().time_since_epoch())
                  .count();
    return out;
}

lease_seen peek_postgres(const std::string& conninfo, const std::string& run) {
    lease_seen out;
    PGconn* c = PQconnectdb(conninfo.c_str());
    REQUIRE(PQstatus(c) == CONNECTION_OK);
    const char* values[] = {run.c_str()};
    PGresult* r = PQexecParams(c,
                               "SELECT coalesce(owner, ''), coalesce((extract(epoch FROM lease_until) * 1000)::bigint, 0), "
                               "(extract(epoch FROM clock_timestamp()) * 1000)::bigint FROM agentry_runs WHERE id = $1",
                               1, nullptr, values, nullptr, nullptr, 0);
    const bool found = PQresultStatus(r) == PGRES_TUPLES_OK && PQntuples(r) == 1;
    if (found) {
        out.owner = PQgetvalue(r, 0, 0);
        out.until = std::stoll(PQgetvalue(r, 0, 1));
        out.now = std::stoll(PQgetvalue(r, 0, 2));
    }
    PQclear(r);
    PQfinish(c);
    REQUIRE(found);
    return out;
}

// A worker of its own thread, stopped (and its held call let go) when the object goes.
struct worker_thread {
    agentry::worker_options options;
    std::atomic<bool> stop{false};
    std::mutex mutex;
    std::vector<std::string> failures;
    std::vector<agentry::stop_reason> done;
    std::size_t finished = 0;
    std::thread thread;

    void let_go() {
        stop.store(true);
        {
            std::lock_guard lock(the_gate().mutex);
            the_gate().open = true;
        }
        the_gate().changed.notify_all();
        if (thread.joinable()) thread.join();
    }
    ~worker_thread() { let_go(); }
};

// The worker's connections are opened by `connect`, written as the docs write it. The lease
// is 2 s, renewed every 200 ms; the tool call lasts until the first lease would have expired.
template <class Store, class Connect, class Peek>
void one_worker_holds_its_run(Connect connect, Peek peek) {
    {
        std::lock_guard lock(the_gate().mutex);
        the_gate().entered = false;
        the_gate().open = false;
    }
    constexpr std::chrono::milliseconds lease = 2000ms;
    std::string id;
    {
        Store s = connect();
        id = agentry::start_run(s, *make_agent(), "job-h");
    }
    worker_thread w;
    agentry::worker_options& options = w.options;
    options.lease = lease;
    options.heartbeat = 200ms;
    options.poll = 5ms;
    options.stop = &w.stop;
    options.on_done = [&](std::string_view, const agentry::run_result& r) {
        std::lock_guard lock(w.mutex);
        w.done.push_back(r.stop);
    };
    options.on_failure = [&](std::string_view, const agentry::store_error& e) {
        std::lock_guard lock(w.mutex);
        w.failures.emplace_back(e.what());
    };
    w.thread = std::thread([&] {
        try {
            w.finished = agentry::run_worker<Store>(connect, [] { return make_agent(); }, w.options);
        } catch (const std::exception& e) {
            std::lock_guard lock(w.mutex);
            w.failures.emplace_back(e.what());
        }
    });
    {
        std::unique_lock lock(the_gate().mutex);
        // Bounded so that a worker that never calls the tool fails the probe instead of hanging it.
        REQUIRE(the_gate().changed.wait_for(lock, 120s, [] { return the_gate().entered; }));
    }
    // Inside the call: wait until the lease the worker took first has expired by the store's clock.
    const lease_seen first = peek(id);
    CHECK(!first.owner.empty());
    lease_seen later = first;
    while (later.now <= first.until) {
        std::this_thread::sleep_for(5ms);
        later = peek(id);
    }
    // The heartbeats renewed it under the name that claimed the run...
    CHECK(later.owner == first.owner);
    CHECK(later.until > first.until);
    // ...so a second worker, connected the same way, cannot take the run from it.
    {
        Store second = connect();
        CHECK(second.worker() != first.owner);
        CHECK_FALSE(second.claim(lease).has_value());
    }
    w.let_go();
    CHECK(w.failures.empty());
    for (const std::string& f : w.failures) MESSAGE(f);
    CHECK(w.finished == 1);
    CHECK(w.done == std::vector<agentry::stop_reason>{agentry::stop_reason::completed});
    Store s = connect();
    CHECK(s.status(id) == agentry::run_status::done);
}

// A write by the lease's owner after the lease expired is refused; another worker may take
// the run. A lease of 0 ms has expired as soon as it is taken.
template <class Store, class Connect>
void expired_lease_refuses_writes(Connect connect) {
    Store a = connect();
    const std::string id = a.create_run("{}");
    REQUIRE(a.claim(0ms) == id);
    CHECK_THROWS_WITH_AS(a.append(id, agentry::checkpoint_kind::state, "{}"),
                         doctest::Contains(("the lease of worker " + a.worker() + " on run " + id + " has expired").c_str()),
                         agentry::store_error);
    CHECK_THROWS_WITH_AS(a.append(id, agentry::checkpoint_kind::call_started, "{}"), doctest::Contains("has expired"),
                         agentry::store_error);
    CHECK_THROWS_WITH_AS(a.finish(id, "{}"), doctest::Contains("has expired"), agentry::store_error);
    CHECK_THROWS_WITH_AS(a.pause(id, "[]"), doctest::Contains("has expired"), agentry::store_error);
    CHECK_FALSE(a.heartbeat(id, 60s));
    CHECK(a.history(id).size() == 1);
    CHECK(a.status(id) == agentry::run_status::runnable);
    Store b = connect();
    CHECK(b.claim(60s) == id);
    CHECK(b.append(id, agentry::checkpoint_kind::state, "{}") == 2);
    CHECK_THROWS_WITH_AS(a.append(id, agentry::checkpoint_kind::state, "{}"),
                         doctest::Contains("is leased by another worker"), agentry::store_error);
}

TEST_CASE("sqlite: a worker connected as the docs write it holds its run, and a second worker cannot take it") {
    const std::string path = (scratch() / (fresh_name("runs") + ".db")).string();
    one_worker_holds_its_run<agentry::sqlite_store>([&] { return agentry::sqlite_store{{.path = path}}; },
                                                    [&](const std::string& id) { return peek_sqlite(path, id); });
}

TEST_CASE("postgres: a worker connected as the docs write it holds its run, and a second worker cannot take it") {
    const std::optional<std::string> conninfo = fresh_database();
    if (!conninfo) return;
    one_worker_holds_its_run<agentry::postgres_store>(
        [&] { return agentry::postgres_store{{.conninfo = *conninfo}}; },
        [&](const std::string& id) { return peek_postgres(*conninfo, id); });
}

TEST_CASE("a heartbeat not shorter than the lease is refused before any run is taken") {
    {
        std::lock_guard lock(the_gate().mutex);
        the_gate().open = true;  // a run taken anyway does not hold
    }
    const std::string path = (scratch() / (fresh_name("runs") + ".db")).string();
    {
        agentry::sqlite_store s{{.path = path}};
        s.create_run("{}");
    }
    std::atomic<bool> stop{false};  // a worker that takes the run anyway stops after it
    agentry::worker_options options;
    options.lease = 1000ms;
    options.heartbeat = 1000ms;
    options.until_drained = true;
    options.stop = &stop;
    options.on_done = [&](std::string_view, const agentry::run_result&) { stop.store(true); };
    options.on_failure = [&](std::string_view, const agentry::store_error&) { stop.store(true); };
    CHECK_THROWS_WITH_AS(
        agentry::run_worker<agentry::sqlite_store>([&] { return agentry::sqlite_store{{.path = path}}; },
                                                   [] { return make_agent(); }, options),
        "agentry: run_worker: worker_options::heartbeat (1000 ms) is not shorter than lease (1000 ms), so the lease "
        "would expire between renewals; make heartbeat a fraction of lease, such as a third",
        std::invalid_argument);
    agentry::sqlite_store s{{.path = path}};
    CHECK(s.unfinished() == 1);
    CHECK(s.claim(60s).has_value());  // not taken
}

TEST_CASE("sqlite: a write after the lease expired is refused") {
    const std::string path = (scratch() / (fresh_name("runs") + ".db")).string();
    expired_lease_refuses_writes<agentry::sqlite_store>([&] { return agentry::sqlite_store{{.path = path}}; });
}

TEST_CASE("postgres: a write after the lease expired is refused") {
    const std::optional<std::string> conninfo = fresh_database();
    if (!conninfo) return;
    expired_lease_refuses_writes<agentry::postgres_store>(
        [&] { return agentry::postgres_store{{.conninfo = *conninfo}}; });
}

} // namespace

int main(int argc, char** argv) {
    doctest::Context context(argc, argv);
    const int rc = context.run();
    std::error_code ignored;
    std::filesystem::remove_all(scratch(), ignored);
    return rc;
}
