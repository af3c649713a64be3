// SPDX-License-Identifier: BSL-1.0
#ifndef AGENTRY_STORE_DURABLE_HPP
#define AGENTRY_STORE_DURABLE_HPP

// Durable runs: an agent whose run is checkpointed in a run_store after every model turn and
// every tool result, so that any process can resume it by id after a crash.
//
//   agentry::sqlite_store store{{.path = "runs.db"}};
//   std::string id = agentry::start_run(store, agent, "Book me a table for two.");
//   agentry::run_result r = agentry::resume_run(store, agent, id);  // here, or in another process
//
// Tool effects happen at most once where it matters: each call is recorded as started before
// it runs and as finished with its result. Resuming after a crash,
// - a call recorded finished is not run again: the model gets the recorded result;
// - a call recorded started but not finished is run again when its tool is idempotent
//   (tool_policy::idempotent), and otherwise not: its outcome is unknown, which the model is
//   told (durable_options::unknown_outcome) and the application hears
//   (durable_options::on_unknown_outcome).
//
// A run that stops for approvals (stop_reason::approval_pending: a tool whose policy needs
// approval, and no approver) waits in the store: no worker takes it. Any process reads its
// calls with pending_approvals(store, id) and gives decisions with decide_run(store, id,
// decisions), which makes it runnable again; the next resume_run applies them.
//
//   for (const std::string& id : store.runs(agentry::run_status::waiting))
//       for (const agentry::pending_call& call : agentry::pending_approvals(store, id)) ...
//   agentry::decide_run(store, id, std::vector{agentry::decide(call, agentry::approval::approve())});

#include <agentry/agent.hpp>
#include <agentry/detail/chrono.hpp>
#include <agentry/json/reader.hpp>
#include <agentry/json/writer.hpp>
#include <agentry/loop/checkpoint.hpp>
#include <agentry/loop/result.hpp>
#include <agentry/policy/approval.hpp>
#include <agentry/schema/adapters/chrono.hpp>
#include <agentry/store/run_store.hpp>

#include <algorithm>
#include <cstdint>
#include <exception>
#include <functional>
#include <map>
#include <mutex>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace agentry {

struct durable_options {
    /// What the model is told, after the tool's name, for a call whose outcome is unknown.
    std::string unknown_outcome =
        ": the outcome of this call is unknown. It started before the process running it stopped, and this "
        "tool is not idempotent, so it was not run again. Find out whether it took effect before calling it again.";
    /// Called for each such call, with the run's id.
    std::function<void(std::string_view run, const tool_call& call)> on_unknown_outcome;
};

namespace detail {

// json::write writes an absent optional as null; a member added since the data was written
// (token_usage::reasoning_tokens, ...) keeps its default.
inline constexpr json::read_options store_read{
    .max_size = std::size_t(-1) / 2, .max_depth = 32, .null_as_absent = true, .absent_as_default = true};

template <class T>
T read_body(std::string_view body, std::string_view run, std::string_view what) {
    json::read_result<T> r = json::read<T>(body, store_read);
    if (!r.ok())
        throw store_error("agentry: the " + std::string(what) + " checkpoint of run " + std::string(run) +
                          " is not readable (" + r.errors.front().to_string() +
                          "); the store holds data this version of agentry did not write");
    return std::move(r.value);
}

template <class T>
std::string write_body(const T& value) {
    std::string out;
    json::write(out, value);
    return out;
}

inline run_state state_of(std::span<const message> conversation, const run_result& progress,
                          std::chrono::milliseconds run_time) {
    return {{conversation.begin(), conversation.end()},
            progress.turns,
            progress.turn_usage,
            progress.usage,
            progress.steps,
            progress.trimmed_messages,
            progress.tool_calls_over_limit,
            run_time.count(),
            progress.summarized_messages,
            progress.summary_usage,
            progress.turn_timings,
            progress.plans,
            progress.sub_runs};
}

/// The checkpointer a resumed run gives its agent: it appends to the store, and answers the
/// calls the run's last turn recorded before a crash.
template <run_store Store>
class store_checkpointer final : public checkpointer {
public:
    struct recorded {
        bool finished = false;
        call_outcome outcome;
    };

