// SPDX-License-Identifier: BSL-1.0
#ifndef AGENTRY_STORE_RUN_STORE_HPP
#define AGENTRY_STORE_RUN_STORE_HPP

// agentry::run_store: where durable runs keep their checkpoints. A run is a row with an id, a
// status and an optional lease, and an append-only list of checkpoints numbered 1, 2, 3, ...:
//
//   state          the run's state after a model turn or a turn's tool results (run_state)
//   call_started   a tool call about to run (call_record)
//   call_finished  its result (call_outcome), also for an outcome reported unknown
//   pending        the tool calls a run stopped for, waiting for an application's decision
//                  (pending_call list); the run's status becomes waiting
//   decided        the decisions on them (approval_decision list); the run is runnable again
//   done           how the run ended (run_outcome); the run's status becomes done
//
// A run's status is runnable (a worker may take it), waiting (for decisions: no worker takes
// it) or done.
//
// sqlite_store (store/sqlite.hpp) and postgres_store (store/postgres.hpp) model the concept;
// store/durable.hpp drives an agent with one, store/worker.hpp shares runs between workers.
// A store object is one connection: use it from one thread at a time.
//
// Leases: claim() takes a runnable run whose lease is free or has expired and records the
// store's worker name as its owner until now + lease; heartbeat() extends it while it has not
// expired. A lease holds while now < its end: one of 0 ms has expired as soon as it is taken.
// While a run is owned, only its owner may append to it or finish it, and only before the
// lease expires (append(), finish() and pause() throw store_error otherwise), so a worker that
// lost its lease, or let it expire, cannot write past one that may have taken the run over. A
// run nobody owns (one driven by resume_run outside a worker) takes appends from any
// connection. The worker name is a worker's, not a connection's: every connection of one
// worker writes the same name (run_worker gives its second connection the first one's with
// set_worker), and no two workers share one.

#include <agentry/detail/chrono.hpp>
#include <agentry/detail/random_id.hpp>
#include <agentry/loop/result.hpp>
#include <agentry/provider/message.hpp>
#include <agentry/tool_result.hpp>

#include <concepts>
#include <cstddef>
#include <cstdint>
#include <optional>
#include <stdexcept>
#include <string>
#include <string_view>
#include <vector>

