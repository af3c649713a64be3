// SPDX-License-Identifier: BSL-1.0
#ifndef AGENTRY_AGENT_HPP
#define AGENTRY_AGENT_HPP

// agentry::agent<loop_config>: the loop that runs a model with tools. Each turn sends the
// conversation to the provider, runs the tool calls the model makes through the registry and
// sends back their results (or the precise error, so that the model can repair the call),
// until the model answers, or a limit of the loop_config stops the run.
//
//   constexpr agentry::loop_config config{.max_turns = 8, .parallel_tool_calls = true};
//   agentry::agent<config> agent{agentry::openai{.model = "gpt-4o-mini"}, tools,
//                                "You are a travel assistant."};
//   agentry::run_result r = agent.run("Do I need an umbrella in Paris today?");
//
// The provider and transport are kept by value. The transport may be left out when the
// program links the agentry::curl CMake target (which defines AGENTRY_WITH_CURL): it is then
// agentry::curl_transport. The registry is copied (with the call options the dialect needs);
// an object a member-function tool points to must outlive the agent, whose destructor waits
// for calls abandoned at loop_config::tool_timeout to end. One agent runs one conversation;
// run() is not for several threads at once, cancel() is.

#include <agentry/call_scope.hpp>
#include <agentry/config.hpp>
#include <agentry/detail/separate.hpp>
#include <agentry/detail/text.hpp>
#include <agentry/loop/checkpoint.hpp>
#include <agentry/loop/detail/nested.hpp>
#include <agentry/loop/detail/replay.hpp>
#include <agentry/loop/config.hpp>
#include <agentry/loop/context.hpp>
#include <agentry/loop/detect.hpp>
#include <agentry/loop/dynamic_tools.hpp>
#include <agentry/loop/fixed_duration.hpp>
#include <agentry/loop/output.hpp>
#include <agentry/loop/plan.hpp>
#include <agentry/loop/result.hpp>
#include <agentry/loop/stop.hpp>
#include <agentry/loop/summary.hpp>
#include <agentry/policy/approval.hpp>
#include <agentry/policy/fallback.hpp>
#include <agentry/policy/registry_policies.hpp>
#include <agentry/policy/token_bucket.hpp>
#include <agentry/provider/message.hpp>
#include <agentry/provider/provider.hpp>
#include <agentry/json/reader.hpp>
#include <agentry/json/writer.hpp>
#include <agentry/tool_result.hpp>
#include <agentry/transport/transport.hpp>
#if defined(AGENTRY_WITH_CURL)
#include <agentry/transport/curl.hpp>
#endif

#include <algorithm>
#include <atomic>
#include <chrono>
#include <cstdint>
#include <exception>
#include <functional>
#include <map>
#include <memory>
#include <mutex>
#include <numeric>
#include <optional>
#include <span>
#include <stdexcept>
#include <stop_token>
#include <string>
#include <string_view>
#include <type_traits>
#include <utility>
#include <vector>

namespace agentry {

/// Callbacks during a run; each may be empty. With on_text set, model turns are streamed.
struct agent_events {
    std::function<void(std::string_view text)> on_text;
    std::function<void(const tool_call& call)> on_tool_start;
    std::function<void(const step& done)> on_tool_end;
    /// After each model turn: its number and token usage.
    std::function<void(std::uint32_t turn, const token_usage& usage)> on_turn_end;
    /// Before a retry of a transient provider error: the error and the delay.
    std::function<void(const provider_error& error, std::chrono::milliseconds delay)> on_retry;
};

namespace detail {

/// Sleeps for `delay` unless `cancel` becomes true first; false when cancelled. Any delay is
/// safe: one past the clock's range sleeps until cancelled, a negative one not at all.
AGENTRY_DECL bool sleep_unless(std::chrono::milliseconds delay, const std::atomic<bool>& cancel);

AGENTRY_DECL std::string excerpt(std::string_view text, std::size_t n = 200);

/// A user callback (an agent_events member or the token estimator) threw; the run stops with
/// stop_reason::callback_error and this message.
struct callback_error : std::runtime_error {
    using std::runtime_error::runtime_error;
};

template <class F, class... A>
decltype(auto) invoke_callback(std::string_view name, const F& f, A&&... args) {
    try {
        return f(std::forward<A>(args)...);
    } catch (const std::exception& e) {
        throw callback_error("agentry: the " + std::string(name) + " callback threw: " + e.what() +
                             "; the run stopped");
    } catch (...) {
        throw callback_error("agentry: the " + std::string(name) +
                             " callback threw an exception that is not a std::exception; the run stopped");
    }
}

/// Test seam: when set, called before the agent starts each thread; a throw stands for the
/// system refusing a thread (std::thread's constructor throws std::system_error then).
inline std::atomic<void (*)()> before_thread_start{nullptr};

/// Tool calls running on their own thread (those with a timeout), so that the agent can wait
/// for the abandoned ones before the objects they use go away.
class running_calls;

/// A new running_calls, with no call running.
AGENTRY_TEMPLATE_DECL
std::shared_ptr<running_calls> make_running_calls();

/// Waits until no call of `calls` runs.
AGENTRY_DECL void wait_idle(running_calls& calls);

/// Runs `call` on a thread of its own, counted in `running`, with a stop token signalled by
/// `run` and at `timeout` after `t0`; its result, or a tool_error when the timeout passes first
/// (`timed_out` is then set and the call is abandoned) or no thread can be started.
AGENTRY_TEMPLATE_DECL
tool_result call_on_thread(std::function<tool_result(std::stop_token)> call, const std::string& name,
                           const std::stop_token& run, std::chrono::steady_clock::time_point t0,
                           fixed_duration timeout, const std::shared_ptr<running_calls>& running,
                           bool& timed_out);

/// Runs `worker` on `threads` threads, this one included, and waits for them; a thread that
/// cannot start leaves the work to those that did (at least this one).
AGENTRY_TEMPLATE_DECL
void run_workers(std::size_t threads, const std::function<void()>& worker);

template <class>
inline constexpr bool no_default_transport = false;

/// What the agent keeps of its tools' policies (only when some tool declares one, or has one
/// from add_tools).
struct policy_state {
    std::span<const tool_policy> table;
    std::size_t (*find)(std::string_view) noexcept;
    /// The tools' rate limits and the registry's own; null when there are none.
    std::unique_ptr<rate_limiter> limits;
    /// Some tool needs approval.
    bool any_approval = false;
    /// How the registry reads arguments, for fallback adapters.
    json::read_options arguments{};
    /// The tools added by add_tools, with their policies; null when none has one.
    std::shared_ptr<const dynamic_state> dynamic;

