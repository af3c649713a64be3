// SPDX-License-Identifier: BSL-1.0
#include <agentry/mcp/stdio.hpp>

#include "tools.hpp"

#include <doctest/doctest.h>

#include <condition_variable>
#include <mutex>
#include <sstream>
#include <streambuf>
#include <string>
#include <vector>

namespace {

namespace mcp = agentry::mcp;

const mcp::server server{mcp_test::tools, {.name = "test", .version = "1"}};

constexpr const char* initialize =
    R"({"jsonrpc":"2.0","id":0,"method":"initialize","params":{"protocolVersion":"2025-11-25"}})";

std::string run(const std::string& input, mcp::stdio_options options = {}) {
    std::istringstream in(input);
    std::ostringstream out;
    std::ostringstream log;
    options.log = &log;
    CHECK(mcp::serve(server, in, out, options) == 0);
    CHECK(log.str().starts_with("agentry: mcp: serving on stdio\n"));
    return out.str();
}

std::size_t count_lines(const std::string& text) {
    std::size_t n = 0;
    for (char c : text) n += c == '\n';
    return n;
}

// The steps of the cancellation test: the tool started; the cancellation was read and handled.
struct steps {
    std::mutex mutex;
    std::condition_variable changed;
    bool started = false;
    bool cancel_read = false;

    void set(bool steps::*flag) {
        std::lock_guard lock(mutex);
        this->*flag = true;
        changed.notify_all();
    }
    void wait(bool steps::*flag) {
        std::unique_lock lock(mutex);
        changed.wait(lock, [&] { return this->*flag; });
    }
} cancel_steps;

constexpr agentry::registry slow_tools{agentry::tool<"slow", "Runs until its cancellation was read">(+[] {
    cancel_steps.set(&steps::started);
    cancel_steps.wait(&steps::cancel_read);
    return 1;
})};

// Input in chunks: the second (the cancellation) once the tool has started; asking for the
// third means the reading thread has handled the second.
class scripted_input : public std::streambuf {
public:
    explicit scripted_input(std::vector<std::string> chunks) : chunks_(std::move(chunks)) {}

protected:
    int_type underflow() override {
        if (gptr() != egptr()) return traits_type::to_int_type(*gptr());
        if (next_ == 1) cancel_steps.wait(&steps::started);
        if (next_ == 2) cancel_steps.set(&steps::cancel_read);
        if (next_ == chunks_.size()) return traits_type::eof();
        current_ = chunks_[next_++];
        setg(current_.data(), current_.data(), current_.data() + current_.size());
        return traits_type::to_int_type(*gptr());
    }

private:
    std::vector<std::string> chunks_;
    std::size_t next_ = 0;
    std::string current_;
};

} // namespace

TEST_CASE("stdio: a cancellation read while the tool runs suppresses its answer") {
    const mcp::server slow{slow_tools};
    scripted_input input({std::string(initialize) + "\n" +
                              R"({"jsonrpc":"2.0","id":2,"method":"tools/call","params":{"name":"slow"}})" + "\n",
                          R"({"jsonrpc":"2.0","method":"notifications/cancelled","params":{"requestId":2}})" "\n",
                          R"({"jsonrpc":"2.0","id":3,"method":"ping"})" "\n"});
    std::istream in(&input);
    std::ostringstream out;
    mcp::stdio_options options;
    options.log = nullptr;
    CHECK(mcp::serve(slow, in, out, options) == 0);
    CHECK(out.str().find(R"("id":2)") == std::string::npos);
    CHECK(out.str().ends_with(R"({"jsonrpc":"2.0","id":3,"result":{}})" "\n"));
    CHECK(count_lines(out.str()) == 2);
}

TEST_CASE("stdio: one answer per request, one line each, in order") {
    const std::string out = run(std::string(initialize) + "\n" +
                                R"({"jsonrpc":"2.0","method":"notifications/initialized"})" + "\r\n\n" +
                                R"({"jsonrpc":"2.0","id":1,"method":"ping"})" + "\n" +
                                R"({"jsonrpc":"2.0","id":2,"method":"tools/call","params":{"name":"greet","arguments":{"name":"a\nb"}}})");
    CHECK(count_lines(out) == 3);
    CHECK(out.find(R"({"jsonrpc":"2.0","id":1,"result":{}})" "\n" R"({"jsonrpc":"2.0","id":2,"result":{"content":[{"type":"text","text":"Hello, a\nb\n"}],"isError":false}})" "\n") != std::string::npos);
}

TEST_CASE("stdio: an oversized line is skipped and answered, the next is served") {
    mcp::stdio_options options;
    options.max_message_size = 200;
    const std::string out = run(std::string(initialize) + "\n" + std::string(100000, 'x') + "\n" +
                                    R"({"jsonrpc":"2.0","id":1,"method":"ping"})" + "\n",
                                options);
    CHECK(out.ends_with(R"({"jsonrpc":"2.0","error":{"code":-32600,"message":"Invalid Request: the message is longer than the limit of 200 bytes"}})"
                        "\n" R"({"jsonrpc":"2.0","id":1,"result":{}})" "\n"));
}

TEST_CASE("stdio: many requests through a small queue") {
    std::string input = std::string(initialize) + "\n";
    for (int i = 1; i <= 2000; ++i)
        input += R"({"jsonrpc":"2.0","id":)" + std::to_string(i) +
                 R"(,"method":"tools/call","params":{"name":"add","arguments":{"a":1,"b":)" + std::to_string(i) + "}}}\n";
    mcp::stdio_options options;
    options.queue_size = 2;
    const std::string out = run(input, options);
    CHECK(count_lines(out) == 2001);
    CHECK(out.ends_with(R"({"jsonrpc":"2.0","id":2000,"result":{"content":[{"type":"text","text":"2001"}],"isError":false}})" "\n"));
}

TEST_CASE("stdio: a write failure ends serving with 1") {
    std::istringstream in(std::string(initialize) + "\n");
    std::ostringstream out;
    out.setstate(std::ios::badbit);
    std::ostringstream log;
    mcp::stdio_options options;
    options.log = &log;
    CHECK(mcp::serve(server, in, out, options) == 1);
    CHECK(log.str().find("agentry: mcp: cannot write to the output; stopping\n") != std::string::npos);
}
