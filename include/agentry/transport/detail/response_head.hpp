// SPDX-License-Identifier: BSL-1.0
#ifndef AGENTRY_TRANSPORT_DETAIL_RESPONSE_HEAD_HPP
#define AGENTRY_TRANSPORT_DETAIL_RESPONSE_HEAD_HPP

// Reads a response head from its lines, one at a time, as an HTTP client hands them over
// (libcurl's header callback): a status line starts a new head, so interim 1xx responses
// (100 Continue, 103 Early Hints) are replaced by the final one; names keep their case;
// obsolete folded lines join the previous value; lines after the final head (trailers of a
// chunked body) are ignored.

#include <agentry/detail/text.hpp>
#include <agentry/transport/transport.hpp>

#include <string_view>

namespace agentry::detail {

class response_head {
public:
    /// Takes one line, with or without its line ending; true when it was the blank line
    /// ending the final (non-1xx) head.
    bool add_line(std::string_view line) {
        while (!line.empty() && (line.back() == '\n' || line.back() == '\r')) line.remove_suffix(1);
        if (line.substr(0, 5) == "HTTP/") {
            response_.status = status_of(line);
            response_.headers.clear();
            complete_ = false;
            return false;
        }
        if (complete_) return false;
        if (line.empty()) {
            if (response_.status < 200) return false;
            complete_ = true;
            return true;
        }
        if (line.front() == ' ' || line.front() == '\t') {
            if (!response_.headers.empty()) {
                std::string& value = response_.headers.back().value;
                if (!value.empty()) value.push_back(' ');
                value.append(agentry::detail::trim(line, " \t"));
            }
            return false;
        }
        const std::size_t colon = line.find(':');
        if (colon == std::string_view::npos || colon == 0) return false;
        response_.headers.push_back({std::string(line.substr(0, colon)), std::string(agentry::detail::trim(line.substr(colon + 1), " \t"))});
        return false;
    }

    /// The final head has been read.
    bool complete() const noexcept { return complete_; }

    /// The head read so far; its body is left to the caller.
    http_response& response() noexcept { return response_; }
    const http_response& response() const noexcept { return response_; }

private:
    // "HTTP/1.1 200 OK", "HTTP/2 200": the three digits after the first space; 0 if absent.
    static int status_of(std::string_view line) noexcept {
        const std::size_t space = line.find(' ');
        if (space == std::string_view::npos || line.size() < space + 4) return 0;
        int status = 0;
        for (std::size_t i = space + 1; i != space + 4; ++i) {
            if (line[i] < '0' || line[i] > '9') return 0;
            status = status * 10 + (line[i] - '0');
        }
        return status;
    }

    http_response response_;
    bool complete_ = false;
};

} // namespace agentry::detail

#endif
