// SPDX-License-Identifier: BSL-1.0
#ifndef AGENTRY_LOOP_PLAN_HPP
#define AGENTRY_LOOP_PLAN_HPP

// The AI-planned mode: agent.run(agentry::planned{input}). The model is given one tool, make_plan,
// whose parameters are the plan schema of the registry (loop/detail/plan_schema.hpp), and is
// made to call it. The plan is read and checked; a plan with errors goes back to the model
// with every error, to be fixed. A valid plan runs as a graph: in rounds, each running every
// step whose dependencies have finished, at most loop_config::max_parallelism at a time when
// loop_config::parallel_tool_calls is set, through the agent's own tool-call path (policies,
// approval, rate limits, timeouts, retries, fallbacks, the checkpointer). The results go back
// to the model as the plan tool's result, and the model answers (tool_choice none).
//
//   constexpr agentry::loop_config config{.parallel_tool_calls = true, .planning = {.enabled = true}};
//   agentry::agent<config> agent{agentry::openai{.model = "gpt-4o-mini"}, tools, "Plan, then answer."};
//   agentry::run_result r = agent.run(agentry::planned{"Compare the weather in Paris and Rome."});
//   // r.plans: each plan, its steps, their results and timings.
//
// Checks, each answered to the model with its step and the fix: the plan cannot be read (the
// reader's errors with their JSON Pointers), no steps, too many steps, an empty or duplicate
// id, an unknown tool, a dependency that names no step (dangling), a cycle, an input reading a
// step that is not in depends_on (a forward reference: that step may not have run yet), a
// malformed JSON Pointer, an input argument with no place in the arguments; and while running,
// an input pointer with nothing at it in the result, and arguments the registry's reader
// refuses once the inputs are set (its message). Past plan_options::max_repairs the run stops
// with stop_reason::plan_invalid. A failed step follows plan_options::on_failure.

#include <agentry/detail/chrono.hpp>
#include <agentry/detail/separate.hpp>
#include <agentry/detail/text.hpp>
#include <agentry/json/detail/suggest.hpp>
#include <agentry/json/reader.hpp>
#include <agentry/json/writer.hpp>
#include <agentry/loop/config.hpp>
#include <agentry/loop/detail/json_pointer.hpp>
#include <agentry/loop/detail/plan_schema.hpp>
#include <agentry/loop/result.hpp>
#include <agentry/policy/pipeline.hpp>
#include <agentry/provider/message.hpp>
#include <agentry/schema/raw_json.hpp>
#include <agentry/telemetry/observer.hpp>
#include <agentry/tool_result.hpp>

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <exception>
#include <map>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace agentry::detail {

/// The plan tool's arguments, as the model sends them.
struct plan_input_wire {
    std::string argument;
    std::string step;
    std::string pointer;
};
struct plan_step_wire {
    std::string id;
    std::string tool;
    raw_json arguments;
    std::vector<std::string> depends_on;
    std::vector<plan_input_wire> inputs;
};
struct plan_wire {
    std::vector<plan_step_wire> steps;
};

/// The results of the steps that succeeded in earlier plans of the run, by id: later plans
/// may depend on them.
using finished_steps = std::map<std::string, std::string, std::less<>>;

AGENTRY_DECL std::string plan_excerpt(std::string_view text, std::size_t n = 200);

AGENTRY_DECL std::string in_quotes(std::string_view text);

/// `arguments` in RFC 8785's canonical form (detail::canonical_json), or unchanged when they
/// are not one JSON value the reader takes.
AGENTRY_DECL std::string canonical_or_same(std::string arguments);

/// A plan that was read and checked: the in-plan dependencies of each step, by index.
struct checked_plan {
    plan_wire plan;
    std::vector<std::vector<std::size_t>> deps;
    std::vector<std::string> errors;
};

// The steps of a cycle among the steps left by a topological sort (each has a dependency left).
AGENTRY_DECL std::string cycle_text(const checked_plan& c, const std::vector<bool>& left);

/// Checks the plan `c` holds against the registry's tool names and the steps finished before,
/// adding every problem found to its errors.
AGENTRY_TEMPLATE_DECL
void check_plan_steps(checked_plan& c, std::span<const std::string_view> tools,
                      const finished_steps& finished, std::size_t max_steps);

/// Reads the plan tool's arguments and checks the plan against the registry's tool names and
/// the steps finished before; `errors` lists every problem found. A template so that the plan
/// reader is compiled only where an agent plans.
template <class Wire = plan_wire>
checked_plan check_plan(std::string_view arguments, std::span<const std::string_view> tools,
                        const finished_steps& finished, std::size_t max_steps) {
    checked_plan c;
    auto read = json::read<Wire>(arguments);
    if (!read.ok()) {
        for (const json::read_error& e : read.errors) c.errors.push_back("the plan cannot be read: " + e.to_string());
        return c;
    }
    c.plan = std::move(read.value);
    check_plan_steps(c, tools, finished, max_steps);
    return c;
}

