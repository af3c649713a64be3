// SPDX-License-Identifier: BSL-1.0
// Prints the body agentry::openai builds for each representative request, one JSON object
// per line: {"name":...,"body":<the request body>}. Read by request_schema.mjs. Then the
// requests of a run of an agent with a typed output (tools and response_format together, a
// tool result, a repair message), as the agent sends them.

#include "../print_requests.hpp"
#include "samples.hpp"

#include <agentry/agent.hpp>
#include <agentry/json/writer.hpp>
#include <agentry/transport/replay.hpp>

#include <cstdio>
#include <string>
#include <vector>

namespace {

using provider_samples::print;
using provider_samples::replay_at;

std::string reply(std::string message, std::string finish) {
    return R"({"choices":[{"index":0,"message":)" + message + R"(,"finish_reason":")" + finish +
           R"("}],"usage":{"prompt_tokens":10,"completion_tokens":5}})";
}

} // namespace

int main() {
    for (const auto& s : openai_samples::samples()) print(s.name, s.provider.request(s.request()).body);

    agentry::replay_transport http{{
        agentry::replay_response::ok(reply(R"({"role":"assistant","content":null,"tool_calls":[{"id":"call_1",)"
                                           R"("type":"function","function":{"name":"get_weather",)"
                                           R"("arguments":"{\"city\":\"Paris\",\"units\":null}"}}]})",
                                           "tool_calls")),
        agentry::replay_response::ok(reply(R"({"role":"assistant","content":"{\"items\":\"umbrella\"}"})", "stop")),
        agentry::replay_response::ok(
            reply(R"({"role":"assistant","content":"{\"items\":[\"umbrella\"],\"units\":null}"})", "stop")),
    }};
    constexpr agentry::loop_config config{.parallel_tool_calls = true};
    agentry::agent<config, openai_samples::packing_list> agent{agentry::openai{.model = "gpt-4o-mini"},
                                                               openai_samples::tools, "Pack light.", replay_at{&http}};
    const agentry::typed_result<openai_samples::packing_list> r = agent.run("What should I pack for Paris?");
    const std::vector<agentry::http_request> sent = http.requests();
    for (std::size_t i = 0; i != sent.size(); ++i)
        print("an agent with a typed output, request " + std::to_string(i + 1), sent[i].body);
    if (!r.output || sent.size() != 3) {
        std::fputs("the typed run did not complete in three requests\n", stderr);
        return 1;
    }
    return 0;
}
