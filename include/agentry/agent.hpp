// SPDX-License-Identifier: BSL-1.0
#ifndef AGENTRY_AGENT_HPP
#define AGENTRY_AGENT_HPP

// agentry::agent<loop_config>: the loop that runs a model with tools. Each turn sends the
// conversation to the provider, runs the tool calls the model makes through the call pipeline
// (policy/pipeline.hpp) and sends back their results (or the precise error, so that the model
// can repair the call), until the model answers, or a limit of the loop_config stops the run.
//
//   constexpr agentry::loop_config config{.max_turns = 8, .parallel_tool_calls = true};
//   agentry::agent<config> agent{agentry::openai{.model = "gpt-4o-mini"}, tools, "You are a travel assistant."};
//   agentry::run_result r = agent.run("Do I need an umbrella in Paris today?");
//
// The provider and transport are kept by value; the transport may be left out when the program
// links agentry::curl (AGENTRY_WITH_CURL). The registry is copied; an object a tool points to
// must outlive the agent, which waits for calls abandoned at a timeout when destroyed. One
// agent runs one conversation: run() is not for several threads at once, cancel() is.

#include <agentry/config.hpp>
#include <agentry/loop/config.hpp>
#include <agentry/loop/detail/features.hpp>
#include <agentry/loop/engine.hpp>
#include <agentry/loop/events.hpp>
#include <agentry/loop/output.hpp>
#include <agentry/loop/plan.hpp>
#include <agentry/policy/fallback.hpp>
#include <agentry/policy/registry_policies.hpp>
#include <agentry/provider/provider.hpp>
#include <agentry/transport/transport.hpp>
#if defined(AGENTRY_WITH_CURL)
#include <agentry/transport/curl.hpp>
#endif

#include <memory>
#include <span>
#include <string>
#include <string_view>
#include <type_traits>
#include <utility>
#include <vector>

namespace agentry {

namespace detail { template <class> inline constexpr bool no_default_transport = false; }

/// Config: the loop's limits and features. Context: the type of the object each run gives to
/// the tools that take agentry::context<Context> (the registry's context_type); void when no
/// tool takes one. Output: the struct the final answer is read into (loop/output.hpp), and
/// the runs then return typed_result<Output>; void: a text answer, and they return run_result.
///
/// A thin typed front over detail::engine (loop/engine.hpp), which is not a template: the
/// checks of Config, the registry and the provider happen here, at compile time; the run
/// happens there.
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
    using context_type = Context;
    using output_type = Output;

