// SPDX-License-Identifier: BSL-1.0
// agentry::openai_responses::parse: whole responses (the shapes of the examples of OpenAI's API
// reference), error bodies and statuses.

#include "check.hpp"
#include "samples.hpp"

#include <agentry/provider/openai_responses.hpp>

#include <doctest/doctest.h>

#include <string>

namespace {

using responses_check::describe;
using responses_samples::provider;
using responses_samples::state;

agentry::turn_result parse(const std::string& body, state s = state::stateless) {
    return provider(s).parse({200, {{"content-type", "application/json"}}, body});
}

const std::string usage = R"("usage":{"input_tokens":1200,"input_tokens_details":{"cached_tokens":1024},)"
                          R"("output_tokens":300,"output_tokens_details":{"reasoning_tokens":256},"total_tokens":1500})";

} // namespace

TEST_CASE("parse: reasoning, text and two calls, usage with cached and reasoning tokens") {
    const std::string body =
        R"({"id":"resp_1","object":"response","created_at":1741476542,"status":"completed","error":null,)"
        R"("incomplete_details":null,"model":"gpt-5-mini","output":[)" +
        responses_samples::reasoning_1 +
        R"(,{"id":"msg_1","type":"message","status":"completed","role":"assistant","content":[{"type":"output_text","text":"Checking both.","annotations":[]}]},)"
        R"({"id":"fc_1","type":"function_call","status":"completed","arguments":"{\"city\":\"Paris\",\"units\":null}","call_id":"call_1","name":"get_weather"},)" +
        responses_samples::reasoning_2 +
        R"(,{"id":"fc_2","type":"function_call","status":"completed","arguments":"{\"a\":2,\"b\":3}","call_id":"call_2","name":"add"}],)" +
        usage + "}";
    CHECK(describe(parse(body)) ==
          R"(text=Checking both. calls=[call_1|get_weather|{"city":"Paris","units":null}|;call_2|add|{"a":2,"b":3}|;] )"
          R"(finish=tool_calls provider=completed usage=1200/300 incomplete=0 refusal= parts=)"
          "[openai_responses reasoning@0=" + responses_samples::reasoning_1 +
          R"(][openai_responses function_call_id@1="fc_1"])"
          "[openai_responses reasoning@2=" + responses_samples::reasoning_2 +
          R"(][openai_responses function_call_id@2="fc_2"] cached=1024 cache_write=0 reasoning=256)");
    // previous_response: the response's id is kept too.
    CHECK(describe(parse(body, state::previous_response)).find(R"([openai_responses response_id@0="resp_1"] cached=)") !=
          std::string::npos);
}

TEST_CASE("parse: a reasoning item's text is kept byte for byte") {
    const std::string item = R"({ "id" : "rs_7", "type":"reasoning","summary":[ ],"encrypted_content":"a\u00e9b" })";
    const std::string body = R"({"id":"resp_7","status":"completed","output":[)" + item +
                             R"(,{"type":"message","role":"assistant","content":[{"type":"output_text","text":"Hi"},{"type":"output_text","text":" there"}]}]})";
    const agentry::turn_result r = parse(body);
    REQUIRE(r.ok());
    REQUIRE(r.value->reply.parts.has_value());
    REQUIRE(r.value->reply.parts->size() == 1);
    CHECK(r.value->reply.parts->front().raw == item);
    CHECK(r.value->reply.text == "Hi there");
    CHECK(r.value->finish == agentry::finish_reason::stop);
}

TEST_CASE("parse: text only, stateless: no parts") {
    const agentry::turn_result r = parse(
        R"({"id":"resp_2","status":"completed","output":[{"id":"msg_2","type":"message","role":"assistant",)"
        R"("content":[{"type":"output_text","text":"Hello.","annotations":[]}]}],"usage":{"input_tokens":5,"output_tokens":2}})");
    CHECK(describe(r) == "text=Hello. calls=[] finish=stop provider=completed usage=5/2 incomplete=0 refusal= parts=none "
                         "cached=0 cache_write=0 reasoning=0");
}

