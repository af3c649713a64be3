// SPDX-License-Identifier: BSL-1.0
// agentry::openai::stream: the recorded OpenAI streams from ../shared/testdata, fed whole,
// in two pieces split at every byte and one byte at a time, cut at every byte; synthetic
// streams for what other servers send; agentry::complete over a scripted transport.

#include "samples.hpp"

#include <agentry/provider/openai.hpp>

#include <doctest/doctest.h>

#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>
#include <utility>
#include <vector>

using agentry::finish_reason;
using agentry::provider_error_kind;

namespace {

const agentry::openai gpt{.model = "gpt-4o-mini"};

struct run_result {
    agentry::turn_result result;
    std::string text_events;  // on_text pieces joined with '|'
    std::vector<std::string> announced;  // on_tool_call as "id name"
    std::vector<std::string> pieces;  // on_tool_arguments as "id piece"
    std::string order_error;  // a piece for an id on_tool_call had not been given
};

// The on_tool_arguments pieces of `id`, joined.
std::string joined_pieces(const run_result& r, std::string_view id) {
    std::string out;
    for (const std::string& p : r.pieces)
        if (std::string_view(p).substr(0, p.find(' ')) == id) out += p.substr(p.find(' ') + 1);
    return out;
}

// Whether the pieces of every returned call join to its arguments, and every piece belongs to
// a returned call.
bool pieces_join(const run_result& r) {
    if (!r.order_error.empty() || !r.result.ok()) return false;
    std::size_t used = 0;
    for (const auto& call : r.result.value->reply.tool_calls) {
        if (joined_pieces(r, call.id) != call.arguments) return false;
        for (const std::string& p : r.pieces) used += p.starts_with(call.id + " ") ? 1 : 0;
    }
    return used == r.pieces.size();
}

// Feeds `body` in pieces ending at each of `cuts` (then the rest) and finishes.
run_result run(std::string_view body, const std::vector<std::size_t>& cuts = {}, int status = 200) {
    run_result out;
    agentry::stream_events events;
    events.on_text = [&](std::string_view t) {
        if (!out.text_events.empty()) out.text_events += '|';
        out.text_events += t;
    };
    events.on_tool_call = [&](std::string_view id, std::string_view name) {
        out.announced.push_back(std::string(id) + " " + std::string(name));
    };
    events.on_tool_arguments = [&](std::string_view id, std::string_view piece) {
        bool known = false;
        for (const std::string& a : out.announced) known = known || a.starts_with(std::string(id) + " ");
        if (!known) out.order_error = "a piece for " + std::string(id) + " before its on_tool_call";
        if (piece.empty()) out.order_error = "an empty piece for " + std::string(id);
        out.pieces.push_back(std::string(id) + " " + std::string(piece));
    };
    agentry::openai::stream s = gpt.start_stream(std::move(events));
    std::size_t at = 0;
    for (std::size_t cut : cuts) {
        s.feed(body.substr(at, cut - at));
        at = cut;
    }
    s.feed(body.substr(at));
    agentry::http_response head;
    head.status = status;
    out.result = s.finish(head);
    return out;
}

run_result run_bytewise(std::string_view body) {
    std::vector<std::size_t> cuts;
    for (std::size_t i = 1; i < body.size(); ++i) cuts.push_back(i);
    return run(body, cuts);
}

// Everything a completion holds, as one comparable string.
std::string summary(const agentry::turn_result& r) {
    if (!r.ok()) return "error " + std::to_string(int(r.error.kind)) + ": " + r.error.message;
    const agentry::completion& c = *r.value;
    std::string s = "text=" + c.reply.text + " refusal=" + c.refusal + " finish=" + std::to_string(int(c.finish)) +
                    "/" + c.provider_finish + " usage=" + std::to_string(c.usage.input_tokens) + "/" +
                    std::to_string(c.usage.output_tokens) + (c.incomplete_tool_call ? " incomplete" : "");
    for (const auto& call : c.reply.tool_calls) s += " [" + call.id + " " + call.name + " " + call.arguments + "]";
    return s;
}

std::vector<std::pair<std::string, std::string>> calls_of(const agentry::turn_result& r) {
    std::vector<std::pair<std::string, std::string>> out;
    if (r.ok())
        for (const auto& c : r.value->reply.tool_calls) out.emplace_back(c.name, c.arguments);
    return out;
}

std::string chunk(std::string_view delta, std::string_view finish = "null") {
    return R"(data: {"id":"chatcmpl-1","object":"chat.completion.chunk","created":1,"model":"m","choices":[{"index":0,"delta":)" +
           std::string(delta) + R"(,"logprobs":null,"finish_reason":)" + std::string(finish) + "}]}\n\n";
}

const std::string done = "data: [DONE]\n\n";

std::filesystem::path streams_dir() { return std::filesystem::path(AGENTRY_TESTDATA) / "provider-streams" / "openai"; }

std::string read_file(const std::filesystem::path& p) {
    std::ifstream in(p, std::ios::binary);
    std::ostringstream s;
    s << in.rdbuf();
    return s.str();
}

struct recorded {
    const char* file;
    std::vector<std::pair<std::string, std::string>> calls;
    agentry::token_usage usage;
};

const std::vector<recorded>& recordings() {
    static const std::vector<recorded> r{
        {"chat_tool_call_single.sse", {{"GetWeatherArgs", R"({"city":"Edinburgh","country":"UK","units":"c"})"}}, {76, 24}},
        {"chat_tool_calls_parallel.sse",
         {{"GetWeatherArgs", R"({"city": "Edinburgh", "country": "GB", "units": "c"})"},
          {"get_stock_price", R"({"ticker": "AAPL", "exchange": "NASDAQ"})"}},
         {149, 60}},
        {"chat_tool_call_nyc.sse", {{"get_weather", R"({"city":"New York City"})"}}, {44, 16}},
        {"chat_tool_call_sf_strict.sse", {{"get_weather", R"({"city":"San Francisco","state":"CA"})"}}, {48, 19}},
        {"chat_refusal_no_tools.sse", {}, {79, 11}},
    };
    return r;
}

bool have_recordings() {
    if (std::filesystem::is_directory(streams_dir())) return true;
    MESSAGE("SKIP: " << streams_dir().string() << " not found (the shared test data is absent)");
    return false;
}

} // namespace

