// SPDX-License-Identifier: BSL-1.0
// Tool selection on the fixture (fixture/README.md): recall@1, @5 and @10 of each selector and
// combination, the tokens a turn sends against sending every tool, and the time BM25 takes per
// turn for 200 and 2,000 tools.
//
//   agentry_select_bench FIXTURE_DIR [requests|tuning] [--embeddings URL]
//
// Recall@k of a request: the share of its labelled tools among the k tools scored highest,
// averaged over the requests. Tokens: bytes / 4 of the tools payload of each selector's top 5
// and top 10 (the estimate agentry's context budget uses), averaged, against sending every
// tool. "Turn 2" rows: requests needing two or more tools, the first one called already
// (turn_query::called), scored for the rest; learned_boost learns from every other request's
// labels (leave one out), never from the request scored. Times: the mean over every request of
// one score + top_k, the best of 5 rounds.
#include <agentry/json/value.hpp>
#include <agentry/select/bm25.hpp>
#include <agentry/select/catalog.hpp>
#include <agentry/select/learned.hpp>
#include <agentry/select/selector.hpp>
#if defined(SELECT_BENCH_EMBEDDINGS)
#include <agentry/select/embedding.hpp>
#include <agentry/select/embeddings.hpp>
#include <agentry/transport/curl.hpp>
#endif

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <fstream>
#include <functional>
#include <sstream>
#include <string>
#include <vector>

