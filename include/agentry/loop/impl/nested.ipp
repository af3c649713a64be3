// SPDX-License-Identifier: BSL-1.0
#ifndef AGENTRY_LOOP_IMPL_NESTED_IPP
#define AGENTRY_LOOP_IMPL_NESTED_IPP

// The definitions of the sub-runs of agent_tool (loop/detail/nested.hpp): included by it
// header-only, and by <agentry/src.hpp> in separate compilation (detail/separate.hpp).

#include <agentry/detail/separate.hpp>
#include <agentry/loop/detail/nested.hpp>
#include <agentry/loop/result.hpp>

#include <algorithm>
#include <cstdint>
#include <mutex>
#include <utility>
#include <vector>

namespace agentry::detail {

AGENTRY_DECL void nested_runs::set_tokens_left(std::uint64_t n) {
    std::lock_guard lock(mutex);
    tokens_left = n;
}

AGENTRY_DECL std::uint64_t nested_runs::left() {
    std::lock_guard lock(mutex);
    return tokens_left;
}

AGENTRY_DECL void nested_runs::add(sub_run r) {
    std::lock_guard lock(mutex);
    const std::uint64_t used = r.result.usage.input_tokens + r.result.usage.output_tokens;
    if (tokens_left != unlimited) tokens_left = used >= tokens_left ? 0 : tokens_left - used;
    ended.push_back(std::move(r));
}

AGENTRY_DECL void nested_runs::add_summary(const token_usage& u) {
    std::lock_guard lock(mutex);
    summaries += u;
    if (tokens_left != unlimited) tokens_left -= std::min(tokens_left, u.input_tokens + u.output_tokens);
}

AGENTRY_DECL void nested_runs::collect(run_result& result) {
    std::lock_guard lock(mutex);
    for (sub_run& r : ended) {
        result.usage += r.result.usage;
        result.sub_runs.push_back(std::move(r));
    }
    ended.clear();
    result.usage += summaries;
    result.summary_usage += summaries;
    summaries = {};
}

AGENTRY_DECL const nested_call*& current_nested_call() noexcept {
    thread_local const nested_call* current = nullptr;
    return current;
}

} // namespace agentry::detail

#endif
