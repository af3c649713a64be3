// SPDX-License-Identifier: BSL-1.0
#ifndef AGENTRY_LOOP_IMPL_ENGINE_IPP
#define AGENTRY_LOOP_IMPL_ENGINE_IPP

// The engine's entries, settings and stages (loop/engine.hpp); its tool calls are in
// engine_calls.ipp.

#include <agentry/detail/random_id.hpp>
#include <agentry/detail/separate.hpp>
#include <agentry/detail/text.hpp>
#include <agentry/json/reader.hpp>
#include <agentry/json/writer.hpp>
#include <agentry/loop/context.hpp>
#include <agentry/loop/detail/replay.hpp>
#include <agentry/loop/engine.hpp>
#include <agentry/loop/large_results.hpp>

#include <algorithm>
#include <numeric>
#include <string>
#include <utility>
#include <vector>

namespace agentry::detail {

AGENTRY_DECL std::string excerpt(std::string_view text, std::size_t n) {
    if (text.size() <= n) return std::string(text);
    return std::string(text.substr(0, utf8_cut(text, n))) + "...";
}

AGENTRY_DECL void insert_after(std::vector<message>& history, std::size_t at, std::vector<message> messages) {
    history.insert(history.begin() + static_cast<std::ptrdiff_t>(at + 1), std::make_move_iterator(messages.begin()),
                   std::make_move_iterator(messages.end()));
}

/// What changes during one pass of the stages.
struct engine::run_state {
    run_result& result;
    const agent_events& events;
    clock::time_point started;
    const decided_calls* resumed;
    loop_detector loops;
    std::map<std::string, std::uint32_t, std::less<>> invalid_rounds{};
    std::uint32_t output_repairs = 0;
    std::optional<completion> reply{};
    std::size_t over = 0;  // calls of the reply past max_tool_calls_per_turn
};

AGENTRY_DECL engine::engine(run_deps deps)
    : config_(deps.limits), deps_(std::move(deps)), estimate_(estimate_tokens) {
    build_pipeline();
}

AGENTRY_DECL engine::~engine() { wait_idle(*running_); }

AGENTRY_DECL void engine::set_system_prompt(std::string prompt) {
    if (!prompt.empty()) history_.push_back(message::system(std::move(prompt)));
}

AGENTRY_DECL bool engine::begin_run(run_result& result, clock::time_point started, void* ctx) {
    if (result.run_id.empty()) result.run_id = random_name();
    run_id_ = result.run_id;
    if (deps_.kept) deps_.kept->restart(result.steps);
    for (const std::string& name : stop_tools_) {
        const bool added =
            dynamic_ && std::find(dynamic_->names.begin(), dynamic_->names.end(), name) != dynamic_->names.end();
        if (added || deps_.dynamic.has_static(name)) continue;
        result.stop = stop_reason::invalid_input;
        result.text = "agentry: agent_options::stop_at_tools names \"" + name +
                      "\", which is no tool of this agent; name a registry tool, or add the tool with add_tools first";
        return false;
    }
    cancel_.store(false);
    {
        std::lock_guard lock(stop_mutex_);
        run_stop_ = agentry::stop_source();
        run_token_ = run_stop_.get_token();
    }
    started_ = started;
    ctx_ = ctx;
    return true;
}

AGENTRY_DECL void engine::begin_run_span(const run_result& result) noexcept {
    turns_ = result.turns;
    plan_round_ = 0;
    if (!observer_) return;
    // A sub-run is a child of the call that runs it.
    const nested_call* caller = current_nested_call();
    const trace_context* parent = caller && caller->trace.valid() ? &caller->trace : nullptr;
    run_span_ = observer_->begin_run(parent, {agent_name_, run_id_, deps_.provider_name, deps_.model}, clock::now());
    call_parent_ = run_span_.context;
    run_observed_ = true;
}

AGENTRY_DECL void engine::end_run_span(const run_result& result) noexcept {
    if (!std::exchange(run_observed_, false) || !observer_) return;
    run_end_event e;
    e.stop = to_string(result.stop);
    e.failed = result.stop == stop_reason::provider_error || result.stop == stop_reason::callback_error;
    if (e.failed) e.error_type = result.error && !result.error->type.empty() ? std::string_view(result.error->type) : e.stop;
    e.turns = result.turns;
    e.usage = result.usage;
    e.end = clock::now();
    observer_->end_run(run_span_, {agent_name_, run_id_, deps_.provider_name, deps_.model}, e);
    run_span_ = {};
    call_parent_ = {};
}

AGENTRY_DECL span_begun engine::begin_plan_span(std::uint32_t turn, std::size_t steps) {
    if (!observer_) return {};
    const span_begun span = observer_->begin_plan(run_span_, {agent_name_, turn, steps}, clock::now());
    call_parent_ = span.context;
    return span;
}

AGENTRY_DECL void engine::end_plan_span(const span_begun& span, std::uint32_t turn, std::size_t steps,
                                        std::uint32_t rounds, bool failed) noexcept {
    plan_round_ = 0;
    if (!observer_) return;
    call_parent_ = run_span_.context;
    observer_->end_plan(span, {agent_name_, turn, steps}, {rounds, failed, clock::now()});
}

AGENTRY_DECL std::string refusal_of(std::span<const pending_call> pending, std::span<const approval_decision> decisions,
                                    bool approver) {
    const std::string entry = "agentry: agent::run(agentry::approvals{...}): ";
    std::vector<std::string_view> decided;
    for (const approval_decision& d : decisions) {
        const auto p = std::find_if(pending.begin(), pending.end(),
                                    [&](const pending_call& c) { return c.call_id == d.call_id; });
        if (p == pending.end()) return entry + "no pending call has the id \"" + d.call_id + "\"";
        if (std::find(decided.begin(), decided.end(), d.call_id) != decided.end())
            return entry + "two decisions for the call " + d.call_id;
        if (!same_arguments(d.arguments, p->arguments))
            return entry + "the decision for the call " + d.call_id + " (" + p->tool + ") was made for the arguments " +
                   d.arguments + ", but the call's are " + p->arguments + "; decide on the call as it is";
        decided.push_back(d.call_id);
    }
    if (approver) return {};
    for (const pending_call& p : pending)
        if (std::find(decided.begin(), decided.end(), p.call_id) == decided.end())
            return entry + "no decision for the call " + p.call_id + " (" + p.tool + "); give one for every pending call";
    return {};
}

AGENTRY_DECL run_result engine::refused_context(bool none_taken, bool given, std::string run_id) {
    run_result r;
    r.stop = stop_reason::invalid_input;
    r.run_id = run_id.empty() ? random_name() : std::move(run_id);
    if (none_taken)
        r.text = "agentry: agent::run(input, ctx): no tool of this agent takes agentry::context<T>; call run(input)";
    else if (given)
        r.text = "agentry: agent::run(input, ctx): ctx is not of the type the tools take (the T of their "
                 "agentry::context<T>, the registry's context_type); pass that object";
    else
        r.text = "agentry: agent::run(input): this agent's tools take agentry::context<T>; call run(input, ctx) with "
                 "the T object for the run";
    return r;
}

AGENTRY_DECL void engine::cancel() noexcept {
    cancel_.store(true);
    std::lock_guard lock(stop_mutex_);
    run_stop_.request_stop();  // the agentry::stop_token of the tools running
}

AGENTRY_DECL std::vector<pending_call> engine::pending_approvals() const {
    std::vector<pending_call> out;
    const std::optional<open_turn> open = open_turn_of();
    if (!open || !deps_.policy || !deps_.features.canonical_text) return out;
    const message& reply = history_[open->reply];
    for (std::size_t i : open->unanswered) {
        const tool_call& call = reply.tool_calls[i];
        const tool_policy* policy = rules_of(call.name).policy;
        if (!policy || !policy->needs_approval) continue;
        std::optional<std::string> canonical = deps_.features.canonical_text(call.arguments);
        if (!canonical) continue;  // refused by the canonical layer without running
        out.push_back({call.id, call.name, std::move(*canonical), reply.text, policy->level});
    }
    return out;
}

AGENTRY_DECL std::string engine::save() const {
    std::string out;
    // A message without provider parts is written as the previous release wrote it.
    json::write(out, history_, {.omit_empty_optionals = true});
    return out;
}

AGENTRY_DECL bool engine::restore(std::string_view saved) {
    // Older saves may write an absent optional (message::parts) as null.
    auto r = json::read<std::vector<message>>(
        saved, {.max_size = std::size_t(-1) / 2, .max_depth = 16, .null_as_absent = true, .absent_as_default = true});
    if (!r.ok()) return false;
    history_ = std::move(r.value);
    return true;
}

AGENTRY_DECL outcome<void> engine::add_tools(const dynamic_tool_source& source) {
    outcome<void> added =
        add_dynamic_tools(source, deps_.dynamic, deps_.tools_payload, dynamic_, deps_.call, &deps_.catalog);
    if (added && dynamic_ && !dynamic_->policies.empty()) {
        if (!deps_.policy) {  // the registry declares no policies: none of its tools is found
            deps_.policy = std::make_shared<policy_state>();
            deps_.policy->find = +[](std::string_view) noexcept { return std::size_t(0); };
        }
        deps_.policy->dynamic = dynamic_;
        deps_.policy->any_approval = deps_.policy->any_approval || dynamic_->any_approval;
    }
    if (added) build_pipeline();
    return added;
}

AGENTRY_DECL std::optional<engine::open_turn> engine::open_turn_of() const {
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

AGENTRY_DECL void engine::refuse(run_result& result, std::string why) const {
    result.stop = stop_reason::approval_pending;
    result.text = std::move(why);
    result.pending = pending_approvals();
}

AGENTRY_DECL bool engine::refuse_if_open(run_result& result, std::string_view entry) {
    const std::optional<open_turn> open = open_turn_of();
    if (!open) return false;
    refuse(result, "agentry: " + std::string(entry) + ": " + std::to_string(open->unanswered.size()) +
                       " tool calls of the last turn wait for a decision; run(agentry::approvals{decisions}) first "
                       "(deny them to drop them); the input was not added");
    return true;
}

AGENTRY_DECL run_result engine::start(std::string input, const agent_events& events, void* ctx) noexcept {
    return guarded(
        [&](run_result& result, clock::time_point started) {
            if (refuse_if_open(result, "agent::run")) return;
            history_.push_back(message::user(std::move(input)));
            execute(result, events, started, nullptr);
        },
        ctx);
}

AGENTRY_DECL run_result engine::resume_with(std::span<const approval_decision> decisions, const agent_events& events,
                                            void* ctx, run_result progress) noexcept {
    return guarded(
        [&](run_result& result, clock::time_point started) {
            if (!open_turn_of())
                return refuse(result, "agentry: agent::run(agentry::approvals{...}): no tool calls wait for a decision");
            if (std::string why = refusal_of(pending_approvals(), decisions, static_cast<bool>(approver_)); !why.empty())
                return refuse(result, std::move(why));
            decided_calls decided;
            for (const approval_decision& d : decisions) decided.emplace(d.call_id, d.answer);
            execute(result, events, started, &decided);
        },
        ctx, std::move(progress));
}

AGENTRY_DECL run_result engine::continue_run(run_result progress, const agent_events& events, void* ctx) noexcept {
    return guarded(
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
                                  " tool calls wait for approval; decide with run(agentry::approvals{decisions}).";
                } else {
                    const decided_calls none;
                    execute(result, events, started, &none);
                }
            } else {
                execute(result, events, started, nullptr);
            }
        },
        ctx, std::move(progress));
}

