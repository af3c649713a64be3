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
// The limits are the loop_config, a constant; the run-time settings (approver, trace,
// checkpointer, stop condition, token budget...) are one agentry::agent_options given at
// construction (loop/options.hpp); a string there is the options with only a system prompt.
// Every run is run(input) or, for tools that take agentry::context<T>, run(input, ctx).
//
// The provider and transport are kept by value; the transport may be left out when the program
// links agentry::curl (AGENTRY_WITH_CURL). The registry is copied; an object a tool points to
// must outlive the agent, which waits for calls abandoned at a timeout when destroyed. One
// agent runs one conversation: run() is not for several threads at once, cancel() is.

#include <agentry/config.hpp>
#include <agentry/loop/config.hpp>
#include <agentry/loop/detail/agent_access.hpp>
#include <agentry/loop/detail/agent_deps.hpp>
#include <agentry/loop/engine.hpp>
#include <agentry/loop/events.hpp>
#include <agentry/loop/options.hpp>
#include <agentry/loop/output.hpp>
#include <agentry/loop/plan.hpp>
#include <agentry/policy/fallback.hpp>
#include <agentry/policy/registry_policies.hpp>
#include <agentry/reflect/types.hpp>
#include <agentry/transport/transport.hpp>
#if defined(AGENTRY_WITH_CURL)
#include <agentry/transport/curl.hpp>
#endif

#include <concepts>
#include <memory>
#include <string>
#include <string_view>
#include <type_traits>
#include <utility>
#include <vector>

namespace agentry {

namespace detail {
template <class> inline constexpr bool no_default_transport = false;
template <class> inline constexpr bool unknown_input = false;
} // namespace detail

/// Config: the loop's limits and features. Output: the struct the final answer is read into
/// (loop/output.hpp), and the runs then return typed_result<Output>; void: a text answer, and
/// they return run_result. The tools' context type is the registry's (its context_type): runs
/// give it with run(input, ctx).
///
/// A thin typed front over detail::engine (loop/engine.hpp), which is not a template: the
/// checks of Config, the registry and the provider happen here, at compile time; the run
/// happens there.
template <loop_config Config, class Output = void>
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

    template <class>
    friend struct detail::agent_access;

public:
    /// What run returns: run_result, or typed_result<Output>.
    using result_type = detail::result_of_runs<Output>;
    using output_type = Output;

    /// The tools payload is `tools.definitions<P::dialect>()`; the registry is copied.
    template <provider P, class Registry, transport T>
    agent(P model, const Registry& tools, agent_options options, T http)
        : output_(detail::output_slot<Output>::template of<P>()),
          engine_(detail::deps_of<config_, Output>(std::move(model), tools, std::move(http), output_)),
          context_(&reflect::type_tag<typename Registry::context_type>) {
        static_assert(std::is_void_v<Output> || !std::is_same_v<Output, typename Registry::context_type>,
                      "agentry: agent<config, Output>: Output is the tools' context type; the context is not a "
                      "template argument of the agent (it is the registry's): write agentry::agent<config> and "
                      "call run(input, ctx)");
        static_assert(registry_policies<Registry>::template within<config_.max_permission>());
        static_assert(fallback_check<Registry>::ok());
        static_assert(detail::stop_tools_known<Registry, config_.stop_at_tools>());
        if constexpr (config_.planning.enabled) plan_tools_ = detail::plan_tools::of<typename P::dialect, Registry>();
        apply(std::move(options));
    }

