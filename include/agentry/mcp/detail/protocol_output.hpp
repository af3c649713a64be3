// SPDX-License-Identifier: BSL-1.0
#ifndef AGENTRY_MCP_DETAIL_PROTOCOL_OUTPUT_HPP
#define AGENTRY_MCP_DETAIL_PROTOCOL_OUTPUT_HPP

// Standard output kept for protocol messages. While a protocol_output lives (POSIX), file
// descriptor 1 is a copy of standard error, so that whatever a tool prints (printf, std::cout)
// lands in the log instead of corrupting the protocol; stream() writes to the original standard
// output. Elsewhere, or when the descriptors cannot be copied, stream() is std::cout. A write
// to a closed reader fails (EPIPE) instead of raising SIGPIPE (sigpipe.hpp).

#include <agentry/mcp/detail/sigpipe.hpp>

#include <cstddef>
#include <cstdio>
#include <iostream>
#include <ostream>
#include <streambuf>

#if defined(__unix__) || defined(__APPLE__)
#include <cerrno>
#include <memory>
#include <unistd.h>
#endif

namespace agentry::mcp::detail {

#if defined(__unix__) || defined(__APPLE__)

// A buffered output stream buffer over a file descriptor.
class fd_buffer : public std::streambuf {
public:
    fd_buffer() noexcept { setp(buffer_, buffer_ + sizeof buffer_); }
    ~fd_buffer() override { sync(); }

    void fd(int fd) noexcept { fd_ = fd; }

protected:
    int_type overflow(int_type c) override {
        if (!drain()) return traits_type::eof();
        if (!traits_type::eq_int_type(c, traits_type::eof())) {
            *pptr() = traits_type::to_char_type(c);
            pbump(1);
        }
        return traits_type::not_eof(c);
    }
    int sync() override { return drain() ? 0 : -1; }

private:
    bool drain() noexcept {
        const sigpipe_blocked guard;
        const char* p = pbase();
        while (p != pptr()) {
            const ::ssize_t n = ::write(fd_, p, std::size_t(pptr() - p));
            if (n < 0 && errno == EINTR) continue;
            if (n <= 0) return false;
            p += n;
        }
        setp(buffer_, buffer_ + sizeof buffer_);
        return true;
    }

    int fd_ = -1;
    char buffer_[64 * 1024];
};

class protocol_output {
public:
    protocol_output() {
        try {
            buffer_ = std::make_unique<fd_buffer>();
        } catch (...) {
            return;
        }
        std::cout.flush();
        std::fflush(stdout);
        fd_ = ::dup(1);
        if (fd_ < 0 || ::dup2(2, 1) < 0) {
            if (fd_ >= 0) ::close(fd_);
            fd_ = -1;
            buffer_.reset();
            return;
        }
        buffer_->fd(fd_);
        stream_.rdbuf(buffer_.get());
    }
    ~protocol_output() {
        if (fd_ < 0) return;
        stream_.flush();
        stream_.rdbuf(nullptr);
        buffer_.reset();
        std::cout.flush();
        std::fflush(stdout);
        ::dup2(fd_, 1);
        ::close(fd_);
    }
    protocol_output(const protocol_output&) = delete;
    protocol_output& operator=(const protocol_output&) = delete;

    std::ostream& stream() noexcept { return buffer_ ? stream_ : std::cout; }

private:
    int fd_ = -1;
    std::unique_ptr<fd_buffer> buffer_;
    std::ostream stream_{nullptr};
};

#else

class protocol_output {
public:
    std::ostream& stream() noexcept { return std::cout; }
};

#endif

} // namespace agentry::mcp::detail

#endif
