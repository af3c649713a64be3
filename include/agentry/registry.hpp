// SPDX-License-Identifier: BSL-1.0
#ifndef AGENTRY_REGISTRY_HPP
#define AGENTRY_REGISTRY_HPP

// agentry::registry{tool<...>(f), ...}: an immutable, compile-time set of tools.
//
//   constexpr agentry::registry tools{agentry::tool<"add", "Add two integers", "a", "b">(add)};
//   std::string_view payload = tools.definitions<agentry::dialect::openai_strict>();
//
// definitions<D>() is the `tools` array a provider expects, as a constant: OpenAI
// [{"type":"function","function":{...}}], Anthropic [{"name","description","input_schema"}],
// Gemini [{"functionDeclarations":[...]}], MCP tools/list entries.
//
// Cost in the number of tools N: nothing nests or recurses once per tool. The checks over all
// tools loop over arrays, and the duplicate check and the name table take O(N) steps of
// constant evaluation, so the compilers' default limits do not bound N
// (tests/static/registry_many_tools.cpp has 500). Per tool: its schemas, its definition entry
// and its dispatch function call_at<I>, whose symbol holds the registry's type, O(N) long.

#include <agentry/detail/invoke.hpp>
#include <agentry/detail/name_table.hpp>
#include <agentry/detail/text.hpp>
#include <agentry/json/detail/suggest.hpp>
#include <agentry/reflect/detail/shown_name.hpp>
#include <agentry/reflect/fixed_string.hpp>
#include <agentry/schema/detail/sink.hpp>
#include <agentry/schema/dialect.hpp>
#include <agentry/schema/json_schema.hpp>
#include <agentry/tool.hpp>
#include <agentry/tool_result.hpp>

#include <boost/hana/tuple.hpp>

#include <array>
#include <cstddef>
#include <string>
#include <string_view>
#include <type_traits>
#include <utility>