AGENTRY_DECL bool engine::stopped(run_result& result, clock::time_point started) {
    if (cancel_.load()) {
        result.stop = stop_reason::cancelled;
        result.text = "The run was cancelled.";
        return true;
    }
    if (!config_.max_total_time.is_zero() && elapsed_ms(started) >= config_.max_total_time.get()) {
        result.stop = stop_reason::timeout;
        result.text =
            "The run took longer than its time limit of " + std::to_string(config_.max_total_time.ms) + " ms.";
        return true;
    }
    return false;
}

AGENTRY_DECL std::chrono::milliseconds engine::retry_delay(std::uint32_t attempt, const provider_error& error) const {
    auto delay = jittered_backoff(config_.retry.initial_backoff.ms, config_.retry.max_backoff.ms, attempt);
    if (error.retry_after) {
        const auto hint =
            std::clamp(*error.retry_after, std::chrono::milliseconds::zero(), config_.retry.max_server_delay.get());
        delay = std::max(delay, hint);
    }
    return delay;
}

AGENTRY_DECL turn_result engine::ask(const chat_request& request, const agent_events& events,
                                     clock::time_point started, std::string& why) {
    std::optional<std::string> text_failure;
    // A callback of the stream; one that throws abandons the turn (the provider stops reading)
    // and, once the turn is over, ends the run.
    const auto relay = [&text_failure](const char* name, const auto& callback) {
        return [&text_failure, name, &callback](auto... args) {
            if (text_failure) return;
            try {
                invoke_callback(name, callback, args...);
            } catch (const callback_error& e) {
                text_failure = e.what();
                throw;
            }
        };
    };
    stream_events stream;
    if (events.on_text) stream.on_text = relay("on_text", events.on_text);
    if (events.on_tool_arguments) stream.on_tool_arguments = relay("on_tool_arguments", events.on_tool_arguments);
    const auto t0 = clock::now();
    last_turn_ = turn_timing{std::chrono::duration_cast<std::chrono::microseconds>(t0 - started_), {}, 0};
    // The turn's span: the requests carry it as their traceparent.
    const turn_event te{deps_.provider_name, deps_.model, turns_ + 1};
    span_begun span;
    const chat_request* sent = &request;
    chat_request traced;
    if (observer_) {
        span = observer_->begin_turn(run_span_, te, t0);
        if (span.context.valid() && !request.trace.valid()) {
            traced = request;
            traced.trace = span.context;
            sent = &traced;
        }
    }
    const auto attempts = [&]() -> turn_result {
        for (std::uint32_t attempt = 0;; ++attempt) {
            last_turn_.retries = attempt;
            const auto a0 = clock::now();
            turn_result r = deps_.turn(*sent, stream, trace_);
            const auto a1 = clock::now();
            last_turn_.duration = std::chrono::duration_cast<std::chrono::microseconds>(a1 - t0);
            if (observer_) {
                request_event e;
                e.provider = deps_.provider_name;
                e.model = deps_.model;
                e.error = r.ok() ? nullptr : &r.error;
                e.retry = attempt != 0;
                if (r.ok()) e.usage = r.value->usage;
                e.duration = a1 - a0;
                observer_->provider_request(e);
            }
            if (text_failure) throw callback_error(*text_failure);
            if (r.ok() || !r.error.retryable || attempt >= config_.retry.max_retries || cancel_.load()) return r;
            // A retry sooner than the server asks would fail again: stop, its delay stays in r.error.
            if (r.error.retry_after && *r.error.retry_after > config_.retry.max_server_delay.get()) {
                why = " (not retried: the server asked for a wait of " + std::to_string(r.error.retry_after->count()) +
                      " ms, longer than retry.max_server_delay of " + std::to_string(config_.retry.max_server_delay.ms) +
                      " ms)";
                return r;
            }
            const std::chrono::milliseconds delay = retry_delay(attempt, r.error);
            if (!config_.max_total_time.is_zero()) {
                const std::chrono::milliseconds left = config_.max_total_time.get() - elapsed_ms(started);
                if (delay >= left) {
                    why = " (not retried: the wait of " + std::to_string(delay.count()) +
                          " ms would pass the run's time limit of " + std::to_string(config_.max_total_time.ms) + " ms)";
                    return r;
                }
            }
            if (events.on_retry) invoke_callback("on_retry", events.on_retry, r.error, delay);
            if (!sleep_unless(delay, cancel_)) return r;
        }
    };
    if (!observer_) return attempts();
    turn_end_event end;
    try {
        turn_result r = attempts();
        end.retries = last_turn_.retries;
        if (r.ok()) {
            end.usage = r.value->usage;
            end.finish_reason = to_string(r.value->finish);
        } else {
            end.error = &r.error;
        }
        end.end = clock::now();
        observer_->end_turn(span, te, end);
        return r;
    } catch (...) {
        end.retries = last_turn_.retries;
        end.end = clock::now();
        const provider_error thrown = malformed("agentry: a callback of the turn threw");
        end.error = &thrown;
        observer_->end_turn(span, te, end);
        throw;
    }
}