TEST_CASE("recorded streams: whole, the expected calls, usage and finish") {
    if (!have_recordings()) return;
    for (const recorded& rec : recordings()) {
        CAPTURE(rec.file);
        const std::string body = read_file(streams_dir() / rec.file);
        REQUIRE_FALSE(body.empty());
        const run_result r = run(body);
        REQUIRE(r.result.ok());
        CHECK(calls_of(r.result) == rec.calls);
        CHECK(r.result.value->usage == rec.usage);
        CHECK(r.result.value->reply.text.empty());
        CHECK_FALSE(r.result.value->incomplete_tool_call);
        if (rec.calls.empty()) {
            CHECK(r.result.value->finish == finish_reason::refusal);
            CHECK(r.result.value->refusal == "I'm sorry, I can't assist with that request.");
            CHECK(r.announced.empty());
        } else {
            CHECK(r.result.value->finish == finish_reason::tool_calls);
            CHECK(r.result.value->provider_finish == "tool_calls");
            CHECK(pieces_join(r));
            CHECK(r.pieces.size() > rec.calls.size());  // the recorded arguments come in several pieces
            REQUIRE(r.announced.size() == rec.calls.size());
            for (std::size_t i = 0; i != rec.calls.size(); ++i) {
                CHECK(r.result.value->reply.tool_calls[i].id.starts_with("call_"));
                CHECK(r.announced[i] == r.result.value->reply.tool_calls[i].id + " " + rec.calls[i].first);
            }
        }
    }
}

TEST_CASE("recorded streams: the same result split at every byte, and one byte at a time") {
    if (!have_recordings()) return;
    for (const recorded& rec : recordings()) {
        CAPTURE(rec.file);
        const std::string body = read_file(streams_dir() / rec.file);
        const run_result whole = run(body);
        const std::string expected = summary(whole.result);
        std::size_t mismatches = 0;
        for (std::size_t split = 1; split < body.size(); ++split) {
            const run_result r = run(body, {split});
            const std::string got = summary(r.result);
            if (got != expected || r.pieces != whole.pieces || !pieces_join(r)) {
                ++mismatches;
                CAPTURE(split);
                CHECK(got == expected);
                CHECK(pieces_join(r));
            }
        }
        CHECK(mismatches == 0);
        const run_result bytewise = run_bytewise(body);
        CHECK(summary(bytewise.result) == expected);
        CHECK(bytewise.pieces == whole.pieces);
        CHECK(pieces_join(bytewise));
    }
}

