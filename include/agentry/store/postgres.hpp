// SPDX-License-Identifier: BSL-1.0
#ifndef AGENTRY_STORE_POSTGRES_HPP
#define AGENTRY_STORE_POSTGRES_HPP

// agentry::postgres_store: a run_store in a PostgreSQL database (the agentry::postgres CMake
// target, which links libpq), for runs shared by workers on any number of machines. It holds
// two tables, agentry_runs and agentry_checkpoints, made when missing.
//
//   agentry::postgres_store store{{.conninfo = "host=db.internal dbname=agents user=agent"}};
//
// Workers take runs with claim(): UPDATE ... WHERE id = (SELECT ... FOR UPDATE SKIP LOCKED), so
// that concurrent claims never wait for each other nor take the same run. Lease times are the
// database server's clock, the one clock all workers share. Each append locks the run's row
// (FOR SHARE) while it checks the owner and the lease's end, so that a claim by another worker
// comes before or after it, never between the check and the write.

#include <agentry/detail/chrono.hpp>
#include <agentry/store/run_store.hpp>

#include <libpq-fe.h>

#include <cstdint>
#include <initializer_list>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace agentry {

struct postgres_options {
    /// A libpq connection string: "host=... port=... dbname=... user=..." or a postgresql:// URI.
    std::string conninfo{};
    /// The lease owner this connection writes; empty: a random name.
    std::string worker{};
};

class postgres_store {
public:
    /// Connects, and makes the tables when missing; throws store_error when it cannot.
    explicit postgres_store(postgres_options options)
        : conn_(PQconnectdb(options.conninfo.c_str())),
          worker_(options.worker.empty() ? detail::random_name() : std::move(options.worker)) {
        if (PQstatus(conn_) != CONNECTION_OK) {
            std::string why = conn_ ? PQerrorMessage(conn_) : "out of memory";
            PQfinish(conn_);
            while (!why.empty() && (why.back() == '\n' || why.back() == ' ')) why.pop_back();
            throw store_error("agentry: postgres_store: cannot connect: " + why +
                              "; check postgres_options::conninfo and that the server is running");
        }
        try {
            // Concurrent first connections may race to make the tables: the lock orders them.
            exec("BEGIN");
            exec("SET LOCAL client_min_messages = warning");  // no notice for tables that exist
            exec("SELECT pg_advisory_xact_lock(7431009)");
            exec("CREATE TABLE IF NOT EXISTS agentry_runs(id text PRIMARY KEY, n bigserial, status text NOT NULL, "
                 "owner text, lease_until timestamptz)");
            exec("CREATE TABLE IF NOT EXISTS agentry_checkpoints(run_id text NOT NULL, seq bigint NOT NULL, "
                 "kind text NOT NULL, body text NOT NULL, PRIMARY KEY(run_id, seq))");
            exec("CREATE INDEX IF NOT EXISTS agentry_runs_runnable ON agentry_runs(n) WHERE status = 'runnable'");
            exec("CREATE INDEX IF NOT EXISTS agentry_runs_waiting ON agentry_runs(n) WHERE status = 'waiting'");
            exec("CREATE TABLE IF NOT EXISTS agentry_values(key text PRIMARY KEY, value text NOT NULL)");
            exec("COMMIT");
        } catch (...) {
            PQfinish(conn_);
            throw;
        }
    }

    postgres_store(const postgres_store&) = delete;
    postgres_store& operator=(const postgres_store&) = delete;
    postgres_store(postgres_store&& other) noexcept
        : conn_(std::exchange(other.conn_, nullptr)), worker_(std::move(other.worker_)) {}
    postgres_store& operator=(postgres_store&&) = delete;
    ~postgres_store() {
        if (conn_) PQfinish(conn_);
    }

    const std::string& worker() const noexcept { return worker_; }

    void set_worker(std::string name) { worker_ = name.empty() ? detail::random_name() : std::move(name); }

    std::string create_run(std::string_view state) {
        std::string id = detail::random_name();
        query("WITH r AS (INSERT INTO agentry_runs(id, status) VALUES($1, 'runnable') RETURNING id) "
              "INSERT INTO agentry_checkpoints(run_id, seq, kind, body) SELECT id, 1, 'state', $2 FROM r",
              {id, state});
        return id;
    }

    std::uint64_t append(std::string_view run, checkpoint_kind kind, std::string_view body) {
        result r = query("WITH held AS (SELECT id FROM agentry_runs WHERE id = $1 AND status = 'runnable' AND "
                         "(owner IS NULL OR (owner = $4 AND lease_until > clock_timestamp())) FOR SHARE) "
                         "INSERT INTO agentry_checkpoints(run_id, seq, kind, body) "
                         "SELECT id, (SELECT coalesce(max(seq), 0) + 1 FROM agentry_checkpoints WHERE run_id = $1), "
                         "$2, $3 FROM held RETURNING seq",
                         {run, to_string(kind), body, worker_});
        if (r.rows() == 0) throw refused(run);
        return std::stoull(std::string(r.text(0, 0)));
    }