AGENTRY_DECL chat_request engine::request_for(std::span<const message> messages, tool_choice_kind choice,
                                              const agent_events& events) const {
    chat_request request;
    request.messages = messages;
    // Always sent: Anthropic refuses tool calls in a history without tools.
    request.tools = chooser_ && !turn_tools_.empty() ? std::string_view(turn_tools_) : deps_.tools_payload;
    request.tool_choice.kind = choice;
    if (choice != tool_choice_kind::none) request.parallel_tool_calls = config_.parallel_tool_calls;
    if (config_.max_output_tokens != 0) request.max_tokens = config_.max_output_tokens;
    request.stream = events.on_text || events.on_tool_arguments;
    request.cancel = &cancel_;
    request.output = deps_.output;
    return request;
}

AGENTRY_DECL void engine::set_tool_chooser(tool_chooser choose) {
    chooser_ = std::move(choose);
    deps_.dynamic.chosen_per_turn = static_cast<bool>(chooser_);
}

AGENTRY_DECL void engine::choose_tools(std::span<const message> sent, std::uint32_t turn) {
    turn_tools_.clear();
    if (!chooser_) return;
    std::vector<std::string> called;
    const turn_query query = turn_query::of(sent, turn, called);
    const tool_catalog& catalog = deps_.catalog;
    active_tools chosen = invoke_callback("select_tools", chooser_, catalog, query);
    if (chosen.all) return;
    std::vector<std::size_t> order;
    std::vector<bool> taken(catalog.size(), false);
    const auto take = [&](std::size_t i) {
        if (i >= catalog.size())
            throw callback_error("agentry: agent_options::select_tools chose the tool at index " + std::to_string(i) +
                                 ", past the agent's " + std::to_string(catalog.size()) +
                                 " tools; choose indices of the catalog it is given");
        if (!taken[i]) order.push_back(i);
        taken[i] = true;
    };
    for (std::size_t i : chosen.indices) take(i);
    for (const std::string& name : chosen.names) {
        const std::optional<std::size_t> i = catalog.find(name);
        if (!i)
            throw callback_error("agentry: agent_options::select_tools chose \"" + printable(name, 64) +
                                 "\", which is no tool of this agent; choose among the catalog's names");
        take(*i);
    }
    if (chosen.defer_others) {
        turn_tools_ = catalog.deferred_payload(order);
        return;
    }
    // The dialect's limit on one request: the chooser's first choices, then the built-in tools.
    std::size_t always = 0;
    for (const catalog_entry& e : catalog.entries()) always += e.always ? 1 : 0;
    const std::size_t room = deps_.dynamic.rules.max_tools > always ? deps_.dynamic.rules.max_tools - always : 0;
    std::vector<std::size_t> kept;
    for (std::size_t i : order)
        if (!catalog[i].always && kept.size() != room) kept.push_back(i);
    turn_tools_ = catalog.payload(kept);
}

