// SPDX-License-Identifier: BSL-1.0
// Tool results as MCP content blocks (agentry/mcp/content.hpp). The block from here to the first
// registry is the example of docs/mcp.md, byte for byte (checked below).
#include <agentry/agentry.hpp>
#include <agentry/mcp/content.hpp>

#include <string>

namespace mcp = agentry::mcp;

struct chart_query {
    std::string title;
};

std::string render_png(const chart_query& q);  // the bytes of a PNG file

mcp::content chart(const chart_query& q) {
    return {mcp::text_block{"Sales: " + q.title}, mcp::image{render_png(q), "image/png"}};
}

mcp::resource_link latest_report() {
    return {.uri = "file:///reports/q3.pdf", .name = "q3.pdf", .mime_type = "application/pdf"};
}

constexpr agentry::registry tools{
    agentry::tool<"chart", "Draws a sales chart">(chart),
    agentry::tool<"latest_report", "Links the latest report">(latest_report),
};

#include <agentry/json/schema_check.hpp>
#include <agentry/json/value.hpp>
#include <agentry/mcp/server.hpp>
#include <agentry/mcp/version.hpp>
#include <agentry/outcome.hpp>

#include "doc_block.hpp"

#include <doctest/doctest.h>

#include <fstream>
#include <sstream>
#include <stdexcept>
#include <string_view>
#include <vector>

using namespace std::string_literals;

// The PNG signature, as a short image.
std::string render_png(const chart_query&) { return "\x89PNG\r\n\x1a\n"s; }

namespace {

// A type of the application, sent as an image through its adapter.
struct thumbnail {
    std::string png;
};

mcp::content every_block() {
    mcp::content c;
    c.add(mcp::text_block{"all"})
        .add(mcp::image{"\x00"s, "image/png"})
        .add(mcp::audio{"RIFF", "audio/wav"})
        .add(mcp::embedded_resource{"notes://a", "text/markdown", "# A"})
        .add(mcp::embedded_resource{"file:///r.pdf", "application/pdf", mcp::blob{"%PDF-1.7"}})
        .add(mcp::resource_link{.uri = "notes://b", .name = "b"});
    return c;
}

} // namespace

template <>
struct agentry::adapter<thumbnail> {
    using json_type = mcp::image;
    static mcp::image to_json(const thumbnail& t) { return {t.png, "image/png"}; }
};

namespace {

constexpr agentry::registry all{
    agentry::tool<"chart", "Draws a sales chart">(chart),
    agentry::tool<"latest_report", "Links the latest report">(latest_report),
    agentry::tool<"words", "A text block">(+[] { return mcp::text_block{"a \"quoted\"\nline \xff"}; }),
    agentry::tool<"photo", "An image">(+[] { return mcp::image{"\xff\xfe"s, "image/jpeg"}; }),
    agentry::tool<"clip", "Audio">(+[] { return mcp::audio{"RIFF", "audio/wav"}; }),
    agentry::tool<"note", "A text resource">(+[] { return mcp::embedded_resource{"notes://a", "text/markdown", "# A\n"}; }),
    agentry::tool<"pdf", "A binary resource">(
        +[] { return mcp::embedded_resource{"file:///r.pdf", "application/pdf", mcp::blob{"%PDF-1.7"}}; }),
    agentry::tool<"untyped", "A resource without a MIME type">(+[] { return mcp::embedded_resource{"x://1", "", "one"}; }),
    agentry::tool<"full_link", "A link with every member">(+[] {
        return mcp::resource_link{.uri = "file:///r.pdf",
                                  .name = "r.pdf",
                                  .description = "The report",
                                  .mime_type = "application/pdf",
                                  .title = "Report",
                                  .size = 1024};
    }),
    agentry::tool<"every", "Every block type">(every_block),
    agentry::tool<"none", "No blocks">(+[] { return mcp::content{}; }),
    agentry::tool<"thumb", "An adapted image">(+[] { return thumbnail{"\x89PNG\r\n\x1a\n"s}; }),
    agentry::tool<"maybe", "An image or a failure", "ok">(+[](bool ok) -> agentry::outcome<mcp::image> {
        if (!ok) return agentry::fail(agentry::failure_kind::not_found, "no image");
        return mcp::image{"RIFF", "image/webp"};
    }),
    agentry::tool<"broken", "Throws">(+[]() -> mcp::content { throw std::runtime_error("renderer crashed"); }),
    agentry::tool<"sized", "Content of n bytes", "n">(+[](int n) { return mcp::image{std::string(std::size_t(n), 'x'), "image/png"}; }),
    agentry::tool<"plain", "A string", "s">(+[](std::string s) { return s; }),
};

const mcp::server server{all, {.name = "content", .version = "1"}};

std::string initialize(std::string_view version) {
    return R"({"jsonrpc":"2.0","id":0,"method":"initialize","params":{"protocolVersion":")"s + std::string(version) + "\"}}";
}

