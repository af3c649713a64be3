// SPDX-License-Identifier: BSL-1.0
// Tools that take what their caller supplies (a context, a stop token, a progress reporter),
// registries made of other registries, and a rate limit shared by all tools of a registry.
#include <agentry/compose.hpp>
#include <agentry/policy/registry_policies.hpp>
#include <agentry/policy/token_bucket.hpp>
#include <agentry/registry.hpp>
#include <agentry/stop_token.hpp>

#include <chrono>
#include <cstddef>
#include <cstdio>
#include <map>
#include <string>
#include <vector>

// The application's state for one user, given to the tools that take agentry::context<session>.
struct session {
    std::string user;
    std::map<std::string, std::string> notes;
};

std::string save_note(agentry::context<session> s, std::string title, std::string text) {
    s->notes[title] = std::move(text);
    return "saved \"" + title + "\" for " + s->user;
}

std::vector<std::string> list_notes(agentry::context<const session> s) {
    std::vector<std::string> titles;
    for (const auto& note : s->notes) titles.push_back(note.first);
    return titles;
}

// Stops between two notes when the caller gives up; reports each note done.
std::string export_notes(agentry::context<const session> s, agentry::stop_token stop, agentry::progress progress,
                         int max_notes) {
    const std::size_t total = s->notes.size();
    std::size_t done = 0;
    for (const auto& note : s->notes) {
        if (stop.stop_requested() || static_cast<long long>(done) >= max_notes) break;
        ++done;
        progress.report(static_cast<double>(done), static_cast<double>(total), note.first);
    }
    return "exported " + std::to_string(done) + " of " + std::to_string(total) + " notes";
}

std::size_t count_words(const std::string& text) {
    std::size_t words = 0;
    bool in_word = false;
    for (char c : text) {
        const bool space = c == ' ' || c == '\n' || c == '\t' || c == '\r';
        if (!space && !in_word) ++words;
        in_word = !space;
    }
    return words;
}

constexpr agentry::registry note_tools{
    agentry::tool<"save_note", "Saves a note under a title, replacing one of the same title.", "title", "text">(
        save_note),
    agentry::tool<"list_notes", "Lists the titles of the user's notes.">(list_notes),
    agentry::tool<"export_notes", "Exports at most max_notes notes.", "max_notes">(export_notes),
};
constexpr agentry::registry text_tools{
    agentry::tool<"count_words", "Counts the words of a text.", "text">(count_words),
};

// Every tool, and a read-only set for another agent.
constexpr auto all_tools = agentry::join(note_tools, text_tools);
constexpr auto reader_tools = agentry::select<"list_notes", "count_words">(all_tools);

// At most 3 calls a minute of all the reader's tools together.
constexpr auto limited_reader = agentry::with_rate_limit<agentry::rate_limit{.calls = 3, .per_ms = 60'000}>(
    reader_tools);

void show(std::string_view what, const agentry::tool_result& r) {
    std::printf("%.*s -> %.*s: %s\n", static_cast<int>(what.size()), what.data(),
                static_cast<int>(to_string(r.status).size()), to_string(r.status).data(), r.content.c_str());
}

int main() {
    static_assert(std::is_same_v<decltype(all_tools)::context_type, session>);
    session ada{"ada", {}};
    show("save_note", all_tools.call("save_note", R"({"title":"plan","text":"ship it on Friday"})", {.context = ada}));
    show("save_note", all_tools.call("save_note", R"({"title":"idea","text":"a smaller binary"})", {.context = ada}));
    show("list_notes", all_tools.call("list_notes", "{}", {.context = ada}));

    agentry::stop_source stop;
    const agentry::call_scope scope{stop.get_token(), [](const agentry::progress_update& u) {
                                        std::printf("  progress %g of %g: %s\n", u.progress, u.total.value_or(0),
                                                    u.message.c_str());
                                    }};
    show("export_notes", all_tools.call("export_notes", R"({"max_notes":5})", {.context = ada, .scope = scope}));
    stop.request_stop();
    show("export_notes (stopped)",
         all_tools.call("export_notes", R"({"max_notes":5})", {.context = ada, .scope = scope}));

    std::printf("reader tools: %zu, %s\n", reader_tools.size(),
                std::string(decltype(reader_tools)::definitions<agentry::dialect::anthropic>()).c_str());

    using policies = agentry::registry_policies<decltype(limited_reader)>;
    agentry::rate_limiter limits(policies::table, policies::registry_rate);
    for (int i = 0; i != 4; ++i) {
        const std::size_t index = limited_reader.find("count_words");
        const agentry::rate_limiter::verdict admitted = limits.try_take(index, std::chrono::steady_clock::now());
        if (!admitted) {
            std::printf("count_words -> refused: %s\n", limits.refusal("count_words", index, admitted).c_str());
            continue;
        }
        show("count_words",
             limited_reader.call("count_words", R"({"text":"one two three"})", {.context = ada, .index = index}));
    }
}