namespace {

struct request {
    std::string text;
    std::vector<std::string> tools;
};

std::string read_file(const std::string& path) {
    std::ifstream in(path);
    if (!in) {
        std::fprintf(stderr, "cannot read %s\n", path.c_str());
        std::exit(1);
    }
    std::stringstream s;
    s << in.rdbuf();
    return s.str();
}

// The fixture's tools as a catalog in the standard dialect; `copies` > 1 repeats them with
// suffixed names (for the 2,000-tool timing).
agentry::tool_catalog load_tools(const agentry::json::value& tools, std::size_t limit, std::size_t copies = 1) {
    agentry::tool_catalog c(agentry::dialect_kind::standard);
    for (std::size_t k = 0; k != copies; ++k)
        for (const agentry::json::value& t : tools.items()) {
            if (c.size() == limit) return c;
            const std::string name = t.find("name")->as_string() + (k == 0 ? "" : "_" + std::to_string(k + 1));
            agentry::json::value d = agentry::json::value::object();
            d.set("name", name);
            d.set("description", t.find("description")->as_string());
            d.set("parameters", *t.find("parameters"));
            c.add_owned(name, agentry::json::to_text(d), t.find("description")->as_string(),
                        t.find("category")->as_string(), false, true);
        }
    return c;
}

std::vector<request> load_requests(const agentry::json::value& v) {
    std::vector<request> out;
    for (const agentry::json::value& r : v.items()) {
        request q;
        q.text = r.find("text")->as_string();
        for (const agentry::json::value& t : r.find("tools")->items()) q.tools.push_back(t.as_string());
        out.push_back(std::move(q));
    }
    return out;
}

struct recall {
    double at1 = 0, at5 = 0, at10 = 0;
    double tokens5 = 0, tokens10 = 0;  // of the payload of the top 5 and the top 10
    std::size_t n = 0;
};

// Adds the tokens (bytes / 4) of the payloads of `top`'s first 5 and 10 to `r`.
void count_tokens(recall& r, const agentry::tool_catalog& c, std::vector<std::size_t> top) {
    if (top.size() > 10) top.resize(10);
    r.tokens10 += double(c.payload(top).size()) / 4;
    if (top.size() > 5) top.resize(5);
    r.tokens5 += double(c.payload(top).size()) / 4;
}

void average(recall& r) {
    if (r.n == 0) return;
    for (double* v : {&r.at1, &r.at5, &r.at10, &r.tokens5, &r.tokens10}) *v /= double(r.n);
}

using scorer = std::function<void(const agentry::tool_catalog&, const agentry::turn_query&, std::span<double>)>;

double share_in(const std::vector<std::size_t>& top, std::size_t k, const agentry::tool_catalog& c,
                const std::vector<std::string>& wanted) {
    std::size_t found = 0;
    for (const std::string& w : wanted)
        for (std::size_t i = 0; i != std::min(k, top.size()); ++i)
            if (c[top[i]].name == w) ++found;
    return wanted.empty() ? 0 : double(found) / double(wanted.size());
}

// Turn 1: the request's text alone.
recall measure(const agentry::tool_catalog& c, const std::vector<request>& requests, const scorer& s) {
    recall r;
    std::vector<double> scores;
    for (const request& q : requests) {
        agentry::turn_query query;
        query.text = q.text;
        scores.assign(c.size(), 0.0);
        s(c, query, scores);
        const std::vector<std::size_t> top = agentry::highest(scores, 10);
        r.at1 += share_in(top, 1, c, q.tools);
        r.at5 += share_in(top, 5, c, q.tools);
        r.at10 += share_in(top, 10, c, q.tools);
        count_tokens(r, c, top);
        ++r.n;
    }
    average(r);
    return r;
}

// Turn 2: the first labelled tool called; the rest wanted. `learn(i)` prepares the scorer
// without request i.
recall measure_second(const agentry::tool_catalog& c, const std::vector<request>& requests,
                      const std::function<scorer(std::size_t)>& make) {
    recall r;
    std::vector<double> scores;
    for (std::size_t i = 0; i != requests.size(); ++i) {
        const request& q = requests[i];
        if (q.tools.size() < 2) continue;
        const scorer s = make(i);
        std::vector<std::string> called{q.tools[0]};
        agentry::turn_query query;
        query.text = q.text;
        query.called = called;
        scores.assign(c.size(), 0.0);
        s(c, query, scores);
        if (const auto first = c.find(q.tools[0])) scores[*first] = 0;  // called already
        const std::vector<std::size_t> top = agentry::highest(scores, 10);
        const std::vector<std::string> rest(q.tools.begin() + 1, q.tools.end());
        r.at1 += share_in(top, 1, c, rest);
        r.at5 += share_in(top, 5, c, rest);
        r.at10 += share_in(top, 10, c, rest);
        count_tokens(r, c, top);
        ++r.n;
    }
    average(r);
    return r;
}

void row(const char* name, const recall& r) {
    std::printf("| %s | %zu | %.3f | %.3f | %.3f | %.0f | %.0f |\n", name, r.n, r.at1, r.at5, r.at10, r.tokens5,
                r.tokens10);
}

template <class S>
scorer of(S s) {
    auto shared = std::make_shared<S>(std::move(s));
    return [shared](const agentry::tool_catalog& c, const agentry::turn_query& q, std::span<double> out) {
        shared->score(c, q, out);
    };
}

// Mean microseconds of one turn's selection (score + top_k of 10), best of 5 rounds.
double time_per_turn(const agentry::tool_catalog& c, const std::vector<request>& requests) {
    agentry::bm25 b;
    const agentry::tool_chooser choose = agentry::top_k(b, 10);
    agentry::turn_query warm;
    warm.text = "warm";
    static_cast<void>(choose(c, warm));  // the index
    double best = 1e300;
    std::size_t sink = 0;
    for (int round = 0; round != 5; ++round) {
        const auto start = std::chrono::steady_clock::now();
        for (int rep = 0; rep != 20; ++rep)
            for (const request& q : requests) {
                agentry::turn_query query;
                query.text = q.text;
                sink += choose(c, query).indices.size();
            }
        const double us =
            std::chrono::duration<double, std::micro>(std::chrono::steady_clock::now() - start).count() /
            double(20 * requests.size());
        best = std::min(best, us);
    }
    if (sink == 0) std::printf("(nothing chosen)\n");
    return best;
}

double index_ms(const agentry::tool_catalog& c) {
    double best = 1e300;
    for (int round = 0; round != 5; ++round) {
        agentry::bm25 b;
        std::vector<double> scores(c.size());
        const auto start = std::chrono::steady_clock::now();
        b.score_text(c, "x", scores);
        best = std::min(best, std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - start).count());
    }
    return best;
}

} // namespace

