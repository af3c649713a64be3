// SPDX-License-Identifier: BSL-1.0
// openapi::toolset: $refs, cycles, names, parameters, requests, security, policies and errors,
// with a transport that records the requests.
#include "petstore.hpp"

#include <doctest/doctest.h>

#include <cstdio>
#include <string>
#include <vector>

namespace {

namespace openapi = agentry::openapi;
using agentry_test::petstore;
using agentry_test::recording_transport;

template <class D>
agentry::dynamic_tools_target target_of(std::function<bool(std::string_view)> taken = {}) {
    agentry::dynamic_tools_target t;
    t.kind = D::kind;
    t.rules = D::rules;
    t.taken = std::move(taken);
    return t;
}

struct loaded {
    std::vector<agentry::http_request> sent;
    std::vector<std::string> reports;
    std::vector<agentry::dynamic_tool> tools;

    const agentry::dynamic_tool& tool(std::string_view name) const {
        for (const auto& t : tools)
            if (t.name == name) return t;
        FAIL("no tool ", name);
        return tools.front();
    }
};

void load(loaded& l, openapi::toolset_options o = {}, agentry::transport_result reply = {{200, {}, R"({"ok":true})"}, {}},
          std::function<bool(std::string_view)> taken = {}) {
    o.report = [&l](std::string_view m) { l.reports.emplace_back(m); };
    auto api = openapi::toolset::load(petstore, recording_transport{&l.sent, std::move(reply)}, std::move(o));
    REQUIRE(api);
    auto tools = agentry::dynamic_tool_source(*api)(target_of<agentry::dialect::standard>(std::move(taken)));
    REQUIRE(tools);
    l.tools = std::move(*tools);
}

std::string names_of(const std::vector<agentry::dynamic_tool>& tools) {
    std::string out;
    for (const auto& t : tools) out += (out.empty() ? "" : " ") + t.name;
    return out;
}

} // namespace

TEST_CASE("openapi: one tool per operation, names sanitised and made unique, the rest reported") {
    loaded l;
    load(l);
    CHECK(names_of(l.tools) == "listPets createPet get_pets_petId listPets_2 escaped");
    CHECK(l.reports == std::vector<std::string>{
        R"(agentry: openapi::toolset: operation POST /nodes ("add_node"): its $refs form a cycle: #/components/schemas/Node -> #/components/schemas/Node; the operation was left out)",
        R"(agentry: openapi::toolset: operation PUT /graph ("graph"): its $refs form a cycle: #/components/schemas/A -> #/components/schemas/B -> #/components/schemas/A; the operation was left out)",
        R"(agentry: openapi::toolset: operation GET /ext ("ext"): the $ref "other.json#/components/parameters/x" is not a local reference ("#/..."); external references are not supported; the operation was left out)",
        R"(agentry: openapi::toolset: operation GET /dangling ("dangling"): the $ref "#/components/parameters/nothing" names nothing in the document; the operation was left out)",
        R"(agentry: openapi::toolset: operation POST /upload ("upload"): its request body has no JSON media type (only "image/png"); the operation was left out)"});
}