namespace agentry {

namespace detail {

template <class T>
consteval std::string_view tool_name() noexcept {
    if constexpr (is_tool<T>) return T::name;
    else return {};
}

// Checks over all tools of a registry loop over an array made by pack expansion, not over a
// fold expression: Clang rejects a fold of more than 256 operands (-fbracket-depth).
template <std::size_t N>
consteval bool all_of(const std::array<bool, N>& values) noexcept {
    for (bool v : values)
        if (!v) return false;
    return true;
}

template <std::size_t N>
consteval std::size_t sum_of(const std::array<std::size_t, N>& values) noexcept {
    std::size_t sum = 0;
    for (std::size_t v : values) sum += v;
    return sum;
}

/// Instantiated for a name given to two tools of one registry; the name is its argument (see
/// shown_name).
template <auto... Name>
struct duplicate_tool_name {
    static_assert(sizeof...(Name) == 0 && sizeof...(Name) != 0,
                  "agentry: registry: two tools have the same name; tool names must be unique in a registry");
    static constexpr bool ok = true;
};

template <class First, class... Rest>
consteval char first_character(First first, Rest...) noexcept {
    if constexpr (std::is_same_v<First, char>) return first;
    else return first.value[0];
}

/// The name rules of dialect D; `named<Name...>` is instantiated with a tool's name (see
/// shown_name).
template <class D>
struct tool_name_rules {
    template <auto... Name>
    struct named {
        static constexpr char first = first_character(Name...);
        static_assert(!D::rules.name_starts_with_letter || first == '_' || (first >= 'a' && first <= 'z') ||
                          (first >= 'A' && first <= 'Z'),
                      "agentry: Gemini function names must start with a letter or an underscore; rename the tool");
        static constexpr bool ok = true;
    };
};

template <class T>
consteval bool is_object_result() noexcept {
    if constexpr (std::is_void_v<T>) return false;
    else {
        constexpr auto k = schema::detail::json_kind_of<std::remove_cvref_t<T>>();
        return k == schema::detail::kind::object || k == schema::detail::kind::map;
    }
}

template <class D, class Tool>
constexpr void write_tool_definition(schema::detail::sink& s) noexcept {
    using params = typename Tool::parameters_type;
    constexpr std::string_view parameters = schema::detail::schema_text<params, D>::view;
    constexpr bool no_parameters = schema::detail::object_table<params, D>::size == 0;
    constexpr dialect_kind k = D::kind;
    if constexpr (k == dialect_kind::openai || k == dialect_kind::openai_strict) {
        s.put("{\"type\":\"function\",\"function\":{");
    } else {
        s.put('{');
    }
    s.put_key("name");
    s.put_quoted(Tool::name);
    s.put(',');
    s.put_key("description");
    s.put_string(Tool::description);
    if constexpr (!no_parameters || D::rules.empty_parameters) {
        s.put(',');
        if constexpr (k == dialect_kind::anthropic || k == dialect_kind::anthropic_strict) s.put_key("input_schema");
        else if constexpr (k == dialect_kind::mcp) s.put_key("inputSchema");
        else s.put_key("parameters");
        s.put(parameters);
    }
    if constexpr (k == dialect_kind::mcp && is_object_result<typename Tool::result_type>()) {
        using R = std::remove_cvref_t<typename Tool::result_type>;
        s.put(',');
        s.put_key("outputSchema");
        s.put(schema::detail::schema_text<R, D>::view);
    }
    if constexpr (k == dialect_kind::openai) s.put(",\"strict\":false}}");
    else if constexpr (k == dialect_kind::openai_strict) s.put(",\"strict\":true}}");
    else if constexpr (k == dialect_kind::anthropic_strict) s.put(",\"strict\":true}");
    else s.put('}');
}

template <class D, class... Tools>
constexpr void write_definitions(schema::detail::sink& s) noexcept {
    using writer = void (*)(schema::detail::sink&) noexcept;
    constexpr std::array<writer, sizeof...(Tools)> writers{&write_tool_definition<D, Tools>...};
    constexpr bool gemini = D::kind == dialect_kind::gemini;
    s.put(gemini ? "[{\"functionDeclarations\":[" : "[");
    for (std::size_t i = 0; i != writers.size(); ++i) {
        if (i != 0) s.put(',');
        writers[i](s);
    }
    s.put(gemini ? "]}]" : "]");
}

template <class D, class... Tools>
struct definitions_text {
    static constexpr std::size_t size = [] {
        schema::detail::sink s;
        write_definitions<D, Tools...>(s);
        return s.size;
    }();
    static constexpr auto storage = [] {
        std::array<char, size + 1> text{};
        schema::detail::sink s;
        s.out = text.data();
        write_definitions<D, Tools...>(s);
        return text;
    }();
    static constexpr std::string_view view{storage.data(), size};
};

template <class D, class Tool>
consteval bool check_tool_definition() noexcept {
    using R = std::remove_cvref_t<typename Tool::result_type>;
    constexpr auto name = Tool::name_text;
    bool ok = schema::detail::check_schema<typename Tool::parameters_type, D, name>() &&
              decltype(shown_name<name, tool_name_rules<D>::template named>())::ok;
    if constexpr (D::kind == dialect_kind::mcp && is_object_result<typename Tool::result_type>())
        ok = ok && schema::detail::check_schema<R, D, Tool::name_text>();
    return ok;
}

/// Instantiated when the tools of one request exceed a limit of dialect D.
template <class D, std::size_t Tools, std::size_t Optional, std::size_t Unions>
struct request_limits {
    static_assert(Tools <= D::rules.max_tools,
                  "agentry: the registry has more tools than this dialect accepts in one request (OpenAI: 128, "
                  "Anthropic strict: 20); split it");
    static_assert(Optional <= D::rules.max_optional_properties,
                  "agentry: the tools have more optional parameters in all than Anthropic strict mode accepts (24); "
                  "make some required or use agentry::dialect::anthropic");
    static_assert(Unions <= D::rules.max_union_types,
                  "agentry: the tools have more nullable or variant parameters in all than Anthropic strict mode "
                  "accepts (16); use agentry::dialect::anthropic");
    static constexpr bool ok = true;
};

template <class D, class... Tools>
consteval bool check_request_limits() noexcept {
    using schema::detail::schema_text;
    constexpr std::size_t optional = sum_of(std::array<std::size_t, sizeof...(Tools)>{
        schema_text<typename Tools::parameters_type, D>::measured.optional_properties...});
    constexpr std::size_t unions = sum_of(std::array<std::size_t, sizeof...(Tools)>{
        schema_text<typename Tools::parameters_type, D>::measured.union_types...});
    return request_limits<D, sizeof...(Tools), optional, unions>::ok;
}

} // namespace detail

/// An immutable set of tools with unique names, built at compile time.
template <class... Tools>
class registry {
    static_assert(detail::all_of(std::array<bool, sizeof...(Tools)>{is_tool<Tools>...}),
                  "agentry: registry{...} takes tools made with agentry::tool<\"name\", \"description\">(f) (a "
                  "tool<...>(f) whose own check failed above is not one)");

public:
    static constexpr std::array<std::string_view, sizeof...(Tools)> names{detail::tool_name<Tools>()...};

private:
    static consteval bool names_unique() noexcept {
        constexpr std::size_t duplicate = detail::first_duplicate(names);
        if constexpr (duplicate == sizeof...(Tools)) {
            return true;
        } else {
            constexpr auto name = detail::fixed_prefix<names[duplicate].size()>(names[duplicate]);
            return decltype(detail::shown_name<name, detail::duplicate_tool_name>())::ok;
        }
    }
    static_assert(names_unique());

public:
    constexpr registry(Tools... tools) : tools_(std::move(tools)...) {}

