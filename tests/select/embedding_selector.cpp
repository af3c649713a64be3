// SPDX-License-Identifier: BSL-1.0
// agentry::embedding_selector (select/embedding.hpp) with a scripted embedder whose vector of a
// text counts the words of a small vocabulary in it: the text per tool, the index and its cache,
// the scores, save and load, failures, top_k.

#include <agentry/select/embedding.hpp>
#include <agentry/select/selector.hpp>

#include <doctest/doctest.h>

#include <cmath>
#include <memory>
#include <stdexcept>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace {

using agentry::embed_purpose;

struct call {
    embed_purpose purpose;
    std::vector<std::string> texts;
    bool operator==(const call&) const = default;
};

/// Vectors of word counts over {weather, email, file, calendar}; every call recorded.
struct word_embedder {
    std::shared_ptr<std::vector<call>> calls = std::make_shared<std::vector<call>>();

    agentry::embedder get() const {
        return [calls = calls](std::span<const std::string> texts,
                               embed_purpose purpose) -> agentry::outcome<std::vector<std::vector<float>>> {
            calls->push_back({purpose, {texts.begin(), texts.end()}});
            std::vector<std::vector<float>> out;
            for (const std::string& text : texts) {
                std::vector<float> v;
                for (std::string_view word : {"weather", "email", "file", "calendar"}) {
                    float n = 0;
                    for (std::size_t at = text.find(word); at != std::string::npos; at = text.find(word, at + 1)) ++n;
                    v.push_back(n);
                }
                out.push_back(std::move(v));
            }
            return out;
        };
    }
};

agentry::tool_catalog three_tools() {
    agentry::tool_catalog c(agentry::dialect_kind::openai_strict);
    c.add_owned("get_weather",
                R"({"type":"function","function":{"name":"get_weather","description":"Current weather for a city",)"
                R"("parameters":{"type":"object","properties":{"city":{"type":"string","description":"City name"},)"
                R"("unit":{"type":"string","description":"Temperature unit"}}}}})",
                "Current weather for a city", "", false, false);
    c.add_owned("send_email",
                R"({"type":"function","function":{"name":"send_email","description":"Send an email",)"
                R"("parameters":{"type":"object","properties":{"to":{"type":"string","description":"Recipient email address"}}}}})",
                "Send an email", "", false, false);
    c.add_owned("read_file", R"({"type":"function","function":{"name":"read_file","description":"Read a file"}})",
                "Read a file", "", false, false);
    return c;
}

agentry::turn_query query_of(std::string_view text) {
    agentry::turn_query q;
    q.text = text;
    return q;
}

std::vector<double> scores(agentry::embedding_selector& s, const agentry::tool_catalog& c, std::string_view text) {
    std::vector<double> out(c.size(), 0.0);
    s.score(c, query_of(text), out);
    return out;
}

} // namespace

TEST_CASE("embedding_text: the name, the description, the properties' descriptions") {
    const agentry::tool_catalog c = three_tools();
    CHECK(agentry::embedding_text(c[0]) ==
          "get_weather\nCurrent weather for a city\ncity: City name\nunit: Temperature unit");
    CHECK(agentry::embedding_text(c[2]) == "read_file\nRead a file");
    agentry::catalog_entry nested;
    nested.name = "book";
    nested.definition = R"({"name":"book","input_schema":{"type":"object","properties":{"trip":{"type":"object",)"
                        R"("description":"The trip","properties":{"from":{"type":"string","description":"Origin"}}},)"
                        R"("stops":{"type":"array","items":{"type":"object","properties":{"city":{"description":"A stop"}}}}}}})";
    CHECK(agentry::embedding_text(nested) == "book\ntrip: The trip\nfrom: Origin\ncity: A stop");
}

