// SPDX-License-Identifier: BSL-1.0
#ifndef AGENTRY_LOOP_ENGINE_HPP
#define AGENTRY_LOOP_ENGINE_HPP

// The engine of agentry::agent: one class, not a template, compiled once (inline header-only;
// in <agentry/src.hpp> with AGENTRY_SEPARATE_COMPILATION), that drives every run as stages
// over the run's state:
//
//   prepare       the limits and the stop condition before a request; the history compressed
//   model_turn    the request, with retries of transient provider errors
//   handle_reply  the reply recorded; an answer judged (typed output); the calls capped
//   run_tools     the calls through the call pipeline (policy/pipeline.hpp), their results in
//                 the history, the checks after them (stop-at tools, invalid rounds, loops)
//   finish        max_turns reached: the answer forced or asked for once more
//
// A run starts at prepare (run, continue_run), at run_tools (resume, continue_run with calls
// waiting) or in the planner (agentry::planned, loop/plan.hpp), which uses the same stages' parts.
// What the run uses (the provider's turn, the tools, the limits) is fixed at construction by
// the typed facade, agent<Config, Output> (agent.hpp); what changes is the run's.

#include <agentry/call_scope.hpp>
#include <agentry/detail/chrono.hpp>
#include <agentry/detail/separate.hpp>
#include <agentry/loop/checkpoint.hpp>
#include <agentry/loop/context.hpp>
#include <agentry/loop/config.hpp>
#include <agentry/loop/detail/nested.hpp>
#include <agentry/loop/detect.hpp>
#include <agentry/loop/dynamic_tools.hpp>
#include <agentry/loop/events.hpp>
#include <agentry/loop/output.hpp>
#include <agentry/loop/result.hpp>
#include <agentry/loop/stop.hpp>
#include <agentry/policy/approval.hpp>
#include <agentry/policy/detail/threads.hpp>
#include <agentry/policy/pipeline.hpp>
#include <agentry/policy/token_bucket.hpp>
#include <agentry/provider/message.hpp>
#include <agentry/provider/provider.hpp>
#include <agentry/select/catalog.hpp>
#include <agentry/stop_token.hpp>
#include <agentry/telemetry/observer.hpp>
#include <agentry/tool_result.hpp>

#include <atomic>
#include <cstdint>
#include <exception>
#include <functional>
#include <map>
#include <memory>
#include <mutex>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace agentry {

namespace detail {

AGENTRY_DECL std::string excerpt(std::string_view text, std::size_t n = 200);

/// Moves `messages` into `history` right after its message `at`.
AGENTRY_DECL void insert_after(std::vector<message>& history, std::size_t at, std::vector<message> messages);

/// What the engine keeps of the tools' policies (only when some tool declares one, or has one
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

    /// The state of a registry whose policies are `Policies` (registry_policies<R>).
    template <class Policies>
    static std::shared_ptr<policy_state> of(std::size_t (*find)(std::string_view) noexcept,
                                            const json::read_options& arguments) {
        auto state = std::make_shared<policy_state>();
        state->table = Policies::table;
        state->find = find;
        for (const tool_policy& p : Policies::table) state->any_approval = state->any_approval || p.needs_approval;
        state->arguments = arguments;
        if constexpr (Policies::any_rate) state->limits = std::make_unique<rate_limiter>(Policies::table, Policies::registry_rate);
        return state;
    }
};

class engine;
class result_keeper;

/// Makes one layer of the call pipeline for `e`.
using layer_maker = std::unique_ptr<call_layer> (*)(engine& e);

/// The parts of the engine that a feature needs, given by the facade only when its agent has
/// the feature (its loop_config, its registry's policies, a setter it calls): header-only, a
/// program compiles only the parts its agents use. Null: the feature is off.
struct engine_features {
    // The optional layers of the pipeline (policy/pipeline.hpp has their order).
    layer_maker large_results = nullptr;
    layer_maker checkpoint = nullptr;
    layer_maker canonical = nullptr;
    layer_maker ceiling = nullptr;
    layer_maker rate_limit = nullptr;
    layer_maker approval = nullptr;
    layer_maker fallback = nullptr;
    layer_maker timeout = nullptr;
    /// The canonical text of arguments, for approval; null when no tool needs approval.
    std::optional<std::string> (*canonical_text)(std::string_view) = nullptr;
    /// The history within loop_config::context_budget_tokens; null: no budget.
    std::span<const message> (*fit)(const engine&, run_result&, std::vector<message>&) = nullptr;
    /// Summary compression (context_compression::summary); null: none.
    void (*compress)(engine&, run_result&, const agent_events&, std::chrono::steady_clock::time_point) = nullptr;
    /// Runs the calls of a turn on several threads (loop_config::parallel_tool_calls).
    void (*run_workers)(std::size_t threads, const std::function<void()>& worker) = nullptr;

