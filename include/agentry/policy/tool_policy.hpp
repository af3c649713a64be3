// SPDX-License-Identifier: BSL-1.0
#ifndef AGENTRY_POLICY_TOOL_POLICY_HPP
#define AGENTRY_POLICY_TOOL_POLICY_HPP

// agentry::with_policy<tool_policy{...}>(tool<...>(f)): a tool with a policy declared beside it.
//
//   constexpr agentry::registry tools{
//       agentry::tool<"read_file", "Reads a file", "path">(read_file),
//       agentry::with_policy<agentry::tool_policy{.level = agentry::permission::destructive,
//                                                 .needs_approval = true,
//                                                 .rate = {.calls = 5, .per_ms = 60'000}}>(
//           agentry::tool<"delete_file", "Deletes a file", "path">(delete_file)),
//       agentry::with_policy<agentry::tool_policy{.idempotent = true,
//                                                 .timeout = std::chrono::seconds(5),
//                                                 .retry = {.attempts = 3},
//                                                 .fallback = {"cached_quote"}}>(
//           agentry::tool<"live_quote", "A stock quote", "symbol">(live_quote)),
//   };
//
// The policied tool is the same tool (same name, schema, definitions, registry.call) with the
// policy as a constant, read by the agent loop. A tool without a policy is untouched: its type,
// its dispatch and the agent's handling of it are what they were. For loop_config's
// permission ceiling such a tool counts as destructive, the highest level.

#include <agentry/detail/chrono.hpp>
#include <agentry/json/error.hpp>
#include <agentry/policy/fixed_duration.hpp>
#include <agentry/reflect/detail/names.hpp>
#include <agentry/tool.hpp>

#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>
#include <type_traits>

namespace agentry {

/// What a tool may do, lowest first.
enum class permission : unsigned char {
    read_only,    // reads only; calling it again changes nothing
    write,        // changes state that can be changed back
    destructive,  // changes state that cannot be restored (deletes, payments, messages sent)
};

constexpr std::string_view to_string(permission p) noexcept {
    switch (p) {
    case permission::read_only: return "read_only";
    case permission::write: return "write";
    case permission::destructive: return "destructive";
    }
    return "unknown";
}

/// At most `calls` calls per `per_ms` milliseconds (a token bucket of `calls` tokens refilled
/// evenly over the window). calls 0: no limit.
struct rate_limit {
    std::uint32_t calls = 0;
    std::int64_t per_ms = 1000;

    constexpr bool limited() const noexcept { return calls != 0; }
};

/// Retries of a failed call: a failure of kind transient (from agentry::outcome or
/// std::expected) or a timeout is tried again, up to `attempts` tries in all, after a backoff
/// doubling from initial_backoff up to max_backoff, with jitter of +-50 %. Only for an
/// idempotent tool (with_policy refuses attempts > 1 otherwise); no other failure is retried.
struct tool_retry {
    std::uint32_t attempts = 1;
    fixed_duration initial_backoff = std::chrono::milliseconds(100);
    fixed_duration max_backoff = std::chrono::seconds(5);
};

/// The longest name of a fallback tool (the providers' limit on tool names).
inline constexpr std::size_t max_tool_name_size = detail::max_name_size;

/// How a fallback takes a failed call's arguments when its parameters differ (made by
/// agentry::adapt<&f>, see <agentry/policy/fallback.hpp>).
struct fallback_adapter {
    /// Reads the failed call's arguments, converts them and writes the fallback's; false when
    /// they could not be read or the adapter threw.
    bool (*convert)(std::string_view arguments, const json::read_options& options, std::string& out) = nullptr;
    /// The adapter's parameter and result types (addresses of reflect::type_tag<T>), checked
    /// against the two tools' parameters by the agent.
    const void* from = nullptr;
    const void* to = nullptr;
};

/// One tool of a fallback chain: its name, and the adapter that turns the failed call's
/// arguments into its own (none: it takes them as they are). Made from a string literal
/// ("backup") or by agentry::adapt<&f>("backup").
struct fallback_tool {
    // Public, so that the type is structural. The adapter is held through a pointer to a
    // variable: a function pointer cannot be part of a template argument with every compiler.
    char name_text[max_tool_name_size + 1]{};
    std::size_t name_size = 0;
    const fallback_adapter* adapter = nullptr;

