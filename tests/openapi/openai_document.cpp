// SPDX-License-Identifier: BSL-1.0
// The OpenAI API's OpenAPI 3.1 document (../shared/testdata/openai-openapi/openapi.json, about
// 3.4 MB): read once (the time printed, not asserted), its tools made in the openai and
// anthropic dialects, each definition valid JSON naming its tool; the counts printed and checked
// against the operations read; the operations left out are printed. Then all its tools join an
// agent in the openai dialect (past its 128 tools per request, which applies to each turn's
// choice) whose turns BM25 chooses: the tools sent for a few requests are checked. Exit code 77
// when the file is absent.
#include <agentry/agent.hpp>
#include <agentry/openapi/toolset.hpp>
#include <agentry/provider/scripted.hpp>
#include <agentry/registry.hpp>
#include <agentry/select/bm25.hpp>
#include <agentry/select/selector.hpp>

#include <chrono>
#include <cstdio>
#include <fstream>
#include <sstream>
#include <string>

namespace {

struct no_network {
    agentry::transport_result send(const agentry::http_request&) {
        return {{}, {agentry::transport_error_kind::other, "no network in this test"}};
    }
    agentry::transport_result stream(const agentry::http_request& r, agentry::stream_handlers&) { return send(r); }
};

template <class D>
int count(const agentry::openapi::toolset& api, std::size_t& made) {
    std::size_t left_out = 0;
    agentry::dynamic_tools_target target;
    target.kind = D::kind;
    target.rules = D::rules;
    const agentry::dynamic_tool_source source = api;
    const auto tools = source(target);
    if (!tools) {
        std::printf("FAIL: %s\n", tools.error().message.c_str());
        return 1;
    }
    std::size_t bytes = 0;
    for (const agentry::dynamic_tool& t : *tools) {
        bytes += t.definition.size();
        const agentry::json::parsed p = agentry::json::parse(t.definition);
        if (!p.ok() || !p.value.is_object() || t.definition.find("\"" + t.name + "\"") == std::string::npos) {
            std::printf("FAIL: the definition of %s is not valid JSON naming it: %s\n", t.name.c_str(), t.definition.c_str());
            return 1;
        }
    }
    made = tools->size();
    left_out = api.size() - made;
    std::printf("%.*s: %zu tools (definitions: %zu bytes), %zu operations left out\n", int(D::rules.name.size()),
                D::rules.name.data(), made, bytes, left_out);
    return 0;
}

// The scripted model in the openai dialect (at most 128 tools per request).
struct openai_scripted : agentry::scripted_model {
    using dialect = agentry::dialect::openai;
    using scripted_model::scripted_model;
};

// The tools BM25 sends for `request`, out of the document's, as "name name ..."; the first must
// be `expected`.
int chosen(const agentry::openapi::toolset& api, const char* request, const char* expected) {
    std::string sent;
    openai_scripted model{[&sent](const agentry::chat_request& r) {
        const agentry::json::parsed tools = agentry::json::parse(r.tools);
        for (const agentry::json::value& t : tools.value.items())
            sent += (sent.empty() ? "" : " ") + t.find("function")->find("name")->as_string();
        return agentry::scripted_model::answer("ok");
    }};
    constexpr agentry::registry none{};
    agentry::agent<agentry::loop_config{}> agent{
        model, none, {.select_tools = agentry::top_k(agentry::bm25{}, 3, {.all_without_evidence = false})},
        agentry::scripted_transport{}};
    if (const auto added = agent.add_tools(api); !added) {
        std::printf("FAIL: add_tools: %s\n", added.error().message.c_str());
        return 1;
    }
    static_cast<void>(agent.run(request));
    std::printf("\"%s\": %s\n", request, sent.c_str());
    if (!sent.starts_with(std::string(expected) + " ")) {
        std::printf("FAIL: expected %s\n", expected);
        return 1;
    }
    return 0;
}

} // namespace

int main(int argc, char** argv) {
    std::ifstream in(argc > 1 ? argv[1] : "");
    if (!in) {
        std::printf("SKIP: %s not found (../shared/testdata/openai-openapi)\n", argc > 1 ? argv[1] : "the document");
        return 77;
    }
    std::stringstream text;
    text << in.rdbuf();
    const std::string document = text.str();
    agentry::openapi::toolset_options options;
    options.report = [](std::string_view m) { std::printf("%.*s\n", int(m.size()), m.data()); };
    const auto start = std::chrono::steady_clock::now();
    auto api = agentry::openapi::toolset::load(document, no_network{}, options);
    const auto loaded = std::chrono::steady_clock::now();
    if (!api) {
        std::printf("FAIL: %s\n", api.error().message.c_str());
        return 1;
    }
    std::size_t openai = 0, anthropic = 0;
    if (count<agentry::dialect::openai>(*api, openai) != 0 || count<agentry::dialect::anthropic>(*api, anthropic) != 0)
        return 1;
    const auto made = std::chrono::steady_clock::now();
    const auto ms = [](auto d) { return std::chrono::duration_cast<std::chrono::milliseconds>(d).count(); };
    std::printf("%zu operations in %zu bytes; load %lld ms, tools for both dialects %lld ms\n", api->size(),
                document.size(), static_cast<long long>(ms(loaded - start)), static_cast<long long>(ms(made - loaded)));
    // Most operations must become tools; the rest are reported (cycles, dialect limits).
    if (api->size() < 100 || openai * 2 < api->size() || anthropic * 2 < api->size()) {
        std::printf("FAIL: too few tools\n");
        return 1;
    }
    if (chosen(*api, "Turn these sentences into embedding vectors", "createEmbedding") != 0 ||
        chosen(*api, "Cancel my batch job", "cancelBatch") != 0)
        return 1;
    std::printf("ok\n");
    return 0;
}