    const dynamic_policy* dynamic_for(std::string_view name) const noexcept {
        return dynamic ? dynamic->policy_of(name) : nullptr;
    }
};

/// Moves `messages` into `history` right after its message `at`.
AGENTRY_TEMPLATE_DECL
void insert_after(std::vector<message>& history, std::size_t at, std::vector<message> messages);

/// The wait before retry `retry` (from 0): doubling from `initial` up to `ceiling`, with
/// jitter of +-50 %.
AGENTRY_DECL std::chrono::milliseconds jittered_backoff(std::int64_t initial, std::int64_t ceiling,
                                                        std::uint32_t retry);

/// The wait before retry `retry` (from 0) of a tool: doubling from initial_backoff up to
/// max_backoff, with jitter of +-50 %.
AGENTRY_DECL std::chrono::milliseconds tool_backoff(const tool_retry& rule, std::uint32_t retry);

/// What the model is told about a failure of `kind`, in parentheses after the tool's message.
constexpr std::string_view failure_advice(failure_kind kind) noexcept {
    switch (kind) {
    case failure_kind::transient: return "it may succeed if tried again later";
    case failure_kind::permanent: return "it will fail again with the same arguments";
    case failure_kind::invalid_input: return "change the arguments before trying again";
    case failure_kind::not_found: return "what the arguments name does not exist; check it or ask the user";
    case failure_kind::permission: return "this caller is not allowed to do it; do not try again";
    }
    return "";
}

} // namespace detail

/// Config: the loop's limits and features. Context: the type of the object each run gives to
/// the tools that take agentry::context<Context> (the registry's context_type); void when no
/// tool takes one. Output: the struct the final answer is read into (loop/output.hpp), and
/// the runs then return typed_result<Output>; void: a text answer, and they return run_result.
template <loop_config Config, class Context = void, class Output = void>
class agent {
    // Read through a static copy, not the template parameter object, on every compiler:
    // AGENTRY_WORKAROUND_CLASS_NTTP_READS (config.hpp).
    static constexpr loop_config config_ = Config;

    static_assert(detail::valid_config_time(config_.max_total_time),
                  "agentry: loop_config::max_total_time must be between 0 (none) and 100 years");
    static_assert(detail::valid_config_time(config_.tool_timeout),
                  "agentry: loop_config::tool_timeout must be between 0 (none) and 100 years");
    static_assert(detail::valid_config_time(config_.retry.initial_backoff) &&
                      detail::valid_config_time(config_.retry.max_backoff) &&
                      detail::valid_config_time(config_.retry.max_server_delay),
                  "agentry: loop_config::retry: initial_backoff, max_backoff and max_server_delay must be between 0 "
                  "and 100 years");
    static_assert(detail::valid_config_time(config_.max_rate_wait),
                  "agentry: loop_config::max_rate_wait must be between 0 (none) and 100 years");
    static_assert(config_.max_tool_calls_per_turn >= 1,
                  "agentry: loop_config::max_tool_calls_per_turn must be at least 1 (the calls past it are not run)");
    static_assert(config_.compression != context_compression::summary || config_.context_budget_tokens != 0,
                  "agentry: loop_config::compression is context_compression::summary without a context_budget_tokens; "
                  "set the budget the summary keeps the history within");

public:
    /// What run, resume and continue_run return: run_result, or typed_result<Output>.
    using result_type = detail::result_of_runs<Output>;

    /// The tools payload is `tools.definitions<P::dialect>()`; the registry is copied.
    template <provider P, class Registry, transport T>
    agent(P model, const Registry& tools, std::string system_prompt, T http)
        : tools_payload_(Registry::template definitions<typename P::dialect>()),
          dynamic_context_(detail::dynamic_context::of<typename P::dialect, Registry>(config_.max_permission,
                                                                                     config_.max_result_size)),
          output_(detail::output_slot<Output>::template of<P>()) {
        auto state = std::make_shared<std::pair<P, T>>(std::move(model), std::move(http));
        turn_ = [state](const chat_request& request, const stream_events& events, const trace_hook& trace) {
            return complete(state->first, state->second, request, events, trace);
        };
        call_options options = tools.options();
        options.max_result_size = config_.max_result_size;
        // A dialect that makes every property required sends null for an absent optional one.
        if constexpr (P::dialect::rules.all_required) options.arguments.null_as_absent = true;
        static_assert(std::is_same_v<typename Registry::context_type, Context>,
                      "agentry: agent<config, Context>: Context must be the registry's context_type: the T of the "
                      "agentry::context<T> its tools take, or void when none takes one; declare the agent as "
                      "agentry::agent<config, T> and call run(input, ctx)");
        call_ = [registry = tools.with_options(options)](std::string_view name, std::string_view arguments,
                                                         const call_scope& scope, [[maybe_unused]] context_pointer ctx) {
            if constexpr (std::is_void_v<Context>) return registry.template call<typename P::dialect>(name, arguments, scope);
            else return registry.template call<typename P::dialect>(name, arguments, scope, *ctx);
        };
        using policies = registry_policies<Registry>;
        static_assert(policies::template within<config_.max_permission>());
        static_assert(fallback_check<Registry>::ok());
        static_assert(detail::stop_tools_known<Registry, config_.stop_at_tools>());
        if constexpr (policies::any) {
            auto policy = std::make_shared<detail::policy_state>();
            policy->table = policies::table;
            policy->find = &Registry::find;
            policy->any_approval = std::any_of(policies::table.begin(), policies::table.end(),
                                               [](const tool_policy& p) { return p.needs_approval; });
            policy->arguments = options.arguments;
            if constexpr (policies::any_rate)
                policy->limits = std::make_unique<rate_limiter>(policies::table, policies::registry_rate);
            policy_ = std::move(policy);
        }
        if constexpr (config_.planning.enabled) plan_tools_ = detail::plan_tools::of<typename P::dialect, Registry>();
        if (!system_prompt.empty()) history_.push_back(message::system(std::move(system_prompt)));
    }

#if defined(AGENTRY_WITH_CURL)
    /// The same with agentry::curl_transport.
    template <provider P, class Registry>
    agent(P model, const Registry& tools, std::string system_prompt)
        : agent(std::move(model), tools, std::move(system_prompt), curl_transport{}) {}
#else
    template <provider P, class Registry>
    agent(P, const Registry&, std::string) {
        static_assert(detail::no_default_transport<P>,
                      "agentry: agent{model, tools, system_prompt}: no default transport in this program; link the "
                      "agentry::curl CMake target (target_link_libraries(app PRIVATE agentry::curl)) or pass a "
                      "transport (a type that models agentry::transport) as the fourth argument");
    }
#endif

    agent(const agent&) = delete;
    agent& operator=(const agent&) = delete;

    /// Waits for tool calls abandoned at loop_config::tool_timeout to end.
    ~agent() { detail::wait_idle(*running_); }

    /// Runs the model on `input` (a new user message) until it answers or a limit stops it.
    /// Never throws: errors end the run with their stop_reason. While calls wait for a decision
    /// (stop_reason::approval_pending), it adds nothing and stops with that reason again.
    result_type run(std::string input, const agent_events& events = {}) noexcept {
        static_assert(std::is_void_v<Context>,
                      "agentry: agent<config, Context>::run: this agent's tools take agentry::context<Context>; call "
                      "run(input, ctx) with the Context object for the run");
        return output_.finish(start(std::move(input), events));
    }

    /// As run(input, events), giving `ctx` to the tools that take agentry::context<Context>.
    /// `ctx` must outlive the calls abandoned at a timeout, as the agent's objects do.
    template <class C>
        requires(!std::is_void_v<Context> && std::is_same_v<C, Context>)
    result_type run(std::string input, C& ctx, const agent_events& events = {}) noexcept {
        ctx_ = &ctx;
        return output_.finish(start(std::move(input), events));
    }

    /// The AI-planned mode (loop/plan.hpp, loop_config::planning): the model writes a plan of
    /// tool calls with dependencies, the agent runs it as a graph and the model answers from
    /// the results. Never throws; r.plans holds each plan with its steps and timings.
    run_result run_planned(std::string input, const agent_events& events = {}) noexcept {
        static_assert(std::is_void_v<Context>,
                      "agentry: agent<config, Context>::run_planned: this agent's tools take agentry::context<Context>; "
                      "call run_planned(input, ctx) with the Context object for the run");
        return start_planned(std::move(input), events);
    }

