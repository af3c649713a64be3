// SPDX-License-Identifier: BSL-1.0
// mcp::client's OAuth 2.1 (oauth.hpp): the pieces (challenges, queries, resource matching,
// PKCE), the flow against scripted endpoints (what it asks, in which order, and each refusal's
// message), and the whole of it end to end: agentry's own HTTP server with bearer-token
// authorization, and an authorization server scripted on 127.0.0.1.
#include <agentry/mcp/client.hpp>
#include <agentry/mcp/http.hpp>

#include "doc_block.hpp"
#include "tools.hpp"

#include <doctest/doctest.h>

#include <arpa/inet.h>
#include <atomic>
#include <cstdio>
#include <functional>
#include <map>
#include <mutex>
#include <netinet/in.h>
#include <poll.h>
#include <string>
#include <string_view>
#include <sys/socket.h>
#include <thread>
#include <unistd.h>
#include <vector>

namespace {

namespace mcp = agentry::mcp;
using mcp::detail::fetched;

bool contains(std::string_view text, std::string_view part) { return text.find(part) != std::string_view::npos; }

fetched json_answer(std::string body, int status = 200) {
    fetched f;
    f.status = status;
    f.content_type = "application/json";
    f.body = std::move(body);
    return f;
}

// Endpoints answered from a table (URL without query -> answer, else 404), every request kept.
struct scripted {
    struct seen {
        std::string method;
        std::string url;
        mcp::detail::header_list headers;
        std::string body;
    };
    std::map<std::string, std::function<fetched(const seen&)>> routes;
    std::vector<seen> requests;

    mcp::detail::fetch_function function() {
        return [this](std::string_view method, const std::string& url, const mcp::detail::header_list& headers,
                      std::string_view body) {
            requests.push_back({std::string(method), url, headers, std::string(body)});
            const auto r = routes.find(url.substr(0, url.find('?')));
            return r == routes.end() ? json_answer(R"({"error":"not_found"})", 404) : r->second(requests.back());
        };
    }
    std::vector<std::string> urls() const {
        std::vector<std::string> out;
        for (const seen& s : requests) out.push_back(s.method + " " + s.url.substr(0, s.url.find('?')));
        return out;
    }
    static std::string header(const seen& s, std::string_view name) {
        for (const auto& [n, v] : s.headers)
            if (n == name) return v;
        return {};
    }
};

constexpr std::string_view server_url = "http://127.0.0.1:9/mcp";

// A resource at server_url whose authorization server is as_url, with a token endpoint that
// issues "t1", "t2", ... and a registration endpoint.
void standard_routes(scripted& s, std::string metadata_extra = {}) {
    s.routes["http://127.0.0.1:9/.well-known/oauth-protected-resource/mcp"] = [](const auto&) {
        return json_answer(R"({"resource":"http://127.0.0.1:9/mcp","authorization_servers":["http://127.0.0.1:10"],)"
                           R"("scopes_supported":["read","write"]})");
    };
    s.routes["http://127.0.0.1:10/.well-known/oauth-authorization-server"] = [metadata_extra](const auto&) {
        return json_answer(R"({"issuer":"http://127.0.0.1:10","authorization_endpoint":"http://127.0.0.1:10/authorize",)"
                           R"("token_endpoint":"http://127.0.0.1:10/token","registration_endpoint":"http://127.0.0.1:10/register",)"
                           R"("code_challenge_methods_supported":["S256"])" + metadata_extra + "}");
    };
    s.routes["http://127.0.0.1:10/register"] = [](const auto&) {
        return json_answer(R"({"client_id":"c1","client_secret":"s 1","token_endpoint_auth_method":"client_secret_basic"})",
                           201);
    };
    auto issued = std::make_shared<int>(0);
    s.routes["http://127.0.0.1:10/token"] = [issued](const auto&) {
        return json_answer(R"({"access_token":"t)" + std::to_string(++*issued) +
                           R"(","token_type":"bearer","expires_in":60,"refresh_token":"r1"})");
    };
}

// An authorize hook that approves at once: the redirect_uri with a code and the request's state.
std::string approve(const std::string& url) {
    return "http://localhost:3000/cb?code=abc&state=" + mcp::detail::form_encode(*mcp::detail::query_parameter(url, "state"));
}