namespace agentry {

/// A store refused or failed an operation; what() starts with "agentry:" and says why.
struct store_error : std::runtime_error {
    using std::runtime_error::runtime_error;
};

enum class checkpoint_kind : unsigned char { state, call_started, call_finished, pending, decided, done };

constexpr std::string_view to_string(checkpoint_kind k) noexcept {
    switch (k) {
    case checkpoint_kind::state: return "state";
    case checkpoint_kind::call_started: return "call_started";
    case checkpoint_kind::call_finished: return "call_finished";
    case checkpoint_kind::pending: return "pending";
    case checkpoint_kind::decided: return "decided";
    case checkpoint_kind::done: return "done";
    }
    return "unknown";
}

/// The kind named by `text` (as to_string writes it), or nothing.
constexpr std::optional<checkpoint_kind> checkpoint_kind_from(std::string_view text) noexcept {
    for (checkpoint_kind k : {checkpoint_kind::state, checkpoint_kind::call_started, checkpoint_kind::call_finished,
                              checkpoint_kind::pending, checkpoint_kind::decided, checkpoint_kind::done})
        if (to_string(k) == text) return k;
    return std::nullopt;
}

/// One checkpoint of a run: its number (from 1), kind and JSON body.
struct checkpoint {
    std::uint64_t seq = 0;
    checkpoint_kind kind = checkpoint_kind::state;
    std::string body;
};

enum class run_status : unsigned char { runnable, waiting, done };

/// The status as the stores write it: "runnable", "waiting", "done".
constexpr std::string_view to_string(run_status s) noexcept {
    switch (s) {
    case run_status::runnable: return "runnable";
    case run_status::waiting: return "waiting";
    case run_status::done: return "done";
    }
    return "unknown";
}

/// The status named by `text` (as to_string writes it), or nothing.
constexpr std::optional<run_status> run_status_from(std::string_view text) noexcept {
    for (run_status s : {run_status::runnable, run_status::waiting, run_status::done})
        if (to_string(s) == text) return s;
    return std::nullopt;
}

/// The body of a state checkpoint: everything a run needs to go on.
struct run_state {
    std::vector<message> conversation;
    std::uint32_t turns = 0;
    std::vector<token_usage> turn_usage;
    token_usage usage;
    std::vector<step> steps;
    std::size_t trimmed_messages = 0;
    std::size_t tool_calls_over_limit = 0;
    /// Milliseconds the run has been running, summed over the processes that ran it (the time
    /// between them, such as a wait for a decision or a lease to expire, is not counted);
    /// loop_config::max_total_time counts on from it. Absent in checkpoints of older versions.
    std::optional<std::int64_t> run_time_ms;
    /// run_result::summarized_messages and summary_usage (context_compression::summary);
    /// absent in checkpoints of older versions.
    std::optional<std::size_t> summarized_messages;
    std::optional<token_usage> summary_usage;
    /// run_result::turn_timings; absent in checkpoints of older versions.
    std::optional<std::vector<turn_timing>> turn_timings;
    /// run_result::plans and sub_runs (a sub-run with its own, nested); read as empty from
    /// checkpoints of older versions, which have neither.
    std::vector<plan_record> plans;
    std::vector<sub_run> sub_runs;
};

/// The body of a call_started checkpoint.
struct call_record {
    std::string id;
    std::string tool;
    std::string arguments;
};

/// The body of a call_finished checkpoint. `unknown`: the call started before a crash and
/// was not run again; `content` is what the model was told.
struct call_outcome {
    std::string id;
    tool_status status = tool_status::ok;
    std::string content;
    bool unknown = false;
};

/// The body of a done checkpoint.
struct run_outcome {
    agentry::stop_reason stop = stop_reason::completed;
    std::string text;
};

/// What a store must do (see the top of this file).
template <class S>
concept run_store = requires(S& s, const S& cs, std::string_view id, std::string_view body, checkpoint_kind kind,
                             std::chrono::milliseconds lease) {
    /// A new runnable run whose first checkpoint is the state `body`; returns its id.
    { s.create_run(body) } -> std::same_as<std::string>;
    /// Appends a checkpoint; returns its number. Throws store_error for a run that is missing,
    /// waiting, done, owned by another worker, or owned by this one past its lease.
    { s.append(id, kind, body) } -> std::same_as<std::uint64_t>;
    /// Every checkpoint of the run, in order (empty for an unknown id).
    { s.history(id) } -> std::same_as<std::vector<checkpoint>>;
    /// The run's checkpoints from its last state checkpoint on.
    { s.tail(id) } -> std::same_as<std::vector<checkpoint>>;
    { s.status(id) } -> std::same_as<std::optional<run_status>>;
    /// Appends the done checkpoint `body`, marks the run done and frees its lease, at once.
    { s.finish(id, body) } -> std::same_as<std::uint64_t>;
    /// Appends the pending checkpoint `body` (as append would), makes the run waiting and frees
    /// its lease, at once.
    { s.pause(id, body) } -> std::same_as<std::uint64_t>;
    /// Appends the decided checkpoint `body` to a waiting run and makes it runnable, at once;
    /// throws store_error when the run is missing or not waiting (another decision came first).
    { s.decide(id, body) } -> std::same_as<std::uint64_t>;
    /// The ids of the runs with status `status`, oldest first.
    { s.runs(run_status::waiting) } -> std::same_as<std::vector<std::string>>;
    /// Takes a runnable run for this store's worker (see the top of this file).
    { s.claim(lease) } -> std::same_as<std::optional<std::string>>;
    /// Extends this worker's lease; false when it no longer owns the run or the lease has expired.
    { s.heartbeat(id, lease) } -> std::same_as<bool>;
    /// Gives up this worker's lease on the run (it stays runnable).
    { s.release(id) } -> std::same_as<void>;
    /// Runnable runs (neither done nor waiting for a decision).
    { s.unfinished() } -> std::same_as<std::size_t>;
    /// This connection's worker name (the lease owner it writes).
    { cs.worker() } -> std::same_as<const std::string&>;
    /// Makes `name` this connection's worker name (empty: a new random one); called before the
    /// connection claims a run.
    { s.set_worker(std::string(id)) } -> std::same_as<void>;
};

} // namespace agentry

#endif