    /// As run_planned(input, events), giving `ctx` to the tools that take agentry::context<Context>.
    template <class C>
        requires(!std::is_void_v<Context> && std::is_same_v<C, Context>)
    run_result run_planned(std::string input, C& ctx, const agent_events& events = {}) noexcept {
        ctx_ = &ctx;
        return start_planned(std::move(input), events);
    }

    /// Goes on with a run that stopped with stop_reason::approval_pending (in this agent, or
    /// in one that restore()d its save()): runs the calls of that turn with `decisions` (one
    /// per pending call, each bound to the call's canonical arguments; the approver, when one
    /// is set, decides on calls left out), then loops as run does. Refuses, running nothing
    /// and stopping with approval_pending again, a decision for a call that is not pending or
    /// for other arguments, two for one call, and a call left without one. Never throws.
    result_type resume(std::span<const approval_decision> decisions, const agent_events& events = {}) noexcept {
        static_assert(std::is_void_v<Context>,
                      "agentry: agent<config, Context>::resume: this agent's tools take agentry::context<Context>; "
                      "call resume(decisions, ctx) with the Context object for the run");
        return output_.finish(resume_with(decisions, events));
    }

    /// As resume(decisions, events), giving `ctx` to the tools that take agentry::context<Context>.
    template <class C>
        requires(!std::is_void_v<Context> && std::is_same_v<C, Context>)
    result_type resume(std::span<const approval_decision> decisions, C& ctx, const agent_events& events = {}) noexcept {
        ctx_ = &ctx;
        return output_.finish(resume_with(decisions, events));
    }

    /// As resume(decisions, events), counting on from `progress` (the run so far) as
    /// continue_run does: what a durable run resumed in another process needs.
    run_result resume(run_result progress, std::span<const approval_decision> decisions,
                      const agent_events& events = {}) noexcept {
        static_assert(std::is_void_v<Context>,
                      "agentry: agent<config, Context>::resume(progress, decisions): not for agents whose tools take "
                      "agentry::context<Context>");
        return resume_with(decisions, events, std::move(progress));
    }

    /// The calls waiting for a decision (after stop_reason::approval_pending, or a restore()
    /// of a conversation saved then); empty when none.
    std::vector<pending_call> pending_approvals() const {
        std::vector<pending_call> out;
        const std::optional<open_turn> open = open_turn_of();
        if (!open || !policy_) return out;
        const message& reply = history_[open->reply];
        for (std::size_t i : open->unanswered) {
            const tool_call& call = reply.tool_calls[i];
            const tool_policy* policy = policy_for(call.name);
            if (!policy || !policy->needs_approval) continue;
            std::optional<std::string> canonical = detail::canonical_json(call.arguments);
            if (!canonical) continue;  // not JSON: the registry rejects it without running it
            out.push_back({call.id, call.name, std::move(*canonical), reply.text, policy->level});
        }
        return out;
    }

    /// Goes on with the conversation that restore() gave, without a new user message: runs the
    /// tool calls of its last model turn when they have no results yet, else asks the model.
    /// `progress` is the run so far (turns, usage, steps, wall_time), which the limits count on from. A
    /// conversation that ends with the model's answer is not sent again: that answer is the result.
    result_type continue_run(run_result progress = {}, const agent_events& events = {}) noexcept {
        return output_.finish(guarded(
            [&](run_result& result, clock::time_point started) {
                const bool answered = !history_.empty() && history_.back().role == role::assistant;
                if (answered && history_.back().tool_calls.empty()) {
                    result.stop = stop_reason::completed;
                    result.text = history_.back().text;
                } else if (const std::optional<open_turn> open = open_turn_of()) {
                    std::vector<tool_call> waiting;
                    for (std::size_t i : open->unanswered) waiting.push_back(history_[open->reply].tool_calls[i]);
                    if (must_pause(waiting)) {
                        result.stop = stop_reason::approval_pending;
                        result.pending = pending_approvals();
                        result.text = std::to_string(result.pending.size()) +
                                      " tool calls wait for approval; decide with resume(decisions).";
                    } else {
                        const decided_calls none;
                        execute(result, events, started, &none);
                    }
                } else {
                    execute(result, events, started, nullptr);
                }
            },
            std::move(progress)));
    }

    /// Stops a run in progress (from any thread) at the next opportunity: between turns and
    /// tool calls, during a backoff, or mid-request.
    void cancel() noexcept {
        cancel_.store(true);
        std::lock_guard lock(stop_mutex_);
        run_stop_.request_stop();  // the std::stop_token of the tools running
    }

    /// The conversation so far (system prompt, user messages, replies, tool results).
    const std::vector<message>& conversation() const noexcept { return history_; }

    /// The conversation as JSON, to restore later with restore().
    std::string save() const {
        std::string out;
        json::write(out, history_);
        return out;
    }

    /// Replaces the conversation with one save() wrote; false (and nothing changed) when the
    /// text is not one.
    bool restore(std::string_view saved) {
        auto r = json::read<std::vector<message>>(saved, {.max_size = std::size_t(-1) / 2, .max_depth = 16});
        if (!r.ok()) return false;
        history_ = std::move(r.value);
        return true;
    }

    /// Replaces the token estimate used for loop_config::context_budget_tokens.
    void set_token_estimator(token_estimator estimate) { estimate_ = std::move(estimate); }

    /// Checked before each model request (the first included); true stops the run with
    /// stop_reason::stop_condition, a throw with stop_reason::callback_error. Empty: none.
    void set_stop_condition(stop_condition stop) { stop_condition_ = std::move(stop); }

    /// A token budget (input + output) for the following runs beside loop_config::max_total_tokens,
    /// checked the same way (stop_reason::token_budget); 0: none. agent_tool gives a sub-agent
    /// what is left of its caller's budget with it.
    void set_token_budget(std::uint64_t tokens) noexcept { token_budget_ = tokens; }

    /// Adds a tool to loop_config::stop_at_tools at run time: one that add_tools added (or one
    /// of the registry). Fails, changing nothing, for a name the agent has no tool of.
    agentry::outcome<void> stop_at_tool(std::string name) {
        const bool added = dynamic_ && std::find(dynamic_->names.begin(), dynamic_->names.end(), name) !=
                                           dynamic_->names.end();
        if (!added && !dynamic_context_.has_static(name))
            return fail(failure_kind::invalid_input, "agentry: agent::stop_at_tool: the agent has no tool named \"" +
                                                         name + "\"; add it with add_tools first");
        stop_tools_.push_back(std::move(name));
        return {};
    }

    /// Called with each request and response, API keys redacted.
    void set_trace(trace_hook hook) { trace_ = std::move(hook); }

    /// Adds tools known at run time (an mcp::toolset, or any dynamic_tool_source) to those of
    /// the registry: their definitions join the tools payload, calls of their names go to them.
    /// Their policies apply as registry tools' do (see dynamic_tool::policy). Not during a
    /// run. The source's failure (nothing added) when it refuses.
    agentry::outcome<void> add_tools(const dynamic_tool_source& source) {
        agentry::outcome<void> added = detail::add_dynamic_tools(source, dynamic_context_, tools_payload_, dynamic_, call_);
        if (added && dynamic_ && !dynamic_->policies.empty()) {
            if (!policy_) {  // the registry declares no policies: none of its tools is found
                policy_ = std::make_shared<detail::policy_state>();
                policy_->find = +[](std::string_view) noexcept { return std::size_t(0); };
            }
            policy_->dynamic = dynamic_;
            policy_->any_approval = policy_->any_approval || dynamic_->any_approval;
        }
        return added;
    }

