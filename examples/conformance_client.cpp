// SPDX-License-Identifier: BSL-1.0
// The client the MCP conformance suite's client scenarios expect of an SDK, built with agentry's
// public API only. The suite starts it with the server's URL as its last argument and the
// scenario's name in MCP_CONFORMANCE_SCENARIO (tests/mcp/conformance/run_client.sh):
//   initialize                           connect, list the tools, close
//   tools_call                           call add_numbers {"a":5,"b":3}
//   elicitation-sep1034-client-defaults  call test_client_elicitation_defaults, accepting the
//                                        form with the requestedSchema's defaults
//   sse-retry                            call test_reconnection, whose event stream ends before
//                                        its response (the client resumes it)
//   auth/...                             authorize with OAuth when the server asks (the
//                                        authorization server approves without a user: its
//                                        redirect is followed), list the tools, call test-tool;
//                                        credentials come in MCP_CONFORMANCE_CONTEXT (JSON)
//   conformance_client URL
#include <agentry/json/value.hpp>
#include <agentry/mcp/client.hpp>

#include <cstdio>
#include <cstdlib>
#include <string>
#include <string_view>

namespace {

namespace json = agentry::json;
namespace mcp = agentry::mcp;

// The form filled with the default of each property of `schema` that has one.
mcp::elicitation_reply accept_defaults(std::string_view, std::string_view schema) {
    json::value content = json::value::object();
    const json::parsed parsed = json::parse(schema);
    if (const json::value* properties = parsed.value.find("properties"))
        for (const json::member& p : properties->members())
            if (const json::value* d = p.value.find("default")) content.members().push_back({p.key, *d});
    return mcp::elicitation_reply::accept(json::to_text(content));
}

// The OAuth settings of an auth/ scenario, from its context where it gives one.
mcp::oauth oauth_for(std::string_view scenario) {
    const char* text = std::getenv("MCP_CONFORMANCE_CONTEXT");
    const json::parsed context = json::parse(text ? text : "{}");
    const auto at = [&](std::string_view key) {
        const json::value* v = context.value.find(key);
        return v ? v->as_string() : std::string();
    };
    mcp::oauth o;
    o.client_name = "agentry-conformance-client";
    o.redirect_uri = "http://localhost:3000/callback";
    o.authorize = [](const std::string& authorization_url) { return mcp::authorization_redirect(authorization_url); };
    o.client_metadata_url = "https://conformance-test.local/client-metadata.json";
    o.client_id = at("client_id");
    o.client_secret = at("client_secret");
    if (scenario.starts_with("auth/client-credentials-")) {
        o.grant = mcp::oauth_grant::client_credentials;
        o.private_key_pem = at("private_key_pem");
        if (const std::string alg = at("signing_algorithm"); !alg.empty()) o.signing_algorithm = alg;
    } else if (scenario == "auth/cross-app-access-complete-flow") {
        o.grant = mcp::oauth_grant::id_jag;
        o.idp_token_endpoint = at("idp_token_endpoint");
        o.idp_id_token = at("idp_id_token");
        o.idp_client_id = at("idp_client_id");
    }
    return o;
}

int run(std::string_view scenario, const std::string& url) {
    mcp::client_options options;
    options.name = "agentry-conformance-client";
    // Only where asked: a client with a hook also opens the GET event stream.
    if (scenario == "elicitation-sep1034-client-defaults") options.on_elicit = accept_defaults;
    mcp::http_url endpoint{url};
    const bool auth = scenario.starts_with("auth/");
    if (auth) endpoint.oauth = oauth_for(scenario);
    auto client = mcp::client::connect(endpoint, options);
    if (!client) {
        std::fprintf(stderr, "%s\n", client.error().message.c_str());
        return 1;
    }
    auto tools = (*client)->list_tools();
    if (!tools) {
        std::fprintf(stderr, "%s\n", tools.error().message.c_str());
        return 1;
    }
    std::string tool;
    std::string arguments = "{}";
    if (scenario == "tools_call") {
        tool = "add_numbers";
        arguments = R"({"a":5,"b":3})";
    } else if (scenario == "elicitation-sep1034-client-defaults") {
        tool = "test_client_elicitation_defaults";
    } else if (scenario == "sse-retry") {
        tool = "test_reconnection";
    } else if (auth && !scenario.starts_with("auth/client-credentials-")) {
        tool = "test-tool";
    }
    if (!tool.empty()) {
        auto r = (*client)->call_tool(tool, arguments);
        if (!r) {
            std::fprintf(stderr, "%s\n", r.error().message.c_str());
            return 1;
        }
        std::printf("%s: %s\n", tool.c_str(), r->text.c_str());
    }
    (*client)->close();
    return 0;
}

} // namespace

int main(int argc, char** argv) {
    if (argc < 2) {
        std::fprintf(stderr, "usage: conformance_client URL (with MCP_CONFORMANCE_SCENARIO set)\n");
        return 2;
    }
    const char* scenario = std::getenv("MCP_CONFORMANCE_SCENARIO");
    return run(scenario ? scenario : "", argv[argc - 1]);
}