    /// Every layer and part, for tools whose policies are known only at run time (add_tools).
    AGENTRY_DECL static engine_features all();
};

/// What a run uses, fixed by the facade at construction.
struct run_deps {
    using turn_fn = std::function<turn_result(const chat_request&, const stream_events&, const trace_hook&)>;
    /// A call of a registry or added tool: name, arguments, scope, and the run's context object
    /// (null when the tools take none).
    using call_fn = std::function<tool_result(std::string_view, std::string_view, const call_scope&, void*)>;
    /// Judges a model answer for a typed output (null: any text is the answer).
    using judge_fn = std::function<output_verdict(std::string_view text, std::uint32_t& repairs,
                                                  std::uint32_t max_repairs, std::vector<message>& history,
                                                  run_result& result)>;

    loop_config limits{};
    turn_fn turn;
    call_fn call;
    std::string_view tools_payload;
    /// Each tool of the payload, for choosing the tools of a turn (agent_options::select_tools).
    tool_catalog catalog{};
    dynamic_context dynamic{};
    std::optional<output_format> output;
    judge_fn judge;
    /// Whether the provider, as configured, takes a request that forces a tool call (Anthropic
    /// with manual thinking does not); null: it does. Planned runs ask for their plan without
    /// forcing the plan tool when it does not.
    std::function<bool()> forces_tools;
    /// gen_ai.provider.name and gen_ai.request.model, for observers.
    std::string_view provider_name;
    std::string model;
    std::shared_ptr<policy_state> policy;  // null when no tool declares a policy
    /// The results kept for read_result (loop/large_results.hpp); null with large_result::cut.
    std::shared_ptr<result_keeper> kept;
    engine_features features{};
};

/// Why a run from agentry::approvals refuses `decisions` on the `pending` calls, in its words;
/// empty when it takes them. With an approver, calls left without a decision go to it.
AGENTRY_DECL std::string refusal_of(std::span<const pending_call> pending, std::span<const approval_decision> decisions,
                                    bool approver);

/// The stages of a run (see the top of this file).
enum class stage { prepare, model_turn, handle_reply, run_tools, finish, done };

/// The engine of agent<...>.
class engine {
public:
    using clock = std::chrono::steady_clock;
    using decided_calls = std::map<std::string, approval, std::less<>>;

    AGENTRY_DECL explicit engine(run_deps deps);
    engine(const engine&) = delete;
    engine& operator=(const engine&) = delete;
    /// Waits for tool calls abandoned at their timeout to end.
    AGENTRY_DECL ~engine();

    // --- entries -------------------------------------------------------------------------
    AGENTRY_DECL run_result start(std::string input, const agent_events& events, void* ctx) noexcept;
    AGENTRY_DECL run_result resume_with(std::span<const approval_decision> decisions, const agent_events& events,
                                        void* ctx, run_result progress = {}) noexcept;
    AGENTRY_DECL run_result continue_run(run_result progress, const agent_events& events, void* ctx) noexcept;

