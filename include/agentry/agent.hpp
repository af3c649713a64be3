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
//                                "You are a travel assistant.", agentry::curl_transport{}};
//   agentry::run_result r = agent.run("Do I need an umbrella in Paris today?");
//
// The provider and transport are kept by value, the registry by reference (a registry is
// usually a namespace-scope constexpr object; it must outlive the agent). One agent runs one
// conversation; run() is not for several threads at once, cancel() is.

#include <agentry/loop/config.hpp>
#include <agentry/loop/context.hpp>
#include <agentry/loop/detect.hpp>
#include <agentry/loop/result.hpp>
#include <agentry/provider/message.hpp>
#include <agentry/provider/provider.hpp>
#include <agentry/json/reader.hpp>
#include <agentry/json/writer.hpp>
#include <agentry/tool_result.hpp>
#include <agentry/transport/transport.hpp>

#include <algorithm>
#include <atomic>
#include <chrono>
#include <condition_variable>
#include <cstdint>
#include <functional>
#include <future>
#include <map>
#include <memory>
#include <mutex>
#include <optional>
#include <random>
#include <span>
#include <string>
#include <string_view>
#include <thread>
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

/// Sleeps for `delay` unless `cancel` becomes true first; false when cancelled.
inline bool sleep_unless(std::chrono::milliseconds delay, const std::atomic<bool>& cancel) {
    const auto until = std::chrono::steady_clock::now() + delay;
    while (std::chrono::steady_clock::now() < until) {
        if (cancel.load()) return false;
        std::this_thread::sleep_for(std::min<std::chrono::steady_clock::duration>(
            std::chrono::milliseconds(20), until - std::chrono::steady_clock::now()));
    }
    return !cancel.load();
}

inline std::string excerpt(std::string_view text, std::size_t n = 200) {
    if (text.size() <= n) return std::string(text);
    while (n > 0 && (static_cast<unsigned char>(text[n]) & 0xC0) == 0x80) --n;
    return std::string(text.substr(0, n)) + "...";
}

} // namespace detail

template <loop_config Config>
class agent {
    // Read through a static copy, not the template parameter object: Clang 14 miscompiles reads
    // of members of a class-type template argument that has padding (and can crash on them).
    static constexpr loop_config config_ = Config;

public:
    /// `tools` must outlive the agent. The tools payload is `tools.definitions<P::dialect>()`.
    template <provider P, class Registry, transport T>
    agent(P model, const Registry& tools, std::string system_prompt, T http)
        : tools_payload_(Registry::template definitions<typename P::dialect>()),
          system_(std::move(system_prompt)) {
        auto state = std::make_shared<std::pair<P, T>>(std::move(model), std::move(http));
        turn_ = [state](const chat_request& request, const stream_events& events, const trace_hook& trace) {
            return complete(state->first, state->second, request, events, trace);
        };
        call_options options = tools.options();
        options.max_result_size = config_.max_result_size;
        // A dialect that makes every property required sends null for an absent optional one.
        if constexpr (P::dialect::rules.all_required) options.arguments.null_as_absent = true;
        call_ = [registry = tools.with_options(options)](std::string_view name, std::string_view arguments) {
            return registry.call(name, arguments);
        };
        if (!system_.empty()) history_.push_back(message::system(system_));
    }

    /// Runs the model on `input` (a new user message) until it answers or a limit stops it.
    /// Never throws: errors end the run with their stop_reason.
    run_result run(std::string input, const agent_events& events = {}) noexcept {
        run_result result;
        const auto started = std::chrono::steady_clock::now();
        try {
            cancel_.store(false);
            history_.push_back(message::user(std::move(input)));
            execute(result, events, started);
        } catch (const std::exception& e) {
            result.stop = stop_reason::provider_error;
            result.error = detail::malformed(std::string("agentry: ") + e.what());
            result.text = result.error->message;
        } catch (...) {
            result.stop = stop_reason::provider_error;
            result.error = detail::malformed("agentry: unknown exception");
            result.text = result.error->message;
        }
        result.wall_time =
            std::chrono::duration_cast<std::chrono::milliseconds>(std::chrono::steady_clock::now() - started);
        return result;
    }

    /// Stops a run in progress (from any thread) at the next opportunity: between turns and
    /// tool calls, during a backoff, or mid-request.
    void cancel() noexcept { cancel_.store(true); }

    /// The conversation so far (system prompt, user messages, replies, tool results).
    const std::vector<message>& conversation() const noexcept { return history_; }