    /// Decides on the calls of tools whose policy needs approval, before they run (one at a
    /// time, also with parallel tool calls). Without an approver the run pauses for decisions
    /// (stop_reason::approval_pending, then resume). An exception from it stops the run with
    /// stop_reason::callback_error.
    void set_approver(approver decide) { approver_ = std::move(decide); }

    /// Told the run's state after each model turn and each turn's results, and each tool call
    /// before and after it runs (loop/checkpoint.hpp); null: none. It must outlive the runs.
    void set_checkpointer(checkpointer* c) noexcept { checkpoint_ = c; }

private:
    using turn_fn = std::function<turn_result(const chat_request&, const stream_events&, const trace_hook&)>;
    using context_pointer = std::add_pointer_t<Context>;
    using call_fn = std::function<tool_result(std::string_view, std::string_view, const call_scope&, context_pointer)>;

    using clock = std::chrono::steady_clock;
    using decided_calls = std::map<std::string, approval, std::less<>>;

    // Runs `body(result, started)` from `result` (the run so far), turning what it throws into
    // the run's stop reason.
    template <class Body>
    run_result guarded(Body&& body, run_result result = {}) noexcept {
        const auto started = clock::now() - result.wall_time;  // the time limit counts on from `result`
        try {
            cancel_.store(false);
            {
                std::lock_guard lock(stop_mutex_);
                run_stop_ = std::stop_source();
                run_token_ = run_stop_.get_token();
            }
            started_ = started;
            body(result, started);
        } catch (const detail::callback_error& e) {
            result.stop = stop_reason::callback_error;
            result.text = e.what();
        } catch (const std::exception& e) {
            result.stop = stop_reason::provider_error;
            result.error = detail::malformed(std::string("agentry: ") + e.what());
            result.text = result.error->message;
        } catch (...) {
            result.stop = stop_reason::provider_error;
            result.error = detail::malformed("agentry: unknown exception");
            result.text = result.error->message;
        }
        result.wall_time = detail::elapsed_ms(started);
        return result;
    }

    void refuse(run_result& result, std::string why) const {
        result.stop = stop_reason::approval_pending;
        result.text = std::move(why);
        result.pending = pending_approvals();
    }

    // The last model reply's tool calls that have no result yet: only a run stopped for
    // approval leaves them.
    struct open_turn {
        std::size_t reply;
        std::vector<std::size_t> unanswered;
    };
    std::optional<open_turn> open_turn_of() const {
        std::size_t i = history_.size();
        while (i != 0 && history_[i - 1].role == role::tool) --i;
        if (i == 0 || history_[i - 1].role != role::assistant) return std::nullopt;
        open_turn open{i - 1, {}};
        const std::vector<tool_call>& calls = history_[open.reply].tool_calls;
        for (std::size_t c = 0; c != calls.size(); ++c)
            if (std::none_of(history_.begin() + static_cast<std::ptrdiff_t>(i), history_.end(),
                             [&](const message& m) { return m.tool_call_id == calls[c].id; }))
                open.unanswered.push_back(c);
        if (open.unanswered.empty()) return std::nullopt;
        return open;
    }

    run_result start(std::string input, const agent_events& events) noexcept {
        return guarded([&](run_result& result, clock::time_point started) {
            if (std::optional<open_turn> open = open_turn_of()) {
                refuse(result, "agentry: run: " + std::to_string(open->unanswered.size()) +
                                   " tool calls of the last turn wait for a decision; call resume(decisions) first "
                                   "(deny them to drop them); the input was not added");
                return;
            }
            history_.push_back(message::user(std::move(input)));
            execute(result, events, started, nullptr);
        });
    }

    template <class, class>
    friend struct detail::planner;

    run_result start_planned(std::string input, const agent_events& events) noexcept {
        static_assert(config_.planning.enabled,
                      "agentry: agent::run_planned: set loop_config::planning.enabled = true (the plan schema is "
                      "generated only then)");
        static_assert(config_.max_tool_calls == 0,
                      "agentry: agent::run_planned: loop_config::max_tool_calls does not bound a plan's steps; "
                      "leave it 0 for a planned run and bound the steps with loop_config::planning.max_steps");
        return guarded([&](run_result& result, clock::time_point started) {
            if (std::optional<open_turn> open = open_turn_of()) {
                refuse(result, "agentry: run_planned: " + std::to_string(open->unanswered.size()) +
                                   " tool calls of the last turn wait for a decision; call resume(decisions) first "
                                   "(deny them to drop them); the input was not added");
                return;
            }
            detail::planner<agent, agent_events>{*this, result, events, started}.run(std::move(input));
        });
    }

    run_result resume_with(std::span<const approval_decision> decisions, const agent_events& events,
                           run_result progress = {}) noexcept {
        return guarded([&](run_result& result, clock::time_point started) {
            std::vector<pending_call> pending = pending_approvals();
            if (!open_turn_of()) return refuse(result, "agentry: resume: no tool calls wait for a decision");
            decided_calls decided;
            for (const approval_decision& d : decisions) {
                const auto p = std::find_if(pending.begin(), pending.end(),
                                            [&](const pending_call& c) { return c.call_id == d.call_id; });
                if (p == pending.end())
                    return refuse(result, "agentry: resume: no pending call has the id \"" + d.call_id + "\"");
                if (decided.contains(d.call_id))
                    return refuse(result, "agentry: resume: two decisions for the call " + d.call_id);
                if (detail::canonical_json(d.arguments) != std::optional<std::string>(p->arguments))
                    return refuse(result, "agentry: resume: the decision for the call " + d.call_id + " (" +
                                              p->tool + ") was made for the arguments " + d.arguments +
                                              ", but the call's are " + p->arguments +
                                              "; decide on the call as it is");
                decided.emplace(d.call_id, d.answer);
            }
            for (const pending_call& p : pending)
                if (!approver_ && !decided.contains(p.call_id))
                    return refuse(result, "agentry: resume: no decision for the call " + p.call_id + " (" + p.tool +
                                              "); give one for every pending call");
            execute(result, events, started, &decided);
        }, std::move(progress));
    }

    bool out_of_time(clock::time_point started) const {
        if constexpr (config_.max_total_time.is_zero()) {
            (void)started;
            return false;
        } else {
            return detail::elapsed_ms(started) >= config_.max_total_time.get();
        }
    }

    bool stopped(run_result& result, clock::time_point started) {
        if (cancel_.load()) {
            result.stop = stop_reason::cancelled;
            result.text = "The run was cancelled.";
            return true;
        }
        if (out_of_time(started)) {
            result.stop = stop_reason::timeout;
            result.text = "The run took longer than its time limit of " + std::to_string(config_.max_total_time.ms) +
                          " ms.";
            return true;
        }
        return false;
    }

    // The wait before retry `attempt` (from 0): exponential backoff with jitter, or the
    // provider's hint when longer, capped by retry_policy::max_server_delay.
    static std::chrono::milliseconds retry_delay(std::uint32_t attempt, const provider_error& error) {
        auto delay = detail::jittered_backoff(config_.retry.initial_backoff.ms, config_.retry.max_backoff.ms, attempt);
        if (error.retry_after) {
            const auto hint = std::clamp(*error.retry_after, std::chrono::milliseconds::zero(),
                                         config_.retry.max_server_delay.get());
            delay = std::max(delay, hint);
        }
        return delay;
    }