TEST_CASE("recorded streams cut at any byte before the end: an error, never a call") {
    if (!have_recordings()) return;
    for (const recorded& rec : recordings()) {
        CAPTURE(rec.file);
        const std::string body = read_file(streams_dir() / rec.file);
        std::size_t wrong = 0;
        for (std::size_t size = 0; size < body.size() - 1; ++size) {
            const agentry::turn_result r = run(std::string_view(body).substr(0, size)).result;
            if (r.ok() || r.error.kind != provider_error_kind::malformed ||
                !r.error.message.starts_with("agentry: OpenAI stream ended before [DONE]")) {
                ++wrong;
                CAPTURE(size);
                CHECK(summary(r) == "an error");
            }
        }
        CHECK(wrong == 0);
    }
}

TEST_CASE("stream: text deltas, usage in a final chunk without choices") {
    const std::string body = chunk(R"({"role":"assistant","content":""})") + chunk(R"({"content":"Hel"})") +
                             chunk(R"({"content":"lo"})") + chunk("{}", R"("stop")") +
                             R"(data: {"id":"x","choices":[],"usage":{"prompt_tokens":5,"completion_tokens":2,"total_tokens":7}})"
                             "\n\n" +
                             done;
    const run_result r = run(body);
    REQUIRE(r.result.ok());
    CHECK(r.result.value->reply.text == "Hello");
    CHECK(r.text_events == "Hel|lo");
    CHECK(r.result.value->finish == finish_reason::stop);
    CHECK(r.result.value->usage == agentry::token_usage{5, 2});
    CHECK(summary(run_bytewise(body).result) == summary(r.result));
}

TEST_CASE("stream: arguments already in the first delta") {
    const std::string body =
        chunk(R"({"role":"assistant","tool_calls":[{"index":0,"id":"call_1","type":"function",)"
              R"("function":{"name":"get_weather","arguments":"{\"city\":"}}]})") +
        chunk(R"({"tool_calls":[{"index":0,"function":{"arguments":"\"Paris\"}"}}]})") + chunk("{}", R"("tool_calls")") +
        done;
    const run_result r = run(body);
    CHECK(summary(r.result) == R"(text= refusal= finish=1/tool_calls usage=0/0 [call_1 get_weather {"city":"Paris"}])");
    CHECK(r.announced == std::vector<std::string>{"call_1 get_weather"});
}

TEST_CASE("stream: whole calls in one delta each, and two in one delta") {
    const std::string body =
        chunk(R"({"tool_calls":[{"index":0,"id":"call_1","type":"function","function":{"name":"add","arguments":"{\"a\":1,\"b\":2}"}}]})") +
        chunk(R"({"tool_calls":[{"index":1,"id":"call_2","type":"function","function":{"name":"add","arguments":"{\"a\":3,\"b\":4}"}},)"
              R"({"index":2,"id":"call_3","type":"function","function":{"name":"get_weather","arguments":"{}"}}]})",
              R"("tool_calls")") +
        done;
    CHECK(summary(run(body).result) == R"(text= refusal= finish=1/tool_calls usage=0/0 [call_1 add {"a":1,"b":2}])"
                                       R"( [call_2 add {"a":3,"b":4}] [call_3 get_weather {}])");
}

TEST_CASE("stream: the same index again with the id and name repeated") {
    const std::string body =
        chunk(R"({"tool_calls":[{"index":0,"id":"call_1","type":"function","function":{"name":"add","arguments":""}}]})") +
        chunk(R"({"tool_calls":[{"index":0,"id":"call_1","type":"function","function":{"name":"add","arguments":"{\"a\":"}}]})") +
        chunk(R"({"tool_calls":[{"index":0,"id":"call_1","function":{"name":"add","arguments":"1,\"b\":2}"}}]})") +
        chunk(R"({"tool_calls":[{"index":0,"function":{"name":"add"}}]})", R"("tool_calls")") + done;
    const run_result r = run(body);
    CHECK(summary(r.result) == R"(text= refusal= finish=1/tool_calls usage=0/0 [call_1 add {"a":1,"b":2}])");
    CHECK(r.announced == std::vector<std::string>{"call_1 add"});
}

