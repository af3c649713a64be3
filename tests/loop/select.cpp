// SPDX-License-Identifier: BSL-1.0
// Tools chosen per turn (agent_options::select_tools, select/): the payload of each turn joined
// from the catalog's constant fragments in catalog order, BM25 over registry and added tools,
// categories, composition, and a chooser's mistakes stopping the run with their exact text.
#include <agentry/agent.hpp>
#include <agentry/provider/scripted.hpp>
#include <agentry/registry.hpp>
#include <agentry/select/bm25.hpp>
#include <agentry/select/category.hpp>
#include <agentry/select/learned.hpp>
#include <agentry/select/selector.hpp>
#include <agentry/select/tools_named.hpp>

#include <doctest/doctest.h>

#include <memory>
#include <string>
#include <string_view>
#include <vector>

namespace {

struct city_query {
    std::string city;
    static constexpr auto docs = agentry::field_docs("city", "City name, e.g. Paris");
};

std::string weather(const city_query& q) { return q.city + ": 18 C, rain"; }
std::string hotels(const city_query& q) { return q.city + ": Hotel du Nord"; }

constexpr agentry::registry tools{
    agentry::in_category<"weather">(
        agentry::tool<"get_forecast", "Weather forecast for a city: rain, temperature, wind.">(weather)),
    agentry::in_category<"travel">(agentry::tool<"find_hotels", "Hotels with free rooms in a city.">(hotels)),
    agentry::in_category<"travel">(agentry::tool<"find_trains", "Train connections between two cities.", "from", "to">(
        +[](std::string from, std::string to) { return from + " -> " + to + ": 08:15"; })),
    agentry::tool<"add", "Add two integers.", "a", "b">(+[](int a, int b) { return a + b; }),
};
using tools_type = decltype(tools);

static_assert(tools_type::categories[0] == "weather" && tools_type::categories[3].empty());
static_assert(agentry::categories<tools_type>().size() == 2);
static_assert(agentry::category_schema<tools_type>() == R"({"type":"string","enum":["weather","travel"]})");
// Each fragment is the tool's own element of the whole payload.
static_assert(tools_type::definitions<agentry::dialect::openai>().find(
                  tools_type::definition_fragments<agentry::dialect::openai>()[2]) != std::string_view::npos);
static_assert(tools_type::definition_fragments<agentry::dialect::gemini>()[0].starts_with(
    R"({"name":"get_forecast","description":"Weather forecast)"));

constexpr agentry::loop_config config{.max_turns = 4};

// A model that records each turn's tools payload and calls `calls` in order, then answers.
struct recorder {
    std::shared_ptr<std::vector<std::string>> payloads = std::make_shared<std::vector<std::string>>();
    std::shared_ptr<std::vector<agentry::tool_call>> calls = std::make_shared<std::vector<agentry::tool_call>>();

    agentry::scripted_model model() const {
        return agentry::scripted_model{[p = payloads, c = calls](const agentry::chat_request& r) {
            p->emplace_back(r.tools);
            if (p->size() <= c->size()) return agentry::scripted_model::calls({(*c)[p->size() - 1]});
            return agentry::scripted_model::answer("done");
        }};
    }
};

// The names in a payload, in order.
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

TEST_CASE("tool catalog - the payload of a subset in catalog order, Gemini's shape, the deferred form") {
    agentry::tool_catalog c(agentry::dialect_kind::standard);
    c.add_owned("b", R"({"name":"b"})", "B", "", false, true);
    c.add_owned("a", R"({"name":"a"})", "A", "x", false, true);
    c.add_owned("s", R"({"name":"s"})", "S", "", true, true);
    const std::vector<std::size_t> chosen{1, 0, 1};
    CHECK(c.payload(chosen) == R"([{"name":"b"},{"name":"a"},{"name":"s"}])");
    CHECK(c.payload({}) == R"([{"name":"s"}])");
    const std::vector<std::size_t> one{1};
    CHECK(c.deferred_payload(one) == R"([{"name":"b","defer_loading":true},{"name":"a"},{"name":"s"}])");
    CHECK(c.find("a") == 1);
    CHECK(!c.find("z"));
    CHECK(c[1].category == "x");
    CHECK(c.version() == 3);

    agentry::tool_catalog g(agentry::dialect_kind::gemini);
    g.add_owned("f", R"({"name":"f"})", "", "", false, true);
    CHECK(g.payload(one) == "[]");
    const std::vector<std::size_t> first{0};
    CHECK(g.payload(first) == R"([{"functionDeclarations":[{"name":"f"}]}])");
}

TEST_CASE("bm25 - registry terms computed at compile time equal those read at run time") {
    agentry::tool_catalog c(agentry::dialect_kind::standard);
    const auto fragments = tools_type::definition_fragments<agentry::dialect::standard>();
    for (std::size_t i = 0; i != tools_type::size(); ++i)
        c.add_constant({tools_type::names[i], fragments[i], tools_type::descriptions[i], tools_type::categories[i],
                        false, false});
    agentry::bm25 constant = agentry::bm25::of(tools);
    agentry::bm25 read;
    std::vector<double> a(c.size()), b(c.size());
    constant.score_text(c, "Will it rain in Lyon tomorrow? And a hotel there?", a);
    read.score_text(c, "Will it rain in Lyon tomorrow? And a hotel there?", b);
    for (std::size_t i = 0; i != c.size(); ++i) {
        CHECK(constant.terms_of(i) == read.terms_of(i));
        CHECK(a[i] == b[i]);
    }
    CHECK(a[0] > 0);  // rain
    CHECK(a[1] > 0);  // hotel
    CHECK(a[2] == 0);
    CHECK(a[3] == 0);
    CHECK(a[1] > a[0]);  // "hotel" is in find_hotels's name, which counts more
    CHECK(agentry::highest(a, 4) == std::vector<std::size_t>{1, 0});
}

TEST_CASE("select_tools - each turn sends the tools BM25 ranks highest, then the ones called stay") {
    recorder rec;
    rec.calls->push_back({"c1", "get_forecast", R"({"city":"Lyon"})", {}});
    agentry::agent<config> agent{rec.model(), tools, {.select_tools = agentry::top_k(agentry::bm25::of(tools), 1)},
                                 agentry::scripted_transport{}};
    const agentry::run_result r = agent.run("Will it rain in Lyon?");
    CHECK(r.stop == agentry::stop_reason::completed);
    REQUIRE(rec.payloads->size() == 2);
    CHECK(names_in((*rec.payloads)[0]) == names{"get_forecast"});
    CHECK(names_in((*rec.payloads)[1]) == names{"get_forecast"});
    // The payload is the constant fragment itself, in the array.
    CHECK((*rec.payloads)[0] ==
          "[" + std::string(tools_type::definition_fragments<agentry::dialect::standard>()[0]) + "]");
}

TEST_CASE("select_tools - a subset keeps catalog order whatever the ranking") {
    recorder rec;
    agentry::agent<config> agent{rec.model(), tools, {.select_tools = agentry::top_k(agentry::bm25::of(tools), 3)},
                                 agentry::scripted_transport{}};
    static_cast<void>(agent.run("Trains from Lyon to Paris, a hotel, and the rain forecast?"));
    REQUIRE(rec.payloads->size() == 1);
    CHECK(names_in((*rec.payloads)[0]) == names{"get_forecast", "find_hotels", "find_trains"});
}

TEST_CASE("select_tools - with no evidence every tool is sent, or none by option") {
    recorder rec;
    agentry::agent<config> every{rec.model(), tools, {.select_tools = agentry::top_k(agentry::bm25::of(tools), 2)},
                                 agentry::scripted_transport{}};
    static_cast<void>(every.run("Hello there"));
    CHECK((*rec.payloads)[0] == tools_type::definitions<agentry::dialect::standard>());

    recorder none;
    agentry::agent<config> quiet{
        none.model(), tools,
        {.select_tools = agentry::top_k(agentry::bm25::of(tools), 2, {.all_without_evidence = false})},
        agentry::scripted_transport{}};
    static_cast<void>(quiet.run("Hello there"));
    CHECK((*none.payloads)[0] == "[]");
}

TEST_CASE("select_tools - added tools are indexed at run time and chosen with the registry's") {
    recorder rec;
    agentry::agent<config> agent{rec.model(), tools, {.select_tools = agentry::top_k(agentry::bm25::of(tools), 2)},
                                 agentry::scripted_transport{}};
    const auto added = agent.add_tools([](const agentry::dynamic_tools_target&) {
        agentry::dynamic_tool t;
        t.name = "book_table";
        t.definition = R"({"name":"book_table","description":"Reserve a restaurant table for dinner.",)"
                       R"("parameters":{"type":"object","properties":{"guests":{"type":"integer"}}}})";
        t.category = "food";
        t.call = [](std::string_view, const agentry::call_scope&) { return agentry::tool_result{}; };
        return agentry::outcome<std::vector<agentry::dynamic_tool>>(std::vector<agentry::dynamic_tool>{t});
    });
    REQUIRE(added);
    static_cast<void>(agent.run("Reserve a table for dinner, and is rain coming?"));
    CHECK(names_in((*rec.payloads)[0]) == names{"get_forecast", "book_table"});
}

TEST_CASE("select_tools - two stages by category keep only the best categories' tools") {
    recorder rec;
    // BM25 ranks find_hotels and get_forecast; with one category kept, only travel's tools remain.
    agentry::agent<config> agent{
        rec.model(), tools,
        {.select_tools = agentry::top_k(agentry::by_category(agentry::bm25::of(tools), 1), 3)},
        agentry::scripted_transport{}};
    static_cast<void>(agent.run("A hotel room in Lyon, and trains from Paris to Lyon?"));
    CHECK(names_in((*rec.payloads)[0]) == names{"find_hotels", "find_trains"});
}

TEST_CASE("select_tools - weighted sums scale each part before adding") {
    agentry::tool_catalog c(agentry::dialect_kind::standard);
    for (const char* n : {"x", "y", "z"}) c.add_owned(n, "{}", "", "", false, true);
    struct fixed {
        std::vector<double> v;
        void score(const agentry::tool_catalog&, const agentry::turn_query&, std::span<double> out) {
            for (std::size_t i = 0; i != out.size(); ++i) out[i] += v[i];
        }
    };
    const agentry::selector sum = agentry::selector(fixed{{100, 50, 0}}) * 0.5 + agentry::selector(fixed{{0, 1, 2}}) * 1.0;
    std::vector<double> out(3);
    sum.score(c, {}, out);
    CHECK(out == std::vector<double>{0.5, 0.75, 1.0});
}

TEST_CASE("select_tools - a chooser naming no tool stops the run with its exact text") {
    recorder rec;
    agentry::agent<config> agent{rec.model(), tools,
                                 {.select_tools = [](const agentry::tool_catalog&, const agentry::turn_query&) {
                                     agentry::active_tools a;
                                     a.names = {"find_hotels", "fly"};
                                     return a;
                                 }},
                                 agentry::scripted_transport{}};
    const agentry::run_result r = agent.run("Hotels?");
    CHECK(r.stop == agentry::stop_reason::callback_error);
    CHECK(r.text == "agentry: agent_options::select_tools chose \"fly\", which is no tool of this agent; choose among "
                    "the catalog's names");
    CHECK(rec.payloads->empty());

    agentry::agent<config> thrower{rec.model(), tools,
                                   {.select_tools = [](const agentry::tool_catalog&,
                                                       const agentry::turn_query&) -> agentry::active_tools {
                                       throw std::runtime_error("index offline");
                                   }},
                                   agentry::scripted_transport{}};
    const agentry::run_result t = thrower.run("Hotels?");
    CHECK(t.stop == agentry::stop_reason::callback_error);
    CHECK(t.text == "agentry: the select_tools callback threw: index offline; the run stopped");
}

TEST_CASE("select_tools - a chooser by name, and the deferred form for native tool search") {
    recorder rec;
    agentry::agent<config> agent{rec.model(), tools,
                                 {.select_tools = [](const agentry::tool_catalog&, const agentry::turn_query&) {
                                     agentry::active_tools a;
                                     a.names = {"add"};
                                     a.defer_others = true;
                                     return a;
                                 }},
                                 agentry::scripted_transport{}};
    static_cast<void>(agent.run("1+1?"));
    const std::string& p = (*rec.payloads)[0];
    CHECK(names_in(p) == names{"get_forecast", "find_hotels", "find_trains", "add"});
    std::size_t deferred = 0;
    for (std::size_t at = p.find("\"defer_loading\":true"); at != std::string::npos;
         at = p.find("\"defer_loading\":true", at + 1))
        ++deferred;
    CHECK(deferred == 3);
    CHECK(p.ends_with(R"("required":["a","b"],"additionalProperties":false}}])"));
}

TEST_CASE("learned_boost - tools that followed the last call rank higher, learned from runs") {
    recorder first;
    first.calls->push_back({"c1", "find_trains", R"({"from":"Paris","to":"Lyon"})", {}});
    first.calls->push_back({"c2", "find_hotels", R"({"city":"Lyon"})", {}});
    agentry::agent<config> learner{first.model(), tools, {}, agentry::scripted_transport{}};
    agentry::learned_boost follows;
    follows.learn(learner.run("Trains to Lyon, then somewhere to sleep."));
    CHECK(follows.follows("find_trains", "find_hotels") == 1.0);
    CHECK(follows.follows("find_hotels", "find_trains") == 0.0);

    // BM25 alone would send only find_trains after the call; the boost adds find_hotels.
    recorder rec;
    rec.calls->push_back({"c1", "find_trains", R"({"from":"Paris","to":"Lyon"})", {}});
    agentry::agent<config> agent{
        rec.model(), tools,
        {.select_tools = agentry::top_k(agentry::bm25::of(tools) * 1.0 + follows * 1.0, 2, {.keep_called = false})},
        agentry::scripted_transport{}};
    static_cast<void>(agent.run("Trains to Lyon?"));
    REQUIRE(rec.payloads->size() == 2);
    CHECK(names_in((*rec.payloads)[0]) == names{"find_trains"});
    CHECK(names_in((*rec.payloads)[1]) == names{"find_hotels", "find_trains"});
}

TEST_CASE("learned_boost - save and load, and text that is not a table") {
    agentry::learned_boost a;
    a.record("x", "y", 2);
    agentry::learned_boost b;
    REQUIRE(b.load(a.save()));
    CHECK(b.save() == R"({"version":1,"follows":{"x":{"y":2}}})");
    const agentry::outcome<void> bad = b.load(R"({"version":1,"follows":{"x":{"y":-1}}})");
    REQUIRE(!bad);
    CHECK(bad.error().message == "agentry: learned_boost::load: the count of \"x\" -> \"y\" is not a whole number; "
                                 "give the text learned_boost::save() wrote");
    CHECK(!b.load("nope"));
    CHECK(b.follows("x", "y") == 1.0);
}

TEST_CASE("select_tools - tools_named chooses registry tools whose names were checked at compile time") {
    recorder rec;
    rec.calls->push_back({"c1", "add", R"({"a":1,"b":2})", {}});
    agentry::agent<config> agent{rec.model(), tools,
                                 {.select_tools = [](const agentry::tool_catalog&, const agentry::turn_query& q) {
                                     if (q.turn == 1) return agentry::tools_named<tools_type, "add", "find_trains">();
                                     return agentry::active_tools::every();
                                 }},
                                 agentry::scripted_transport{}};
    static_cast<void>(agent.run("1+2?"));
    REQUIRE(rec.payloads->size() == 2);
    CHECK(names_in((*rec.payloads)[0]) == names{"find_trains", "add"});
    CHECK((*rec.payloads)[1] == tools_type::definitions<agentry::dialect::standard>());
}

TEST_CASE("select_tools - with paging on, read_result is sent on every turn whatever is chosen") {
    constexpr agentry::loop_config paged{.max_turns = 4, .max_result_size = 64,
                                         .large_results = agentry::large_result::page};
    recorder rec;
    agentry::agent<paged> agent{rec.model(), tools, {.select_tools = agentry::top_k(agentry::bm25::of(tools), 1)},
                                agentry::scripted_transport{}};
    static_cast<void>(agent.run("Will it rain in Lyon?"));
    CHECK(names_in((*rec.payloads)[0]) == names{"get_forecast", "read_result"});
    CHECK(agent.catalog()[agent.catalog().size() - 1].always);
}