AGENTRY_DECL std::span<const message> engine::context(run_result& result, std::vector<message>& trimmed) const {
    if (!deps_.features.fit || config_.context_budget_tokens == 0) return history_;
    return deps_.features.fit(*this, result, trimmed);
}

AGENTRY_DECL void engine::record_turn(run_result& result, const completion& c, const agent_events& events) {
    ++result.turns;
    turns_ = result.turns;
    result.turn_usage.push_back(c.usage);
    result.turn_timings.push_back(last_turn_);
    result.usage += c.usage;
    // The event comes before the reply joins the history, so that a throwing callback leaves it valid.
    if (events.on_turn_end) invoke_callback("on_turn_end", events.on_turn_end, result.turns, c.usage);
    history_.push_back(c.reply);
    if (checkpoint_) checkpoint_->state(history_, result);
}

AGENTRY_DECL bool engine::stop_before_request(run_result& result, clock::time_point started) {
    const auto over_budget = [&](std::uint64_t budget) {
        if (budget == 0 || tokens_used(result) < budget) return false;
        result.stop = stop_reason::token_budget;
        result.text = "The run used " + std::to_string(tokens_used(result)) + " tokens, its budget being " +
                      std::to_string(budget) + ".";
        return true;
    };
    if (over_budget(config_.max_total_tokens) || over_budget(token_budget_)) return true;
    if (stop_condition_ &&
        invoke_callback("stop condition", stop_condition_, run_state_view{result, history_, elapsed_ms(started)})) {
        result.stop = stop_reason::stop_condition;
        result.text = "The run was stopped by its stop condition after " + std::to_string(result.turns) + " turns.";
        return true;
    }
    return false;
}

