// SPDX-License-Identifier: BSL-1.0
// registry::call(name, arguments). The input is the tool name, a newline, and the arguments
// text (no newline: all of it is the name, and the arguments are empty). Each input is called
// on two registries of the same tools: one with the default call options, one lenient (every
// repair, null_as_absent, small limits, a 256-byte result cap).
//
// Checked: the status agrees with the name and with json::read of the same arguments (same
// errors, in the same order); the result of a tool that echoes its arguments is JSON that
// reads back to itself; results respect the cap; "add" and "shout" compute what an
// independent reading of the arguments says they should.

#include "fuzz_common.hpp"

#include <fixtures.hpp>

#include <cmath>
#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <limits>
#include <optional>
#include <stdexcept>
#include <string>
#include <string_view>
#include <type_traits>
#include <utility>

namespace {

template <class T>
T echo(const T& value) {
    return value;
}

long long add(int a, int b) { return (long long)a + b; }

std::string shout(std::string text) {
    for (char& c : text)
        if (c >= 'a' && c <= 'z') c = char(c - 'a' + 'A');
    return text;
}

constexpr agentry::registry tools{
    agentry::tool<"get_weather", "Echoes a weather query.">(&echo<fixtures::weather_query>),
    agentry::tool<"create_contact", "Echoes a contact.">(&echo<fixtures::create_contact>),
    agentry::tool<"draw", "Echoes a drawing.">(&echo<fixtures::draw>),
    agentry::tool<"tree", "Echoes a tree.">(&echo<fixtures::tree_node>),
    agentry::tool<"labels", "Echoes labels.">(&echo<fixtures::labels>),
    agentry::tool<"store", "Echoes a raw payload.">(&echo<fixtures::raw_payload>),
    agentry::tool<"numbers", "Echoes constrained numbers.">(&echo<fixtures::numeric_constraints>),
    agentry::tool<"page", "Echoes paging options.">(&echo<fixtures::paging>),
    agentry::tool<"add", "Adds two integers.", "a", "b">(&add),
    agentry::tool<"add_loose", "Adds two integers, given as numbers or strings.", "a", "b">(&add).with_repairs(
        {.number_in_string = true}),
    agentry::tool<"shout", "Upper-cases a text.", "text">(&shout),
    agentry::tool<"ping", "Answers pong.">(+[] { return std::string("pong"); }),
    agentry::tool<"fail", "Always throws.">(+[]() -> int { throw std::runtime_error("boom"); }),
    agentry::tool<"nothing", "Takes nothing, returns nothing.">(+[](fixtures::nothing) {}),
};

using registry_t = std::remove_cvref_t<decltype(tools)>;

agentry::call_options lenient_options() {
    agentry::call_options o;
    o.arguments.repairs = {.empty_as_object = true, .json_in_string = true, .number_in_string = true, .enum_case = true};
    o.arguments.null_as_absent = true;
    o.arguments.max_depth = 16;
    o.arguments.max_errors = 4;
    o.max_result_size = 256;
    return o;
}

// An integer in int range, read independently from a JSON value (a number, or with the
// number_in_string repair a string holding exactly one).
std::optional<int> int_of(const fuzz::jvalue* v, bool strings) {
    if (!v || !(v->type == fuzz::jvalue::number || (strings && v->type == fuzz::jvalue::string))) return std::nullopt;
    if (v->type == fuzz::jvalue::string) {
        const auto inner = fuzz::parse_json(v->text, 0);
        if (!inner || inner->type != fuzz::jvalue::number || inner->text != v->text) return std::nullopt;
    }
    const fuzz::exact_int e = fuzz::exact_integer_of(v->text);
    if (!e.value || *e.value < std::numeric_limits<int>::min() || *e.value > std::numeric_limits<int>::max())
        return std::nullopt;
    return int(*e.value);
}

template <std::size_t I>
void check_call(const registry_t& reg, std::string_view name, std::string_view args, const agentry::tool_result& r) {
    const auto& tool = boost::hana::at_c<I>(reg.tools());
    using tool_type = std::remove_cvref_t<decltype(tool)>;
    using R = std::remove_cvref_t<typename tool_type::result_type>;
    const agentry::call_options& options = reg.options();

    // The same arguments read directly give the same verdict and the same errors.
    agentry::json::read_options read = options.arguments;
    read.null_as_absent = true;  // registry::call reads null for an optional as absent
    if (tool.repairs) read.repairs = *tool.repairs;
    const auto direct = agentry::json::read<typename tool_type::parameters_type>(args, read);
    fuzz::check_result(direct, read);
    FUZZ_CHECK(direct.ok() == (r.status != agentry::tool_status::invalid_arguments), fuzz::describe_errors(direct.errors));
    FUZZ_CHECK(direct.repairs == r.repairs, "repairs differ");
    FUZZ_CHECK(direct.errors.size() == r.errors.size(), fuzz::describe_errors(direct.errors));
    for (std::size_t i = 0; i != r.errors.size(); ++i)
        FUZZ_CHECK(direct.errors[i].pointer == r.errors[i].pointer && direct.errors[i].kind == r.errors[i].kind &&
                       direct.errors[i].message == r.errors[i].message,
                   r.errors[i].to_string());
    if (!direct.ok()) {
        FUZZ_CHECK(r.content.find(name) != std::string::npos, r.content);  // "<name>: invalid arguments: ..."
        if constexpr (std::is_same_v<R, long long>) {
            // add: an object of two integers in int range is never rejected.
            const auto doc = fuzz::parse_json(args, read.max_depth);
            if (doc && doc->type == fuzz::jvalue::object && doc->keys.size() == 2 && doc->count("a") == 1 &&
                doc->count("b") == 1) {
                const bool strings = read.repairs.number_in_string;
                FUZZ_CHECK(!int_of(doc->find("a"), strings) || !int_of(doc->find("b"), strings),
                           "valid arguments rejected: " + fuzz::describe_errors(direct.errors));
            }
        }
        return;
    }

    if (name == "fail") {
        FUZZ_CHECK(r.status == agentry::tool_status::tool_error && r.content == "fail failed: boom", r.content);
        return;
    }
    FUZZ_CHECK(r.status == agentry::tool_status::ok, r.content);
    if (options.max_result_size != 0) FUZZ_CHECK(r.content.size() <= options.max_result_size, r.content);

    if constexpr (std::is_void_v<R>) {
        FUZZ_CHECK(r.content == "null", r.content);
    } else if constexpr (std::is_same_v<R, std::string>) {
        if (name == "ping") FUZZ_CHECK(r.content == "pong", r.content);
        if (name == "shout" && !r.truncated) {
            const auto doc = fuzz::parse_json(args, read.max_depth);
            if (doc && r.repairs.empty()) {
                const fuzz::jvalue* text = doc->find("text");
                FUZZ_CHECK(text && text->type == fuzz::jvalue::string, "no text");
                FUZZ_CHECK(r.content == shout(text->text), r.content);
            }
        }
    } else {
        if (r.truncated) return;
        // JSON that reads back as R and is written again unchanged.
        FUZZ_CHECK(fuzz::parse_json(r.content, 100000).has_value(), r.content);
        agentry::json::read_options again;
        again.null_as_absent = true;
        again.max_size = std::size_t(-1);
        const auto back = agentry::json::read<R>(r.content, again);
        FUZZ_CHECK(back.ok(), r.content + " -> " + fuzz::describe_errors(back.errors));
        std::string rewritten;
        agentry::json::write(rewritten, back.value);
        FUZZ_CHECK(rewritten == r.content, rewritten + " vs " + r.content);
        if constexpr (std::is_same_v<R, typename tool_type::parameters_type>) {
            // An echo: the arguments as read.
            std::string written;
            agentry::json::write(written, direct.value);
            FUZZ_CHECK(written == r.content, written + " vs " + r.content);
        } else if constexpr (std::is_same_v<R, long long>) {
            // add: the sum of the two integers the arguments hold.
            const auto doc = fuzz::parse_json(args, read.max_depth);
            if (doc && doc->type == fuzz::jvalue::object) {
                const bool strings = read.repairs.number_in_string;
                const auto a = int_of(doc->find("a"), strings);
                const auto b = int_of(doc->find("b"), strings);
                FUZZ_CHECK(a && b, std::string(args));
                FUZZ_CHECK(r.content == std::to_string((long long)*a + *b), r.content + " from " + std::string(args));
            }
        }
    }
}

void call(const registry_t& reg, std::string_view name, std::string_view args) {
    const agentry::tool_result r = reg.call(name, args);
    const std::size_t index = registry_t::find(name);
    if (index == registry_t::size()) {
        FUZZ_CHECK(!r.content.empty(), "empty content");
        FUZZ_CHECK(r.status == agentry::tool_status::unknown_tool, r.content);
        FUZZ_CHECK(r.errors.empty() && r.repairs.empty() && !r.truncated, r.content);
        return;
    }
    FUZZ_CHECK(registry_t::names[index] == name, name);
    FUZZ_CHECK(r.status != agentry::tool_status::unknown_tool, r.content);
    FUZZ_CHECK(r.ok() == r.errors.empty() || r.status == agentry::tool_status::tool_error, r.content);
    [&]<std::size_t... I>(std::index_sequence<I...>) {
        ((index == I ? check_call<I>(reg, name, args, r) : void()), ...);
    }(std::make_index_sequence<registry_t::size()>{});
}

} // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
    static const registry_t lenient = tools.with_options(lenient_options());
    const std::string_view input = fuzz::as_text(data, size);
    const std::size_t newline = input.find('\n');
    const std::string_view name = input.substr(0, newline);
    const std::string_view args = newline == std::string_view::npos ? std::string_view{} : input.substr(newline + 1);
    call(tools, name, args);
    call(lenient, name, args);
    return 0;
}