TEST_CASE("parse: a refusal") {
    const agentry::turn_result r = parse(
        R"({"id":"resp_3","status":"completed","output":[{"id":"msg_3","type":"message","role":"assistant",)"
        R"("content":[{"type":"refusal","refusal":"I can't help with that."}]}]})");
    CHECK(describe(r) == "text= calls=[] finish=refusal provider=completed usage=0/0 incomplete=0 "
                         "refusal=I can't help with that. parts=none cached=0 cache_write=0 reasoning=0");
}

TEST_CASE("parse: incomplete at max_output_tokens drops a call cut off") {
    const agentry::turn_result r = parse(
        R"({"id":"resp_4","status":"incomplete","incomplete_details":{"reason":"max_output_tokens"},"output":[)"
        R"({"id":"fc_1","type":"function_call","arguments":"{\"a\":1,\"b\":2}","call_id":"call_1","name":"add"},)"
        R"({"id":"fc_2","type":"function_call","status":"incomplete","arguments":"{\"a\":1,","call_id":"call_2","name":"add"}],)"
        R"("usage":{"input_tokens":9,"output_tokens":16}})");
    CHECK(describe(r) == R"(text= calls=[call_1|add|{"a":1,"b":2}|;] finish=max_tokens provider=max_output_tokens )"
                         R"(usage=9/16 incomplete=1 refusal= parts=[openai_responses function_call_id@1="fc_1"] )"
                         "cached=0 cache_write=0 reasoning=0");
}

TEST_CASE("parse: incomplete by the content filter") {
    const agentry::turn_result r = parse(
        R"({"id":"resp_5","status":"incomplete","incomplete_details":{"reason":"content_filter"},"output":[)"
        R"({"type":"message","role":"assistant","content":[{"type":"output_text","text":"Partial"}]}]})");
    CHECK(describe(r) == "text=Partial calls=[] finish=content_filter provider=content_filter usage=0/0 incomplete=0 "
                         "refusal= parts=none cached=0 cache_write=0 reasoning=0");
}

TEST_CASE("parse: a failed response is a provider_error") {
    CHECK(describe(parse(R"({"id":"resp_6","status":"failed","error":{"code":"server_error","message":"The model failed."},"output":[]})")) ==
          "error server status=200 type=server_error retryable=1 retry_after=- message=The model failed.");
    CHECK(describe(parse(R"({"id":"resp_6","status":"failed","error":{"code":"invalid_prompt","message":"Bad prompt."}})")) ==
          "error bad_request status=200 type=invalid_prompt retryable=0 retry_after=- message=Bad prompt.");
    CHECK(describe(parse(R"({"id":"resp_6","status":"failed","error":{"code":"rate_limit_exceeded","message":"Slow down."}})")) ==
          "error rate_limited status=200 type=rate_limit_exceeded retryable=1 retry_after=- message=Slow down.");
    CHECK(describe(parse(R"({"id":"resp_6","status":"failed"})")) ==
          "error server status=200 type= retryable=1 retry_after=- message=the response failed without an error message");
}

TEST_CASE("parse: unreadable bodies are malformed") {
    CHECK(describe(parse("")) == "error malformed status=0 type= retryable=0 retry_after=- message=agentry: OpenAI "
                                 "Responses response is not a JSON object: ");
    CHECK(describe(parse(R"({"status":"completed","output":[{"type":"function_call","call_id":"c","arguments":"{}"}]})")) ==
          "error malformed status=0 type= retryable=0 retry_after=- message=agentry: OpenAI Responses response: tool "
          "call 0 (id c) has no function name; a call must name its tool");
    CHECK(describe(parse(R"({"status":"completed","output":[{"type":"message","content":"text"}]})"))
              .starts_with("error malformed status=0 type= retryable=0 retry_after=- message=agentry: OpenAI Responses "
                           "response: output item 0 is unreadable: "));
}

TEST_CASE("parse: error statuses, and the hint for a reasoning item the server did not keep") {
    const agentry::turn_result missing = provider().parse(
        {404,
         {},
         R"({"error":{"message":"Item with id 'rs_123' not found. Items are not persisted when `store` is set to false. )"
         R"(Try again with `store` set to true, or remove this item from your input.","type":"invalid_request_error","param":"input","code":null}})"});
    CHECK(describe(missing) ==
          "error bad_request status=404 type=invalid_request_error retryable=0 retry_after=- message=Item with id "
          "'rs_123' not found. Items are not persisted when `store` is set to false. Try again with `store` set to "
          "true, or remove this item from your input. (agentry: the reasoning item was sent by its id without its "
          "encrypted content, and the server did not store it; use reasoning_state::stateless, which sends "
          "store:false and asks for reasoning.encrypted_content, or reasoning_state::previous_response)");
    const agentry::turn_result limited = provider().parse(
        {429,
         {{"retry-after", "2"}},
         R"({"error":{"message":"Rate limit reached","type":"requests","code":"rate_limit_exceeded"}})"});
    CHECK(describe(limited) == "error rate_limited status=429 type=rate_limit_exceeded retryable=1 retry_after=2000 "
                               "message=Rate limit reached");
    const agentry::turn_result key = provider().parse(
        {401, {}, R"({"error":{"message":"Incorrect API key provided.","type":"invalid_request_error","code":"invalid_api_key"}})"});
    CHECK(describe(key) == "error authentication status=401 type=invalid_api_key retryable=0 retry_after=- "
                           "message=Incorrect API key provided.");
}