/// The value `pointer` names in a step's result `text`, as JSON text: the result is read as
/// JSON when it is JSON, else as one string.
AGENTRY_DECL std::optional<std::string> result_value(std::string_view text, const std::vector<std::string>& tokens);

/// What a planned run tells the model about the steps of a plan: a JSON array of
/// {"id","tool","status","result"|"error"|"reason"}.
AGENTRY_DECL std::string plan_report(const std::vector<plan_step_record>& steps);

AGENTRY_DECL std::string plan_errors_text(const std::vector<std::string>& errors, bool ran);

/// The failed steps of `record`, for the run's text when a plan failed.
AGENTRY_TEMPLATE_DECL
std::string plan_failure_summary(const plan_record& record);

/// Sets the inputs of step `i` (`s`) from the results of `finished`, within the limits of
/// `options`; false with the errors in `record` when one cannot be set.
AGENTRY_TEMPLATE_DECL
bool plan_step_arguments(const plan_step_wire& s, std::size_t i, plan_record& record,
                         const finished_steps& finished, const plan_options& options);

/// What an agent keeps for planned runs: the plan tool's payload and the registry's tool names.
struct plan_tools {
    std::string_view payload;
    std::span<const std::string_view> names;

    template <class D, class Registry>
    static plan_tools of() noexcept {
        return {plan_definitions<D, Registry>(), Registry::names};
    }
};

/// Runs a planned run over the engine (loop/engine.hpp): it drives the engine's own turns,
/// and its tool calls through the same call pipeline as every call. Events is agent_events.
template <class Agent, class Events>
struct planner {
    using clock = std::chrono::steady_clock;

    // How a plan's execution ended.
    enum class ending { done, failed, refused };

    Agent& a;
    const plan_tools& tools;
    run_result& result;
    const Events& events;
    clock::time_point started;
    finished_steps finished{};
    std::uint32_t repairs = 0;
    std::uint32_t replans = 0;
    // What a callback threw during a round: rethrown once the plan call has its result.
    std::exception_ptr failure{};
    const plan_options& options = a.config_.planning;

    static std::chrono::microseconds since(clock::time_point t0, clock::time_point t) {
        return std::chrono::duration_cast<std::chrono::microseconds>(t - t0);
    }

    // One model turn asking for a plan (tool_choice: the plan tool) or the answer (none).
    // Empty when the run stopped (the reason is set).
    std::optional<completion> turn(tool_choice choice) {
        if (a.stopped(result, started)) return std::nullopt;
        if (result.turns >= a.config_.max_turns) {
            result.stop = stop_reason::max_turns;
            result.text = "Stopped after " + std::to_string(a.config_.max_turns) + " turns without a final answer.";
            return std::nullopt;
        }
        if (a.stop_before_request(result, started)) return std::nullopt;
        a.compress(result, events, started);
        std::vector<message> trimmed;
        const std::span<const message> sent = a.context(result, trimmed);
        chat_request request = a.request_for(sent, choice.kind, events);
        request.tools = tools.payload;
        request.tool_choice = std::move(choice);
        request.parallel_tool_calls.reset();
        std::string why;
        turn_result r = a.ask(request, events, started, why);
        if (!r.ok()) {
            if (a.cancel_.load()) {
                a.stopped(result, started);
                return std::nullopt;
            }
            result.stop = stop_reason::provider_error;
            result.text = r.error.message + why;
            result.error = std::move(r.error);
            return std::nullopt;
        }
        if (choice.kind == tool_choice_kind::none) r.value->reply.tool_calls.clear();
        a.record_turn(result, *r.value, events);
        if (r.value->finish == finish_reason::refusal) {
            result.stop = stop_reason::refused;
            result.text = !r.value->refusal.empty() ? r.value->refusal : r.value->reply.text;
            return std::nullopt;
        }
        return std::move(*r.value);
    }

    // Answers the plan call (every call when `plan_call` is past them) and the other calls of
    // the reply that made it.
    void answer(const std::vector<tool_call>& calls, std::size_t plan_call, const std::string& content, bool error) {
        for (std::size_t i = 0; i != calls.size(); ++i)
            a.history_.push_back(i == plan_call || plan_call >= calls.size()
                                     ? message::tool_result(calls[i], content, error)
                                                : message::tool_result(
                                                      calls[i],
                                                      "Not run: in planning mode only the first " +
                                                          std::string(plan_tool_name) +
                                                          " call of a reply is read; put every call in that plan.",
                                                      true));
        if (a.checkpoint_) a.checkpoint_->state(a.history_, result);
    }