TEST_CASE("embedding_selector: the index once per catalog version, one query embedding per new query") {
    word_embedder words;
    agentry::embedding_selector s(words.get(), "test:words");
    agentry::tool_catalog c = three_tools();

    CHECK(scores(s, c, "what's the weather?") == std::vector<double>{1, 0, 0});
    REQUIRE(words.calls->size() == 2);
    CHECK((*words.calls)[0] == call{embed_purpose::document,
                                    {"get_weather\nCurrent weather for a city\ncity: City name\nunit: Temperature unit",
                                     "send_email\nSend an email\nto: Recipient email address", "read_file\nRead a file"}});
    CHECK((*words.calls)[1] == call{embed_purpose::query, {"what's the weather?"}});
    CHECK(s.cached() == 3);
    CHECK_FALSE(s.last_error());

    // The same query: nothing sent; the scores are added to what is there.
    std::vector<double> out = {0.5, 0.5, 0.5};
    s.score(c, query_of("what's the weather?"), out);
    CHECK(out == std::vector<double>{1.5, 0.5, 0.5});
    CHECK(words.calls->size() == 2);

    // Another query: one embedding, of the query.
    CHECK(scores(s, c, "weather or email") == std::vector<double>{2 / std::sqrt(8.0), 3 / std::sqrt(18.0), 0});
    REQUIRE(words.calls->size() == 3);
    CHECK((*words.calls)[2] == call{embed_purpose::query, {"weather or email"}});

    // A tool added later embeds only itself.
    c.add_owned("add_event", R"({"name":"add_event"})", "Add a calendar event", "", false, true);
    CHECK(scores(s, c, "weather or email") == std::vector<double>{2 / std::sqrt(8.0), 3 / std::sqrt(18.0), 0, 0});
    REQUIRE(words.calls->size() == 4);
    CHECK((*words.calls)[3] == call{embed_purpose::document, {"add_event\nAdd a calendar event"}});

    // A second index of the same tools (another agent's catalog) sends nothing.
    const agentry::tool_catalog again = three_tools();
    CHECK(scores(s, again, "weather or email") == std::vector<double>{2 / std::sqrt(8.0), 3 / std::sqrt(18.0), 0});
    CHECK(words.calls->size() == 4);

    // An empty query scores nothing and sends nothing.
    CHECK(scores(s, again, "") == std::vector<double>{0, 0, 0});
    CHECK(words.calls->size() == 4);
}

TEST_CASE("embedding_selector: negative similarity is 0, copies share the cache") {
    auto calls = std::make_shared<int>(0);
    agentry::embedding_selector s(
        [calls](std::span<const std::string> texts,
                embed_purpose purpose) -> agentry::outcome<std::vector<std::vector<float>>> {
            ++*calls;
            if (purpose == embed_purpose::query) return std::vector<std::vector<float>>{{1, 0}};
            return std::vector<std::vector<float>>(texts.size(), std::vector<float>{-1, 0.5f});
        },
        "test:opposite");
    const agentry::tool_catalog c = three_tools();
    agentry::embedding_selector copy = s;
    CHECK(scores(copy, c, "anything") == std::vector<double>{0, 0, 0});
    CHECK(*calls == 2);
    CHECK(s.cached() == 3);
    CHECK(s.model() == "test:opposite");
}

TEST_CASE("embedding_selector: save and load") {
    word_embedder words;
    agentry::embedding_selector first(words.get(), "test:words");
    agentry::tool_catalog one(agentry::dialect_kind::openai_strict);
    one.add_owned("read_file", R"({"name":"read_file"})", "Read a file", "", false, false);
    CHECK(scores(first, one, "a file") == std::vector<double>{1});
    const std::string key = agentry::detail::embedding_key("test:words", "read_file\nRead a file");
    CHECK(key.size() == 64);
    CHECK(first.save() == R"({"model":"test:words","dims":4,"entries":[{"hash":")" + key + R"(","vector":[0,0,2,0]}]})");

    // Three tools, saved by hash, loaded into a new selector: its index sends nothing.
    const agentry::tool_catalog c = three_tools();
    CHECK(scores(first, c, "weather") == std::vector<double>{1, 0, 0});
    const std::string saved = first.save();
    word_embedder fresh;
    agentry::embedding_selector second(fresh.get(), "test:words");
    REQUIRE(second.load(saved));
    CHECK(second.cached() == 3);
    CHECK(second.save() == saved);
    CHECK(scores(second, c, "weather") == std::vector<double>{1, 0, 0});
    REQUIRE(fresh.calls->size() == 1);
    CHECK((*fresh.calls)[0] == call{embed_purpose::query, {"weather"}});
    // Loading the same text again adds nothing.
    REQUIRE(second.load(saved));
    CHECK(second.cached() == 3);
}

