// SPDX-License-Identifier: BSL-1.0
#include <agentry/mcp/server.hpp>

#include "tools.hpp"

#include <doctest/doctest.h>

#include <functional>
#include <string>
#include <string_view>

namespace {

using namespace std::string_literals;
namespace mcp = agentry::mcp;

const mcp::server server{mcp_test::tools, {.name = "test", .version = "1.2.3"},
                         mcp::annotations<"get_weather">{.title = "Weather", .read_only = true, .open_world = true},
                         mcp::annotations<"fail">{.destructive = false, .idempotent = true}};

constexpr std::string_view initialize_11_25 =
    R"({"jsonrpc":"2.0","id":0,"method":"initialize","params":{"protocolVersion":"2025-11-25",)"
    R"("capabilities":{},"clientInfo":{"name":"t","version":"1"}}})";

// A session past initialize.
struct ready {
    mcp::session session;
    ready() { REQUIRE(!server.handle(session, initialize_11_25).empty()); }
    std::string operator()(std::string_view message) { return server.handle(session, message); }
};

// Runs inside the tool "slow", to act while a call is in progress.
std::function<void()> during_call;

constexpr agentry::registry hooked{agentry::tool<"slow", "Runs during_call">(+[] {
    if (during_call) during_call();
    return 1;
})};

std::string call(std::string_view id, std::string_view params) {
    return R"({"jsonrpc":"2.0","id":)"s + std::string(id) + R"(,"method":"tools/call","params":)" +
           std::string(params) + "}";
}

} // namespace

TEST_CASE("initialize: versions negotiated, server info, capabilities") {
    mcp::session s;
    CHECK(server.handle(s, initialize_11_25) ==
          R"({"jsonrpc":"2.0","id":0,"result":{"protocolVersion":"2025-11-25","capabilities":{"tools":{"listChanged":false},"logging":{}},)"
          R"("serverInfo":{"name":"test","version":"1.2.3"}}})");
    CHECK(s.protocol_version() == "2025-11-25");

    mcp::session old;
    CHECK(server.handle(old, R"({"jsonrpc":"2.0","id":"a","method":"initialize","params":{"protocolVersion":"2025-06-18"}})")
              .starts_with(R"({"jsonrpc":"2.0","id":"a","result":{"protocolVersion":"2025-06-18",)"));
    CHECK(old.protocol_version() == "2025-06-18");

    for (const std::string_view version : {"2024-11-05", "2025-03-26"}) {
        mcp::session s_old;
        CHECK(server.handle(s_old, R"({"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":")"s +
                                       std::string(version) + "\"}}") ==
              R"({"jsonrpc":"2.0","id":1,"result":{"protocolVersion":")"s + std::string(version) +
                  R"(","capabilities":{"tools":{"listChanged":false},"logging":{}},"serverInfo":{"name":"test","version":"1.2.3"}}})");
        CHECK(s_old.protocol_version() == version);
    }

    // A version not served, newer, older or between two: the latest.
    for (const std::string_view other : {"2099-01-01", "2025-09-01", "2024-10-07", "draft"}) {
        mcp::session s_other;
        CHECK(server.handle(s_other, R"({"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":")"s +
                                         std::string(other) + "\"}}")
                  .starts_with(R"({"jsonrpc":"2.0","id":1,"result":{"protocolVersion":"2025-11-25",)"));
        CHECK(s_other.protocol_version() == "2025-11-25");
    }
}

namespace {

// A session initialized at `version`.
struct ready_at {
    mcp::session session;
    explicit ready_at(std::string_view version) {
        REQUIRE(server.handle(session, R"({"jsonrpc":"2.0","id":0,"method":"initialize","params":{"protocolVersion":")"s +
                                           std::string(version) + "\"}}")
                    .find(R"("protocolVersion":")"s + std::string(version) + "\"") != std::string::npos);
    }
    std::string operator()(std::string_view message) { return server.handle(session, message); }
};

} // namespace