    store_checkpointer(Store& store, std::string run, const durable_options& options,
                       std::map<std::string, recorded, std::less<>> calls)
        : store_(store), run_(std::move(run)), options_(options), calls_(std::move(calls)) {}

    // progress.wall_time is the run time before this process: the agent sets it at the end.
    void state(std::span<const message> conversation, const run_result& progress) override {
        const auto here = std::chrono::duration_cast<std::chrono::milliseconds>(std::chrono::steady_clock::now() - began_);
        const std::string body = write_body(state_of(conversation, progress, progress.wall_time + here));
        std::lock_guard lock(mutex_);
        append(checkpoint_kind::state, body);
        calls_.clear();  // ids are unique within one turn only
    }

    std::optional<tool_result> before_call(const tool_call& call, bool idempotent) override {
        std::lock_guard lock(mutex_);
        if (const auto it = calls_.find(call.id); it != calls_.end()) {
            if (it->second.finished) return result_of(it->second.outcome);
            if (!idempotent) {
                call_outcome unknown{call.id, tool_status::tool_error, call.name + options_.unknown_outcome, true};
                append(checkpoint_kind::call_finished, write_body(unknown));
                it->second = {true, unknown};
                if (options_.on_unknown_outcome)
                    detail::invoke_callback("on_unknown_outcome", options_.on_unknown_outcome, std::string_view(run_),
                                            call);
                return result_of(unknown);
            }
        }
        append(checkpoint_kind::call_started, write_body(call_record{call.id, call.name, call.arguments}));
        return std::nullopt;
    }

    void after_call(const tool_call& call, const tool_result& result) override {
        const std::string body = write_body(call_outcome{call.id, result.status, result.content, false});
        std::lock_guard lock(mutex_);
        append(checkpoint_kind::call_finished, body);
    }

    /// The first store failure, which stopped the run; null when none.
    std::exception_ptr failure() const noexcept { return failure_; }

private:
    // Under mutex_. A failure is kept to be rethrown once the agent returns, and thrown on to
    // stop the run.
    void append(checkpoint_kind kind, std::string_view body) {
        try {
            store_.append(run_, kind, body);
        } catch (...) {
            if (!failure_) failure_ = std::current_exception();
            throw;
        }
    }

    static tool_result result_of(const call_outcome& o) {
        tool_result r;
        r.status = o.status;
        r.content = o.content;
        return r;
    }

    Store& store_;
    std::string run_;
    const durable_options& options_;
    std::map<std::string, recorded, std::less<>> calls_;
    std::mutex mutex_;
    std::exception_ptr failure_;
    std::chrono::steady_clock::time_point began_ = std::chrono::steady_clock::now();
};

} // namespace detail

/// A new runnable run in `store`: the agent's conversation so far (its system prompt) and
/// `input` as the user's message. Returns the run's id; resume_run runs it.
template <run_store Store, class Agent>
std::string start_run(Store& store, const Agent& agent, std::string input) {
    run_state state;
    state.conversation.assign(agent.conversation().begin(), agent.conversation().end());
    state.conversation.push_back(message::user(std::move(input)));
    return store.create_run(detail::write_body(state));
}