    /// The conversation as JSON, to restore later with restore().
    std::string save() const {
        std::string out;
        json::write(out, history_, {.max_size = 0});
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

    /// Called with each request and response, API keys redacted.
    void set_trace(trace_hook hook) { trace_ = std::move(hook); }

private:
    using turn_fn = std::function<turn_result(const chat_request&, const stream_events&, const trace_hook&)>;
    using call_fn = std::function<tool_result(std::string_view, std::string_view)>;

    bool out_of_time(std::chrono::steady_clock::time_point started) const {
        if constexpr (config_.max_total_time_ms == 0) {
            return false;
        } else {
            return std::chrono::steady_clock::now() - started >= std::chrono::milliseconds(config_.max_total_time_ms);
        }
    }

    bool stopped(run_result& result, std::chrono::steady_clock::time_point started) {
        if (cancel_.load()) {
            result.stop = stop_reason::cancelled;
            result.text = "The run was cancelled.";
            return true;
        }
        if (out_of_time(started)) {
            result.stop = stop_reason::timeout;
            result.text = "The run took longer than its time limit of " + std::to_string(config_.max_total_time_ms) +
                          " ms.";
            return true;
        }
        return false;
    }

    // One model turn, with retries of transient errors.
    turn_result ask(const chat_request& request, const agent_events& events,
                    std::chrono::steady_clock::time_point started) {
        stream_events stream;
        if (events.on_text) stream.on_text = events.on_text;
        for (std::uint32_t attempt = 0;; ++attempt) {
            turn_result r = turn_(request, stream, trace_);
            if (r.ok() || !r.error.retryable || attempt >= config_.retry.max_retries || cancel_.load()) return r;
            const std::uint64_t base = std::min<std::uint64_t>(
                config_.retry.max_backoff_ms, std::uint64_t(config_.retry.initial_backoff_ms) << std::min(attempt, 20u));
            std::uniform_real_distribution<double> spread(0.5, 1.5);
            std::mt19937 jitter(std::random_device{}());  // made only when a retry happens
            auto delay = std::chrono::milliseconds(static_cast<long long>(double(base) * spread(jitter)));
            if (r.error.retry_after && *r.error.retry_after > delay) delay = *r.error.retry_after;
            if constexpr (config_.max_total_time_ms != 0) {
                const auto left = std::chrono::milliseconds(config_.max_total_time_ms) -
                                  std::chrono::duration_cast<std::chrono::milliseconds>(std::chrono::steady_clock::now() - started);
                if (delay >= left) return r;
            }
            if (events.on_retry) events.on_retry(r.error, delay);
            if (!detail::sleep_unless(delay, cancel_)) return r;
        }
    }

    // Runs one call, within the tool timeout when there is one.
    step run_call(const tool_call& call, std::uint32_t turn, tool_result& out) const {
        step s;
        s.turn = turn;
        s.id = call.id;
        s.tool = call.name;
        s.arguments = call.arguments;
        const auto t0 = std::chrono::steady_clock::now();
        if constexpr (config_.tool_timeout_ms == 0) {
            out = call_(call.name, call.arguments);
        } else {
            // A detached thread owns everything the call needs, so that an abandoned call can
            // finish on its own after the run has moved on.
            auto task = std::make_shared<std::packaged_task<tool_result()>>(
                [fn = call_, name = call.name, args = call.arguments] { return fn(name, args); });
            std::future<tool_result> done = task->get_future();
            std::thread([task] { (*task)(); }).detach();
            if (done.wait_for(std::chrono::milliseconds(config_.tool_timeout_ms)) == std::future_status::ready) {
                out = done.get();
            } else {
                out = tool_result{};
                out.status = tool_status::tool_error;
                out.content = call.name + " did not finish within " + std::to_string(config_.tool_timeout_ms) +
                              " ms; it was abandoned. Try a narrower request or another tool.";
                s.timed_out = true;
            }
        }
        s.duration = std::chrono::duration_cast<std::chrono::microseconds>(std::chrono::steady_clock::now() - t0);
        s.status = out.status;
        s.result_excerpt = detail::excerpt(out.content);
        s.repairs = out.repairs;
        return s;
    }

    // Runs the calls of a turn (concurrently when allowed); results in the model's order,
    // empty for a call not run because the run was cancelled.
    using outcome = std::optional<std::pair<step, tool_result>>;
    std::vector<outcome> run_calls(const std::vector<tool_call>& calls, std::uint32_t turn, const agent_events& events) {
        std::vector<outcome> done(calls.size());
        if constexpr (config_.parallel_tool_calls) {
            if (calls.size() > 1) {
                std::atomic<std::size_t> next{0};
                std::mutex events_mutex;
                const auto worker = [&] {
                    for (std::size_t i; (i = next.fetch_add(1)) < calls.size();) {
                        if (events.on_tool_start) {
                            std::lock_guard lock(events_mutex);
                            events.on_tool_start(calls[i]);
                        }
                        done[i].emplace();
                        done[i]->first = run_call(calls[i], turn, done[i]->second);
                        if (events.on_tool_end) {
                            std::lock_guard lock(events_mutex);
                            events.on_tool_end(done[i]->first);
                        }
                    }
                };
                const std::size_t threads = std::min<std::size_t>(config_.max_parallelism, calls.size());
                std::vector<std::thread> pool;
                for (std::size_t t = 1; t < threads; ++t) pool.emplace_back(worker);
                worker();
                for (std::thread& t : pool) t.join();
                return done;
            }
        }
        for (std::size_t i = 0; i != calls.size(); ++i) {
            if (cancel_.load()) break;
            if (events.on_tool_start) events.on_tool_start(calls[i]);
            done[i].emplace();
            done[i]->first = run_call(calls[i], turn, done[i]->second);
            if (events.on_tool_end) events.on_tool_end(done[i]->first);
        }
        return done;
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
            detail::trimmed_history t = detail::trim_history(history_, config_.context_budget_tokens, estimate_);
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

    void execute(run_result& result, const agent_events& events, std::chrono::steady_clock::time_point started) {
        detail::loop_detector loops(config_.loop_window, config_.loop_threshold);
        std::map<std::string, std::uint32_t, std::less<>> invalid_rounds;
        for (;;) {
            if (stopped(result, started)) return;
            if (result.turns == config_.max_turns) return finish_at_max_turns(result, events, started);
            std::vector<message> trimmed;
            const std::span<const message> sent = context(result, trimmed);
            turn_result r = ask(request_for(sent, config_.tool_choice, events), events, started);
            if (!r.ok()) {
                if (cancel_.load()) return void(stopped(result, started));
                result.stop = stop_reason::provider_error;
                result.text = r.error.message;
                result.error = std::move(r.error);
                return;
            }
            completion& c = *r.value;
            ++result.turns;
            result.turn_usage.push_back(c.usage);
            result.usage += c.usage;
            if (events.on_turn_end) events.on_turn_end(result.turns, c.usage);
            history_.push_back(c.reply);
            if (c.finish == finish_reason::refusal) {
                result.stop = stop_reason::refused;
                result.text = !c.refusal.empty() ? c.refusal : c.reply.text;
                return;
            }
            if (c.reply.tool_calls.empty()) {
                result.stop = stop_reason::completed;
                result.text = c.reply.text;
                return;
            }
            auto done = run_calls(c.reply.tool_calls, result.turns, events);
            std::map<std::string, bool, std::less<>> invalid_this_round;
            bool looping = false;
            for (std::size_t i = 0; i != c.reply.tool_calls.size(); ++i) {
                const tool_call& call = c.reply.tool_calls[i];
                if (!done[i]) {  // every call gets a result, so that the history stays valid
                    history_.push_back(message::tool_result(call, "The run was cancelled before this call.", true));
                    continue;
                }
                auto& [s, tr] = *done[i];
                history_.push_back(message::tool_result(call, tr.content, !tr.ok()));
                result.steps.push_back(std::move(s));
                if (tr.status == tool_status::invalid_arguments) invalid_this_round[call.name] = true;
                else if (tr.ok()) invalid_this_round.try_emplace(call.name, false);
                looping = loops.record(call.name, call.arguments) || looping;
            }
            for (const auto& [name, invalid] : invalid_this_round) {
                std::uint32_t& n = invalid_rounds[name];
                n = invalid ? n + 1 : 0;
                if (n >= config_.max_invalid_rounds) {
                    result.stop = stop_reason::invalid_arguments_exhausted;
                    result.text = "The model sent invalid arguments to " + name + " " + std::to_string(n) +
                                  " rounds in a row.";
                    return;
                }
            }
            if (looping) {
                result.stop = stop_reason::loop_detected;
                result.text = "The model repeated the same tool calls " + std::to_string(config_.loop_threshold) +
                              " times.";
                return;
            }
        }
    }

    void finish_at_max_turns(run_result& result, const agent_events& events,
                             std::chrono::steady_clock::time_point started) {
        result.stop = stop_reason::max_turns;
        if constexpr (config_.early_stopping == early_stopping::generate) {
            history_.push_back(message::user(
                "You have used every turn allowed. Give your final answer now from what you have, without tools."));
            std::vector<message> trimmed;
            const std::span<const message> sent = context(result, trimmed);
            turn_result r = ask(request_for(sent, tool_choice_kind::none, events), events, started);
            if (r.ok()) {
                ++result.turns;
                result.turn_usage.push_back(r.value->usage);
                result.usage += r.value->usage;
                if (events.on_turn_end) events.on_turn_end(result.turns, r.value->usage);
                history_.push_back(r.value->reply);
                result.text = r.value->reply.text;
                return;
            }
            result.error = std::move(r.error);
        }
        result.text = "Stopped after " + std::to_string(config_.max_turns) + " turns without a final answer.";
    }

    std::string_view tools_payload_;
    std::string system_;
    turn_fn turn_;
    call_fn call_;
    std::vector<message> history_;
    token_estimator estimate_ = estimate_tokens;
    trace_hook trace_;
    std::atomic<bool> cancel_{false};
};

} // namespace agentry

#endif
