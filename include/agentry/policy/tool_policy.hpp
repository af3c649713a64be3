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
//   };
//
// The policied tool is the same tool (same name, schema, definitions, registry.call) with the
// policy as a constant, read by the agent loop. A tool without a policy is untouched: its type,
// its dispatch and the agent's handling of it are what they were. For loop_config's
// permission ceiling such a tool counts as destructive, the highest level.

#include <agentry/tool.hpp>

#include <cstdint>
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

/// A tool's policy; a structural aggregate, so that it is a template argument.
struct tool_policy {
    permission level = permission::read_only;
    /// Each call is shown to the agent's approver first (see agent::set_approver).
    bool needs_approval = false;
    rate_limit rate{};
    /// Running a call twice with the same arguments has the effect of running it once.
    bool idempotent = false;
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