TEST_CASE("versions: only the features of the negotiated version on the wire") {
    const std::string weather_input =
        R"({"name":"get_weather","description":"Current weather for a city.","inputSchema":{"type":"object","properties":{"city":{"type":"string","description":"City name"},"unit":{"type":"string","enum":["celsius","fahrenheit"],"description":"Temperature unit"}},"required":["city"],"additionalProperties":false})";
    const std::string weather_output =
        R"(,"outputSchema":{"type":"object","properties":{"temperature":{"type":"number"},"condition":{"type":"string"}},"required":["temperature","condition"],"additionalProperties":false})";
    const std::string hints = R"(,"annotations":{"readOnlyHint":true,"openWorldHint":true})";
    const std::string fail_hints = R"(,"annotations":{"destructiveHint":false,"idempotentHint":true})";
    const std::string fail_input =
        R"({"name":"fail","description":"Always fails","inputSchema":{"type":"object","properties":{},"additionalProperties":false})";
    const std::string paris = call("2", R"({"name":"get_weather","arguments":{"city":"Paris"}})");
    const std::string text = R"({"jsonrpc":"2.0","id":2,"result":{"content":[{"type":"text","text":"{\"temperature\":18.5,\"condition\":\"rain\"}"}],)";
    const std::string structured = R"("structuredContent":{"temperature":18.5,"condition":"rain"},)";
    const std::string list = R"({"jsonrpc":"2.0","id":1,"method":"tools/list"})";
    struct expected {
        std::string_view version;
        std::string weather;
        std::string fail;
        std::string call;
    };
    const expected cases[] = {
        {"2024-11-05", weather_input + "}", fail_input + "}", text + R"("isError":false}})"},
        {"2025-03-26", weather_input + R"(,"annotations":{"title":"Weather","readOnlyHint":true,"openWorldHint":true}})",
         fail_input + fail_hints + "}", text + R"("isError":false}})"},
        {"2025-06-18", weather_input + weather_output + R"(,"title":"Weather")" + hints + "}", fail_input + fail_hints + "}",
         text + structured + R"("isError":false}})"},
        {"2025-11-25", weather_input + weather_output + R"(,"title":"Weather")" + hints + "}", fail_input + fail_hints + "}",
         text + structured + R"("isError":false}})"},
    };
    for (const expected& e : cases) {
        CAPTURE(e.version);
        ready_at r(e.version);
        const std::string tools = r(list);
        CHECK(tools.starts_with(R"({"jsonrpc":"2.0","id":1,"result":{"tools":[)" + e.weather + ",{\"name\":\"add\""));
        CHECK(tools.find("," + e.fail + ",{\"name\":\"nothing\"") != std::string::npos);
        CHECK(tools == R"({"jsonrpc":"2.0","id":1,"result":)" + std::string(server.tools_list(e.version)) + "}");
        const bool has_output = e.version >= "2025-06-18";
        CHECK((tools.find("outputSchema") != std::string::npos) == has_output);
        CHECK((tools.find("\"annotations\"") != std::string::npos) == (e.version >= "2025-03-26"));
        CHECK(r(paris) == e.call);
    }
    // An object result cut at the cap is an ordinary cut text where no outputSchema was sent.
    const mcp::server small{mcp_test::tools.with_options({.max_result_size = 300})};
    mcp::session s;
    small.handle(s, R"({"jsonrpc":"2.0","id":0,"method":"initialize","params":{"protocolVersion":"2025-03-26"}})");
    CHECK(small.handle(s, call("3", R"({"name":"big_object","arguments":{"n":10}})"))
              .find(R"(exceeded the limit of 300 bytes]"}],"isError":false})") != std::string::npos);
    // Outside a session: the latest version's list.
    CHECK(server.tools_list() == server.tools_list("2025-11-25"));
    CHECK(server.tools_list("1999-01-01") == server.tools_list("2025-11-25"));
}

TEST_CASE("versions: serverInfo.title from 2025-06-18") {
    const mcp::server described{mcp_test::tools, {.name = "n", .version = "v", .title = "T", .instructions = "I"}};
    for (const std::string_view version : {"2024-11-05", "2025-03-26", "2025-06-18"}) {
        mcp::session s;
        const std::string title = version >= "2025-06-18" ? R"(,"title":"T")" : "";
        CHECK(described.handle(s, R"({"jsonrpc":"2.0","id":0,"method":"initialize","params":{"protocolVersion":")"s +
                                      std::string(version) + "\"}}") ==
              R"({"jsonrpc":"2.0","id":0,"result":{"protocolVersion":")"s + std::string(version) +
                  R"(","capabilities":{"tools":{"listChanged":false},"logging":{}},"serverInfo":{"name":"n","version":"v")" + title +
                  R"(},"instructions":"I"}})");
    }
}

