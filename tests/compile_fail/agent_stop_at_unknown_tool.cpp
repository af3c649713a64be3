// SPDX-License-Identifier: BSL-1.0
// expect: agentry: loop_config::stop_at_tools: the registry has no tool of the name in stop_at_unknown_tool<tool_named<...>>
// errors: at most 2
// names: book_tabel
#include <agentry/agent.hpp>
#include <agentry/provider/openai.hpp>
#include <agentry/registry.hpp>

#include <string>

struct null_transport {
    agentry::transport_result send(const agentry::http_request&) { return {{200, {}, ""}, {}}; }
    agentry::transport_result stream(const agentry::http_request&, agentry::stream_handlers&) {
        return {{200, {}, ""}, {}};
    }
};

std::string book_table(const std::string& place) { return "booked at " + place; }
std::string find_place(const std::string& city) { return "Chez Anna, " + city; }

constexpr agentry::registry tools{agentry::tool<"find_place", "Finds a restaurant.", "city">(find_place),
                                  agentry::tool<"book_table", "Books a table.", "place">(book_table)};

// The stop-at tool is misspelt (book_tabel, not book_table).
#ifdef AGENTRY_COMPILE_FAIL
constexpr agentry::loop_config config{.stop_at_tools = {"find_place", "book_tabel"}};
#else
constexpr agentry::loop_config config{.stop_at_tools = {"find_place", "book_table"}};
#endif

int main() {
    agentry::agent<config> a{agentry::openai{.model = "m"}, tools, "system", null_transport{}};
    return a.conversation().size() == 1 ? 0 : 1;
}
