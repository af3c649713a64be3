// SPDX-License-Identifier: BSL-1.0
// Instantiates the library's templates with varied types, so that warnings inside them show
// when this file is compiled with the strict warning flags (tests/CMakeLists.txt): a registry
// of tools with every kind of parameter and result, its calls and definitions in every
// dialect, the reader and writer, each provider's request and parse, the agent and the MCP
// server. Compiling it is the test.
#include "../fixtures/fixtures.hpp"

#include <agentry/agent.hpp>
#include <agentry/agentry.hpp>
#include <agentry/mcp/elicit.hpp>
#include <agentry/mcp/sample.hpp>
#include <agentry/mcp/server.hpp>
#include <agentry/provider/anthropic.hpp>
#include <agentry/provider/gemini.hpp>
#include <agentry/provider/ollama.hpp>
#include <agentry/provider/openai.hpp>

#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <vector>

namespace {

using namespace fixtures;

// A form for mcp::elicit: flat, with a constrained field, an optional enum and a number.
enum class portion { small, large };
struct order_form {
    std::string item;
    agentry::in_range<int, 1, 10> count;
    std::optional<portion> size;
    std::optional<double> tip;
};

struct forecast {
    double temperature;
    std::uint8_t humidity;
    std::vector<std::string> notes;
    std::optional<priority> alert;
};

forecast weather(const weather_query&) { return {12.5, 80, {"rain"}, priority::high}; }
std::int64_t sum(const integers& v) { return v.i8 + v.u8 + v.i16 + v.u16 + v.i32 + std::int64_t(v.u32) + v.i64; }
std::uint64_t biggest(const integers& v) { return v.u64; }
float ratio(const scalars& s) { return s.ratio; }
std::size_t count(const sequences& s) { return s.tags.size() + s.ids.size(); }
std::string name(const create_contact& c) { return c.name + c.home.city; }
std::map<std::string, std::string> echo_labels(const labels& l) { return l.values; }
int shape(const draw& d) { return int(d.shape.index()); }
tree_node tree(const tree_node& t) { return t; }
std::vector<std::optional<std::string>> cells(const optional_compounds& o) { return o.cells; }
bool levels(const enums& e) { return e.accepted.size() > 1; }
void nothing_at_all(const nothing&) {}
double price(const numeric_constraints& n) { return n.price; }
std::string airport(const string_constraints& s) { return s.airport; }
std::string when(const formats& f) { return f.day; }
short add(short a, unsigned char b) { return static_cast<short>(a + b); }

constexpr agentry::registry tools{
    agentry::tool<"weather", "Weather for a city.">(weather),
    agentry::tool<"sum", "Sums integers of every width.">(sum),
    agentry::tool<"biggest", "The unsigned 64-bit field.">(biggest),
    agentry::tool<"ratio", "A float result.">(ratio),
    agentry::tool<"count", "Counts sequences.">(count),
    agentry::tool<"name", "Nested aggregates.">(name),
    agentry::tool<"labels", "A map.">(echo_labels),
    agentry::tool<"shape", "Variants.">(shape),
    agentry::tool<"tree", "A recursive type.">(tree),
    agentry::tool<"cells", "Optional compounds.">(cells),
    agentry::tool<"levels", "Enums.">(levels),
    agentry::tool<"nothing", "No fields, no result.">(nothing_at_all),
    agentry::tool<"price", "Numeric constraints.">(price),
    agentry::tool<"airport", "String constraints.">(airport),
    agentry::tool<"when", "String formats.">(when),
    agentry::tool<"add", "Narrow integer parameters.", "a", "b">(add),
    agentry::tool<"paging", "Optionals with defaults.">(+[](const paging& p) { return p.page.value_or(1); }),
};

// Tools that take a context and the call's ids, for an agent with a typed output and planning.
struct counter {
    int calls = 0;
};
struct summary {
    std::string text;
    std::uint16_t score;
};
std::string counted(agentry::context<counter> c, const agentry::call_info& info, int step) {
    ++c->calls;
    return std::string(info.run_id) + std::string(info.call_id) + std::to_string(step);
}
constexpr agentry::registry context_tools{agentry::tool<"counted", "Counts its calls.", "step">(counted)};

// Answers every request with an empty 200.
struct empty_transport {
    agentry::transport_result send(const agentry::http_request&) { return {{200, {}, ""}, {}}; }
    agentry::transport_result stream(const agentry::http_request&, agentry::stream_handlers& handlers) {
        const agentry::http_response head{200, {}, ""};
        if (handlers.on_head) handlers.on_head(head);
        return {head, {}};
    }
};

template <class D>
std::size_t definitions_size() {
    return tools.definitions<D>().size();
}

template <class P>
std::size_t request_size(const P& provider, const agentry::chat_request& request) {
    const agentry::http_request http = provider.request(request);
    const agentry::http_response response{};
    const auto parsed = provider.parse(response);
    return http.body.size() + (parsed.ok() ? 1U : 0U);
}

} // namespace

int main() {
    std::size_t total = 0;
    for (const char* call : {"weather", "sum", "biggest", "ratio", "count", "name", "labels", "shape", "tree",
                             "cells", "levels", "nothing", "price", "airport", "when", "add", "paging"}) {
        total += tools.call(call, "{}").content.size();
    }
    total += definitions_size<agentry::dialect::standard>();
    total += definitions_size<agentry::dialect::openai>();
    total += definitions_size<agentry::dialect::anthropic>();
    total += definitions_size<agentry::dialect::mcp>();

    std::string out;
    agentry::json::write(out, forecast{1.0, 2, {}, std::nullopt});
    agentry::json::write(out, integers{});
    agentry::json::write(out, draw{});
    auto read = agentry::json::read<optional_compounds>(R"({"percent":5})");
    total += out.size() + (read.ok() ? 1U : 0U);

    const std::vector<agentry::message> history{agentry::message::user("hi")};
    const agentry::chat_request request{.messages = history, .tools = tools.definitions<agentry::dialect::openai>()};
    total += request_size(agentry::openai{.model = "m"}, request);
    total += request_size(agentry::anthropic{.model = "m"}, request);
    total += request_size(agentry::gemini{.model = "m"}, request);
    total += request_size(agentry::ollama{.model = "m"}, request);

    agentry::agent<agentry::loop_config{.max_turns = 2, .parallel_tool_calls = true}> agent{
        agentry::anthropic{.model = "m"}, tools, "system", empty_transport{}};
    total += agent.run("question").turns;
    total += agent.run(agentry::approvals{}).turns;
    total += agent.run(agentry::continuation{}).turns;

    counter c;
    agentry::agent<agentry::loop_config{.planning = {.enabled = true}}, summary> planner{
        agentry::openai{.model = "m"}, context_tools,
        {.system_prompt = "system", .max_total_tokens = 1000, .stop_at_tools = {"counted"}}, empty_transport{}};
    total += planner.run(agentry::planned{"question"}, c).turns;
    total += planner.run(std::string("question"), c).turns;

    const agentry::mcp::server server{tools, {.name = "warnings", .version = "1.0.0"}};
    agentry::mcp::session session;
    total += server.handle(session, R"({"jsonrpc":"2.0","id":1,"method":"ping"})").size();
    const auto form = agentry::mcp::elicit<order_form>("Order?");
    total += form.accepted() ? form.content->item.size() : agentry::mcp::elicitation_schema<order_form>().size();
    total += agentry::mcp::sample("hi", 10).text.size();
    return total > 0 ? 0 : 1;
}
