// SPDX-License-Identifier: BSL-1.0
#ifndef AGENTRY_CALL_SCOPE_HPP
#define AGENTRY_CALL_SCOPE_HPP

// What the caller of a tool supplies besides the model's arguments. A tool's function may take,
// in any position, parameters of these types; they are not part of its schema:
//
//   agentry::context<T>   the caller's T&, given as registry.call(name, arguments, {.context = t})
//   agentry::stop_token   signalled when the caller gives up on the call (timeout, cancel);
//                         std::stop_token where the standard library has it (stop_token.hpp)
//   agentry::progress     reports progress to the caller; does nothing when no one listens
//   agentry::call_info    the run id and call id the caller gives (an idempotency key for writes)
//
//   std::string export_rows(agentry::context<session> s, agentry::stop_token stop,
//                           agentry::progress p, int limit);
//   constexpr agentry::registry tools{agentry::tool<"export_rows", "...", "limit">(export_rows)};
//   tools.call("export_rows", R"({"limit":10})", {.context = my_session});
//   tools.call("export_rows", R"({"limit":10})",
//              {.context = my_session, .scope = {.stop = token, .on_progress = on_progress}});
//
// The parameter names given in tool<...> name the schema's parameters only.

#include <agentry/stop_token.hpp>
#include <agentry/trace_context.hpp>

#include <functional>
#include <optional>
#include <string>
#include <string_view>
#include <type_traits>

namespace agentry {

/// The caller's T, given to a tool that takes agentry::context<T>. Copying it copies the
/// reference; the object is the caller's and lives for the call.
template <class T>
class context {
    static_assert(!std::is_reference_v<T> && !std::is_void_v<T>,
                  "agentry: context<T>: T must be an object type (the context is passed by reference already)");

public:
    using type = T;

    explicit constexpr context(T& value) noexcept : value_(&value) {}
    /// context<const T> from context<T>.
    template <class U>
        requires(std::is_same_v<const U, T> && !std::is_same_v<U, T>)
    constexpr context(context<U> other) noexcept : value_(&other.get()) {}

    constexpr T& get() const noexcept { return *value_; }
    constexpr T& operator*() const noexcept { return *value_; }
    constexpr T* operator->() const noexcept { return value_; }

private:
    T* value_;
};

/// One progress report of a running tool.
struct progress_update {
    /// The progress so far; grows with each report of a call.
    double progress = 0;
    /// The progress at which the call is done, when known.
    std::optional<double> total;
    std::string message;
};

/// Receives a call's progress reports, on the thread running the tool.
using progress_sink = std::function<void(const progress_update&)>;

/// The caller's side of one tool call, besides the arguments and the context.
struct call_scope {
    /// Given to a tool that takes agentry::stop_token. A default token never stops.
    agentry::stop_token stop{};
    /// Receives the reports of a tool that takes agentry::progress; may be empty.
    progress_sink on_progress{};
    /// The run the call belongs to, given to a tool that takes agentry::call_info; empty when
    /// the caller gives none. The text is the caller's and must outlive the call.
    std::string_view run_id{};
    /// The call's own id (the model's tool call id in an agent's run), as run_id.
    std::string_view call_id{};
    /// The span of the call when the caller traces (telemetry/observer.hpp): an MCP toolset
    /// sends it on as the request's traceparent. Not valid(): none.
    trace_context trace{};
};

/// Which call a tool is running in, from the caller's call_scope: a tool that writes can key
/// its writes on the pair, so that a call run again (a durable run resumed after a crash)
/// repeats no effect. Both are empty when the caller gives none; they are valid for the call.
struct call_info {
    std::string_view run_id;
    std::string_view call_id;
};

/// A tool's progress reporter: report(done, total, message). Cheap to copy; report does
/// nothing when the caller gave no sink. An exception from the sink fails the call as the
/// tool's own would.
class progress {
public:
    constexpr progress() noexcept = default;
    explicit constexpr progress(const progress_sink* sink) noexcept : sink_(sink && *sink ? sink : nullptr) {}

    /// Someone receives the reports (so that a tool can skip preparing them otherwise).
    constexpr bool active() const noexcept { return sink_ != nullptr; }

    void report(double done, std::optional<double> total = {}, std::string_view message = {}) const {
        if (sink_) (*sink_)(progress_update{done, total, std::string(message)});
    }

private:
    const progress_sink* sink_ = nullptr;
};

namespace detail {

enum class injected : unsigned char { none, context, stop, progress, info };

template <class T>
struct injected_of {
    static constexpr injected kind = injected::none;
};
template <class T>
struct injected_of<context<T>> {
    static constexpr injected kind = injected::context;
    using context_type = std::remove_cv_t<T>;
};
template <>
struct injected_of<agentry::stop_token> {
    static constexpr injected kind = injected::stop;
};
template <>
struct injected_of<progress> {
    static constexpr injected kind = injected::progress;
};
template <>
struct injected_of<call_info> {
    static constexpr injected kind = injected::info;
};

/// The kind of parameter type P (as declared, with its reference and const).
template <class P>
inline constexpr injected injected_kind = injected_of<std::remove_cvref_t<P>>::kind;

template <class P>
inline constexpr bool is_injected = injected_kind<P> != injected::none;

/// The scope of a call made without one.
inline const call_scope& no_scope() noexcept {
    static const call_scope scope{};
    return scope;
}

} // namespace detail

} // namespace agentry

#endif
