// SPDX-License-Identifier: BSL-1.0
#ifndef AGENTRY_LOOP_AGENT_TOOL_HPP
#define AGENTRY_LOOP_AGENT_TOOL_HPP

// Agents as tools. agent_tool<"name", "description">(sub_agent, prompt) is a tool, for any
// registry, that runs another agent (its own provider, tools, system prompt and loop_config):
// its parameters are the fields of the struct `prompt` takes (a schema generated at compile
// time, checked like every tool's), `prompt` turns them into the sub-agent's user message, and
// the tool's result is the sub-agent's answer: its typed output (agent<Config, Output>)
// written as JSON, or its text.
//
//   struct research_request { std::string topic; };
//   agentry::agent<sub_config, findings> researcher{provider, research_tools, "You research."};
//   agentry::registry tools{agentry::agent_tool<"research", "Researches a topic">(
//       researcher, [](const research_request& r) { return "Research " + r.topic; })};
//   agentry::agent<config> lead{provider, tools, "You answer with research."};
//
// - Each call starts from the conversation the sub-agent had when the tool was made (its
//   system prompt), not from the previous call's.
// - The sub-run is in the caller's run_result::sub_runs with the step id of its call, and its
//   usage is in the caller's usage. It may use only what is left of the caller's token budget
//   (loop_config::max_total_tokens, agent_options::max_total_tokens): it is not started when none is
//   left, and it stops (stop_reason::token_budget) once it has used it up.
// - The caller's cancel() and tool timeout cancel the sub-run.
// - A sub-run that ends without an answer (any stop reason but completed) is a tool error the
//   caller's model sees, with the reason and what the sub-agent said. Nothing throws.
// - One sub-agent runs one call at a time: calls made in parallel wait for it in turn (a
//   cancelled waiting call gives up). For calls that should run side by side, give each tool
//   its own sub-agent.
// - The sub-agent must outlive the agents that have the tool (they wait, when destroyed, for
//   calls abandoned at a timeout).

#include <agentry/detail/chrono.hpp>
#include <agentry/loop/detail/agent_access.hpp>
#include <agentry/loop/detail/nested.hpp>
#include <agentry/loop/events.hpp>
#include <agentry/loop/result.hpp>
#include <agentry/outcome.hpp>
#include <agentry/reflect/fixed_string.hpp>
#include <agentry/reflect/function.hpp>
#include <agentry/reflect/types.hpp>
#include <agentry/stop_token.hpp>
#include <agentry/tool.hpp>

#include <concepts>
#include <memory>
#include <mutex>
#include <string>
#include <type_traits>
#include <utility>

namespace agentry {

namespace detail {

/// An agent is known by the types agent<Config, Output> names; this header does not include
/// agent.hpp, which is above it.
template <class Agent>
concept names_agent_types = requires {
    typename Agent::result_type;
    typename Agent::output_type;
};

template <class Agent>
struct agent_traits {
    static constexpr bool is_agent = false;
};
template <names_agent_types Agent>
struct agent_traits<Agent> {
    static constexpr bool is_agent = true;
    /// What the tool returns: the typed output, or the answer's text.
    using output = std::conditional_t<std::is_void_v<typename Agent::output_type>, std::string,
                                      typename Agent::output_type>;
};

/// The tool's input: the one parameter of the prompt function.
template <class List>
struct prompt_input {
    static constexpr bool one = boost::mp11::mp_size<List>::value == 1;
    using type = reflect::first_parameter<List>;
};

/// What agent_tool's call needs of its sub-agent, shared by the copies of the tool.
struct agent_tool_state {
    std::timed_mutex running;
    /// The conversation each call starts from.
    std::string initial;
    std::string name;
};

/// The failure kind a sub-run's stop reason stands for: a provider error may pass.
constexpr failure_kind sub_run_failure(stop_reason r) noexcept {
    return r == stop_reason::provider_error ? failure_kind::transient : failure_kind::permanent;
}

template <class Agent, class Input, class Prompt>
class agent_call {
public:
    using output = typename agent_traits<Agent>::output;

    agent_call(Agent& sub, Prompt prompt, std::shared_ptr<agent_tool_state> state)
        : agent_(&sub), prompt_(std::move(prompt)), state_(std::move(state)) {}