    // One model turn, with retries of transient errors. A retry that would wait past the run's
    // time limit is not made; `why` then says so.
    turn_result ask(const chat_request& request, const agent_events& events, clock::time_point started,
                    std::string& why) {
        std::optional<std::string> text_failure;
        stream_events stream;
        if (events.on_text)
            stream.on_text = [&](std::string_view text) {
                if (text_failure) return;
                try {
                    detail::invoke_callback("on_text", events.on_text, text);
                } catch (const detail::callback_error& e) {
                    text_failure = e.what();
                    throw;  // the provider abandons the turn
                }
            };
        for (std::uint32_t attempt = 0;; ++attempt) {
            turn_result r = turn_(request, stream, trace_);
            if (text_failure) throw detail::callback_error(*text_failure);
            if (r.ok() || !r.error.retryable || attempt >= config_.retry.max_retries || cancel_.load()) return r;
            const std::chrono::milliseconds delay = retry_delay(attempt, r.error);
            if constexpr (!config_.max_total_time.is_zero()) {
                const std::chrono::milliseconds left = config_.max_total_time.get() - detail::elapsed_ms(started);
                if (delay >= left) {
                    why = " (not retried: the wait of " + std::to_string(delay.count()) +
                          " ms would pass the run's time limit of " + std::to_string(config_.max_total_time.ms) +
                          " ms)";
                    return r;
                }
            }
            if (events.on_retry) detail::invoke_callback("on_retry", events.on_retry, r.error, delay);
            if (!detail::sleep_unless(delay, cancel_)) return r;
        }
    }

    static tool_result tool_error(std::string text) {
        tool_result out;
        out.status = tool_status::tool_error;
        out.content = std::move(text);
        return out;
    }

    // The idempotent flag of the tool's policy; false without one.
    bool idempotent(std::string_view name) const noexcept {
        const tool_policy* policy = policy_for(name);
        return policy && policy->idempotent;
    }

    static step not_run_step(const tool_call& call, std::uint32_t turn, const tool_result& out) {
        step s;
        s.turn = turn;
        s.id = call.id;
        s.tool = call.name;
        s.arguments = call.arguments;
        s.status = out.status;
        s.result_excerpt = detail::excerpt(out.content);
        return s;
    }

    // The policy of the call's tool before it runs: its rate limit, then its approval (the
    // decision given to resume for it, else the approver's). Returns the arguments to run (the
    // decision may change them), or nothing when the call is not run: `out` then holds what
    // the model is told. Only an approver that throws makes it throw. The approver is asked
    // under `approving` (null: the calls run one at a time).
    std::optional<std::string> admit(const tool_call& call, std::string_view model_text, tool_result& out,
                                     std::mutex* approving, const decided_calls* decided) {
        std::size_t index = policy_->find(call.name);
        const detail::dynamic_policy* added = index == policy_->table.size() ? policy_->dynamic_for(call.name) : nullptr;
        if (index == policy_->table.size() && !added) return call.arguments;  // the registry answers
        const tool_policy& policy = added ? added->policy : policy_->table[index];
        if (added) index = 0;  // a tool added by add_tools has a limiter of its own
        if (rate_limiter* limits = added ? added->limits.get() : policy_->limits.get()) {
            rate_limiter::verdict v = limits->try_take(index, clock::now());
            if constexpr (!config_.max_rate_wait.is_zero()) {
                const auto until = detail::deadline_after(clock::now(), config_.max_rate_wait.get());
                while (!v && v.wait <= until - clock::now() &&
                       detail::sleep_unless(std::chrono::ceil<std::chrono::milliseconds>(v.wait), cancel_))
                    v = limits->try_take(index, clock::now());
            }
            if (!v) {
                out.status = tool_status::rate_limited;
                out.content = limits->refusal(call.name, index, v);
                return std::nullopt;
            }
        }
        if (!policy.needs_approval) return call.arguments;
        const std::optional<std::string> canonical = detail::canonical_json(call.arguments);
        if (!canonical) return call.arguments;  // not JSON: the registry rejects it without running it
        approval decision;
        if (const auto given = decided ? decided->find(call.id) : decided_calls::const_iterator{};
            decided && given != decided->end()) {
            decision = given->second;
        } else {
            // The run paused for the calls without an approver, and resume() had a decision for each.
            const approval_request request{call.id, call.name, *canonical, model_text, policy.level};
            std::unique_lock<std::mutex> lock;
            if (approving) lock = std::unique_lock<std::mutex>(*approving);
            decision = detail::invoke_callback("approver", approver_, request);
        }
        switch (decision.kind) {
        case approval_kind::approve: return call.arguments;
        case approval_kind::edit: return std::move(decision.arguments);
        case approval_kind::deny: break;
        }
        out.status = tool_status::denied;
        out.content = "The user denied this call of " + call.name +
                      (decision.reason.empty() ? std::string(".") : ": " + decision.reason + ".") +
                      " It was not run; do not make it again unchanged.";
        return std::nullopt;
    }

    // The policy of the tool named `name`, or null (no policies, or no such tool).
    const tool_policy* policy_for(std::string_view name) const noexcept {
        if (!policy_) return nullptr;
        const std::size_t index = policy_->find(name);
        if (index != policy_->table.size()) return &policy_->table[index];
        const detail::dynamic_policy* added = policy_->dynamic_for(name);
        return added ? &added->policy : nullptr;
    }

    // One try of tool `name`, within `timeout` when it is not zero. `timed_out` is set when the
    // try passed it.
    tool_result try_once(const std::string& name, const std::string& arguments, fixed_duration timeout,
                         bool& timed_out) const {
        if (timeout.is_zero()) return call_(name, arguments, call_scope{run_token_, {}}, ctx_);
        const auto t0 = clock::now();
        // The call owns everything it needs, so that an abandoned call can finish on its own
        // after the run has moved on.
        return detail::call_on_thread(
            [fn = call_, name, arguments, ctx = ctx_,
             nested = detail::current_nested_call() ? *detail::current_nested_call() : detail::nested_call{}](
                std::stop_token token) {
                const detail::nested_call_guard in_call(nested.runs ? &nested : nullptr);
                return fn(name, arguments, call_scope{std::move(token), {}}, ctx);
            },
            name, run_token_, t0, timeout, running_, timed_out);
    }

    // Tool `name` with the retries of its policy: a transient failure or a timeout of an
    // idempotent tool is tried again after a backoff, while the run has time and is not
    // cancelled. Each try is recorded in `s`; a failure's kind is spelled out for the model.
    tool_result try_tool(const std::string& name, const std::string& arguments, const tool_policy* policy,
                         step& s) const {
        const fixed_duration timeout = policy && !policy->timeout.is_zero() ? policy->timeout : config_.tool_timeout;
        const std::uint32_t tries = policy && policy->idempotent ? policy->retry.attempts : 1;
        for (std::uint32_t n = 1;; ++n) {
            attempt& a = s.attempts.emplace_back();
            a.tool = name;
            a.number = n;
            const auto t0 = clock::now();
            tool_result out = try_once(name, arguments, timeout, a.timed_out);
            a.duration = std::chrono::duration_cast<std::chrono::microseconds>(clock::now() - t0);
            a.status = out.status;
            a.failure = out.failure;
            s.timed_out = s.timed_out || a.timed_out;
            const bool retry = (out.failure == failure_kind::transient || a.timed_out) && n < tries && !cancel_.load() &&
                               [&] {
                                   const std::chrono::milliseconds delay = detail::tool_backoff(policy->retry, n - 1);
                                   if constexpr (!config_.max_total_time.is_zero())
                                       if (delay >= config_.max_total_time.get() - detail::elapsed_ms(started_))
                                           return false;
                                   return detail::sleep_unless(delay, cancel_);
                               }();
            if (retry) continue;
            if (out.status == tool_status::tool_error && out.failure)
                out.content = std::string(to_string(*out.failure)) + ": " + out.content + " (" +
                              std::string(detail::failure_advice(*out.failure)) +
                              (n > 1 ? "; tried " + std::to_string(n) + " times)" : std::string(")"));
            return out;
        }
    }

