// SPDX-License-Identifier: BSL-1.0
#ifndef AGENTRY_MCP_DETAIL_SUBSCRIBERS_HPP
#define AGENTRY_MCP_DETAIL_SUBSCRIBERS_HPP

// The sessions of a server that hold a resource subscription (resources/subscribe), for
// server::notify_resource_updated. The server and each such session share it, so either may end
// first: a session leaves it when it ends.

#include <algorithm>
#include <mutex>
#include <vector>

namespace agentry::mcp {

class session;

namespace detail {

class subscriber_list {
public:
    void add(session* s) {
        std::lock_guard lock(mutex_);
        if (std::find(sessions_.begin(), sessions_.end(), s) == sessions_.end()) sessions_.push_back(s);
    }
    void remove(const session* s) noexcept {
        std::lock_guard lock(mutex_);
        std::erase(sessions_, s);
    }
    /// Calls f(session&) for each session, under the lock: no session ends meanwhile.
    template <class F>
    void each(F&& f) const {
        std::lock_guard lock(mutex_);
        for (session* s : sessions_) f(*s);
    }

private:
    mutable std::mutex mutex_;
    std::vector<session*> sessions_;
};

} // namespace detail

} // namespace agentry::mcp

#endif
