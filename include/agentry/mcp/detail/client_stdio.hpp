// SPDX-License-Identifier: BSL-1.0
#ifndef AGENTRY_MCP_DETAIL_CLIENT_STDIO_HPP
#define AGENTRY_MCP_DETAIL_CLIENT_STDIO_HPP

// The stdio transport of mcp::client: the server runs as a child process (posix_spawnp), its
// standard input and output are pipes, its standard error is the client's. One thread reads
// the server's output; anything that is not a JSON-RPC message, or a message over the size
// limit, breaks the connection (the stdio transport allows nothing else there), and every
// request waiting fails with the reason. The server's requests are answered on that thread.

#include <agentry/mcp/detail/client_channel.hpp>
#include <agentry/mcp/detail/sigpipe.hpp>

#include <cerrno>
#include <condition_variable>
#include <csignal>
#include <cstring>
#include <fcntl.h>
#include <map>
#include <memory>
#include <mutex>
#include <optional>
#include <poll.h>
#include <spawn.h>
#include <string>
#include <string_view>
#include <sys/types.h>
#include <sys/wait.h>
#include <thread>
#include <unistd.h>
#include <vector>

extern char** environ;

namespace agentry::mcp::detail {

inline std::string exit_text(int status) {
    if (WIFEXITED(status)) return "exited with status " + std::to_string(WEXITSTATUS(status));
    if (WIFSIGNALED(status)) return "was killed by signal " + std::to_string(WTERMSIG(status));
    return "ended";
}

/// The name of an environment entry: the text before its first '='.
inline std::string_view env_name(std::string_view entry) noexcept { return entry.substr(0, entry.find('=')); }

/// The environment of a server the client starts: of `parent` (NAME=VALUE entries), every entry
/// when `inherit_all`, else those whose name is in `allowed`; then `set`, where NAME=VALUE sets
/// NAME and a bare NAME removes it, each replacing any inherited entry of that name (the last
/// entry of `set` for a name wins), so that no name appears twice (glibc's getenv would return
/// the first). An entry of `set` with an empty name or a NUL byte is refused: nothing, with `why`.
inline std::optional<std::vector<std::string>> spawn_environment(char** parent, bool inherit_all,
                                                                 const std::vector<std::string>& allowed,
                                                                 const std::vector<std::string>& set,
                                                                 std::string& why) {
    for (std::size_t i = 0; i != set.size(); ++i)
        if (env_name(set[i]).empty() || set[i].find('\0') != std::string::npos) {
            why = "stdio_command::env[" + std::to_string(i) + "] has an empty name or a NUL byte (its value is not "
                  "shown); write NAME=VALUE to set a variable or NAME to remove it";
            return std::nullopt;
        }
    const auto named_in = [](const std::vector<std::string>& list, std::string_view name, bool entries) {
        for (const std::string& e : list)
            if ((entries ? env_name(e) : std::string_view(e)) == name) return true;
        return false;
    };
    std::vector<std::string> out;
    for (char** e = parent; e && *e; ++e) {
        const std::string_view name = env_name(*e);
        if (!inherit_all && !named_in(allowed, name, false)) continue;
        if (!named_in(set, name, true) && !named_in(out, name, true)) out.emplace_back(*e);
    }
    for (std::size_t i = 0; i != set.size(); ++i) {
        const std::string_view name = env_name(set[i]);
        bool later = false;
        for (std::size_t j = i + 1; j != set.size() && !later; ++j) later = env_name(set[j]) == name;
        if (!later && set[i].find('=') != std::string::npos) out.push_back(set[i]);
    }
    return out;
}

class stdio_channel final : public client_channel {
public:
    struct spawn_failed {
        std::string message;
    };

    /// Starts `argv[0]` (looked up in PATH) with `argv` and exactly the environment `env`
    /// (NAME=VALUE entries, see spawn_environment). Throws spawn_failed.
    stdio_channel(const std::vector<std::string>& argv, const std::vector<std::string>& env, std::size_t max_size,
                  std::chrono::milliseconds grace, notification_handler on_notification, request_handler on_request,
                  send_hook on_send)
        : max_size_(max_size), grace_(grace), on_notification_(std::move(on_notification)),
          on_request_(std::move(on_request)), on_send_(std::move(on_send)) {
        int in[2];
        int out[2];
        if (::pipe2(in, O_CLOEXEC) != 0) throw spawn_failed{std::string("pipe: ") + std::strerror(errno)};
        if (::pipe2(out, O_CLOEXEC) != 0) {
            ::close(in[0]);
            ::close(in[1]);
            throw spawn_failed{std::string("pipe: ") + std::strerror(errno)};
        }
        std::vector<char*> args;
        for (const std::string& a : argv) args.push_back(const_cast<char*>(a.c_str()));
        args.push_back(nullptr);
        std::vector<char*> envp;
        for (const std::string& e : env) envp.push_back(const_cast<char*>(e.c_str()));
        envp.push_back(nullptr);
        posix_spawn_file_actions_t actions;
        posix_spawn_file_actions_init(&actions);
        posix_spawn_file_actions_adddup2(&actions, in[0], 0);
        posix_spawn_file_actions_adddup2(&actions, out[1], 1);
        const int rc = ::posix_spawnp(&pid_, args[0], &actions, nullptr, args.data(), envp.data());
        posix_spawn_file_actions_destroy(&actions);
        ::close(in[0]);
        ::close(out[1]);
        if (rc != 0) {
            ::close(in[1]);
            ::close(out[0]);
            throw spawn_failed{"could not start \"" + argv[0] + "\": " + std::strerror(rc)};
        }
        to_server_ = in[1];
        from_server_ = out[0];
        ::fcntl(to_server_, F_SETFL, ::fcntl(to_server_, F_GETFL) | O_NONBLOCK);
        reader_ = std::thread([this] { read_loop(); });
    }

