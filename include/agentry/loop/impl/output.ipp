// SPDX-License-Identifier: BSL-1.0
#ifndef AGENTRY_LOOP_IMPL_OUTPUT_IPP
#define AGENTRY_LOOP_IMPL_OUTPUT_IPP

// The definitions of the typed output (loop/output.hpp): included by it header-only, and by
// <agentry/src.hpp> in separate compilation (detail/separate.hpp).

#include <agentry/detail/separate.hpp>
#include <agentry/loop/output.hpp>
#include <agentry/loop/result.hpp>
#include <agentry/provider/message.hpp>

#include <cstddef>
#include <cstdint>
#include <string>
#include <utility>
#include <vector>

namespace agentry::detail {

AGENTRY_DECL std::string output_errors_text(const std::vector<json::read_error>& errors) {
    std::string text;
    for (std::size_t i = 0; i != errors.size(); ++i) {
        if (i != 0) text += "; ";
        text += errors[i].to_string();
    }
    return text;
}

AGENTRY_TEMPLATE_DEF
output_verdict output_refused(const std::string& errors, std::uint32_t& repairs, std::uint32_t max_repairs,
                              std::vector<message>& history, run_result& result) {
    if (repairs < max_repairs) {
        ++repairs;
        history.push_back(message::user("Your answer does not match the required JSON output format: " + errors +
                                        ". Answer again with the whole JSON object, corrected, and nothing else."));
        return output_verdict::repair;
    }
    result.stop = stop_reason::invalid_output_exhausted;
    result.text = "The model's answer did not match the output type after " + std::to_string(repairs) +
                  (repairs == 1 ? " repair: " : " repairs: ") + errors;
    return output_verdict::exhausted;
}

AGENTRY_TEMPLATE_DEF
void move_result(run_result& to, run_result&& result) noexcept { to = std::move(result); }

} // namespace agentry::detail

#endif
