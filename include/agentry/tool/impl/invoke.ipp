// SPDX-License-Identifier: BSL-1.0
#ifndef AGENTRY_TOOL_IMPL_INVOKE_IPP
#define AGENTRY_TOOL_IMPL_INVOKE_IPP

// The parts of a call that are not templates: included by tool/detail/invoke.hpp (header-only)
// or by src.hpp (separate compilation).

#include <agentry/detail/separate.hpp>
#include <agentry/detail/text.hpp>
#include <agentry/json/error.hpp>
#include <agentry/json/writer.hpp>
#include <agentry/tool/detail/invoke.hpp>
#include <agentry/tool_result.hpp>

#include <cstddef>
#include <exception>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace agentry::detail {

AGENTRY_DECL std::string invalid_arguments_text(std::string_view tool, const std::vector<json::read_error>& errors) {
    std::string text(tool);
    text += ": invalid arguments: ";
    for (std::size_t i = 0; i != errors.size(); ++i) {
        if (i != 0) text += "; ";
        text += errors[i].to_string();
    }
    // A message may end a sentence itself ("did you mean \"max_results\"?").
    if (!text.ends_with('?') && !text.ends_with('.')) text += '.';
    text += " Fix the arguments and call ";
    text += tool;
    text += " again.";
    return text;
}

AGENTRY_DECL void set_invalid(tool_result& result, std::string_view tool, std::vector<json::read_error>& errors) {
    result.status = tool_status::invalid_arguments;
    result.content = invalid_arguments_text(tool, errors);
    result.errors = std::move(errors);
}

AGENTRY_DECL void set_thrown(tool_result& result, std::string_view tool) {
    result.status = tool_status::tool_error;
    try {
        throw;
    } catch (const std::exception& e) {
        result.content = std::string(tool) + " failed: " + e.what();
    } catch (...) {
        result.content = std::string(tool) + " failed with an exception that is not a std::exception";
    }
}

AGENTRY_DECL bool cut_text(std::string& text, std::size_t cap) {
    if (cap == 0 || text.size() <= cap) return false;
    std::string marker(json::truncation_marker);
    marker += std::to_string(cap);
    marker += json::truncation_marker_end;
    text.resize(utf8_cut(text, cap > marker.size() ? cap - marker.size() : 0));
    text += marker;
    return true;
}

} // namespace agentry::detail

#endif