    std::vector<checkpoint> history(std::string_view run) {
        return read("SELECT seq, kind, body FROM agentry_checkpoints WHERE run_id = $1 ORDER BY seq", run);
    }

    std::vector<checkpoint> tail(std::string_view run) {
        return read("SELECT seq, kind, body FROM agentry_checkpoints WHERE run_id = $1 AND seq >= "
                    "(SELECT max(seq) FROM agentry_checkpoints WHERE run_id = $1 AND kind = 'state') ORDER BY seq",
                    run);
    }

    /// Stores `value` under `key` (replacing what was there): state kept beside the runs, such
    /// as a learned_boost's table.
    void put_value(std::string_view key, std::string_view value) {
        query("INSERT INTO agentry_values(key, value) VALUES($1, $2) "
              "ON CONFLICT(key) DO UPDATE SET value = excluded.value",
              {key, value});
    }

    /// The value stored under `key`, or nothing.
    std::optional<std::string> value(std::string_view key) {
        result r = query("SELECT value FROM agentry_values WHERE key = $1", {key});
        if (r.rows() == 0) return std::nullopt;
        return std::string(r.text(0, 0));
    }

    std::optional<run_status> status(std::string_view run) {
        result r = query("SELECT status FROM agentry_runs WHERE id = $1", {run});
        if (r.rows() == 0) return std::nullopt;
        if (const std::optional<run_status> s = run_status_from(r.text(0, 0))) return *s;
        throw store_error("agentry: postgres_store: run " + std::string(run) + " has the unknown status '" +
                          std::string(r.text(0, 0)) + "'; the store holds data this version of agentry did not write");
    }

    std::uint64_t finish(std::string_view run, std::string_view outcome) {
        exec("BEGIN");
        try {
            const std::uint64_t seq = append(run, checkpoint_kind::done, outcome);
            query("UPDATE agentry_runs SET status = 'done', owner = NULL, lease_until = NULL WHERE id = $1", {run});
            exec("COMMIT");
            return seq;
        } catch (...) {
            PQclear(PQexec(conn_, "ROLLBACK"));
            throw;
        }
    }

    std::uint64_t pause(std::string_view run, std::string_view pending) {
        exec("BEGIN");
        try {
            const std::uint64_t seq = append(run, checkpoint_kind::pending, pending);
            query("UPDATE agentry_runs SET status = 'waiting', owner = NULL, lease_until = NULL WHERE id = $1", {run});
            exec("COMMIT");
            return seq;
        } catch (...) {
            PQclear(PQexec(conn_, "ROLLBACK"));
            throw;
        }
    }

    // The row lock orders concurrent decisions: the second sees the run runnable and is refused.
    std::uint64_t decide(std::string_view run, std::string_view decisions) {
        exec("BEGIN");
        try {
            result r = query("WITH held AS (SELECT id FROM agentry_runs WHERE id = $1 AND status = 'waiting' FOR UPDATE) "
                             "INSERT INTO agentry_checkpoints(run_id, seq, kind, body) "
                             "SELECT id, (SELECT max(seq) + 1 FROM agentry_checkpoints WHERE run_id = $1), "
                             "'decided', $2 FROM held RETURNING seq",
                             {run, decisions});
            if (r.rows() == 0) throw not_waiting(run);
            const std::uint64_t seq = std::stoull(std::string(r.text(0, 0)));
            query("UPDATE agentry_runs SET status = 'runnable', owner = NULL, lease_until = NULL WHERE id = $1", {run});
            exec("COMMIT");
            return seq;
        } catch (...) {
            PQclear(PQexec(conn_, "ROLLBACK"));
            throw;
        }
    }

    std::vector<std::string> runs(run_status status) {
        result r = query("SELECT id FROM agentry_runs WHERE status = $1 ORDER BY n", {to_string(status)});
        std::vector<std::string> out;
        for (int i = 0; i != r.rows(); ++i) out.emplace_back(r.text(i, 0));
        return out;
    }

    std::optional<std::string> claim(std::chrono::milliseconds lease) {
        result r = query("UPDATE agentry_runs SET owner = $1, "
                         "lease_until = clock_timestamp() + $2::bigint * interval '1 millisecond' WHERE id = "
                         "(SELECT id FROM agentry_runs WHERE status = 'runnable' AND "
                         "(owner IS NULL OR lease_until <= clock_timestamp()) ORDER BY n LIMIT 1 FOR UPDATE SKIP LOCKED) "
                         "RETURNING id",
                         {worker_, std::to_string(lease.count())});
        if (r.rows() == 0) return std::nullopt;
        return std::string(r.text(0, 0));
    }

