// SPDX-License-Identifier: BSL-1.0
#ifndef AGENTRY_MCP_DETAIL_SIGPIPE_HPP
#define AGENTRY_MCP_DETAIL_SIGPIPE_HPP

// Writing to a pipe or socket whose reader is gone raises SIGPIPE, which ends the process by
// default. A library must not change the process's signal dispositions, so while a
// sigpipe_blocked lives, SIGPIPE is blocked for the calling thread only: such a write then fails
// with EPIPE, and the SIGPIPE it raised (directed at this thread) is taken off the pending set
// before the thread's signal mask is restored. A SIGPIPE already pending before is left alone.
// Elsewhere than Linux and the BSDs (no sigtimedwait), it does nothing.

#if defined(__unix__) && !defined(__APPLE__)
#include <csignal>
#include <ctime>
#include <pthread.h>
#endif

namespace agentry::mcp::detail {

#if defined(__unix__) && !defined(__APPLE__)

class sigpipe_blocked {
public:
    sigpipe_blocked() noexcept {
        sigemptyset(&pipe_);
        sigaddset(&pipe_, SIGPIPE);
        active_ = pthread_sigmask(SIG_BLOCK, &pipe_, &previous_) == 0;
        if (!active_) return;
        sigset_t pending;
        sigemptyset(&pending);
        was_pending_ = sigpending(&pending) == 0 && sigismember(&pending, SIGPIPE) == 1;
    }
    ~sigpipe_blocked() {
        if (!active_) return;
        if (!was_pending_) {
            const timespec zero{0, 0};
            sigtimedwait(&pipe_, nullptr, &zero);
        }
        pthread_sigmask(SIG_SETMASK, &previous_, nullptr);
    }
    sigpipe_blocked(const sigpipe_blocked&) = delete;
    sigpipe_blocked& operator=(const sigpipe_blocked&) = delete;

private:
    sigset_t pipe_;
    sigset_t previous_;
    bool active_ = false;
    bool was_pending_ = false;
};

#else

class sigpipe_blocked {
public:
    sigpipe_blocked() noexcept {}
};

#endif

} // namespace agentry::mcp::detail

#endif
