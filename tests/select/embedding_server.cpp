// SPDX-License-Identifier: BSL-1.0
// The embeddings clients and embedding_selector over agentry::curl_transport against
// benchmarks/select/fixture/embedding_server.mjs (a deterministic embedding server in Node.js,
// started once on 127.0.0.1 for the program, stopped by closing its standard input). Without
// node or the script the program prints why and exits with 77 (skipped).

#include <agentry/json/value.hpp>
#include <agentry/select/embedding.hpp>
#include <agentry/select/embeddings.hpp>
#include <agentry/select/selector.hpp>
#include <agentry/transport/curl.hpp>

#include <doctest/doctest.h>

#include <cerrno>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <sstream>
#include <string>
#include <vector>

#include <fcntl.h>
#include <spawn.h>
#include <sys/wait.h>
#include <unistd.h>

extern char** environ;

namespace {

class embedding_server {
public:
    static embedding_server& get() {
        static embedding_server server;
        return server;
    }
    std::string url(const std::string& path) const { return "http://127.0.0.1:" + std::to_string(port_) + path; }

    embedding_server(const embedding_server&) = delete;
    embedding_server& operator=(const embedding_server&) = delete;
    ~embedding_server() {
        if (stdin_fd_ >= 0) ::close(stdin_fd_);
        if (pid_ > 0) {
            int status = 0;
            ::waitpid(pid_, &status, 0);
        }
    }

private:
    embedding_server() {
        const std::string node = AGENTRY_NODE;
        const std::string script = AGENTRY_EMBEDDING_SERVER;
        if (node.empty()) skip("node was not found when the project was configured");
        if (::access(script.c_str(), R_OK) != 0) skip(("no " + script).c_str());
        int in[2], out[2];
        if (::pipe2(in, O_CLOEXEC) != 0 || ::pipe2(out, O_CLOEXEC) != 0) fail("pipe2 failed");
        posix_spawn_file_actions_t actions;
        posix_spawn_file_actions_init(&actions);
        posix_spawn_file_actions_adddup2(&actions, in[0], 0);
        posix_spawn_file_actions_adddup2(&actions, out[1], 1);
        // Port 0 (any), at most 10000 requests, at most 300 seconds.
        char port[] = "0", requests[] = "10000", seconds[] = "300";
        char* argv[] = {const_cast<char*>(node.c_str()), const_cast<char*>(script.c_str()), port, requests, seconds, nullptr};
        const int spawned = ::posix_spawn(&pid_, node.c_str(), &actions, nullptr, argv, environ);
        posix_spawn_file_actions_destroy(&actions);
        ::close(in[0]);
        ::close(out[1]);
        stdin_fd_ = in[1];
        if (spawned != 0) {
            pid_ = 0;
            skip(("node could not be started: " + node).c_str());
        }
        std::string line;
        char c = 0;
        while (line.size() < 20) {
            const ssize_t n = ::read(out[0], &c, 1);
            if (n < 0 && errno == EINTR) continue;
            if (n <= 0 || c == '\n') break;
            line.push_back(c);
        }
        ::close(out[0]);
        if (std::sscanf(line.c_str(), "%d", &port_) != 1 || port_ <= 0)
            fail(("embedding_server.mjs did not print its port; it printed: " + line).c_str());
    }

    [[noreturn]] static void skip(const char* why) {
        std::printf("SKIP: %s; these tests need Node.js 20 and benchmarks/select/fixture/embedding_server.mjs\n", why);
        std::fflush(stdout);
        std::exit(77);
    }
    [[noreturn]] static void fail(const char* why) {
        std::printf("FAIL: %s\n", why);
        std::fflush(stdout);
        std::exit(1);
    }

    pid_t pid_ = 0;
    int stdin_fd_ = -1;
    int port_ = 0;
};

/// The server's count of `what` ("requests" or "texts") at `endpoint` so far.
long server_count(const std::string& what, const std::string& endpoint) {
    agentry::curl_transport t;
    agentry::http_request r;
    r.method = "GET";
    r.url = embedding_server::get().url("/stats");
    const agentry::transport_result got = t.send(r);
    REQUIRE(got.ok());
    const agentry::json::parsed stats = agentry::json::parse(got.response.body);
    REQUIRE(stats.ok());
    return static_cast<long>(stats.value.find(what)->find(endpoint)->as_int64().value_or(-1));
}

agentry::openai_embeddings openai_client() {
    agentry::openai_embeddings c{.model = "test-embed", .api_key = "sk-test"};
    c.http.base_url = embedding_server::get().url("/v1");
    return c;
}
agentry::gemini_embeddings gemini_client() {
    agentry::gemini_embeddings c{.model = "test-embed", .api_key = "g-test"};
    c.http.base_url = embedding_server::get().url("/v1beta");
    return c;
}
agentry::ollama_embeddings ollama_client() {
    agentry::ollama_embeddings c{.model = "test-embed"};
    c.http.base_url = embedding_server::get().url("");
    return c;
}

const std::vector<std::string> texts = {"Will it rain in Lisbon tomorrow?", "send an email to Ana"};

double norm(const std::vector<float>& v) {
    double s = 0;
    for (float x : v) s += double(x) * double(x);
    return std::sqrt(s);
}

} // namespace