    bool heartbeat(std::string_view run, std::chrono::milliseconds lease) {
        result r = query("UPDATE agentry_runs SET lease_until = clock_timestamp() + $3::bigint * interval "
                         "'1 millisecond' WHERE id = $1 AND owner = $2 AND status = 'runnable' AND "
                         "lease_until > clock_timestamp() RETURNING id",
                         {run, worker_, std::to_string(lease.count())});
        return r.rows() == 1;
    }

    void release(std::string_view run) {
        query("UPDATE agentry_runs SET owner = NULL, lease_until = NULL WHERE id = $1 AND owner = $2", {run, worker_});
    }

    std::size_t unfinished() {
        result r = query("SELECT count(*) FROM agentry_runs WHERE status = 'runnable'", {});
        return static_cast<std::size_t>(std::stoull(std::string(r.text(0, 0))));
    }

private:
    // A PGresult, cleared when it goes.
    class result {
    public:
        explicit result(PGresult* r) : r_(r) {}
        result(result&& other) noexcept : r_(std::exchange(other.r_, nullptr)) {}
        result(const result&) = delete;
        result& operator=(const result&) = delete;
        ~result() { PQclear(r_); }
        PGresult* get() const noexcept { return r_; }
        int rows() const { return PQntuples(r_); }
        std::string_view text(int row, int column) const {
            return {PQgetvalue(r_, row, column), static_cast<std::size_t>(PQgetlength(r_, row, column))};
        }

    private:
        PGresult* r_;
    };

    result query(const char* sql, std::initializer_list<std::string_view> params) {
        std::vector<std::string> copies(params.begin(), params.end());
        std::vector<const char*> values;
        for (const std::string& c : copies) values.push_back(c.c_str());
        result r(PQexecParams(conn_, sql, static_cast<int>(values.size()), nullptr,
                              values.empty() ? nullptr : values.data(), nullptr, nullptr, 0));
        check(r, sql);
        return r;
    }

    void check(const result& r, const char* sql) const {
        const ExecStatusType s = PQresultStatus(r.get());
        if (s == PGRES_COMMAND_OK || s == PGRES_TUPLES_OK) return;
        std::string why = PQerrorMessage(conn_);
        while (!why.empty() && (why.back() == '\n' || why.back() == ' ')) why.pop_back();
        throw store_error("agentry: postgres_store: " + why + " (in: " + std::string(sql).substr(0, 60) + "...)");
    }

    void exec(const char* sql) {
        check(result(PQexec(conn_, sql)), sql);
    }

    store_error refused(std::string_view run) {
        const std::optional<run_status> s = status(run);
        if (!s) return store_error("agentry: postgres_store: no run " + std::string(run) + "; start one with start_run");
        if (*s == run_status::runnable && owner(run) == worker_)
            return store_error("agentry: postgres_store: the lease of worker " + worker_ + " on run " +
                               std::string(run) +
                               " has expired; this worker must leave the run, which another worker may have taken "
                               "(renew the lease well before it ends: a shorter worker_options::heartbeat or a "
                               "longer lease)");
        if (*s == run_status::done)
            return store_error("agentry: postgres_store: run " + std::string(run) +
                               " is done; it takes no more checkpoints");
        if (*s == run_status::waiting)
            return store_error("agentry: postgres_store: run " + std::string(run) +
                               " waits for decisions on its pending tool calls; give them with decide_run");
        return store_error("agentry: postgres_store: run " + std::string(run) + " is leased by another worker, not " +
                           worker_ + "; this worker lost its lease and must leave the run to its new owner");
    }

    std::string owner(std::string_view run) {
        result r = query("SELECT coalesce(owner, '') FROM agentry_runs WHERE id = $1", {run});
        return r.rows() == 0 ? std::string() : std::string(r.text(0, 0));
    }

    store_error not_waiting(std::string_view run) {
        const std::optional<run_status> s = status(run);
        if (!s) return store_error("agentry: postgres_store: no run " + std::string(run) + "; start one with start_run");
        return store_error("agentry: postgres_store: run " + std::string(run) + " is " + std::string(to_string(*s)) +
                           ", not waiting for a decision (another decision may have come first); read its "
                           "pending calls again");
    }

    std::vector<checkpoint> read(const char* sql, std::string_view run) {
        result r = query(sql, {run});
        std::vector<checkpoint> out;
        out.reserve(static_cast<std::size_t>(r.rows()));
        for (int i = 0; i != r.rows(); ++i) {
            const std::optional<checkpoint_kind> kind = checkpoint_kind_from(r.text(i, 1));
            if (!kind)
                throw store_error("agentry: postgres_store: run " + std::string(run) +
                                  " has a checkpoint of unknown kind '" + std::string(r.text(i, 1)) + "'");
            out.push_back({std::stoull(std::string(r.text(i, 0))), *kind, std::string(r.text(i, 2))});
        }
        return out;
    }

    PGconn* conn_;
    std::string worker_;
};

static_assert(run_store<postgres_store>);

} // namespace agentry

#endif
