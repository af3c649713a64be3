// SPDX-License-Identifier: BSL-1.0
#ifndef AGENTRY_LOOP_DETAIL_REPLAY_HPP
#define AGENTRY_LOOP_DETAIL_REPLAY_HPP

// The loop's memory of a run continued from its progress (agent::continue_run, or resume with
// progress, after a restore in another process): the loop detector's window and the count of
// invalid-argument rounds per tool, rebuilt from the steps the run has taken. Each turn's calls
// make one block of steps with the same turn number, recorded in the order the loop recorded
// them.

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

inline void replay_rounds(std::span<const step> steps, loop_detector& loops,
                          std::map<std::string, std::uint32_t, std::less<>>& invalid_rounds) {
    for (std::size_t begin = 0; begin != steps.size();) {
        std::size_t end = begin;
        std::map<std::string, bool, std::less<>> invalid_this_round;
        for (; end != steps.size() && steps[end].turn == steps[begin].turn; ++end) {
            const step& s = steps[end];
            if (s.status == tool_status::invalid_arguments) invalid_this_round[s.tool] = true;
            else if (s.status == tool_status::ok) invalid_this_round.try_emplace(s.tool, false);
            loops.record(s.tool, s.arguments);
        }
        for (const auto& [name, invalid] : invalid_this_round) {
            std::uint32_t& n = invalid_rounds[name];
            n = invalid ? n + 1 : 0;
        }
        begin = end;
    }
}

} // namespace agentry::detail

#endif
