// SPDX-License-Identifier: BSL-1.0
// agentry::openai_responses::stream. No Responses stream is recorded in ../shared/testdata: the
// streams here are written after the examples of OpenAI's streaming documentation (the event
// names and members of the API reference's "Streaming events": response.created,
// response.output_item.added/.done, response.function_call_arguments.delta/.done,
// response.output_text.delta, response.completed/.incomplete/.failed, error), with the items
// of response.cpp. Each is fed whole, split in two at every byte and one byte at a time.

#include "check.hpp"
#include "samples.hpp"

#include <agentry/provider/openai_responses.hpp>
#include <agentry/transport/replay.hpp>

#include <doctest/doctest.h>

#include <string>
#include <vector>

namespace {

using responses_check::describe;
using responses_samples::provider;
using responses_samples::state;

std::string event(const std::string& type, const std::string& data) {
    return "event: " + type + "\ndata: " + data + "\n\n";
}

const std::string message_item =
    R"({"id":"msg_1","type":"message","status":"completed","role":"assistant","content":[{"type":"output_text","text":"Checking both.","annotations":[]}]})";
const std::string weather_item =
    R"({"id":"fc_1","type":"function_call","status":"completed","arguments":"{\"city\":\"Paris\",\"units\":null}","call_id":"call_1","name":"get_weather"})";
const std::string add_item =
    R"({"id":"fc_2","type":"function_call","status":"completed","arguments":"{\"a\":2,\"b\":3}","call_id":"call_2","name":"add"})";
const std::string usage = R"("usage":{"input_tokens":1200,"input_tokens_details":{"cached_tokens":1024,"cache_write_tokens":0},)"
                          R"("output_tokens":300,"output_tokens_details":{"reasoning_tokens":256},"total_tokens":1500})";

/// The whole response the stream below ends with.
std::string whole_response() {
    return R"({"id":"resp_1","object":"response","status":"completed","output":[)" + responses_samples::reasoning_1 + "," +
           message_item + "," + weather_item + "," + responses_samples::reasoning_2 + "," + add_item + "]," + usage + "}";
}

/// Reasoning, text in two deltas, two calls with their arguments in pieces, response.completed.
std::string tool_stream() {
    std::string s;
    s += event("response.created", R"({"type":"response.created","sequence_number":0,"response":{"id":"resp_1","object":"response","status":"in_progress","output":[],"usage":null}})");
    s += event("response.in_progress", R"({"type":"response.in_progress","sequence_number":1,"response":{"id":"resp_1","object":"response","status":"in_progress","output":[]}})");
    // The added reasoning item's encrypted_content is incomplete: the done item's is sent back.
    s += event("response.output_item.added", R"({"type":"response.output_item.added","sequence_number":2,"output_index":0,"item":{"id":"rs_1","type":"reasoning","summary":[],"encrypted_content":"gAA"}})");
    s += event("response.reasoning_summary_text.delta", R"({"type":"response.reasoning_summary_text.delta","sequence_number":3,"item_id":"rs_1","output_index":0,"summary_index":0,"delta":"Need the weather"})");
    s += event("response.output_item.done", R"({"type":"response.output_item.done","sequence_number":4,"output_index":0,"item":)" + responses_samples::reasoning_1 + "}");
    s += event("response.output_item.added", R"({"type":"response.output_item.added","sequence_number":5,"output_index":1,"item":{"id":"msg_1","type":"message","status":"in_progress","role":"assistant","content":[]}})");
    s += event("response.content_part.added", R"({"type":"response.content_part.added","sequence_number":6,"item_id":"msg_1","output_index":1,"content_index":0,"part":{"type":"output_text","text":"","annotations":[]}})");
    s += event("response.output_text.delta", R"({"type":"response.output_text.delta","sequence_number":7,"item_id":"msg_1","output_index":1,"content_index":0,"delta":"Checking","logprobs":[]})");
    s += event("response.output_text.delta", R"({"type":"response.output_text.delta","sequence_number":8,"item_id":"msg_1","output_index":1,"content_index":0,"delta":" both.","logprobs":[]})");
    s += event("response.output_text.done", R"({"type":"response.output_text.done","sequence_number":9,"item_id":"msg_1","output_index":1,"content_index":0,"text":"Checking both.","logprobs":[]})");
    s += event("response.output_item.done", R"({"type":"response.output_item.done","sequence_number":10,"output_index":1,"item":)" + message_item + "}");
    s += event("response.output_item.added", R"({"type":"response.output_item.added","sequence_number":11,"output_index":2,"item":{"id":"fc_1","type":"function_call","status":"in_progress","arguments":"","call_id":"call_1","name":"get_weather"}})");
    s += event("response.function_call_arguments.delta", R"({"type":"response.function_call_arguments.delta","sequence_number":12,"item_id":"fc_1","output_index":2,"delta":"{\"city\":"})");
    s += event("response.function_call_arguments.delta", R"({"type":"response.function_call_arguments.delta","sequence_number":13,"item_id":"fc_1","output_index":2,"delta":"\"Paris\",\"units\":null}"})");
    s += event("response.function_call_arguments.done", R"({"type":"response.function_call_arguments.done","sequence_number":14,"item_id":"fc_1","output_index":2,"arguments":"{\"city\":\"Paris\",\"units\":null}"})");
    s += event("response.output_item.done", R"({"type":"response.output_item.done","sequence_number":15,"output_index":2,"item":)" + weather_item + "}");
    s += event("response.output_item.added", R"({"type":"response.output_item.added","sequence_number":16,"output_index":3,"item":{"id":"rs_2","type":"reasoning","summary":[]}})");
    s += event("response.output_item.done", R"({"type":"response.output_item.done","sequence_number":17,"output_index":3,"item":)" + responses_samples::reasoning_2 + "}");
    s += event("response.output_item.added", R"({"type":"response.output_item.added","sequence_number":18,"output_index":4,"item":{"id":"fc_2","type":"function_call","status":"in_progress","arguments":"","call_id":"call_2","name":"add"}})");
    s += event("response.function_call_arguments.delta", R"({"type":"response.function_call_arguments.delta","sequence_number":19,"item_id":"fc_2","output_index":4,"delta":"{\"a\":2,"})");
    s += event("response.function_call_arguments.delta", R"({"type":"response.function_call_arguments.delta","sequence_number":20,"item_id":"fc_2","output_index":4,"delta":"\"b\":3}"})");
    s += event("response.output_item.done", R"({"type":"response.output_item.done","sequence_number":21,"output_index":4,"item":)" + add_item + "}");
    s += event("response.completed", R"({"type":"response.completed","sequence_number":22,"response":)" + whole_response() + "}");
    return s;
}

} // namespace