// A session initialized at `version`.
struct at {
    mcp::session session;
    explicit at(std::string_view version) { REQUIRE(!server.handle(session, initialize(version)).empty()); }
    std::string operator()(std::string_view message) { return server.handle(session, message); }
};

std::string call(std::string_view name, std::string_view arguments = "{}") {
    return R"({"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":")"s + std::string(name) +
           R"(","arguments":)" + std::string(arguments) + "}}";
}

// The answer to a successful call whose content is `blocks`.
std::string answer(std::string_view blocks) {
    return R"({"jsonrpc":"2.0","id":1,"result":{"content":)"s + std::string(blocks) + R"(,"isError":false}})";
}

// The answer to a failed call, a text block.
std::string failed(std::string_view text) {
    return R"({"jsonrpc":"2.0","id":1,"result":{"content":[{"type":"text","text":)"s + std::string(text) +
           R"(}],"isError":true}})";
}

constexpr std::string_view chart_blocks =
    R"([{"type":"text","text":"Sales: Q3"},{"type":"image","data":"iVBORw0KGgo=","mimeType":"image/png"}])";
constexpr std::string_view every_blocks =
    R"([{"type":"text","text":"all"},{"type":"image","data":"AA==","mimeType":"image/png"},)"
    R"({"type":"audio","data":"UklGRg==","mimeType":"audio/wav"},)"
    R"({"type":"resource","resource":{"uri":"notes://a","mimeType":"text/markdown","text":"# A"}},)"
    R"({"type":"resource","resource":{"uri":"file:///r.pdf","mimeType":"application/pdf","blob":"JVBERi0xLjc="}},)"
    R"({"type":"resource_link","uri":"notes://b","name":"b"}])";

} // namespace

TEST_CASE("base64: decoding undoes encoding, and refuses what is not padded base64") {
    using mcp::detail::base64;
    using mcp::detail::decode_base64;
    std::string every_byte;
    for (int i = 0; i != 256; ++i) every_byte += char(i);
    for (std::size_t n = 0; n < every_byte.size(); n += 37) {
        const std::string bytes = every_byte.substr(n, n % 5);
        CHECK(decode_base64(base64(bytes)) == bytes);
    }
    CHECK(decode_base64(base64(every_byte)) == every_byte);
    CHECK(decode_base64("Zm9vYmE=") == "fooba");
    CHECK(decode_base64("Zg==") == "f");
    CHECK(decode_base64("") == "");
    CHECK_FALSE(decode_base64("Zg="));    // not a multiple of four
    CHECK_FALSE(decode_base64("Z===")); // three padding characters
    CHECK_FALSE(decode_base64("Zg=a")); // padding before data
    CHECK_FALSE(decode_base64("Zg==Zg==")); // padding inside
    CHECK_FALSE(decode_base64("Zm9v Yg=")); // a space
    CHECK_FALSE(decode_base64("Zm9-")); // the URL-safe alphabet
}

TEST_CASE("base64url: the URL alphabet and no padding (RFC 4648 section 5)") {
    using mcp::detail::base64url;
    CHECK(base64url("") == "");
    CHECK(base64url("f") == "Zg");
    CHECK(base64url("fo") == "Zm8");
    CHECK(base64url("foo") == "Zm9v");
    CHECK(base64url("\xfb\xff\xbf") == "-_-_");
    CHECK(base64url("\xfb\xff") == "-_8");
}

