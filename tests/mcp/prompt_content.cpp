// SPDX-License-Identifier: BSL-1.0
// Prompt messages of any content block (agentry/mcp/prompts.hpp) and binary resources
// (agentry/mcp/resources.hpp). The block from here to the server is the example of docs/mcp.md,
// byte for byte (checked below).
#include <agentry/agentry.hpp>
#include <agentry/mcp/server.hpp>

#include <string>
#include <vector>

namespace mcp = agentry::mcp;

std::string load_diagram();  // the bytes of a PNG file

struct explain_args {
    std::string uri;
};

std::vector<mcp::prompt_message> explain(const explain_args& a) {
    return {{mcp::role::user, mcp::image{load_diagram(), "image/png"}},
            {mcp::role::user, mcp::embedded_resource{a.uri, "text/plain", "1. parse 2. check"}},
            {mcp::role::user, "Explain the diagram with the notes above."}};
}

constexpr agentry::registry diagram_tools{
    agentry::tool<"add", "Adds two integers", "a", "b">(+[](int a, int b) { return a + b; }),
};

const mcp::server diagram_server{
    diagram_tools, {.name = "diagrams", .version = "1.0.0"},
    mcp::prompt<"explain", "Asks to explain a diagram">(explain),
    mcp::resource<"diagrams://latest", "latest">(+[] { return mcp::blob{load_diagram()}; }, {.mime_type = "image/png"})};

#include <agentry/json/schema_check.hpp>
#include <agentry/json/value.hpp>
#include <agentry/mcp/detail/content_result.hpp>
#include <agentry/mcp/version.hpp>

#include <doctest/doctest.h>

#include <fstream>
#include <map>
#include <sstream>
#include <stdexcept>
#include <string_view>
#include <type_traits>

using namespace std::string_literals;

// The PNG signature, as a short image.
std::string load_diagram() { return "\x89PNG\r\n\x1a\n"s; }

static_assert(std::is_constructible_v<mcp::prompt_message, mcp::role, const char*>);
static_assert(std::is_constructible_v<mcp::prompt_message, mcp::role, std::string>);
static_assert(std::is_constructible_v<mcp::prompt_message, mcp::role, mcp::image>);
static_assert(std::is_constructible_v<mcp::prompt_message, mcp::role, const mcp::resource_link&>);
static_assert(std::is_constructible_v<mcp::prompt_message, mcp::role, mcp::content_block>);
static_assert(!std::is_constructible_v<mcp::prompt_message, mcp::role, mcp::blob>);
static_assert(!std::is_constructible_v<mcp::prompt_message, mcp::role, mcp::content>);