    outcome<output> operator()(const Input& input, agentry::stop_token stop) const {
        std::unique_lock lock(state_->running, std::defer_lock);
        while (!lock.try_lock_for(std::chrono::milliseconds(20)))
            if (stop.stop_requested()) return cancelled();
        if (stop.stop_requested()) return cancelled();
        const nested_call* caller = current_nested_call();
        nested_runs* runs = caller ? caller->runs.get() : nullptr;
        const std::uint64_t left = runs ? runs->left() : nested_runs::unlimited;
        if (left == 0)
            return fail(failure_kind::permanent, state_->name +
                                                     " was not started: the run's token budget is used up. Answer "
                                                     "with what you have.");
        std::string message(prompt_(input));
        agent_->restore(state_->initial);
        // cancel() before the sub-run starts is forgotten by it: the turn-end check covers that.
        const agentry::stop_callback on_stop(stop, [sub = agent_] { sub->cancel(); });
        agent_events events = agent_access<Agent>::events(*agent_);
        events.on_turn_end = [&stop, sub = agent_, own = std::move(events.on_turn_end)](std::uint32_t turn,
                                                                                          const token_usage& usage) {
            if (own) own(turn, usage);
            if (stop.stop_requested()) sub->cancel();
        };
        auto r = agent_access<Agent>::run(*agent_, std::move(message), events,
                                          left == nested_runs::unlimited ? 0 : left);
        std::optional<output> answer;
        if constexpr (std::is_same_v<typename Agent::result_type, run_result>) {
            if (r.stop == stop_reason::completed) answer = r.text;
        } else {
            answer = std::move(r.output);
        }
        const stop_reason why = r.stop;
        std::string said = r.text;
        if (runs) runs->add(sub_run{caller->step_id, caller->tool, static_cast<run_result&&>(std::move(r))});
        if (why == stop_reason::completed && answer) return std::move(*answer);
        return fail(sub_run_failure(why), state_->name + " stopped without an answer (" + std::string(to_string(why)) +
                                              "): " + said);
    }

private:
    failure cancelled() const {
        return fail(failure_kind::permanent, state_->name + " was cancelled before it started.");
    }

    Agent* agent_;
    Prompt prompt_;
    std::shared_ptr<agent_tool_state> state_;
};

} // namespace detail

/// A tool named Name that runs `sub` (an agentry::agent whose tools take no context: a sub-run
/// of one whose tools do stops with stop_reason::invalid_input, a tool error) on the
/// message `prompt` makes of the tool's input: `prompt` takes one struct, whose fields are the
/// tool's parameters, and returns the message (std::string or convertible). See the top of
/// this header for budgets, cancellation, failures and parallel calls.
template <fixed_string Name, fixed_string Description, class Agent, class Prompt>
auto agent_tool(Agent& sub, Prompt prompt) {
    using traits = detail::agent_traits<Agent>;
    static_assert(traits::is_agent,
                  "agentry: agent_tool: the first argument must be an agentry::agent<Config, Output> (the "
                  "sub-agent)");
    if constexpr (traits::is_agent) {
        static_assert(reflect::has_signature<Prompt>,
                      "agentry: agent_tool: the prompt function must have one signature (not generic or overloaded): "
                      "[](const my_input& in) -> std::string");
        if constexpr (reflect::has_signature<Prompt>) {
            using input = detail::prompt_input<typename reflect::signature<Prompt>::parameters>;
            static_assert(input::one && std::is_class_v<typename input::type>,
                          "agentry: agent_tool: the prompt function must take exactly one struct (the tool's input, "
                          "whose fields are its parameters): [](const my_input& in) -> std::string");
            static_assert(std::is_convertible_v<typename reflect::signature<Prompt>::result, std::string>,
                          "agentry: agent_tool: the prompt function must return the sub-agent's message: a "
                          "std::string or a type convertible to one");
            if constexpr (input::one && std::is_class_v<typename input::type>) {
                auto state = std::make_shared<detail::agent_tool_state>();
                state->initial = sub.save();
                state->name = std::string(std::string_view(Name));
                return tool<Name, Description>(
                    detail::agent_call<Agent, typename input::type, Prompt>(sub, std::move(prompt), std::move(state)));
            }
        }
    }
}

} // namespace agentry

#endif