AGENTRY_DECL void engine::compress(run_result& result, const agent_events& events, clock::time_point started) {
    if (!deps_.features.compress || config_.context_budget_tokens == 0 ||
        config_.compression != context_compression::summary)
        return;
    if (result.summary_error) return;  // not tried again in this run: its requests are trimmed
    deps_.features.compress(*this, result, events, started);
}

AGENTRY_DECL std::size_t engine::beyond_call_budget(const run_result& result, open_turn& open) const {
    if (config_.max_tool_calls == 0) return 0;
    const std::size_t left =
        config_.max_tool_calls - std::min<std::size_t>(result.steps.size(), config_.max_tool_calls);
    if (open.unanswered.size() <= left) return 0;
    const std::size_t beyond = open.unanswered.size() - left;
    open.unanswered.resize(left);
    return beyond;
}

AGENTRY_DECL void engine::answer_beyond_budget(const open_turn& open, std::size_t beyond) {
    for (std::size_t i = open.unanswered.size(); i != open.unanswered.size() + beyond; ++i)
        history_.push_back(message::tool_result(history_[open.reply].tool_calls[i],
                                                "Not run: this run's budget of " +
                                                    std::to_string(config_.max_tool_calls) +
                                                    " tool calls is used up, and the run stops here.",
                                                true));
}

