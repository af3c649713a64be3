// SPDX-License-Identifier: BSL-1.0
// The durable-run benchmark (see CMakeLists.txt): prints the two tables of benchmarks/RESULTS.md.
// The workers are processes: this executable started again as `--worker <sqlite|postgres>
// <file or conninfo>`, each with its own connections, as on separate machines.

#include "fixture.hpp"
#include "pg_server.hpp"

#include <agentry/store/durable.hpp>
#include <agentry/store/postgres.hpp>
#include <agentry/store/sqlite.hpp>
#include <agentry/store/worker.hpp>

#include <sys/wait.h>
#include <unistd.h>

#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <exception>
#include <filesystem>
#include <functional>
#include <memory>
#include <string>
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

// Runs per second: `runs` runs made first, then `workers` worker processes (this executable
// with --worker) until none is left; from their start to the last one's exit.
template <class Store>
double runs_per_second(Store& queue, const char* kind, const std::string& where, int workers, int runs) {
    auto agent = durable_test::make_agent();
    for (int i = 0; i != runs; ++i) agentry::start_run(queue, *agent, "job-" + std::to_string(i));
    const auto t0 = clock_type::now();
    std::vector<pid_t> pids;
    for (int w = 0; w != workers; ++w) {
        const pid_t pid = ::fork();
        if (pid == 0) {
            const char* argv[] = {"/proc/self/exe", "--worker", kind, where.c_str(), nullptr};
            ::execv("/proc/self/exe", const_cast<char**>(argv));
            ::_exit(127);
        }
        if (pid < 0) std::abort();
        pids.push_back(pid);
    }
    for (pid_t pid : pids) {
        int status = 0;
        ::waitpid(pid, &status, 0);
        if (!WIFEXITED(status) || WEXITSTATUS(status) != 0) {
            std::fprintf(stderr, "a worker process failed (status %d)\n", status);
            std::exit(1);
        }
    }
    const double rate = runs / seconds_since(t0);
    if (queue.unfinished() != 0) {
        std::fprintf(stderr, "runs were left unfinished\n");
        std::exit(1);
    }
    return rate;
}

// The worker process: takes runs until none is left.
int worker_main(const std::string& kind, const std::string& where) {
    agentry::worker_options options;
    options.poll = std::chrono::milliseconds(5);
    options.until_drained = true;
    if (kind == "postgres")
        agentry::run_worker<agentry::postgres_store>([&] { return agentry::postgres_store{{.conninfo = where}}; },
                                                     durable_test::make_agent, options);
    else
        agentry::run_worker<agentry::sqlite_store>(
            [&] { return agentry::sqlite_store{{.path = where, .sync_every_commit = false}}; },
            durable_test::make_agent, options);
    return 0;
}

} // namespace

int main(int argc, char** argv) {
    if (argc == 4 && std::string(argv[1]) == "--worker") {
        try {
            return worker_main(argv[2], argv[3]);
        } catch (const std::exception& e) {
            std::fprintf(stderr, "worker: %s\n", e.what());
            return 1;
        }
    }
    std::string why;
    const std::unique_ptr<durable_test::pg_server> server = durable_test::pg_server::start(why, false);
    if (!server) std::printf("PostgreSQL skipped: %s\n\n", why.c_str());
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
    if (server) {
        server->create_database("bench_turns");
        agentry::postgres_store s{{.conninfo = server->conninfo("bench_turns")}};
        row("postgres_store (127.0.0.1, fsync on, synchronous_commit on)", per_run_durable(s, runs));
    }
    if (server) {
        // The commit does not wait for the disk: what a checkpoint costs besides the flush.
        server->create_database("bench_turns_async");
        agentry::postgres_store s{{.conninfo = server->conninfo("bench_turns_async") +
                                               " options='-c synchronous_commit=off'"}};
        row("postgres_store, synchronous_commit=off in the session", per_run_durable(s, runs));
    }

    std::printf("\n| worker processes | postgres_store runs/s | sqlite_store (NORMAL) runs/s |\n|--:|--:|--:|\n");
    for (int workers : {1, 2, 4}) {
        const std::string db = "bench_workers_" + std::to_string(workers);
        double pg = 0;
        if (server) {
            server->create_database(db);
            const std::string conninfo = server->conninfo(db);
            agentry::postgres_store queue{{.conninfo = conninfo}};
            pg = runs_per_second(queue, "postgres", conninfo, workers, runs);
        }
        const std::string file = (dir / (db + ".db")).string();
        agentry::sqlite_store queue{{.path = file, .sync_every_commit = false}};
        const double lite = runs_per_second(queue, "sqlite", file, workers, runs);
        if (server) std::printf("| %d | %.0f | %.0f |\n", workers, pg, lite);
        else std::printf("| %d | (skipped) | %.0f |\n", workers, lite);
    }
    std::error_code ignored;
    std::filesystem::remove_all(dir, ignored);
    return 0;
}
