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
// (owner()); server::handle makes it current_identity() while a tool runs. It also holds the
// log level the client set (logging/setLevel), a stop source per request in progress (a tool
// taking agentry::stop_token sees notifications/cancelled through it), the application's
// per-session context when the server has a context factory, and the URIs of the resources the
// client subscribed to (resources/subscribe).
//
// requests() holds the requests the server sent to the client and waits on (mcp::elicit,
// mcp::sample; see detail/server_requests.hpp).

#include <agentry/mcp/auth.hpp>
#include <agentry/mcp/detail/server_requests.hpp>
#include <agentry/mcp/detail/subscribers.hpp>
#include <agentry/mcp/logging.hpp>
#include <agentry/stop_token.hpp>

#include <algorithm>
#include <cstddef>
#include <functional>
#include <memory>
#include <mutex>
#include <optional>
#include <set>
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
    ~session() {
        if (subscribers_) subscribers_->remove(this);
    }

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

    /// The session's id on a Streamable HTTP server (its Mcp-Session-Id); empty on stdio.
    std::string id() const {
        std::lock_guard lock(mutex_);
        return id_;
    }
    void set_id(std::string id) {
        std::lock_guard lock(mutex_);
        id_ = std::move(id);
    }

    /// The identity that started the session; nullptr without authorization.
    const identity* owner() const noexcept { return owner_.get(); }

    /// The least severe level of log messages the client wants; nothing until it sets one.
    std::optional<log_level> level() const {
        std::lock_guard lock(mutex_);
        return level_;
    }
    void set_level(log_level level) {
        std::lock_guard lock(mutex_);
        level_ = level;
    }

    /// Subscribes to updates of the resource `uri` and joins `list` (the server's sessions with
    /// subscriptions). False, and nothing changes, when the session holds `limit` other URIs.
    bool subscribe(std::string_view uri, const std::shared_ptr<detail::subscriber_list>& list, std::size_t limit) {
        {
            std::lock_guard lock(mutex_);
            if (subscriptions_.find(uri) == subscriptions_.end()) {
                if (subscriptions_.size() >= limit) return false;
                subscriptions_.emplace(uri);
            }
        }
        join(list);
        return true;
    }
    /// Joins `list` (the server's sessions that hear of changes: resource updates, list changes).
    void join(const std::shared_ptr<detail::subscriber_list>& list) {
        std::shared_ptr<detail::subscriber_list> left;
        {
            std::lock_guard lock(mutex_);
            if (subscribers_ == list) return;
            left = std::exchange(subscribers_, list);
        }
        // Outside the lock: notifying takes the list's lock, then the session's.
        if (left) left->remove(this);
        list->add(this);
    }
    /// Ends the subscription to `uri`, if there is one.
    void unsubscribe(std::string_view uri) {
        std::lock_guard lock(mutex_);
        if (const auto it = subscriptions_.find(uri); it != subscriptions_.end()) subscriptions_.erase(it);
    }
    bool subscribed(std::string_view uri) const {
        std::lock_guard lock(mutex_);
        return subscriptions_.find(uri) != subscriptions_.end();
    }
    /// The number of resources subscribed to.
    std::size_t subscriptions() const {
        std::lock_guard lock(mutex_);
        return subscriptions_.size();
    }

    /// The request `id` (JSON text) was received and will be handled.
    void expect(std::string_view id) {
        std::lock_guard lock(mutex_);
        if (find(id) == pending_.end()) pending_.push_back({std::string(id), false, {}});
    }
    /// Cancels the request `id` if it is in progress (its stop token is signalled); an unknown
    /// id is ignored, as MCP allows.
    void cancel(std::string_view id) {
        std::lock_guard lock(mutex_);
        if (const auto it = find(id); it != pending_.end()) {
            it->cancelled = true;
            it->stop.request_stop();
        }
    }
    /// The stop token of the request `id` in progress, signalled by cancel(id); a token that
    /// never stops for another id.
    agentry::stop_token stop_token(std::string_view id) {
        std::lock_guard lock(mutex_);
        const auto it = find(id);
        return it == pending_.end() ? agentry::stop_token{} : it->stop.get_token();
    }

    /// The application's context for this session (see server's context factory); null
    /// before the first request that needs it.
    std::shared_ptr<void> context() const {
        std::lock_guard lock(mutex_);
        return context_;
    }
    /// Keeps `make()`'s result as the context unless the session has one; returns the context.
    template <class Make>
    std::shared_ptr<void> context_or(Make make) {
        std::lock_guard lock(mutex_);
        if (!context_) context_ = make();
        return context_;
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
    /// Sends server-initiated messages (not answers to a request) to `sink` from now on (over
    /// HTTP, the GET stream); `end` is called when the session stops listening. A previous
    /// listener is ended first.
    void listen(message_sink sink, std::function<void()> end) {
        std::function<void()> previous;
        {
            std::lock_guard lock(listener_mutex_);
            previous = std::exchange(end_, std::move(end));
            sink_ = std::move(sink);
        }
        if (previous) previous();
    }
    /// Ends the listener, if any (the session ends, or the stream closed).
    void stop_listening() {
        std::function<void()> end;
        {
            std::lock_guard lock(listener_mutex_);
            end = std::exchange(end_, nullptr);
            sink_ = nullptr;
        }
        if (end) end();
    }
    /// Sends `message` to the listener; false when there is none. A subscription's messages
    /// carry its id in params._meta.
    bool post(std::string_view message) const {
        std::lock_guard lock(listener_mutex_);
        if (!sink_) return false;
        if (subscription_.empty()) {
            sink_(message);
            return true;
        }
        std::string tagged(message);
        const std::string meta = R"("_meta":{"io.modelcontextprotocol/subscriptionId":)" + subscription_ + '}';
        if (const std::size_t at = tagged.find(R"("params":{)"); at != std::string::npos) {
            const std::size_t open = at + 10;
            tagged.insert(open, tagged[open] == '}' ? meta : meta + ',');
        } else if (!tagged.empty()) {
            tagged.insert(tagged.size() - 1, R"(,"params":{)" + meta + '}');
        }
        sink_(tagged);
        return true;
    }

    /// What a session hears of the server's changes (notify_tools_changed): every kind for a
    /// session, what its filter asks for a subscription (subscriptions/listen).
    enum hears : unsigned { tools_changes = 1 };
    /// Makes this session the subscription `id` (JSON text) of subscriptions/listen, hearing
    /// `what` (hears bits); its messages then carry the id.
    void make_subscription(std::string id, unsigned what) {
        std::lock_guard lock(listener_mutex_);
        subscription_ = std::move(id);
        hears_ = what;
    }
    bool hears_of(unsigned what) const {
        std::lock_guard lock(listener_mutex_);
        return (hears_ & what) == what;
    }

    /// The requests the server sent to this session's client and waits on (mcp::elicit,
    /// mcp::sample), and what the client declared in `initialize` that they need.
    detail::server_requests& requests() noexcept { return requests_; }

    /// Requests in progress.
    std::size_t pending() const {
        std::lock_guard lock(mutex_);
        return pending_.size();
    }

private:
    struct entry {
        std::string id;
        bool cancelled;
        agentry::stop_source stop;
    };
    std::vector<entry>::iterator find(std::string_view id) {
        return std::find_if(pending_.begin(), pending_.end(), [&](const entry& e) { return e.id == id; });
    }

    const std::shared_ptr<const identity> owner_;
    mutable std::mutex mutex_;
    std::string version_;
    std::optional<log_level> level_;
    std::string id_;
    std::shared_ptr<void> context_;
    std::vector<entry> pending_;
    std::set<std::string, std::less<>> subscriptions_;
    std::shared_ptr<detail::subscriber_list> subscribers_;
    mutable std::mutex listener_mutex_;
    message_sink sink_;
    std::function<void()> end_;
    std::string subscription_;  // its id, JSON text; empty: not a subscription
    unsigned hears_ = ~0u;
    detail::server_requests requests_;
};

} // namespace agentry::mcp

#endif
