// SPDX-License-Identifier: BSL-1.0
// The durable-run benchmark (see CMakeLists.txt): prints the two tables of benchmarks/RESULTS.md.

#include "fixture.hpp"
#include "pg_server.hpp"

#include <agentry/store/durable.hpp>
#include <agentry/store/postgres.hpp>
#include <agentry/store/sqlite.hpp>
#include <agentry/store/worker.hpp>

#include <unistd.h>

#include <chrono>
#include <cstdio>
#include <filesystem>
#include <functional>
#include <string>
#include <thread>
#include <vector>

namespace {

using clock_type = std::chrono::steady_clock;

double seconds_since(clock_type::time_point t0) {
    return std::chrono::duration<double>(clock_type::now() - t0).count();
}

// Microseconds per run of the two-turn job: in memory (no store), or checkpointed in `store`.
double per_run_in_memory(int runs) {
    const auto t0 = clock_type::now();
    for (int i = 0; i != runs; ++i) {
        auto agent = durable_test::make_agent();
        if (agent->run("job-" + std::to_string(i)).turns != 2) std::abort();
    }
    return seconds_since(t0) * 1e6 / runs;
}

template <class Store>
double per_run_durable(Store& store, int runs) {
    const auto t0 = clock_type::now();
    for (int i = 0; i != runs; ++i) {
        auto agent = durable_test::make_agent();
        const std::string id = agentry::start_run(store, *agent, "job-" + std::to_string(i));
        if (agentry::resume_run(store, *agent, id).turns != 2) std::abort();
    }
    return seconds_since(t0) * 1e6 / runs;
}

// Runs per second: `runs` runs made first, then `workers` worker threads (one store
// connection pair each) until none is left.
template <class Store, class Connect>
double runs_per_second(Connect connect, int workers, int runs) {
    {
        Store s = connect();
        auto agent = durable_test::make_agent();
        for (int i = 0; i != runs; ++i) agentry::start_run(s, *agent, "job-" + std::to_string(i));
    }
    agentry::worker_options options;
    options.poll = std::chrono::milliseconds(5);
    options.until_drained = true;
    const auto t0 = clock_type::now();
    std::vector<std::thread> threads;
    for (int w = 0; w != workers; ++w)
        threads.emplace_back([&] { agentry::run_worker<Store>(connect, durable_test::make_agent, options); });
    for (std::thread& t : threads) t.join();
    return runs / seconds_since(t0);
}

} // namespace

int main() {
    std::string why;
    const auto server = durable_test::pg_server::start(why, false);
    if (!server) {
        std::printf("PostgreSQL: %s\n", why.c_str());
        return 1;
    }
    std::string dir_template = (std::filesystem::temp_directory_path() / "agentry-bench-XXXXXX").string();
    if (!::mkdtemp(dir_template.data())) return 1;
    const std::filesystem::path dir = dir_template;
    constexpr int runs = 300;
    constexpr int turns = 2;
    constexpr int checkpoints = 9;  // per run: see tests/durable (start, 2 turns, 2 calls, results, done)

    std::printf("| store | us per run | checkpoint us per turn | us per checkpoint |\n|---|--:|--:|--:|\n");
    per_run_in_memory(50);  // warm-up
    const double base = per_run_in_memory(runs);
    std::printf("| none (in memory) | %.0f | | |\n", base);
    const auto row = [&](const char* name, double per_run) {
        std::printf("| %s | %.0f | %.0f | %.0f |\n", name, per_run, (per_run - base) / turns,
                    (per_run - base) / checkpoints);
    };
    {
        agentry::sqlite_store s{{.path = (dir / "full.db").string()}};
        row("sqlite_store, sync_every_commit = true (synchronous=FULL)", per_run_durable(s, runs));
    }
    {
        agentry::sqlite_store s{{.path = (dir / "normal.db").string(), .sync_every_commit = false}};
        row("sqlite_store, sync_every_commit = false (synchronous=NORMAL)", per_run_durable(s, runs));
    }
    {
        server->create_database("bench_turns");
        agentry::postgres_store s{{.conninfo = server->conninfo("bench_turns")}};
        row("postgres_store (127.0.0.1, fsync on, synchronous_commit on)", per_run_durable(s, runs));
    }
    {
        // The commit does not wait for the disk: what a checkpoint costs besides the flush.
        server->create_database("bench_turns_async");
        agentry::postgres_store s{{.conninfo = server->conninfo("bench_turns_async") +
                                               " options='-c synchronous_commit=off'"}};
        row("postgres_store, synchronous_commit=off in the session", per_run_durable(s, runs));
    }

    std::printf("\n| workers | postgres_store runs/s | sqlite_store (NORMAL) runs/s |\n|--:|--:|--:|\n");
    for (int workers : {1, 2, 4}) {
        const std::string db = "bench_workers_" + std::to_string(workers);
        server->create_database(db);
        const std::string conninfo = server->conninfo(db);
        const double pg = runs_per_second<agentry::postgres_store>(
            [&] { return agentry::postgres_store{{.conninfo = conninfo}}; }, workers, runs);
        const std::string file = (dir / (db + ".db")).string();
        const double lite = runs_per_second<agentry::sqlite_store>(
            [&] { return agentry::sqlite_store{{.path = file, .sync_every_commit = false}}; }, workers, runs);
        std::printf("| %d | %.0f | %.0f |\n", workers, pg, lite);
    }
    std::error_code ignored;
    std::filesystem::remove_all(dir, ignored);
    return 0;
}