TEST_CASE("embedding_selector: load refuses another model, other dimensions, and other text") {
    word_embedder words;
    agentry::embedding_selector s(words.get(), "test:words");
    const std::string hash(64, 'a');
    auto refusal = [&](std::string_view text) {
        agentry::outcome<void> r = s.load(text);
        REQUIRE_FALSE(r);
        CHECK(r.error().kind == agentry::failure_kind::invalid_input);
        return r.error().message;
    };
    CHECK(refusal(R"({"model":"openai:text-embedding-3-small","dims":2,"entries":[]})") ==
          "agentry: embedding_selector::load: the saved index is of model 'openai:text-embedding-3-small', this "
          "selector's is 'test:words'; embed again (discard the saved index) or use that model");
    CHECK(refusal(R"({"model":"test:words","dims":2,"entries":[{"hash":")" + hash + R"(","vector":[1]}]})") ==
          "agentry: embedding_selector::load: entry 0 has a vector of 1 numbers, not \"dims\" 2; pass the text save() wrote");
    CHECK(refusal(R"({"model":"test:words","dims":1,"entries":[{"hash":"abc","vector":[1]}]})") ==
          "agentry: embedding_selector::load: entry 0: \"hash\" is not 64 lowercase hex digits; pass the text save() wrote");
    CHECK(refusal("not json").starts_with("agentry: embedding_selector::load: unreadable saved index: "));
    CHECK(s.cached() == 0);

    REQUIRE(s.load(R"({"model":"test:words","dims":4,"entries":[{"hash":")" + hash + R"(","vector":[1,2,3,4]}]})"));
    CHECK(refusal(R"({"model":"test:words","dims":2,"entries":[]})") ==
          "agentry: embedding_selector::load: the saved index has vectors of 2 numbers, this selector's of 4; "
          "discard the saved index");
    CHECK(s.cached() == 1);
}

TEST_CASE("embedding_selector: a failed embedding scores nothing and is recorded") {
    auto failing = std::make_shared<bool>(true);
    word_embedder words;
    agentry::embedding_selector s(
        [failing, inner = words.get()](std::span<const std::string> texts,
                                       embed_purpose purpose) -> agentry::outcome<std::vector<std::vector<float>>> {
            if (*failing) return agentry::fail(agentry::failure_kind::transient, "agentry: embeddings request failed (server, HTTP 503): busy");
            return inner(texts, purpose);
        },
        "test:words");
    const agentry::tool_catalog c = three_tools();
    std::vector<double> out = {0.25, 0.25, 0.25};
    s.score(c, query_of("weather"), out);
    CHECK(out == std::vector<double>{0.25, 0.25, 0.25});
    REQUIRE(s.last_error());
    CHECK(s.last_error()->kind == agentry::failure_kind::transient);
    CHECK(s.last_error()->message == "agentry: embeddings request failed (server, HTTP 503): busy");
    CHECK(s.cached() == 0);

    // The next turn builds the index again, and the error is gone once it succeeds.
    *failing = false;
    CHECK(scores(s, c, "weather") == std::vector<double>{1, 0, 0});
    CHECK_FALSE(s.last_error());

    // The query's embedding failing: nothing added, the index kept.
    *failing = true;
    CHECK(scores(s, c, "email") == std::vector<double>{0, 0, 0});
    REQUIRE(s.last_error());
    *failing = false;
    CHECK(scores(s, c, "email") == std::vector<double>{0, 1, 0});
    CHECK(words.calls->size() == 3);  // the tools once, "weather", "email"
}