TEST_CASE("openapi: definitions carry the summary, description, merged parameters and the body") {
    loaded l;
    load(l);
    // The operation's "limit" (a $ref) replaces the path item's; the path item's header stays.
    CHECK(l.tool("listPets").definition ==
          R"({"name":"listPets","description":"List pets\n\nLists the pets in the store.","parameters":{"type":"object",)"
          R"("properties":{"X-Trace":{"type":"string"},"limit":{"type":"integer","maximum":100,"description":"How many at most"},)"
          R"("tags":{"type":"array","items":{"type":"string"}}}}})");
    // A $ref's siblings (3.1) are kept: the tag's own description gives way to the property's.
    CHECK(l.tool("createPet").definition ==
          R"({"name":"createPet","description":"Create a pet","parameters":{"type":"object","properties":{)"
          R"("limit":{"type":"string"},"X-Trace":{"type":"string"},"body":{"type":"object","properties":{"name":{"type":"string"},)"
          R"("tag":{"type":"string","description":"The pet's tag"}},"required":["name"],"description":"The new pet"}},"required":["body"]}})");
    CHECK(l.tool("get_pets_petId").definition ==
          R"({"name":"get_pets_petId","description":"Show a pet","parameters":{"type":"object","properties":{)"
          R"("petId":{"type":"string"}},"required":["petId"]}})");
    // ~0 and ~1 in a pointer.
    CHECK(l.tool("escaped").definition ==
          R"({"name":"escaped","description":"GET /escaped","parameters":{"type":"object","properties":{)"
          R"("n":{"type":"integer","minimum":1}}}})");
}

TEST_CASE("openapi: categories from the first tag, names from operations()") {
    auto api = openapi::toolset::load(petstore, recording_transport{nullptr, {}}, {});
    REQUIRE(api);
    CHECK(api->size() == 10);
    CHECK(api->category_of("listPets") == "pets");
    CHECK(api->category_of("createPet") == "pets");
    CHECK(api->category_of("Pet_Store_createPet") == "pets");
    CHECK(api->category_of("get_pets_petId").empty());
    CHECK(api->category_of("nothing").empty());
    const std::vector<openapi::operation_info> ops = api->operations();
    CHECK(ops[3].method == "DELETE");
    CHECK(ops[3].path == "/pets/{petId}");
    CHECK(ops[3].operation_id == "listPets");
    CHECK(ops[3].name == "listPets_2");
}

TEST_CASE("openapi: tool names") {
    CHECK(openapi::detail::tool_name_of("get pets/{id}", false) == "get_pets__id_");
    CHECK(openapi::detail::tool_name_of("get_/pets/{id}", true) == "get_pets_id");
    CHECK(openapi::detail::tool_name_of("9lives", false) == "_9lives");
    CHECK(openapi::detail::tool_name_of(std::string(70, 'a'), false) == std::string(64, 'a'));
    std::set<std::string, std::less<>> used;
    CHECK(openapi::detail::unique_name(std::string(64, 'b'), used) == std::string(64, 'b'));
    CHECK(openapi::detail::unique_name(std::string(64, 'b'), used) == std::string(62, 'b') + "_2");
    CHECK(openapi::detail::unique_name(std::string(64, 'b'), used) == std::string(62, 'b') + "_3");
}

TEST_CASE("openapi: a name the agent has gets the prefix") {
    loaded l;
    load(l, {}, {{200, {}, "{}"}, {}}, [](std::string_view n) { return n == "listPets" || n == "Pet_Store_escaped" || n == "escaped"; });
    CHECK(names_of(l.tools) == "Pet_Store_listPets createPet get_pets_petId listPets_2");
    CHECK(l.reports.at(4) ==
          R"(agentry: openapi::toolset: operation GET /escaped ("escaped"): its name is taken even with the prefix "Pet_Store_"; the operation was left out)");
}

TEST_CASE("openapi: GET with query, exploded array, header and API key, the URL from the server's variables") {
    loaded l;
    openapi::toolset_options o;
    o.credentials["key"] = "k-123";
    load(l, o);
    const agentry::tool_result r =
        l.tool("listPets").call(R"({"limit":5,"tags":["a b","c&d"],"X-Trace":"t1"})", agentry::call_scope{});
    CHECK(r.status == agentry::tool_status::ok);
    CHECK(r.content == R"({"ok":true})");
    REQUIRE(l.sent.size() == 1);
    const agentry::http_request& q = l.sent[0];
    CHECK(q.method == "GET");
    CHECK(q.url == "http://127.0.0.1:8080/v1/pets?limit=5&tags=a%20b&tags=c%26d");
    CHECK(q.body.empty());
    CHECK(agentry::find_header(q.headers, "X-Trace") == "t1");
    CHECK(agentry::find_header(q.headers, "X-API-Key") == "k-123");
    CHECK(agentry::find_header(q.headers, "Accept") == "application/json");
    CHECK(agentry::find_header(q.headers, "Content-Type").empty());
}

TEST_CASE("openapi: POST with a JSON body and a bearer token, path parameters encoded, query and cookie keys") {
    loaded l;
    openapi::toolset_options o;
    o.credentials["token"] = "t-9";
    o.credentials["qkey"] = "q 1";
    o.credentials["ckey"] = "c1";
    o.server_variables["port"] = "9";
    load(l, o, {{201, {}, ""}, {}});
    agentry::tool_result r = l.tool("createPet").call(R"({"body":{"name":"Rex","tag":"dog"}})", {});
    CHECK(r.status == agentry::tool_status::ok);
    CHECK(r.content == "HTTP 201 (no content)");
    r = l.tool("listPets_2").call(R"({"petId":"a/b c"})", {});
    CHECK(r.status == agentry::tool_status::ok);
    REQUIRE(l.sent.size() == 2);
    CHECK(l.sent[0].method == "POST");
    CHECK(l.sent[0].url == "http://127.0.0.1:9/v1/pets");
    CHECK(l.sent[0].body == R"({"name":"Rex","tag":"dog"})");
    CHECK(agentry::find_header(l.sent[0].headers, "Authorization") == "Bearer t-9");
    CHECK(agentry::find_header(l.sent[0].headers, "Content-Type") == "application/json");
    CHECK(agentry::find_header(l.sent[0].headers, "X-API-Key").empty());
    CHECK(l.sent[1].method == "DELETE");
    CHECK(l.sent[1].url == "http://127.0.0.1:9/v1/pets/a%2Fb%20c?api_key=q%201");
    CHECK(agentry::find_header(l.sent[1].headers, "Cookie") == "session=c1");
}

TEST_CASE("openapi: arguments checked before any request, missing credentials, unsupported schemes") {
    loaded l;
    load(l);
    agentry::tool_result r = l.tool("createPet").call(R"({"body":{"tag":"dog"}})", {});
    CHECK(r.status == agentry::tool_status::invalid_arguments);
    CHECK(r.content == "createPet: invalid arguments: /body/name: missing required property. Fix the arguments and call createPet again.");
    r = l.tool("listPets").call(R"({"limit":500})", {});
    CHECK(r.content == "listPets: invalid arguments: /limit: must be at most 100. Fix the arguments and call listPets again.");
    r = l.tool("listPets").call("[1]", {});
    CHECK(r.content == "listPets: invalid arguments: not a JSON object. Send a JSON object and call listPets again.");
    r = l.tool("createPet").call(R"({"body":{"name":"Rex"}})", {});
    CHECK(r.status == agentry::tool_status::tool_error);
    CHECK(r.content == "agentry: openapi: createPet needs credentials of the security scheme \"token\" (apiKey or http bearer); give them in toolset_options::credentials");
    r = l.tool("escaped").call(R"({"n":2})", {});
    CHECK(r.content == "agentry: openapi: escaped needs credentials of the security scheme \"basic\" (apiKey or http bearer); give them in toolset_options::credentials");
    // security: [] needs none.
    r = l.tool("get_pets_petId").call(R"({"petId":"7"})", {});
    CHECK(r.status == agentry::tool_status::ok);
    CHECK(l.sent.size() == 1);
    CHECK(l.sent[0].headers.size() == 1);
}

TEST_CASE("openapi: no credential over plain http to a host that is not loopback") {
    loaded l;
    openapi::toolset_options o;
    o.server_url = "http://pets.example.com/v1";
    o.credentials["key"] = "k";
    load(l, o);
    agentry::tool_result r = l.tool("listPets").call("{}", {});
    CHECK(r.status == agentry::tool_status::tool_error);
    CHECK(r.content == "agentry: openapi: listPets: refused to send a credential over plain http:// to \"pets.example.com\", which is not a loopback host; use an https:// server (toolset_options::server_url)");
    CHECK(l.sent.empty());
    // Without a credential, plain http is fine.
    r = l.tool("get_pets_petId").call(R"({"petId":"1"})", {});
    CHECK(r.status == agentry::tool_status::ok);
    CHECK(l.sent.at(0).url == "http://pets.example.com/v1/pets/1");
}

TEST_CASE("openapi: responses: non-2xx with an excerpt, transport failures, the size bound") {
    openapi::toolset_options o;
    o.credentials["key"] = "k";
    o.max_error_excerpt = 10;
    loaded missing;
    load(missing, o, {{404, {}, "no such pet, sorry"}, {}});
    agentry::tool_result r = missing.tool("listPets").call("{}", {});
    CHECK(r.status == agentry::tool_status::tool_error);
    CHECK(r.content == "listPets failed: HTTP 404: no such pe...");
    CHECK(r.failure == agentry::failure_kind::not_found);
    loaded down;
    load(down, o, {{}, {agentry::transport_error_kind::connect, "connection refused"}});
    r = down.tool("listPets").call("{}", {});
    CHECK(r.content == "listPets failed: connection refused");
    CHECK(r.failure == agentry::failure_kind::transient);
    loaded big;
    o.max_response = 100;
    load(big, o, {{}, {agentry::transport_error_kind::too_large, "too large"}});
    r = big.tool("listPets").call("{}", {});
    CHECK(r.content == "listPets failed: the response is larger than 100 bytes (toolset_options::max_response)");
    CHECK(big.sent.at(0).max_body == 100);
}

TEST_CASE("openapi: policies by method, by option, per operation") {
    loaded l;
    load(l);
    CHECK(l.tool("listPets").policy->level == agentry::permission::read_only);
    CHECK(l.tool("listPets").policy->idempotent);
    CHECK_FALSE(l.tool("listPets").policy->needs_approval);
    CHECK(l.tool("createPet").policy->level == agentry::permission::destructive);
    CHECK(l.tool("createPet").policy->needs_approval);
    CHECK_FALSE(l.tool("createPet").policy->idempotent);
    openapi::toolset_options o;
    o.method_policies["DELETE"] = agentry::tool_policy{.level = agentry::permission::write, .needs_approval = false};
    o.policy_for = [](const openapi::operation_info& op) -> std::optional<agentry::tool_policy> {
        if (op.operation_id == "createPet") {
            agentry::tool_policy p;
            p.level = agentry::permission::write;
            return p;
        }
        return std::nullopt;
    };
    loaded c;
    load(c, o);
    CHECK(c.tool("listPets_2").policy->level == agentry::permission::write);
    CHECK_FALSE(c.tool("listPets_2").policy->needs_approval);
    CHECK(c.tool("createPet").policy->level == agentry::permission::write);
    CHECK_FALSE(c.tool("createPet").policy->needs_approval);
}

TEST_CASE("openapi: refuse instead of leave out, and a schema the dialect cannot express") {
    openapi::toolset_options o;
    o.unsupported = openapi::unsupported_schema::refuse;
    auto api = openapi::toolset::load(petstore, recording_transport{nullptr, {}}, o);
    REQUIRE(api);
    auto tools = agentry::dynamic_tool_source(*api)(target_of<agentry::dialect::standard>());
    REQUIRE_FALSE(tools);
    CHECK(tools.error().message ==
          R"(agentry: openapi::toolset: operation POST /nodes ("add_node"): its $refs form a cycle: #/components/schemas/Node -> #/components/schemas/Node; the tools were refused (toolset_options::unsupported is refuse; leave_out drops such an operation instead))");
    constexpr std::string_view doc = R"({"openapi":"3.0.3","servers":[{"url":"https://api.test"}],"paths":{"/m":{"get":{
        "operationId":"m","parameters":[{"name":"q","in":"query","schema":{"type":"object","additionalProperties":{"type":"string"}}},
        {"name":"n","in":"query","schema":{"type":"integer","nullable":true,"minimum":0,"exclusiveMinimum":true}}]}}}})";
    std::vector<std::string> reports;
    openapi::toolset_options r;
    r.report = [&](std::string_view m) { reports.emplace_back(m); };
    auto gemini = openapi::toolset::load(doc, recording_transport{nullptr, {}}, r);
    REQUIRE(gemini);
    auto none = agentry::dynamic_tool_source(*gemini)(target_of<agentry::dialect::openai_strict>());
    REQUIRE(none);
    CHECK(none->empty());
    CHECK(reports == std::vector<std::string>{
        R"(agentry: openapi::toolset: operation GET /m ("m"): its arguments' schema at "/properties/q": "additionalProperties" with a schema (a map), which the openai_strict dialect cannot express; the operation was left out)"});
    auto standard = agentry::dynamic_tool_source(*gemini)(target_of<agentry::dialect::standard>());
    REQUIRE(standard);
    // 3.0's nullable and boolean exclusiveMinimum as 2020-12.
    CHECK(standard->at(0).definition ==
          R"({"name":"m","description":"GET /m","parameters":{"type":"object","properties":{"q":{"type":"object",)"
          R"("additionalProperties":{"type":"string"}},"n":{"type":["integer","null"],"exclusiveMinimum":0}}}})");
}

