// SPDX-License-Identifier: BSL-1.0
// Choosing each turn's tools by meaning: an agent whose select_tools is an embedding_selector
// over an OpenAI-compatible embeddings endpoint, its index saved to a file and loaded by the
// next start.
//
// So that it runs anywhere, the endpoint here is word_count_server, a transport that answers as
// such a server would, with vectors that count a few words. A program passes
// agentry::curl_transport{} and a real model instead; the agent's model is scripted too.

#include <agentry/agent.hpp>
#include <agentry/agentry.hpp>
#include <agentry/json/value.hpp>
#include <agentry/provider/scripted.hpp>
#include <agentry/select/embedding.hpp>
#include <agentry/select/selector.hpp>

#include <cstddef>
#include <cstdio>
#include <fstream>
#include <optional>
#include <sstream>
#include <string>
#include <string_view>
#include <utility>

struct weather_query {
    std::string city;
    static constexpr auto docs = agentry::field_docs("city", "City name, e.g. 'Lisbon'");
};

constexpr agentry::registry tools{
    agentry::tool<"get_weather", "Current weather and rain for a city">(
        +[](const weather_query& q) { return "Sunny in " + q.city; }),
    agentry::tool<"send_email", "Send an email", "to", "body">(
        +[](std::string to, std::string) { return "sent to " + to; }),
    agentry::tool<"read_file", "Read a text file", "path">(+[](std::string path) { return "read " + path; }),
};

constexpr agentry::loop_config config{.max_turns = 4};

// Answers POST .../embeddings as an OpenAI-compatible server: one vector per input, counting
// the words "weather", "rain", "email" and "file" in it.
struct word_count_server {
    std::size_t* requests;

    agentry::transport_result send(const agentry::http_request& request) {
        ++*requests;
        const agentry::json::parsed body = agentry::json::parse(request.body);
        std::string data;
        std::size_t index = 0;
        for (const agentry::json::value& input : body.value.find("input")->items()) {
            const std::string& text = input.as_string();
            std::string vector;
            for (std::string_view word : {"weather", "rain", "email", "file"}) {
                int n = 0;
                for (std::size_t at = text.find(word); at != std::string::npos; at = text.find(word, at + 1)) ++n;
                vector += (vector.empty() ? "" : ",") + std::to_string(n);
            }
            data += (data.empty() ? "" : ",") + std::string(R"({"index":)") + std::to_string(index++) +
                    R"(,"embedding":[)" + vector + "]}";
        }
        agentry::transport_result r;
        r.response.status = 200;
        r.response.body = R"({"object":"list","data":[)" + data + "]}";
        return r;
    }
    agentry::transport_result stream(const agentry::http_request& request, agentry::stream_handlers&) {
        return send(request);
    }
};

int main(int argc, char** argv) {
    const std::string saved_path = argc > 1 ? argv[1] : "tools.embeddings.json";
    std::size_t requests = 0;

    agentry::openai_embeddings client;
    client.model = "word-counts";
    client.http.base_url = "http://127.0.0.1:8080/v1";
    agentry::embedding_selector by_meaning{agentry::make_embedder(client, word_count_server{&requests}), client.id()};
    if (std::ifstream in{saved_path}) {
        std::stringstream text;
        text << in.rdbuf();
        if (agentry::outcome<void> loaded = by_meaning.load(text.str()); !loaded)
            std::printf("not loaded: %s\n", loaded.error().message.c_str());
    }

    // The model: it says which tools it was sent, then answers.
    agentry::scripted_model model{[](const agentry::chat_request& request) {
        const agentry::json::parsed sent = agentry::json::parse(request.tools);
        for (const agentry::json::value& tool : sent.value.items())
            std::printf("sent: %s\n", tool.find("name")->as_string().c_str());
        return agentry::scripted_model::answer("Take an umbrella.");
    }};
    agentry::agent_options options;
    options.select_tools = agentry::top_k(by_meaning, 1);
    agentry::agent<config> agent{model, tools, std::move(options), agentry::scripted_transport{}};
    agent.run("Will it rain in Lisbon today?");
    if (const std::optional<agentry::failure> error = by_meaning.last_error())
        std::printf("every tool sent: %s\n", error->message.c_str());

    std::ofstream(saved_path) << by_meaning.save();
    std::printf("requests: %zu, vectors saved: %zu\n", requests, by_meaning.cached());
}
