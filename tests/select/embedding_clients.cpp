// SPDX-License-Identifier: BSL-1.0
// The embeddings clients (select/embeddings.hpp): exact requests of the three endpoints, their
// responses read, batches, errors, the size bound, credentials over plain http, the embedder.

#include "recording_transport.hpp"

#include <agentry/select/embeddings.hpp>

#include <doctest/doctest.h>

#include <cstdlib>
#include <string>
#include <vector>

namespace {

using agentry::embed_purpose;
using agentry_test::recording_transport;

const std::vector<std::string> two = {"get_weather\nCurrent weather", "send_email\nSend an \"email\""};

/// Keys come only from the clients' api_key in these tests.
struct no_key_variables {
    no_key_variables() {
        for (const char* name : {"OPENAI_API_KEY", "GOOGLE_API_KEY", "GEMINI_API_KEY"}) ::unsetenv(name);
    }
} const cleared;

} // namespace

TEST_CASE("openai embeddings: the request and its reading") {
    recording_transport t;
    t.reply(200, R"({"object":"list","data":[{"object":"embedding","index":1,"embedding":[0.5,-1]},)"
                 R"({"object":"embedding","index":0,"embedding":[1,2.25]}],"model":"text-embedding-3-small",)"
                 R"("usage":{"prompt_tokens":8,"total_tokens":8}})");
    const agentry::openai_embeddings client{.model = "text-embedding-3-small", .api_key = "sk-test"};
    const agentry::embed_result r = agentry::embed(client, t, two, embed_purpose::document);
    REQUIRE(r.ok());
    CHECK(r.vectors == std::vector<std::vector<float>>{{1, 2.25f}, {0.5f, -1}});
    REQUIRE(t.log->sent.size() == 1);
    const agentry::http_request& sent = t.log->sent[0];
    CHECK(sent.method == "POST");
    CHECK(sent.url == "https://api.openai.com/v1/embeddings");
    CHECK(agentry_test::header_lines(sent) ==
          "Content-Type: application/json\nAccept: application/json\nAuthorization: Bearer sk-test\n");
    CHECK(sent.body ==
          R"({"model":"text-embedding-3-small","input":["get_weather\nCurrent weather","send_email\nSend an \"email\""]})");
    CHECK(sent.max_body == agentry::response_limits{}.max_body);
    CHECK(client.id() == "openai:text-embedding-3-small");
}

TEST_CASE("openai embeddings: a compatible server on loopback, without a key") {
    recording_transport t;
    t.reply(200, R"({"data":[{"embedding":[1]},{"embedding":[2]}]})");
    agentry::openai_embeddings client;
    client.model = "nomic-embed-text";
    client.http.base_url = "http://127.0.0.1:8080/v1/";
    const agentry::embed_result r = agentry::embed(client, t, two, embed_purpose::query);
    REQUIRE(r.ok());
    CHECK(r.vectors == std::vector<std::vector<float>>{{1}, {2}});
    CHECK(t.log->sent[0].url == "http://127.0.0.1:8080/v1/embeddings");
    CHECK(agentry_test::header_lines(t.log->sent[0]) == "Content-Type: application/json\nAccept: application/json\n");
}