    /// The tools payload is `tools.definitions<P::dialect>()`; the registry is copied.
    template <provider P, class Registry, transport T>
    agent(P model, const Registry& tools, std::string system_prompt, T http)
        : output_(detail::output_slot<Output>::template of<P>()),
          engine_(deps<P>(std::move(model), tools, std::move(http), output_)) {
        static_assert(std::is_same_v<typename Registry::context_type, Context>,
                      "agentry: agent<config, Context>: Context must be the registry's context_type: the T of the "
                      "agentry::context<T> its tools take, or void when none takes one; declare the agent as "
                      "agentry::agent<config, T> and call run(input, ctx)");
        static_assert(registry_policies<Registry>::template within<config_.max_permission>());
        static_assert(fallback_check<Registry>::ok());
        static_assert(detail::stop_tools_known<Registry, config_.stop_at_tools>());
        if constexpr (config_.planning.enabled) plan_tools_ = detail::plan_tools::of<typename P::dialect, Registry>();
        engine_.set_system_prompt(std::move(system_prompt));
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
    /// Runs the model on `input` (a new user message) until it answers or a limit stops it.
    /// Never throws: errors end the run with their stop_reason. While calls wait for a decision
    /// (stop_reason::approval_pending), it adds nothing and stops with that reason again.
    result_type run(std::string input, const agent_events& events = {}) noexcept {
        static_assert(std::is_void_v<Context>,
                      "agentry: agent<config, Context>::run: this agent's tools take agentry::context<Context>; call "
                      "run(input, ctx) with the Context object for the run");
        return output_.finish(engine_.start(std::move(input), events, nullptr));
    }

    /// As run(input, events), giving `ctx` to the tools that take agentry::context<Context>.
    /// `ctx` must outlive the calls abandoned at a timeout, as the agent's objects do.
    template <class C>
        requires(!std::is_void_v<Context> && std::is_same_v<C, Context>)
    result_type run(std::string input, C& ctx, const agent_events& events = {}) noexcept {
        return output_.finish(engine_.start(std::move(input), events, &ctx));
    }

    /// The AI-planned mode (loop/plan.hpp, loop_config::planning): the model writes a plan of
    /// tool calls with dependencies, the agent runs it as a graph and the model answers from
    /// the results. Never throws; r.plans holds each plan with its steps and timings.
    run_result run_planned(std::string input, const agent_events& events = {}) noexcept {
        static_assert(std::is_void_v<Context>,
                      "agentry: agent<config, Context>::run_planned: this agent's tools take agentry::context<Context>; "
                      "call run_planned(input, ctx) with the Context object for the run");
        return start_planned(std::move(input), events, nullptr);
    }

    /// As run_planned(input, events), giving `ctx` to the tools that take agentry::context<Context>.
    template <class C>
        requires(!std::is_void_v<Context> && std::is_same_v<C, Context>)
    run_result run_planned(std::string input, C& ctx, const agent_events& events = {}) noexcept {
        return start_planned(std::move(input), events, &ctx);
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
        return output_.finish(engine_.resume_with(decisions, events, nullptr));
    }

    /// As resume(decisions, events), giving `ctx` to the tools that take agentry::context<Context>.
    template <class C>
        requires(!std::is_void_v<Context> && std::is_same_v<C, Context>)
    result_type resume(std::span<const approval_decision> decisions, C& ctx, const agent_events& events = {}) noexcept {
        return output_.finish(engine_.resume_with(decisions, events, &ctx));
    }

    /// As resume(decisions, events), counting on from `progress` (the run so far), as a durable
    /// run resumed in another process needs.
    run_result resume(run_result progress, std::span<const approval_decision> decisions,
                      const agent_events& events = {}) noexcept {
        static_assert(std::is_void_v<Context>,
                      "agentry: agent<config, Context>::resume(progress, decisions): not for agents whose tools take "
                      "agentry::context<Context>");
        return engine_.resume_with(decisions, events, nullptr, std::move(progress));
    }

    /// The calls waiting for a decision (after stop_reason::approval_pending, or a restore() of
    /// a conversation saved then); empty when none.
    std::vector<pending_call> pending_approvals() const { return engine_.pending_approvals(); }

    /// Goes on with the conversation that restore() gave, without a new user message: runs the
    /// calls of its last turn that have no results, else asks the model. The limits count on from
    /// `progress` (the run so far). A conversation ending with the model's answer: that answer.
    result_type continue_run(run_result progress = {}, const agent_events& events = {}) noexcept {
        return output_.finish(engine_.continue_run(std::move(progress), events, nullptr));
    }

    /// Stops a run in progress (from any thread) at the next opportunity: between turns and
    /// tool calls, during a backoff, or mid-request.
    void cancel() noexcept { engine_.cancel(); }
    /// The conversation so far (system prompt, user messages, replies, tool results).
    const std::vector<message>& conversation() const noexcept { return engine_.conversation(); }

    /// The conversation as JSON, to restore later with restore().
    std::string save() const { return engine_.save(); }
    /// Replaces the conversation with one save() wrote; false (and nothing changed) when the
    /// text is not one.
    bool restore(std::string_view saved) { return engine_.restore(saved); }

    /// Replaces the token estimate used for loop_config::context_budget_tokens.
    void set_token_estimator(token_estimator estimate) { engine_.set_token_estimator(std::move(estimate)); }
    /// Checked before each model request; true stops the run with stop_reason::stop_condition,
    /// a throw with stop_reason::callback_error. Empty: none.
    void set_stop_condition(stop_condition stop) { engine_.set_stop_condition(std::move(stop)); }
    /// A token budget (input + output) for the following runs beside loop_config::max_total_tokens,
    /// checked the same way (stop_reason::token_budget); 0: none. agent_tool gives a sub-agent
    /// what is left of its caller's budget with it.
    void set_token_budget(std::uint64_t tokens) noexcept { engine_.set_token_budget(tokens); }
    /// Adds a tool (one add_tools added, or of the registry) to loop_config::stop_at_tools at run
    /// time. Fails, changing nothing, for a name the agent has no tool of.
    agentry::outcome<void> stop_at_tool(std::string name) { return engine_.stop_at_tool(std::move(name)); }

    /// Called with each request and response, API keys redacted.
    void set_trace(trace_hook hook) { engine_.set_trace(std::move(hook)); }
    /// Adds tools known at run time (an mcp::toolset, or any dynamic_tool_source) to those of
    /// the registry: their definitions join the tools payload, calls of their names go to them.
    /// Their policies apply as registry tools' do (see dynamic_tool::policy), through the same
    /// call pipeline. Not during a run. The source's failure (nothing added) when it refuses.
    agentry::outcome<void> add_tools(const dynamic_tool_source& source) {
        engine_.enable(detail::engine_features::all());
        return engine_.add_tools(source);
    }

    /// Decides on the calls of tools whose policy needs approval, before they run (one at a
    /// time, also with parallel tool calls). Without an approver the run pauses for decisions
    /// (stop_reason::approval_pending, then resume). An exception from it stops the run with
    /// stop_reason::callback_error.
    void set_approver(approver decide) { engine_.set_approver(std::move(decide)); }

    /// Told the run's state after each model turn and each turn's results, and each tool call
    /// before and after it runs (loop/checkpoint.hpp); null: none. It must outlive the runs.
    void set_checkpointer(checkpointer* c) {
        engine_.enable({.checkpoint = &detail::engine_parts::checkpoint});
        engine_.set_checkpointer(c);
    }

private:
    // What the engine uses: the provider's turn, the registry's calls (read in P's dialect),
    // the policies, the output's schema and judge.
    template <class P, class Registry, class T>
    static detail::run_deps deps(P model, const Registry& tools, T http, detail::output_slot<Output>& output) {
        using D = typename P::dialect;
        detail::run_deps d;
        d.limits = config_;
        auto state = std::make_shared<std::pair<P, T>>(std::move(model), std::move(http));
        d.turn = [state](const chat_request& request, const stream_events& events, const trace_hook& trace) {
            return complete(state->first, state->second, request, events, trace);
        };
        call_options options = tools.options();
        options.max_result_size = config_.max_result_size;
        // A dialect that makes every property required sends null for an absent optional one.
        if constexpr (D::rules.all_required) options.arguments.null_as_absent = true;
        d.call = [registry = tools.with_options(options)](std::string_view name, std::string_view arguments,
                                                          const call_scope& scope, [[maybe_unused]] void* ctx) {
            if constexpr (std::is_void_v<Context>) return registry.template call<D>(name, arguments, scope);
            else return registry.template call<D>(name, arguments, scope, *static_cast<Context*>(ctx));
        };
        d.tools_payload = Registry::template definitions<D>();
        d.dynamic = detail::dynamic_context::of<D, Registry>(config_.max_permission, config_.max_result_size);
        d.output = output.format();
        if constexpr (!std::is_void_v<Output>)
            d.judge = [&output](std::string_view text, std::uint32_t& repairs, std::uint32_t max_repairs,
                                std::vector<message>& history, run_result& result) {
                return output.judge(text, repairs, max_repairs, history, result);
            };
        using policies = registry_policies<Registry>;
        if constexpr (policies::any) d.policy = detail::policy_state::of<policies>(&Registry::find, options.arguments);
        d.features = detail::features_of<config_, policies>();
        return d;
    }

    run_result start_planned(std::string input, const agent_events& events, void* ctx) noexcept {
        static_assert(config_.planning.enabled,
                      "agentry: agent::run_planned: set loop_config::planning.enabled = true (the plan schema is "
                      "generated only then)");
        static_assert(config_.max_tool_calls == 0,
                      "agentry: agent::run_planned: loop_config::max_tool_calls does not bound a plan's steps; "
                      "leave it 0 for a planned run and bound the steps with loop_config::planning.max_steps");
        return engine_.guarded(
            [&](run_result& result, detail::engine::clock::time_point started) {
                if (engine_.refuse_if_open(result, "run_planned")) return;
                detail::planner<detail::engine, agent_events>{engine_, plan_tools_, result, events, started}.run(
                    std::move(input));
            },
            ctx);
    }

    detail::output_slot<Output> output_;  // the typed answer; empty for Output void
    detail::engine engine_;
    detail::plan_tools plan_tools_{};  // set when loop_config::planning.enabled
};

} // namespace agentry

#endif
