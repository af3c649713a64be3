// SPDX-License-Identifier: BSL-1.0
#ifndef AGENTRY_LOOP_IMPL_DETECT_IPP
#define AGENTRY_LOOP_IMPL_DETECT_IPP

// The definitions of the loop detector (loop/detect.hpp): included by it header-only, and by
// <agentry/src.hpp> in separate compilation (detail/separate.hpp).

#include <agentry/detail/separate.hpp>
#include <agentry/loop/detect.hpp>

#include <cstddef>
#include <deque>
#include <string>
#include <string_view>
#include <utility>

namespace agentry::detail {

AGENTRY_DECL bool loop_detector::record(std::string_view name, std::string_view arguments) {
    if (threshold_ == 0) return false;
    std::string signature(name);
    signature.push_back('\0');
    signature.append(arguments);
    recent_.push_back(std::move(signature));
    if (recent_.size() > window_) recent_.pop_front();
    const std::size_t n = recent_.size();
    for (std::size_t block = 1; block * threshold_ <= n; ++block) {
        bool repeated = true;
        for (std::size_t i = n - block * threshold_; repeated && i + block < n; ++i)
            repeated = recent_[i] == recent_[i + block];
        if (repeated) return true;
    }
    return false;
}

} // namespace agentry::detail

#endif
