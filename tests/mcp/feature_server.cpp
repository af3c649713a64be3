// SPDX-License-Identifier: BSL-1.0
// An MCP server with every server feature, for features.mjs: progress, cancellation through
// agentry::stop_token, logging (from a tool, and from the application on the GET stream), a
// per-session context, annotations derived from tool policies under a ceiling, resources and
// prompts, completers, and resource subscriptions (the tool "touch" tells the subscribers).
// stdio by default; Streamable HTTP on 127.0.0.1 with --http <port>.
#include <agentry/agentry.hpp>
#include <agentry/mcp/http.hpp>
#include <agentry/mcp/stdio.hpp>
#include <agentry/stop_token.hpp>

#include <chrono>
#include <condition_variable>
#include <csignal>
#include <cstdlib>
#include <functional>
#include <iostream>
#include <memory>
#include <mutex>
#include <optional>
#include <string>
#include <string_view>
#include <thread>
#include <vector>

namespace {

using agentry::permission;
using agentry::tool_policy;
using agentry::with_policy;

// One per MCP session.
struct app_session {
    int calls = 0;
    std::mutex mutex;
    std::condition_variable changed;
    int waiting = 0;
    int stopped = 0;
};

int calls(agentry::context<app_session> s) {
    std::lock_guard lock(s->mutex);
    return ++s->calls;
}

int steps(agentry::progress p, int n) {
    for (int i = 1; i <= n; ++i) p.report(i, n, "step " + std::to_string(i));
    return n;
}

// Reports progress (so the client knows it runs), then waits for its cancellation, at most 30 s.
std::string wait_for_cancel(agentry::stop_token stop, agentry::progress p, agentry::context<app_session> s) {
    {
        std::lock_guard lock(s->mutex);
        ++s->waiting;
    }
    p.report(1, std::nullopt, "waiting for the cancellation");
    const auto deadline = std::chrono::steady_clock::now() + std::chrono::seconds(30);
    while (!stop.stop_requested() && std::chrono::steady_clock::now() < deadline)
        std::this_thread::sleep_for(std::chrono::milliseconds(5));
    std::lock_guard lock(s->mutex);
    --s->waiting;
    if (stop.stop_requested()) ++s->stopped;
    s->changed.notify_all();
    return stop.stop_requested() ? "stopped" : "not stopped";
}

// The number of wait_for_cancel calls of this session that saw their stop token signalled,
// once none runs (at most 30 s).
int stopped_calls(agentry::context<app_session> s) {
    std::unique_lock lock(s->mutex);
    s->changed.wait_for(lock, std::chrono::seconds(30), [&] { return s->waiting == 0; });
    return s->stopped;
}

std::string chatty(std::string text) {
    agentry::mcp::log(agentry::mcp::log_level::debug, "debug " + text);
    agentry::mcp::log(agentry::mcp::log_level::warning, "warning " + text, "chatty");
    return text;
}

// Set by main when serving HTTP: logs to the GET streams.
std::function<std::size_t(std::string_view)> announce_to;

std::size_t announce(std::string text) { return announce_to ? announce_to(text) : 0; }

// Set by main: server::notify_resource_updated.
std::function<std::size_t(std::string_view)> touched;

std::size_t touch(std::string uri) { return touched ? touched(uri) : 0; }

constexpr agentry::registry tools{
    with_policy<tool_policy{.level = permission::read_only}>(agentry::tool<"calls", "Counts this session's calls">(calls)),
    with_policy<tool_policy{.level = permission::read_only}>(agentry::tool<"steps", "Reports progress", "n">(steps)),
    with_policy<tool_policy{.level = permission::read_only}>(
        agentry::tool<"wait_for_cancel", "Waits for its cancellation">(wait_for_cancel)),
    with_policy<tool_policy{.level = permission::read_only}>(
        agentry::tool<"stopped_calls", "Cancelled calls that saw it">(stopped_calls)),
    with_policy<tool_policy{.level = permission::write, .idempotent = true}>(
        agentry::tool<"chatty", "Logs", "text">(chatty)),
    with_policy<tool_policy{.level = permission::write}>(
        agentry::tool<"announce", "Logs on the GET streams", "text">(announce)),
    with_policy<tool_policy{.level = permission::write}>(
        agentry::tool<"touch", "Tells the subscribers that a resource changed", "uri">(touch)),
};

enum class tone { formal, casual };

struct greeting_args {
    std::string name;
    std::optional<tone> style;
    static constexpr auto docs = agentry::field_docs("name", "Who to greet", "style", "How");
};

struct note_ref {
    std::string id;
};

std::vector<std::string> starting_with(std::string_view partial, std::vector<std::string> all) {
    std::erase_if(all, [&](const std::string& s) { return !s.starts_with(partial); });
    return all;
}

} // namespace

int main(int argc, char** argv) {
    using namespace agentry::mcp;
    const server srv{
        tools,
        {.name = "features", .version = "1"},
        ceiling<permission::write>,
        session_context([] { return std::make_unique<app_session>(); }),
        resource<"notes://index", "index">(+[] { return std::vector<std::string>{"a", "b"}; },
                                           {.description = "Note ids", .title = "Index"}),
        resource_template<"notes://{id}", "note">(
            +[](const note_ref& r) { return "Note " + r.id; }, {.mime_type = "text/markdown"},
            completer<"id">(+[](std::string_view partial) { return starting_with(partial, {"a", "b"}); })),
        prompt<"greet", "Greets someone">(
            +[](const greeting_args& a) { return (a.style == tone::casual ? "Say hi to " : "Greet ") + a.name; },
            completer<"name">(+[](std::string_view partial) { return starting_with(partial, {"Ada", "Alan", "Bo"}); })),
    };
    touched = [&](std::string_view uri) { return srv.notify_resource_updated(uri); };
    if (argc > 1 && std::string_view(argv[1]) == "--http") {
        http_options options;
        options.port = static_cast<unsigned short>(argc > 2 ? std::atoi(argv[2]) : 0);
        options.threads = 4;
        try {
            http_server http(srv, options);
            announce_to = [&](std::string_view text) { return http.log(log_level::info, text, "app"); };
            boost::asio::signal_set signals(http.context(), SIGINT, SIGTERM);
            signals.async_wait([&](const boost::system::error_code& ec, int) {
                if (!ec) http.stop();
            });
            std::cerr << "agentry: mcp: listening on " << http.url() << std::endl;
            http.run();
            return 0;
        } catch (const std::exception& e) {
            std::cerr << "agentry: mcp: " << e.what() << std::endl;
            return 1;
        }
    }
    return serve_stdio(srv);
}
