// SPDX-License-Identifier: BSL-1.0
#ifndef AGENTRY_LOOP_DETECT_HPP
#define AGENTRY_LOOP_DETECT_HPP

// Loop detection: a window of recent tool-call signatures (name and arguments); a loop is a
// block of one or more calls repeated `threshold` times in a row at the end of the window:
// A,A,A (block of 1) or A,B,A,B,A,B (block of 2).

#include <cstddef>
#include <deque>
#include <string>
#include <string_view>

namespace agentry::detail {

class loop_detector {
public:
    loop_detector(std::size_t window, std::size_t threshold) : window_(window), threshold_(threshold) {}

    /// Records a call; true when the calls now end in a loop.
    bool record(std::string_view name, std::string_view arguments) {
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

private:
    std::size_t window_;
    std::size_t threshold_;
    std::deque<std::string> recent_;
};

} // namespace agentry::detail

#endif
