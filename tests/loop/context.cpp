// SPDX-License-Identifier: BSL-1.0
#include <agentry/loop/context.hpp>
#include <agentry/loop/detect.hpp>

#include <doctest/doctest.h>

#include <vector>

using agentry::message;

TEST_CASE("trim_history keeps system, the last user message and the last group - calls keep their results") {
    std::vector<message> h{message::system("sys"), message::user("first question, rather long text here"),
                           message::assistant("", {{"c1", "t", "{}", {}}, {"c2", "t", "{}", {}}}),
                           message::tool_result({"c1", "t", "{}", {}}, "result one, also long"),
                           message::tool_result({"c2", "t", "{}", {}}, "result two, also long"),
                           message::assistant("an answer that takes room"), message::user("latest")};
    const auto flat = [](const message&) -> std::size_t { return 10; };
    auto t = agentry::detail::trim_history(h, 1000, flat);
    CHECK(t.removed == 0);
    CHECK(t.messages.size() == 7);
    t = agentry::detail::trim_history(h, 30, flat);  // the question, then the call with both results
    CHECK(t.removed == 4);
    REQUIRE(t.messages.size() == 3);
    CHECK(t.messages[0].text == "sys");
    CHECK(t.messages[1].text == "an answer that takes room");
    CHECK(t.messages[2].text == "latest");
    t = agentry::detail::trim_history(h, 65, flat);  // the question alone is enough
    CHECK(t.removed == 1);
    CHECK(t.messages[1].tool_calls.size() == 2);
    t = agentry::detail::trim_history(h, 1, flat);  // the budget cannot be met: still the essentials
    CHECK(t.removed == 5);
    CHECK(t.messages.size() == 2);
}

TEST_CASE("loop_detector: blocks repeated threshold times at the end of the window") {
    agentry::detail::loop_detector d(12, 3);
    CHECK_FALSE(d.record("a", "1"));
    CHECK_FALSE(d.record("a", "1"));
    CHECK(d.record("a", "1"));
    agentry::detail::loop_detector ab(12, 3);
    const char* seq[] = {"a", "b", "a", "b", "a"};
    for (const char* s : seq) CHECK_FALSE(ab.record(s, "{}"));
    CHECK(ab.record("b", "{}"));
    agentry::detail::loop_detector args(12, 3);
    CHECK_FALSE(args.record("a", "1"));
    CHECK_FALSE(args.record("a", "2"));
    CHECK_FALSE(args.record("a", "3"));
    agentry::detail::loop_detector off(12, 0);
    for (int i = 0; i != 5; ++i) CHECK_FALSE(off.record("a", "1"));
}