    /// As agent(model, tools, {.system_prompt = system_prompt}, http).
    template <provider P, class Registry, std::convertible_to<std::string_view> S, transport T>
    agent(P model, const Registry& tools, const S& system_prompt, T http)
        : agent(std::move(model), tools, agent_options{.system_prompt = std::string(std::string_view(system_prompt))},
                std::move(http)) {}

#if defined(AGENTRY_WITH_CURL)
    /// The same with agentry::curl_transport.
    template <provider P, class Registry>
    agent(P model, const Registry& tools, agent_options options = {})
        : agent(std::move(model), tools, std::move(options), curl_transport{}) {}
    template <provider P, class Registry, std::convertible_to<std::string_view> S>
    agent(P model, const Registry& tools, const S& system_prompt)
        : agent(std::move(model), tools, system_prompt, curl_transport{}) {}
#else
    template <provider P, class Registry, class... Options>
        requires(sizeof...(Options) <= 1)
    agent(P, const Registry&, const Options&...) {
        static_assert(detail::no_default_transport<P>,
                      "agentry: agent{model, tools, options}: no default transport in this program; link the "
                      "agentry::curl CMake target (target_link_libraries(app PRIVATE agentry::curl)) or pass a "
                      "transport (a type that models agentry::transport) as the fourth argument");
    }
#endif

    agent(const agent&) = delete;
    agent& operator=(const agent&) = delete;

    /// Runs the model from `input` until it answers or a limit stops it. The input is a prompt
    /// (a string: the user's message), agentry::approvals (decisions on the calls a run stopped
    /// for), agentry::continuation (a restored conversation, on) or agentry::planned (a planned
    /// run, loop_config::planning); loop/options.hpp says what each does. Never throws: errors end
    /// the run with their stop_reason. While calls wait for a decision, a prompt or a
    /// continuation adds nothing and stops with stop_reason::approval_pending again. A run of an
    /// agent whose tools take agentry::context<T> stops at once with stop_reason::invalid_input.
    template <class Input>
    result_type run(Input&& input) noexcept {
        return start(std::forward<Input>(input), nullptr, &reflect::type_tag<void>, options_events_);
    }

    /// As run(input), giving `ctx` to the tools that take agentry::context<T>; T must be the
    /// registry's context_type (else the run stops at once with stop_reason::invalid_input).
    /// `ctx` must outlive the calls abandoned at a timeout, as the agent's objects do.
    template <class Input, class C>
    result_type run(Input&& input, C& ctx) noexcept {
        static_assert(!std::is_same_v<std::remove_cv_t<C>, agent_events>,
                      "agentry: agent::run(input, events): a run's events are agent_options::events, given at "
                      "construction");
        static_assert(!std::is_const_v<C>,
                      "agentry: agent::run(input, ctx): ctx is const; the tools take agentry::context<T> of a "
                      "non-const T: pass the object itself");
        return start(std::forward<Input>(input), static_cast<void*>(&ctx), &reflect::type_tag<C>, options_events_);
    }

    /// The calls waiting for a decision (after stop_reason::approval_pending, or a restore() of
    /// a conversation saved then); empty when none.
    std::vector<pending_call> pending_approvals() const { return engine_.pending_approvals(); }

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

    /// Adds tools known at run time (an mcp::toolset, or any dynamic_tool_source) to those of
    /// the registry: their definitions join the tools payload, calls of their names go to them.
    /// Their policies apply as registry tools' do (see dynamic_tool::policy), through the same
    /// call pipeline. Not during a run. The source's failure (nothing added) when it refuses.
    agentry::outcome<void> add_tools(const dynamic_tool_source& source) {
        engine_.enable(detail::engine_features::all());
        return engine_.add_tools(source);
    }

private:
    void apply(agent_options o) {
        engine_.set_system_prompt(std::move(o.system_prompt));
        options_events_ = std::move(o.events);
        engine_.set_approver(std::move(o.approver));
        engine_.set_trace(std::move(o.trace));
        engine_.set_observer(o.observer, std::move(o.name));
        if (o.checkpointer) engine_.enable({.checkpoint = &detail::engine_parts::checkpoint});
        engine_.set_checkpointer(o.checkpointer);
        engine_.set_stop_condition(std::move(o.stop_condition));
        engine_.set_token_budget(o.max_total_tokens);
        engine_.set_stop_tools(std::move(o.stop_at_tools));
        if (o.select_tools) engine_.set_tool_chooser(std::move(o.select_tools));
        if (o.token_estimator) engine_.set_token_estimator(std::move(o.token_estimator));  // empty: the default
    }