AGENTRY_DECL std::size_t engine::cap_calls(std::vector<tool_call>& calls) const {
    const std::size_t limit = config_.max_tool_calls_per_turn;
    if (calls.size() <= limit) return 0;
    const std::size_t over = calls.size() - limit;
    calls.resize(limit + 1);
    return over;
}

AGENTRY_DECL std::string engine::over_limit_text(std::size_t over) const {
    return "Not run: at most " + std::to_string(config_.max_tool_calls_per_turn) +
           " tool calls are run per turn, and this turn made " +
           std::to_string(config_.max_tool_calls_per_turn + over) + "; this call and the " + std::to_string(over - 1) +
           " after it were not run and are left out of the conversation. Make the calls still needed in the next "
           "turn, fewer at a time.";
}

AGENTRY_DECL bool engine::must_pause(std::span<const tool_call> calls) const {
    if (!deps_.policy || !deps_.policy->any_approval || approver_ || !deps_.features.canonical_text) return false;
    return std::any_of(calls.begin(), calls.end(), [&](const tool_call& call) {
        const tool_policy* policy = rules_of(call.name).policy;
        return policy && policy->needs_approval && deps_.features.canonical_text(call.arguments).has_value();
    });
}

AGENTRY_DECL void engine::open_sub_runs(const run_result& result) {
    std::uint64_t tokens_left = nested_runs::unlimited;
    if (config_.max_total_tokens != 0)
        tokens_left =
            config_.max_total_tokens - std::min<std::uint64_t>(tokens_used(result), config_.max_total_tokens);
    if (token_budget_ != 0)
        tokens_left = std::min(tokens_left, token_budget_ - std::min(tokens_used(result), token_budget_));
    nested_->set_tokens_left(tokens_left);
}

// --- the stages ----------------------------------------------------------------------------