    // After a tool_error of `call`: the tools of its fallback chain in order, each admitted by
    // its rate limit (no wait) and run with its own policy, until one succeeds. `out` becomes
    // that one's result, with a note, or keeps the failure with what each fallback answered.
    void try_fallbacks(const tool_call& call, const tool_policy& policy, tool_result& out, step& s) const {
        std::string failures;
        for (std::size_t j = 0; j != policy.fallback.size && !cancel_.load(); ++j) {
            const fallback_tool& f = policy.fallback.tools[j];
            const std::string name(f.name());
            const std::size_t index = policy_->find(name);
            std::string arguments = call.arguments;
            tool_result r;
            if (f.adapter && !f.adapter->convert(call.arguments, policy_->arguments, arguments)) {
                r = tool_error("its adapter could not convert the arguments");
                r.status = tool_status::invalid_arguments;
                s.attempts.push_back({name, 1, r.status, std::nullopt, false, {}});
            } else if (policy_->limits && !policy_->limits->try_take(index, clock::now())) {
                r.status = tool_status::rate_limited;
                r.content = "it is past its rate limit";
                s.attempts.push_back({name, 1, r.status, std::nullopt, false, {}});
            } else {
                r = try_tool(name, arguments, &policy_->table[index], s);
            }
            if (r.ok()) {
                s.fallback = name;
                r.content = "(" + call.name + " failed, so its fallback " + name + " answered instead.)\n" + r.content;
                out = std::move(r);
                return;
            }
            failures += "\n(Its fallback " + name + " failed too: " + r.content + ")";
        }
        out.content += failures;
    }

    // Runs one admitted call: its tool with the retries of its policy, then its fallback chain
    // after a tool_error. Does not throw.
    step run_call(const tool_call& call, std::uint32_t turn, tool_result& out) const noexcept {
        step s;
        try {
            s.turn = turn;
            s.id = call.id;
            s.tool = call.name;
            s.arguments = call.arguments;
            const auto t0 = clock::now();
            const detail::nested_call nested{nested_, call.id, call.name};
            const detail::nested_call_guard in_call(&nested);
            const tool_policy* policy = policy_for(call.name);
            out = try_tool(call.name, call.arguments, policy, s);
            if (policy && !policy->fallback.empty() && out.status == tool_status::tool_error)
                try_fallbacks(call, *policy, out, s);
            s.duration = std::chrono::duration_cast<std::chrono::microseconds>(clock::now() - t0);
            s.result_excerpt = detail::excerpt(out.content);
            s.repairs = out.repairs;
            s.failure = out.failure;
        } catch (const std::exception& e) {
            out = tool_error("agentry: " + call.name + " could not be run: " + e.what());
        }
        s.status = out.status;
        return s;
    }

    // What run_calls did: per call of the turn in the model's order, its step and result, or
    // nothing when it was not run (the run was cancelled, or a callback threw: `failure`).
    using outcome = std::optional<std::pair<step, tool_result>>;
    struct calls_done {
        std::vector<outcome> done;
        std::exception_ptr failure;
    };

    calls_done run_calls(std::span<const tool_call> calls, std::uint32_t turn, std::string_view model_text,
                         const agent_events& events, const decided_calls* decided) {
        calls_done out;
        out.done.resize(calls.size());
        std::atomic<bool> failed{false};
        std::mutex mutex;  // for the events and `failure`
        const auto one = [&](std::size_t i, bool parallel) {
            try {
                if (events.on_tool_start) {
                    std::unique_lock lock(mutex, std::defer_lock);
                    if (parallel) lock.lock();
                    detail::invoke_callback("on_tool_start", events.on_tool_start, calls[i]);
                }
                std::pair<step, tool_result>& o = out.done[i].emplace();
                std::optional<tool_result> kept;
                if (checkpoint_) kept = checkpoint_->before_call(calls[i], idempotent(calls[i].name));
                if (kept) {
                    o.second = std::move(*kept);
                    o.first = not_run_step(calls[i], turn, o.second);
                } else if (!policy_) {
                    o.first = run_call(calls[i], turn, o.second);
                } else {
                    std::optional<std::string> arguments =
                        admit(calls[i], model_text, o.second, parallel ? &mutex : nullptr, decided);
                    if (!arguments) {
                        o.first = not_run_step(calls[i], turn, o.second);
                    } else if (*arguments == calls[i].arguments) {
                        o.first = run_call(calls[i], turn, o.second);
                    } else {
                        tool_call edited = calls[i];
                        edited.arguments = std::move(*arguments);
                        o.first = run_call(edited, turn, o.second);
                        o.first.arguments_edited = true;
                        o.second.content = "(Run with arguments changed by the user to " + edited.arguments + ")\n" +
                                           o.second.content;
                        o.first.result_excerpt = detail::excerpt(o.second.content);
                    }
                }
                if (checkpoint_ && !kept) checkpoint_->after_call(calls[i], o.second);
                if (events.on_tool_end) {
                    std::unique_lock lock(mutex, std::defer_lock);
                    if (parallel) lock.lock();
                    detail::invoke_callback("on_tool_end", events.on_tool_end, std::as_const(o.first));
                }
            } catch (...) {
                std::lock_guard lock(mutex);
                if (!out.failure) out.failure = std::current_exception();
                failed.store(true);
            }
        };
        std::size_t threads = 1;
        if constexpr (config_.parallel_tool_calls) threads = std::min<std::size_t>(config_.max_parallelism, calls.size());
        if (threads <= 1) {
            for (std::size_t i = 0; i != calls.size() && !cancel_.load() && !failed.load(); ++i) one(i, false);
            return out;
        }
        std::atomic<std::size_t> next{0};
        detail::run_workers(threads, [&] {
            for (std::size_t i; !cancel_.load() && !failed.load() && (i = next.fetch_add(1)) < calls.size();)
                one(i, true);
        });
        return out;
    }

    // The tools are always sent (Anthropic refuses a history with tool calls and no tools);
    // tool_choice none asks for an answer without calls.
    chat_request request_for(std::span<const message> messages, tool_choice_kind choice, const agent_events& events) const {
        chat_request request;
        request.messages = messages;
        request.tools = tools_payload_;
        request.tool_choice.kind = choice;
        if (choice != tool_choice_kind::none) request.parallel_tool_calls = config_.parallel_tool_calls;
        if constexpr (config_.max_output_tokens != 0) request.max_tokens = config_.max_output_tokens;
        request.stream = static_cast<bool>(events.on_text);
        request.cancel = &cancel_;
        request.output = output_.format();
        return request;
    }

    // The history to send: all of it (no copy), or what fits the budget with a note of what
    // was left out, kept in `trimmed`.
    std::span<const message> context(run_result& result, std::vector<message>& trimmed) const {
        if constexpr (config_.context_budget_tokens == 0) {
            (void)result;
            (void)trimmed;
            return history_;
        } else {
            const token_estimator estimate = [this](const message& m) {
                return detail::invoke_callback("token estimator", estimate_, m);
            };
            detail::trimmed_history t = detail::trim_history(history_, config_.context_budget_tokens, estimate);
            if (t.removed != 0) {
                result.trimmed_messages = std::max(result.trimmed_messages, t.removed);
                const std::string note = "(" + std::to_string(t.removed) +
                                         " earlier messages of this conversation were left out to fit the context "
                                         "budget.)";
                if (!t.messages.empty() && t.messages.front().role == role::system)
                    t.messages.front().text += "\n\n" + note;
                else
                    t.messages.insert(t.messages.begin(), message::system(note));
            }
            trimmed = std::move(t.messages);
            return trimmed;
        }
    }

