// SPDX-License-Identifier: BSL-1.0
#ifndef AGENTRY_STORE_WORKER_HPP
#define AGENTRY_STORE_WORKER_HPP

// agentry::run_worker: a worker that takes runnable runs from a store with leases and runs
// them to the end, one at a time. Start as many as you like, in any number of processes (and,
// with postgres_store, on any number of machines): each run is taken by one worker at a time;
// a worker that dies stops renewing its lease, and once the lease has expired another worker
// takes the run and resumes it from its last checkpoint.
//
//   std::size_t done = agentry::run_worker<agentry::postgres_store>(
//       [] { return agentry::postgres_store{{.conninfo = "dbname=agents"}}; },
//       [] { return std::make_unique<my_agent>(model, tools, "You are ..."); },
//       {.until_drained = true});
//
// While a run goes on, a second connection renews its lease every heartbeat; when a renewal
// finds the lease expired or the run taken by another worker (this one was too slow), the
// agent is cancelled, and its further checkpoints are refused by the store, so the run is left
// to its new owner.
//
// A worker is one lease owner: both connections write the first one's worker name (its
// `worker` option, or a random name when it has none), whatever names connect() gives them.
// Leave the option empty, as above, or give each worker a name of its own.
//
// A run that stops for approvals is left waiting (see store/durable.hpp): no worker takes it
// until decide_run gives its decisions.

#include <agentry/detail/chrono.hpp>
#include <agentry/store/durable.hpp>
#include <agentry/store/run_store.hpp>

#include <algorithm>
#include <atomic>
#include <condition_variable>
#include <cstddef>
#include <exception>
#include <functional>
#include <memory>
#include <mutex>
#include <optional>
#include <stdexcept>
#include <string>
#include <string_view>
#include <thread>

namespace agentry {

struct worker_options {
    /// How long a claimed run stays this worker's without a heartbeat.
    std::chrono::milliseconds lease{30'000};
    /// How often the lease is renewed while a run goes on; well below `lease` (run_worker throws
    /// std::invalid_argument when it is not shorter: the lease would expire between renewals).
    std::chrono::milliseconds heartbeat{10'000};
    /// The wait before looking again when no run can be taken.
    std::chrono::milliseconds poll{500};
    /// Return once no runnable run is left (runs waiting for decisions do not count); otherwise
    /// only when `stop` is set.
    bool until_drained = false;
    /// Set (from any thread) to stop taking runs; the run in progress is finished first.
    const std::atomic<bool>* stop = nullptr;
    /// For each run: its durable options (what the model is told of unknown outcomes).
    durable_options durable;
    /// After each run this worker finished or left waiting for decisions
    /// (stop_reason::approval_pending), with its id and result.
    std::function<void(std::string_view run, const run_result& result)> on_done;
    /// When a run could not be finished (a store failure, or the lease lost), with what
    /// happened; the run stays runnable for another worker. Empty: such failures are ignored.
    std::function<void(std::string_view run, const store_error& error)> on_failure;
};

/// Runs the runs of the store `connect()` opens, with agents from `make_agent()` (a
/// std::unique_ptr to an agent, one per run, with the tools and configuration the runs were
/// started with), until `options` say to stop. Returns how many runs this worker finished (not
/// counting those left waiting).
/// `connect` is called twice: one connection for the runs, one for the heartbeats, both
/// writing the first connection's worker name.
template <run_store Store, class Connect, class MakeAgent>
std::size_t run_worker(Connect connect, MakeAgent make_agent, const worker_options& options = {}) {
    if (options.heartbeat >= options.lease)
        throw std::invalid_argument("agentry: run_worker: worker_options::heartbeat (" +
                                    std::to_string(options.heartbeat.count()) + " ms) is not shorter than lease (" +
                                    std::to_string(options.lease.count()) +
                                    " ms), so the lease would expire between renewals; make heartbeat a fraction "
                                    "of lease, such as a third");
    Store store = connect();
    Store beats = connect();
    beats.set_worker(store.worker());
    std::size_t finished = 0;
    const auto stopping = [&] { return options.stop && options.stop->load(); };
    while (!stopping()) {
        std::optional<std::string> id = store.claim(options.lease);
        if (!id) {
            if (options.until_drained && store.unfinished() == 0) break;
            const auto until = std::chrono::steady_clock::now() + options.poll;
            while (!stopping() && std::chrono::steady_clock::now() < until)
                std::this_thread::sleep_for(std::min<std::chrono::steady_clock::duration>(
                    std::chrono::milliseconds(20), until - std::chrono::steady_clock::now()));
            continue;
        }
        auto agent = make_agent();
        std::mutex mutex;
        std::condition_variable wake;
        bool over = false;
        std::atomic<bool> lost{false};
        std::thread heart([&] {
            std::unique_lock lock(mutex);
            while (!wake.wait_for(lock, options.heartbeat, [&] { return over; })) {
                bool held = false;
                try {
                    held = beats.heartbeat(*id, options.lease);
                } catch (const store_error&) {
                    held = false;  // the database is unreachable: the lease cannot be trusted
                }
                if (!held) {
                    lost.store(true);
                    agent->cancel();
                    return;
                }
            }
        });
        const auto stop_heart = [&] {
            {
                std::lock_guard lock(mutex);
                over = true;
            }
            wake.notify_all();
            heart.join();
        };
        std::optional<run_result> r;
        std::optional<store_error> failure;
        try {
            r = resume_run(store, *agent, *id, options.durable);
        } catch (const store_error& e) {
            failure = e;
        } catch (const std::exception& e) {
            failure = store_error(std::string("agentry: run_worker: the run stopped: ") + e.what());
        }
        stop_heart();
        if (r && r->stop != stop_reason::cancelled) {
            if (r->stop != stop_reason::approval_pending) ++finished;
            if (options.on_done) options.on_done(*id, *r);
            continue;
        }
        if (lost.load()) {
            failure = store_error("agentry: run_worker: worker " + store.worker() + " lost its lease on run " + *id +
                                  " (it expired before a renewal, or another worker took the run); the run is left "
                                  "to other workers");
        } else {
            try {
                store.release(*id);
            } catch (const store_error&) {
                // the lease then expires by itself
            }
        }
        if (failure && options.on_failure) options.on_failure(*id, *failure);
    }
    return finished;
}

} // namespace agentry

#endif