namespace detail {

/// A run's checkpoints from its last state on, read: what resume_run goes on from and what the
/// run report shows.
struct run_tail {
    run_state state;
    /// The calls started after the state, in order, each with its result when one is recorded
    /// (a call started again after a crash is listed again; a result whose start is not in the
    /// tail gets an entry of its own, with the id only).
    std::vector<call_record> started;
    std::vector<std::optional<call_outcome>> finished;
    std::optional<run_outcome> outcome;
    std::optional<std::vector<pending_call>> pending;
    /// The decisions on the last pending calls; none when calls were pending again since.
    std::optional<std::vector<approval_decision>> decided;
};

/// The tail of run `id` (store.tail(id)) read; nothing when it does not start with a state
/// (no such run). Throws store_error for a checkpoint it cannot read.
inline std::optional<run_tail> read_tail(const std::vector<checkpoint>& tail, std::string_view id) {
    if (tail.empty() || tail.front().kind != checkpoint_kind::state) return std::nullopt;
    run_tail out;
    out.state = read_body<run_state>(tail.front().body, id, "state");
    for (std::size_t i = 1; i != tail.size(); ++i) {
        const checkpoint& c = tail[i];
        switch (c.kind) {
        case checkpoint_kind::call_started:
            out.started.push_back(read_body<call_record>(c.body, id, "call_started"));
            out.finished.emplace_back();
            break;
        case checkpoint_kind::call_finished: {
            call_outcome o = read_body<call_outcome>(c.body, id, "call_finished");
            std::size_t at = out.started.size();
            while (at != 0 && out.started[at - 1].id != o.id) --at;
            if (at == 0) {
                out.started.push_back({o.id, {}, {}});
                out.finished.emplace_back();
                at = out.started.size();
            }
            out.finished[at - 1] = std::move(o);
            break;
        }
        case checkpoint_kind::pending:
            out.pending = read_body<std::vector<pending_call>>(c.body, id, "pending");
            out.decided.reset();
            break;
        case checkpoint_kind::decided:
            out.decided = read_body<std::vector<approval_decision>>(c.body, id, "decided");
            break;
        case checkpoint_kind::done: out.outcome = read_body<run_outcome>(c.body, id, "done"); break;
        case checkpoint_kind::state: break;
        }
    }
    return out;
}

} // namespace detail

/// The run's result so far from its checkpoints: the last state, and the outcome when done.
inline run_result result_of(const run_state& state, const std::optional<run_outcome>& outcome) {
    run_result r;
    r.turns = state.turns;
    r.turn_usage = state.turn_usage;
    r.usage = state.usage;
    r.steps = state.steps;
    r.trimmed_messages = state.trimmed_messages;
    r.tool_calls_over_limit = state.tool_calls_over_limit;
    r.summarized_messages = state.summarized_messages.value_or(0);
    r.summary_usage = state.summary_usage.value_or(token_usage{});
    r.turn_timings = state.turn_timings.value_or(std::vector<turn_timing>{});
    r.plans = state.plans;
    r.sub_runs = state.sub_runs;
    // Bounded, as the agent's time limits are, whatever the store holds.
    constexpr std::int64_t century = std::int64_t(100) * 366 * 24 * 3600 * 1000;
    r.wall_time = std::chrono::milliseconds(std::clamp<std::int64_t>(state.run_time_ms.value_or(0), 0, century));
    if (outcome) {
        r.stop = outcome->stop;
        r.text = outcome->text;
    }
    return r;
}

