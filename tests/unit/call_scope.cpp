// SPDX-License-Identifier: BSL-1.0
// Injected parameters: agentry::context<T>, agentry::stop_token, agentry::progress and
// agentry::call_info, supplied by the caller of registry::call and left out of the schema.
#include <agentry/call_scope.hpp>
#include <agentry/registry.hpp>
#include <agentry/stop_token.hpp>

#include <doctest/doctest.h>

#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace {

struct session {
    std::string user;
    int calls = 0;
};

struct query {
    std::string text;
    int limit = 0;
};

// The same two parameters, with and without injected ones around them.
int plain_add(int a, int b) { return a + b; }
int injected_add(agentry::context<session> s, int a, agentry::stop_token, int b, agentry::progress) {
    ++s->calls;
    return a + b;
}
std::string plain_search(const query& q) { return q.text; }
std::string injected_search(agentry::stop_token stop, const query& q, agentry::context<session> s) {
    return q.text + "/" + s->user + (stop.stop_requested() ? "/stopped" : "");
}

constexpr agentry::registry plain{
    agentry::tool<"add", "Adds two integers.", "a", "b">(plain_add),
    agentry::tool<"search", "Searches.">(plain_search),
};
constexpr agentry::registry injected{
    agentry::tool<"add", "Adds two integers.", "a", "b">(injected_add),
    agentry::tool<"search", "Searches.">(injected_search),
};

template <class Registry, class D>
void check_same_definitions() {
    CHECK(decltype(plain)::definitions<D>() == Registry::template definitions<D>());
}

// Tools that take a stop token or a progress reporter, but no context.
std::string count_to(agentry::stop_token stop, agentry::progress p, int n) {
    int done = 0;
    for (; done < n && !stop.stop_requested(); ++done) p.report(done + 1, n, "counted");
    return std::to_string(done);
}
bool reporting(const agentry::progress& p) { return p.active(); }

// A write keyed on the run id and call id it is given.
std::string keyed_add(agentry::call_info info, int a, int b) {
    return std::string(info.run_id) + "/" + std::string(info.call_id) + "=" + std::to_string(a + b);
}
std::string keyed_search(const query& q, const agentry::call_info& info, agentry::context<session> s) {
    return q.text + "/" + s->user + "@" + std::string(info.run_id) + "/" + std::string(info.call_id);
}

constexpr agentry::registry scoped{
    agentry::tool<"count_to", "Counts to n.", "n">(count_to),
    agentry::tool<"reporting", "Says whether progress is listened to.">(reporting),
    agentry::tool<"add", "Adds two integers.", "a", "b">(plain_add),
};

constexpr agentry::registry keyed{
    agentry::tool<"add", "Adds two integers.", "a", "b">(keyed_add),
    agentry::tool<"search", "Searches.">(keyed_search),
};

} // namespace

TEST_CASE("injected parameters: definitions are byte for byte those without them, in every dialect") {
    check_same_definitions<decltype(injected), agentry::dialect::standard>();
    check_same_definitions<decltype(injected), agentry::dialect::openai>();
    check_same_definitions<decltype(injected), agentry::dialect::openai_strict>();
    check_same_definitions<decltype(injected), agentry::dialect::anthropic>();
    check_same_definitions<decltype(injected), agentry::dialect::anthropic_strict>();
    check_same_definitions<decltype(injected), agentry::dialect::gemini>();
    check_same_definitions<decltype(injected), agentry::dialect::mcp>();
    CHECK(decltype(plain)::names == decltype(injected)::names);
    using add = std::remove_cvref_t<decltype(boost::hana::at_c<0>(injected.tools()))>;
    static_assert(std::is_same_v<add::parameters_type, std::remove_cvref_t<decltype(boost::hana::at_c<0>(
                                                           plain.tools()))>::parameters_type>);
    static_assert(add::injects);
    static_assert(!std::remove_cvref_t<decltype(boost::hana::at_c<0>(plain.tools()))>::injects);
}

TEST_CASE("context: registry.call(name, arguments, {.context = ctx}) gives the tool the caller's object") {
    static_assert(std::is_same_v<decltype(injected)::context_type, session>);
    static_assert(std::is_void_v<decltype(plain)::context_type>);
    static_assert(std::is_void_v<decltype(scoped)::context_type>);
    session s{"ada", 0};
    const agentry::tool_result r = injected.call("add", R"({"a":2,"b":3})", {.context = s});
    CHECK(r.ok());
    CHECK(r.content == "5");
    CHECK(s.calls == 1);
    CHECK(injected.call("search", R"({"text":"x","limit":1})", {.context = s}).content == "x/ada");
    CHECK(injected.call<agentry::dialect::openai_strict>("add", R"({"a":1,"b":1})", {.context = s}).content == "2");
    CHECK(injected.call("add", R"({"a":4,"b":4})", {.context = s, .index = decltype(injected)::find("add")}).content ==
          "8");
    CHECK(s.calls == 3);
}

TEST_CASE("context: the error paths are those of a call without injected parameters") {
    session s{"ada", 0};
    const agentry::tool_result bad = injected.call("add", R"({"a":"2","b":3})", {.context = s});
    CHECK(bad.status == agentry::tool_status::invalid_arguments);
    CHECK(bad.content == plain.call("add", R"({"a":"2","b":3})").content);
    CHECK(s.calls == 0);
    const agentry::tool_result unknown = injected.call("sub", "{}", {.context = s});
    CHECK(unknown.status == agentry::tool_status::unknown_tool);
    CHECK(unknown.content == plain.call("sub", "{}").content);
    CHECK(injected.call("sub", "{}", {.context = s, .index = 2}).content == unknown.content);
    CHECK(injected.call("sub", "{}", {.context = s, .scope = agentry::call_scope{}, .index = 7}).status ==
          agentry::tool_status::unknown_tool);
}