    // The bookkeeping of a model turn that succeeded: counts and usage, the on_turn_end event
    // (before the reply joins the history, so that a throwing callback leaves it valid), then
    // the reply.
    void record_turn(run_result& result, const completion& c, const agent_events& events) {
        ++result.turns;
        result.turn_usage.push_back(c.usage);
        result.usage += c.usage;
        if (events.on_turn_end) detail::invoke_callback("on_turn_end", events.on_turn_end, result.turns, c.usage);
        history_.push_back(c.reply);
        if (checkpoint_) checkpoint_->state(history_, result);
    }

    // Leaves in `calls` the ones to run and one more, answered with an error in place of all the
    // extra ones; returns how many were over the limit.
    static std::size_t cap_calls(std::vector<tool_call>& calls) {
        constexpr std::size_t limit = config_.max_tool_calls_per_turn;
        if (calls.size() <= limit) return 0;
        const std::size_t over = calls.size() - limit;
        calls.resize(limit + 1);
        return over;
    }

    static std::string over_limit_text(std::size_t over) {
        return "Not run: at most " + std::to_string(config_.max_tool_calls_per_turn) +
               " tool calls are run per turn, and this turn made " +
               std::to_string(config_.max_tool_calls_per_turn + over) + "; this call and the " +
               std::to_string(over - 1) +
               " after it were not run and are left out of the conversation. Make the calls still needed in the "
               "next turn, fewer at a time.";
    }

    // Whether a call of `calls` needs a decision that no approver can give: the run then
    // pauses before running any call of the turn.
    bool must_pause(std::span<const tool_call> calls) const {
        if (!policy_ || !policy_->any_approval || approver_) return false;
        return std::any_of(calls.begin(), calls.end(), [&](const tool_call& call) {
            const tool_policy* policy = policy_for(call.name);
            return policy && policy->needs_approval && detail::canonical_json(call.arguments).has_value();
        });
    }

    // The loop. With `resumed`, it first runs the open turn's calls that have no result, with
    // those decisions, then goes on as after any turn.
    void execute(run_result& result, const agent_events& events, clock::time_point started,
                 const decided_calls* resumed) {
        detail::loop_detector loops(config_.loop_window, config_.loop_threshold);
        std::map<std::string, std::uint32_t, std::less<>> invalid_rounds;
        std::uint32_t output_repairs = 0;
        detail::replay_rounds(result.steps, loops, invalid_rounds);  // a run continued from its progress
        for (;;) {
            if (resumed) {
                const std::optional<open_turn> open = open_turn_of();
                if (open && !run_turn_calls(result, events, resumed, result.turns, *open, loops, invalid_rounds))
                    return;
                resumed = nullptr;
                continue;
            }
            if (stopped(result, started)) return;
            if (result.turns == config_.max_turns) return finish_at_max_turns(result, events, started);
            if (stop_before_request(result, started)) return;
            compress(result, events, started);
            std::vector<message> trimmed;
            const std::span<const message> sent = context(result, trimmed);
            std::string why;
            turn_result r = ask(request_for(sent, config_.tool_choice, events), events, started, why);
            if (!r.ok()) {
                if (cancel_.load()) return void(stopped(result, started));
                result.stop = stop_reason::provider_error;
                result.text = r.error.message + why;
                result.error = std::move(r.error);
                return;
            }
            completion& c = *r.value;
            const std::size_t over = cap_calls(c.reply.tool_calls);
            result.tool_calls_over_limit += over;
            record_turn(result, c, events);
            if (c.finish == finish_reason::refusal) {
                result.stop = stop_reason::refused;
                result.text = !c.refusal.empty() ? c.refusal : c.reply.text;
                return;
            }
            const std::vector<tool_call>& calls = history_.back().tool_calls;
            if (calls.empty()) {
                switch (output_.judge(c.reply.text, output_repairs, config_.max_output_repairs, history_, result)) {
                case detail::output_verdict::accepted: break;
                case detail::output_verdict::repair: continue;
                case detail::output_verdict::exhausted: return;
                }
                result.stop = stop_reason::completed;
                result.text = c.reply.text;
                return;
            }
            open_turn open{history_.size() - 1, std::vector<std::size_t>(calls.size() - (over != 0 ? 1 : 0))};
            std::iota(open.unanswered.begin(), open.unanswered.end(), std::size_t(0));
            const std::size_t beyond = beyond_call_budget(result, open);
            const bool pause = must_pause(std::span(calls).first(open.unanswered.size()));
            // The call past the limit is answered at once (`calls` is not used after this); the
            // others once they have run.
            if (over != 0) history_.push_back(message::tool_result(calls.back(), over_limit_text(over), true));
            if (beyond != 0) answer_beyond_budget(open, beyond);
            if (pause) {
                result.stop = stop_reason::approval_pending;
                result.pending = pending_approvals();
                result.text = std::to_string(result.pending.size()) +
                              " tool calls wait for approval; decide with resume(decisions).";
                return;
            }
            if (!run_turn_calls(result, events, nullptr, result.turns, open, loops, invalid_rounds)) return;
            if (beyond != 0) return stop_at_call_budget(result, beyond);
        }
    }

    // Before a turn's calls: the tokens left of the run's budgets, for the sub-runs of agent_tool.
    void open_sub_runs(const run_result& result) {
        std::uint64_t tokens_left = detail::nested_runs::unlimited;
        if constexpr (config_.max_total_tokens != 0)
            tokens_left = config_.max_total_tokens - std::min<std::uint64_t>(detail::tokens_used(result), config_.max_total_tokens);
        if (token_budget_ != 0)
            tokens_left = std::min(tokens_left, token_budget_ - std::min(detail::tokens_used(result), token_budget_));
        nested_->set_tokens_left(tokens_left);
    }

    // Runs the calls of the model reply `open` names, and puts their results in the history
    // right after the reply, in the model's order. False when the run stops (it has set the
    // reason); throws a callback's exception after the results are in.
    bool run_turn_calls(run_result& result, const agent_events& events, const decided_calls* decided,
                        std::uint32_t turn, const open_turn& open, detail::loop_detector& loops,
                        std::map<std::string, std::uint32_t, std::less<>>& invalid_rounds) {
        std::vector<tool_call> calls;
        calls.reserve(open.unanswered.size());
        for (std::size_t i : open.unanswered) calls.push_back(history_[open.reply].tool_calls[i]);
        open_sub_runs(result);
        calls_done done = run_calls(calls, turn, history_[open.reply].text, events, decided);
        nested_->collect(result);
        std::map<std::string, bool, std::less<>> invalid_this_round;
        bool looping = false;
        const std::string not_run =
            done.failure ? "The run stopped before this call." : "The run was cancelled before this call.";
        // Every call gets a result, so that the history stays valid.
        std::vector<message> results;
        results.reserve(calls.size());
        for (std::size_t i = 0; i != calls.size(); ++i) {
            const tool_call& call = calls[i];
            if (!done.done[i]) {
                results.push_back(message::tool_result(call, not_run, true));
                continue;
            }
            auto& [s, tr] = *done.done[i];
            results.push_back(message::tool_result(call, tr.content, !tr.ok()));
            result.steps.push_back(std::move(s));
            if (tr.status == tool_status::invalid_arguments) invalid_this_round[call.name] = true;
            else if (tr.ok()) invalid_this_round.try_emplace(call.name, false);
            looping = loops.record(call.name, call.arguments) || looping;
        }
        detail::insert_after(history_, open.reply, std::move(results));
        if (done.failure) std::rethrow_exception(done.failure);
        if (checkpoint_) checkpoint_->state(history_, result);
        if (stopped_at_tool(result, calls, done)) return false;
        for (const auto& [name, invalid] : invalid_this_round) {
            std::uint32_t& n = invalid_rounds[name];
            n = invalid ? n + 1 : 0;
            if (n >= config_.max_invalid_rounds) {
                result.stop = stop_reason::invalid_arguments_exhausted;
                result.text = "The model sent invalid arguments to " + name + " " + std::to_string(n) +
                              " rounds in a row.";
                return false;
            }
        }
        if (looping) {
            result.stop = stop_reason::loop_detected;
            result.text = "The model repeated the same tool calls " + std::to_string(config_.loop_threshold) +
                          " times.";
            return false;
        }
        return true;
    }