TEST_CASE("stream: a server re-sending the whole arguments so far") {
    const std::string body =
        chunk(R"({"tool_calls":[{"index":0,"id":"call_1","function":{"name":"get_weather","arguments":"{\"ci"}}]})") +
        chunk(R"({"tool_calls":[{"index":0,"function":{"arguments":"{\"city\":\"Pa"}}]})") +
        chunk(R"({"tool_calls":[{"index":0,"function":{"arguments":"ris\"}"}}]})") +
        chunk(R"({"tool_calls":[{"index":0,"function":{"arguments":"{\"city\":\"Paris\"}"}}]})", R"("tool_calls")") +
        done;
    CHECK(summary(run(body).result) == R"(text= refusal= finish=1/tool_calls usage=0/0 [call_1 get_weather {"city":"Paris"}])");
}

TEST_CASE("stream: after pieces, a piece repeating the text so far is a piece, the whole text again is not") {
    const std::string body =
        chunk(R"({"tool_calls":[{"index":0,"id":"call_1","function":{"name":"f","arguments":"{\"a\""}}]})") +
        chunk(R"({"tool_calls":[{"index":0,"function":{"arguments":":"}}]})") +
        chunk(R"({"tool_calls":[{"index":0,"function":{"arguments":"{\"a\":1}}"}}]})") +
        chunk(R"({"tool_calls":[{"index":0,"id":"call_1","function":{"name":"f","arguments":"{\"a\":{\"a\":1}}"}}]})",
              R"("tool_calls")") +
        done;
    CHECK(summary(run(body).result) == R"(text= refusal= finish=1/tool_calls usage=0/0 [call_1 f {"a":{"a":1}}])");
}

TEST_CASE("stream: calls without an index start the next call, pieces without id or name continue it") {
    const std::string body =
        chunk(R"({"tool_calls":[{"id":"call_x","type":"function","function":{"name":"add","arguments":"{\"a\":1,"}}]})") +
        chunk(R"({"tool_calls":[{"function":{"arguments":"\"b\":1}"}}]})") +
        chunk(R"({"tool_calls":[{"id":"call_y","type":"function","function":{"name":"get_weather","arguments":"{\"city\":\"Oslo\"}"}}]})") +
        chunk(R"({"tool_calls":[{"id":"call_x","function":{"arguments":""}}]})", R"("tool_calls")") + done;
    const run_result r = run(body);
    CHECK(summary(r.result) == R"(text= refusal= finish=1/tool_calls usage=0/0 [call_x add {"a":1,"b":1}])"
                               R"( [call_y get_weather {"city":"Oslo"}])");
    CHECK(r.announced == std::vector<std::string>{"call_x add", "call_y get_weather"});
}

TEST_CASE("stream: one index reused for the next call (a new id and name)") {
    const std::string body =
        chunk(R"({"tool_calls":[{"index":0,"id":"call_1","function":{"name":"add","arguments":"{\"a\":1,\"b\":2}"}}]})") +
        chunk(R"({"tool_calls":[{"index":0,"id":"call_b","function":{"name":"add","arguments":"{\"a\":"}}]})") +
        chunk(R"({"tool_calls":[{"index":0,"function":{"arguments":"5,\"b\":6}"}}]})") +
        chunk(R"({"tool_calls":[{"index":0,"function":{"name":"get_weather","arguments":"{}"}}]})", R"("tool_calls")") +
        done;
    CHECK(summary(run(body).result) == R"(text= refusal= finish=1/tool_calls usage=0/0 [call_1 add {"a":1,"b":2}])"
                                       R"( [call_b add {"a":5,"b":6}] [call_2 get_weather {}])");
}

TEST_CASE("stream: an index not starting at 0, text before the calls, a second choice ignored") {
    const std::string body =
        chunk(R"({"content":"Checking."})") +
        chunk(R"({"tool_calls":[{"index":3,"id":"call_1","function":{"name":"add","arguments":"{}"}}]})") +
        R"(data: {"choices":[{"index":1,"delta":{"content":"other choice"},"finish_reason":null}]})"
        "\n\n" +
        chunk("{}", R"("tool_calls")") + done;
    CHECK(summary(run(body).result) == R"(text=Checking. refusal= finish=1/tool_calls usage=0/0 [call_1 add {}])");
}