TEST_CASE("stop token: a tool gets the scope's token, without a scope, one that never stops") {
    CHECK(scoped.call("count_to", R"({"n":3})").content == "3");
    agentry::stop_source source;
    agentry::call_scope scope{source.get_token(), {}};
    CHECK(scoped.call("count_to", R"({"n":3})", {.scope = scope}).content == "3");
    source.request_stop();
    CHECK(scoped.call("count_to", R"({"n":3})", {.scope = scope}).content == "0");
    session s{"ada", 0};
    CHECK(injected.call("search", R"({"text":"x","limit":1})", {.context = s, .scope = scope}).content ==
          "x/ada/stopped");
    CHECK(injected.call<agentry::dialect::anthropic>("search", R"({"text":"x","limit":1})",
                                                     {.context = s, .scope = scope})
              .content == "x/ada/stopped");
}

#if defined(__cpp_lib_jthread)
// Where the standard library has std::stop_token, agentry::stop_token is that type: a tool
// written with std::stop_token and std::stop_source is injected as before.
std::string stopped_std(std::stop_token stop) { return stop.stop_requested() ? "stopped" : "running"; }
constexpr agentry::registry std_tools{agentry::tool<"stopped", "Whether the call was stopped">(stopped_std)};

TEST_CASE("stop token: a tool taking std::stop_token gets the scope's token") {
    std::stop_source source;
    const agentry::call_scope scope{source.get_token(), {}};
    CHECK(std_tools.call("stopped", "{}", {.scope = scope}).content == "running");
    source.request_stop();
    CHECK(std_tools.call("stopped", "{}", {.scope = scope}).content == "stopped");
    CHECK(std_tools.call("stopped", "{}").content == "running");
}
#endif

TEST_CASE("progress: reports reach the scope's sink, without one they go nowhere") {
    std::vector<agentry::progress_update> seen;
    agentry::call_scope scope{{}, [&](const agentry::progress_update& u) { seen.push_back(u); }};
    CHECK(scoped.call("count_to", R"({"n":2})", {.scope = scope}).content == "2");
    REQUIRE(seen.size() == 2);
    CHECK(seen[0].progress == 1);
    CHECK(seen[1].progress == 2);
    CHECK(seen[1].total == std::optional<double>(2));
    CHECK(seen[1].message == "counted");
    CHECK(scoped.call("reporting", "{}", {.scope = scope}).content == "true");
    CHECK(scoped.call("reporting", "{}").content == "false");
    CHECK(scoped.call("reporting", "{}", {.scope = agentry::call_scope{}}).content == "false");
    CHECK(scoped.call("reporting", "{}", {.scope = scope, .index = 1}).content == "true");
}

TEST_CASE("progress: an exception from the sink fails the call like the tool's own") {
    agentry::call_scope scope{{}, [](const agentry::progress_update&) { throw std::runtime_error("sink broke"); }};
    const agentry::tool_result r = scoped.call("count_to", R"({"n":2})", {.scope = scope});
    CHECK(r.status == agentry::tool_status::tool_error);
    CHECK(r.content == "count_to failed: sink broke");
}

TEST_CASE("scope: tools without injected parameters answer the same with and without one") {
    agentry::stop_source source;
    source.request_stop();
    const agentry::call_scope scope{source.get_token(), [](const agentry::progress_update&) {}};
    CHECK(scoped.call("add", R"({"a":1,"b":2})", {.scope = scope}).content == "3");
    CHECK(scoped.call("add", R"({"a":1})", {.scope = scope}).content == scoped.call("add", R"({"a":1})").content);
}

TEST_CASE("call_info: a tool gets the scope's run id and call id, without them empty ones") {
    session s{"ada", 0};
    agentry::call_scope scope;
    scope.run_id = "run-7";
    scope.call_id = "call_abc";
    CHECK(keyed.call("add", R"({"a":1,"b":2})", {.context = s, .scope = scope}).content == "run-7/call_abc=3");
    CHECK(keyed.call<agentry::dialect::openai_strict>("add", R"({"a":1,"b":2})",
                                                      {.context = s, .scope = scope, .index = 0})
              .content == "run-7/call_abc=3");
    CHECK(keyed.call("add", R"({"a":1,"b":2})", {.context = s}).content == "/=3");
    CHECK(keyed.call("add", R"({"a":1,"b":2})", {.context = s, .scope = {.call_id = "only"}}).content == "/only=3");
    CHECK(keyed.call("search", R"({"text":"x","limit":1})", {.context = s, .scope = scope}).content ==
          "x/ada@run-7/call_abc");
    CHECK(keyed.call("add", R"({"a":"1","b":2})", {.context = s, .scope = scope}).content ==
          plain.call("add", R"({"a":"1","b":2})").content);
}

TEST_CASE("call_info: not part of the schema, the definitions are those of the tools without it") {
    check_same_definitions<decltype(keyed), agentry::dialect::standard>();
    check_same_definitions<decltype(keyed), agentry::dialect::openai_strict>();
    check_same_definitions<decltype(keyed), agentry::dialect::anthropic>();
    check_same_definitions<decltype(keyed), agentry::dialect::gemini>();
    check_same_definitions<decltype(keyed), agentry::dialect::mcp>();
    static_assert(std::is_same_v<decltype(keyed)::context_type, session>);
    using add = std::remove_cvref_t<decltype(boost::hana::at_c<0>(keyed.tools()))>;
    static_assert(add::injects);
    static_assert(std::is_void_v<add::context_type>);
}
