// SPDX-License-Identifier: BSL-1.0
#ifndef AGENTRY_LOOP_DETECT_HPP
#define AGENTRY_LOOP_DETECT_HPP

// Loop detection: a window of recent tool-call signatures (name and arguments); a loop is a
// block of one or more calls repeated `threshold` times in a row at the end of the window:
// A,A,A (block of 1) or A,B,A,B,A,B (block of 2).

#include <agentry/detail/separate.hpp>

#include <cstddef>
#include <deque>
#include <string>
#include <string_view>

namespace agentry::detail {

class loop_detector {
public:
    loop_detector(std::size_t window, std::size_t threshold) : window_(window), threshold_(threshold) {}

    /// Records a call; true when the calls now end in a loop.
    bool record(std::string_view name, std::string_view arguments);

private:
    std::size_t window_;
    std::size_t threshold_;
    std::deque<std::string> recent_;
};

} // namespace agentry::detail

#if !defined(AGENTRY_SEPARATE_COMPILATION)
#include <agentry/loop/impl/detect.ipp>
#endif

#endif