TEST_CASE("stream: refusal deltas") {
    const std::string body = chunk(R"({"role":"assistant","content":null,"refusal":""})") +
                             chunk(R"({"refusal":"I can't"})") + chunk(R"({"refusal":" help."})") +
                             chunk("{}", R"("stop")") + done;
    const run_result r = run(body);
    REQUIRE(r.result.ok());
    CHECK(r.result.value->finish == finish_reason::refusal);
    CHECK(r.result.value->refusal == "I can't help.");
    CHECK(r.text_events.empty());
}

TEST_CASE("stream: length cuts a call off: it is dropped, the finished one kept") {
    const std::string body =
        chunk(R"({"tool_calls":[{"index":0,"id":"call_1","function":{"name":"add","arguments":"{\"a\":1,\"b\":2}"}}]})") +
        chunk(R"({"tool_calls":[{"index":1,"id":"call_2","function":{"name":"add","arguments":"{\"a\":"}}]})",
              R"("length")") +
        done;
    CHECK(summary(run(body).result) == R"(text= refusal= finish=2/length usage=0/0 incomplete [call_1 add {"a":1,"b":2}])");
}

TEST_CASE("stream: legacy function_call deltas") {
    const std::string body = chunk(R"({"function_call":{"name":"add","arguments":""}})") +
                             chunk(R"({"function_call":{"arguments":"{\"a\":1,"}})") +
                             chunk(R"({"function_call":{"arguments":"\"b\":2}"}})") + chunk("{}", R"("function_call")") +
                             done;
    CHECK(summary(run(body).result) == R"(text= refusal= finish=1/function_call usage=0/0 [call_0 add {"a":1,"b":2}])");
}

TEST_CASE("stream: CRLF line endings, comments, bytes after [DONE] ignored") {
    std::string body = ": keep-alive\n\n" + chunk(R"({"content":"ok"})") + chunk("{}", R"("stop")") + done +
                       "data: not json at all\n\n";
    for (std::size_t at = body.find('\n'); at != std::string::npos; at = body.find('\n', at + 2)) body.insert(at, "\r");
    CHECK(summary(run(body).result) == "text=ok refusal= finish=0/stop usage=0/0");
    CHECK(summary(run_bytewise(body).result) == "text=ok refusal= finish=0/stop usage=0/0");
}

TEST_CASE("stream: no [DONE], or [DONE] without its blank line, is an error and returns no call") {
    const std::string calls =
        chunk(R"({"tool_calls":[{"index":0,"id":"call_1","function":{"name":"add","arguments":"{\"a\":1,\"b\":2}"}}]})") +
        chunk("{}", R"("tool_calls")");
    auto r = run(calls).result;
    REQUIRE_FALSE(r.ok());
    CHECK(r.error.kind == provider_error_kind::malformed);
    CHECK(r.error.message == "agentry: OpenAI stream ended before [DONE]; its tool calls were not returned");
    r = run(calls + "data: [DONE]\n").result;
    REQUIRE_FALSE(r.ok());
    CHECK(r.error.message ==
          "agentry: OpenAI stream ended before [DONE], in the middle of an event; its tool calls were not returned");
    r = run("").result;
    REQUIRE_FALSE(r.ok());
    CHECK(r.error.message == "agentry: OpenAI stream ended before [DONE]");
}

TEST_CASE("stream: an error object inside the stream is a typed error") {
    auto r = run(chunk(R"({"content":"Hel"})") +
                 R"(data: {"error":{"message":"The server had an error while processing your request.","type":"server_error","param":null,"code":null}})"
                 "\n\n" + done)
                 .result;
    REQUIRE_FALSE(r.ok());
    CHECK(r.error.kind == provider_error_kind::server);
    CHECK(r.error.status == 200);
    CHECK(r.error.retryable);
    CHECK(r.error.message == "The server had an error while processing your request.");
    CHECK(r.error.type == "server_error");

    // vLLM: the status as a numeric code.
    r = run(R"(data: {"error":{"object":"error","message":"prompt too long","type":"BadRequestError","param":null,"code":400}})"
            "\n\n")
            .result;
    REQUIRE_FALSE(r.ok());
    CHECK(r.error.kind == provider_error_kind::bad_request);
    CHECK_FALSE(r.error.retryable);
    CHECK(r.error.type == "BadRequestError");

    // An SSE error event, its members at the top level.
    r = run(std::string("event: error\ndata: {\"message\":\"Rate limit exceeded\",\"type\":\"rate_limit_error\"}\n\n") + done)
            .result;
    REQUIRE_FALSE(r.ok());
    CHECK(r.error.kind == provider_error_kind::rate_limited);
    CHECK(r.error.retryable);
    CHECK(r.error.message == "Rate limit exceeded");

    r = run("event: error\ndata: upstream timed out\n\n").result;
    REQUIRE_FALSE(r.ok());
    CHECK(r.error.kind == provider_error_kind::server);
    CHECK(r.error.message == "upstream timed out");
}

