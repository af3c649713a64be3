// SPDX-License-Identifier: BSL-1.0
// std::expected<T, E> as a tool result (C++23, where the standard library has it): the value
// is the result, the error a tool_error with a kind and a message.
#include <agentry/registry.hpp>

#include <cstdio>
#include <expected>
#include <string>
#include <system_error>

namespace {

struct query {
    int id;
};
struct item {
    int id;
    std::string name;
};
enum class lookup_error { missing, locked };

std::expected<item, std::string> by_text(const query& q) {
    if (q.id < 0) return std::unexpected(std::string("ids are positive"));
    return item{q.id, "pen"};
}
std::expected<item, agentry::failure> by_failure(const query& q) {
    if (q.id == 0) return std::unexpected(agentry::fail(agentry::failure_kind::not_found, "no item 0"));
    return item{q.id, "cup"};
}
std::expected<int, std::error_code> by_code(const query& q) {
    if (q.id == 0) return std::unexpected(std::make_error_code(std::errc::permission_denied));
    return q.id;
}
std::expected<int, lookup_error> by_enum(const query& q) {
    if (q.id == 0) return std::unexpected(lookup_error::locked);
    return q.id;
}
std::expected<void, agentry::failure_kind> by_kind(const query& q) {
    if (q.id == 0) return std::unexpected(agentry::failure_kind::transient);
    return {};
}

constexpr agentry::registry tools{
    agentry::tool<"by_text", "Finds an item.">(by_text),
    agentry::tool<"by_failure", "Finds an item.">(by_failure),
    agentry::tool<"by_code", "Finds an item.">(by_code),
    agentry::tool<"by_enum", "Finds an item.">(by_enum),
    agentry::tool<"by_kind", "Finds an item.">(by_kind),
};

int failures = 0;

void expect(bool ok, const char* what) {
    if (!ok) {
        std::printf("FAILED: %s\n", what);
        ++failures;
    }
}

} // namespace

int main() {
    using agentry::failure_kind;
    using agentry::tool_status;
    static_assert(agentry::tool_t<"by_text", "x", decltype(&by_text)>::result_schema() == agentry::json_schema<item>());
    const auto ok = tools.call("by_text", R"({"id":3})");
    expect(ok.ok() && ok.content == R"({"id":3,"name":"pen"})", "a value is the result");
    const auto text = tools.call("by_text", R"({"id":-1})");
    expect(text.status == tool_status::tool_error && text.content == "by_text failed: ids are positive" &&
               text.failure == failure_kind::permanent,
           "a text error is a permanent failure with that message");
    const auto failure = tools.call("by_failure", R"({"id":0})");
    expect(failure.content == "by_failure failed: no item 0" && failure.failure == failure_kind::not_found,
           "an agentry::failure keeps its kind");
    const auto code = tools.call("by_code", R"({"id":0})");
    expect(code.status == tool_status::tool_error && code.content.starts_with("by_code failed: ") &&
               code.content.size() > 16,
           "an error code is sent as its message");
    const auto named = tools.call("by_enum", R"({"id":0})");
    expect(named.content == R"(by_enum failed: "locked")", "another error type is written as JSON");
    const auto kind = tools.call("by_kind", R"({"id":0})");
    expect(kind.failure == failure_kind::transient && kind.content == "by_kind failed: transient",
           "a failure_kind is its own message");
    const auto done = tools.call("by_kind", R"({"id":1})");
    expect(done.ok() && done.content == "null", "an expected<void> with a value is null");
    std::printf("%s\n", failures == 0 ? "all std::expected checks passed" : "std::expected checks failed");
    return failures == 0 ? 0 : 1;
}
