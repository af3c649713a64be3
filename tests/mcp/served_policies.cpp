// SPDX-License-Identifier: BSL-1.0
// The policies of a served registry's tools over MCP, as in an agent: a tool's rate limit and
// the registry's shared one, retries of an idempotent tool after transient failures, a fallback
// after a tool_error, and a timeout that abandons the try; progress through the layers.
#include <agentry/mcp/server.hpp>
#include <agentry/outcome.hpp>
#include <agentry/policy/fallback.hpp>
#include <agentry/policy/registry_policies.hpp>
#include <agentry/registry.hpp>
#include <agentry/tool.hpp>

#include <doctest/doctest.h>

#include <atomic>
#include <chrono>
#include <string>
#include <string_view>
#include <thread>

namespace {

namespace mcp = agentry::mcp;
using namespace std::chrono_literals;

std::atomic<int> flaky_tries{0};
std::atomic<int> broken_tries{0};
std::atomic<int> slow_tries{0};

constexpr agentry::tool_retry quick{.attempts = 3, .initial_backoff = std::chrono::milliseconds(1),
                                    .max_backoff = std::chrono::milliseconds(1)};

constexpr auto tools = agentry::with_rate_limit<agentry::rate_limit{.calls = 6, .per_ms = 3'600'000}>(agentry::registry{
    agentry::with_policy<agentry::tool_policy{.rate = {.calls = 2, .per_ms = 60'000}}>(
        agentry::tool<"limited", "Counts", "x">(+[](int x) { return x; })),
    agentry::with_policy<agentry::tool_policy{.idempotent = true, .retry = quick}>(
        agentry::tool<"flaky", "Fails twice, then answers">(+[]() -> agentry::outcome<std::string> {
            if (++flaky_tries < 3) return agentry::fail(agentry::failure_kind::transient, "busy");
            return std::string("fine");
        })),
    agentry::with_policy<agentry::tool_policy{.fallback = {"backup"}}>(
        agentry::tool<"broken", "Always fails", "x">(+[](int) -> agentry::outcome<int> {
            ++broken_tries;
            return agentry::fail(agentry::failure_kind::permanent, "the disk is gone");
        })),
    agentry::tool<"backup", "Answers for broken", "x">(+[](int x) { return x * 10; }),
    agentry::with_policy<agentry::tool_policy{.timeout = std::chrono::milliseconds(20)}>(
        agentry::tool<"slow", "Ends only when stopped">(+[](agentry::stop_token stop) {
            ++slow_tries;
            for (int i = 0; i != 20'000 && !stop.stop_requested(); ++i) std::this_thread::sleep_for(1ms);
            return std::string("late");
        })),
    agentry::with_policy<agentry::tool_policy{.timeout = std::chrono::seconds(60)}>(
        agentry::tool<"steps", "Reports progress", "n">(+[](agentry::progress p, int n) {
            for (int i = 1; i <= n; ++i) p.report(i, n);
            return n;
        })),
});

static_assert(mcp::detail::served_policies<std::remove_const_t<decltype(tools)>>::any);

std::string call(mcp::session& s, const mcp::server<std::remove_const_t<decltype(tools)>>& server, int id,
                 std::string_view tool, std::string_view arguments = "{}") {
    return server.handle(s, R"({"jsonrpc":"2.0","id":)" + std::to_string(id) +
                                R"(,"method":"tools/call","params":{"name":")" + std::string(tool) +
                                R"(","arguments":)" + std::string(arguments) + "}}");
}

std::string text_of(std::string_view id, std::string_view text, bool error) {
    std::string out = R"({"jsonrpc":"2.0","id":)" + std::string(id) + R"(,"result":{"content":[{"type":"text","text":)";
    agentry::json::write(out, text);
    out += error ? R"(}],"isError":true}})" : R"(}],"isError":false}})";
    return out;
}

void initialize(mcp::session& s, const mcp::server<std::remove_const_t<decltype(tools)>>& server) {
    REQUIRE(server.handle(s, R"({"jsonrpc":"2.0","id":0,"method":"initialize","params":{"protocolVersion":"2025-11-25","capabilities":{},"clientInfo":{"name":"t","version":"1"}}})")
                .find("\"result\"") != std::string::npos);
}

} // namespace

TEST_CASE("served policies: a tool's rate limit, and the registry's shared one") {
    const mcp::server server{tools, {}};
    mcp::session s;
    initialize(s, server);
    CHECK(call(s, server, 1, "limited", R"({"x":1})") == text_of("1", "1", false));
    CHECK(call(s, server, 2, "limited", R"({"x":2})") == text_of("2", "2", false));
    const std::string third = call(s, server, 3, "limited", R"({"x":3})");
    CHECK(third.starts_with(R"({"jsonrpc":"2.0","id":3,"result":{"content":[{"type":"text","text":"rate_limited: limited may be called at most 2 times per 60000 ms; it was not run. Try again in )"));
    CHECK(third.ends_with(R"("isError":true}})"));
    // Six calls an hour in all: the refused one counts for neither.
    for (int id = 4; id != 8; ++id) CHECK(call(s, server, id, "backup", R"({"x":1})") == text_of(std::to_string(id), "10", false));
    CHECK(call(s, server, 8, "backup", R"({"x":1})")
              .starts_with(R"({"jsonrpc":"2.0","id":8,"result":{"content":[{"type":"text","text":"rate_limited: the tools here may be called at most 6 times per 3600000 ms in all; backup was not run.)"));
}

TEST_CASE("served policies: retries of an idempotent tool, a fallback after a tool_error") {
    const mcp::server server{tools, {}};
    mcp::session s;
    initialize(s, server);
    flaky_tries = 0;
    CHECK(call(s, server, 1, "flaky") == text_of("1", "fine", false));
    CHECK(flaky_tries == 3);
    broken_tries = 0;
    CHECK(call(s, server, 2, "broken", R"({"x":4})") ==
          text_of("2", "(broken failed, so its fallback backup answered instead.)\n40", false));
    CHECK(broken_tries == 1);  // not idempotent: not tried again
}

TEST_CASE("served policies: a try past its timeout is abandoned, its stop token signalled") {
    const mcp::server server{tools, {}};
    mcp::session s;
    initialize(s, server);
    slow_tries = 0;
    CHECK(call(s, server, 1, "slow") ==
          text_of("1", "slow did not finish within 20 ms; it was abandoned. Try a narrower request or another tool.", true));
    CHECK(slow_tries == 1);
}

TEST_CASE("served policies: progress reaches the client from a try on a thread of its own") {
    const mcp::server server{tools, {}};
    mcp::session s;
    initialize(s, server);
    std::vector<std::string> sent;
    const mcp::message_sink out = [&](std::string_view m) { sent.emplace_back(m); };
    const std::string answer = server.handle(
        s, R"({"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"steps","arguments":{"n":2},"_meta":{"progressToken":"p"}}})",
        mcp::default_max_message_size, out);
    CHECK(answer == text_of("1", "2", false));
    REQUIRE(sent.size() == 2);
    CHECK(sent[0] == R"({"jsonrpc":"2.0","method":"notifications/progress","params":{"progressToken":"p","progress":1,"total":2}})");
    CHECK(sent[1] == R"({"jsonrpc":"2.0","method":"notifications/progress","params":{"progressToken":"p","progress":2,"total":2}})");
}
