// SPDX-License-Identifier: BSL-1.0
#ifndef AGENTRY_MCP_SESSION_HPP
#define AGENTRY_MCP_SESSION_HPP

// agentry::mcp::session: the state of one client connection: the negotiated protocol version
// and the requests in progress, which notifications/cancelled can cancel. Thread-safe: a
// transport may read messages on one thread and answer them on another.
//
// A transport that reads ahead (stdio) calls expect(id) when it reads a request, so that a
// cancellation arriving before the request is handled is recorded; server::handle calls
// expect and finish itself. The memory held is one entry per request in progress.
//
// Over HTTP with authorization, a session also holds the identity whose token started it
// (owner()); server::handle makes it current_identity() while a tool runs.

#include <agentry/mcp/auth.hpp>

#include <algorithm>
#include <memory>
#include <mutex>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace agentry::mcp {

class session {
public:
    session() = default;
    /// A session started by `who` (a verified token's identity; nullptr for none).
    explicit session(std::shared_ptr<const identity> who) noexcept : owner_(std::move(who)) {}
    session(const session&) = delete;
    session& operator=(const session&) = delete;

    /// The negotiated protocol version; empty before `initialize` succeeded.
    std::string protocol_version() const {
        std::lock_guard lock(mutex_);
        return version_;
    }
    bool initialized() const {
        std::lock_guard lock(mutex_);
        return !version_.empty();
    }
    /// Records the version `initialize` negotiated. False when the session already has one.
    bool initialize(std::string_view version) {
        std::lock_guard lock(mutex_);
        if (!version_.empty()) return false;
        version_ = std::string(version);
        return true;
    }

    /// The identity that started the session; nullptr without authorization.
    const identity* owner() const noexcept { return owner_.get(); }

    /// The request `id` (JSON text) was received and will be handled.
    void expect(std::string_view id) {
        std::lock_guard lock(mutex_);
        if (find(id) == pending_.end()) pending_.push_back({std::string(id), false});
    }
    /// Cancels the request `id` if it is in progress; an unknown id is ignored, as MCP allows.
    void cancel(std::string_view id) {
        std::lock_guard lock(mutex_);
        if (const auto it = find(id); it != pending_.end()) it->cancelled = true;
    }
    bool cancelled(std::string_view id) const {
        std::lock_guard lock(mutex_);
        const auto it = std::find_if(pending_.begin(), pending_.end(), [&](const entry& e) { return e.id == id; });
        return it != pending_.end() && it->cancelled;
    }
    /// The request `id` is done; true when it was cancelled (its response is then not sent).
    bool finish(std::string_view id) {
        std::lock_guard lock(mutex_);
        const auto it = find(id);
        if (it == pending_.end()) return false;
        const bool was_cancelled = it->cancelled;
        pending_.erase(it);
        return was_cancelled;
    }
    /// Requests in progress.
    std::size_t pending() const {
        std::lock_guard lock(mutex_);
        return pending_.size();
    }

private:
    struct entry {
        std::string id;
        bool cancelled;
    };
    std::vector<entry>::iterator find(std::string_view id) {
        return std::find_if(pending_.begin(), pending_.end(), [&](const entry& e) { return e.id == id; });
    }

    const std::shared_ptr<const identity> owner_;
    mutable std::mutex mutex_;
    std::string version_;
    std::vector<entry> pending_;
};

} // namespace agentry::mcp

#endif