TEST_CASE("stream: an unreadable chunk is malformed, naming the event and the member") {
    const auto r = run(chunk(R"({"content":"a"})") + chunk(R"({"content":5})") + done).result;
    REQUIRE_FALSE(r.ok());
    CHECK(r.error.kind == provider_error_kind::malformed);
    CHECK(r.error.message == "agentry: OpenAI stream: event 2 is not a chat completion chunk: "
                             "/choices/0/delta/content: expected a string, got a number 5");
    const auto nameless = run(chunk(R"({"tool_calls":[{"index":0,"id":"call_1","function":{"arguments":"{}"}}]})") +
                              chunk("{}", R"("tool_calls")") + done)
                              .result;
    REQUIRE_FALSE(nameless.ok());
    CHECK(nameless.error.message ==
          "agentry: OpenAI stream: tool call 0 (id call_1) has no function name; a call must name its tool");
}

TEST_CASE("stream: finish with an error status reads the error body") {
    agentry::openai::stream s = gpt.start_stream({});
    agentry::http_response head;
    head.status = 401;
    head.body = R"({"error":{"message":"bad key","type":"invalid_request_error","code":"invalid_api_key"}})";
    const auto r = s.finish(head);
    REQUIRE_FALSE(r.ok());
    CHECK(r.error.kind == provider_error_kind::authentication);
    CHECK(r.error.type == "invalid_api_key");
}

namespace {

// A transport that answers from a script: one status, headers and body, the body streamed in
// pieces of `piece` bytes.
struct scripted_transport {
    agentry::http_response reply;
    std::size_t piece = 7;
    agentry::transport_error error{};
    agentry::http_request last{};

    agentry::transport_result send(const agentry::http_request& r) {
        last = r;
        return {reply, error};
    }
    agentry::transport_result stream(const agentry::http_request& r, agentry::stream_handlers& h) {
        last = r;
        if (error.kind != agentry::transport_error_kind::none) return {{}, error};
        agentry::http_response head{reply.status, reply.headers, {}};
        if (!h.on_head(head)) return {head, {agentry::transport_error_kind::cancelled, "cancelled"}};
        if (reply.status < 200 || reply.status > 299) return {reply, {}};
        for (std::size_t i = 0; i < reply.body.size(); i += piece)
            if (!h.on_chunk(std::string_view(reply.body).substr(i, piece)))
                return {head, {agentry::transport_error_kind::cancelled, "cancelled"}};
        return {head, {}};
    }
};
static_assert(agentry::transport<scripted_transport>);

} // namespace

TEST_CASE("complete(): a streamed turn, a whole turn, an error status, a transport failure") {
    const std::vector<agentry::message> m{agentry::message::user("2+3?")};
    scripted_transport t;
    t.reply.status = 200;
    t.reply.body =
        chunk(R"({"role":"assistant","content":"Adding."})") +
        chunk(R"({"tool_calls":[{"index":0,"id":"call_1","type":"function","function":{"name":"add","arguments":"{\"a\":2,"}}]})") +
        chunk(R"({"tool_calls":[{"index":0,"function":{"arguments":"\"b\":3}"}}]})") + chunk("{}", R"("tool_calls")") +
        R"(data: {"choices":[],"usage":{"prompt_tokens":12,"completion_tokens":9}})"
        "\n\n" +
        done;
    std::string seen;
    agentry::stream_events events;
    events.on_text = [&](std::string_view s) { seen += s; };
    auto r = agentry::complete(gpt, t, openai_samples::make_request(m, {.stream = true}), events);
    CHECK(summary(r) == R"(text=Adding. refusal= finish=1/tool_calls usage=12/9 [call_1 add {"a":2,"b":3}])");
    CHECK(seen == "Adding.");
    CHECK(t.last.body.find(R"("stream":true,"stream_options":{"include_usage":true})") != std::string::npos);

    t.reply.body = R"({"choices":[{"index":0,"message":{"role":"assistant","content":"5"},"finish_reason":"stop"}]})";
    r = agentry::complete(gpt, t, openai_samples::make_request(m));
    CHECK(summary(r) == "text=5 refusal= finish=0/stop usage=0/0");

    t.reply.status = 429;
    t.reply.headers = {{"retry-after", "1"}};
    t.reply.body = R"({"error":{"message":"Rate limit reached","type":"requests","code":"rate_limit_exceeded"}})";
    r = agentry::complete(gpt, t, openai_samples::make_request(m, {.stream = true}));
    REQUIRE_FALSE(r.ok());
    CHECK(r.error.kind == provider_error_kind::rate_limited);
    CHECK(r.error.message == "Rate limit reached");
    REQUIRE(r.error.retry_after);
    CHECK(r.error.retry_after->count() == 1000);

    t.error = {agentry::transport_error_kind::reset, "connection reset by peer"};
    r = agentry::complete(gpt, t, openai_samples::make_request(m, {.stream = true}));
    REQUIRE_FALSE(r.ok());
    CHECK(r.error.kind == provider_error_kind::transport);
    CHECK(r.error.retryable);
}