TEST_CASE("initialize: title and instructions, twice, bad params") {
    const mcp::server described{mcp_test::tools,
                                {.name = "n", .version = "v", .title = "T \"x\"", .instructions = "Use add\nfor sums"}};
    mcp::session s;
    CHECK(described.handle(s, initialize_11_25) ==
          R"({"jsonrpc":"2.0","id":0,"result":{"protocolVersion":"2025-11-25","capabilities":{"tools":{"listChanged":false},"logging":{}},)"
          R"("serverInfo":{"name":"n","version":"v","title":"T \"x\""},"instructions":"Use add\nfor sums"}})");
    CHECK(described.handle(s, initialize_11_25) ==
          R"({"jsonrpc":"2.0","id":0,"error":{"code":-32600,"message":"Invalid Request: the session is already initialized"}})");

    mcp::session t;
    CHECK(server.handle(t, R"({"jsonrpc":"2.0","id":1,"method":"initialize","params":{}})") ==
          R"({"jsonrpc":"2.0","id":1,"error":{"code":-32602,"message":"Invalid params: /protocolVersion: missing required property"}})");
    CHECK(server.handle(t, R"({"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":5}})") ==
          R"({"jsonrpc":"2.0","id":1,"error":{"code":-32602,"message":"Invalid params: /protocolVersion: expected a string, got a number 5"}})");
    CHECK(server.handle(t, R"({"jsonrpc":"2.0","id":1,"method":"initialize","params":[]})") ==
          R"({"jsonrpc":"2.0","id":1,"error":{"code":-32602,"message":"Invalid params: expected an object, got an array []"}})");
    CHECK(!t.initialized());
}

TEST_CASE("before initialize: ping answered, tools refused, unknown methods unknown") {
    mcp::session s;
    CHECK(server.handle(s, R"({"jsonrpc":"2.0","id":7,"method":"ping"})") == R"({"jsonrpc":"2.0","id":7,"result":{}})");
    CHECK(server.handle(s, R"({"jsonrpc":"2.0","id":8,"method":"tools/list"})") ==
          R"({"jsonrpc":"2.0","id":8,"error":{"code":-32600,"message":"Invalid Request: the session is not initialized; send \"initialize\" first, or name the protocol version 2026-07-28 in the request's _meta"}})");
    CHECK(server.handle(s, R"({"jsonrpc":"2.0","id":9,"method":"resources/list"})") ==
          R"({"jsonrpc":"2.0","id":9,"error":{"code":-32601,"message":"Method not found: \"resources/list\""}})");
}

TEST_CASE("notifications and responses are never answered") {
    ready r;
    CHECK(r(R"({"jsonrpc":"2.0","method":"notifications/initialized"})").empty());
    CHECK(r(R"({"jsonrpc":"2.0","method":"notifications/unknown","params":{"x":1}})").empty());
    CHECK(r(R"({"jsonrpc":"2.0","method":"tools/call","params":{"name":"add","arguments":{"a":1,"b":2}}})").empty());
    CHECK(r(R"({"jsonrpc":"2.0","id":3,"result":{}})").empty());
    CHECK(r(R"({"jsonrpc":"2.0","error":{"code":-1,"message":"x"}})").empty());
}

TEST_CASE("tools/list: the registry's MCP definitions with annotations") {
    ready r;
    const std::string list = r(R"({"jsonrpc":"2.0","id":1,"method":"tools/list"})");
    CHECK(list.starts_with(R"({"jsonrpc":"2.0","id":1,"result":{"tools":[{"name":"get_weather","description":"Current weather for a city.","inputSchema":{)"));
    CHECK(list.find(R"("outputSchema":{"type":"object","properties":{"temperature":)") != std::string::npos);
    CHECK(list.find(R"("additionalProperties":false},"title":"Weather","annotations":{"readOnlyHint":true,"openWorldHint":true}},{"name":"add")") != std::string::npos);
    CHECK(list.find(R"({"name":"fail","description":"Always fails","inputSchema":{"type":"object","properties":{},"additionalProperties":false},"annotations":{"destructiveHint":false,"idempotentHint":true}})") != std::string::npos);
    const std::string prefix = R"({"jsonrpc":"2.0","id":1,"result":)";
    CHECK(prefix + std::string(server.tools_list()) + "}" == list);
    CHECK(r(R"({"jsonrpc":"2.0","id":1,"method":"tools/list","params":{"_meta":{"progressToken":1}}})") == list);
    CHECK(r(R"({"jsonrpc":"2.0","id":2,"method":"tools/list","params":{"cursor":"x"}})") ==
          R"({"jsonrpc":"2.0","id":2,"error":{"code":-32602,"message":"Invalid params: /cursor: unknown cursor"}})");
}

