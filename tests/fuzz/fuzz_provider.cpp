// SPDX-License-Identifier: BSL-1.0
// The response parsers and stream assemblers of the four providers, through their public entry
// points only (P::parse, P::start_stream, stream::feed, stream::finish).
//
// Input: byte 0 picks the provider (`& 3`: OpenAI, Anthropic, Gemini, Ollama) and, in bits 2 to
// 4, the status of the whole response (200, 200, 200, 400, 401, 429, 500, 503); the low 4 bits
// of byte 1 are a count n, and the next n bytes the lengths of the first pieces the stream is
// cut into (0 to 255 bytes each: empty pieces too); the rest is the body.
//
// The body is read as a whole response by P::parse, and as a stream (SSE, or NDJSON for
// Ollama) fed whole, in the pieces the input chooses, and (up to 1 KiB) one byte at a time.
// Checked: every way of feeding gives the same turn (text, calls, finish, usage, or the same
// error), the same text passed to on_text and the same on_tool_call events; a non-2xx whole
// response is an error with its status; every error has a message. ASan, UBSan and libFuzzer's
// memory limits (see README.md) do the rest.

#include "fuzz_common.hpp"

#include <agentry/provider/anthropic.hpp>
#include <agentry/provider/gemini.hpp>
#include <agentry/provider/ollama.hpp>
#include <agentry/provider/openai.hpp>

#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace {

std::string describe(const agentry::turn_result& r) {
    if (!r.ok()) {
        const agentry::provider_error& e = r.error;
        return "error kind=" + std::to_string(int(e.kind)) + " status=" + std::to_string(e.status) + " type=" + e.type +
               " retryable=" + (e.retryable ? "1" : "0") +
               " retry_after=" + (e.retry_after ? std::to_string(e.retry_after->count()) : "-") + " message=" + e.message;
    }
    const agentry::completion& c = *r.value;
    std::string out = "text=" + c.reply.text + " calls=[";
    for (const agentry::tool_call& call : c.reply.tool_calls)
        out += call.id + "|" + call.name + "|" + call.arguments + "|" + call.signature + ";";
    out += "] finish=" + std::to_string(int(c.finish)) + " provider=" + c.provider_finish +
           " usage=" + std::to_string(c.usage.input_tokens) + "/" + std::to_string(c.usage.output_tokens) +
           " incomplete=" + (c.incomplete_tool_call ? "1" : "0") + " refusal=" + c.refusal;
    return out;
}

struct streamed {
    std::string result;
    std::string text;
    std::vector<std::string> calls;

    friend bool operator==(const streamed&, const streamed&) = default;
};

std::string describe(const streamed& s) {
    std::string out = s.result + "\n  on_text: " + s.text + "\n  on_tool_call:";
    for (const auto& c : s.calls) out += " [" + c + "]";
    return out;
}

void check_error(const agentry::turn_result& r) {
    if (!r.ok()) FUZZ_CHECK(!r.error.message.empty(), describe(r));
}

// Feeds `body` in pieces of the given lengths (the rest in one last piece), then finishes.
template <class P>
streamed run_stream(const P& provider, std::string_view body, const std::vector<std::size_t>& pieces) {
    streamed out;
    agentry::stream_events events;
    events.on_text = [&out](std::string_view t) { out.text.append(t); };
    events.on_tool_call = [&out](std::string_view id, std::string_view name) {
        out.calls.push_back(std::string(id) + " " + std::string(name));
    };
    typename P::stream s = provider.start_stream(std::move(events));
    std::size_t at = 0;
    for (std::size_t length : pieces) {
        const std::size_t n = length < body.size() - at ? length : body.size() - at;
        s.feed(body.substr(at, n));
        at += n;
    }
    s.feed(body.substr(at));
    const agentry::turn_result r = s.finish({200, {{"content-type", "text/event-stream"}}, {}});
    check_error(r);
    out.result = describe(r);
    return out;
}

template <class P>
void check(const P& provider, int status, std::string_view body, const std::vector<std::size_t>& pieces) {
    // The whole response.
    const agentry::turn_result whole =
        provider.parse({status, {{"content-type", "application/json"}}, std::string(body)});
    check_error(whole);
    if (status < 200 || status > 299)
        FUZZ_CHECK(!whole.ok() && whole.error.status == status, describe(whole));

    // The stream, fed in three ways.
    const streamed once = run_stream(provider, body, {});
    const streamed cut = run_stream(provider, body, pieces);
    FUZZ_CHECK(cut == once, "fed whole: " + describe(once) + "\nfed in the chosen pieces: " + describe(cut));
    if (body.size() <= 1024) {
        const streamed bytes = run_stream(provider, body, std::vector<std::size_t>(body.size(), 1));
        FUZZ_CHECK(bytes == once, "fed whole: " + describe(once) + "\nfed byte by byte: " + describe(bytes));
    }
}

} // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
    static constexpr int statuses[] = {200, 200, 200, 400, 401, 429, 500, 503};
    if (size < 2) return 0;
    const int status = statuses[(data[0] >> 2) & 7];
    const std::size_t count = data[1] & 15;
    if (size < 2 + count) return 0;
    std::vector<std::size_t> pieces(data + 2, data + 2 + count);
    const std::string_view body = fuzz::as_text(data + 2 + count, size - 2 - count);
    switch (data[0] & 3) {
    case 0: check(agentry::openai{.model = "m"}, status, body, pieces); break;
    case 1: check(agentry::anthropic{.model = "m"}, status, body, pieces); break;
    case 2: check(agentry::gemini{.model = "m"}, status, body, pieces); break;
    default: check(agentry::ollama{.model = "m"}, status, body, pieces); break;
    }
    return 0;
}
