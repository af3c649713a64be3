// SPDX-License-Identifier: BSL-1.0
#ifndef AGENTRY_LOOP_IMPL_OUTPUT_IPP
#define AGENTRY_LOOP_IMPL_OUTPUT_IPP

// The definitions of the typed output (loop/output.hpp): included by it header-only, and by
// <agentry/src.hpp> in separate compilation (detail/separate.hpp).

#include <agentry/detail/separate.hpp>
#include <agentry/loop/output.hpp>

#include <cstddef>
#include <string>
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

} // namespace agentry::detail

#endif
