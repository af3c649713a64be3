// SPDX-License-Identifier: BSL-1.0
#ifndef AGENTRY_LOOP_IMPL_REPLAY_IPP
#define AGENTRY_LOOP_IMPL_REPLAY_IPP

// The definitions of the replay of a run's progress (loop/detail/replay.hpp): included by it
// header-only, and by <agentry/src.hpp> in separate compilation (detail/separate.hpp).

#include <agentry/detail/separate.hpp>
#include <agentry/loop/detail/replay.hpp>
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