namespace {

struct embed_args {
    std::string resourceUri;
};

struct file_ref {
    std::string name;
};

std::vector<mcp::prompt_message> every_block() {
    return {{mcp::role::user, "all"},
            {mcp::role::assistant, mcp::image{"\x00\x01\x02\xff"s, "image/png"}},
            {mcp::role::user, mcp::audio{"RIFF", "audio/wav"}},
            {mcp::role::user, mcp::embedded_resource{"notes://a", "text/markdown", "# A"}},
            {mcp::role::user, mcp::embedded_resource{"file:///r.pdf", "application/pdf", mcp::blob{"%PDF-1.7"}}},
            {mcp::role::assistant, mcp::resource_link{.uri = "notes://b", .name = "b", .title = "B"}},
            {mcp::role::user, mcp::content_block{mcp::text_block{"a variant"}}}};
}

const mcp::server server{
    diagram_tools,
    {.name = "prompt-content", .version = "1"},
    mcp::prompt<"plain", "A text prompt">(+[] { return "Plain \"text\""s; }),
    mcp::prompt<"conversation", "Text messages">(+[] {
        return std::vector<mcp::prompt_message>{{mcp::role::user, "Hi"}, {mcp::role::assistant, "Hello!"}};
    }),
    mcp::prompt<"every", "Every block type">(every_block),
    mcp::prompt<"test_prompt_with_embedded_resource", "A prompt with an embedded resource">(+[](const embed_args& a) {
        return std::vector<mcp::prompt_message>{
            {mcp::role::user, mcp::embedded_resource{a.resourceUri, "text/plain", "Embedded resource content for testing."}},
            {mcp::role::user, "Please process the embedded resource above."}};
    }),
    mcp::prompt<"test_prompt_with_image", "A prompt with an image">(+[] {
        return std::vector<mcp::prompt_message>{{mcp::role::user, mcp::image{load_diagram(), "image/png"}},
                                                {mcp::role::user, "Please analyze the image above."}};
    }),
    mcp::prompt<"explain", "Asks to explain a diagram">(explain),
    mcp::prompt<"broken", "Throws">(+[]() -> std::vector<mcp::prompt_message> { throw std::runtime_error("no image"); }),
    mcp::resource<"test://static-binary", "static-binary">(+[] { return mcp::blob{load_diagram()}; },
                                                           {.description = "A PNG", .mime_type = "image/png"}),
    mcp::resource<"bin://raw", "raw">(+[] { return mcp::blob{"\x00\x01\x02\xff"s}; }),
    mcp::resource<"bin://empty", "empty">(+[] { return mcp::blob{}; }),
    mcp::resource<"docs://readme", "readme">(+[] { return "Read me"s; }),
    mcp::resource<"docs://numbers", "numbers">(+[] { return std::vector<int>{1, 2}; }),
    mcp::resource_template<"files://{name}", "file">(+[](const file_ref& f) {
        if (f.name == "missing") throw std::runtime_error("no such file");
        return mcp::blob{"bytes of " + f.name};
    }),
    mcp::resource_template<"images://{name}", "image">(+[](const file_ref&) { return mcp::blob{load_diagram()}; },
                                                       {.mime_type = "image/png", .title = "Image"}),
};

std::string initialize(std::string_view version) {
    return R"({"jsonrpc":"2.0","id":0,"method":"initialize","params":{"protocolVersion":")"s + std::string(version) + "\"}}";
}

// A session initialized at `version`.
struct at {
    mcp::session session;
    explicit at(std::string_view version) { REQUIRE(!server.handle(session, initialize(version)).empty()); }
    std::string operator()(std::string_view message) { return server.handle(session, message); }
};

std::string get(std::string_view name, std::string_view arguments = {}) {
    return R"({"jsonrpc":"2.0","id":1,"method":"prompts/get","params":{"name":")"s + std::string(name) + "\"" +
           (arguments.empty() ? "" : R"(,"arguments":)" + std::string(arguments)) + "}}";
}

std::string read(std::string_view uri) {
    return R"({"jsonrpc":"2.0","id":1,"method":"resources/read","params":{"uri":")"s + std::string(uri) + "\"}}";
}

// The answer to prompts/get of a prompt described as `description` with `messages`.
std::string messages(std::string_view description, std::string_view list) {
    return R"({"jsonrpc":"2.0","id":1,"result":{"description":")"s + std::string(description) + R"(","messages":)" +
           std::string(list) + "}}";
}

// The answer to resources/read of one item.
std::string contents(std::string_view item) {
    return R"({"jsonrpc":"2.0","id":1,"result":{"contents":[)"s + std::string(item) + "]}}";
}

std::string user(std::string_view block) { return R"({"role":"user","content":)"s + std::string(block) + "}"; }
std::string assistant(std::string_view block) { return R"({"role":"assistant","content":)"s + std::string(block) + "}"; }

constexpr std::string_view png_block = R"({"type":"image","data":"iVBORw0KGgo=","mimeType":"image/png"})";
constexpr std::string_view audio_block = R"({"type":"audio","data":"UklGRg==","mimeType":"audio/wav"})";
constexpr std::string_view link_block = R"({"type":"resource_link","uri":"notes://b","name":"b","title":"B"})";

