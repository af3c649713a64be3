// SPDX-License-Identifier: BSL-1.0
// Large tool results (loop_config::large_results, loop/large_results.hpp): a 1 MiB result read
// back page by page through read_result, its notes and the answers to bad calls, summaries and
// their fallback, every source of a call (registry, added tool, planned step, sub-agent), and a
// durable run reading a page after a restart from its SQLite store.
#include <agentry/agent.hpp>
#include <agentry/loop/agent_tool.hpp>
#include <agentry/loop/large_results.hpp>
#include <agentry/provider/scripted.hpp>
#include <agentry/registry.hpp>
#if defined(AGENTRY_PAGING_SQLITE)
#include <agentry/store/durable.hpp>
#include <agentry/store/sqlite.hpp>
#endif

#include <doctest/doctest.h>

#include <cstdio>
#include <unistd.h>
#include <filesystem>
#include <memory>
#include <mutex>
#include <stdexcept>
#include <string>
#include <string_view>
#include <vector>

namespace {

using agentry::chat_request;
using agentry::completion;
using agentry::message;
using agentry::role;
using agentry::scripted_model;

constexpr std::size_t mib = 1'048'576;
constexpr std::size_t cap = 16 * 1024;

// 1 MiB of text with two- and three-byte characters, so that pages end at UTF-8 boundaries.
const std::string& big_text() {
    static const std::string text = [] {
        std::string t;
        for (int i = 0; t.size() < mib - 64; ++i) t += "line " + std::to_string(i) + ": d\xC3\xA9j\xC3\xA0 vu \xE2\x82\xAC\n";
        while (t.size() < mib) t += 'x';
        return t;
    }();
    return text;
}

std::string big() { return big_text(); }
std::string small() { return "short"; }
std::string broken() { throw std::runtime_error(std::string(40'000, 'e')); }
std::vector<int> numbers(int from) {
    std::vector<int> out;
    for (int i = 0; i != 10'000; ++i) out.push_back(from + i);
    return out;
}

constexpr agentry::registry tools{agentry::tool<"big", "Returns a large text.">(big),
                                  agentry::tool<"numbers", "Returns numbers.", "from">(numbers),
                                  agentry::tool<"small", "Returns a short text.">(small),
                                  agentry::tool<"broken", "Fails with a long message.">(broken)};

constexpr agentry::loop_config paged{.max_turns = 200, .large_results = agentry::large_result::page};
constexpr agentry::loop_config summarised{.max_turns = 20, .large_results = agentry::large_result::summary};

// The pages of `text` as the library cuts them, computed here independently: at most `size`
// bytes each, never ending inside a character.
std::vector<std::string> pages_of(std::string_view text, std::size_t size) {
    std::vector<std::string> out;
    for (std::size_t at = 0; at < text.size();) {
        std::size_t n = std::min(size, text.size() - at);
        while (at + n < text.size() && (static_cast<unsigned char>(text[at + n]) & 0xC0) == 0x80) --n;
        out.emplace_back(text.substr(at, n));
        at += n;
    }
    return out;
}

std::string first_note(std::string_view id, std::size_t total, std::size_t pages, std::string_view lead = {}) {
    return "\n\n[agentry: " + std::string(lead) + "this result is " + std::to_string(total) +
           " bytes, longer than the 16384 bytes sent at once: above is page 1 of " + std::to_string(pages) +
           ". Read the others with the tool read_result, arguments {\"call_id\":\"" + std::string(id) +
           "\",\"page\":2} and so on up to " + std::to_string(pages) + ".]";
}

std::string page_note(std::string_view id, std::size_t total, std::size_t page, std::size_t pages) {
    return "\n\n[agentry: page " + std::to_string(page) + " of " + std::to_string(pages) + " of the result of call \"" +
           std::string(id) + "\" (" + std::to_string(total) + " bytes); " +
           (page < pages ? "the next is page " + std::to_string(page + 1) + ".]" : std::string("it is the last page.]"));
}

completion call_one(std::string id, std::string name, std::string arguments) {
    return scripted_model::calls({{std::move(id), std::move(name), std::move(arguments), {}}});
}

std::string read_args(std::string_view id, std::size_t page) {
    return "{\"call_id\":\"" + std::string(id) + "\",\"page\":" + std::to_string(page) + "}";
}

// A model that calls `tool` (id "c1"), then reads every page with read_result, then answers
// "done"; it keeps each tool message it is sent.
struct page_reader {
    std::string tool = "big";
    std::string arguments = "{}";
    std::vector<std::string> seen;
    std::string payload;
    std::mutex mutex;

    scripted_model model() {
        return scripted_model{[this](const chat_request& r) -> completion {
            std::lock_guard lock(mutex);
            payload = std::string(r.tools);
            const message& last = r.messages.back();
            if (last.role != role::tool) return call_one("c1", tool, arguments);
            seen.push_back(last.text);
            const std::size_t at = last.text.rfind("and so on up to ");
            if (at != std::string::npos) return call_one("r2", "read_result", read_args("c1", 2));
            if (last.text.ends_with("it is the last page.]")) return scripted_model::answer("done");
            const std::size_t next = last.text.rfind("the next is page ");
            const std::size_t page = std::stoul(last.text.substr(next + 17));
            return call_one("r" + std::to_string(page), "read_result", read_args("c1", page));
        }};
    }
};

std::string strip(const std::string& text) { return text.substr(0, text.rfind("\n\n[agentry: ")); }

} // namespace

TEST_CASE("large results: read_result is in every dialect's payload, appended to the registry's") {
    using reader = agentry::detail::payload_with_reader<agentry::dialect::openai, decltype(tools)>;
    constexpr std::string_view openai = reader::view;
    static_assert(openai.starts_with(R"([{"type":"function","function":{"name":"big",)"));
    static_assert(openai.ends_with(
        R"(},{"type":"function","function":{"name":"read_result","description":"Reads one page of a tool result that was too long to be sent whole. The note under that result gives the call_id and the number of pages.","parameters":{"type":"object","properties":{"call_id":{"type":"string","description":"The id of the tool call whose result was paged, as the note under that result gives it"},"page":{"type":"integer","minimum":1,"description":"The page to read, from 1 (the first page, sent with the result) to the number of pages the note gives"}},"required":["call_id","page"]}}}])"));
    constexpr std::string_view gemini =
        agentry::detail::payload_with_reader<agentry::dialect::gemini, decltype(tools)>::view;
    static_assert(gemini.starts_with(R"([{"functionDeclarations":[{"name":"big",)"));
    static_assert(gemini.ends_with(R"("required":["call_id","page"]}}]}])"));
    static_assert(gemini.find(R"("page":{"type":"INTEGER","minimum":1,)") != std::string_view::npos);
    static_assert(gemini.find(R"(},{"name":"read_result","description":)") != std::string_view::npos);
    constexpr std::string_view anthropic =
        agentry::detail::payload_with_reader<agentry::dialect::anthropic, decltype(tools)>::view;
    static_assert(anthropic.find(R"(},{"name":"read_result","description":)") != std::string_view::npos);
    static_assert(anthropic.ends_with("}}]") && anthropic.find(R"("input_schema":{"type":"object","properties":{"call_id")") != std::string_view::npos);
    constexpr agentry::registry none{};
    constexpr std::string_view alone = agentry::detail::payload_with_reader<agentry::dialect::openai, decltype(none)>::view;
    static_assert(alone.starts_with(R"([{"type":"function","function":{"name":"read_result",)"));
}

TEST_CASE("large results: a 1 MiB result is read back whole, page by page, with exact notes") {
    page_reader script;
    agentry::agent<paged> agent{script.model(), tools, "You read.", agentry::scripted_transport{}};
    const agentry::run_result r = agent.run("Read it all.");
    REQUIRE(r.stop == agentry::stop_reason::completed);
    CHECK(r.text == "done");
    const std::string& whole = big_text();
    REQUIRE(whole.size() == mib);
    const std::vector<std::string> pages = pages_of(whole, cap);
    const std::size_t n = pages.size();
    CHECK(n == 65);  // the pages end before a character that would not fit whole
    REQUIRE(script.seen.size() == n);
    CHECK(script.seen[0] == pages[0] + first_note("c1", mib, n));
    std::string joined = strip(script.seen[0]);
    for (std::size_t p = 2; p <= n; ++p) {
        CHECK(script.seen[p - 1] == pages[p - 1] + page_note("c1", mib, p, n));
        CHECK(pages[p - 1].size() <= cap);
        joined += strip(script.seen[p - 1]);
    }
    CHECK(joined == whole);
    // The payload sent is the registry's with read_result appended.
    const std::string_view registry = tools.definitions<agentry::dialect::standard>();
    CHECK(script.payload.starts_with(registry.substr(0, registry.size() - 1)));
    CHECK(script.payload.ends_with(R"(,{"name":"read_result","description":"Reads one page of a tool result that was too long to be sent whole. The note under that result gives the call_id and the number of pages.","parameters":{"type":"object","properties":{"call_id":{"type":"string","description":"The id of the tool call whose result was paged, as the note under that result gives it"},"page":{"type":"integer","minimum":1,"description":"The page to read, from 1 (the first page, sent with the result) to the number of pages the note gives"}},"required":["call_id","page"],"additionalProperties":false}}])"));
    // The step of the big call keeps the whole result; the reads keep nothing.
    REQUIRE(r.steps.size() == n);
    CHECK(r.steps[0].tool == "big");
    CHECK(r.steps[0].kept_result == whole);
    CHECK(r.steps[1].tool == "read_result");
    CHECK(r.steps[1].kept_result.empty());
    CHECK(r.steps[1].status == agentry::tool_status::ok);
}

TEST_CASE("large results: read_result answers bad calls precisely") {
    std::vector<std::string> answers;
    // Invalid arguments of one tool in three rounds in a row stop the run: a good call between.
    const std::vector<std::string> bad{read_args("nope", 2),           read_args("c1", 66), read_args("c1", 0),
                                       R"({"call_id":"c1","page":"2"})", read_args("c1", 65), R"({"page":2})",
                                       R"({"call_id":7,"page":2.5})"};
    std::size_t next = 0;
    scripted_model model{[&](const chat_request& r) -> completion {
        const message& last = r.messages.back();
        if (last.role != role::tool) return call_one("c1", "big", "{}");
        if (next != 0) answers.push_back(last.text);
        if (next == bad.size()) return scripted_model::answer("done");
        const std::string arguments = bad[next];
        ++next;
        return call_one("b" + std::to_string(next), "read_result", arguments);
    }};
    agentry::agent<paged> agent{model, tools, "You read.", agentry::scripted_transport{}};
    const agentry::run_result r = agent.run("Read.");
    REQUIRE(answers.size() == bad.size());
    CHECK(answers[0] == "not_found: agentry: read_result: no result of call \"nope\" is kept in this run; give the "
                        "call_id of a note that says a result is paged (what the arguments name does not exist; "
                        "check it or ask the user)");
    CHECK(answers[1] == "invalid_input: agentry: read_result: page 66 is out of range; the result of call \"c1\" has "
                        "pages 1 to 65 (change the arguments before trying again)");
    CHECK(answers[2] == "read_result: invalid arguments: /page: must be at least 1. Fix the arguments and call "
                        "read_result again.");
    CHECK(answers[3] == "read_result: invalid arguments: /page: expected an integer, got a string \"2\". Fix the "
                        "arguments and call read_result again.");
    CHECK(answers[4].ends_with(page_note("c1", mib, 65, 65)));
    CHECK(answers[5] == "read_result: invalid arguments: /call_id: missing required property. Fix the arguments and "
                        "call read_result again.");
    CHECK(answers[6] == "read_result: invalid arguments: /call_id: expected a string, got a number 7; /page: expected "
                        "an integer, got 2.5. Fix the arguments and call read_result again.");
    REQUIRE(r.steps.size() == 8);
    CHECK(r.steps[1].status == agentry::tool_status::tool_error);
    CHECK(r.steps[1].failure == agentry::failure_kind::not_found);
    CHECK(r.steps[2].failure == agentry::failure_kind::invalid_input);
    CHECK(r.steps[3].status == agentry::tool_status::invalid_arguments);
}

TEST_CASE("large results: a result within the cap is sent as it is, and a failure's long text is cut") {
    std::vector<std::string> seen;
    scripted_model model{[&](const chat_request& r) -> completion {
        const message& last = r.messages.back();
        if (last.role == role::tool) seen.push_back(last.text);
        if (seen.empty()) return call_one("c1", "small", "{}");
        if (seen.size() == 1) return call_one("c2", "broken", "{}");
        return scripted_model::answer("done");
    }};
    agentry::agent<paged> agent{model, tools, "You read.", agentry::scripted_transport{}};
    const agentry::run_result r = agent.run("Go.");
    REQUIRE(seen.size() == 2);
    CHECK(seen[0] == "short");
    CHECK(seen[1].size() == cap);
    CHECK(seen[1].ends_with("\xE2\x80\xA6[truncated: the result exceeded the limit of 16384 bytes]"));
    CHECK(r.steps[0].kept_result.empty());
    CHECK(r.steps[1].kept_result.empty());
}

TEST_CASE("large results: JSON results of parallel calls are kept apart and paged after separators") {
    constexpr agentry::loop_config parallel{.parallel_tool_calls = true, .large_results = agentry::large_result::page};
    std::vector<std::string> first, reads;
    scripted_model model{[&](const chat_request& r) -> completion {
        const message& last = r.messages.back();
        if (last.role != role::tool)
            return scripted_model::calls({{"a", "numbers", R"({"from":0})", {}}, {"b", "numbers", R"({"from":100000})", {}}});
        if (first.empty()) {
            for (std::size_t i = r.messages.size() - 2; i != r.messages.size(); ++i) first.push_back(r.messages[i].text);
            return scripted_model::calls({{"ra", "read_result", read_args("a", 2), {}},
                                          {"rb", "read_result", read_args("b", 5), {}}});
        }
        for (std::size_t i = r.messages.size() - 2; i != r.messages.size(); ++i) reads.push_back(r.messages[i].text);
        return scripted_model::answer("done");
    }};
    agentry::agent<parallel> agent{model, tools, "You count.", agentry::scripted_transport{}};
    const agentry::run_result r = agent.run("Count.");
    REQUIRE(r.steps.size() == 4);
    const std::string a = r.steps[0].kept_result, b = r.steps[1].kept_result;
    CHECK(a == agentry::json::to_json(numbers(0)));
    CHECK(b == agentry::json::to_json(numbers(100000)));
    REQUIRE(first.size() == 2);
    REQUIRE(reads.size() == 2);
    // Pages of a JSON result end after a ',' (none splits a number).
    const std::string a1 = strip(first[0]), a2 = strip(reads[0]), b5 = strip(reads[1]);
    CHECK(a1.ends_with(','));
    CHECK(a2.ends_with(','));
    CHECK(a1.size() <= cap);
    CHECK(a == a1 + a2 + a.substr(a1.size() + a2.size()));
    CHECK(a1.size() > cap - 8);
    CHECK(b.ends_with(b5));
    CHECK(reads[1].ends_with("(" + std::to_string(b.size()) + " bytes); it is the last page.]"));
    CHECK(first[1].find(R"({"call_id":"b","page":2} and so on up to 5.])") != std::string::npos);
}

TEST_CASE("large results: a summary replaces the result, the whole stays pageable") {
    const std::string instruction_start = "Summarise the tool result in the next message";
    std::vector<std::string> seen;
    std::vector<std::vector<message>> summary_requests;
    scripted_model model{[&](const chat_request& r) -> completion {
        if (r.messages.front().role == role::system && r.messages.front().text.starts_with(instruction_start)) {
            summary_requests.emplace_back(r.messages.begin(), r.messages.end());
            CHECK(r.tools.empty());
            return scripted_model::answer("Lines 0 to 30000 of the same text.", {300000, 20});
        }
        const message& last = r.messages.back();
        if (last.role != role::tool) return call_one("c1", "big", "{}");
        seen.push_back(last.text);
        if (seen.size() == 1) return call_one("r1", "read_result", read_args("c1", 1));
        return scripted_model::answer("done");
    }};
    agentry::agent<summarised> agent{model, tools, "You read.", agentry::scripted_transport{}};
    const agentry::run_result r = agent.run("Summarise.");
    // The summary's tokens count in the run's usage (and its budgets), apart from its turns'.
    CHECK(r.summary_usage == agentry::token_usage{300000, 20});
    CHECK(r.usage == agentry::token_usage{300000, 20});
    CHECK(r.turn_usage.size() == 3);
    REQUIRE(summary_requests.size() == 1);
    REQUIRE(summary_requests[0].size() == 2);
    CHECK(summary_requests[0][0].text ==
          "Summarise the tool result in the next message for the assistant that called the tool, in at most 16384 "
          "bytes. Keep what it needs to go on: names, numbers, identifiers, errors, and where in the result the "
          "details are. Answer with the summary only.");
    CHECK(summary_requests[0][1].role == role::user);
    CHECK(summary_requests[0][1].text == "The result of the tool big:\n\n" + big_text());
    REQUIRE(seen.size() == 2);
    CHECK(seen[0] == "Lines 0 to 30000 of the same text.\n\n[agentry: above is a summary, written by the model, of "
                     "this result of 1048576 bytes, longer than the 16384 bytes sent at once. The whole result is "
                     "kept in 65 pages: read them with the tool read_result, arguments {\"call_id\":\"c1\",\"page\":1} "
                     "and so on up to 65.]");
    const std::vector<std::string> pages = pages_of(big_text(), cap);
    CHECK(seen[1] == pages[0] + page_note("c1", mib, 1, 65));
    CHECK(r.steps[0].kept_result == big_text());
}

TEST_CASE("large results: a summary's tokens count against the run's token budget") {
    scripted_model model{[&](const chat_request& r) -> completion {
        if (r.messages.front().text.starts_with("Summarise the tool result"))
            return scripted_model::answer("A summary.", {5000, 10});
        return call_one("c1", "big", "{}");
    }};
    agentry::agent<summarised> agent{model, tools, {.system_prompt = "You read.", .max_total_tokens = 1000},
                                     agentry::scripted_transport{}};
    const agentry::run_result r = agent.run("Summarise.");
    CHECK(r.stop == agentry::stop_reason::token_budget);
    CHECK(r.turns == 1);
    CHECK(r.usage == agentry::token_usage{5000, 10});
}

TEST_CASE("large results: a summary that fails falls back to the first page, and the note says why") {
    const std::string instruction_start = "Summarise the tool result in the next message";
    std::vector<std::string> seen;
    scripted_model model{[&](const chat_request& r) -> completion {
        if (r.messages.front().text.starts_with(instruction_start)) throw std::runtime_error("the model is busy");
        const message& last = r.messages.back();
        if (last.role != role::tool) return call_one("c1", "big", "{}");
        seen.push_back(last.text);
        return scripted_model::answer("done");
    }};
    agentry::agent<summarised> agent{model, tools, "You read.", agentry::scripted_transport{}};
    const agentry::run_result r = agent.run("Summarise.");
    REQUIRE(seen.size() == 1);
    const std::vector<std::string> pages = pages_of(big_text(), cap);
    CHECK(seen[0] == pages[0] + first_note("c1", mib, 65,
                                           "no summary of this result could be written (agentry: scripted_model's "
                                           "answer function threw: the model is busy), so it is paged instead; "));
    CHECK(r.steps[0].kept_result == big_text());
    CHECK(r.stop == agentry::stop_reason::completed);
}

TEST_CASE("large results: a summary longer than the cap falls back to paging") {
    std::vector<std::string> seen;
    scripted_model model{[&](const chat_request& r) -> completion {
        if (r.messages.front().text.starts_with("Summarise the tool result"))
            return scripted_model::answer(std::string(cap + 1, 's'));
        const message& last = r.messages.back();
        if (last.role != role::tool) return call_one("c1", "big", "{}");
        seen.push_back(last.text);
        return scripted_model::answer("done");
    }};
    agentry::agent<summarised> agent{model, tools, "You read.", agentry::scripted_transport{}};
    (void)agent.run("Summarise.");
    REQUIRE(seen.size() == 1);
    CHECK(seen[0].ends_with(first_note("c1", mib, 65,
                                       "no summary of this result could be written (the model's summary was 16385 "
                                       "bytes, longer than the cap), so it is paged instead; ")));
}

TEST_CASE("large results: a tool added at run time is paged, and no added tool may be named read_result") {
    page_reader script;
    script.tool = "dump";
    agentry::agent<paged> agent{script.model(), tools, "You read.", agentry::scripted_transport{}};
    const std::string dumped(40'000, 'd');
    const auto source = [&](std::string name) {
        return [&dumped, name](const agentry::dynamic_tools_target&) -> agentry::outcome<std::vector<agentry::dynamic_tool>> {
            agentry::dynamic_tool t;
            t.name = name;
            t.definition = R"({"type":"function","function":{"name":")" + name +
                           R"(","description":"Dumps","parameters":{"type":"object"}}})";
            t.call = [&dumped](std::string_view, const agentry::call_scope&) {
                agentry::tool_result out;
                out.content = dumped;
                return out;
            };
            return std::vector<agentry::dynamic_tool>{t};
        };
    };
    const agentry::outcome<void> refused = agent.add_tools(source("read_result"));
    REQUIRE_FALSE(refused.has_value());
    CHECK(refused.error().message.find("read_result") != std::string::npos);
    REQUIRE(agent.add_tools(source("dump")).has_value());
    const agentry::run_result r = agent.run("Dump.");
    CHECK(r.text == "done");
    REQUIRE(script.seen.size() == 3);
    const std::vector<std::string> pages = pages_of(dumped, cap);
    CHECK(script.seen[0] == pages[0] + first_note("c1", 40'000, 3));
    CHECK(script.seen[2] == pages[2] + page_note("c1", 40'000, 3, 3));
    CHECK(strip(script.seen[0]) + strip(script.seen[1]) + strip(script.seen[2]) == dumped);
    CHECK(script.payload.ends_with(R"(,{"type":"function","function":{"name":"dump","description":"Dumps","parameters":{"type":"object"}}}])"));
    CHECK(script.payload.find(R"("name":"read_result")") != std::string::npos);
}

TEST_CASE("large results: a planned step's result is kept and paged in the plan's report") {
    constexpr agentry::loop_config planned_paging{.large_results = agentry::large_result::page,
                                                  .planning = {.enabled = true}};
    std::vector<std::string> seen;
    scripted_model model{[&](const chat_request& r) -> completion {
        const message& last = r.messages.back();
        if (last.role != role::tool)
            return call_one("p1", "make_plan",
                            R"({"steps":[{"id":"s1","tool":"big","arguments":{},"depends_on":[],"inputs":[]}]})");
        seen.push_back(last.text);
        return scripted_model::answer("done");
    }};
    agentry::agent<planned_paging> agent{model, tools, "You plan.", agentry::scripted_transport{}};
    const agentry::run_result r = agent.run(agentry::planned{"Plan."});
    REQUIRE(r.plans.size() == 1);
    REQUIRE(r.plans[0].steps.size() == 1);
    const std::vector<std::string> pages = pages_of(big_text(), cap);
    CHECK(r.plans[0].steps[0].result == pages[0] + first_note("p1/s1", mib, 65));
    REQUIRE(r.steps.size() == 1);
    CHECK(r.steps[0].id == "p1/s1");
    CHECK(r.steps[0].kept_result == big_text());
    REQUIRE(seen.size() == 1);
    CHECK(seen[0].find(R"(arguments {\"call_id\":\"p1/s1\",\"page\":2})") != std::string::npos);
}

namespace {
struct write_request {
    std::string topic;
};
std::string helper_prompt(const write_request& w) { return "Write about " + w.topic + "."; }
} // namespace

TEST_CASE("large results: a sub-agent's long answer is paged in its caller") {
    const std::string essay(20'000, 'w');
    scripted_model sub_model{[&](const chat_request&) { return scripted_model::answer(essay); }};
    agentry::agent<agentry::loop_config{}> sub{sub_model, agentry::registry{}, "You write.", agentry::scripted_transport{}};
    const agentry::registry lead_tools{agentry::agent_tool<"write", "Writes an essay.">(sub, helper_prompt)};
    page_reader script;
    script.tool = "write";
    script.arguments = R"({"topic":"rain"})";
    agentry::agent<paged> lead{script.model(), lead_tools, "You lead.", agentry::scripted_transport{}};
    const agentry::run_result r = lead.run("Essay.");
    CHECK(r.text == "done");
    REQUIRE(script.seen.size() == 2);
    CHECK(script.seen[0] == essay.substr(0, cap) + first_note("c1", 20'000, 2));
    CHECK(strip(script.seen[0]) + strip(script.seen[1]) == essay);
    REQUIRE(r.sub_runs.size() == 1);
    CHECK(r.steps[0].kept_result == essay);
}

#if defined(AGENTRY_PAGING_SQLITE)
TEST_CASE("large results: a state checkpoint written before kept results existed still reads") {
    const agentry::run_state state = agentry::detail::read_body<agentry::run_state>(
        R"({"conversation":[],"turns":1,"steps":[{"turn":1,"id":"c1","tool":"big","result_excerpt":"x"}]})", "r1", "state");
    REQUIRE(state.steps.size() == 1);
    CHECK(state.steps[0].kept_result.empty());
    agentry::run_state written;
    written.steps.emplace_back();
    written.steps[0].kept_result = "whole";
    CHECK(agentry::detail::write_body(written).find(R"("kept_result":"whole")") != std::string::npos);
}

TEST_CASE("large results: a durable run reads a page after a restart, from its SQLite store") {
    const std::filesystem::path file =
        std::filesystem::temp_directory_path() / ("agentry_paging_" + std::to_string(::getpid()) + ".db");
    std::filesystem::remove(file);
    std::string id;
    const std::vector<std::string> pages = pages_of(big_text(), cap);
    {
        // The first process: the big call is paged, then the run stops (cancelled) as the model
        // asks for page 2, and stays runnable in the store.
        agentry::sqlite_store store{{.path = file.string()}};
        agentry::agent<paged>* self = nullptr;
        scripted_model model{[&](const chat_request& r) -> completion {
            if (r.messages.back().role != role::tool) return call_one("c1", "big", "{}");
            self->cancel();
            return call_one("r2", "read_result", read_args("c1", 2));
        }};
        agentry::agent<paged> first{model, tools, "You read.", agentry::scripted_transport{}};
        self = &first;
        id = agentry::start_run(store, first, "Read page 2.");
        const agentry::run_result r = agentry::resume_run(store, first, id);
        REQUIRE(r.stop == agentry::stop_reason::cancelled);
    }
    {
        // The second process: a new store connection and agent, nothing kept in memory. The
        // model asks for page 2 again (the cancelled call was answered so), then page 3.
        agentry::sqlite_store store{{.path = file.string()}};
        std::vector<std::string> seen;
        scripted_model model{[&](const chat_request& r) -> completion {
            if (r.messages.back().role == role::tool) seen.push_back(r.messages.back().text);
            if (seen.size() == 1) return call_one("r2", "read_result", read_args("c1", 2));
            if (seen.size() == 2) return call_one("r3", "read_result", read_args("c1", 3));
            return scripted_model::answer("done");
        }};
        agentry::agent<paged> second{model, tools, "You read.", agentry::scripted_transport{}};
        const agentry::run_result r = agentry::resume_run(store, second, id);
        CHECK(r.stop == agentry::stop_reason::completed);
        REQUIRE(seen.size() == 3);
        CHECK(seen[0] == "The run was cancelled before this call.");
        CHECK(seen[1] == pages[1] + page_note("c1", mib, 2, 65));
        CHECK(seen[2] == pages[2] + page_note("c1", mib, 3, 65));
        CHECK(r.steps[0].kept_result == big_text());
    }
    std::filesystem::remove(file);
}
#endif