TEST_CASE("embedding server: the three clients get the same vectors for the same texts") {
    agentry::curl_transport t;
    const long openai = server_count("requests", "openai"), gemini_requests = server_count("requests", "gemini_batch"),
               ollama_requests = server_count("requests", "ollama");
    const agentry::embed_result a = agentry::embed(openai_client(), t, texts, agentry::embed_purpose::document);
    const agentry::embed_result b = agentry::embed(gemini_client(), t, texts, agentry::embed_purpose::query);
    const agentry::embed_result c = agentry::embed(ollama_client(), t, texts, agentry::embed_purpose::document);
    REQUIRE(a.ok());
    REQUIRE(b.ok());
    REQUIRE(c.ok());
    REQUIRE(a.vectors.size() == 2);
    CHECK(a.vectors[0].size() == 256);
    CHECK(std::abs(norm(a.vectors[0]) - 1) < 1e-5);
    CHECK(a.vectors[0] != a.vectors[1]);
    CHECK(b.vectors == a.vectors);
    CHECK(c.vectors == a.vectors);
    CHECK(server_count("requests", "openai") == openai + 1);
    CHECK(server_count("requests", "gemini_batch") == gemini_requests + 1);
    CHECK(server_count("requests", "ollama") == ollama_requests + 1);
}

TEST_CASE("embedding server: batches") {
    agentry::curl_transport t;
    agentry::gemini_embeddings client = gemini_client();
    client.batch = 2;
    const long requests = server_count("requests", "gemini_batch"), embedded = server_count("texts", "gemini_batch");
    const std::vector<std::string> five = {"one", "two", "three", "four", "five"};
    const agentry::embed_result r = agentry::embed(client, t, five, agentry::embed_purpose::document);
    REQUIRE(r.ok());
    CHECK(r.vectors.size() == 5);
    CHECK(server_count("requests", "gemini_batch") == requests + 3);
    CHECK(server_count("texts", "gemini_batch") == embedded + 5);
}

TEST_CASE("embedding server: errors") {
    agentry::curl_transport t;
    agentry::openai_embeddings no_model = openai_client();
    no_model.model.clear();
    agentry::embed_result r = agentry::embed(no_model, t, texts, agentry::embed_purpose::document);
    REQUIRE(r.error);
    CHECK(r.error->kind == agentry::provider_error_kind::bad_request);
    CHECK(r.error->status == 400);
    CHECK(r.error->message == "you must provide a model parameter");

    agentry::ollama_embeddings ollama = ollama_client();
    ollama.model.clear();
    r = agentry::embed(ollama, t, texts, agentry::embed_purpose::document);
    REQUIRE(r.error);
    CHECK(r.error->message == "model is required");

    agentry::openai_embeddings wrong_path = openai_client();
    wrong_path.http.base_url = embedding_server::get().url("/v2");
    r = agentry::embed(wrong_path, t, texts, agentry::embed_purpose::document);
    REQUIRE(r.error);
    CHECK(r.error->status == 404);
    CHECK(r.error->message == "no endpoint POST /v2/embeddings");
}

TEST_CASE("embedding server: the fixture's tools indexed once, then saved and loaded") {
    std::ifstream in(AGENTRY_FIXTURE_TOOLS);
    REQUIRE(in);
    std::stringstream text;
    text << in.rdbuf();
    const agentry::json::parsed tools = agentry::json::parse(text.str(), {.max_size = std::size_t(16) << 20});
    REQUIRE(tools.ok());
    agentry::tool_catalog catalog(agentry::dialect_kind::standard);
    for (const agentry::json::value& tool : tools.value.items())
        catalog.add_owned(tool.find("name")->as_string(), agentry::json::to_text(tool),
                          tool.find("description")->as_string(), tool.find("category")->as_string(), false, false);
    REQUIRE(catalog.size() == 249);

    const agentry::ollama_embeddings client = ollama_client();
    agentry::embedding_selector first(agentry::make_embedder(client, agentry::curl_transport{}), client.id());
    const long requests = server_count("requests", "ollama"), embedded = server_count("texts", "ollama");
    agentry::turn_query turn;
    turn.text = "will it rain in lisbon tomorrow";
    const agentry::active_tools chosen = agentry::top_k(first, 5)(catalog, turn);
    CHECK_FALSE(first.last_error());
    REQUIRE(chosen.indices.size() == 5);
    // The five highest of the cosines computed here from the same server's vectors.
    std::vector<std::string> tool_texts;
    for (const agentry::catalog_entry& e : catalog.entries()) tool_texts.push_back(agentry::embedding_text(e));
    agentry::curl_transport t;
    const agentry::embed_result tool_vectors = agentry::embed(client, t, tool_texts, agentry::embed_purpose::document);
    const agentry::embed_result query_vector =
        agentry::embed(client, t, std::vector<std::string>{std::string(turn.text)}, agentry::embed_purpose::query);
    REQUIRE(tool_vectors.ok());
    REQUIRE(query_vector.ok());
    std::vector<double> cosines;
    for (const std::vector<float>& v : tool_vectors.vectors)
        cosines.push_back(agentry::detail::positive_cosine(query_vector.vectors[0], v));
    CHECK(chosen.indices == agentry::highest(cosines, 5));
    // 249 tools in batches of 64, then the query; the same again for the check above.
    CHECK(server_count("requests", "ollama") == requests + 2 * (4 + 1));
    CHECK(server_count("texts", "ollama") == embedded + 2 * (249 + 1));
    CHECK(first.cached() == 249);

    agentry::embedding_selector second(agentry::make_embedder(client, agentry::curl_transport{}), client.id());
    REQUIRE(second.load(first.save()));
    const agentry::active_tools again = agentry::top_k(second, 5)(catalog, turn);
    CHECK(again.indices == chosen.indices);
    CHECK(server_count("requests", "ollama") == requests + 2 * (4 + 1) + 1);
    CHECK(server_count("texts", "ollama") == embedded + 2 * (249 + 1) + 1);
}