    void run(std::string input) {
        a.history_.push_back(message::user(std::move(input)));
        for (;;) {
            // Forced where the provider takes it; otherwise the plan tool is the only one offered.
            const bool force = !a.deps().forces_tools || a.deps().forces_tools();
            std::optional<completion> c =
                turn(force ? tool_choice::one(std::string(plan_tool_name)) : tool_choice::automatic());
            if (!c) return;
            const std::vector<tool_call> made = a.history_.back().tool_calls;
            if (made.empty()) {
                // The model answered without a plan.
                result.stop = stop_reason::completed;
                result.text = c->reply.text;
                return;
            }
            const std::size_t at = std::size_t(std::find_if(made.begin(), made.end(), [](const tool_call& t) {
                                                   return t.name == plan_tool_name;
                                               }) -
                                               made.begin());
            plan_record& record = result.plans.emplace_back();
            record.turn = result.turns;
            if (at == made.size()) {
                record.errors.push_back("the reply called " + in_quotes(made.front().name) + ", not " +
                                        std::string(plan_tool_name) + "; only " + std::string(plan_tool_name) +
                                        " can be called in planning mode");
                answer(made, at, plan_errors_text(record.errors, false), true);
                if (!repaired()) return;
                continue;
            }
            record.text = made[at].arguments;
            checked_plan checked = check_plan(made[at].arguments, tools.names, finished, options.max_steps);
            if (!checked.errors.empty()) {
                record.errors = checked.errors;
                for (const plan_step_wire& s : checked.plan.steps)
                    record.steps.push_back({s.id, s.tool, canonical_or_same(s.arguments.text()), s.depends_on,
                                            plan_step_status::not_run, tool_status::ok, 0, "the plan was refused", {},
                                            {}});
                answer(made, at, plan_errors_text(record.errors, false), true);
                if (!repaired()) return;
                continue;
            }
            const ending e = execute(checked, made[at], record);
            if (failure) {
                answer(made, at, "The run stopped during the plan. The steps:\n" + plan_report(record.steps), true);
                std::rethrow_exception(failure);
            }
            if (a.stopped(result, started)) return answer(made, at, "The run stopped: " + result.text, true);
            if (e == ending::refused) {
                answer(made, at, plan_errors_text(record.errors, true) + "\nThe steps:\n" + plan_report(record.steps),
                       true);
                if (!repaired()) return;
                continue;
            }
            if (e == ending::failed && options.on_failure != plan_failure::skip_dependents) {
                const bool again = options.on_failure == plan_failure::replan && replans < options.max_replans;
                std::string text = again ? "Some steps failed, and the plan stopped there. Call " +
                                               std::string(plan_tool_name) +
                                               " again with a plan for the rest of the work (a failed step may be "
                                               "tried again, changed, or replaced); the steps that ran keep their "
                                               "ids and results, which later steps can use. The steps:\n"
                                         : "Some steps failed, and the plan stopped there. The steps:\n";
                answer(made, at, text + plan_report(record.steps), true);
                if (!again) {
                    result.stop = stop_reason::plan_failed;
                    result.text = "A step of the plan failed" +
                                  std::string(options.on_failure == plan_failure::replan
                                                  ? " after " + std::to_string(replans) + " re-plans: "
                                                  : ": ") +
                                  plan_failure_summary(record);
                    return;
                }
                ++replans;
                continue;
            }
            answer(made, at, "The plan ran. The steps:\n" + plan_report(record.steps), false);
            std::optional<completion> final = turn(tool_choice::none());
            if (!final) return;
            result.stop = stop_reason::completed;
            result.text = final->reply.text;
            return;
        }
    }

    // Counts a refused plan; false (the run stopped) past the limit.
    bool repaired() {
        if (++repairs <= options.max_repairs) return true;
        result.stop = stop_reason::plan_invalid;
        result.text = "The model's plan was still invalid after " + std::to_string(options.max_repairs) +
                      " repairs: " + result.plans.back().errors.front();
        return false;
    }