TEST_CASE("gemini embeddings: the request, task types, and the reading") {
    recording_transport t;
    t.reply(200, R"({"embeddings":[{"values":[0.25,0]},{"values":[-0.5,1]}]})");
    agentry::gemini_embeddings client{.model = "gemini-embedding-001", .api_key = "g-key"};
    agentry::embed_result r = agentry::embed(client, t, two, embed_purpose::document);
    REQUIRE(r.ok());
    CHECK(r.vectors == std::vector<std::vector<float>>{{0.25f, 0}, {-0.5f, 1}});
    const agentry::http_request& sent = t.log->sent[0];
    CHECK(sent.url == "https://generativelanguage.googleapis.com/v1beta/models/gemini-embedding-001:batchEmbedContents");
    CHECK(agentry_test::header_lines(sent) == "content-type: application/json\nx-goog-api-key: g-key\n");
    CHECK(sent.body ==
          R"({"requests":[{"model":"models/gemini-embedding-001","content":{"parts":[{"text":"get_weather\nCurrent weather"}]},"taskType":"RETRIEVAL_DOCUMENT"},)"
          R"({"model":"models/gemini-embedding-001","content":{"parts":[{"text":"send_email\nSend an \"email\""}]},"taskType":"RETRIEVAL_DOCUMENT"}]})");

    const std::vector<std::string> query = {"weather in Paris"};
    t.reply(200, R"({"embeddings":[{"values":[1,0]}]})");
    r = agentry::embed(client, t, query, embed_purpose::query);
    REQUIRE(r.ok());
    CHECK(t.log->sent[1].body ==
          R"({"requests":[{"model":"models/gemini-embedding-001","content":{"parts":[{"text":"weather in Paris"}]},"taskType":"RETRIEVAL_QUERY"}]})");

    client.task_types = false;
    client.model = "tunedModels/mine";
    r = agentry::embed(client, t, query, embed_purpose::query);
    REQUIRE(r.ok());
    CHECK(t.log->sent[2].url == "https://generativelanguage.googleapis.com/v1beta/tunedModels/mine:batchEmbedContents");
    CHECK(t.log->sent[2].body ==
          R"({"requests":[{"model":"tunedModels/mine","content":{"parts":[{"text":"weather in Paris"}]}}]})");
    CHECK(client.id() == "gemini:tunedModels/mine");
}

TEST_CASE("ollama embeddings: the request and its reading") {
    recording_transport t;
    t.reply(200, R"({"model":"all-minilm","embeddings":[[0.1,0.2],[0.3,0.4]],"total_duration":14143917})");
    const agentry::ollama_embeddings client{.model = "all-minilm"};
    const agentry::embed_result r = agentry::embed(client, t, two, embed_purpose::document);
    REQUIRE(r.ok());
    CHECK(r.vectors == std::vector<std::vector<float>>{{0.1f, 0.2f}, {0.3f, 0.4f}});
    CHECK(t.log->sent[0].url == "http://127.0.0.1:11434/api/embed");
    CHECK(agentry_test::header_lines(t.log->sent[0]) == "content-type: application/json\n");
    CHECK(t.log->sent[0].body ==
          R"({"model":"all-minilm","input":["get_weather\nCurrent weather","send_email\nSend an \"email\""]})");
}

TEST_CASE("embeddings: texts are sent in batches, in order") {
    recording_transport t;
    t.reply(200, R"({"embeddings":[[1],[2]]})").reply(200, R"({"embeddings":[[3],[4]]})").reply(200, R"({"embeddings":[[5]]})");
    const agentry::ollama_embeddings client{.model = "m", .batch = 2};
    const std::vector<std::string> texts = {"a", "b", "c", "d", "e"};
    const agentry::embed_result r = agentry::embed(client, t, texts, embed_purpose::document);
    REQUIRE(r.ok());
    CHECK(r.vectors == std::vector<std::vector<float>>{{1}, {2}, {3}, {4}, {5}});
    REQUIRE(t.log->sent.size() == 3);
    CHECK(t.log->sent[0].body == R"({"model":"m","input":["a","b"]})");
    CHECK(t.log->sent[1].body == R"({"model":"m","input":["c","d"]})");
    CHECK(t.log->sent[2].body == R"({"model":"m","input":["e"]})");

    const agentry::embed_result none = agentry::embed(client, t, std::vector<std::string>{}, embed_purpose::query);
    CHECK(none.ok());
    CHECK(none.vectors.empty());
    CHECK(t.log->sent.size() == 3);
}