int main(int argc, char** argv) {
    if (argc < 2) {
        std::fprintf(stderr, "usage: %s FIXTURE_DIR [requests|tuning] [--embeddings URL]\n", argv[0]);
        return 2;
    }
    const std::string dir = argv[1];
    const std::string set = argc > 2 ? argv[2] : "requests";
    const std::string embeddings_url = argc > 4 && std::string_view(argv[3]) == "--embeddings" ? argv[4] : "";
    const agentry::json::parsed tools_json = agentry::json::parse(read_file(dir + "/tools.json"));
    const agentry::json::parsed requests_json = agentry::json::parse(read_file(dir + "/" + set + ".json"));
    if (!tools_json.ok() || !requests_json.ok()) {
        std::fprintf(stderr, "the fixture is not JSON\n");
        return 1;
    }
    const agentry::tool_catalog all = load_tools(tools_json.value, std::size_t(-1));
    const std::vector<request> requests = load_requests(requests_json.value);
    std::printf("fixture: %zu tools, %zu requests (%s.json)\n\n", all.size(), requests.size(), set.c_str());

    std::printf("| selector | requests | recall@1 | recall@5 | recall@10 | tokens, top 5 | tokens, top 10 |\n"
                "|---|---|---|---|---|---|---|\n");
    row("BM25", measure(all, requests, of(agentry::bm25{})));
    row("BM25, then the best 2 categories", measure(all, requests, of(agentry::by_category(agentry::bm25{}, 2))));
    row("BM25, then the best 3 categories", measure(all, requests, of(agentry::by_category(agentry::bm25{}, 3))));
#if defined(SELECT_BENCH_EMBEDDINGS)
    if (!embeddings_url.empty()) {
        agentry::openai_embeddings client;
        client.model = "fixture-embedding";
        client.api_key = "unused";
        client.http.base_url = embeddings_url;
        const agentry::embedding_selector meaning(agentry::make_embedder(client, agentry::curl_transport{}),
                                                  client.id());
        row("embedding (the test server's)", measure(all, requests, of(meaning)));
        row("BM25 + embedding (1 : 1)",
            measure(all, requests, of(agentry::selector_sum(agentry::bm25{} * 1.0 + agentry::selector(meaning) * 1.0))));
        row("BM25 + embedding (1 : 1), then the best 3 categories",
            measure(all, requests,
                    of(agentry::by_category(agentry::bm25{} * 1.0 + agentry::selector(meaning) * 1.0, 3))));
        if (const auto e = meaning.last_error()) std::printf("embedding error: %s\n", e->message.c_str());
    } else {
        std::printf("| embedding | - | not measured: no --embeddings URL | | |\n");
    }
#else
    std::printf("| embedding | - | not measured: built without libcurl | | |\n");
#endif
    const auto learned_without = [&](std::size_t skip) {
        agentry::learned_boost follows;
        for (std::size_t j = 0; j != requests.size(); ++j)
            if (j != skip)
                for (std::size_t t = 1; t < requests[j].tools.size(); ++t)
                    follows.record(requests[j].tools[t - 1], requests[j].tools[t]);
        return follows;
    };
    row("turn 2: BM25", measure_second(all, requests, [&](std::size_t) { return of(agentry::bm25{}); }));
    row("turn 2: learned boost alone",
        measure_second(all, requests, [&](std::size_t i) { return of(learned_without(i)); }));
    row("turn 2: BM25 + learned boost (1 : 0.5)", measure_second(all, requests, [&](std::size_t i) {
            return of(agentry::selector_sum(agentry::bm25{} * 1.0 + agentry::selector(learned_without(i)) * 0.5));
        }));
    // Repeated traffic: the boost has seen these workflows before (learned from every request,
    // the one scored included), as it has in a program that runs the same tasks daily.
    const agentry::learned_boost seen = learned_without(std::size_t(-1));
    row("turn 2, workflows seen before: learned boost alone",
        measure_second(all, requests, [&](std::size_t) { return of(seen); }));
    row("turn 2, workflows seen before: BM25 + learned boost (1 : 0.5)", measure_second(all, requests, [&](std::size_t) {
            return of(agentry::selector_sum(agentry::bm25{} * 1.0 + agentry::selector(seen) * 0.5));
        }));

    // Tokens per turn of sending every tool, against which the columns above compare.
    std::vector<std::size_t> indices(all.size());
    for (std::size_t i = 0; i != indices.size(); ++i) indices[i] = i;
    std::printf("\nEvery tool (%zu) sent: %.0f tokens (bytes / 4) per turn.\n", all.size(),
                double(all.payload(indices).size()) / 4);

    const agentry::tool_catalog c200 = load_tools(tools_json.value, 200);
    const agentry::tool_catalog c2000 = load_tools(tools_json.value, 2000, 9);
    std::printf("\n| tools | BM25 + top_k(10) per turn | index built once |\n|---|---|---|\n");
    std::printf("| %zu | %.2f us | %.2f ms |\n", c200.size(), time_per_turn(c200, requests), index_ms(c200));
    std::printf("| %zu | %.2f us | %.2f ms |\n", c2000.size(), time_per_turn(c2000, requests), index_ms(c2000));
    return 0;
}