TEST_CASE("stream: reasoning, text and two calls give what the whole response gives") {
    for (const state s : {state::stateless, state::previous_response}) {
        const agentry::openai_responses p = provider(s);
        const responses_check::streamed r = responses_check::check_every_split(p, tool_stream());
        CHECK(describe(r.result) == describe(p.parse({200, {}, whole_response()})));
        CHECK(r.text == "Checking both.");
        CHECK(r.calls == std::vector<std::string>{"call_1 get_weather", "call_2 add"});
        CHECK(r.arguments.at("call_1") == R"({"city":"Paris","units":null})");
        CHECK(r.arguments.at("call_2") == R"({"a":2,"b":3})");
        REQUIRE(r.result.ok());
        REQUIRE(r.result.value->reply.parts.has_value());
        CHECK(r.result.value->reply.parts->front().raw == responses_samples::reasoning_1);
    }
}

TEST_CASE("stream: the done items win over the final response's, which fill the gaps") {
    // No output_item.done for the call: it comes from response.completed; the reasoning item of
    // output_item.done replaces the (older) one the final response holds.
    std::string s;
    s += event("response.output_item.done", R"({"type":"response.output_item.done","output_index":0,"item":)" + responses_samples::reasoning_2 + "}");
    s += event("response.completed",
               R"({"type":"response.completed","response":{"id":"resp_2","status":"completed","output":[{"id":"rs_2","type":"reasoning","summary":[]},)" +
                   add_item + "]}}");
    const responses_check::streamed r = responses_check::check_every_split(provider(), s);
    CHECK(describe(r.result) ==
          R"(text= calls=[call_2|add|{"a":2,"b":3}|;] finish=tool_calls provider=completed usage=0/0 incomplete=0 refusal= )"
          "parts=[openai_responses reasoning@0=" + responses_samples::reasoning_2 +
          R"(][openai_responses function_call_id@1="fc_2"] cached=0 cache_write=0 reasoning=0)");
    CHECK(r.calls.empty());
}

TEST_CASE("stream: arguments sent whole in output_item.done are one piece") {
    std::string s;
    s += event("response.output_item.done", R"({"type":"response.output_item.done","output_index":0,"item":)" + add_item + "}");
    s += event("response.completed", R"({"type":"response.completed","response":{"id":"resp_3","status":"completed","output":[]}})");
    const responses_check::streamed r = responses_check::check_every_split(provider(), s);
    CHECK(r.calls == std::vector<std::string>{"call_2 add"});
    CHECK(r.arguments.at("call_2") == R"({"a":2,"b":3})");
    CHECK(describe(r.result).starts_with(R"(text= calls=[call_2|add|{"a":2,"b":3}|;] finish=tool_calls)"));
}