    static constexpr std::size_t size() noexcept { return sizeof...(Tools); }

    /// This registry with other call options (argument limits and repairs, result cap).
    constexpr registry with_options(const call_options& options) const {
        registry copy = *this;
        copy.options_ = options;
        return copy;
    }
    constexpr const call_options& options() const noexcept { return options_; }

    /// The index of the tool called `name`, or size() when there is none. O(1).
    static constexpr std::size_t find(std::string_view name) noexcept { return table_.find(name, names); }

    /// Calls the tool `name` with JSON `arguments`: reads and checks them, calls the tool and
    /// writes its result. Never throws; safe from several threads at once.
    ///
    /// The arguments are read as the definitions of every dialect ask the model to send them:
    /// an optional parameter may be left out or, as the strict dialects make it, sent as null.
    tool_result call(std::string_view name, std::string_view arguments) const noexcept {
        return call_with(name, arguments, true);
    }

    /// As call(name, arguments), reading the arguments exactly as definitions<D>() states
    /// them: null for an optional parameter is absent where D makes every property required
    /// and nullable (OpenAI strict mode), and an error elsewhere, unless the registry's
    /// call_options set read_options::null_as_absent.
    template <schema_dialect D>
    tool_result call(std::string_view name, std::string_view arguments) const noexcept {
        return call_with(name, arguments, options_.arguments.null_as_absent || D::rules.all_required);
    }

    /// As call(name, arguments), for the tool at `index`, an index that find() returned: for a
    /// caller that needs the index anyway, so the name is looked up once. An index of size()
    /// or more is answered as an unknown tool.
    tool_result call_index(std::size_t index, std::string_view arguments) const noexcept {
        if (index >= sizeof...(Tools)) return unknown_tool(std::string_view{});
        return dispatch_[index](*this, arguments, true);
    }

    /// The `tools` payload of dialect D, as a constant.
    template <schema_dialect D = dialect::standard>
    static constexpr std::string_view definitions() noexcept {
        static_assert(
            detail::all_of(std::array<bool, sizeof...(Tools)>{detail::check_tool_definition<D, Tools>()...}));
        static_assert(detail::check_request_limits<D, Tools...>());
        return detail::definitions_text<D, Tools...>::view;
    }

    /// The tools, in the order given.
    constexpr const boost::hana::tuple<Tools...>& tools() const noexcept { return tools_; }

private:
    // Explicit types, not auto: the initializers then run only when call or find is used,
    // not whenever the registry type is instantiated.
    static constexpr detail::name_table<sizeof...(Tools)> table_ = detail::name_table<sizeof...(Tools)>::build(names);

    tool_result call_with(std::string_view name, std::string_view arguments, bool null_as_absent) const noexcept {
        const std::size_t index = find(name);
        if (index == sizeof...(Tools)) return unknown_tool(name);
        return dispatch_[index](*this, arguments, null_as_absent);
    }

    template <std::size_t I>
    static tool_result call_at(const registry& self, std::string_view arguments, bool null_as_absent) noexcept {
        if (self.options_.arguments.null_as_absent == null_as_absent)
            return detail::invoke(boost::hana::at_c<I>(self.tools_), arguments, self.options_);
        call_options options = self.options_;
        options.arguments.null_as_absent = null_as_absent;
        return detail::invoke(boost::hana::at_c<I>(self.tools_), arguments, options);
    }

    using dispatch_fn = tool_result (*)(const registry&, std::string_view, bool) noexcept;
    template <std::size_t... I>
    static constexpr std::array<dispatch_fn, sizeof...(Tools)> dispatch_table(std::index_sequence<I...>) noexcept {
        return {&call_at<I>...};
    }
    static constexpr std::array<dispatch_fn, sizeof...(Tools)> dispatch_ =
        dispatch_table(std::index_sequence_for<Tools...>{});

    static tool_result unknown_tool(std::string_view name) noexcept {
        tool_result result;
        result.status = tool_status::unknown_tool;
        try {
            std::string text = "unknown tool \"";
            text += detail::printable(name, 64);
            text += '"';
            const std::string_view guess = json::detail::closest(name, names);
            if (!guess.empty()) {
                text += " (did you mean \"";
                text += guess;
                text += "\"?)";
            }
            text += ". Available tools: ";
            for (std::size_t i = 0; i != names.size(); ++i) {
                if (i != 0) text += ", ";
                text += names[i];
            }
            if (names.empty()) text += "none";
            text += '.';
            result.content = std::move(text);
        } catch (...) {
            result.content = "unknown tool";
        }
        return result;
    }

    boost::hana::tuple<Tools...> tools_;
    call_options options_{};
};

template <class... Tools>
registry(Tools...) -> registry<Tools...>;

} // namespace agentry

#endif
