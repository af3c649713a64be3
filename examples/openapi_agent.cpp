// SPDX-License-Identifier: BSL-1.0
// An agent whose tools come from an OpenAPI document: a small pet store's two operations. The
// model is scripted and the HTTP service is a function in this program (a transport of our
// own), so that the example runs without a network: the model lists the pets (a GET: it runs
// at once), then adds one (a POST: the run stops until a person approves it).
#include <agentry/agent.hpp>
#include <agentry/openapi/toolset.hpp>
#include <agentry/provider/scripted.hpp>

#include <cstdio>
#include <string>
#include <string_view>
#include <vector>

constexpr std::string_view document = R"({
  "openapi": "3.1.0",
  "info": {"title": "Pet Store", "version": "1"},
  "servers": [{"url": "https://pets.example.com/v1"}],
  "components": {
    "securitySchemes": {"key": {"type": "apiKey", "in": "header", "name": "X-API-Key"}},
    "schemas": {"Pet": {"type": "object", "required": ["name"],
                        "properties": {"name": {"type": "string"}, "tag": {"type": "string"}}}}},
  "security": [{"key": []}],
  "paths": {"/pets": {
    "get": {"operationId": "listPets", "summary": "List the pets", "tags": ["pets"],
            "parameters": [{"name": "limit", "in": "query", "description": "How many at most",
                            "schema": {"type": "integer", "maximum": 100}}]},
    "post": {"operationId": "createPet", "summary": "Add a pet", "tags": ["pets"],
             "requestBody": {"required": true,
                             "content": {"application/json": {"schema": {"$ref": "#/components/schemas/Pet"}}}}}}}
})";

// The service: what an HTTP server at pets.example.com would answer.
struct pet_service {
    agentry::transport_result send(const agentry::http_request& r) {
        std::printf("%s %s key=%.*s %s\n", r.method.c_str(), r.url.c_str(),
                    int(agentry::find_header(r.headers, "X-API-Key").size()),
                    agentry::find_header(r.headers, "X-API-Key").data(), r.body.c_str());
        if (r.method == "GET") return {{200, {}, R"([{"name":"Tom","tag":"cat"}])"}, {}};
        return {{201, {}, R"({"id":2,"name":"Rex"})"}, {}};
    }
    agentry::transport_result stream(const agentry::http_request& r, agentry::stream_handlers&) { return send(r); }
};

agentry::completion model_turn(const agentry::chat_request& r) {
    std::size_t results = 0;
    for (const agentry::message& m : r.messages) results += m.role == agentry::role::tool;
    if (results == 0) return agentry::scripted_model::call("listPets", R"({"limit":10})");
    if (results == 1) return agentry::scripted_model::call("createPet", R"({"body":{"name":"Rex","tag":"dog"}})");
    return agentry::scripted_model::answer("You have Tom the cat; I added Rex the dog.");
}

constexpr agentry::loop_config config{.max_turns = 6};

int main() {
    agentry::openapi::toolset_options options;
    options.credentials["key"] = "secret-key";  // by security scheme name
    auto api = agentry::openapi::toolset::load(document, pet_service{}, options);
    if (!api) {
        std::fprintf(stderr, "%s\n", api.error().message.c_str());
        return 1;
    }
    agentry::agent<config> agent{agentry::scripted_model{model_turn}, agentry::registry{}, {},
                                 agentry::scripted_transport{}};
    if (auto added = agent.add_tools(*api); !added) {
        std::fprintf(stderr, "%s\n", added.error().message.c_str());
        return 1;
    }
    std::printf("category of createPet: %.*s\n", int(api->category_of("createPet").size()),
                api->category_of("createPet").data());

    agentry::run_result result = agent.run("Which pets do I have? Add Rex the dog.");
    // createPet is a POST: destructive, so it waits for a decision.
    for (const agentry::pending_call& call : result.pending)
        std::printf("approve %s %s? yes\n", call.tool.c_str(), call.arguments.c_str());
    std::vector<agentry::approval_decision> decisions;
    for (const agentry::pending_call& call : agent.pending_approvals())
        decisions.push_back(agentry::decide(call, agentry::approval::approve()));
    result = agent.run(agentry::approvals{decisions});

    std::printf("answer: %s\n", result.text.c_str());
    return result.stop == agentry::stop_reason::completed ? 0 : 1;
}