    // The token budget and the application's stop condition, before a model request.
    bool stop_before_request(run_result& result, clock::time_point started) {
        if constexpr (config_.max_total_tokens != 0)
            if (detail::tokens_used(result) >= config_.max_total_tokens) {
                result.stop = stop_reason::token_budget;
                result.text = "The run used " + std::to_string(detail::tokens_used(result)) +
                              " tokens, its budget being " + std::to_string(config_.max_total_tokens) + ".";
                return true;
            }
        if (token_budget_ != 0 && detail::tokens_used(result) >= token_budget_) {
            result.stop = stop_reason::token_budget;
            result.text = "The run used " + std::to_string(detail::tokens_used(result)) + " tokens, its budget being " +
                          std::to_string(token_budget_) + ".";
            return true;
        }
        if (stop_condition_ &&
            detail::invoke_callback("stop condition", stop_condition_,
                                    run_state_view{result, history_, detail::elapsed_ms(started)})) {
            result.stop = stop_reason::stop_condition;
            result.text = "The run was stopped by its stop condition after " + std::to_string(result.turns) + " turns.";
            return true;
        }
        return false;
    }

    // With context_compression::summary, before a model request: the oldest turns replaced by a
    // summary once the history passes the budget (loop/summary.hpp).
    void compress(run_result& result, const agent_events& events, clock::time_point started) {
        if constexpr (config_.context_budget_tokens != 0 && config_.compression == context_compression::summary) {
            if (result.summary_error) return;  // not tried again in this run: its requests are trimmed
            const token_estimator estimate = [this](const message& m) {
                return detail::invoke_callback("token estimator", estimate_, m);
            };
            const auto ask_summary = [&](chat_request& request) {
                request.cancel = &cancel_;
                std::string why;
                return ask(request, events, started, why);
            };
            if (detail::compress_history(history_, config_.context_budget_tokens, estimate, result, ask_summary) &&
                checkpoint_)
                checkpoint_->state(history_, result);
        } else {
            (void)result;
            (void)events;
            (void)started;
        }
    }

    // With loop_config::max_tool_calls: leaves in `open` the calls within the budget; returns
    // how many are past it.
    static std::size_t beyond_call_budget(const run_result& result, open_turn& open) {
        if constexpr (config_.max_tool_calls == 0) {
            (void)result;
            (void)open;
            return 0;
        } else {
            const std::size_t left = config_.max_tool_calls - std::min<std::size_t>(result.steps.size(), config_.max_tool_calls);
            if (open.unanswered.size() <= left) return 0;
            const std::size_t beyond = open.unanswered.size() - left;
            open.unanswered.resize(left);
            return beyond;
        }
    }

    // The `beyond` calls after those `open` keeps get a result saying they were not run.
    void answer_beyond_budget(const open_turn& open, std::size_t beyond) {
        for (std::size_t i = open.unanswered.size(); i != open.unanswered.size() + beyond; ++i)
            history_.push_back(message::tool_result(
                history_[open.reply].tool_calls[i],
                "Not run: this run's budget of " + std::to_string(config_.max_tool_calls) +
                    " tool calls is used up, and the run stops here.",
                true));
    }

    static void stop_at_call_budget(run_result& result, std::size_t beyond) {
        result.stop = stop_reason::tool_call_budget;
        result.text = "The run reached its budget of " + std::to_string(config_.max_tool_calls) +
                      " tool calls; the model asked for " + std::to_string(beyond) + " more.";
    }

    // A call of a stop-at tool that succeeded ends the run with its result as the answer (the
    // first such call, in the model's order).
    bool stopped_at_tool(run_result& result, std::span<const tool_call> calls, const calls_done& done) const {
        if (config_.stop_at_tools.empty() && stop_tools_.empty()) return false;
        for (std::size_t i = 0; i != calls.size(); ++i) {
            if (!done.done[i] || !done.done[i]->second.ok()) continue;
            const std::string& name = calls[i].name;
            if (!config_.stop_at_tools.contains(name) &&
                std::find(stop_tools_.begin(), stop_tools_.end(), name) == stop_tools_.end())
                continue;
            result.stop = stop_reason::stop_at_tool;
            result.text = done.done[i]->second.content;
            return true;
        }
        return false;
    }

    void finish_at_max_turns(run_result& result, const agent_events& events, clock::time_point started) {
        result.stop = stop_reason::max_turns;
        if constexpr (config_.early_stopping == early_stopping::generate) {
            history_.push_back(message::user(
                "You have used every turn allowed. Give your final answer now from what you have, without tools."));
            compress(result, events, started);
            std::vector<message> trimmed;
            const std::span<const message> sent = context(result, trimmed);
            std::string why;
            turn_result r = ask(request_for(sent, tool_choice_kind::none, events), events, started, why);
            if (r.ok()) {
                // Calls made despite tool_choice none are not run, nor kept without results.
                r.value->reply.tool_calls.clear();
                record_turn(result, *r.value, events);
                result.text = r.value->reply.text;
                return;
            }
            result.error = std::move(r.error);
        }
        result.text = "Stopped after " + std::to_string(config_.max_turns) + " turns without a final answer.";
    }

    std::string_view tools_payload_;
    detail::dynamic_context dynamic_context_;
    std::shared_ptr<detail::nested_runs> nested_ = std::make_shared<detail::nested_runs>();
    std::uint64_t token_budget_ = 0;
    std::shared_ptr<detail::dynamic_state> dynamic_;  // tools added by add_tools; null when none
    turn_fn turn_;
    call_fn call_;
    std::vector<message> history_;
    token_estimator estimate_ = estimate_tokens;
    trace_hook trace_;
    std::atomic<bool> cancel_{false};
    // The stop source of the run in progress (replaced by each run under stop_mutex_, signalled
    // by cancel()) and its token, read by the tool calls.
    std::mutex stop_mutex_;
    std::stop_source run_stop_;
    std::stop_token run_token_;
    context_pointer ctx_ = nullptr;  // of the run in progress
    clock::time_point started_{};  // of the run in progress, for the tool retries' time limit
    std::shared_ptr<detail::policy_state> policy_;  // null when no tool declares a policy
    approver approver_;
    std::shared_ptr<detail::running_calls> running_ = detail::make_running_calls();
    checkpointer* checkpoint_ = nullptr;
    stop_condition stop_condition_;
    std::vector<std::string> stop_tools_;  // added by stop_at_tool
    detail::output_slot<Output> output_;  // the typed answer; empty for Output void
    detail::plan_tools plan_tools_{};  // set when loop_config::planning.enabled
};

} // namespace agentry

#if !defined(AGENTRY_SEPARATE_COMPILATION)
#include <agentry/loop/impl/agent.ipp>
#endif

#endif