// The messages of "every", with `audio` and `link` as the version sends them.
std::string every_messages(std::string_view audio, std::string_view link) {
    return "[" + user(R"({"type":"text","text":"all"})") + "," +
           assistant(R"({"type":"image","data":"AAEC/w==","mimeType":"image/png"})") + "," + user(audio) + "," +
           user(R"({"type":"resource","resource":{"uri":"notes://a","mimeType":"text/markdown","text":"# A"}})") + "," +
           user(R"({"type":"resource","resource":{"uri":"file:///r.pdf","mimeType":"application/pdf","blob":"JVBERi0xLjc="}})") +
           "," + assistant(link) + "," + user(R"({"type":"text","text":"a variant"})") + "]";
}

} // namespace

TEST_CASE("prompt_message: text or one content block") {
    const mcp::prompt_message text{mcp::role::assistant, "hi"};
    CHECK(text.role == mcp::role::assistant);
    CHECK(std::get<mcp::text_block>(text.content).text == "hi");
    const mcp::prompt_message picture{mcp::role::user, mcp::image{"x", "image/gif"}};
    CHECK(std::get<mcp::image>(picture.content).mime_type == "image/gif");
    const mcp::content_block block = mcp::audio{"a", "audio/wav"};
    CHECK(std::holds_alternative<mcp::audio>(mcp::prompt_message{mcp::role::user, block}.content));
    const mcp::prompt_message none{};
    CHECK(none.role == mcp::role::user);
    CHECK(std::get<mcp::text_block>(none.content).text.empty());
}

TEST_CASE("prompts/get: text prompts as before") {
    at s("2025-11-25");
    CHECK(s(get("plain")) == messages("A text prompt", "[" + user(R"({"type":"text","text":"Plain \"text\""})") + "]"));
    CHECK(s(get("conversation")) ==
          messages("Text messages", "[" + user(R"({"type":"text","text":"Hi"})") + "," +
                                        assistant(R"({"type":"text","text":"Hello!"})") + "]"));
}

TEST_CASE("prompts/get: each block type, exactly") {
    at s("2025-11-25");
    CHECK(s(get("every")) == messages("Every block type", every_messages(audio_block, link_block)));
    CHECK(s(get("test_prompt_with_embedded_resource", R"({"resourceUri":"test://example-resource"})")) ==
          R"({"jsonrpc":"2.0","id":1,"result":{"description":"A prompt with an embedded resource","messages":[)"
          R"({"role":"user","content":{"type":"resource","resource":{"uri":"test://example-resource","mimeType":"text/plain",)"
          R"("text":"Embedded resource content for testing."}}},)"
          R"({"role":"user","content":{"type":"text","text":"Please process the embedded resource above."}}]}})");
    CHECK(s(get("test_prompt_with_image")) ==
          R"({"jsonrpc":"2.0","id":1,"result":{"description":"A prompt with an image","messages":[)"
          R"({"role":"user","content":{"type":"image","data":"iVBORw0KGgo=","mimeType":"image/png"}},)"
          R"({"role":"user","content":{"type":"text","text":"Please analyze the image above."}}]}})");
    CHECK(s(get("explain", R"({"uri":"notes://steps"})")) ==
          messages("Asks to explain a diagram",
                   "[" + user(png_block) + "," +
                       user(R"({"type":"resource","resource":{"uri":"notes://steps","mimeType":"text/plain","text":"1. parse 2. check"}})") +
                       "," + user(R"({"type":"text","text":"Explain the diagram with the notes above."})") + "]"));
    // The errors as before.
    CHECK(s(get("test_prompt_with_embedded_resource")) ==
          R"({"jsonrpc":"2.0","id":1,"error":{"code":-32602,"message":"Invalid params: /arguments/resourceUri: missing required property"}})");
    CHECK(s(get("broken")) == R"({"jsonrpc":"2.0","id":1,"error":{"code":-32603,"message":"Prompt \"broken\" failed: no image"}})");
}

TEST_CASE("prompts/get: blocks a version does not define are sent as text blocks") {
    const std::string link_as_text =
        R"({"type":"text","text":"{\"type\":\"resource_link\",\"uri\":\"notes://b\",\"name\":\"b\",\"title\":\"B\"}"})";
    const std::string no_audio = R"({"type":"text","text":"audio not sent: protocol version 2024-11-05 has no audio content"})";
    at v2025_06("2025-06-18");
    CHECK(v2025_06(get("every")) == messages("Every block type", every_messages(audio_block, link_block)));
    at v2025_03("2025-03-26");
    CHECK(v2025_03(get("every")) == messages("Every block type", every_messages(audio_block, link_as_text)));
    at v2024("2024-11-05");
    CHECK(v2024(get("every")) == messages("Every block type", every_messages(no_audio, link_as_text)));
    CHECK(v2024(get("test_prompt_with_image")) ==
          messages("A prompt with an image",
                   "[" + user(png_block) + "," + user(R"({"type":"text","text":"Please analyze the image above."})") + "]"));

    // 2026-07-28, stateless: every block, then resultType.
    mcp::session none;
    CHECK(server.handle(none, R"({"jsonrpc":"2.0","id":1,"method":"prompts/get","params":{"_meta":{)"
                              R"("io.modelcontextprotocol/protocolVersion":"2026-07-28","io.modelcontextprotocol/clientCapabilities":{}},)"
                              R"("name":"every"}})") ==
          R"({"jsonrpc":"2.0","id":1,"result":{"description":"Every block type","messages":)" +
              every_messages(audio_block, link_block) + R"(,"resultType":"complete"}})");
}

TEST_CASE("append_block: the same blocks as append_content, one by one") {
    const std::vector<mcp::prompt_message> all = every_block();
    for (const std::string_view version : mcp::served_protocol_versions) {
        std::string array = "[";
        std::string one_by_one = "[";
        for (std::size_t i = 0; i != all.size(); ++i) {
            array += i == 0 ? "" : ",";
            one_by_one += i == 0 ? "" : ",";
            mcp::detail::write_block(array, all[i].content);
            mcp::detail::append_block(one_by_one, all[i].content, version);
        }
        std::string whole;
        mcp::detail::append_content(whole, array + "]", version);
        CHECK(one_by_one + "]" == whole);
    }
}

TEST_CASE("resources/read: mcp::blob as base64, other results as before") {
    at s("2025-11-25");
    CHECK(s(read("test://static-binary")) ==
          contents(R"({"uri":"test://static-binary","mimeType":"image/png","blob":"iVBORw0KGgo="})"));
    CHECK(s(read("bin://raw")) == contents(R"({"uri":"bin://raw","mimeType":"application/octet-stream","blob":"AAEC/w=="})"));
    CHECK(s(read("bin://empty")) == contents(R"({"uri":"bin://empty","mimeType":"application/octet-stream","blob":""})"));
    CHECK(s(read("files://a")) == contents(R"({"uri":"files://a","mimeType":"application/octet-stream","blob":"Ynl0ZXMgb2YgYQ=="})"));
    CHECK(s(read("files://a%20b")) ==
          contents(R"({"uri":"files://a%20b","mimeType":"application/octet-stream","blob":"Ynl0ZXMgb2YgYSBi"})"));
    CHECK(s(read("images://logo")) == contents(R"({"uri":"images://logo","mimeType":"image/png","blob":"iVBORw0KGgo="})"));
    CHECK(s(read("files://missing")) ==
          R"({"jsonrpc":"2.0","id":1,"error":{"code":-32002,"message":"Resource template \"files://{name}\" cannot be read for \"files://missing\": no such file"}})");
    // Text and JSON as before.
    CHECK(s(read("docs://readme")) == contents(R"({"uri":"docs://readme","mimeType":"text/plain","text":"Read me"})"));
    CHECK(s(read("docs://numbers")) == contents(R"({"uri":"docs://numbers","mimeType":"application/json","text":"[1,2]"})"));
    // The same in every version; 2026-07-28 adds resultType and the cache hints.
    at old("2024-11-05");
    CHECK(old(read("test://static-binary")) ==
          contents(R"({"uri":"test://static-binary","mimeType":"image/png","blob":"iVBORw0KGgo="})"));
    mcp::session none;
    CHECK(server.handle(none, R"({"jsonrpc":"2.0","id":1,"method":"resources/read","params":{"_meta":{)"
                              R"("io.modelcontextprotocol/protocolVersion":"2026-07-28","io.modelcontextprotocol/clientCapabilities":{}},)"
                              R"("uri":"files://a"}})") ==
          R"({"jsonrpc":"2.0","id":1,"result":{"contents":[{"uri":"files://a","mimeType":"application/octet-stream","blob":"Ynl0ZXMgb2YgYQ=="}],)"
          R"("resultType":"complete","cacheScope":"public","ttlMs":0}})");
}

TEST_CASE("resources/list, resources/templates/list: the MIME types of binary resources") {
    at s("2025-11-25");
    CHECK(s(R"({"jsonrpc":"2.0","id":1,"method":"resources/list"})") ==
          R"({"jsonrpc":"2.0","id":1,"result":{"resources":[)"
          R"({"uri":"test://static-binary","name":"static-binary","description":"A PNG","mimeType":"image/png"},)"
          R"({"uri":"bin://raw","name":"raw","mimeType":"application/octet-stream"},)"
          R"({"uri":"bin://empty","name":"empty","mimeType":"application/octet-stream"},)"
          R"({"uri":"docs://readme","name":"readme","mimeType":"text/plain"},)"
          R"({"uri":"docs://numbers","name":"numbers","mimeType":"application/json"}]}})");
    CHECK(s(R"({"jsonrpc":"2.0","id":1,"method":"resources/templates/list"})") ==
          R"({"jsonrpc":"2.0","id":1,"result":{"resourceTemplates":[)"
          R"({"uriTemplate":"files://{name}","name":"file","mimeType":"application/octet-stream"},)"
          R"({"uriTemplate":"images://{name}","name":"image","title":"Image","mimeType":"image/png"}]}})");
}

TEST_CASE("docs/mcp.md: the example of prompt content is in this file, and answers as shown") {
    std::ifstream doc_file(AGENTRY_TEST_SOURCE_DIR "/docs/mcp.md", std::ios::binary);
    std::ifstream self_file(AGENTRY_TEST_SOURCE_DIR "/tests/mcp/prompt_content.cpp", std::ios::binary);
    std::ostringstream doc_text, self_text;
    doc_text << doc_file.rdbuf();
    self_text << self_file.rdbuf();
    const std::string doc = doc_text.str();
    const std::string self = self_text.str();
    const std::size_t section = doc.find("### Images, audio and resources in messages");
    REQUIRE(section != std::string::npos);
    const std::size_t start = doc.find("```cpp\n", section) + 7;
    const std::size_t end = doc.find("```", start);
    REQUIRE(end != std::string::npos);
    const std::string block = doc.substr(start, end - start);
    CHECK(block.starts_with("#include <agentry/agentry.hpp>"));
    CHECK(self.find(block) != std::string::npos);

    mcp::session s;
    REQUIRE(!diagram_server.handle(s, initialize("2025-11-25")).empty());
    const std::string explained = diagram_server.handle(s, get("explain", R"({"uri":"notes://steps"})"));
    const std::string latest = diagram_server.handle(s, read("diagrams://latest"));
    // The answers the section shows.
    const std::size_t json_start = doc.find("```json\n", end) + 8;
    const std::size_t json_end = doc.find("```", json_start);
    REQUIRE(json_end != std::string::npos);
    const std::string shown = doc.substr(json_start, json_end - json_start);
    const std::string explained_result = explained.substr(explained.find(R"("result":)") + 9);
    const std::string latest_result = latest.substr(latest.find(R"("result":)") + 9);
    CHECK(shown == explained_result.substr(0, explained_result.size() - 1) + "\n" +
                       latest_result.substr(0, latest_result.size() - 1) + "\n");
}

TEST_CASE("schema: every prompts/get and resources/read answer fits the schema of the session's version") {
    const std::string root = AGENTRY_TEST_SOURCE_DIR "/../shared/testdata/mcp-schema/";
    struct request {
        std::string_view definition;
        std::string text;  // the method and params, without _meta
    };
    const std::vector<request> requests = {
        {"GetPromptResult", R"("method":"prompts/get","params":{"name":"plain")"},
        {"GetPromptResult", R"("method":"prompts/get","params":{"name":"conversation")"},
        {"GetPromptResult", R"("method":"prompts/get","params":{"name":"every")"},
        {"GetPromptResult",
         R"("method":"prompts/get","params":{"name":"test_prompt_with_embedded_resource","arguments":{"resourceUri":"test://example-resource"})"},
        {"GetPromptResult", R"("method":"prompts/get","params":{"name":"test_prompt_with_image")"},
        {"GetPromptResult", R"("method":"prompts/get","params":{"name":"explain","arguments":{"uri":"notes://steps"})"},
        {"ReadResourceResult", R"("method":"resources/read","params":{"uri":"test://static-binary")"},
        {"ReadResourceResult", R"("method":"resources/read","params":{"uri":"bin://raw")"},
        {"ReadResourceResult", R"("method":"resources/read","params":{"uri":"bin://empty")"},
        {"ReadResourceResult", R"("method":"resources/read","params":{"uri":"files://a%20b")"},
        {"ReadResourceResult", R"("method":"resources/read","params":{"uri":"images://logo")"},
        {"ReadResourceResult", R"("method":"resources/read","params":{"uri":"docs://readme")"},
        {"ListResourcesResult", R"("method":"resources/list","params":{)"},
        {"ListResourceTemplatesResult", R"("method":"resources/templates/list","params":{)"},
    };
    for (const std::string_view version : mcp::served_protocol_versions) {
        std::ifstream in(root + std::string(version) + "/schema.json", std::ios::binary);
        std::ostringstream text;
        text << in.rdbuf();
        if (text.str().empty()) {
            MESSAGE("skipped: " << root << " is absent (../shared/testdata)");
            return;
        }
        agentry::json::parsed parsed = agentry::json::parse(text.str());
        REQUIRE(parsed.ok());
        const bool defs = parsed.value.find("$defs") != nullptr;
        const bool stateless = version == mcp::stateless_protocol_version;
        mcp::session s;
        if (!stateless) REQUIRE(!server.handle(s, initialize(version)).empty());
        std::map<std::string_view, agentry::json::schema_checker> checkers;
        for (const request& r : requests) {
            if (!checkers.contains(r.definition)) {
                agentry::json::value schema = parsed.value;
                schema.set("$ref", (defs ? "#/$defs/"s : "#/definitions/"s) + std::string(r.definition));
                checkers.try_emplace(r.definition, std::move(schema));
            }
            const agentry::json::schema_checker& check = checkers.at(r.definition);
            std::string message = R"({"jsonrpc":"2.0","id":1,)" + r.text;
            if (stateless)
                message += std::string(message.ends_with("{") ? "" : ",") +
                           R"("_meta":{"io.modelcontextprotocol/protocolVersion":"2026-07-28","io.modelcontextprotocol/clientCapabilities":{}})";
            message += "}}";
            const std::string answer_text = server.handle(s, message);
            INFO(version, " ", r.text, ": ", answer_text);
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
