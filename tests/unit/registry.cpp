#include <agentry/registry.hpp>

#include <doctest/doctest.h>

#include <string>

namespace {

struct lookup {
    std::string key;
};

struct entry {
    std::string key;
    int value;
};

entry find(const lookup& l) { return {l.key, 1}; }

constexpr agentry::registry tools{
    agentry::tool<"find", "Find an entry.">(find),
    agentry::tool<"ping", "Ping.">(+[] { return std::string("pong"); }),
};

constexpr std::string_view lookup_schema =
    R"({"type":"object","properties":{"key":{"type":"string"}},"required":["key"],"additionalProperties":false})";

} // namespace

TEST_CASE("names and size") {
    static_assert(decltype(tools)::size() == 2);
    CHECK(tools.names[0] == "find");
    CHECK(tools.names[1] == "ping");
    CHECK(boost::hana::at_c<0>(tools.tools()).callable(lookup{"k"}).value == 1);
}

TEST_CASE("OpenAI payload") {
    CHECK(tools.definitions<agentry::dialect::openai>() ==
          std::string(R"([{"type":"function","function":{"name":"find","description":"Find an entry.","parameters":)") +
              std::string(lookup_schema) +
              R"(,"strict":false}},{"type":"function","function":{"name":"ping","description":"Ping.","parameters":)"
              R"({"type":"object","properties":{},"additionalProperties":false},"strict":false}}])");
    CHECK(tools.definitions<agentry::dialect::openai_strict>().find(R"("strict":true}})") != std::string_view::npos);
}

TEST_CASE("Anthropic payload") {
    CHECK(tools.definitions<agentry::dialect::anthropic>() ==
          std::string(R"([{"name":"find","description":"Find an entry.","input_schema":)") +
              std::string(lookup_schema) +
              R"(},{"name":"ping","description":"Ping.","input_schema":)"
              R"({"type":"object","properties":{},"additionalProperties":false}}])");
    CHECK(tools.definitions<agentry::dialect::anthropic_strict>().ends_with(R"(,"strict":true}])"));
}

TEST_CASE("Gemini payload: one functionDeclarations list, no parameters for ping") {
    CHECK(tools.definitions<agentry::dialect::gemini>() ==
          R"([{"functionDeclarations":[{"name":"find","description":"Find an entry.","parameters":)"
          R"({"type":"OBJECT","properties":{"key":{"type":"STRING"}},"required":["key"]}},)"
          R"({"name":"ping","description":"Ping."}]}])");
}

TEST_CASE("MCP tools/list entries: outputSchema for object results only") {
    CHECK(tools.definitions<agentry::dialect::mcp>() ==
          std::string(R"([{"name":"find","description":"Find an entry.","inputSchema":)") +
              std::string(lookup_schema) +
              R"(,"outputSchema":{"type":"object","properties":{"key":{"type":"string"},)"
              R"("value":{"type":"integer","minimum":-2147483648,"maximum":2147483647}},)"
              R"("required":["key","value"],"additionalProperties":false}},)"
              R"({"name":"ping","description":"Ping.","inputSchema":)"
              R"({"type":"object","properties":{},"additionalProperties":false}}])");
}

TEST_CASE("standard payload and an empty registry") {
    CHECK(tools.definitions().starts_with(R"([{"name":"find","description":"Find an entry.","parameters":{)"));
    constexpr agentry::registry<> none{};
    CHECK(none.definitions() == "[]");
    CHECK(none.definitions<agentry::dialect::gemini>() == R"([{"functionDeclarations":[]}])");
}

TEST_CASE("a registry of capturing tools is an ordinary const object") {
    int base = 10;
    const agentry::registry local{agentry::tool<"offset", "Offset.", "x">([base](int x) { return x + base; })};
    CHECK(boost::hana::at_c<0>(local.tools()).callable(5) == 15);
    CHECK(local.definitions<agentry::dialect::anthropic>().find(R"("name":"offset")") != std::string_view::npos);
}
