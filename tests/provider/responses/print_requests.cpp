// SPDX-License-Identifier: BSL-1.0
// Prints the body agentry::openai_responses builds for each representative request, one JSON
// object per line: {"name":...,"body":<the request body>}. Read by request_schema.mjs. Then the
// requests of a run of an agent with a typed output (tools and text.format together, a reasoning
// item and a call sent back, a repair message), as the agent sends them.

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

std::string reply(const std::string& output) {
    return R"({"id":"resp_1","object":"response","status":"completed","output":[)" + output +
           R"(],"usage":{"input_tokens":10,"output_tokens":5}})";
}

std::string text_item(const std::string& json_text) {
    std::string out = R"({"id":"msg_1","type":"message","role":"assistant","content":[{"type":"output_text","text":)";
    agentry::json::write(out, json_text);
    return out + "}]}";
}

} // namespace

int main() {
    for (const auto& s : responses_samples::samples()) print(s.name, s.provider.request(s.request()).body);

    agentry::replay_transport http{{
        agentry::replay_response::ok(reply(responses_samples::reasoning_1 +
                                           R"(,{"id":"fc_1","type":"function_call","call_id":"call_1","name":"get_weather",)"
                                           R"("arguments":"{\"city\":\"Paris\",\"units\":null}"})")),
        agentry::replay_response::ok(reply(text_item(R"({"items":"umbrella"})"))),
        agentry::replay_response::ok(reply(text_item(R"({"items":["umbrella"],"units":null})"))),
    }};
    constexpr agentry::loop_config config{.parallel_tool_calls = true};
    agentry::agent<config, responses_samples::packing_list> agent{
        responses_samples::provider(), responses_samples::tools, "Pack light.", replay_at{&http}};
    const agentry::typed_result<responses_samples::packing_list> r = agent.run("What should I pack for Paris?");
    const std::vector<agentry::http_request> sent = http.requests();
    for (std::size_t i = 0; i != sent.size(); ++i)
        print("an agent with a typed output, request " + std::to_string(i + 1), sent[i].body);
    if (!r.output || sent.size() != 3) {
        std::fputs("the typed run did not complete in three requests\n", stderr);
        return 1;
    }
    return 0;
}