    ~stdio_channel() override { close(); }

    exchange_result exchange(const std::string& id, const std::string& message, const exchange_wait& wait) override {
        auto p = std::make_shared<pending>();
        p->token = wait.progress_token;
        p->on_progress = wait.on_progress;
        {
            std::lock_guard lock(mutex_);
            if (!broken_.empty()) return {exchange_status::failed, {}, broken_};
            pending_[id] = p;
        }
        exchange_result out;
        if (std::string e = write(message, wait.deadline); !e.empty()) {
            out.error = std::move(e);
        } else {
            std::unique_lock lock(mutex_);
            for (;;) {
                if (p->done) {
                    out.status = exchange_status::response;
                    out.response = std::move(p->response);
                    break;
                }
                if (!broken_.empty()) {
                    out.error = broken_;
                    break;
                }
                if (wait.cancel && wait.cancel->load()) {
                    out.status = exchange_status::cancelled;
                    break;
                }
                const auto now = client_clock::now();
                if (now >= wait.deadline) {
                    out.status = exchange_status::timeout;
                    break;
                }
                const auto step = wait.cancel ? std::chrono::milliseconds(20) : std::chrono::milliseconds(1000);
                changed_.wait_until(lock, wait.deadline - now > step ? now + step : wait.deadline);
            }
        }
        std::lock_guard lock(mutex_);
        pending_.erase(id);
        std::lock_guard progress(p->progress_mutex);
        p->finished = true;
        return out;
    }

    std::string notify(const std::string& message, client_clock::time_point deadline) override {
        {
            std::lock_guard lock(mutex_);
            if (!broken_.empty()) return broken_;
        }
        return write(message, deadline);
    }

    void close() noexcept override {
        std::call_once(closed_, [this] {
            fail_all("the connection is closed");
            {
                std::lock_guard lock(write_mutex_);
                ::close(to_server_);
                to_server_ = -1;
            }
            // End of input asks the server to exit; then SIGTERM, then SIGKILL, a grace period each.
            if (!reaped(grace_)) {
                ::kill(pid_, SIGTERM);
                if (!reaped(grace_)) {
                    ::kill(pid_, SIGKILL);
                    reaped(std::chrono::milliseconds::max());
                }
            }
            stop_.store(true);
            if (reader_.joinable()) reader_.join();
            ::close(from_server_);
            std::lock_guard lock(mutex_);
            if (broken_.empty()) broken_ = "the connection is closed";
            changed_.notify_all();
        });
    }

    /// The server's exit status (as waitpid reports it) once it has ended.
    std::optional<int> exit_status() {
        std::lock_guard lock(mutex_);
        return status_;
    }

private:
    struct pending {
        std::string token;
        std::function<void(const json::value&)> on_progress;
        bool done = false;
        json::value response;
        std::mutex progress_mutex;
        bool finished = false;
    };

    // Waits up to `limit` for the child to end; true once it has.
    bool reaped(std::chrono::milliseconds limit) {
        const auto until = limit == std::chrono::milliseconds::max() ? client_clock::time_point::max()
                                                                      : client_clock::now() + limit;
        for (;;) {
            {
                std::lock_guard lock(mutex_);
                if (status_) return true;
                int status = 0;
                const pid_t r = ::waitpid(pid_, &status, WNOHANG);
                if (r == pid_ || (r < 0 && errno == ECHILD)) {
                    status_ = r == pid_ ? status : 0;
                    return true;
                }
            }
            if (client_clock::now() >= until) return false;
            std::this_thread::sleep_for(std::chrono::milliseconds(5));
        }
    }

