// SPDX-License-Identifier: BSL-1.0
// The message model: parts of a reply that only its provider reads (reasoning items, thinking
// blocks with signatures) come back byte for byte through save()/restore(), checkpoints, and
// summaries, which replace whole messages and never a part of one; a tool result made of MCP
// content blocks (an image) is marked as such, and the mark is kept too.
#include "scripted.hpp"

#include <agentry/agent.hpp>
#include <agentry/mcp/content.hpp>
#include <agentry/registry.hpp>

#include <doctest/doctest.h>

#include <memory>
#include <span>
#include <string>
#include <vector>

namespace {

constexpr agentry::registry tools{
    agentry::tool<"add", "Adds two integers.", "a", "b">(+[](int a, int b) { return static_cast<long long>(a) + b; }),
    agentry::tool<"snapshot", "A picture and its caption.">(+[] {
        return agentry::mcp::content{agentry::mcp::text_block{"the view"}, agentry::mcp::image{"\x89PNG", "image/png"}};
    }),
    agentry::tool<"sized", "An image of n bytes.", "n">(
        +[](int n) { return agentry::mcp::image{std::string(std::size_t(n), 'x'), "image/png"}; }),
};

// A reasoning item with bytes a careless round trip would change: spaces, escapes, key order,
// a number that is not in canonical form.
const std::string reasoning =
    R"({"type":"reasoning", "id":"rs_1","encrypted_content":"gAAA\u00e9\/+==","summary":[],"n":1.50})";
const std::string thinking = R"({"type":"thinking","thinking":"let me add","signature":"EqQBCkgIAR\nAB"})";

agentry::turn_result reply_with_parts(std::vector<agentry::tool_call> calls) {
    agentry::turn_result r = calls.empty() ? scripted::answer("3") : scripted::calls(std::move(calls));
    r.value->reply.parts = std::vector<agentry::provider_part>{{"openai", "reasoning", reasoning, 0},
                                                               {"anthropic", "thinking", thinking, 1}};
    return r;
}

const std::vector<agentry::provider_part>* parts_of_first_reply(std::span<const agentry::message> conversation) {
    for (const agentry::message& m : conversation)
        if (m.role == agentry::role::assistant && m.parts) return &*m.parts;
    return nullptr;
}

void check_parts(const std::vector<agentry::provider_part>* parts) {
    REQUIRE(parts != nullptr);
    REQUIRE(parts->size() == 2);
    CHECK((*parts)[0].raw == reasoning);
    CHECK((*parts)[0].provider == "openai");
    CHECK((*parts)[1].raw == thinking);
    CHECK((*parts)[1].position == 1);
}

struct recorder : agentry::checkpointer {
    std::vector<agentry::message> last;
    void state(std::span<const agentry::message> conversation, const agentry::run_result&) override {
        last.assign(conversation.begin(), conversation.end());
    }
    std::optional<agentry::tool_result> before_call(const agentry::tool_call&, bool) override { return std::nullopt; }
    void after_call(const agentry::tool_call&, const agentry::tool_result&) override {}
};

} // namespace

TEST_CASE("messages: provider parts come back byte for byte through save() and restore()") {
    auto s = std::make_shared<scripted::script>();
    agentry::agent<agentry::loop_config{}> agent{scripted::model{s}, tools, "You add.", scripted::quiet_transport{}};
    s->turns = {reply_with_parts({scripted::call("c1", "add", R"({"a":1,"b":2})")}), scripted::answer("3")};
    REQUIRE(agent.run("1+2?").stop == agentry::stop_reason::completed);
    check_parts(parts_of_first_reply(agent.conversation()));
    // The next request carries the reply with its parts.
    REQUIRE(s->requests.size() == 2);
    check_parts(parts_of_first_reply(s->requests[1].messages));

    const std::string saved = agent.save();
    auto s2 = std::make_shared<scripted::script>();
    agentry::agent<agentry::loop_config{}> other{scripted::model{s2}, tools, "", scripted::quiet_transport{}};
    REQUIRE(other.restore(saved));
    check_parts(parts_of_first_reply(other.conversation()));
    CHECK(other.save() == saved);
}

TEST_CASE("messages: a conversation saved before parts existed still restores, and saves as it reads") {
    const std::string old = R"([{"role":"user","text":"hi","tool_calls":[],"tool_call_id":"","tool_name":"","is_error":false}])";
    auto s = std::make_shared<scripted::script>();
    agentry::agent<agentry::loop_config{}> agent{scripted::model{s}, tools, "", scripted::quiet_transport{}};
    REQUIRE(agent.restore(old));
    REQUIRE(agent.conversation().size() == 1);
    CHECK_FALSE(agent.conversation()[0].parts.has_value());
}

TEST_CASE("messages: a checkpointer sees the parts") {
    auto s = std::make_shared<scripted::script>();
    recorder keeper;
    agentry::agent<agentry::loop_config{}> agent{
        scripted::model{s}, tools, {.system_prompt = "You add.", .checkpointer = &keeper}, scripted::quiet_transport{}};
    s->turns = {reply_with_parts({scripted::call("c1", "add", R"({"a":1,"b":2})")}), scripted::answer("3")};
    REQUIRE(agent.run("1+2?").stop == agentry::stop_reason::completed);
    check_parts(parts_of_first_reply(keeper.last));
}

