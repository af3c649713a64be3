// SPDX-License-Identifier: BSL-1.0
#ifndef AGENTRY_MCP_DETAIL_LINE_READER_HPP
#define AGENTRY_MCP_DETAIL_LINE_READER_HPP

// Newline-delimited messages from a stream buffer, each at most `limit` bytes. A longer line is
// read to its end without being stored and reported as oversized, so memory stays bounded by
// the limit whatever the input.

#include <cstddef>
#include <streambuf>
#include <string>

namespace agentry::mcp::detail {

enum class line_status : unsigned char { line, oversized, end };

class line_reader {
public:
    line_reader(std::streambuf* in, std::size_t limit) noexcept : in_(in), limit_(limit) {}

    /// The next line, without its "\n" or "\r\n", in `line`. A last line without a newline
    /// counts; an empty line is skipped. Stream buffer exceptions count as the end.
    line_status next(std::string& line) {
        using traits = std::streambuf::traits_type;
        for (;;) {
            line.clear();
            std::size_t length = 0;
            bool any = false;
            for (;;) {
                int c = traits::eof();
                try {
                    c = in_ ? in_->sbumpc() : traits::eof();
                } catch (...) {
                    c = traits::eof();
                }
                if (c == traits::eof()) {
                    in_ = nullptr;
                    if (!any) return line_status::end;
                    break;
                }
                any = true;
                if (c == '\n') break;
                if (++length <= limit_ + 1) line.push_back(traits::to_char_type(c));
            }
            if (!line.empty() && line.back() == '\r' && length <= limit_ + 1) {
                line.pop_back();
                --length;
            }
            if (length > limit_) {
                line.clear();
                line.shrink_to_fit();
                return line_status::oversized;
            }
            if (!line.empty()) return line_status::line;
        }
    }

private:
    std::streambuf* in_;
    std::size_t limit_;
};

} // namespace agentry::mcp::detail

#endif