TEST_CASE("base64: the RFC 4648 test vectors, every byte value, the size") {
    using mcp::detail::base64;
    CHECK(base64("") == "");
    CHECK(base64("f") == "Zg==");
    CHECK(base64("fo") == "Zm8=");
    CHECK(base64("foo") == "Zm9v");
    CHECK(base64("foob") == "Zm9vYg==");
    CHECK(base64("fooba") == "Zm9vYmE=");
    CHECK(base64("foobar") == "Zm9vYmFy");
    CHECK(base64("\x00"s) == "AA==");
    CHECK(base64("\x00\x00\x00"s) == "AAAA");
    CHECK(base64("\xff\xfe") == "//4=");
    std::string every_byte;
    for (int i = 0; i != 256; ++i) every_byte += char(i);
    CHECK(base64(every_byte) ==
          "AAECAwQFBgcICQoLDA0ODxAREhMUFRYXGBkaGxwdHh8gISIjJCUmJygpKissLS4vMDEyMzQ1Njc4OTo7PD0+P0BBQkNERUZHSElKS0xNTk9Q"
          "UVJTVFVWV1hZWltcXV5fYGFiY2RlZmdoaWprbG1ub3BxcnN0dXZ3eHl6e3x9fn+AgYKDhIWGh4iJiouMjY6PkJGSk5SVlpeYmZqbnJ2en6Ch"
          "oqOkpaanqKmqq6ytrq+wsbKztLW2t7i5uru8vb6/wMHCw8TFxsfIycrLzM3Oz9DR0tPU1dbX2Nna29zd3t/g4eLj5OXm5+jp6uvs7e7v8PHy"
          "8/T19vf4+fr7/P3+/w==");
    CHECK(mcp::detail::base64_size(0) == 0);
    CHECK(mcp::detail::base64_size(1) == 4);
    CHECK(mcp::detail::base64_size(3) == 4);
    CHECK(mcp::detail::base64_size(4) == 8);
    std::string out = "x";
    mcp::detail::append_base64(out, "foobar");
    CHECK(out == "xZm9vYmFy");
}

TEST_CASE("registry: a content result says so (tool_result::content_blocks), through adapters and outcomes") {
    const std::pair<const char*, const char*> calls[] = {{"chart", R"({"title":"Q3"})"}, {"photo", "{}"}, {"every", "{}"},
                                                         {"none", "{}"}, {"thumb", "{}"}, {"sized", R"({"n":3})"}};
    for (const auto& c : calls) CHECK_MESSAGE(all.call(c.first, c.second).content_blocks, std::string(c.first));
    CHECK(all.call("maybe", R"({"ok":true})").content_blocks);
    const agentry::tool_result failed = all.call("maybe", R"({"ok":false})");
    CHECK(failed.status == agentry::tool_status::tool_error);
    CHECK(!failed.content_blocks);
    CHECK(!all.call("plain", R"({"s":"x"})").content_blocks);
    CHECK(!all.call("broken", "{}").content_blocks);
    CHECK(!all.call("photo", "[]").content_blocks);
}

