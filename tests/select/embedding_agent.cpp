// SPDX-License-Identifier: BSL-1.0
// An agent choosing each turn's tools with embedding_selector (agent_options::select_tools): a
// scripted model records the tools payload of each turn; the embeddings come from an Ollama
// client over a transport that answers with word counts.

#include <agentry/agent.hpp>
#include <agentry/json/value.hpp>
#include <agentry/provider/scripted.hpp>
#include <agentry/registry.hpp>
#include <agentry/select/embedding.hpp>
#include <agentry/select/selector.hpp>

#include <doctest/doctest.h>

#include <memory>
#include <string>
#include <string_view>
#include <vector>

namespace {

struct city_query {
    std::string city;
    static constexpr auto docs = agentry::field_docs("city", "City name, e.g. Lyon");
};

constexpr agentry::registry tools{
    agentry::tool<"get_forecast", "Weather forecast for a city: rain, temperature, wind.">(
        +[](const city_query& q) { return q.city + ": 18 C, rain"; }),
    agentry::tool<"send_email", "Send an email", "to", "body">(
        +[](std::string to, std::string) { return "sent to " + to; }),
    agentry::tool<"read_file", "Read a text file", "path">(+[](std::string path) { return "read " + path; }),
};

constexpr agentry::loop_config config{.max_turns = 4};

// Answers POST /api/embed with one vector per input counting "rain", "weather", "email" and
// "file"; or, when `status` is set, with that status and an Ollama error body.
struct word_counts {
    std::shared_ptr<std::vector<std::string>> bodies = std::make_shared<std::vector<std::string>>();
    std::shared_ptr<int> status = std::make_shared<int>(200);

    agentry::transport_result send(const agentry::http_request& request) {
        bodies->push_back(request.body);
        agentry::transport_result r;
        r.response.status = *status;
        if (*status != 200) {
            r.response.body = R"({"error":"model \"words\" not found, try pulling it first"})";
            return r;
        }
        const agentry::json::parsed body = agentry::json::parse(request.body);
        std::string out;
        for (const agentry::json::value& input : body.value.find("input")->items()) {
            const std::string& text = input.as_string();
            std::string vector;
            for (std::string_view word : {"rain", "weather", "email", "file"}) {
                int n = 0;
                for (std::size_t at = text.find(word); at != std::string::npos; at = text.find(word, at + 1)) ++n;
                vector += (vector.empty() ? "" : ",") + std::to_string(n);
            }
            out += (out.empty() ? "[" : ",[") + vector + "]";
        }
        r.response.body = R"({"model":"words","embeddings":[)" + out + "]}";
        return r;
    }
    agentry::transport_result stream(const agentry::http_request& request, agentry::stream_handlers&) {
        return send(request);
    }
};

// A model that records each turn's tools payload, calls `first_call` on the first turn, then answers.
struct recorder {
    std::shared_ptr<std::vector<std::string>> payloads = std::make_shared<std::vector<std::string>>();
    agentry::tool_call first_call;

    agentry::scripted_model model() const {
        return agentry::scripted_model{[p = payloads, c = first_call](const agentry::chat_request& r) {
            p->emplace_back(r.tools);
            if (p->size() == 1 && !c.name.empty()) return agentry::scripted_model::calls({c});
            return agentry::scripted_model::answer("done");
        }};
    }
};

std::vector<std::string> names_in(std::string_view payload) {
    std::vector<std::string> out;
    const std::string_view key = R"("name":")";
    for (std::size_t at = payload.find(key); at != std::string_view::npos; at = payload.find(key, at + 1)) {
        const std::size_t start = at + key.size();
        out.emplace_back(payload.substr(start, payload.find('"', start) - start));
    }
    return out;
}

using names = std::vector<std::string>;

} // namespace

TEST_CASE("agent with embedding_selector - each turn sends the closest tool, the index is embedded once") {
    word_counts server;
    const agentry::ollama_embeddings client{.model = "words"};
    agentry::embedding_selector by_meaning(agentry::make_embedder(client, server), client.id());
    recorder rec;
    rec.first_call = {"c1", "get_forecast", R"({"city":"Lyon"})", {}};
    agentry::agent_options options;
    options.select_tools = agentry::top_k(by_meaning, 1);
    agentry::agent<config> agent{rec.model(), tools, std::move(options), agentry::scripted_transport{}};

    agentry::run_result r = agent.run("Will it rain in Lyon?");
    CHECK(r.stop == agentry::stop_reason::completed);
    REQUIRE(rec.payloads->size() == 2);
    CHECK(names_in((*rec.payloads)[0]) == names{"get_forecast"});
    CHECK(names_in((*rec.payloads)[1]) == names{"get_forecast"});
    REQUIRE(server.bodies->size() == 2);  // the three tools, then the question once for both turns
    CHECK((*server.bodies)[0] ==
          R"({"model":"words","input":["get_forecast\nWeather forecast for a city: rain, temperature, wind.\ncity: City name, e.g. Lyon",)"
          R"("send_email\nSend an email","read_file\nRead a text file"]})");
    CHECK((*server.bodies)[1] == R"({"model":"words","input":["Will it rain in Lyon?"]})");
    CHECK(by_meaning.cached() == 3);

    rec.payloads->clear();
    r = agent.run("Please email the report to Ana");
    CHECK(r.stop == agentry::stop_reason::completed);
    REQUIRE(rec.payloads->size() == 2);
    // The closest tool, and get_forecast, called earlier in the conversation (keep_called).
    CHECK(names_in((*rec.payloads)[0]) == names{"get_forecast", "send_email"});
    REQUIRE(server.bodies->size() == 3);  // the new question only
    CHECK((*server.bodies)[2] == R"({"model":"words","input":["Please email the report to Ana"]})");
    CHECK_FALSE(by_meaning.last_error());
}

TEST_CASE("agent with embedding_selector - a failing embeddings endpoint sends every tool and is recorded") {
    word_counts server;
    *server.status = 404;
    const agentry::ollama_embeddings client{.model = "words"};
    agentry::embedding_selector by_meaning(agentry::make_embedder(client, server), client.id());
    recorder rec;
    agentry::agent_options options;
    options.select_tools = agentry::top_k(by_meaning, 1);
    agentry::agent<config> agent{rec.model(), tools, std::move(options), agentry::scripted_transport{}};

    const agentry::run_result r = agent.run("Will it rain in Lyon?");
    CHECK(r.stop == agentry::stop_reason::completed);
    REQUIRE(rec.payloads->size() == 1);
    CHECK(names_in((*rec.payloads)[0]) == names{"get_forecast", "send_email", "read_file"});
    REQUIRE(by_meaning.last_error());
    CHECK(by_meaning.last_error()->message ==
          "agentry: embeddings request failed (bad_request, HTTP 404): model \"words\" not found, try pulling it first");
}
