// SPDX-License-Identifier: BSL-1.0
#ifndef AGENTRY_LOOP_DETAIL_NESTED_HPP
#define AGENTRY_LOOP_DETAIL_NESTED_HPP

// How a tool call reaches the run that made it, for agents called as tools (agent_tool.hpp):
// while an agent runs a tool call, the thread running it sees a nested_call naming the call's
// step id and the run's nested_runs, where a sub-run takes its token allowance and leaves its
// result; the agent moves those results into its run_result after the turn's calls.

#include <agentry/detail/separate.hpp>
#include <agentry/loop/result.hpp>
#include <agentry/trace_context.hpp>

#include <cstdint>
#include <limits>
#include <memory>
#include <mutex>
#include <string>
#include <utility>
#include <vector>

namespace agentry::detail {

/// Shared by an agent and the tool calls of its runs (also those abandoned at a timeout).
struct nested_runs {
    static constexpr std::uint64_t unlimited = std::numeric_limits<std::uint64_t>::max();

    std::mutex mutex;
    /// Tokens the sub-runs may still use in this turn: the run's budget left, less what the
    /// sub-runs that ended have used; `unlimited` when the run has no budget.
    std::uint64_t tokens_left = unlimited;
    /// Sub-runs that ended and are not in the run_result yet.
    std::vector<sub_run> ended;

    void set_tokens_left(std::uint64_t n);
    std::uint64_t left();
    /// Usage of the model requests tool calls made for the run (large-result summaries), not in
    /// the run_result yet.
    token_usage summaries{};

    void add(sub_run r);
    /// Adds the usage of a summary a tool call's result asked for.
    void add_summary(const token_usage& u);
    /// Moves the ended sub-runs into `result`, their usage and the summaries' into its usage
    /// (the summaries' into summary_usage too).
    void collect(run_result& result);
};

/// The tool call a thread is running for an agent.
struct nested_call {
    std::shared_ptr<nested_runs> runs;
    std::string step_id;
    std::string tool;
    /// The call's span: a sub-run's run span is its child.
    trace_context trace{};
};

/// The call of the innermost agent on this thread, or null outside a tool call of an agent.
AGENTRY_DECL const nested_call*& current_nested_call() noexcept;

/// Makes `call` the current one on this thread for the guard's life.
class nested_call_guard {
public:
    explicit nested_call_guard(const nested_call* call) noexcept : previous_(current_nested_call()) {
        current_nested_call() = call;
    }
    nested_call_guard(const nested_call_guard&) = delete;
    nested_call_guard& operator=(const nested_call_guard&) = delete;
    ~nested_call_guard() { current_nested_call() = previous_; }

private:
    const nested_call* previous_;
};

} // namespace agentry::detail

#if !defined(AGENTRY_SEPARATE_COMPILATION)
#include <agentry/loop/impl/nested.ipp>
#endif

#endif