TEST_CASE("tools/list entries are the registry's own, one per tool") {
    const std::string_view all = mcp_test::tools.definitions<agentry::dialect::mcp>();
    const mcp::server plain{mcp_test::tools};
    CHECK(plain.tools_list() == "{\"tools\":" + std::string(all) + "}");
}

TEST_CASE("tools/call: object results as structuredContent and text") {
    ready r;
    CHECK(r(call("1", R"({"name":"get_weather","arguments":{"city":"Paris"}})")) ==
          R"({"jsonrpc":"2.0","id":1,"result":{"content":[{"type":"text","text":"{\"temperature\":18.5,\"condition\":\"rain\"}"}],)"
          R"("structuredContent":{"temperature":18.5,"condition":"rain"},"isError":false}})");
    CHECK(r(call("2", R"({"name":"add","arguments":{"a":2,"b":3},"_meta":{"progressToken":"p"}})")) ==
          R"({"jsonrpc":"2.0","id":2,"result":{"content":[{"type":"text","text":"5"}],"isError":false}})");
    CHECK(r(call("3", R"({"name":"greet","arguments":{"name":"Zoë"}})")) ==
          R"({"jsonrpc":"2.0","id":3,"result":{"content":[{"type":"text","text":"Hello, Zoë\n"}],"isError":false}})");
    CHECK(r(call("4", R"({"name":"nothing"})")) ==
          R"({"jsonrpc":"2.0","id":4,"result":{"content":[{"type":"text","text":"null"}],"isError":false}})");
}

TEST_CASE("tools/call: invalid arguments are tool errors with the precise message") {
    ready r;
    CHECK(r(call("1", R"({"name":"get_weather","arguments":{"city":"Paris","unit":"kelvin"}})")) ==
          R"({"jsonrpc":"2.0","id":1,"result":{"content":[{"type":"text","text":"get_weather: invalid arguments: /unit: \"kelvin\" is not one of [\"celsius\",\"fahrenheit\"]. Fix the arguments and call get_weather again."}],"isError":true}})");
    // Missing arguments mean {}.
    CHECK(r(call("2", R"({"name":"get_weather"})")) ==
          R"({"jsonrpc":"2.0","id":2,"result":{"content":[{"type":"text","text":"get_weather: invalid arguments: /city: missing required property. Fix the arguments and call get_weather again."}],"isError":true}})");
    CHECK(r(call("3", R"({"name":"add","arguments":[1,2]})")) ==
          R"({"jsonrpc":"2.0","id":3,"result":{"content":[{"type":"text","text":"add: invalid arguments: expected an object, got an array [1,2]. Fix the arguments and call add again."}],"isError":true}})");
    CHECK(r(call("4", R"({"name":"fail"})")) ==
          R"({"jsonrpc":"2.0","id":4,"result":{"content":[{"type":"text","text":"fail failed: disk on fire"}],"isError":true}})");
}

TEST_CASE("tools/call: unknown tools and malformed params are protocol errors") {
    ready r;
    CHECK(r(call("1", R"({"name":"get_wether","arguments":{}})")) ==
          R"({"jsonrpc":"2.0","id":1,"error":{"code":-32602,"message":"unknown tool \"get_wether\" (did you mean \"get_weather\"?). Available tools: get_weather, add, greet, fail, nothing, big, big_object."}})");
    CHECK(r(call("2", R"({"arguments":{}})")) ==
          R"({"jsonrpc":"2.0","id":2,"error":{"code":-32602,"message":"Invalid params: /name: missing required property"}})");
    CHECK(r(R"({"jsonrpc":"2.0","id":3,"method":"tools/call"})") ==
          R"({"jsonrpc":"2.0","id":3,"error":{"code":-32602,"message":"Invalid params: /name: missing required property"}})");
    CHECK(r(call("4", R"({"name":"add","name":"add"})")) ==
          R"({"jsonrpc":"2.0","id":4,"error":{"code":-32600,"message":"Invalid Request: /params/name: duplicate property"}})");
}

