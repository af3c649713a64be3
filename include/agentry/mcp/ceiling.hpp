// SPDX-License-Identifier: BSL-1.0
#ifndef AGENTRY_MCP_CEILING_HPP
#define AGENTRY_MCP_CEILING_HPP

// agentry::mcp::ceiling<level>: the highest permission level (policy/tool_policy.hpp) a server
// may serve. Given to mcp::server, it makes a registry holding a tool above it a compile error
// that names the tool:
//
//   agentry::mcp::server server{tools, info, agentry::mcp::ceiling<agentry::permission::write>};
//
// A tool without a policy counts as destructive. A tool above the ceiling that needs approval
// is served, as in an agent: each call asks the client's user (detail/call_approval.hpp).

#include <agentry/policy/tool_policy.hpp>

namespace agentry::mcp {

template <permission Level>
struct ceiling_t {
    static constexpr permission level = Level;
};

template <permission Level>
inline constexpr ceiling_t<Level> ceiling{};

template <class T>
inline constexpr bool is_ceiling = false;
template <permission Level>
inline constexpr bool is_ceiling<ceiling_t<Level>> = true;

namespace detail {

/// Instantiated for a tool above the server's ceiling; its argument is the tool's name.
template <fixed_string Name>
struct served_tool_above_ceiling {
    static_assert(Name.size() == 0 && Name.size() != 0,
                  "agentry: mcp::ceiling: the registry holds a tool (named in the instantiation above) whose "
                  "permission level is above the server's ceiling and that needs no approval; lower the tool's "
                  "level with with_policy<tool_policy{.level = ...}>, give it needs_approval = true (each call then "
                  "asks the client's user), raise the ceiling, or serve a registry without it");
    static constexpr bool ok = true;
};

} // namespace detail

} // namespace agentry::mcp

#endif