TEST_CASE("stream: events without event: lines, by their type") {
    const std::string s =
        "data: " R"({"type":"response.output_text.delta","item_id":"msg_1","output_index":0,"content_index":0,"delta":"Hi"})" "\n\n"
        "data: " R"({"type":"response.output_item.done","output_index":0,"item":{"id":"msg_1","type":"message","role":"assistant","content":[{"type":"output_text","text":"Hi"}]}})" "\n\n"
        "data: " R"({"type":"response.completed","response":{"id":"resp_4","status":"completed","output":[],"usage":{"input_tokens":3,"output_tokens":1}}})" "\n\n";
    const responses_check::streamed r = responses_check::check_every_split(provider(), s);
    CHECK(r.text == "Hi");
    CHECK(describe(r.result) == "text=Hi calls=[] finish=stop provider=completed usage=3/1 incomplete=0 refusal= "
                                "parts=none cached=0 cache_write=0 reasoning=0");
}

TEST_CASE("stream: response.incomplete at max_output_tokens") {
    std::string s;
    s += event("response.output_item.added", R"({"type":"response.output_item.added","output_index":0,"item":{"id":"fc_9","type":"function_call","arguments":"","call_id":"call_9","name":"add"}})");
    s += event("response.function_call_arguments.delta", R"({"type":"response.function_call_arguments.delta","item_id":"fc_9","output_index":0,"delta":"{\"a\":1,"})");
    s += event("response.output_item.done", R"({"type":"response.output_item.done","output_index":0,"item":{"id":"fc_9","type":"function_call","status":"incomplete","arguments":"{\"a\":1,","call_id":"call_9","name":"add"}})");
    s += event("response.incomplete", R"({"type":"response.incomplete","response":{"id":"resp_5","status":"incomplete","incomplete_details":{"reason":"max_output_tokens"},"output":[]}})");
    const responses_check::streamed r = responses_check::check_every_split(provider(), s);
    CHECK(describe(r.result) == "text= calls=[] finish=max_tokens provider=max_output_tokens usage=0/0 incomplete=1 "
                                "refusal= parts=none cached=0 cache_write=0 reasoning=0");
    CHECK(r.arguments.at("call_9") == R"({"a":1,)");
}

TEST_CASE("stream: response.failed and error events are provider_errors") {
    const std::string failed = event(
        "response.failed",
        R"({"type":"response.failed","response":{"id":"resp_6","status":"failed","error":{"code":"server_error","message":"The model failed."},"output":[]}})");
    CHECK(describe(responses_check::check_every_split(provider(), failed).result) ==
          "error server status=200 type=server_error retryable=1 retry_after=- message=The model failed.");
    const std::string error = event("response.output_text.delta", R"({"type":"response.output_text.delta","delta":"Hi"})") +
                              event("error", R"({"type":"error","code":"rate_limit_exceeded","message":"Rate limit reached.","param":null,"sequence_number":1})");
    CHECK(describe(responses_check::check_every_split(provider(), error).result) ==
          "error rate_limited status=200 type=rate_limit_exceeded retryable=1 retry_after=- message=Rate limit reached.");
    const std::string nested = event(
        "error", R"({"type":"error","error":{"type":"invalid_request_error","code":null,"message":"Item with id 'rs_1' not found."}})");
    CHECK(describe(responses_check::check_every_split(provider(), nested).result)
              .starts_with("error bad_request status=200 type=invalid_request_error retryable=0 retry_after=- "
                           "message=Item with id 'rs_1' not found. (agentry: the reasoning item was sent by its id"));
}

TEST_CASE("stream: a stream without its final event returns nothing") {
    const std::string body = tool_stream();
    const std::string cut = body.substr(0, body.find("event: response.completed"));
    CHECK(describe(responses_check::check_every_split(provider(), cut).result) ==
          "error malformed status=0 type= retryable=0 retry_after=- message=agentry: OpenAI Responses stream ended "
          "before response.completed, response.incomplete or response.failed; its tool calls were not returned");
    // Cut inside the final event: the event is not read.
    const std::string inside = body.substr(0, body.size() - 20);
    CHECK(describe(responses_check::run(provider(), inside, {}).result) ==
          "error malformed status=0 type= retryable=0 retry_after=- message=agentry: OpenAI Responses stream ended "
          "before response.completed, response.incomplete or response.failed, in the middle of an event; its tool "
          "calls were not returned");
    // The final event without its blank line is read.
    const std::string unterminated = body.substr(0, body.size() - 2);
    CHECK(describe(responses_check::run(provider(), unterminated, {}).result) ==
          describe(provider().parse({200, {}, whole_response()})));
    CHECK(describe(responses_check::run(provider(), "", {}).result) ==
          "error malformed status=0 type= retryable=0 retry_after=- message=agentry: OpenAI Responses stream ended "
          "before response.completed, response.incomplete or response.failed");
}