/// Runs (or goes on with) run `id` of `store` in `agent` from its last checkpoint, until it
/// ends or waits for approvals; then finishes it in the store, or leaves it waiting. The
/// agent's conversation is replaced by the run's; the agent must have the same tools and
/// configuration as the one that started the run. A run already done is not run again: its
/// recorded result is returned; nor is a waiting run: it returns stop_reason::approval_pending
/// with the pending calls. A run given decisions (decide_run) goes on with them (agentry::approvals); when
/// the agent refuses them, the run waits again and the result says why. A run cancelled
/// (agent::cancel) is not finished: it stays runnable. Throws store_error when the run is
/// unknown, its checkpoints unreadable, or the store fails (the run then stays runnable and
/// resumes from its last checkpoint).
template <run_store Store, class Agent>
run_result resume_run(Store& store, Agent& agent, std::string_view id, const durable_options& options = {}) {
    std::optional<detail::run_tail> read = detail::read_tail(store.tail(id), id);
    if (!read) throw store_error("agentry: no run " + std::string(id) + " in this store; start one with start_run");
    auto& [state, started, finished, outcome, pending, decided] = *read;
    using recorded = typename detail::store_checkpointer<Store>::recorded;
    std::map<std::string, recorded, std::less<>> calls;  // by id: the last start of each call
    for (std::size_t i = 0; i != started.size(); ++i)
        calls[started[i].id] = finished[i] ? recorded{true, *finished[i]}
                                           : recorded{false, {started[i].id, tool_status::ok, {}, false}};
    if (outcome) return result_of(state, outcome);
    if (pending && !decided) {
        run_result waiting = result_of(state, std::nullopt);
        waiting.stop = stop_reason::approval_pending;
        waiting.pending = std::move(*pending);
        waiting.text = std::to_string(waiting.pending.size()) +
                       " tool calls wait for approval; decide with decide_run(store, id, decisions).";
        return waiting;
    }
    if (!agent.restore(detail::write_body(state.conversation)))
        throw store_error("agentry: the conversation of run " + std::string(id) + " could not be restored");
    detail::store_checkpointer<Store> checkpoints(store, std::string(id), options, std::move(calls));
    run_result progress = result_of(state, std::nullopt);
    progress.run_id = std::string(id);  // the tools' call_info::run_id: the same in every process
    using access = detail::agent_access<Agent>;
    const agent_events& events = access::events(agent);
    run_result r = decided ? access::run(agent, approvals{*decided, std::move(progress)}, events, 0, &checkpoints)
                           : access::run(agent, continuation{std::move(progress)}, events, 0, &checkpoints);
    // A store failure ended the run early: it stays runnable, to resume from its last checkpoint.
    if (std::exception_ptr failed = checkpoints.failure()) std::rethrow_exception(failed);
    // A cancelled run is not finished: it stays runnable, to resume from its last checkpoint.
    if (r.stop == stop_reason::cancelled) return r;
    if (r.stop == stop_reason::approval_pending) {
        // The conversation as it paused (a call over the per-turn limit may have been answered
        // since the last state), then the calls it waits for.
        store.append(id, checkpoint_kind::state, detail::write_body(detail::state_of(agent.conversation(), r, r.wall_time)));
        store.pause(id, detail::write_body(r.pending));
        return r;
    }
    store.finish(id, detail::write_body(run_outcome{r.stop, r.text}));
    return r;
}

/// The calls run `id` waits for decisions on; empty when it waits for none (it is runnable,
/// done, given decisions already, or unknown).
template <run_store Store>
std::vector<pending_call> pending_approvals(Store& store, std::string_view id) {
    const std::vector<checkpoint> tail = store.tail(id);
    if (tail.empty() || tail.back().kind != checkpoint_kind::pending) return {};
    return detail::read_body<std::vector<pending_call>>(tail.back().body, id, "pending");
}

/// Gives run `id`, waiting for approvals, a decision per pending call (each made with
/// agentry::decide(call, answer), so bound to the call's arguments): they are checkpointed and
/// the run becomes runnable; the next resume_run (in any process, or a worker) goes on with
/// them. Throws store_error, and the run stays waiting, for decisions agent::run(agentry::approvals{...}) would
/// refuse (with its message: a call that is not pending, a decision for other arguments, two
/// for one call, a call left without one), and when the run is not waiting (unknown, runnable,
/// done, or another decision came first).
template <run_store Store>
void decide_run(Store& store, std::string_view id, std::span<const approval_decision> decisions) {
    const std::vector<pending_call> pending = pending_approvals(store, id);
    if (pending.empty()) {
        const std::optional<run_status> status = store.status(id);
        throw store_error("agentry: decide_run: run " + std::string(id) +
                          (status ? " is " + std::string(to_string(*status)) + ", not waiting for a decision"
                                  : std::string(" is not in this store")) +
                          "; decide only on the calls pending_approvals gives");
    }
    if (std::string why = detail::refusal_of(pending, decisions, false); !why.empty()) throw store_error(why);
    store.decide(id, detail::write_body(std::vector<approval_decision>(decisions.begin(), decisions.end())));
}

} // namespace agentry

#endif