TEST_CASE("openapi: documents refused by load") {
    recording_transport t{nullptr, {}};
    auto r = openapi::toolset::load("openapi: 3.1.0", t);
    REQUIRE_FALSE(r);
    CHECK(r.error().message.starts_with("agentry: openapi::toolset::load: the document is not a JSON object: "));
    CHECK(r.error().message.ends_with(" (YAML is not read; convert it to JSON)"));
    r = openapi::toolset::load(R"({"swagger":"2.0"})", t);
    CHECK(r.error().message == R"(agentry: openapi::toolset::load: the document's "openapi" is ""; only OpenAPI 3.0 and 3.1 are read)");
    r = openapi::toolset::load(R"({"openapi":"3.1.0","servers":[{"url":"/v1"}]})", t);
    CHECK(r.error().message == R"(agentry: openapi::toolset::load: the server URL "/v1" is not absolute; give one in toolset_options::server_url)");
    r = openapi::toolset::load(R"({"openapi":"3.1.0","servers":[{"url":"https://{region}.api.test"}]})", t);
    CHECK(r.error().message == R"(agentry: openapi::toolset::load: the server variable "region" has no default; give it in toolset_options::server_variables)");
    openapi::toolset_options o;
    o.server_variables["region"] = "eu";
    CHECK(openapi::toolset::load(R"({"openapi":"3.1.0","servers":[{"url":"https://{region}.api.test"}]})", t, o));
}

TEST_CASE("openapi: inlining is bounded in depth and size") {
    // Each level names the one below twice: 2^20 copies without the bound.
    std::string doc = R"({"openapi":"3.1.0","servers":[{"url":"https://api.test"}],"components":{"schemas":{"s0":{"type":"string"})";
    for (int i = 1; i <= 20; ++i)
        doc += ",\"s" + std::to_string(i) + R"(":{"type":"object","properties":{"a":{"$ref":"#/components/schemas/s)" +
               std::to_string(i - 1) + R"("},"b":{"$ref":"#/components/schemas/s)" + std::to_string(i - 1) + "\"}}}";
    doc += R"(}},"paths":{"/x":{"post":{"operationId":"x","requestBody":{"content":{"application/json":{"schema":{"$ref":"#/components/schemas/s20"}}}}}}}})";
    std::vector<std::string> reports;
    openapi::toolset_options o;
    o.report = [&](std::string_view m) { reports.emplace_back(m); };
    auto api = openapi::toolset::load(doc, recording_transport{nullptr, {}}, o);
    REQUIRE(api);
    auto tools = agentry::dynamic_tool_source(*api)(target_of<agentry::dialect::standard>());
    REQUIRE(tools);
    CHECK(tools->empty());
    o.max_schema_depth = 1000;
    auto wide = openapi::toolset::load(doc, recording_transport{nullptr, {}}, o);
    REQUIRE(wide);
    REQUIRE(agentry::dynamic_tool_source(*wide)(target_of<agentry::dialect::standard>()));
    CHECK(reports == std::vector<std::string>{
        R"(agentry: openapi::toolset: operation POST /x ("x"): its schema, with the $refs inlined, is nested deeper than 64 levels (toolset_options::max_schema_depth); the operation was left out)",
        R"(agentry: openapi::toolset: operation POST /x ("x"): its schema, with the $refs inlined, is larger than 20000 nodes (toolset_options::max_schema_nodes); the operation was left out)"});
}