TEST_CASE("embeddings: error bodies") {
    SUBCASE("openai 401") {
        recording_transport t;
        t.reply(401, R"({"error":{"message":"Incorrect API key provided: sk-te**st.","type":"invalid_request_error","param":null,"code":"invalid_api_key"}})");
        const agentry::embed_result r =
            agentry::embed(agentry::openai_embeddings{.model = "m", .api_key = "sk-test"}, t, two, embed_purpose::document);
        REQUIRE(r.error);
        CHECK(r.error->kind == agentry::provider_error_kind::authentication);
        CHECK(r.error->status == 401);
        CHECK(r.error->message == "Incorrect API key provided: sk-te**st.");
        CHECK(r.error->type == "invalid_api_key");
        CHECK_FALSE(r.error->retryable);
        CHECK(r.vectors.empty());
    }
    SUBCASE("gemini 400") {
        recording_transport t;
        t.reply(400, R"({"error":{"code":400,"message":"API key not valid. Please pass a valid API key.","status":"INVALID_ARGUMENT"}})");
        const agentry::embed_result r =
            agentry::embed(agentry::gemini_embeddings{.model = "m", .api_key = "k"}, t, two, embed_purpose::document);
        REQUIRE(r.error);
        CHECK(r.error->kind == agentry::provider_error_kind::bad_request);
        CHECK(r.error->message == "API key not valid. Please pass a valid API key.");
        CHECK(r.error->type == "INVALID_ARGUMENT");
    }
    SUBCASE("ollama 404, and 503 with Retry-After") {
        recording_transport t;
        t.reply(404, R"({"error":"model \"nomic\" not found, try pulling it first"})");
        agentry::embed_result r = agentry::embed(agentry::ollama_embeddings{.model = "nomic"}, t, two, embed_purpose::document);
        REQUIRE(r.error);
        CHECK(r.error->kind == agentry::provider_error_kind::bad_request);
        CHECK(r.error->message == "model \"nomic\" not found, try pulling it first");
        recording_transport busy;
        busy.reply(503, "overloaded");
        busy.log->replies[0].response.headers.push_back({"Retry-After", "2"});
        r = agentry::embed(agentry::ollama_embeddings{.model = "nomic"}, busy, two, embed_purpose::document);
        REQUIRE(r.error);
        CHECK(r.error->kind == agentry::provider_error_kind::server);
        CHECK(r.error->retryable);
        CHECK(r.error->message == "overloaded");
        CHECK(r.error->retry_after == std::chrono::milliseconds(2000));
    }
}

TEST_CASE("embeddings: malformed responses") {
    const agentry::openai_embeddings openai{.model = "m", .api_key = "k"};
    const agentry::ollama_embeddings ollama{.model = "m"};
    SUBCASE("not JSON") {
        recording_transport t;
        t.reply(200, "<html>hello</html>");
        const agentry::embed_result r = agentry::embed(openai, t, two, embed_purpose::document);
        REQUIRE(r.error);
        CHECK(r.error->kind == agentry::provider_error_kind::malformed);
        CHECK(r.error->message.starts_with("agentry: unreadable OpenAI embeddings response: "));
        CHECK(r.error->message.ends_with("; check that base_url names that endpoint"));
    }
    SUBCASE("no data") {
        recording_transport t;
        t.reply(200, R"({"object":"list"})");
        const agentry::embed_result r = agentry::embed(openai, t, two, embed_purpose::document);
        REQUIRE(r.error);
        CHECK(r.error->message ==
              "agentry: the OpenAI embeddings response has no \"data\"; check that base_url names that endpoint");
    }
    SUBCASE("an index twice") {
        recording_transport t;
        t.reply(200, R"({"data":[{"index":1,"embedding":[1]},{"index":1,"embedding":[2]}]})");
        const agentry::embed_result r = agentry::embed(openai, t, two, embed_purpose::document);
        REQUIRE(r.error);
        CHECK(r.error->message == "agentry: the OpenAI embeddings response has index 1 twice or past its 2 items");
    }
    SUBCASE("fewer vectors than texts") {
        recording_transport t;
        t.reply(200, R"({"embeddings":[[1,2]]})");
        const agentry::embed_result r = agentry::embed(ollama, t, two, embed_purpose::document);
        REQUIRE(r.error);
        CHECK(r.error->kind == agentry::provider_error_kind::malformed);
        CHECK(r.error->message == "agentry: the embeddings response has 1 vectors for 2 texts; check that the server "
                                  "embeds each text of \"input\"");
    }
    SUBCASE("vectors of different sizes") {
        recording_transport t;
        t.reply(200, R"({"embeddings":[[1,2],[1,2,3]]})");
        const agentry::embed_result r = agentry::embed(ollama, t, two, embed_purpose::document);
        REQUIRE(r.error);
        CHECK(r.error->message ==
              "agentry: the embeddings response has a vector of 3 numbers among vectors of 2; check the server's model");
    }
}