mcp::oauth code_options() {
    mcp::oauth o;
    o.redirect_uri = "http://localhost:3000/cb";
    o.authorize = approve;
    return o;
}

} // namespace

TEST_CASE("oauth pieces: Bearer challenges, queries, form encoding, PKCE, resources") {
    using namespace mcp::detail;
    auto c = parse_bearer_challenge(
        R"(Bearer resource_metadata="http://a/.well-known/x", error="insufficient_scope", scope="a b", )"
        R"(error_description="say \"more\"")");
    CHECK(c.resource_metadata == "http://a/.well-known/x");
    CHECK(c.error == "insufficient_scope");
    CHECK(c.scope == "a b");
    CHECK(c.error_description == R"(say "more")");
    c = parse_bearer_challenge(R"(DPoP algs="ES256", bearer scope=read,error=invalid_token)");
    CHECK(c.scope == "read");
    CHECK(c.error == "invalid_token");
    c = parse_bearer_challenge(R"(Bearer realm="x", Basic realm="y")");
    CHECK(c.scope.empty());
    CHECK(parse_bearer_challenge("Basic scope=\"a\"").scope.empty());

    CHECK(form_encode("a b/c~d_e.f-g&=+") == "a%20b%2Fc~d_e.f-g%26%3D%2B");
    CHECK(form({{"a", "1 2"}, {"empty", ""}, {"b", "é"}}) == "a=1%202&b=%C3%A9");
    CHECK(query_parameter("http://h/cb?code=a%2Bb+c&state=s#frag", "code") == "a+b c");
    CHECK(query_parameter("http://h/cb?code=a&state=s#frag", "state") == "s");
    CHECK(query_parameter("http://h/cb?flag&x=1", "flag") == "");
    CHECK(!query_parameter("http://h/cb?x=1", "code"));
    CHECK(!query_parameter("http://h/cb", "code"));

    // RFC 7636, appendix B.
    CHECK(pkce_challenge("dBjftJeZ4CVP-mB92K27uhbUJU1p1r_wW1gFWFOEjXk") == "E9Melhoa2OwvFrEMTJguCHaoeK1t8URWbuGJSstw-cM");
    const std::string verifier = random_text(32);
    CHECK(verifier.size() == 43);
    CHECK(verifier.find_first_not_of("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_") == std::string::npos);
    CHECK(random_text(32) != verifier);

    CHECK(resource_covers("https://mcp.example.com/mcp", "https://MCP.example.com/mcp"));
    CHECK(resource_covers("https://mcp.example.com", "https://mcp.example.com/mcp"));
    CHECK(resource_covers("https://mcp.example.com/", "https://mcp.example.com/mcp/x"));
    CHECK(resource_covers("https://mcp.example.com/mcp", "https://mcp.example.com/mcp/"));
    CHECK_FALSE(resource_covers("https://mcp.example.com/mcp", "https://mcp.example.com/mcpx"));
    CHECK_FALSE(resource_covers("https://evil.example.com/mcp", "https://mcp.example.com/mcp"));
    CHECK_FALSE(resource_covers("http://mcp.example.com/mcp", "https://mcp.example.com/mcp"));
    CHECK_FALSE(resource_covers("https://mcp.example.com:8443/mcp", "https://mcp.example.com/mcp"));
    CHECK_FALSE(resource_covers("", "https://mcp.example.com/mcp"));
}

