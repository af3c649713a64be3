// SPDX-License-Identifier: BSL-1.0
#ifndef AGENTRY_STORE_SQLITE_HPP
#define AGENTRY_STORE_SQLITE_HPP

// agentry::sqlite_store: a run_store in one SQLite file (the agentry::sqlite CMake target,
// which links SQLite3). The file is in WAL mode, so that several processes on one machine can
// use it at once: readers do not block the writer, and writers wait for each other up to
// sqlite_options::busy_timeout. It holds two tables, agentry_runs and agentry_checkpoints,
// made when missing.
//
//   agentry::sqlite_store store{{.path = "runs.db"}};
//
// Lease times are this machine's clock (milliseconds since 1970): share a file between
// processes of one machine only (a network file system breaks SQLite's locking anyway).

#include <agentry/detail/chrono.hpp>
#include <agentry/store/run_store.hpp>

#include <sqlite3.h>

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace agentry {

struct sqlite_options {
    /// The database file; made when missing.
    std::string path{};
    /// The lease owner this connection writes; empty: a random name.
    std::string worker{};
    /// How long a write waits for another connection's write to end before failing.
    std::chrono::milliseconds busy_timeout{30'000};
    /// Each commit reaches the disk before it returns (synchronous=FULL), so that a checkpoint
    /// survives a power loss; false: it survives a crash of the process only (NORMAL), faster.
    bool sync_every_commit = true;
};

class sqlite_store {
public:
    /// Opens (and when needed makes) the database; throws store_error when it cannot.
    explicit sqlite_store(sqlite_options options)
        : worker_(options.worker.empty() ? detail::random_name() : std::move(options.worker)) {
        const int rc = sqlite3_open_v2(options.path.c_str(), &db_,
                                       SQLITE_OPEN_READWRITE | SQLITE_OPEN_CREATE | SQLITE_OPEN_NOMUTEX, nullptr);
        if (rc != SQLITE_OK) {
            std::string why = db_ ? sqlite3_errmsg(db_) : sqlite3_errstr(rc);
            sqlite3_close(db_);
            db_ = nullptr;
            throw store_error("agentry: sqlite_store: cannot open " + options.path + ": " + why +
                              "; give a path in a directory that exists and is writable");
        }
        sqlite3_busy_timeout(db_, static_cast<int>(options.busy_timeout.count()));
        try {
            exec("PRAGMA journal_mode=WAL");
            exec(options.sync_every_commit ? "PRAGMA synchronous=FULL" : "PRAGMA synchronous=NORMAL");
            exec("CREATE TABLE IF NOT EXISTS agentry_runs("
                 "id TEXT PRIMARY KEY, status TEXT NOT NULL, owner TEXT, lease_until INTEGER NOT NULL DEFAULT 0)");
            exec("CREATE TABLE IF NOT EXISTS agentry_checkpoints("
                 "run_id TEXT NOT NULL, seq INTEGER NOT NULL, kind TEXT NOT NULL, body TEXT NOT NULL, "
                 "PRIMARY KEY(run_id, seq)) WITHOUT ROWID");
            exec("CREATE INDEX IF NOT EXISTS agentry_runs_runnable ON agentry_runs(status)");
            exec("CREATE TABLE IF NOT EXISTS agentry_values(key TEXT PRIMARY KEY, value TEXT NOT NULL)");
        } catch (...) {
            sqlite3_close(db_);
            throw;
        }
    }

    sqlite_store(const sqlite_store&) = delete;
    sqlite_store& operator=(const sqlite_store&) = delete;
    sqlite_store(sqlite_store&& other) noexcept : db_(std::exchange(other.db_, nullptr)), worker_(std::move(other.worker_)) {}
    sqlite_store& operator=(sqlite_store&&) = delete;
    ~sqlite_store() { sqlite3_close(db_); }

    const std::string& worker() const noexcept { return worker_; }

    void set_worker(std::string name) { worker_ = name.empty() ? detail::random_name() : std::move(name); }

    std::string create_run(std::string_view state) {
        std::string id = detail::random_name();
        transaction t(*this);
        statement(*this, "INSERT INTO agentry_runs(id, status) VALUES(?1, 'runnable')").bind(1, id).step();
        statement(*this, "INSERT INTO agentry_checkpoints(run_id, seq, kind, body) VALUES(?1, 1, 'state', ?2)")
            .bind(1, id)
            .bind(2, state)
            .step();
        t.commit();
        return id;
    }

    std::uint64_t append(std::string_view run, checkpoint_kind kind, std::string_view body) {
        statement s(*this, "INSERT INTO agentry_checkpoints(run_id, seq, kind, body) "
                           "SELECT id, (SELECT coalesce(max(seq), 0) + 1 FROM agentry_checkpoints WHERE run_id = ?1), "
                           "?2, ?3 FROM agentry_runs "
                           "WHERE id = ?1 AND status = 'runnable' AND "
                           "(owner IS NULL OR (owner = ?4 AND lease_until > ?5)) RETURNING seq");
        s.bind(1, run).bind(2, to_string(kind)).bind(3, body).bind(4, worker_).bind(5, now_ms());
        if (!s.step()) throw refused(run);
        const std::uint64_t seq = s.integer(0);
        s.step();
        return seq;
    }

    /// Stores `value` under `key` (replacing what was there): state kept beside the runs, such
    /// as a learned_boost's table.
    void put_value(std::string_view key, std::string_view value) {
        statement(*this, "INSERT INTO agentry_values(key, value) VALUES(?1, ?2) "
                         "ON CONFLICT(key) DO UPDATE SET value = excluded.value")
            .bind(1, key)
            .bind(2, value)
            .step();
    }

    /// The value stored under `key`, or nothing.
    std::optional<std::string> value(std::string_view key) {
        statement s(*this, "SELECT value FROM agentry_values WHERE key = ?1");
        s.bind(1, key);
        if (!s.step()) return std::nullopt;
        return std::string(s.text(0));
    }

    std::vector<checkpoint> history(std::string_view run) {
        return read("SELECT seq, kind, body FROM agentry_checkpoints WHERE run_id = ?1 ORDER BY seq", run);
    }

    std::vector<checkpoint> tail(std::string_view run) {
        return read("SELECT seq, kind, body FROM agentry_checkpoints WHERE run_id = ?1 AND seq >= "
                    "(SELECT max(seq) FROM agentry_checkpoints WHERE run_id = ?1 AND kind = 'state') ORDER BY seq",
                    run);
    }

    std::optional<run_status> status(std::string_view run) {
        statement s(*this, "SELECT status FROM agentry_runs WHERE id = ?1");
        s.bind(1, run);
        if (!s.step()) return std::nullopt;
        return status_of(run, s.text(0));
    }

    std::uint64_t finish(std::string_view run, std::string_view outcome) {
        transaction t(*this);
        const std::uint64_t seq = append(run, checkpoint_kind::done, outcome);
        statement(*this, "UPDATE agentry_runs SET status = 'done', owner = NULL, lease_until = 0 WHERE id = ?1")
            .bind(1, run)
            .step();
        t.commit();
        return seq;
    }

    std::uint64_t pause(std::string_view run, std::string_view pending) {
        transaction t(*this);
        const std::uint64_t seq = append(run, checkpoint_kind::pending, pending);
        statement(*this, "UPDATE agentry_runs SET status = 'waiting', owner = NULL, lease_until = 0 WHERE id = ?1")
            .bind(1, run)
            .step();
        t.commit();
        return seq;
    }

    std::uint64_t decide(std::string_view run, std::string_view decisions) {
        transaction t(*this);
        statement s(*this, "INSERT INTO agentry_checkpoints(run_id, seq, kind, body) "
                           "SELECT id, (SELECT max(seq) + 1 FROM agentry_checkpoints WHERE run_id = ?1), 'decided', ?2 "
                           "FROM agentry_runs WHERE id = ?1 AND status = 'waiting' RETURNING seq");
        s.bind(1, run).bind(2, decisions);
        if (!s.step()) throw not_waiting(run);
        const std::uint64_t seq = s.integer(0);
        s.step();
        statement(*this, "UPDATE agentry_runs SET status = 'runnable', owner = NULL, lease_until = 0 WHERE id = ?1")
            .bind(1, run)
            .step();
        t.commit();
        return seq;
    }

    std::vector<std::string> runs(run_status status) {
        statement s(*this, "SELECT id FROM agentry_runs WHERE status = ?1 ORDER BY rowid");
        s.bind(1, to_string(status));
        std::vector<std::string> out;
        while (s.step()) out.emplace_back(s.text(0));
        return out;
    }

    std::optional<std::string> claim(std::chrono::milliseconds lease) {
        const std::int64_t now = now_ms();
        statement s(*this, "UPDATE agentry_runs SET owner = ?1, lease_until = ?2 WHERE id = "
                           "(SELECT id FROM agentry_runs WHERE status = 'runnable' AND (owner IS NULL OR "
                           "lease_until <= ?3) ORDER BY rowid LIMIT 1) RETURNING id");
        s.bind(1, worker_).bind(2, now + lease.count()).bind(3, now);
        if (!s.step()) return std::nullopt;
        std::string id(s.text(0));
        s.step();
        return id;
    }

    bool heartbeat(std::string_view run, std::chrono::milliseconds lease) {
        const std::int64_t now = now_ms();
        statement(*this, "UPDATE agentry_runs SET lease_until = ?3 WHERE id = ?1 AND owner = ?2 AND "
                         "status = 'runnable' AND lease_until > ?4")
            .bind(1, run)
            .bind(2, worker_)
            .bind(3, now + lease.count())
            .bind(4, now)
            .step();
        return sqlite3_changes(db_) == 1;
    }

    void release(std::string_view run) {
        statement(*this, "UPDATE agentry_runs SET owner = NULL, lease_until = 0 WHERE id = ?1 AND owner = ?2")
            .bind(1, run)
            .bind(2, worker_)
            .step();
    }

    std::size_t unfinished() {
        statement s(*this, "SELECT count(*) FROM agentry_runs WHERE status = 'runnable'");
        s.step();
        return static_cast<std::size_t>(s.integer(0));
    }

private:
    // One prepared statement; step() is true while it gives a row, and throws on an error.
    class statement {
    public:
        statement(sqlite_store& db, const char* sql) : db_(db) {
            if (sqlite3_prepare_v2(db.db_, sql, -1, &s_, nullptr) != SQLITE_OK) db.fail("prepare");
        }
        statement(const statement&) = delete;
        statement& operator=(const statement&) = delete;
        ~statement() { sqlite3_finalize(s_); }

        statement& bind(int i, std::string_view text) {
            check(sqlite3_bind_text(s_, i, text.data(), static_cast<int>(text.size()), SQLITE_TRANSIENT));
            return *this;
        }
        statement& bind(int i, std::int64_t v) {
            check(sqlite3_bind_int64(s_, i, v));
            return *this;
        }
        bool step() {
            const int rc = sqlite3_step(s_);
            if (rc == SQLITE_ROW) return true;
            if (rc != SQLITE_DONE) db_.fail("step");
            return false;
        }
        std::string_view text(int column) const {
            const auto* p = reinterpret_cast<const char*>(sqlite3_column_text(s_, column));
            return p ? std::string_view(p, static_cast<std::size_t>(sqlite3_column_bytes(s_, column)))
                     : std::string_view();
        }
        std::uint64_t integer(int column) const { return static_cast<std::uint64_t>(sqlite3_column_int64(s_, column)); }

    private:
        void check(int rc) {
            if (rc != SQLITE_OK) db_.fail("bind");
        }
        sqlite_store& db_;
        sqlite3_stmt* s_ = nullptr;
    };

    // BEGIN IMMEDIATE ... COMMIT, rolled back when not committed.
    class transaction {
    public:
        explicit transaction(sqlite_store& db) : db_(db) { db.exec("BEGIN IMMEDIATE"); }
        transaction(const transaction&) = delete;
        transaction& operator=(const transaction&) = delete;
        void commit() {
            db_.exec("COMMIT");
            done_ = true;
        }
        ~transaction() {
            if (!done_) sqlite3_exec(db_.db_, "ROLLBACK", nullptr, nullptr, nullptr);
        }

    private:
        sqlite_store& db_;
        bool done_ = false;
    };

    [[noreturn]] void fail(const char* what) const {
        throw store_error(std::string("agentry: sqlite_store: ") + what + " failed: " + sqlite3_errmsg(db_));
    }

    void exec(const char* sql) {
        if (sqlite3_exec(db_, sql, nullptr, nullptr, nullptr) != SQLITE_OK) fail(sql);
    }

    store_error refused(std::string_view run) {
        const std::optional<run_status> s = status(run);
        if (!s) return store_error("agentry: sqlite_store: no run " + std::string(run) + "; start one with start_run");
        if (*s == run_status::runnable && owner(run) == worker_)
            return store_error("agentry: sqlite_store: the lease of worker " + worker_ + " on run " + std::string(run) +
                               " has expired; this worker must leave the run, which another worker may have taken "
                               "(renew the lease well before it ends: a shorter worker_options::heartbeat or a "
                               "longer lease)");
        if (*s == run_status::done)
            return store_error("agentry: sqlite_store: run " + std::string(run) + " is done; it takes no more checkpoints");
        if (*s == run_status::waiting)
            return store_error("agentry: sqlite_store: run " + std::string(run) +
                               " waits for decisions on its pending tool calls; give them with decide_run");
        return store_error("agentry: sqlite_store: run " + std::string(run) + " is leased by another worker, not " +
                           worker_ + "; this worker lost its lease and must leave the run to its new owner");
    }

    std::string owner(std::string_view run) {
        statement s(*this, "SELECT coalesce(owner, '') FROM agentry_runs WHERE id = ?1");
        s.bind(1, run);
        return s.step() ? std::string(s.text(0)) : std::string();
    }

    store_error not_waiting(std::string_view run) {
        const std::optional<run_status> s = status(run);
        if (!s) return store_error("agentry: sqlite_store: no run " + std::string(run) + "; start one with start_run");
        return store_error("agentry: sqlite_store: run " + std::string(run) + " is " + std::string(to_string(*s)) +
                           ", not waiting for a decision (another decision may have come first); read its "
                           "pending calls again");
    }

    static run_status status_of(std::string_view run, std::string_view text) {
        if (const std::optional<run_status> s = run_status_from(text)) return *s;
        throw store_error("agentry: sqlite_store: run " + std::string(run) + " has the unknown status '" +
                          std::string(text) + "'; the store holds data this version of agentry did not write");
    }

    std::vector<checkpoint> read(const char* sql, std::string_view run) {
        std::vector<checkpoint> out;
        statement s(*this, sql);
        s.bind(1, run);
        while (s.step()) {
            const std::optional<checkpoint_kind> kind = checkpoint_kind_from(s.text(1));
            if (!kind)
                throw store_error("agentry: sqlite_store: run " + std::string(run) + " has a checkpoint of unknown kind '" +
                                  std::string(s.text(1)) + "'");
            out.push_back({s.integer(0), *kind, std::string(s.text(2))});
        }
        return out;
    }

    static std::int64_t now_ms() {
        return std::chrono::duration_cast<std::chrono::milliseconds>(std::chrono::system_clock::now().time_since_epoch())
            .count();
    }

    sqlite3* db_ = nullptr;
    std::string worker_;
};

static_assert(run_store<sqlite_store>);

} // namespace agentry

#endif
