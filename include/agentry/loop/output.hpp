// SPDX-License-Identifier: BSL-1.0
#ifndef AGENTRY_LOOP_OUTPUT_HPP
#define AGENTRY_LOOP_OUTPUT_HPP

// Typed final answers. An agent<Config, Output> sends Output's JSON Schema (a constant,
// in the dialect of the provider's structured output) with every request, through the
// provider's own structured output, and reads the final answer into an Output with the typed
// reader, every constraint checked. An answer that does not validate is sent back to the model
// as a user message with the reader's errors, at most loop_config::max_output_repairs times;
// then the run stops with stop_reason::invalid_output_exhausted. Output is an argument of the
// agent, not of run(): the provider, whose dialect the schema is checked in at compile time,
// is known only where the agent is constructed.
//
//   struct trip_plan { std::string city; agentry::constrained<int, agentry::minimum<1>> days; };
//   agentry::agent<config, trip_plan> planner{agentry::openai{.model = "gpt-4o-mini"}, tools, "..."};
//   agentry::typed_result<trip_plan> r = planner.run("Plan three days in Lyon.");
//   if (r.output) use(r.output->city);

#include <agentry/detail/separate.hpp>
#include <agentry/json/reader.hpp>
#include <agentry/loop/result.hpp>
#include <agentry/provider/message.hpp>
#include <agentry/schema/dialect.hpp>
#include <agentry/schema/json_schema.hpp>

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <type_traits>
#include <utility>
#include <vector>

namespace agentry {

/// What a run of an agent with a typed output returns: the run, and the answer read as a T.
template <class T>
struct typed_result : run_result {
    /// The final answer read as a T, every constraint of T checked; set exactly when the run
    /// completed (stop_reason::completed).
    std::optional<T> output;
};

namespace detail {

/// The dialect of P's structured output: P::output_dialect when it names one, else P::dialect.
template <class P>
struct output_dialect_of {
    using type = typename P::dialect;
};
template <class P>
    requires requires { typename P::output_dialect; }
struct output_dialect_of<P> {
    using type = typename P::output_dialect;
};

/// The name the schema is sent under (OpenAI's json_schema.name).
inline constexpr std::string_view output_schema_name = "final_answer";

/// What to do with a model answer: keep it, ask the model again, or stop the run.
enum class output_verdict { accepted, repair, exhausted };


AGENTRY_DECL std::string output_errors_text(const std::vector<json::read_error>& errors);

/// judge() for an answer that is not a valid Output (`errors`): a repair request appended to
/// `history` while repairs are left, else the run's stop.
AGENTRY_TEMPLATE_DECL
output_verdict output_refused(const std::string& errors, std::uint32_t& repairs, std::uint32_t max_repairs,
                              std::vector<message>& history, run_result& result);

/// `result` moved into the run_result part of a typed result.
AGENTRY_TEMPLATE_DECL
void move_result(run_result& to, run_result&& result) noexcept;

/// The output of an agent: its schema and how it is read, and the answer of the run in progress.
template <class Output>
class output_slot {
    static_assert(!std::is_reference_v<Output> && !std::is_const_v<Output>,
                  "agentry: agent<config, Output>: Output must be a plain struct type, not a reference "
                  "or const");

public:
    output_slot() = default;

    /// The slot for provider P; Output's schema is checked against P's dialect at compile time.
    template <class P>
    static output_slot of() {
        using D = typename output_dialect_of<P>::type;
        constexpr schema::detail::kind k = schema::detail::json_kind_of<Output>();
        static_assert(k == schema::detail::kind::object || k == schema::detail::kind::unsupported,
                      "agentry: agent<config, Output>: Output must be a struct (the providers' structured "
                      "outputs take a JSON object at the root); wrap the value in a struct with one member");
        static_assert(schema::detail::check_schema<Output, D, "output">());
        output_slot s;
        s.format_ = output_format{output_schema_name, schema::detail::schema_text<Output, D>::view,
                                  D::kind == dialect_kind::openai_strict ||
                                      D::kind == dialect_kind::openai_responses_strict};
        // A strict dialect makes every member required and sends null for an absent optional
        // one; an open dialect (Gemini) states no additionalProperties, so none is refused.
        s.read_.null_as_absent = D::rules.all_required;
        s.read_.ignore_unknown_properties = !D::rules.closed_objects;
        return s;
    }

    const std::optional<output_format>& format() const noexcept { return format_; }

    /// Reads the model's answer `text`: kept when it is a valid Output; otherwise the errors go
    /// to the model in a new user message (appended to `history`) while repairs are left, or the
    /// run stops with stop_reason::invalid_output_exhausted.
    output_verdict judge(std::string_view text, std::uint32_t& repairs, std::uint32_t max_repairs,
                         std::vector<message>& history, run_result& result) {
        json::read_result<Output> read = json::read<Output>(text, read_);
        if (read.ok()) {
            value_ = std::move(read.value);
            return output_verdict::accepted;
        }
        return output_refused(output_errors_text(read.errors), repairs, max_repairs, history, result);
    }

    /// The run's result with its output: the answer kept by judge(), or, for a completed run
    /// whose answer was not judged (a continuation of a conversation that ends with the model's
    /// answer), that answer read now; one that does not validate stops the run with
    /// stop_reason::invalid_output_exhausted.
    typed_result<Output> finish(run_result result) noexcept {
        typed_result<Output> out;
        move_result(out, std::move(result));
        std::optional<Output> value = std::exchange(value_, std::nullopt);
        if (out.stop != stop_reason::completed) return out;
        if (value) {
            out.output = std::move(value);
            return out;
        }
        try {
            json::read_result<Output> read = json::read<Output>(out.text, read_);
            if (read.ok()) {
                out.output = std::move(read.value);
                return out;
            }
            out.stop = stop_reason::invalid_output_exhausted;
            out.text = "The model's answer did not match the output type: " + output_errors_text(read.errors);
        } catch (...) {
            out.stop = stop_reason::invalid_output_exhausted;
            out.text = "agentry: the model's answer could not be read (out of memory)";
        }
        return out;
    }

private:
    std::optional<output_format> format_;
    json::read_options read_{};
    std::optional<Output> value_;
};

/// An agent without a typed output: its answer is the text, and nothing is checked.
template <>
class output_slot<void> {
public:
    template <class P>
    static output_slot of() noexcept {
        return {};
    }
    const std::optional<output_format>& format() const noexcept { return none_; }
    output_verdict judge(std::string_view, std::uint32_t&, std::uint32_t, std::vector<message>&,
                         run_result&) const noexcept {
        return output_verdict::accepted;
    }
    run_result finish(run_result result) const noexcept { return result; }

private:
    std::optional<output_format> none_;
};

/// What an agent's runs return: run_result, or typed_result<Output>.
template <class Output>
using result_of_runs = std::conditional_t<std::is_void_v<Output>, run_result, typed_result<Output>>;

} // namespace detail

} // namespace agentry

#if !defined(AGENTRY_SEPARATE_COMPILATION)
#include <agentry/loop/impl/output.ipp>
#endif

#endif