TEST_CASE("oauth flow: discovery order, registration, the authorization request, the token request") {
    scripted s;
    standard_routes(s, R"(,"scopes_supported":["read","write","offline_access"])");
    std::string asked;
    mcp::oauth o = code_options();
    o.authorize = [&](const std::string& url) {
        asked = url;
        return approve(url);
    };
    std::vector<std::string> kept;
    o.on_tokens = [&](const mcp::oauth_tokens& t) { kept.push_back(t.access_token + "/" + t.refresh_token); };
    mcp::detail::oauth_flow flow(o, std::string(server_url), false, s.function());
    CHECK(flow.credential() == std::pair<std::string, unsigned>{"", 1});
    std::string why;
    REQUIRE(flow.challenge(401, "Bearer", 1, why));
    CHECK(why.empty());
    CHECK(s.urls() == std::vector<std::string>{"GET http://127.0.0.1:9/.well-known/oauth-protected-resource/mcp",
                                               "GET http://127.0.0.1:10/.well-known/oauth-authorization-server",
                                               "POST http://127.0.0.1:10/register", "POST http://127.0.0.1:10/token"});
    CHECK(s.requests[2].body ==
          R"({"client_name":"agentry","redirect_uris":["http://localhost:3000/cb"],"grant_types":["authorization_code",)"
          R"("refresh_token"],"response_types":["code"],"token_endpoint_auth_method":"none"})");
    // The scopes of the resource, offline_access as the authorization server lists it.
    using mcp::detail::query_parameter;
    CHECK(query_parameter(asked, "scope") == "read write offline_access");
    CHECK(query_parameter(asked, "resource") == "http://127.0.0.1:9/mcp");
    CHECK(query_parameter(asked, "client_id") == "c1");
    CHECK(query_parameter(asked, "response_type") == "code");
    CHECK(query_parameter(asked, "code_challenge_method") == "S256");
    const std::string token_body = s.requests[3].body;
    const auto field = [&](std::string_view name) { return query_parameter("?" + token_body, name); };
    CHECK(field("grant_type") == "authorization_code");
    CHECK(field("code") == "abc");
    CHECK(field("redirect_uri") == "http://localhost:3000/cb");
    CHECK(field("resource") == "http://127.0.0.1:9/mcp");
    CHECK(mcp::detail::pkce_challenge(*field("code_verifier")) == query_parameter(asked, "code_challenge"));
    CHECK(!field("client_secret"));
    // client_secret_basic, as registered: the form-encoded id and secret.
    CHECK(scripted::header(s.requests[3], "Authorization") == "Basic " + mcp::detail::base64("c1:s%201"));
    CHECK(flow.credential() == std::pair<std::string, unsigned>{"Bearer t1", 2});
    CHECK(kept == std::vector<std::string>{"t1/r1"});

    // A challenge to an older credential: the newer one is sent, nothing is asked.
    REQUIRE(flow.challenge(401, "Bearer", 1, why));
    CHECK(s.requests.size() == 4);
    // An expired token: the refresh token, no browser step, no new registration.
    asked.clear();
    REQUIRE(flow.challenge(401, R"(Bearer error="invalid_token")", 2, why));
    CHECK(asked.empty());
    CHECK(s.requests.size() == 5);
    CHECK(query_parameter("?" + s.requests[4].body, "grant_type") == "refresh_token");
    CHECK(query_parameter("?" + s.requests[4].body, "refresh_token") == "r1");
    CHECK(flow.credential().first == "Bearer t2");
    // More scope: a new authorization with the challenge's scopes.
    REQUIRE(flow.challenge(403, R"(Bearer error="insufficient_scope", scope="read admin")", 3, why));
    CHECK(query_parameter(asked, "scope") == "read admin offline_access");
    CHECK(s.urls().back() == "POST http://127.0.0.1:10/token");
    CHECK(kept.size() == 3);
}