TEST_CASE("tools/call: a result cut at the cap") {
    const mcp::server small{mcp_test::tools.with_options({.max_result_size = 300})};
    mcp::session s;
    small.handle(s, initialize_11_25);
    const std::string list = small.handle(s, call("1", R"({"name":"big","arguments":{"n":10}})"));
    CHECK(list.find(R"(exceeded the limit of 300 bytes]"}],"isError":false})") != std::string::npos);
    // An object cut short cannot match its outputSchema: text only, as an error.
    const std::string object = small.handle(s, call("2", R"({"name":"big_object","arguments":{"n":10}})"));
    CHECK(object.find("structuredContent") == std::string::npos);
    CHECK(object.find(R"(exceeded the limit of 300 bytes]"}],"isError":true})") != std::string::npos);
    const std::string fits = small.handle(s, call("3", R"({"name":"big_object","arguments":{"n":1}})"));
    CHECK(fits.find(R"("structuredContent":{"k0":"xxx)") != std::string::npos);
}

TEST_CASE("malformed messages") {
    ready r;
    CHECK(r("garbage") == R"({"jsonrpc":"2.0","error":{"code":-32700,"message":"Parse error: invalid JSON at byte 0: unexpected character"}})");
    CHECK(r(R"({"jsonrpc":"2.0","id":5,"method":)") ==
          R"({"jsonrpc":"2.0","id":5,"error":{"code":-32700,"message":"Parse error: invalid JSON at byte 33: unexpected end of input"}})");
    CHECK(r(R"({"jsonrpc":"2.0","id":1,"method":"ping"} x)") ==
          R"({"jsonrpc":"2.0","id":1,"error":{"code":-32700,"message":"Parse error: invalid JSON at byte 41: unexpected content after the value"}})");
    CHECK(r(R"([{"jsonrpc":"2.0","id":1,"method":"ping"}])") ==
          R"({"jsonrpc":"2.0","error":{"code":-32600,"message":"Invalid Request: JSON-RPC batches are only served in a 2025-03-26 session; send one message at a time"}})");
    CHECK(r("42") == R"({"jsonrpc":"2.0","error":{"code":-32600,"message":"Invalid Request: expected an object, got a number 42"}})");
    CHECK(r(R"({"jsonrpc":"1.0","id":1,"method":"ping"})") ==
          R"({"jsonrpc":"2.0","id":1,"error":{"code":-32600,"message":"Invalid Request: \"jsonrpc\" must be \"2.0\""}})");
    CHECK(r(R"({"id":1,"method":"ping"})") ==
          R"({"jsonrpc":"2.0","id":1,"error":{"code":-32600,"message":"Invalid Request: \"jsonrpc\" must be \"2.0\""}})");
    CHECK(r(R"({"jsonrpc":"2.0","id":null,"method":"ping"})") ==
          R"({"jsonrpc":"2.0","error":{"code":-32600,"message":"Invalid Request: \"id\" must be a string or an integer"}})");
    CHECK(r(R"({"jsonrpc":"2.0","id":1.5,"method":"ping"})") ==
          R"({"jsonrpc":"2.0","error":{"code":-32600,"message":"Invalid Request: \"id\" must be a string or an integer"}})");
    CHECK(r(R"({"jsonrpc":"2.0","id":"x","method":"ping","extra":1})") ==
          R"({"jsonrpc":"2.0","id":"x","error":{"code":-32600,"message":"Invalid Request: /extra: unknown property; allowed: jsonrpc, id, method, params, result, error"}})");
    CHECK(r(R"({"jsonrpc":"2.0","id":2})") ==
          R"({"jsonrpc":"2.0","id":2,"error":{"code":-32600,"message":"Invalid Request: a message needs a \"method\""}})");
    CHECK(r(R"({"jsonrpc":"2.0","id":2,"method":"ping","result":{}})") ==
          R"({"jsonrpc":"2.0","id":2,"error":{"code":-32600,"message":"Invalid Request: a request has no \"result\" or \"error\""}})");
    CHECK(r("\xff") == R"({"jsonrpc":"2.0","error":{"code":-32700,"message":"Parse error: invalid JSON at byte 0: unexpected character"}})");
}