    std::string write(const std::string& message, client_clock::time_point deadline) {
        std::lock_guard lock(write_mutex_);
        if (to_server_ < 0) return "the connection is closed";
        if (on_send_) on_send_(message);
        const sigpipe_blocked no_sigpipe;
        std::string line = message + "\n";
        std::size_t at = 0;
        while (at != line.size()) {
            const ssize_t n = ::write(to_server_, line.data() + at, line.size() - at);
            if (n > 0) {
                at += std::size_t(n);
                continue;
            }
            if (n < 0 && errno == EINTR) continue;
            if (n < 0 && (errno == EAGAIN || errno == EWOULDBLOCK)) {
                const auto now = client_clock::now();
                if (now >= deadline) return "the server did not read its input in time";
                pollfd p{to_server_, POLLOUT, 0};
                const auto left = std::chrono::duration_cast<std::chrono::milliseconds>(deadline - now).count();
                ::poll(&p, 1, int(std::min<long long>(left + 1, 1000)));
                continue;
            }
            return std::string("the server's standard input failed: ") + std::strerror(errno);
        }
        return {};
    }

    void fail_all(std::string why) {
        std::lock_guard lock(mutex_);
        if (broken_.empty()) broken_ = std::move(why);
        changed_.notify_all();
    }

    void read_loop() {
        std::string line;
        bool oversized = false;
        char buffer[65536];
        for (;;) {
            pollfd p{from_server_, POLLIN, 0};
            const int ready = ::poll(&p, 1, 100);
            if (ready == 0) {
                if (stop_.load()) return fail_all("the connection is closed");
                continue;
            }
            if (ready < 0 && errno == EINTR) continue;
            const ssize_t n = ready < 0 ? -1 : ::read(from_server_, buffer, sizeof buffer);
            if (n < 0 && errno == EINTR) continue;
            if (n <= 0) return ended();
            for (ssize_t i = 0; i != n; ++i) {
                const char c = buffer[i];
                if (c != '\n') {
                    if (line.size() > max_size_) oversized = true;
                    else line += c;
                    continue;
                }
                if (oversized || line.size() > max_size_)
                    return fail_all("the server sent a message longer than the limit of " + std::to_string(max_size_) +
                                    " bytes (client_options::max_message_size)");
                if (!line.empty() && line.back() == '\r') line.pop_back();
                if (!line.empty() && !dispatch(line)) return;
                line.clear();
            }
            if (line.size() > max_size_)
                return fail_all("the server sent a message longer than the limit of " + std::to_string(max_size_) +
                                " bytes (client_options::max_message_size)");
        }
    }

    void ended() {
        // Give the exit status a moment to be known, for the message.
        std::string why = "the server closed its standard output";
        if (reaped(std::chrono::milliseconds(500))) why = "the server " + exit_text(*status_);
        fail_all(std::move(why));
    }

    // One line from the server; false when it broke the connection.
    bool dispatch(const std::string& line) {
        std::string why;
        std::optional<json::value> m = read_server_message(line, max_size_, why);
        if (!m) {
            fail_all("the server wrote something that is not a JSON-RPC message on its standard output (" + why +
                     "): \"" + client_excerpt(line) + "\"");
            return false;
        }
        const json::value* id = m->find("id");
        const json::value* method = m->find("method");
        if (method && method->is_string()) {
            const json::value* params = m->find("params");
            static const json::value none = json::value::object();
            if (id) return answer(*m);
            if (method->as_string() == "notifications/progress" && params) progress(*params);
            else if (on_notification_) on_notification_(method->as_string(), params ? *params : none);
            return true;
        }
        if (!id) return true;  // an error without id: nothing waits for it
        std::lock_guard lock(mutex_);
        const auto it = pending_.find(json::to_text(*id));
        if (it == pending_.end()) return true;  // late: the request timed out or was cancelled
        it->second->response = std::move(*m);
        it->second->done = true;
        changed_.notify_all();
        return true;
    }

    // A request of the server, answered on this thread by on_request_ (ping when there is none).
    bool answer(const json::value& request) {
        std::string out = on_request_ ? on_request_(request)
                                      : R"({"jsonrpc":"2.0","id":)" + json::to_text(*request.find("id")) + R"(,"result":{}})";
        write(out, client_clock::now() + std::chrono::seconds(1));
        return true;
    }

    void progress(const json::value& params) {
        const json::value* token = params.find("progressToken");
        if (!token) return;
        const std::string wanted = json::to_text(*token);
        std::shared_ptr<pending> p;
        {
            std::lock_guard lock(mutex_);
            for (auto& [id, q] : pending_)
                if (!q->token.empty() && q->token == wanted) p = q;
        }
        if (!p || !p->on_progress) return;
        std::lock_guard lock(p->progress_mutex);
        if (!p->finished) p->on_progress(params);
    }

    pid_t pid_ = -1;
    int to_server_ = -1;
    int from_server_ = -1;
    std::size_t max_size_;
    std::chrono::milliseconds grace_;
    notification_handler on_notification_;
    request_handler on_request_;
    send_hook on_send_;
    std::thread reader_;
    std::atomic<bool> stop_{false};
    std::once_flag closed_;
    std::mutex write_mutex_;
    std::mutex mutex_;  // pending_, broken_, status_
    std::condition_variable changed_;
    std::map<std::string, std::shared_ptr<pending>> pending_;
    std::string broken_;
    std::optional<int> status_;
};

} // namespace agentry::mcp::detail

#endif