TEST_CASE("oauth flow: discovery without resource_metadata, path-based issuers, 2025-03-26 fallbacks") {
    SUBCASE("the path-based resource metadata, then the root; an issuer with a path") {
        scripted s;
        s.routes["http://127.0.0.1:9/.well-known/oauth-protected-resource"] = [](const auto&) {
            return json_answer(R"({"resource":"http://127.0.0.1:9","authorization_servers":["http://127.0.0.1:10/t1/"]})");
        };
        s.routes["http://127.0.0.1:10/t1/.well-known/openid-configuration"] = [](const auto&) {
            return json_answer(R"({"issuer":"http://127.0.0.1:10/t1","authorization_endpoint":"http://127.0.0.1:10/a",)"
                               R"("token_endpoint":"http://127.0.0.1:10/tok","code_challenge_methods_supported":["S256"],)"
                               R"("client_id_metadata_document_supported":true})");
        };
        s.routes["http://127.0.0.1:10/tok"] = [](const auto&) { return json_answer(R"({"access_token":"x"})"); };
        mcp::oauth o = code_options();
        o.client_metadata_url = "https://client.example/meta.json";
        std::string asked;
        o.authorize = [&](const std::string& url) {
            asked = url;
            return approve(url);
        };
        mcp::detail::oauth_flow flow(o, std::string(server_url), false, s.function());
        std::string why;
        REQUIRE(flow.challenge(401, "Bearer", 1, why));
        CHECK(s.urls() == std::vector<std::string>{
                              "GET http://127.0.0.1:9/.well-known/oauth-protected-resource/mcp",
                              "GET http://127.0.0.1:9/.well-known/oauth-protected-resource",
                              "GET http://127.0.0.1:10/.well-known/oauth-authorization-server/t1",
                              "GET http://127.0.0.1:10/.well-known/openid-configuration/t1",
                              "GET http://127.0.0.1:10/t1/.well-known/openid-configuration", "POST http://127.0.0.1:10/tok"});
        // A client ID metadata document instead of registration; no scope to ask for.
        CHECK(mcp::detail::query_parameter(asked, "client_id") == "https://client.example/meta.json");
        CHECK(!mcp::detail::query_parameter(asked, "scope"));
        CHECK(mcp::detail::query_parameter("?" + s.requests.back().body, "client_id") == "https://client.example/meta.json");
    }
    SUBCASE("no resource metadata and no server metadata: /authorize, /token, /register at the origin") {
        scripted s;
        s.routes["http://127.0.0.1:9/register"] = [](const auto&) { return json_answer(R"({"client_id":"c"})", 201); };
        s.routes["http://127.0.0.1:9/token"] = [](const auto&) { return json_answer(R"({"access_token":"x"})"); };
        std::string asked;
        mcp::oauth o = code_options();
        o.authorize = [&](const std::string& url) {
            asked = url;
            return approve(url);
        };
        mcp::detail::oauth_flow flow(o, std::string(server_url), false, s.function());
        std::string why;
        REQUIRE(flow.challenge(401, "Bearer", 1, why));
        CHECK(s.urls().size() == 6);
        CHECK(s.urls()[2] == "GET http://127.0.0.1:9/.well-known/oauth-authorization-server");
        CHECK(s.urls()[4] == "POST http://127.0.0.1:9/register");
        CHECK(asked.starts_with("http://127.0.0.1:9/authorize?"));
        CHECK(flow.credential().first == "Bearer x");
    }
}

TEST_CASE("oauth flow: each refusal, with its message") {
    const auto refused = [](scripted& s, mcp::oauth o, int status = 401, std::string header = "Bearer") {
        mcp::detail::oauth_flow flow(std::move(o), std::string(server_url), false, s.function());
        std::string why;
        CHECK_FALSE(flow.challenge(status, header, 1, why));
        CHECK(flow.credential().first.empty());
        return why;
    };
    SUBCASE("resource metadata for another resource: nothing is authorized") {
        scripted s;
        standard_routes(s);
        s.routes["http://127.0.0.1:9/.well-known/oauth-protected-resource/mcp"] = [](const auto&) {
            return json_answer(R"({"resource":"https://evil.example.com/mcp","authorization_servers":["http://127.0.0.1:10"]})");
        };
        CHECK(refused(s, code_options()) ==
              "the protected resource metadata at http://127.0.0.1:9/.well-known/oauth-protected-resource/mcp is for the "
              "resource \"https://evil.example.com/mcp\", not for this server (http://127.0.0.1:9/mcp); nothing is "
              "authorized");
        CHECK(s.requests.size() == 1);
    }
    SUBCASE("resource_metadata named by the challenge, not found") {
        scripted s;
        CHECK(refused(s, code_options(), 401, R"(Bearer resource_metadata="http://127.0.0.1:9/meta")") ==
              "reading the protected resource metadata named by the server failed (http://127.0.0.1:9/meta: HTTP 404: "
              "not_found)");
    }
    SUBCASE("an issuer that is not the server asked") {
        scripted s;
        standard_routes(s);
        s.routes["http://127.0.0.1:10/.well-known/oauth-authorization-server"] = [](const auto&) {
            return json_answer(R"({"issuer":"http://127.0.0.1:11","token_endpoint":"http://127.0.0.1:11/token"})");
        };
        CHECK(refused(s, code_options()) ==
              "the authorization server metadata at http://127.0.0.1:10/.well-known/oauth-authorization-server names the "
              "issuer \"http://127.0.0.1:11\", not http://127.0.0.1:10 (RFC 8414 section 3.3)");
    }
    SUBCASE("no PKCE S256") {
        scripted s;
        standard_routes(s);
        s.routes["http://127.0.0.1:10/.well-known/oauth-authorization-server"] = [](const auto&) {
            return json_answer(R"({"issuer":"http://127.0.0.1:10","authorization_endpoint":"http://127.0.0.1:10/a",)"
                               R"("token_endpoint":"http://127.0.0.1:10/token","code_challenge_methods_supported":["plain"]})");
        };
        CHECK(refused(s, code_options()) == "the authorization server http://127.0.0.1:10 does not list S256 in "
                                            "code_challenge_methods_supported; without PKCE nothing is authorized");
    }
    SUBCASE("no registration endpoint and no client_id") {
        scripted s;
        standard_routes(s);
        s.routes["http://127.0.0.1:10/.well-known/oauth-authorization-server"] = [](const auto&) {
            return json_answer(R"({"issuer":"http://127.0.0.1:10","authorization_endpoint":"http://127.0.0.1:10/a",)"
                               R"("token_endpoint":"http://127.0.0.1:10/token","code_challenge_methods_supported":["S256"]})");
        };
        CHECK(refused(s, code_options()) == "the authorization server http://127.0.0.1:10 offers no dynamic client "
                                            "registration; register the client there and set oauth.client_id");
    }
    SUBCASE("the browser step: no hook, given up, refused, a forged state, no code") {
        scripted s;
        standard_routes(s);
        mcp::oauth o = code_options();
        o.authorize = nullptr;
        CHECK(refused(s, o) == "the authorization code grant needs oauth.authorize (the user's browser step) and "
                               "oauth.redirect_uri");
        o.authorize = [](const std::string&) { return std::string(); };
        CHECK(refused(s, o) == "the authorization was not completed (oauth.authorize returned no URL)");
        o.authorize = [](const std::string&) -> std::string { throw std::runtime_error("no browser"); };
        CHECK(refused(s, o) == "oauth.authorize threw: no browser");
        o.authorize = [](const std::string&) {
            return std::string("http://localhost:3000/cb?error=access_denied&error_description=the+user+said+no");
        };
        CHECK(refused(s, o) == "the authorization server refused: access_denied (the user said no)");
        o.authorize = [](const std::string&) { return std::string("http://localhost:3000/cb?code=abc&state=forged"); };
        CHECK(refused(s, o) == "the redirect's state is not the request's; the redirect is not used");
        o.authorize = [](const std::string& url) {
            return "http://localhost:3000/cb?state=" + *mcp::detail::query_parameter(url, "state");
        };
        CHECK(contains(refused(s, o), "the redirect holds no code: http://localhost:3000/cb?state="));
    }
    SUBCASE("the token endpoint's error, and a token that is not Bearer") {
        scripted s;
        standard_routes(s);
        s.routes["http://127.0.0.1:10/token"] = [](const auto&) {
            return json_answer(R"({"error":"invalid_grant","error_description":"code used"})", 400);
        };
        CHECK(refused(s, code_options()) ==
              "the token endpoint http://127.0.0.1:10/token answered HTTP 400: invalid_grant (code used)");
        s.routes["http://127.0.0.1:10/token"] = [](const auto&) {
            return json_answer(R"({"access_token":"x","token_type":"DPoP"})");
        };
        CHECK(refused(s, code_options()) == "the token endpoint http://127.0.0.1:10/token issued a \"DPoP\" token; "
                                            "mcp::client sends Bearer tokens only");
    }
    SUBCASE("an authorization server over plain http:// that is not loopback") {
        scripted s;
        standard_routes(s);
        s.routes["http://127.0.0.1:9/.well-known/oauth-protected-resource/mcp"] = [](const auto&) {
            return json_answer(R"({"resource":"http://127.0.0.1:9/mcp","authorization_servers":["http://auth.example.com"]})");
        };
        CHECK(refused(s, code_options()) ==
              "refusing the OAuth endpoint \"http://auth.example.com/.well-known/oauth-authorization-server\": it must "
              "be https:// (or http:// on a loopback host, or http_url::allow_plain_http_credentials)");
        CHECK(s.requests.size() == 1);
    }
    SUBCASE("403 for another reason than scope") {
        scripted s;
        standard_routes(s);
        CHECK(refused(s, code_options(), 403, R"(Bearer error="invalid_token", error_description="revoked")") ==
              "the server refused the token (invalid_token: revoked), and a new authorization cannot change that");
        CHECK(s.requests.empty());
    }
    SUBCASE("client credentials without a secret or a key, ID-JAG without the identity provider") {
        scripted s;
        standard_routes(s);
        mcp::oauth o;
        o.grant = mcp::oauth_grant::client_credentials;
        o.client_id = "svc";
        CHECK(refused(s, o) ==
              "the client credentials grant needs oauth.client_id with oauth.client_secret or oauth.private_key_pem");
        o.grant = mcp::oauth_grant::id_jag;
        CHECK(refused(s, o) ==
              "the ID-JAG grant needs oauth.idp_token_endpoint, oauth.idp_id_token and oauth.client_id");
    }
}

TEST_CASE("oauth flow: client credentials with a secret, and an ID-JAG exchanged at the identity provider") {
    scripted s;
    standard_routes(s, R"(,"token_endpoint_auth_methods_supported":["client_secret_post"])");
    s.routes["http://127.0.0.1:12/token"] = [](const auto&) {
        return json_answer(R"({"access_token":"jag","issued_token_type":"urn:ietf:params:oauth:token-type:id-jag",)"
                           R"("token_type":"N_A"})");
    };
    mcp::oauth o;
    o.grant = mcp::oauth_grant::client_credentials;
    o.client_id = "svc";
    o.client_secret = "pw";
    {
        mcp::detail::oauth_flow flow(o, std::string(server_url), false, s.function());
        std::string why;
        REQUIRE(flow.challenge(401, R"(Bearer scope="jobs")", 1, why));
        CHECK(s.requests.back().body ==
              "grant_type=client_credentials&scope=jobs&resource=http%3A%2F%2F127.0.0.1%3A9%2Fmcp&client_id=svc&"
              "client_secret=pw");
    }
    o.grant = mcp::oauth_grant::id_jag;
    o.idp_token_endpoint = "http://127.0.0.1:12/token";
    o.idp_id_token = "idtoken";
    o.idp_client_id = "at-idp";
    mcp::detail::oauth_flow flow(o, std::string(server_url), false, s.function());
    std::string why;
    // The scopes of the resource's metadata go with both requests.
    REQUIRE(flow.challenge(401, "Bearer", 1, why));
    const auto& exchange = s.requests[s.requests.size() - 2];
    CHECK(exchange.url == "http://127.0.0.1:12/token");
    CHECK(exchange.body ==
          "grant_type=urn%3Aietf%3Aparams%3Aoauth%3Agrant-type%3Atoken-exchange&requested_token_type=urn%3Aietf%3Aparams"
          "%3Aoauth%3Atoken-type%3Aid-jag&audience=http%3A%2F%2F127.0.0.1%3A10&resource=http%3A%2F%2F127.0.0.1%3A9%2Fmcp"
          "&scope=read%20write&subject_token=idtoken&subject_token_type=urn%3Aietf%3Aparams%3Aoauth%3Atoken-type%3Aid_token&client_id=at-idp");
    CHECK(s.requests.back().body ==
          "grant_type=urn%3Aietf%3Aparams%3Aoauth%3Agrant-type%3Ajwt-bearer&assertion=jag&scope=read%20write&client_id=svc&"
          "client_secret=pw");
    CHECK(flow.credential().first.starts_with("Bearer t"));
}

namespace {

// The example of docs/mcp.md (OAuth 2.1), byte for byte.
std::shared_ptr<agentry::mcp::client> connect_as_user(const std::string& url,
                                                      std::function<std::string(const std::string&)> browser) {
    agentry::mcp::http_url server{url};
    server.oauth = agentry::mcp::oauth{
        .redirect_uri = "http://127.0.0.1:8765/callback",
        .authorize = std::move(browser),  // shows the URL; returns the redirect_uri it came back to
        .client_metadata_url = "https://app.example.com/oauth/client.json",
    };
    auto c = agentry::mcp::client::connect(server);
    if (!c) {
        std::fprintf(stderr, "%s\n", c.error().message.c_str());  // why authorizing failed, if it did
        return nullptr;
    }
    return *c;
}

// An HTTP server on 127.0.0.1 answering each connection's request with `answer(request)` (a
// whole HTTP response); it stops at the end of the scope, or after 1,000 connections, or when
// none came for 30 s.
struct scripted_http {
    std::function<std::string(const std::string&)> answer;
    int fd = -1;
    unsigned short port = 0;
    std::atomic<bool> stop{false};
    std::thread thread;

    explicit scripted_http(std::function<std::string(const std::string&)> a) : answer(std::move(a)) {
        fd = ::socket(AF_INET, SOCK_STREAM | SOCK_CLOEXEC, 0);
        sockaddr_in addr{};
        addr.sin_family = AF_INET;
        addr.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
        ::bind(fd, reinterpret_cast<sockaddr*>(&addr), sizeof addr);
        ::listen(fd, 16);
        socklen_t len = sizeof addr;
        ::getsockname(fd, reinterpret_cast<sockaddr*>(&addr), &len);
        port = ntohs(addr.sin_port);
        thread = std::thread([this] { run(); });
    }
    ~scripted_http() {
        stop = true;
        thread.join();
        ::close(fd);
    }
    std::string origin() const { return "http://127.0.0.1:" + std::to_string(port); }

    void run() {
        for (int served = 0, idle = 0; served != 1000 && !stop && idle != 300;) {
            pollfd p{fd, POLLIN, 0};
            if (::poll(&p, 1, 100) <= 0) {
                ++idle;
                continue;
            }
            idle = 0;
            const int c = ::accept(fd, nullptr, nullptr);
            if (c < 0) continue;
            ++served;
            std::string request;
            char buffer[4096];
            for (;;) {
                const std::size_t head = request.find("\r\n\r\n");
                if (head != std::string::npos) {
                    const std::size_t at = request.find("Content-Length: ");
                    const std::size_t length = at == std::string::npos ? 0 : std::stoul(request.substr(at + 16));
                    if (request.size() >= head + 4 + length) break;
                }
                const ssize_t n = ::recv(c, buffer, sizeof buffer, 0);
                if (n <= 0) break;
                request.append(buffer, std::size_t(n));
            }
            const std::string reply = answer(request);
            ::send(c, reply.data(), reply.size(), MSG_NOSIGNAL);
            ::close(c);
        }
    }
};

std::string http_json(int status, const std::string& body, std::string extra = {}) {
    return "HTTP/1.1 " + std::to_string(status) + " X\r\nContent-Type: application/json\r\nContent-Length: " +
           std::to_string(body.size()) + "\r\n" + extra + "Connection: close\r\n\r\n" + body;
}

unsigned short free_port() {
    const int fd = ::socket(AF_INET, SOCK_STREAM | SOCK_CLOEXEC, 0);
    sockaddr_in addr{};
    addr.sin_family = AF_INET;
    addr.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
    ::bind(fd, reinterpret_cast<sockaddr*>(&addr), sizeof addr);
    socklen_t len = sizeof addr;
    ::getsockname(fd, reinterpret_cast<sockaddr*>(&addr), &len);
    ::close(fd);
    return ntohs(addr.sin_port);
}

} // namespace

TEST_CASE("oauth end to end: agentry's server with bearer tokens, a scripted authorization server") {
    std::mutex m;
    std::vector<std::string> paths;
    std::string origin;
    int issued = 0;
    scripted_http as([&](const std::string& request) {
        const std::string line = request.substr(0, request.find("\r\n"));
        const std::string path = line.substr(line.find(' ') + 1, line.rfind(' ') - line.find(' ') - 1);
        std::lock_guard lock(m);
        paths.push_back(path.substr(0, path.find('?')));
        if (path == "/.well-known/oauth-authorization-server")
            return http_json(200, R"({"issuer":")" + origin + R"(","authorization_endpoint":")" + origin +
                                      R"(/authorize","token_endpoint":")" + origin + R"(/token","registration_endpoint":")" +
                                      origin + R"(/register","code_challenge_methods_supported":["S256"]})");
        if (path == "/register") return http_json(201, R"({"client_id":"c1"})");
        if (path.starts_with("/authorize?")) {
            const auto state = mcp::detail::query_parameter(path, "state");
            return "HTTP/1.1 302 Found\r\nLocation: http://localhost:3000/cb?code=k&state=" + state.value_or("") +
                   "\r\nContent-Length: 0\r\nConnection: close\r\n\r\n";
        }
        if (path == "/token")
            return http_json(200, R"({"access_token":"good)" + std::to_string(++issued) + R"(","token_type":"Bearer"})");
        return http_json(404, R"({"error":"not_found"})");
    });
    {
        std::lock_guard lock(m);
        origin = as.origin();
    }
    const unsigned short port = free_port();
    const std::string resource = "http://127.0.0.1:" + std::to_string(port) + "/mcp";
    std::atomic<bool> accept_tokens{true};
    mcp::http_options options;
    options.port = port;
    options.log = nullptr;
    options.authorization.verify = [&](std::string_view token) -> std::optional<mcp::identity> {
        if (accept_tokens && token.starts_with("good")) return mcp::identity{"u"};
        return std::nullopt;
    };
    options.authorization.resource = resource;
    options.authorization.authorization_servers = {as.origin()};
    const mcp::server server{mcp_test::tools, {.name = "guarded", .version = "1"}};
    mcp::http_server http(server, options);
    std::thread serving([&] { http.run(); });

    mcp::http_url endpoint{resource};
    endpoint.oauth = code_options();
    endpoint.oauth->authorize = [&](const std::string& url) { return mcp::authorization_redirect(url); };
    std::vector<std::string> tokens;
    endpoint.oauth->on_tokens = [&](const mcp::oauth_tokens& t) { tokens.push_back(t.access_token); };
    {
        auto c = mcp::client::connect(endpoint);
        REQUIRE(c);
        auto r = (*c)->call_tool("add", R"({"a":2,"b":3})");
        REQUIRE(r);
        CHECK(r->text == "5");
        CHECK(tokens == std::vector<std::string>{"good1"});
        // A server that stops taking the tokens: three authorizations, then the request fails.
        accept_tokens = false;
        auto refused = (*c)->list_tools();
        REQUIRE(!refused);
        CHECK(contains(refused.error().message, "tools/list: HTTP 401 Unauthorized after 3 authorizations for this request "
                                                "(Bearer resource_metadata="));
        CHECK(tokens.size() == 4);
        accept_tokens = true;
    }
    {
        std::lock_guard lock(m);
        CHECK(paths == std::vector<std::string>{"/.well-known/oauth-authorization-server", "/register", "/authorize",
                                                "/token", "/authorize", "/token", "/authorize", "/token", "/authorize",
                                                "/token"});
    }
    // The example of docs/mcp.md, with a browser that approves at once.
    CHECK(mcp_test::in_test_file(mcp_test::doc_block("### OAuth 2.1"), "oauth.cpp"));
    auto user = connect_as_user(resource, [](const std::string& url) { return mcp::authorization_redirect(url); });
    REQUIRE(user);
    CHECK(user->call_tool("add", R"({"a":1,"b":1})")->text == "2");
    http.stop();
    serving.join();
}

TEST_CASE("oauth: refused over plain http:// to a host that is not loopback, before connecting") {
    mcp::http_url endpoint{"http://mcp.example.com/mcp"};
    endpoint.oauth = code_options();
    auto c = mcp::client::connect(endpoint);
    REQUIRE(!c);
    CHECK(c.error().message ==
          "agentry: mcp::client: refusing OAuth over plain http:// to 'mcp.example.com', which is not a loopback address: "
          "its tokens could be read on the way; reach the server through https:// with verification, or set "
          "http_url::allow_plain_http_credentials = true if the network path is trusted");
}
