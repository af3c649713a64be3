// SPDX-License-Identifier: BSL-1.0
#ifndef AGENTRY_LOOP_DETAIL_AGENT_ACCESS_HPP
#define AGENTRY_LOOP_DETAIL_AGENT_ACCESS_HPP

// What agent_tool (loop/agent_tool.hpp) and the durable runs (store/durable.hpp) use of an
// agent besides its public members; defined in agent.hpp, which is above agent_tool.hpp.

namespace agentry::detail {

template <class Agent>
struct agent_access;

} // namespace agentry::detail

#endif