TEST_CASE("stream: on_tool_arguments gets each delta's new text, a re-sent whole text only as its new end") {
    const std::string body =
        chunk(R"({"tool_calls":[{"index":0,"id":"call_1","function":{"name":"get_weather","arguments":"{\"ci"}}]})") +
        chunk(R"({"tool_calls":[{"index":0,"function":{"arguments":"{\"city\":\"Pa"}}]})") +
        chunk(R"({"tool_calls":[{"index":0,"function":{"arguments":"ris\"}"}}]})") +
        chunk(R"({"tool_calls":[{"index":0,"function":{"arguments":"{\"city\":\"Paris\"}"}}]})", R"("tool_calls")") +
        done;
    const run_result r = run(body);
    CHECK(r.pieces == std::vector<std::string>{R"(call_1 {"ci)", R"(call_1 ty":"Pa)", R"(call_1 ris"})"});
    CHECK(pieces_join(r));
    CHECK(run_bytewise(body).pieces == r.pieces);
}

TEST_CASE("stream: a delta that does not extend the text so far is the next piece, never a replacement") {
    // After pieces: a piece repeating the text before it is a piece; the whole text again adds nothing.
    std::string body =
        chunk(R"({"tool_calls":[{"index":0,"id":"call_1","function":{"name":"f","arguments":"{\"a\""}}]})") +
        chunk(R"({"tool_calls":[{"index":0,"function":{"arguments":":"}}]})") +
        chunk(R"({"tool_calls":[{"index":0,"function":{"arguments":"{\"a\":1}}"}}]})") +
        chunk(R"({"tool_calls":[{"index":0,"id":"call_1","function":{"name":"f","arguments":"{\"a\":{\"a\":1}}"}}]})",
              R"("tool_calls")") +
        done;
    run_result r = run(body);
    CHECK(r.pieces == std::vector<std::string>{R"(call_1 {"a")", "call_1 :", R"(call_1 {"a":1}})"});
    CHECK(pieces_join(r));
    // A server re-sending whole texts, then one that is not an extension: appended, as the
    // model's text (here not JSON, which the registry answers with an error result).
    body = chunk(R"({"tool_calls":[{"index":0,"id":"call_1","function":{"name":"f","arguments":"{\"a\":1"}}]})") +
           chunk(R"({"tool_calls":[{"index":0,"function":{"arguments":"{\"a\":1,\"b\""}}]})") +
           chunk(R"({"tool_calls":[{"index":0,"function":{"arguments":"{\"c\":2}"}}]})", R"("tool_calls")") + done;
    r = run(body);
    CHECK(summary(r.result) == R"(text= refusal= finish=1/tool_calls usage=0/0 [call_1 f {"a":1,"b"{"c":2}])");
    CHECK(r.pieces == std::vector<std::string>{R"(call_1 {"a":1)", R"(call_1 ,"b")", R"(call_1 {"c":2})"});
    CHECK(pieces_join(r));
}