TEST_CASE("embedding_selector: an embedder that throws or miscounts") {
    const agentry::tool_catalog c = three_tools();
    agentry::embedding_selector throws(
        [](std::span<const std::string>, embed_purpose) -> agentry::outcome<std::vector<std::vector<float>>> {
            throw std::runtime_error("boom");
        },
        "test:throws");
    CHECK(scores(throws, c, "weather") == std::vector<double>{0, 0, 0});
    REQUIRE(throws.last_error());
    CHECK(throws.last_error()->message ==
          "agentry: embedding_selector: the embedder threw: boom; no tool was scored on this turn");

    agentry::embedding_selector empty(agentry::embedder{}, "test:none");
    CHECK(scores(empty, c, "weather") == std::vector<double>{0, 0, 0});
    CHECK(empty.last_error());

    agentry::embedding_selector short_by_one(
        [](std::span<const std::string> texts, embed_purpose) -> agentry::outcome<std::vector<std::vector<float>>> {
            return std::vector<std::vector<float>>(texts.size() - 1, std::vector<float>{1});
        },
        "test:short");
    CHECK(scores(short_by_one, c, "weather") == std::vector<double>{0, 0, 0});
    REQUIRE(short_by_one.last_error());
    CHECK(short_by_one.last_error()->message ==
          "agentry: embedding_selector: the embedder returned 2 vectors for 3 texts; fix the embedder");

    agentry::embedding_selector other_size(
        [](std::span<const std::string> texts, embed_purpose purpose) -> agentry::outcome<std::vector<std::vector<float>>> {
            if (purpose == embed_purpose::query) return std::vector<std::vector<float>>{{1, 0, 0}};
            return std::vector<std::vector<float>>(texts.size(), std::vector<float>{1, 0});
        },
        "test:sizes");
    CHECK(scores(other_size, c, "weather") == std::vector<double>{0, 0, 0});
    REQUIRE(other_size.last_error());
    CHECK(other_size.last_error()->message ==
          "agentry: embedding_selector: the embedder returned a vector of 3 numbers where the index has 2; a changed "
          "model needs another model id (and a fresh saved index)");
}

TEST_CASE("embedding_selector: top_k sends the closest tools, and every tool when embedding fails") {
    word_embedder words;
    agentry::embedding_selector s(words.get(), "test:words");
    const agentry::tool_catalog c = three_tools();
    const agentry::tool_chooser choose = agentry::top_k(s, 2);
    agentry::active_tools chosen = choose(c, query_of("email about the file email"));
    CHECK(chosen.indices == std::vector<std::size_t>{1, 2});
    CHECK_FALSE(chosen.all);
    chosen = choose(c, query_of("what is on the calendar"));
    CHECK(chosen.all);

    const agentry::tool_chooser broken = agentry::top_k(
        agentry::embedding_selector(
            [](std::span<const std::string>, embed_purpose) -> agentry::outcome<std::vector<std::vector<float>>> {
                return agentry::fail(agentry::failure_kind::permission, "agentry: no key");
            },
            "test:broken"),
        2);
    CHECK(broken(c, query_of("weather")).all);
}

TEST_CASE("embedding_selector: tools with the same text are embedded once") {
    word_embedder words;
    agentry::embedding_selector s(words.get(), "test:words");
    agentry::tool_catalog c(agentry::dialect_kind::standard);
    c.add_owned("read_file", R"({"name":"read_file"})", "Read a file", "", false, false);
    c.add_owned("read_file", R"({"name":"read_file"})", "Read a file", "", false, true);
    CHECK(scores(s, c, "file") == std::vector<double>{1, 1});
    REQUIRE(words.calls->size() == 2);
    CHECK((*words.calls)[0] == call{embed_purpose::document, {"read_file\nRead a file"}});
    CHECK(s.cached() == 1);
}