    template <class Input>
    result_type start(Input&& input, void* ctx, const void* context, const agent_events& events) noexcept {
        using I = std::remove_cvref_t<Input>;
        constexpr bool prompt = std::is_convertible_v<Input, std::string_view> || std::is_same_v<I, std::string>;
        static_assert(prompt || std::is_same_v<I, approvals> || std::is_same_v<I, continuation> ||
                          std::is_same_v<I, planned>,
                      "agentry: agent::run(input): the input must be a prompt (a string), agentry::approvals, "
                      "agentry::continuation or agentry::planned");
        if (context != context_) {
            std::string run_id;  // a refused run keeps the id of the run it would go on with
            if constexpr (std::is_same_v<I, approvals> || std::is_same_v<I, continuation>) run_id = input.progress.run_id;
            return output_.finish(
                engine_.refused_context(context_ == &reflect::type_tag<void>, ctx != nullptr, std::move(run_id)));
        }
        if constexpr (std::is_same_v<I, std::string>) {
            return output_.finish(engine_.start(std::string(std::forward<Input>(input)), events, ctx));
        } else if constexpr (prompt) {
            return output_.finish(engine_.start(std::string(std::string_view(input)), events, ctx));
        } else if constexpr (std::is_same_v<I, approvals>) {
            run_result progress = std::forward<Input>(input).progress;  // moved from an rvalue input
            return output_.finish(engine_.resume_with(input.decisions, events, ctx, std::move(progress)));
        } else if constexpr (std::is_same_v<I, continuation>) {
            return output_.finish(engine_.continue_run(std::forward<Input>(input).progress, events, ctx));
        } else if constexpr (std::is_same_v<I, planned>) {
            return output_.finish(start_planned(std::string(std::forward<Input>(input).prompt), events, ctx));
        } else {
            return result_type{};
        }
    }

    run_result start_planned(std::string input, const agent_events& events, void* ctx) noexcept {
        static_assert(config_.planning.enabled,
                      "agentry: agent::run(agentry::planned{...}): set loop_config::planning.enabled = true (the plan "
                      "schema is generated only then)");
        static_assert(config_.max_tool_calls == 0,
                      "agentry: agent::run(agentry::planned{...}): loop_config::max_tool_calls does not bound a "
                      "plan's steps; leave it 0 for a planned run and bound the steps with "
                      "loop_config::planning.max_steps");
        return engine_.guarded(
            [&](run_result& result, detail::engine::clock::time_point started) {
                if (engine_.refuse_if_open(result, "agent::run(agentry::planned{...})")) return;
                detail::planner<detail::engine, agent_events>{engine_, plan_tools_, result, events, started}.run(
                    std::move(input));
            },
            ctx);
    }

    detail::output_slot<Output> output_;  // the typed answer; empty for Output void
    detail::engine engine_;
    const void* context_;                 // reflect::type_tag of the registry's context_type
    agent_events options_events_;         // agent_options::events
    detail::plan_tools plan_tools_{};     // set when loop_config::planning.enabled
};

namespace detail {

/// What agent_tool and the durable runs use of an agent besides its public members: a run with
/// events, a token budget and a checkpointer of its own, the agent's settings restored after.
template <class Agent>
struct agent_access {
    template <class Input>
    static typename Agent::result_type run(Agent& a, Input&& input, const agent_events& events,
                                           std::uint64_t max_total_tokens = 0, checkpointer* c = nullptr) {
        engine& e = a.engine_;
        const std::uint64_t budget = e.token_budget();
        checkpointer* const checkpoints = *e.checkpointer_of();
        if (max_total_tokens != 0 && (budget == 0 || max_total_tokens < budget)) e.set_token_budget(max_total_tokens);
        if (c) {
            e.enable({.checkpoint = &engine_parts::checkpoint});
            e.set_checkpointer(c);
        }
        auto r = a.start(std::forward<Input>(input), nullptr, &reflect::type_tag<void>, events);
        e.set_token_budget(budget);
        e.set_checkpointer(checkpoints);
        return r;
    }
    static const agent_events& events(const Agent& a) noexcept { return a.options_events_; }
};

} // namespace detail

} // namespace agentry

#endif
