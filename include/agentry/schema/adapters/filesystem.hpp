// SPDX-License-Identifier: BSL-1.0
#ifndef AGENTRY_SCHEMA_ADAPTERS_FILESYSTEM_HPP
#define AGENTRY_SCHEMA_ADAPTERS_FILESYSTEM_HPP

// std::filesystem::path through agentry::adapter: a string, the path's UTF-8 text as given
// (no normalisation; on POSIX its bytes, on Windows converted from UTF-16).
//
// Include this header to use std::filesystem::path in tools: the other agentry headers leave
// it out, as <filesystem> costs more to compile than the rest of them together.

#include <agentry/schema/adapter.hpp>

#include <filesystem>
#include <string>

namespace agentry {

template <>
struct adapter<std::filesystem::path> {
    using json_type = std::string;
    static std::string to_json(const std::filesystem::path& p) {
        const std::u8string text = p.u8string();
        return std::string(text.begin(), text.end());
    }
    static std::filesystem::path from_json(const std::string& text) {
        return std::filesystem::path(std::u8string(text.begin(), text.end()));
    }
};

} // namespace agentry

#endif
