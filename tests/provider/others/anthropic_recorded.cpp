// SPDX-License-Identifier: BSL-1.0
// The Anthropic Messages streams recorded from the real API (../shared/testdata, from the
// official Python SDK's test fixtures), assembled whole, split in two at every byte and fed
// one byte at a time; the argument pieces streamed for each call join to its arguments. Usage: agentry_provider_anthropic_recorded <dir with the .sse files>;
// exits 77 (skipped) when the directory is absent.

#define DOCTEST_CONFIG_IMPLEMENT
#include "stream_check.hpp"

#include <agentry/provider/anthropic.hpp>

#include <doctest/doctest.h>

#include <cstdio>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <map>
#include <string>

namespace {

std::filesystem::path recorded_dir;

std::string recorded(const char* name) {
    std::ifstream in(recorded_dir / name, std::ios::binary);
    REQUIRE_MESSAGE(in, "cannot read ", (recorded_dir / name).string());
    return {std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>()};
}

const agentry::anthropic claude{.model = "claude-sonnet-4-20250514", .api_key = "k"};

} // namespace

TEST_CASE("recorded: text, then get_weather with input_json_delta fragments, stop tool_use") {
    const test::streamed s = test::check_every_split(claude, recorded("tool_use_response.sse"));
    CHECK(test::describe(s.result) ==
          "text=I'll check the current weather in Paris for you. "
          "calls=[toolu_01NRLabsLyVHZPKxbKvkfSMn|get_weather|{\"location\": \"Paris\"}|;] finish=tool_calls "
          "provider=tool_use usage=377/65 incomplete=0 refusal=");
    CHECK(s.text == "I'll check the current weather in Paris for you.");
    CHECK(s.calls == std::vector<std::string>{"toolu_01NRLabsLyVHZPKxbKvkfSMn get_weather"});
}

TEST_CASE("recorded: make_file cut off by max_tokens is left out and flagged") {
    const test::streamed s = test::check_every_split(claude, recorded("incomplete_partial_json_response.sse"));
    CHECK(test::describe(s.result) ==
          "text=I'll create a comprehensive tax guide for someone with multiple W2s and save it in a file called "
          "taxes.txt. Let me do that for you now. calls=[] finish=max_tokens provider=max_tokens usage=450/124 "
          "incomplete=1 refusal=");
    CHECK(s.calls == std::vector<std::string>{"toolu_01EKqbqmZrGRXy18eN7m9kvY make_file"});
}

TEST_CASE("recorded: every stream's on_tool_arguments pieces join to its calls' arguments, however it is split") {
    std::size_t streams = 0, calls = 0;
    for (const auto& entry : std::filesystem::directory_iterator(recorded_dir)) {
        if (entry.path().extension() != ".sse") continue;
        ++streams;
        const std::string body = recorded(entry.path().filename().string().c_str());
        INFO("stream: ", entry.path().filename().string());
        // Whole, and one byte at a time.
        for (const bool bytewise : {false, true}) {
            std::map<std::string, std::string> joined;
            agentry::stream_events events;
            events.on_tool_arguments = [&joined](std::string_view id, std::string_view piece) {
                joined[std::string(id)].append(piece);
            };
            agentry::anthropic::stream s = claude.start_stream(std::move(events));
            if (bytewise)
                for (char c : body) s.feed(std::string_view(&c, 1));
            else
                s.feed(body);
            const agentry::turn_result r = s.finish(test::ok_head());
            REQUIRE(r.ok());
            for (const agentry::tool_call& call : r.value->reply.tool_calls) {
                CHECK(joined[call.id] == call.arguments);
                calls += bytewise ? 0 : 1;
            }
        }
    }
    CHECK(streams >= 3);
    CHECK(calls >= 1);
}

TEST_CASE("recorded: plain text with a ping") {
    const test::streamed s = test::check_every_split(claude, recorded("basic_response.sse"));
    CHECK(test::describe(s.result) ==
          "text=Hello there! calls=[] finish=stop provider=end_turn usage=11/6 incomplete=0 refusal=");
}

int main(int argc, char** argv) {
    if (argc < 2 || !std::filesystem::is_regular_file(std::filesystem::path(argv[1]) / "tool_use_response.sse")) {
        std::printf("SKIP: the recorded Anthropic streams are not at %s; they come from "
                    "../shared/testdata beside the project directory\n",
                    argc < 2 ? "(no directory given)" : argv[1]);
        return 77;
    }
    recorded_dir = argv[1];
    doctest::Context context;
    context.applyCommandLine(argc - 1, argv + 1);
    return context.run();
}