TEST_CASE("stream: blank arguments are given as {} at the end, arguments before the name once it is known") {
    std::string body =
        chunk(R"({"tool_calls":[{"index":0,"id":"call_1","function":{"name":"now","arguments":""}}]})") +
        chunk(R"({"tool_calls":[{"index":1,"id":"call_2","function":{"name":"now","arguments":" "}}]})") +
        chunk(R"({"tool_calls":[{"index":2,"id":"call_3","function":{"name":"add","arguments":" "}}]})") +
        chunk(R"({"tool_calls":[{"index":2,"function":{"arguments":"{\"a\":1}"}}]})", R"("tool_calls")") + done;
    run_result r = run(body);
    CHECK(summary(r.result) == R"(text= refusal= finish=1/tool_calls usage=0/0 [call_1 now {}] [call_2 now {}])"
                               R"( [call_3 add  {"a":1}])");
    CHECK(r.pieces == std::vector<std::string>{R"(call_3  {"a":1})", "call_1 {}", "call_2 {}"});
    CHECK(pieces_join(r));

    body = chunk(R"({"tool_calls":[{"index":0,"function":{"arguments":"{\"a\":"}}]})") +
           chunk(R"({"tool_calls":[{"index":0,"id":"call_9","function":{"name":"add","arguments":"1}"}}]})") +
           chunk("{}", R"("tool_calls")") + done;
    r = run(body);
    CHECK(r.announced == std::vector<std::string>{"call_9 add"});
    CHECK(r.pieces == std::vector<std::string>{R"(call_9 {"a":1})"});
    CHECK(pieces_join(r));
}

TEST_CASE("stream: a call cut off by length had its pieces given, and is not returned") {
    const std::string body =
        chunk(R"({"tool_calls":[{"index":0,"id":"call_1","function":{"name":"add","arguments":"{\"a\":1,\"b\":2}"}}]})") +
        chunk(R"({"tool_calls":[{"index":1,"id":"call_2","function":{"name":"add","arguments":"{\"a\":"}}]})",
              R"("length")") +
        done;
    const run_result r = run(body);
    CHECK(summary(r.result) == R"(text= refusal= finish=2/length usage=0/0 incomplete [call_1 add {"a":1,"b":2}])");
    CHECK(r.pieces == std::vector<std::string>{R"(call_1 {"a":1,"b":2})", R"(call_2 {"a":)"});
}

TEST_CASE("stream: legacy function_call pieces, and calls without an index") {
    std::string body = chunk(R"({"function_call":{"name":"add","arguments":""}})") +
                       chunk(R"({"function_call":{"arguments":"{\"a\":1,"}})") +
                       chunk(R"({"function_call":{"arguments":"\"b\":2}"}})") + chunk("{}", R"("function_call")") + done;
    run_result r = run(body);
    CHECK(r.announced == std::vector<std::string>{" add"});
    CHECK(r.pieces == std::vector<std::string>{R"( {"a":1,)", R"( "b":2})"});
    body = chunk(R"({"tool_calls":[{"id":"call_x","type":"function","function":{"name":"add","arguments":"{\"a\":1,"}}]})") +
           chunk(R"({"tool_calls":[{"function":{"arguments":"\"b\":1}"}}]})") +
           chunk(R"({"tool_calls":[{"id":"call_y","type":"function","function":{"name":"get_weather","arguments":"{}"}}]})") +
           chunk("{}", R"("tool_calls")") + done;
    r = run(body);
    CHECK(r.pieces == std::vector<std::string>{R"(call_x {"a":1,)", R"(call_x "b":1})", "call_y {}"});
    CHECK(pieces_join(r));
}

TEST_CASE("stream: cached, cache-write and reasoning tokens from the usage chunk") {
    const std::string body =
        chunk(R"({"content":"4"})") + chunk("{}", R"("stop")") +
        R"(data: {"id":"x","choices":[],"usage":{"prompt_tokens":2006,"completion_tokens":300,"total_tokens":2306,)"
        R"("prompt_tokens_details":{"cached_tokens":1920,"cache_write_tokens":64,"audio_tokens":0},)"
        R"("completion_tokens_details":{"reasoning_tokens":256,"audio_tokens":0,"accepted_prediction_tokens":0,)"
        R"("rejected_prediction_tokens":0}}})"
        "\n\n" +
        done;
    const run_result r = run(body);
    REQUIRE(r.result.ok());
    agentry::token_usage expected;
    expected.input_tokens = 2006;
    expected.output_tokens = 300;
    expected.cached_input_tokens = 1920;
    expected.cache_write_tokens = 64;
    expected.reasoning_tokens = 256;
    CHECK(r.result.value->usage == expected);
}
