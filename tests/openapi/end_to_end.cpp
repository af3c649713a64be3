// SPDX-License-Identifier: BSL-1.0
// An agent with the scripted model and the pet store's tools, served on 127.0.0.1 and called
// over the libcurl transport: listPets runs at once (the server checks the API key and the
// query); createPet, a POST, stops the run for approval, then runs once approved (the server
// checks the bearer token and the JSON body).
#include "pet_server.hpp"
#include "petstore.hpp"

#include <agentry/agent.hpp>
#include <agentry/provider/scripted.hpp>
#include <agentry/transport/curl.hpp>

#include <doctest/doctest.h>

#include <string>
#include <vector>

namespace {

agentry_test::served_reply pet_store(const agentry_test::served_request& r) {
    const std::string line = r.request_line();
    if (line == "GET /v1/pets?limit=2&tags=cat&tags=small%20dog HTTP/1.1") {
        if (r.header("X-API-Key") != "k-123") return {401, R"({"error":"bad key"})"};
        return {200, R"([{"name":"Tom"},{"name":"Rex"}])"};
    }
    if (line == "POST /v1/pets HTTP/1.1") {
        if (r.header("Authorization") != "Bearer t-9") return {401, R"({"error":"bad token"})"};
        if (r.header("Content-Type") != "application/json" || r.body != R"({"name":"Kit","tag":"cat"})")
            return {400, R"({"error":"bad body"})"};
        return {201, R"({"id":3,"name":"Kit"})"};
    }
    return {404, R"({"error":"no route"})"};
}

agentry::completion script(const agentry::chat_request& r) {
    std::size_t results = 0;
    for (const agentry::message& m : r.messages) results += m.role == agentry::role::tool;
    if (results == 0) return agentry::scripted_model::call("listPets", R"({"limit":2,"tags":["cat","small dog"]})");
    if (results == 1) return agentry::scripted_model::call("createPet", R"({"body":{"name":"Kit","tag":"cat"}})");
    return agentry::scripted_model::answer("Added Kit: " + r.messages.back().text);
}

} // namespace

TEST_CASE("openapi: an agent calls a GET at once and a POST after approval, over HTTP on 127.0.0.1") {
    agentry_test::pet_server server(pet_store, 4);
    agentry::openapi::toolset_options o;
    o.server_variables["port"] = std::to_string(server.port());
    o.credentials["key"] = "k-123";
    o.credentials["token"] = "t-9";
    o.report = [](std::string_view) {};
    auto api = agentry::openapi::toolset::load(agentry_test::petstore, agentry::curl_transport{}, o);
    REQUIRE(api);
    constexpr agentry::loop_config config{.max_turns = 6};
    agentry::agent<config> agent{agentry::scripted_model{script}, agentry::registry{}, {}, agentry::scripted_transport{}};
    REQUIRE(agent.add_tools(*api));

    const agentry::run_result paused = agent.run("List two pets, then add Kit the cat.");
    CHECK(paused.stop == agentry::stop_reason::approval_pending);
    REQUIRE(paused.steps.size() == 1);
    CHECK(paused.steps[0].tool == "listPets");
    CHECK(paused.steps[0].status == agentry::tool_status::ok);
    CHECK(paused.steps[0].result_excerpt == R"([{"name":"Tom"},{"name":"Rex"}])");
    REQUIRE(paused.pending.size() == 1);
    CHECK(paused.pending[0].tool == "createPet");
    CHECK(server.received().size() == 1);  // nothing sent for the POST yet

    std::vector<agentry::approval_decision> decisions;
    for (const agentry::pending_call& call : agent.pending_approvals())
        decisions.push_back(agentry::decide(call, agentry::approval::approve()));
    const agentry::run_result done = agent.run(agentry::approvals{decisions});
    CHECK(done.stop == agentry::stop_reason::completed);
    CHECK(done.text == R"(Added Kit: {"id":3,"name":"Kit"})");
    const std::vector<agentry_test::served_request> got = server.received();
    REQUIRE(got.size() == 2);
    CHECK(got[0].request_line() == "GET /v1/pets?limit=2&tags=cat&tags=small%20dog HTTP/1.1");
    CHECK(got[1].request_line() == "POST /v1/pets HTTP/1.1");
    CHECK(got[1].body == R"({"name":"Kit","tag":"cat"})");
}