TEST_CASE("embeddings: a body past max_body, a transport failure") {
    recording_transport t;
    t.reply(200, R"({"embeddings":[[1,2],[3,4]]})");
    agentry::ollama_embeddings client{.model = "m"};
    client.http.limits.max_body = 16;
    agentry::embed_result r = agentry::embed(client, t, two, embed_purpose::document);
    REQUIRE(r.error);
    CHECK(r.error->kind == agentry::provider_error_kind::too_large);
    CHECK(t.log->sent[0].max_body == 16);
    CHECK(r.error->message == "agentry: an embeddings response passed its limit of 16 bytes; raise the provider's "
                              "http.limits.max_body if the server legitimately sends more");

    recording_transport down;
    down.log->replies.push_back({{}, {agentry::transport_error_kind::connect, "connection refused"}});
    r = agentry::embed(client, down, two, embed_purpose::document);
    REQUIRE(r.error);
    CHECK(r.error->kind == agentry::provider_error_kind::transport);
    CHECK(r.error->type == "connect");
    CHECK(r.error->retryable);
}

TEST_CASE("embeddings: no credentials over plain http to a host that is not loopback") {
    recording_transport t;
    t.reply(200, R"({"data":[{"embedding":[1]},{"embedding":[2]}]})");
    agentry::openai_embeddings client{.model = "m", .api_key = "sk-secret"};
    client.http.base_url = "http://embeddings.example.com/v1";
    agentry::embed_result r = agentry::embed(client, t, two, embed_purpose::document);
    REQUIRE(r.error);
    CHECK(r.error->kind == agentry::provider_error_kind::insecure);
    CHECK(r.error->message == "agentry: refusing to send credentials over plain http:// to 'embeddings.example.com', "
                              "which is not a loopback address; use https://, or set "
                              "http.allow_plain_http_credentials = true on the provider if the network path is trusted");
    CHECK(t.log->sent.empty());

    agentry::ollama_embeddings proxied{.model = "m"};
    proxied.http.base_url = "http://ollama.internal:11434";
    proxied.http.headers = {{"Authorization", "Bearer proxy-token"}};
    r = agentry::embed(proxied, t, two, embed_purpose::document);
    REQUIRE(r.error);
    CHECK(r.error->kind == agentry::provider_error_kind::insecure);
    CHECK(t.log->sent.empty());

    client.http.allow_plain_http_credentials = true;
    r = agentry::embed(client, t, two, embed_purpose::document);
    CHECK(r.ok());
    CHECK(t.log->sent.size() == 1);
}

TEST_CASE("embedder: vectors, or a failure naming the provider's message") {
    recording_transport t;
    t.reply(200, R"({"data":[{"embedding":[1,0]}]})")
        .reply(401, R"({"error":{"message":"Incorrect API key provided","code":"invalid_api_key"}})");
    const agentry::embedder e = agentry::make_embedder(agentry::openai_embeddings{.model = "m", .api_key = "k"}, t);
    const std::vector<std::string> one = {"hello"};
    auto ok = e(one, embed_purpose::query);
    REQUIRE(ok);
    CHECK(*ok == std::vector<std::vector<float>>{{1, 0}});
    auto failed = e(one, embed_purpose::query);
    REQUIRE_FALSE(failed);
    CHECK(failed.error().kind == agentry::failure_kind::permission);
    CHECK(failed.error().message == "agentry: embeddings request failed (authentication, HTTP 401): Incorrect API key provided");
    CHECK(t.log->sent.size() == 2);
}