    constexpr fallback_tool() = default;
    template <std::size_t N>
    constexpr fallback_tool(const char (&name)[N]) {  // NOLINT: implicit on purpose
        static_assert(detail::name_check<N - 1 <= max_tool_name_size ? detail::name_error::none
                                                                    : detail::name_error::fallback_name_too_long>::ok);
        for (std::size_t i = 0; i + 1 < N; ++i) name_text[i] = name[i];
        name_size = N - 1;
    }

    constexpr std::string_view name() const noexcept { return {name_text, name_size}; }
};

/// The most tools a fallback chain names.
inline constexpr std::size_t max_fallbacks = 4;

/// The tools tried, in order, after a call of this tool fails (see agent's fallbacks):
/// .fallback = {"cached_quote", agentry::adapt<&to_search>("web_search")}.
struct fallback_chain {
    fallback_tool tools[max_fallbacks]{};
    std::size_t size = 0;

    constexpr fallback_chain() = default;
    template <class... T>
        requires(sizeof...(T) >= 1 && (std::is_constructible_v<fallback_tool, const T&> && ...))
    constexpr fallback_chain(const T&... t) {  // NOLINT: implicit on purpose
        static_assert(sizeof...(T) <= max_fallbacks,
                      "agentry: tool_policy::fallback: a fallback chain names at most 4 tools");
        ((tools[size++] = fallback_tool(t)), ...);
    }

    constexpr bool empty() const noexcept { return size == 0; }
};

/// A tool's policy; a structural aggregate, so that it is a template argument.
struct tool_policy {
    permission level = permission::read_only;
    /// Each call is shown to the agent's approver first (see agent_options::approver), or stops the
    /// run for a decision when there is none (stop_reason::approval_pending).
    bool needs_approval = false;
    rate_limit rate{};
    /// Running a call twice with the same arguments has the effect of running it once.
    bool idempotent = false;
    /// Time one call may take, instead of loop_config::tool_timeout; 0: that one.
    fixed_duration timeout{};
    tool_retry retry{};
    /// Tools tried after this one fails (a tool_error after its retries, or a timeout).
    fallback_chain fallback{};
};

/// A tool with a policy: the tool itself (a tool_t as base) plus the constant `policy`.
template <tool_policy Policy, class Tool>
struct policied_tool : Tool {
    static constexpr tool_policy policy = Policy;
};

namespace detail {
template <class T>
inline constexpr bool is_tool_t = false;
template <fixed_string Name, fixed_string Description, class F, fixed_string... Params>
inline constexpr bool is_tool_t<tool_t<Name, Description, F, Params...>> = true;
} // namespace detail

template <tool_policy Policy, class Tool>
inline constexpr bool is_tool<policied_tool<Policy, Tool>> = is_tool<Tool>;

/// `tool` with `Policy` declared for it.
template <tool_policy Policy, class Tool>
constexpr auto with_policy(Tool tool) {
    static_assert(detail::is_tool_t<Tool>,
                  "agentry: with_policy<policy>(t): t must be one tool made with agentry::tool<\"name\", "
                  "\"description\">(f), given a policy once");
    static_assert(Policy.rate.calls == 0 || Policy.rate.per_ms > 0,
                  "agentry: with_policy<policy>: rate_limit::per_ms must be positive when rate_limit::calls is set");
    static_assert(detail::valid_config_time(Policy.timeout) && detail::valid_config_time(Policy.retry.initial_backoff) &&
                      detail::valid_config_time(Policy.retry.max_backoff),
                  "agentry: with_policy<policy>: timeout, retry.initial_backoff and retry.max_backoff must be between "
                  "0 and 100 years");
    static_assert(Policy.retry.attempts >= 1,
                  "agentry: with_policy<policy>: retry.attempts counts every try, the first included; it must be at "
                  "least 1 (1: no retry)");
    static_assert(Policy.retry.attempts == 1 || Policy.idempotent,
                  "agentry: with_policy<policy>: retry.attempts > 1 needs idempotent = true (a retried call may run "
                  "twice); declare the tool idempotent or leave retries out");
    if constexpr (detail::is_tool_t<Tool>) return policied_tool<Policy, Tool>{std::move(tool)};
    else return detail::unreadable_tool{};
}

template <class T>
inline constexpr bool has_policy = false;
template <tool_policy Policy, class Tool>
inline constexpr bool has_policy<policied_tool<Policy, Tool>> = true;

/// The policy of tool type T; a tool without one counts as destructive, needing no approval.
template <class T>
consteval tool_policy policy_of() noexcept {
    if constexpr (has_policy<T>) return T::policy;
    else return tool_policy{.level = permission::destructive};
}

} // namespace agentry

#endif