AGENTRY_DECL void engine::execute(run_result& result, const agent_events& events, clock::time_point started,
                                  const decided_calls* resumed) {
    run_state s{result, events, started, resumed, loop_detector(config_.loop_window, config_.loop_threshold)};
    replay_rounds(result.steps, s.loops, s.invalid_rounds);  // a run continued from its progress
    stage next = resumed ? stage::run_tools : stage::prepare;
    while (next != stage::done) {
        switch (next) {
        case stage::prepare: next = prepare(s); break;
        case stage::model_turn: next = model_turn(s); break;
        case stage::handle_reply: next = handle_reply(s); break;
        case stage::run_tools: next = run_tools(s); break;
        case stage::finish: next = finish(s); break;
        case stage::done: break;
        }
    }
}

AGENTRY_DECL stage engine::prepare(run_state& s) {
    if (stopped(s.result, s.started)) return stage::done;
    if (s.result.turns == config_.max_turns) return stage::finish;
    if (stop_before_request(s.result, s.started)) return stage::done;
    compress(s.result, s.events, s.started);
    return stage::model_turn;
}

AGENTRY_DECL stage engine::model_turn(run_state& s) {
    std::vector<message> trimmed;
    const std::span<const message> sent = context(s.result, trimmed);
    choose_tools(sent, s.result.turns + 1);
    std::string why;
    turn_result r = ask(request_for(sent, config_.tool_choice, s.events), s.events, s.started, why);
    if (!r.ok()) {
        if (cancel_.load()) {
            stopped(s.result, s.started);
            return stage::done;
        }
        s.result.stop = stop_reason::provider_error;
        s.result.text = r.error.message + why;
        s.result.error = std::move(r.error);
        return stage::done;
    }
    s.reply = std::move(r.value);
    return stage::handle_reply;
}

AGENTRY_DECL stage engine::handle_reply(run_state& s) {
    completion& c = *s.reply;
    s.over = cap_calls(c.reply.tool_calls);
    s.result.tool_calls_over_limit += s.over;
    record_turn(s.result, c, s.events);
    if (c.finish == finish_reason::refusal) {
        s.result.stop = stop_reason::refused;
        s.result.text = !c.refusal.empty() ? c.refusal : c.reply.text;
        return stage::done;
    }
    if (!history_.back().tool_calls.empty()) return stage::run_tools;
    if (deps_.judge) {
        switch (deps_.judge(c.reply.text, s.output_repairs, config_.max_output_repairs, history_, s.result)) {
        case output_verdict::accepted: break;
        case output_verdict::repair: return stage::prepare;
        case output_verdict::exhausted: return stage::done;
        }
    }
    s.result.stop = stop_reason::completed;
    s.result.text = c.reply.text;
    return stage::done;
}

AGENTRY_DECL stage engine::run_tools(run_state& s) {
    if (s.resumed) {  // the open turn's calls that have no result, with the decisions given
        const decided_calls* decided = std::exchange(s.resumed, nullptr);
        const std::optional<open_turn> open = open_turn_of();
        if (open && !run_turn_calls(s.result, s.events, decided, s.result.turns, *open, s.loops, s.invalid_rounds))
            return stage::done;
        return stage::prepare;
    }
    const std::vector<tool_call>& calls = history_.back().tool_calls;
    open_turn open{history_.size() - 1, std::vector<std::size_t>(calls.size() - (s.over != 0 ? 1 : 0))};
    std::iota(open.unanswered.begin(), open.unanswered.end(), std::size_t(0));
    const std::size_t beyond = beyond_call_budget(s.result, open);
    const bool pause = must_pause(std::span(calls).first(open.unanswered.size()));
    // The call past the limit is answered at once (`calls` is not used after this); the others
    // once they have run.
    if (s.over != 0) history_.push_back(message::tool_result(calls.back(), over_limit_text(s.over), true));
    if (beyond != 0) answer_beyond_budget(open, beyond);
    if (pause) {
        s.result.stop = stop_reason::approval_pending;
        s.result.pending = pending_approvals();
        s.result.text =
            std::to_string(s.result.pending.size()) + " tool calls wait for approval; decide with run(agentry::approvals{decisions}).";
        return stage::done;
    }
    if (!run_turn_calls(s.result, s.events, nullptr, s.result.turns, open, s.loops, s.invalid_rounds))
        return stage::done;
    if (beyond != 0) {
        s.result.stop = stop_reason::tool_call_budget;
        s.result.text = "The run reached its budget of " + std::to_string(config_.max_tool_calls) +
                        " tool calls; the model asked for " + std::to_string(beyond) + " more.";
        return stage::done;
    }
    return stage::prepare;
}

