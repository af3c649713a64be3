// SPDX-License-Identifier: BSL-1.0
#ifndef AGENTRY_BENCH_PROVIDER_CASES_HPP
#define AGENTRY_BENCH_PROVIDER_CASES_HPP

// What each implementation (agentry::openai, and the same work written with nlohmann::json)
// offers to main.cpp: build the request of a turn, parse a response, assemble a streamed
// response, and register its benchmarks.

#include "fixture.hpp"

#include <agentry/provider/message.hpp>
#include <agentry/transport/transport.hpp>

#include <cstddef>
#include <string>
#include <string_view>
#include <vector>

namespace bench {

/// Everything a turn reads, built once: the provider, the 20 messages, the request over them,
/// and the response with two tool calls.
struct turn_fixture {
    agentry::openai provider = make_provider();
    std::vector<agentry::message> messages = conversation();
    agentry::chat_request request = make_request(messages);
    agentry::http_response response = make_response(tool_calls_response);
};

inline const turn_fixture& fixture() {
    static const turn_fixture f;
    return f;
}

/// One recorded SSE body (a file of the streams directory).
struct recorded_stream {
    std::string name;  // the file name without .sse
    std::string body;
    std::size_t events = 0;  // data: lines
};

/// The *.sse files of the streams directory, by name; empty, with the reason in `why_not`,
/// when there are none. The directory is $AGENTRY_PROVIDER_STREAMS, else the one CMake
/// passes (../shared/testdata/provider-streams/openai next to the repository).
std::vector<recorded_stream> load_streams(std::string& directory, std::string& why_not);

/// The head of a 200 streamed response.
inline agentry::http_response stream_head() {
    agentry::http_response head;
    head.status = 200;
    head.headers = {{"Content-Type", "text/event-stream"}};
    return head;
}

namespace agentry_impl {
agentry::http_request build(const agentry::chat_request& request);
agentry::turn_result parse(const agentry::http_response& response);
agentry::turn_result assemble(std::string_view sse_body);
void register_benchmarks(const std::vector<recorded_stream>& streams);
} // namespace agentry_impl

namespace nlohmann_impl {
/// How the tools payload (JSON text) gets into the request DOM.
enum class tools_mode {
    parse_each_request,  // nlohmann::json::parse(tools) for every request
    cached_dom,          // parsed once, the DOM copied into every request
};
agentry::http_request build(const agentry::chat_request& request, tools_mode mode);
agentry::turn_result parse(const agentry::http_response& response);
agentry::turn_result assemble(std::string_view sse_body);
void register_benchmarks(const std::vector<recorded_stream>& streams);
} // namespace nlohmann_impl

} // namespace bench

#endif
