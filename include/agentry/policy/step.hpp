// SPDX-License-Identifier: BSL-1.0
#ifndef AGENTRY_POLICY_STEP_HPP
#define AGENTRY_POLICY_STEP_HPP

// The record of one tool call as it passes the call pipeline (policy/pipeline.hpp): its tries,
// its timing and what the model was sent; run_result::steps lists them.

#include <agentry/detail/chrono.hpp>
#include <agentry/policy/approval.hpp>
#include <agentry/tool_result.hpp>

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace agentry {

/// One try of a tool for a step: the call's tool (retries count up from 1), then any fallback.
struct attempt {
    std::string tool;
    /// 1 for the first try of `tool` in this step, 2 for its first retry, ...
    std::uint32_t number = 1;
    tool_status status = tool_status::ok;
    /// The kind of a failure the tool returned (agentry::outcome, std::expected).
    std::optional<failure_kind> failure;
    /// The try passed its timeout and was stopped or abandoned.
    bool timed_out = false;
    std::chrono::microseconds duration{0};
};

/// One tool call of a run.
struct step {
    std::uint32_t turn = 0;
    std::string id;
    std::string tool;
    std::string arguments;
    tool_status status = tool_status::ok;
    /// The start of what the model was sent back (at most 200 bytes).
    std::string result_excerpt;
    /// The whole result, when it was longer than loop_config::max_result_size and kept for
    /// read_result (large_result::page, summary): the model was sent its first page or a summary.
    /// Empty otherwise.
    std::string kept_result;
    std::vector<std::string> repairs;
    std::chrono::microseconds duration{0};
    /// The call passed loop_config::tool_timeout and was abandoned.
    bool timed_out = false;
    /// The approver changed the arguments; `arguments` are the ones run.
    bool arguments_edited = false;
    /// For a tool_error from a returned failure: its kind (of the last try).
    std::optional<failure_kind> failure;
    /// Every try, in order (empty when the call was not run: denied, rate limited).
    std::vector<attempt> attempts;
    /// The fallback tool whose result the model got; empty when none answered.
    std::string fallback;
    /// When the call started, from the start of the run.
    std::chrono::microseconds started{0};
    /// The decision on a call of a tool that needs approval (the approver's, or one given to
    /// resume); empty when none was needed.
    std::optional<approval_kind> decision;
};

} // namespace agentry

#endif