    ending execute(const checked_plan& checked, const tool_call& plan_call, plan_record& record) {
        const std::vector<plan_step_wire>& steps = checked.plan.steps;
        for (const plan_step_wire& s : steps)
            record.steps.push_back({s.id, s.tool, canonical_or_same(s.arguments.text()), s.depends_on,
                                    plan_step_status::not_run, tool_status::ok, 0, "", {}, {}});
        enum class state { waiting, ok, failed, skipped };
        std::vector<state> states(steps.size(), state::waiting);
        const clock::time_point t0 = clock::now();
        const span_begun span = a.begin_plan_span(result.turns, steps.size());
        bool failed = false;
        for (;;) {
            if (a.stopped(result, started)) break;
            std::vector<std::size_t> ready;
            for (std::size_t i = 0; i != steps.size(); ++i)
                if (states[i] == state::waiting &&
                    std::all_of(checked.deps[i].begin(), checked.deps[i].end(),
                                [&](std::size_t d) { return states[d] == state::ok; }))
                    ready.push_back(i);
            if (ready.empty()) break;
            ++record.rounds;
            a.set_plan_round(record.rounds);
            std::vector<tool_call> calls;
            std::vector<std::size_t> run;
            for (std::size_t i : ready) {
                if (!plan_step_arguments(steps[i], i, record, finished, options)) continue;
                calls.push_back({plan_call.id + "/" + steps[i].id, steps[i].tool, record.steps[i].arguments, {}});
                run.push_back(i);
            }
            if (!record.errors.empty()) break;
            // A step needing a decision that no approver can give is not run: a plan cannot pause.
            std::vector<bool> refused(calls.size(), false);
            for (std::size_t k = 0; k != calls.size(); ++k) refused[k] = a.must_pause(std::span(&calls[k], 1));
            std::vector<tool_call> admitted;
            for (std::size_t k = 0; k != calls.size(); ++k)
                if (!refused[k]) admitted.push_back(calls[k]);
            std::map<std::string, clock::time_point, std::less<>> starts;
            Events timed = events;
            timed.on_tool_start = [&](const tool_call& call) {
                starts[call.id] = clock::now();
                if (events.on_tool_start) events.on_tool_start(call);
            };
            a.open_sub_runs(result);
            auto done = a.run_calls(admitted, result.turns, a.history_.back().text, timed, nullptr, call_origin::plan);
            a.nested_->collect(result);
            std::size_t next = 0;
            for (std::size_t k = 0; k != calls.size(); ++k) {
                const std::size_t i = run[k];
                plan_step_record& r = record.steps[i];
                r.round = record.rounds;
                if (refused[k]) {
                    r.status = plan_step_status::failed;
                    r.call_status = tool_status::denied;
                    r.result = "Not run: " + steps[i].tool +
                               " needs approval, and a plan runs only with an approver (agent_options::approver).";
                    states[i] = state::failed;
                    failed = true;
                    continue;
                }
                auto& o = done.done[next++];
                if (!o) {
                    r.round = 0;
                    r.result = done.failure ? "The run stopped before this step." : "The run was cancelled before this step.";
                    continue;
                }
                auto& [s, tr] = *o;
                if (const auto st = starts.find(calls[k].id); st != starts.end()) r.started = since(started, st->second);
                r.duration = s.duration;
                r.call_status = tr.status;
                r.result = tr.content;
                result.steps.push_back(std::move(s));
                if (tr.status == tool_status::ok) {
                    r.status = plan_step_status::ok;
                    states[i] = state::ok;
                    finished[steps[i].id] = tr.content;
                } else if (tr.status == tool_status::invalid_arguments) {
                    r.status = plan_step_status::failed;
                    states[i] = state::failed;
                    record.errors.push_back("step " + in_quotes(steps[i].id) + " (" + steps[i].tool +
                                            "): its arguments, with the inputs set, are " + plan_excerpt(r.arguments) +
                                            ", which the tool refuses: " + plan_excerpt(tr.content, 1000));
                } else {
                    r.status = plan_step_status::failed;
                    states[i] = state::failed;
                    failed = true;
                }
            }
            if (done.failure) {
                failure = done.failure;
                break;
            }
            if (a.checkpoint_) a.checkpoint_->state(a.history_, result);
            if (!record.errors.empty()) break;
            if (failed && options.on_failure != plan_failure::skip_dependents) break;
            if (failed) {
                // Skip what depends, directly or not, on a failed or skipped step.
                for (bool changed = true; changed;) {
                    changed = false;
                    for (std::size_t i = 0; i != steps.size(); ++i) {
                        if (states[i] != state::waiting) continue;
                        for (std::size_t d : checked.deps[i]) {
                            if (states[d] != state::failed && states[d] != state::skipped) continue;
                            states[i] = state::skipped;
                            record.steps[i].status = plan_step_status::skipped;
                            record.steps[i].result = "it depends on step " + in_quotes(steps[d].id) + ", which " +
                                                     (states[d] == state::failed ? "failed" : "was skipped");
                            changed = true;
                            break;
                        }
                    }
                }
            }
        }
        record.wall_time = since(t0, clock::now());
        a.end_plan_span(span, result.turns, steps.size(), record.rounds, failed || !record.errors.empty());
        for (std::size_t i = 0; i != steps.size(); ++i)
            if (record.steps[i].status == plan_step_status::not_run && record.steps[i].result.empty())
                record.steps[i].result = "the plan stopped before this step";
        if (!record.errors.empty()) return ending::refused;
        return failed ? ending::failed : ending::done;
    }
};

} // namespace agentry::detail

#if !defined(AGENTRY_SEPARATE_COMPILATION)
#include <agentry/loop/impl/plan.ipp>
#endif

#endif
