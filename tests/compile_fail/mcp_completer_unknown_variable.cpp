// SPDX-License-Identifier: BSL-1.0
// expect: agentry: mcp::completer: the resource template has no {variable} of the name in completer_named<...>; name a variable of its URI template, or remove the completer
// errors: at most 2
// names: name
#include <agentry/mcp/server.hpp>

#include <string>
#include <string_view>
#include <vector>

struct note_ref {
    std::string folder;
    std::string id;
};

std::string read_note(const note_ref& r) { return r.folder + "/" + r.id; }
std::vector<std::string> note_ids(std::string_view) { return {"1", "2"}; }

constexpr agentry::registry tools{agentry::tool<"add", "Adds", "a", "b">(+[](int a, int b) { return a + b; })};

int main() {
    // The template has {folder} and {id}, no {name}.
#ifdef AGENTRY_COMPILE_FAIL
    const agentry::mcp::server server{
        tools, {}, agentry::mcp::resource_template<"notes://{folder}/{id}", "note">(read_note, agentry::mcp::completer<"name">(note_ids))};
#else
    const agentry::mcp::server server{
        tools, {}, agentry::mcp::resource_template<"notes://{folder}/{id}", "note">(read_note, agentry::mcp::completer<"id">(note_ids))};
#endif
    return server.tools_list().empty();
}
