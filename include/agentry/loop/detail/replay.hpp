// SPDX-License-Identifier: BSL-1.0
#ifndef AGENTRY_LOOP_DETAIL_REPLAY_HPP
#define AGENTRY_LOOP_DETAIL_REPLAY_HPP

// The loop's memory of a run continued from its progress (agentry::continuation, or agentry::approvals with
// progress, after a restore in another process): the loop detector's window and the count of
// invalid-argument rounds per tool, rebuilt from the steps the run has taken. Each turn's calls
// make one block of steps with the same turn number, recorded in the order the loop recorded
// them.

#include <agentry/detail/separate.hpp>
#include <agentry/loop/detect.hpp>
#include <agentry/loop/result.hpp>
#include <agentry/tool_result.hpp>

#include <cstddef>
#include <cstdint>
#include <functional>
#include <map>
#include <span>
#include <string>

namespace agentry::detail {

AGENTRY_DECL void replay_rounds(std::span<const step> steps, loop_detector& loops,
                                std::map<std::string, std::uint32_t, std::less<>>& invalid_rounds);

} // namespace agentry::detail

#if !defined(AGENTRY_SEPARATE_COMPILATION)
#include <agentry/loop/impl/replay.ipp>
#endif

#endif