TEST_CASE("registry: a content result is the MCP content array as JSON text") {
    const agentry::tool_result r = tools.call("chart", R"({"title":"Q3"})");
    CHECK(r.ok());
    CHECK(r.content == chart_blocks);
    CHECK(r.content_blocks);
    CHECK(all.call("every", "{}").content == every_blocks);
    CHECK(all.call("none", "{}").content == "[]");
    CHECK(tools.call("latest_report", "{}").content ==
          R"([{"type":"resource_link","uri":"file:///reports/q3.pdf","name":"q3.pdf","mimeType":"application/pdf"}])");
    // The same text from json::write, outside any call.
    std::string text;
    agentry::json::write(text, mcp::content{mcp::text_block{"a"}, mcp::audio{"RIFF", "audio/wav"}});
    CHECK(text == R"([{"type":"text","text":"a"},{"type":"audio","data":"UklGRg==","mimeType":"audio/wav"}])");
    // A vector of blocks, in order.
    text.clear();
    agentry::json::write(text, mcp::content{std::vector<mcp::content_block>{mcp::text_block{"b"}, mcp::text_block{"c"}}});
    CHECK(text == R"([{"type":"text","text":"b"},{"type":"text","text":"c"}])");
}

TEST_CASE("tools/call: each block type, exactly") {
    at s("2025-11-25");
    CHECK(s(call("chart", R"({"title":"Q3"})")) == answer(chart_blocks));
    // Text as the JSON writer writes strings: escaped, ill-formed UTF-8 replaced by U+FFFD.
    CHECK(s(call("words")) == answer(R"([{"type":"text","text":"a \"quoted\"\nline )"
                                     "\xEF\xBF\xBD"
                                     R"("}])"));
    CHECK(s(call("photo")) == answer(R"([{"type":"image","data":"//4=","mimeType":"image/jpeg"}])"));
    CHECK(s(call("clip")) == answer(R"([{"type":"audio","data":"UklGRg==","mimeType":"audio/wav"}])"));
    CHECK(s(call("note")) ==
          answer(R"([{"type":"resource","resource":{"uri":"notes://a","mimeType":"text/markdown","text":"# A\n"}}])"));
    CHECK(s(call("pdf")) ==
          answer(R"([{"type":"resource","resource":{"uri":"file:///r.pdf","mimeType":"application/pdf","blob":"JVBERi0xLjc="}}])"));
    CHECK(s(call("untyped")) == answer(R"([{"type":"resource","resource":{"uri":"x://1","text":"one"}}])"));
    CHECK(s(call("latest_report")) ==
          answer(R"([{"type":"resource_link","uri":"file:///reports/q3.pdf","name":"q3.pdf","mimeType":"application/pdf"}])"));
    CHECK(s(call("full_link")) ==
          answer(R"([{"type":"resource_link","uri":"file:///r.pdf","name":"r.pdf","description":"The report",)"
                 R"("mimeType":"application/pdf","title":"Report","size":1024}])"));
    CHECK(s(call("every")) == answer(every_blocks));
    CHECK(s(call("none")) == answer("[]"));
    // Through an adapter, and inside an outcome.
    CHECK(s(call("thumb")) == answer(R"([{"type":"image","data":"iVBORw0KGgo=","mimeType":"image/png"}])"));
    CHECK(s(call("maybe", R"({"ok":true})")) == answer(R"([{"type":"image","data":"UklGRg==","mimeType":"image/webp"}])"));
    // Other tools as before: one text block.
    CHECK(s(call("plain", R"({"s":"[{\"type\":\"image\"}]"})")) ==
          answer(R"([{"type":"text","text":"[{\"type\":\"image\"}]"}])"));
}

TEST_CASE("tools/call: a failing content tool is a text block with isError") {
    at s("2025-11-25");
    CHECK(s(call("broken")) == failed(R"("broken failed: renderer crashed")"));
    CHECK(s(call("maybe", R"({"ok":false})")) == failed(R"("maybe failed: no image")"));
    CHECK(s(call("maybe", R"({"ok":"yes"})")) ==
          failed(R"("maybe: invalid arguments: /ok: expected a boolean, got a string \"yes\". Fix the arguments and call maybe again.")"));
    // Content cut at the result cap is not JSON: a text block says so.
    const mcp::server small{all.with_options({.max_result_size = 100})};
    mcp::session t;
    REQUIRE(!small.handle(t, initialize("2025-11-25")).empty());
    CHECK(small.handle(t, call("sized", R"({"n":20})")) ==
          answer(R"([{"type":"image","data":"eHh4eHh4eHh4eHh4eHh4eHh4eHg=","mimeType":"image/png"}])"));
    CHECK(small.handle(t, call("sized", R"({"n":200})")) ==
          failed(R"x("sized failed: its content exceeded the result limit of 100 bytes (call_options::max_result_size)")x"));
}

TEST_CASE("tools/list: no outputSchema for content tools") {
    const std::string list(server.tools_list("2025-11-25"));
    CHECK(list.find(R"({"name":"chart","description":"Draws a sales chart","inputSchema":{"type":"object","properties":)"
                    R"({"title":{"type":"string"}},"required":["title"],"additionalProperties":false}})") != std::string::npos);
    CHECK(list.find(R"({"name":"every","description":"Every block type","inputSchema":{"type":"object","properties":{},)"
                    R"("additionalProperties":false}})") != std::string::npos);
    CHECK(list.find("outputSchema") == std::string::npos);
}

TEST_CASE("versions: blocks a version does not define are sent as text blocks") {
    const std::string link_as_text = R"({"type":"text","text":"{\"type\":\"resource_link\",\"uri\":\"notes://b\",\"name\":\"b\"}"})";
    const std::string every_before =
        R"([{"type":"text","text":"all"},{"type":"image","data":"AA==","mimeType":"image/png"},)"
        R"({"type":"audio","data":"UklGRg==","mimeType":"audio/wav"},)"
        R"({"type":"resource","resource":{"uri":"notes://a","mimeType":"text/markdown","text":"# A"}},)"
        R"({"type":"resource","resource":{"uri":"file:///r.pdf","mimeType":"application/pdf","blob":"JVBERi0xLjc="}},)" +
        link_as_text + "]";
    const std::string no_audio = R"({"type":"text","text":"audio not sent: protocol version 2024-11-05 has no audio content"})";

    at v2025_06("2025-06-18");
    CHECK(v2025_06(call("every")) == answer(every_blocks));

    at v2025_03("2025-03-26");
    CHECK(v2025_03(call("every")) == answer(every_before));
    CHECK(v2025_03(call("clip")) == answer(R"([{"type":"audio","data":"UklGRg==","mimeType":"audio/wav"}])"));
    CHECK(v2025_03(call("chart", R"({"title":"Q3"})")) == answer(chart_blocks));

    at v2024("2024-11-05");
    std::string every_2024 = every_before;
    every_2024.replace(every_2024.find(R"({"type":"audio")"), std::string_view(R"({"type":"audio","data":"UklGRg==","mimeType":"audio/wav"})").size(),
                       no_audio);
    CHECK(v2024(call("every")) == answer(every_2024));
    CHECK(v2024(call("clip")) == answer("[" + no_audio + "]"));
    CHECK(v2024(call("full_link")) ==
          answer(R"([{"type":"text","text":"{\"type\":\"resource_link\",\"uri\":\"file:///r.pdf\",\"name\":\"r.pdf\",)"
                 R"(\"description\":\"The report\",\"mimeType\":\"application/pdf\",\"title\":\"Report\",\"size\":1024}"}])"));
    CHECK(v2024(call("pdf")) ==
          answer(R"([{"type":"resource","resource":{"uri":"file:///r.pdf","mimeType":"application/pdf","blob":"JVBERi0xLjc="}}])"));

    // 2026-07-28, stateless: the blocks, then resultType.
    mcp::session none;
    CHECK(server.handle(none, R"({"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"_meta":{)"
                              R"("io.modelcontextprotocol/protocolVersion":"2026-07-28","io.modelcontextprotocol/clientCapabilities":{}},)"
                              R"("name":"clip"}})") ==
          R"({"jsonrpc":"2.0","id":1,"result":{"content":[{"type":"audio","data":"UklGRg==","mimeType":"audio/wav"}],)"
          R"("isError":false,"resultType":"complete"}})");
}

TEST_CASE("json_value_end: strings with brackets, quotes and escapes") {
    using mcp::detail::json_value_end;
    constexpr std::string_view text = R"([{"a":"}]\"{"},{"b":[1,{"c":"\\"}]}],)";
    CHECK(json_value_end(text, 0) == text.size() - 1);
    CHECK(json_value_end(text, 1) == text.find(R"(,{"b")"));
    CHECK(json_value_end(text, text.find(R"({"b")")) == text.size() - 2);
}

TEST_CASE("docs/mcp.md: the example of Content is in this file") {
    const std::string block = mcp_test::doc_block("## Content: images, audio and resources");
    CHECK(block.starts_with("#include <agentry/agentry.hpp>"));
    CHECK(mcp_test::in_test_file(block, "content.cpp"));
}

TEST_CASE("schema: every content answer is a CallToolResult of the session's version") {
    const std::string root = AGENTRY_TEST_SOURCE_DIR "/../shared/testdata/mcp-schema/";
    struct tool_call {
        std::string_view name;
        std::string_view arguments;
    };
    constexpr tool_call calls[] = {{"chart", R"({"title":"Q3"})"}, {"latest_report", "{}"}, {"words", "{}"},
                                   {"photo", "{}"},  {"clip", "{}"},  {"note", "{}"},  {"pdf", "{}"},
                                   {"untyped", "{}"}, {"full_link", "{}"}, {"every", "{}"}, {"none", "{}"},
                                   {"thumb", "{}"},  {"maybe", R"({"ok":true})"}, {"maybe", R"({"ok":false})"},
                                   {"broken", "{}"}};
    for (const std::string_view version : mcp::served_protocol_versions) {
        const std::string text = mcp_test::read_file(root + std::string(version) + "/schema.json");
        if (text.empty()) {
            MESSAGE("skipped: " << root << " is absent (../shared/testdata)");
            return;
        }
        agentry::json::parsed parsed = agentry::json::parse(text);
        REQUIRE(parsed.ok());
        agentry::json::value schema = std::move(parsed.value);
        schema.set("$ref", schema.find("$defs") ? "#/$defs/CallToolResult" : "#/definitions/CallToolResult");
        const agentry::json::schema_checker check(std::move(schema));
        const bool stateless = version == mcp::stateless_protocol_version;
        mcp::session s;
        if (!stateless) REQUIRE(!server.handle(s, initialize(version)).empty());
        for (const tool_call& c : calls) {
            const std::string request =
                stateless ? R"({"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"_meta":{"io.modelcontextprotocol/protocolVersion":")"s +
                                std::string(version) + R"(","io.modelcontextprotocol/clientCapabilities":{}},"name":")" +
                                std::string(c.name) + R"(","arguments":)" + std::string(c.arguments) + "}}"
                          : call(c.name, c.arguments);
            const std::string answer_text = server.handle(s, request);
            INFO(version, " ", c.name, ": ", answer_text);
            const agentry::json::parsed answer = agentry::json::parse(answer_text);
            REQUIRE(answer.ok());
            const agentry::json::value* result = answer.value.find("result");
            REQUIRE(result != nullptr);
            const std::vector<agentry::json::read_error> errors = check(*result);
            CHECK(errors.empty());
            if (!errors.empty()) MESSAGE(errors.front().to_string());
        }
    }
}