AGENTRY_DECL stage engine::finish(run_state& s) {
    s.result.stop = stop_reason::max_turns;
    if (config_.early_stopping == early_stopping::generate) {
        history_.push_back(message::user(
            "You have used every turn allowed. Give your final answer now from what you have, without tools."));
        compress(s.result, s.events, s.started);
        std::vector<message> trimmed;
        const std::span<const message> sent = context(s.result, trimmed);
        std::string why;
        turn_result r = ask(request_for(sent, tool_choice_kind::none, s.events), s.events, s.started, why);
        if (r.ok()) {
            // Calls made despite tool_choice none are not run, nor kept without results.
            r.value->reply.tool_calls.clear();
            record_turn(s.result, *r.value, s.events);
            s.result.text = r.value->reply.text;
            return stage::done;
        }
        s.result.error = std::move(r.error);
    }
    s.result.text = "Stopped after " + std::to_string(config_.max_turns) + " turns without a final answer.";
    return stage::done;
}

AGENTRY_DECL bool engine::run_turn_calls(run_result& result, const agent_events& events, const decided_calls* decided,
                                         std::uint32_t turn, const open_turn& open, loop_detector& loops,
                                         std::map<std::string, std::uint32_t, std::less<>>& invalid_rounds) {
    // The reply's calls themselves when none was answered before (the usual turn), else copies
    // of those left; nothing reads them once the results are inserted into the history.
    const std::vector<tool_call>& all = history_[open.reply].tool_calls;
    const bool whole = open.unanswered.size() == all.size();
    std::vector<tool_call> left;
    if (!whole) {
        left.reserve(open.unanswered.size());
        for (std::size_t i : open.unanswered) left.push_back(all[i]);
    }
    const std::span<const tool_call> calls = whole ? std::span<const tool_call>(all) : std::span<const tool_call>(left);
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
        auto& [st, tr] = *done.done[i];
        results.push_back(message::tool_result(call, tr));
        result.steps.push_back(std::move(st));
        if (tr.status == tool_status::invalid_arguments) invalid_this_round[call.name] = true;
        else if (tr.ok()) invalid_this_round.try_emplace(call.name, false);
        looping = loops.record(call.name, call.arguments) || looping;
    }
    const std::optional<std::size_t> stop_at = stop_tool_of(calls, done);
    insert_after(history_, open.reply, std::move(results));
    if (done.failure) std::rethrow_exception(done.failure);
    if (checkpoint_) checkpoint_->state(history_, result);
    if (stop_at) {
        result.stop = stop_reason::stop_at_tool;
        result.text = done.done[*stop_at]->second.content;
        return false;
    }
    for (const auto& [name, invalid] : invalid_this_round) {
        std::uint32_t& n = invalid_rounds[name];
        n = invalid ? n + 1 : 0;
        if (n >= config_.max_invalid_rounds) {
            result.stop = stop_reason::invalid_arguments_exhausted;
            result.text =
                "The model sent invalid arguments to " + name + " " + std::to_string(n) + " rounds in a row.";
            return false;
        }
    }
    if (looping) {
        result.stop = stop_reason::loop_detected;
        result.text =
            "The model repeated the same tool calls " + std::to_string(config_.loop_threshold) + " times.";
        return false;
    }
    return true;
}

AGENTRY_DECL std::optional<std::size_t> engine::stop_tool_of(std::span<const tool_call> calls,
                                                           const calls_done& done) const {
    if (config_.stop_at_tools.empty() && stop_tools_.empty()) return std::nullopt;
    for (std::size_t i = 0; i != calls.size(); ++i) {
        if (!done.done[i] || !done.done[i]->second.ok()) continue;
        const std::string& name = calls[i].name;
        if (config_.stop_at_tools.contains(name) ||
            std::find(stop_tools_.begin(), stop_tools_.end(), name) != stop_tools_.end())
            return i;
    }
    return std::nullopt;
}

} // namespace agentry::detail

#include <agentry/loop/impl/engine_calls.ipp>

#endif