TEST_CASE("stream: an unreadable event is malformed, a non-2xx head is typed by its status") {
    const std::string bad = event("response.output_text.delta", R"({"type":"response.output_text.delta","delta":5})") +
                            event("response.completed", R"({"type":"response.completed","response":{"status":"completed"}})");
    CHECK(describe(responses_check::check_every_split(provider(), bad).result)
              .starts_with("error malformed status=0 type= retryable=0 retry_after=- message=agentry: OpenAI Responses "
                           "stream: event 1 (response.output_text.delta) is unreadable: "));
    const agentry::http_response head{401, {}, R"({"error":{"message":"Bad key","type":"invalid_request_error","code":"invalid_api_key"}})"};
    CHECK(describe(responses_check::run(provider(), "", {}, head).result) ==
          "error authentication status=401 type=invalid_api_key retryable=0 retry_after=- message=Bad key");
}

TEST_CASE("complete: a streamed turn over a scripted transport") {
    const std::string body = tool_stream();
    std::vector<std::string> chunks;
    for (std::size_t at = 0; at < body.size(); at += 97) chunks.push_back(body.substr(at, 97));
    agentry::replay_transport http{{agentry::replay_response::streamed(chunks)}};
    agentry::openai_responses p = provider();
    p.api_key = "sk-test";
    const std::vector<agentry::message> messages{agentry::message::user("Weather in Paris, and 2+3?")};
    std::string arguments;
    agentry::stream_events events;
    events.on_tool_arguments = [&](std::string_view id, std::string_view piece) {
        if (id == "call_2") arguments.append(piece);
    };
    const agentry::turn_result r =
        agentry::complete(p, http, responses_samples::make_request(messages, {.stream = true}), events);
    CHECK(describe(r) == describe(p.parse({200, {}, whole_response()})));
    CHECK(arguments == R"({"a":2,"b":3})");
    REQUIRE(http.requests().size() == 1);
    CHECK(http.requests()[0].body.ends_with(R"("store":false,"stream":true})"));
}

TEST_CASE("stream: calls without item ids are told apart by their call_id") {
    std::string s;
    s += event("response.output_item.done", R"({"type":"response.output_item.done","output_index":0,"item":{"type":"function_call","call_id":"call_a","name":"add","arguments":"{\"a\":1,\"b\":2}"}})");
    s += event("response.output_item.done", R"({"type":"response.output_item.done","output_index":1,"item":{"type":"function_call","call_id":"call_b","name":"add","arguments":"{\"a\":3,\"b\":4}"}})");
    s += event("response.completed", R"({"type":"response.completed","response":{"id":"resp_8","status":"completed","output":[]}})");
    const responses_check::streamed r = responses_check::check_every_split(provider(), s);
    CHECK(r.calls == std::vector<std::string>{"call_a add", "call_b add"});
    CHECK(r.arguments.at("call_a") == R"({"a":1,"b":2})");
    CHECK(r.arguments.at("call_b") == R"({"a":3,"b":4})");
    CHECK(describe(r.result) == R"(text= calls=[call_a|add|{"a":1,"b":2}|;call_b|add|{"a":3,"b":4}|;] finish=tool_calls )"
                                "provider=completed usage=0/0 incomplete=0 refusal= parts=none cached=0 cache_write=0 "
                                "reasoning=0");
}

TEST_CASE("stream: a refusal") {
    const std::string item = R"({"id":"msg_r","type":"message","status":"completed","role":"assistant","content":[{"type":"refusal","refusal":"I can't help with that."}]})";
    std::string s;
    s += event("response.output_item.added", R"({"type":"response.output_item.added","output_index":0,"item":{"id":"msg_r","type":"message","status":"in_progress","role":"assistant","content":[]}})");
    s += event("response.refusal.delta", R"({"type":"response.refusal.delta","item_id":"msg_r","output_index":0,"content_index":0,"delta":"I can't help"})");
    s += event("response.refusal.done", R"({"type":"response.refusal.done","item_id":"msg_r","output_index":0,"content_index":0,"refusal":"I can't help with that."})");
    s += event("response.output_item.done", R"({"type":"response.output_item.done","output_index":0,"item":)" + item + "}");
    s += event("response.completed", R"({"type":"response.completed","response":{"id":"resp_r","status":"completed","output":[)" + item + "]}}");
    const responses_check::streamed r = responses_check::check_every_split(provider(), s);
    CHECK(r.text.empty());
    CHECK(describe(r.result) == "text= calls=[] finish=refusal provider=completed usage=0/0 incomplete=0 "
                                "refusal=I can't help with that. parts=none cached=0 cache_write=0 reasoning=0");
}