TEST_CASE("messages: a summary replaces whole messages, and the kept reply keeps its parts") {
    constexpr agentry::loop_config summarizing{.context_budget_tokens = 60,
                                               .compression = agentry::context_compression::summary};
    auto s = std::make_shared<scripted::script>();
    agentry::agent<summarizing> agent{
        scripted::model{s},
        tools,
        {.system_prompt = "You add.", .token_estimator = [](const agentry::message&) { return std::size_t(10); }},
        scripted::quiet_transport{}};
    // Three exchanges fill the budget; the fourth run's request needs a summary of the oldest.
    for (int i = 0; i != 3; ++i) {
        s->turns.push_back(scripted::answer("a" + std::to_string(i)));
        REQUIRE(agent.run("q" + std::to_string(i)).stop == agentry::stop_reason::completed);
    }
    s->turns = {scripted::answer("Summary: three questions were answered."),
                reply_with_parts({scripted::call("c1", "add", R"({"a":1,"b":2})")}), scripted::answer("3")};
    const agentry::run_result r = agent.run("1+2?");
    REQUIRE(r.stop == agentry::stop_reason::completed);
    CHECK(r.summarized_messages > 0);
    check_parts(parts_of_first_reply(agent.conversation()));
}

TEST_CASE("messages: a tool result of MCP content blocks is marked, sent marked, and kept marked") {
    auto s = std::make_shared<scripted::script>();
    agentry::agent<agentry::loop_config{}> agent{scripted::model{s}, tools, "You look.", scripted::quiet_transport{}};
    s->turns = {scripted::calls({scripted::call("c1", "snapshot", "{}"), scripted::call("c2", "add", R"({"a":1,"b":2})")}),
                scripted::answer("a view")};
    REQUIRE(agent.run("Look.").stop == agentry::stop_reason::completed);
    REQUIRE(s->requests.size() == 2);
    const std::vector<agentry::message>& sent = s->requests[1].messages;
    REQUIRE(sent.size() == 5);
    CHECK(sent[3].text == R"([{"type":"text","text":"the view"},{"type":"image","data":"iVBORw==","mimeType":"image/png"}])");
    CHECK(sent[3].content_blocks == true);
    CHECK_FALSE(sent[4].content_blocks.has_value());  // a number's text
    CHECK_FALSE(sent[1].content_blocks.has_value());

    const std::string saved = agent.save();
    CHECK(saved.find(R"("content_blocks":true)") != std::string::npos);
    auto s2 = std::make_shared<scripted::script>();
    agentry::agent<agentry::loop_config{}> other{scripted::model{s2}, tools, "", scripted::quiet_transport{}};
    REQUIRE(other.restore(saved));
    CHECK(other.conversation()[3].content_blocks == true);
    CHECK(other.save() == saved);
}

TEST_CASE("messages: content cut at the result cap, or a failed call, is plain text") {
    auto s = std::make_shared<scripted::script>();
    agentry::agent<agentry::loop_config{.max_result_size = 64}> agent{scripted::model{s}, tools, "", scripted::quiet_transport{}};
    s->turns = {scripted::calls({scripted::call("c1", "sized", R"({"n":200})"), scripted::call("c2", "sized", R"({"n":"x"})")}),
                scripted::answer("done")};
    REQUIRE(agent.run("Look.").stop == agentry::stop_reason::completed);
    const std::vector<agentry::message>& sent = s->requests.at(1).messages;
    REQUIRE(sent.size() == 4);
    CHECK(sent[2].tool_name == "sized");
    CHECK_FALSE(sent[2].content_blocks.has_value());
    CHECK_FALSE(sent[3].content_blocks.has_value());
    CHECK(sent[3].is_error);
}

TEST_CASE("messages: a save written before a member existed restores with its default") {
    // No is_error, parts or content_blocks: an earlier release's message, and a newer one's member it lacks.
    const std::string old = R"([{"role":"user","text":"hi","tool_calls":[],"tool_call_id":"","tool_name":""}])";
    auto s = std::make_shared<scripted::script>();
    agentry::agent<agentry::loop_config{}> agent{scripted::model{s}, tools, "", scripted::quiet_transport{}};
    REQUIRE(agent.restore(old));
    REQUIRE(agent.conversation().size() == 1);
    CHECK_FALSE(agent.conversation()[0].is_error);
    CHECK(agent.conversation()[0].text == "hi");
    CHECK_FALSE(agent.restore(R"([{"role":"user","text":7}])"));
}

TEST_CASE("messages: the default token estimate prices an image of MCP content, not its base64 text") {
    const std::string png(30000, 'x');  // 40,000 bytes of base64
    agentry::tool_call call{"c1", "snapshot", "{}", {}};
    std::string blocks;
    agentry::json::write(blocks, agentry::mcp::content{agentry::mcp::text_block{"the view"},
                                                      agentry::mcp::image{png, "image/png"}});
    agentry::message marked = agentry::message::tool_result(call, blocks);
    marked.content_blocks = true;
    const agentry::message plain = agentry::message::tool_result(call, blocks);
    // The same text, less the base64 data, at 4 bytes a token, plus one image.
    const std::size_t data = 40000;
    const std::size_t rest = blocks.size() - data + call.id.size() + call.name.size();
    CHECK(agentry::estimate_tokens(marked) == 4 + (rest + 3) / 4 + agentry::image_tokens);
    CHECK(agentry::estimate_tokens(plain) == 4 + (blocks.size() + call.id.size() + call.name.size() + 3) / 4);
    CHECK(agentry::estimate_tokens(marked) < 2000);
}
