// SPDX-License-Identifier: BSL-1.0
#ifndef AGENTRY_POLICY_PIPELINE_HPP
#define AGENTRY_POLICY_PIPELINE_HPP

// The call pipeline: every tool call of a run passes one ordered chain of layers before it
// reaches its tool, whatever its source: a registry tool, a tool added at run time (MCP,
// dynamic), a step of a plan, an agent called as a tool, a fallback. Each layer does one thing
// and calls the layers after it, or answers in their place. A layer that is off is not in the
// chain. The order, outermost first (the agent builds it; policy/layers/ has one file each):
//
//   large_results  a successful result over loop_config::max_result_size is kept whole and sent
//                as its first page or a summary, with a note (loop/large_results.hpp); the
//                built-in read_result passes the whole chain as any tool (read only, idempotent)
//   checkpoint   a result kept from before a crash answers; the result is recorded after
//   result_cap   what the model is sent is cut at loop_config::max_result_size (large_result::cut;
//                absent when large_results is there, which cuts only a failure's text)
//   canonical    arguments read by the reader's rules; what cannot be canonicalised is refused
//   ceiling      a tool above loop_config::max_permission runs only with approval
//   rate_limit   the tool's and the registry's rate limits, waiting up to max_rate_wait
//   approval     the decision given to resume, else the approver's; deny, approve or edit
//   fallback     after a tool_error, the tools of the fallback chain in order
//   retry        tries of an idempotent tool after transient failures and timeouts
//   timeout      the try runs on a thread of its own, abandoned at its timeout
//   (the tool)   the registry's typed call, or the added tool's function
//
// A layer knows only this file's types: what it needs of the run comes in the call.

#include <agentry/detail/chrono.hpp>
#include <agentry/policy/approval.hpp>
#include <agentry/policy/fixed_duration.hpp>
#include <agentry/policy/step.hpp>
#include <agentry/policy/token_bucket.hpp>
#include <agentry/policy/tool_policy.hpp>
#include <agentry/stop_token.hpp>
#include <agentry/tool_call.hpp>
#include <agentry/tool_result.hpp>
#include <agentry/trace_context.hpp>

#include <atomic>
#include <cstddef>
#include <functional>
#include <map>
#include <memory>
#include <mutex>
#include <span>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace agentry {

/// Where a call comes from.
enum class call_origin : unsigned char {
    model,     // a call the model made in a reply
    plan,      // a step of a plan (a planned run, agentry::planned)
    fallback,  // a fallback tried after its tool failed
};

/// What a run gives the calls it makes.
struct call_run {
    using clock = std::chrono::steady_clock;

    const std::atomic<bool>* cancel = nullptr;
    /// Signalled by agent::cancel(); a tool that takes agentry::stop_token gets it (or one signalled
    /// at the call's timeout too).
    agentry::stop_token stop{};
    clock::time_point started{};
    /// loop_config::max_total_time; 0: none.
    fixed_duration max_total_time{};
    /// The decisions given to resume, by call id; null when the run was not resumed.
    const std::map<std::string, approval, std::less<>>* decided = nullptr;

    bool cancelled() const noexcept { return cancel && cancel->load(); }
    /// False when a wait of `delay` from now would reach the run's time limit.
    bool has_time_for(std::chrono::milliseconds delay) const noexcept {
        if (max_total_time.is_zero()) return true;
        return delay < max_total_time.get() - std::chrono::duration_cast<std::chrono::milliseconds>(clock::now() - started);
    }
};

/// What the pipeline knows of a tool by its name.
struct tool_rules {
    /// Its policy; null: none (destructive, no approval).
    const tool_policy* policy = nullptr;
    /// The limiter that holds its bucket, and the bucket's index; null: no rate limit.
    rate_limiter* limits = nullptr;
    std::size_t rate_index = 0;
    /// A tool with a typed reader (the registry's): it refuses by itself what cannot be read.
    bool typed = false;
};

/// One tool call on its way through the pipeline; the layers may change `call.arguments`
/// (an approver's edit, a fallback's adapter) and fill in `record`.
struct tool_invocation {
    tool_call call;
    call_origin origin = call_origin::model;
    tool_rules rules{};
    /// What the model wrote in the reply that made the call (the approver sees it).
    std::string_view model_text;
    /// The arguments in canonical form, once the canonical layer has read them.
    std::string canonical;
    /// Given to the tool; the timeout layer replaces it with one also signalled at the timeout.
    agentry::stop_token stop{};
    /// Set by the timeout layer when the try passed its timeout.
    bool timed_out = false;
    /// The approver is asked under it when the turn's calls run in parallel; null otherwise.
    std::mutex* approving = nullptr;
    const call_run* run = nullptr;
    step* record = nullptr;
    /// The run's object for the tools that take agentry::context<T>; null when they take none.
    void* context = nullptr;
    /// The run's id, given with the call's id to the tools that take agentry::call_info; empty:
    /// none. Valid for the run; the timeout layer gives a call it may abandon its own copy.
    std::string_view run_id{};
    /// The call's span (telemetry/observer.hpp), given to the tool in its call_scope; not
    /// valid() when no observer traces.
    trace_context trace{};
};

class call_chain;

/// One layer: does its part and calls `next`, or answers in its place. Layers are shared by
/// the calls running in parallel: `call` must be safe from several threads at once.
class call_layer {
public:
    virtual ~call_layer() = default;
    virtual tool_result call(tool_invocation& call, const call_chain& next) const = 0;
};

/// The tool itself, after the last layer. It owns what it needs (copied to a call abandoned at
/// its timeout, which may end after the run).
using call_target = std::function<tool_result(const tool_invocation& call)>;

/// Finds the rules of a tool by name (for a fallback of the call's tool).
using tool_rules_lookup = std::function<tool_rules(std::string_view name)>;

/// The layers from one on, then the tool.
class call_chain {
public:
    call_chain(std::span<const std::unique_ptr<call_layer>> layers, const call_target& target) noexcept
        : layers_(layers), target_(&target) {}

    tool_result operator()(tool_invocation& call) const {
        if (layers_.empty()) return (*target_)(call);
        return layers_.front()->call(call, call_chain(layers_.subspan(1), *target_));
    }

    /// The tool, for the timeout layer (which must be the last).
    const call_target& target() const noexcept { return *target_; }
    bool at_target() const noexcept { return layers_.empty(); }

private:
    std::span<const std::unique_ptr<call_layer>> layers_;
    const call_target* target_;
};

/// The chain a run's calls pass: its layers in order, and the tool.
class call_pipeline {
public:
    call_pipeline() = default;
    call_pipeline(std::vector<std::unique_ptr<call_layer>> layers, call_target target)
        : layers_(std::move(layers)), target_(std::move(target)) {}

    tool_result operator()(tool_invocation& call) const { return call_chain(layers_, target_)(call); }
    std::size_t size() const noexcept { return layers_.size(); }

private:
    std::vector<std::unique_ptr<call_layer>> layers_;
    call_target target_;
};

namespace detail {

/// A result of a call that did not reach its tool.
inline tool_result refused_call(tool_status status, std::string content) {
    tool_result out;
    out.status = status;
    out.content = std::move(content);
    return out;
}

} // namespace detail

} // namespace agentry

#endif