TEST_CASE("deep nesting and size") {
    ready r;
    const std::string deep = R"({"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"add","arguments":{"a":)" +
                             std::string(100000, '[') + std::string(100000, ']') + "}}}";
    CHECK(r(deep) ==
          R"({"jsonrpc":"2.0","id":1,"error":{"code":-32600,"message":"Invalid Request: /params: nesting deeper than 128 levels"}})");
    const std::string array = std::string(100000, '[') + std::string(100000, ']');
    CHECK(r(array).starts_with(R"({"jsonrpc":"2.0","error":{"code":-32600,"message":"Invalid Request: JSON-RPC batches)"));
    // Deep, but within the envelope's limit: the tool's reader refuses it, as a tool error.
    const std::string nested = call("2", R"({"name":"add","arguments":{"a":)" + std::string(100, '[') +
                                             std::string(100, ']') + R"(,"b":1}})");
    CHECK(r(nested) ==
          R"({"jsonrpc":"2.0","id":2,"result":{"content":[{"type":"text","text":"add: invalid arguments: /a: expected an integer, got an array [[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[...; /a: nesting deeper than 64 levels. Fix the arguments and call add again."}],"isError":true}})");
    const std::string long_message = call("3", R"({"name":"greet","arguments":{"name":")" + std::string(100, 'x') + "\"}}");
    mcp::session s;
    CHECK(server.handle(s, long_message, 50) ==
          R"({"jsonrpc":"2.0","error":{"code":-32600,"message":"Invalid Request: the message is 196 bytes long, more than the limit of 50"}})");
}

TEST_CASE("notifications/cancelled: a waiting request is dropped, a running one not answered") {
    ready r;
    r.session.expect("41");
    CHECK(r(R"({"jsonrpc":"2.0","method":"notifications/cancelled","params":{"requestId":41,"reason":"user"}})").empty());
    CHECK(r(call("41", R"({"name":"add","arguments":{"a":1,"b":2}})")).empty());
    CHECK(r.session.pending() == 0);
    // A cancellation for a request not in progress is ignored; the id can be answered later.
    CHECK(r(R"({"jsonrpc":"2.0","method":"notifications/cancelled","params":{"requestId":"z"}})").empty());
    CHECK(!r(call("\"z\"", R"({"name":"add","arguments":{"a":1,"b":2}})")).empty());
    CHECK(r(R"({"jsonrpc":"2.0","method":"notifications/cancelled","params":{"requestId":[1]}})").empty());
    CHECK(r(R"({"jsonrpc":"2.0","method":"notifications/cancelled"})").empty());
}

TEST_CASE("notifications/cancelled during the call") {
    mcp::session s;
    const mcp::server srv{hooked};
    srv.handle(s, initialize_11_25);
    during_call = [&] {
        CHECK(srv.handle(s, R"({"jsonrpc":"2.0","method":"notifications/cancelled","params":{"requestId":"c"}})").empty());
    };
    CHECK(srv.handle(s, R"({"jsonrpc":"2.0","id":"c","method":"tools/call","params":{"name":"slow"}})").empty());
    CHECK(s.pending() == 0);
    during_call = nullptr;
    CHECK(srv.handle(s, R"({"jsonrpc":"2.0","id":"c","method":"tools/call","params":{"name":"slow"}})") ==
          R"({"jsonrpc":"2.0","id":"c","result":{"content":[{"type":"text","text":"1"}],"isError":false}})");
}

TEST_CASE("tools/list in dialect::with_natural_bounds<dialect::mcp> states the range of every number") {
    using natural = agentry::dialect::with_natural_bounds<agentry::dialect::mcp>;
    constexpr agentry::registry numbers{
        agentry::tool<"scale", "Scales a value.", "value", "factor">(+[](int value, double factor) { return value * factor; })};
    const mcp::server<decltype(numbers), natural> exact{numbers};
    const mcp::server plain{numbers};
    CHECK(exact.tools_list() ==
          R"({"tools":[{"name":"scale","description":"Scales a value.","inputSchema":{"type":"object","properties":{)"
          R"("value":{"type":"integer","minimum":-2147483648,"maximum":2147483647},)"
          R"("factor":{"type":"number","minimum":-1.7976931348623157e308,"maximum":1.7976931348623157e308}},)"
          R"("required":["value","factor"],"additionalProperties":false}}]})");
    CHECK(plain.tools_list() ==
          R"({"tools":[{"name":"scale","description":"Scales a value.","inputSchema":{"type":"object","properties":{)"
          R"("value":{"type":"integer"},"factor":{"type":"number"}},)"
          R"("required":["value","factor"],"additionalProperties":false}}]})");
}