    // Runs `body(result, started)` from `result` (the run so far), turning what it throws into
    // the run's stop reason.
    template <class Body>
    run_result guarded(Body&& body, void* ctx, run_result result = {}) noexcept {
        const auto started = clock::now() - result.wall_time;  // the time limit counts on from `result`
        try {
            if (begin_run(result, started, ctx)) {
                begin_run_span(result);
                body(result, started);
            }
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
        end_run_span(result);
        return result;
    }

    // --- settings --------------------------------------------------------------------------
    AGENTRY_DECL void cancel() noexcept;
    AGENTRY_DECL std::vector<pending_call> pending_approvals() const;
    AGENTRY_DECL std::string save() const;
    AGENTRY_DECL bool restore(std::string_view saved);
    AGENTRY_DECL outcome<void> add_tools(const dynamic_tool_source& source);
    /// Adds the parts `more` has to those of the engine's features, and rebuilds the pipeline.
    AGENTRY_DECL void enable(const engine_features& more);
    void set_token_estimator(token_estimator estimate) { estimate_ = std::move(estimate); }
    void set_stop_condition(stop_condition stop) { stop_condition_ = std::move(stop); }
    void set_token_budget(std::uint64_t tokens) noexcept { token_budget_ = tokens; }
    /// Tools whose result is the answer, beside loop_config::stop_at_tools; checked as each run
    /// starts (the agent's added tools count).
    void set_stop_tools(std::vector<std::string> names) { stop_tools_ = std::move(names); }
    std::uint64_t token_budget() const noexcept { return token_budget_; }
    /// A run refused before it starts for its context: stop_reason::invalid_input, and what to
    /// do when the tools take none, when the run gave none, or one of another type. Its id is
    /// `run_id`, or a new one when that is empty.
    AGENTRY_DECL static run_result refused_context(bool none_taken, bool given, std::string run_id);
    void set_trace(trace_hook hook) { trace_ = std::move(hook); }
    /// Tells `o` (null: none; it must outlive the engine) of runs, turns, plans and calls, the
    /// runs named `agent`.
    void set_observer(agentry::observer* o, std::string agent) {
        observer_ = o;
        agent_name_ = std::move(agent);
    }
    void set_approver(approver decide) { approver_ = std::move(decide); }
    /// Chooses the tools of each model turn (null: every tool, every turn).
    AGENTRY_DECL void set_tool_chooser(tool_chooser choose);
    const tool_catalog& catalog() const noexcept { return deps_.catalog; }
    void set_checkpointer(checkpointer* c) noexcept { checkpoint_ = c; }
    const approver* approver_of() const noexcept { return &approver_; }
    checkpointer* const* checkpointer_of() const noexcept { return &checkpoint_; }
    tool_rules rules(std::string_view name) const { return rules_of(name); }
    const std::shared_ptr<running_calls>& running() const noexcept { return running_; }
    const run_deps& deps() const noexcept { return deps_; }
    const token_estimator& estimator() const noexcept { return estimate_; }
    const std::vector<message>& conversation() const noexcept { return history_; }
    const loop_config& limits() const noexcept { return config_; }
    /// The system prompt, as the conversation's first message.
    AGENTRY_DECL void set_system_prompt(std::string prompt);

    // --- the parts of the stages (the planner uses them too) ------------------------------

    // The last model reply's tool calls that have no result yet: only a run stopped for
    // approval leaves them.
    struct open_turn {
        std::size_t reply;
        std::vector<std::size_t> unanswered;
    };
    AGENTRY_DECL std::optional<open_turn> open_turn_of() const;
    /// Stops the run with approval_pending and `why` when calls of the last turn wait for a
    /// decision; true then.
    AGENTRY_DECL bool refuse_if_open(run_result& result, std::string_view entry);
    AGENTRY_DECL void refuse(run_result& result, std::string why) const;
    AGENTRY_DECL bool stopped(run_result& result, clock::time_point started);
    AGENTRY_DECL bool stop_before_request(run_result& result, clock::time_point started);
    AGENTRY_DECL void compress(run_result& result, const agent_events& events, clock::time_point started);
    AGENTRY_DECL std::span<const message> context(run_result& result, std::vector<message>& trimmed) const;
    AGENTRY_DECL chat_request request_for(std::span<const message> messages, tool_choice_kind choice,
                                          const agent_events& events) const;
    /// The tools payload of the next model turn, from the tool chooser (none: the whole payload).
    AGENTRY_DECL void choose_tools(std::span<const message> sent, std::uint32_t turn);
    AGENTRY_DECL turn_result ask(const chat_request& request, const agent_events& events, clock::time_point started,
                                 std::string& why);
    AGENTRY_DECL void record_turn(run_result& result, const completion& c, const agent_events& events);
    AGENTRY_DECL bool must_pause(std::span<const tool_call> calls) const;
    AGENTRY_DECL void open_sub_runs(const run_result& result);
    /// A plan's span (observer::begin_plan), the parent of its steps' calls until end_plan_span.
    AGENTRY_DECL span_begun begin_plan_span(std::uint32_t turn, std::size_t steps);
    AGENTRY_DECL void end_plan_span(const span_begun& span, std::uint32_t turn, std::size_t steps,
                                    std::uint32_t rounds, bool failed) noexcept;
    /// The round of a plan whose steps run_calls runs next (for their call spans).
    void set_plan_round(std::uint32_t round) noexcept { plan_round_ = round; }

    // What run_calls did: per call of the turn in the model's order, its step and result, or
    // nothing when it was not run (the run was cancelled, or a callback threw: `failure`).
    using outcome_of_call = std::optional<std::pair<step, tool_result>>;
    struct calls_done {
        std::vector<outcome_of_call> done;
        std::exception_ptr failure;
    };
    AGENTRY_DECL calls_done run_calls(std::span<const tool_call> calls, std::uint32_t turn, std::string_view model_text,
                                      const agent_events& events, const decided_calls* decided,
                                      call_origin origin = call_origin::model);

    const loop_config config_;
    std::vector<message> history_;
    std::atomic<bool> cancel_{false};
    std::shared_ptr<nested_runs> nested_ = std::make_shared<nested_runs>();
    checkpointer* checkpoint_ = nullptr;

private:
    struct run_state;

    // Starts a run: its id (kept from `result` when it has one), the stop source, the context;
    // false, with the run stopped for stop_reason::invalid_input, when a setting names no tool.
    AGENTRY_DECL bool begin_run(run_result& result, clock::time_point started, void* ctx);
    // The run's span: begun once the run starts, ended with its result.
    AGENTRY_DECL void begin_run_span(const run_result& result) noexcept;
    AGENTRY_DECL void end_run_span(const run_result& result) noexcept;
    AGENTRY_DECL void execute(run_result& result, const agent_events& events, clock::time_point started,
                              const decided_calls* resumed);
    AGENTRY_DECL stage prepare(run_state& s);
    AGENTRY_DECL stage model_turn(run_state& s);
    AGENTRY_DECL stage handle_reply(run_state& s);
    AGENTRY_DECL stage run_tools(run_state& s);
    AGENTRY_DECL stage finish(run_state& s);
    AGENTRY_DECL bool run_turn_calls(run_result& result, const agent_events& events, const decided_calls* decided,
                                     std::uint32_t turn, const open_turn& open, loop_detector& loops,
                                     std::map<std::string, std::uint32_t, std::less<>>& invalid_rounds);
    /// The first of `calls` that ran, succeeded and is a stop-at tool (its result ends the run).
    AGENTRY_DECL std::optional<std::size_t> stop_tool_of(std::span<const tool_call> calls,
                                                         const calls_done& done) const;
    AGENTRY_DECL std::size_t beyond_call_budget(const run_result& result, open_turn& open) const;
    AGENTRY_DECL void answer_beyond_budget(const open_turn& open, std::size_t beyond);
    AGENTRY_DECL std::size_t cap_calls(std::vector<tool_call>& calls) const;
    AGENTRY_DECL std::string over_limit_text(std::size_t over) const;
    AGENTRY_DECL std::chrono::milliseconds retry_delay(std::uint32_t attempt, const provider_error& error) const;
    AGENTRY_DECL tool_rules rules_of(std::string_view name) const;
    AGENTRY_DECL void build_pipeline();

    run_deps deps_;
    std::shared_ptr<dynamic_state> dynamic_;  // tools added by add_tools; null when none
    std::uint64_t token_budget_ = 0;
    token_estimator estimate_;
    trace_hook trace_;
    // The stop source of the run in progress (replaced by each run under stop_mutex_, signalled
    // by cancel()) and its token, read by the tool calls.
    std::mutex stop_mutex_;
    agentry::stop_source run_stop_;
    agentry::stop_token run_token_;
    void* ctx_ = nullptr;          // of the run in progress
    std::string run_id_;           // of the run in progress; its calls view it
    clock::time_point started_{};  // of the run in progress
    turn_timing last_turn_{};      // of the last request ask() made
    agentry::observer* observer_ = nullptr;
    std::string agent_name_ = "agent";
    bool run_observed_ = false;    // run_span_ is begun
    span_begun run_span_{};
    trace_context call_parent_{};  // the run's span, or the plan's while a plan runs
    std::uint32_t turns_ = 0;      // the run's turns so far
    std::uint32_t plan_round_ = 0;
    approver approver_;
    std::shared_ptr<running_calls> running_ = make_running_calls();
    stop_condition stop_condition_;
    std::vector<std::string> stop_tools_;  // agent_options::stop_at_tools
    call_pipeline pipeline_;
    tool_chooser chooser_;
    std::string turn_tools_;  // the payload chooser_ chose for the turn; empty: deps_.tools_payload
};

/// The parts engine_features names, one function each (taken by address only where used).
namespace engine_parts {
AGENTRY_DECL std::unique_ptr<call_layer> large_results(engine& e);
AGENTRY_DECL std::unique_ptr<call_layer> checkpoint(engine& e);
AGENTRY_DECL std::unique_ptr<call_layer> canonical(engine& e);
AGENTRY_DECL std::unique_ptr<call_layer> ceiling(engine& e);
AGENTRY_DECL std::unique_ptr<call_layer> rate_limit(engine& e);
AGENTRY_DECL std::unique_ptr<call_layer> approval(engine& e);
AGENTRY_DECL std::unique_ptr<call_layer> fallback(engine& e);
AGENTRY_DECL std::unique_ptr<call_layer> timeout(engine& e);
AGENTRY_DECL std::span<const message> fit(const engine& e, run_result& result, std::vector<message>& trimmed);
AGENTRY_DECL void compress(engine& e, run_result& result, const agent_events& events,
                           std::chrono::steady_clock::time_point started);
} // namespace engine_parts

} // namespace detail

} // namespace agentry

#if !defined(AGENTRY_SEPARATE_COMPILATION)
#include <agentry/loop/impl/engine.ipp>
#endif

#endif
