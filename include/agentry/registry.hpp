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
// and, when call is used, its dispatch function detail::invoke<Tool>, a template on the tool
// alone (its symbol does not grow with N), and the tool's argument reader and result writer,
// which are most of the object code. Only a few members (find, call, the table of
// offsets) have the registry's O(N)-long type in their symbols.

#include <agentry/call_scope.hpp>
#include <agentry/tool/detail/invoke.hpp>
#include <agentry/tool/detail/name_table.hpp>
#include <agentry/detail/text.hpp>
#include <agentry/json/detail/suggest.hpp>
#include <agentry/reflect/detail/names.hpp>
#include <agentry/reflect/detail/shown_name.hpp>
#include <agentry/reflect/fixed_string.hpp>
#include <agentry/schema/detail/sink.hpp>
#include <agentry/schema/dialect.hpp>
#include <agentry/schema/json_schema.hpp>
#include <agentry/tool.hpp>
#include <agentry/tool_result.hpp>

#include <boost/hana/tuple.hpp>
#include <boost/hana/unpack.hpp>

#include <array>
#include <span>
#include <cstddef>
#include <optional>
#include <string>
#include <tuple>
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


template <class T>
struct tool_context {
    using type = void;
};
template <class T>
    requires is_tool<T>
struct tool_context<T> {
    using type = typename T::context_type;
};

template <std::size_t N>
consteval std::size_t first_true(const std::array<bool, N>& values) noexcept {
    for (std::size_t i = 0; i != N; ++i)
        if (values[i]) return i;
    return N;
}

/// Instantiated for two tools of one registry that take different context types; the tools
/// are its arguments.
template <class FirstTool, class SecondTool>
struct different_contexts {
    static_assert(sizeof(FirstTool) == 0,
                  "agentry: registry: two tools (named in different_contexts<tool_named<...>, tool_named<...>>) "
                  "take different context types, agentry::context<A> and agentry::context<B>; a registry has one "
                  "context type: make both tools take the same T (a struct holding what each needs)");
    static constexpr bool ok = true;
};

/// Instantiated when a registry whose tools take a context is called without one; the tool is
/// its argument.
template <class Tool>
struct context_missing {
    static_assert(sizeof(Tool) == 0,
                  "agentry: registry::call: the tool named in context_missing<tool_named<...>> takes "
                  "agentry::context<T> and no context was passed; pass it, registry.call(name, arguments, "
                  "{.context = ctx}) with ctx a Registry::context_type&");
    static constexpr bool ok = true;
};

/// call_args::context of a registry whose tools take agentry::context<T>: the caller's T,
/// given as an lvalue. `Missing` is the diagnostic of a call that leaves it out.
template <class T, class Missing>
class context_slot {
public:
    template <class M = Missing>
    constexpr context_slot() noexcept {
        static_assert(M::ok);
    }
    constexpr context_slot(T& value) noexcept : value_(&value) {}
    template <class U>
        requires(!std::is_same_v<std::remove_cvref_t<U>, context_slot> &&
                 !(std::is_lvalue_reference_v<U> && std::is_convertible_v<std::remove_reference_t<U>*, T*>))
    constexpr context_slot(U&&) noexcept {
        static_assert(!std::is_same_v<U, U>,
                      "agentry: registry::call: .context is not a Registry::context_type& (the T of the "
                      "agentry::context<T> its tools take, as a non-const lvalue); pass that object, "
                      "{.context = ctx}");
    }

    constexpr T* get() const noexcept { return value_; }

private:
    T* value_ = nullptr;
};

/// call_args::context of a registry whose tools take no context: nothing may be given.
class no_context {
public:
    constexpr no_context() noexcept = default;
    template <class U>
        requires(!std::is_same_v<std::remove_cvref_t<U>, no_context>)
    constexpr no_context(U&&) noexcept {
        static_assert(!std::is_same_v<U, U>,
                      "agentry: registry::call: no tool of this registry takes agentry::context<T>; leave .context "
                      "out");
    }

    constexpr void* get() const noexcept { return nullptr; }
};

/// The default dialect of registry::call: the arguments are read as the definitions of any
/// dialect ask for them (null for an optional parameter is absent).
struct any_dialect {};

template <class D>
concept call_dialect = std::is_same_v<D, any_dialect> || schema_dialect<D>;

/// Whether dialect D takes the tool name `Name`; otherwise a compile error names it.
template <class D, fixed_string Name>
consteval bool dialect_takes_name() noexcept {
    constexpr char first = Name.value[0];
    if constexpr (D::rules.name_starts_with_letter &&
                  !(first == '_' || (first >= 'a' && first <= 'z') || (first >= 'A' && first <= 'Z')))
        return check_name<name_error::gemini_first_character, Name>();
    else return true;
}

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
    } else if constexpr (k == dialect_kind::openai_responses || k == dialect_kind::openai_responses_strict) {
        s.put("{\"type\":\"function\",");
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
    if constexpr (k == dialect_kind::openai_strict) s.put(",\"strict\":true}}");
    else if constexpr (k == dialect_kind::openai) s.put("}}");
    else if constexpr (k == dialect_kind::anthropic_strict || k == dialect_kind::openai_responses_strict)
        s.put(",\"strict\":true}");
    else if constexpr (k == dialect_kind::openai_responses) s.put(",\"strict\":false}");
    else s.put('}');
}

// `bounds`, when given, gets where each tool's definition starts and ends in the text.
template <class D, class... Tools>
constexpr void write_definitions(schema::detail::sink& s,
                                 std::array<std::size_t, 2 * sizeof...(Tools)>* bounds = nullptr) noexcept {
    using writer = void (*)(schema::detail::sink&) noexcept;
    constexpr std::array<writer, sizeof...(Tools)> writers{&write_tool_definition<D, Tools>...};
    constexpr bool gemini = D::kind == dialect_kind::gemini;
    s.put(gemini ? "[{\"functionDeclarations\":[" : "[");
    for (std::size_t i = 0; i != writers.size(); ++i) {
        if (i != 0) s.put(',');
        if (bounds) (*bounds)[2 * i] = s.size;
        writers[i](s);
        if (bounds) (*bounds)[2 * i + 1] = s.size;
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

/// Each tool's definition within definitions_text<D, Tools...>::view.
template <class D, class... Tools>
struct definition_fragments {
    static constexpr auto bounds = [] {
        std::array<std::size_t, 2 * sizeof...(Tools)> b{};
        schema::detail::sink s;
        write_definitions<D, Tools...>(s, &b);
        return b;
    }();
    static constexpr auto views = [] {
        std::array<std::string_view, sizeof...(Tools)> v{};
        for (std::size_t i = 0; i != v.size(); ++i)
            v[i] = definitions_text<D, Tools...>::view.substr(bounds[2 * i], bounds[2 * i + 1] - bounds[2 * i]);
        return v;
    }();
};

template <std::size_t N>
inline constexpr std::array<std::string_view, N> no_fragments{};

template <class T>
consteval std::string_view tool_description() noexcept {
    if constexpr (is_tool<T>) return T::description;
    else return {};
}

/// A tool's category (agentry::in_category), or empty.
template <class T>
consteval std::string_view tool_category() noexcept {
    if constexpr (requires { T::category; }) return T::category;
    else return {};
}

template <class D, class Tool>
consteval bool check_tool_definition() noexcept {
    using R = std::remove_cvref_t<typename Tool::result_type>;
    constexpr auto name = Tool::name_text;
    bool ok = schema::detail::check_schema<typename Tool::parameters_type, D, name>() &&
              dialect_takes_name<D, name>();
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

/// The answer to a call of a tool not among `names`: the name, the closest of `names`, and
/// the list of them.
template <class Names>
std::string unknown_tool_text(std::string_view name, const Names& names) {
    std::string text = "unknown tool \"";
    text += printable(name, 64);
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
    return text;
}

} // namespace detail

/// An immutable set of tools with unique names, built at compile time.
template <class... Tools>
class registry {
    // A tool<...>(f) whose own check failed has shown its diagnostic: nothing here adds to it,
    // and the members stay usable (definitions() is then empty), so that the user's calls of
    // them add no error either.
    static_assert(detail::all_of(std::array<bool, sizeof...(Tools)>{
                      (is_tool<Tools> || detail::is_unreadable_tool<Tools>)...}),
                  "agentry: registry{...} takes tools made with agentry::tool<\"name\", \"description\">(f)");
    static constexpr bool readable = detail::all_of(std::array<bool, sizeof...(Tools)>{is_tool<Tools>...});

public:
    static constexpr std::array<std::string_view, sizeof...(Tools)> names{detail::tool_name<Tools>()...};
    static constexpr std::array<std::string_view, sizeof...(Tools)> descriptions{detail::tool_description<Tools>()...};
    /// Each tool's category (agentry::in_category, select/category.hpp); empty for none.
    static constexpr std::array<std::string_view, sizeof...(Tools)> categories{detail::tool_category<Tools>()...};

private:
    static consteval bool names_unique() noexcept {
        constexpr std::size_t duplicate = detail::first_duplicate(names);
        if constexpr (duplicate == sizeof...(Tools)) {
            return true;
        } else {
            constexpr auto name = detail::fixed_prefix<names[duplicate].size()>(names[duplicate]);
            return detail::check_name<detail::name_error::repeated_tool, name>();
        }
    }
    static_assert(names_unique());

    template <std::size_t I>
    using tool_at =
        std::remove_cvref_t<decltype(boost::hana::at_c<I>(std::declval<const boost::hana::tuple<Tools...>&>()))>;

    static constexpr std::array<bool, sizeof...(Tools)> takes_context{
        !std::is_void_v<typename detail::tool_context<Tools>::type>...};
    static constexpr std::size_t first_with_context = detail::first_true(takes_context);

    template <std::size_t I>
    static consteval auto context_at() noexcept {
        if constexpr (I == sizeof...(Tools)) return std::type_identity<void>{};
        else return std::type_identity<typename tool_at<I>::context_type>{};
    }

public:
    /// The T of the agentry::context<T> its tools take (without const), or void when none takes
    /// one. All the tools that take one take the same T.
    using context_type = typename decltype(context_at<first_with_context>())::type;

private:
    static consteval bool contexts_agree() noexcept {
        constexpr std::array<bool, sizeof...(Tools)> agree{
            (std::is_void_v<typename detail::tool_context<Tools>::type> ||
             std::is_same_v<typename detail::tool_context<Tools>::type, context_type>)...};
        constexpr std::size_t other = [&] {
            for (std::size_t i = 0; i != agree.size(); ++i)
                if (!agree[i]) return i;
            return agree.size();
        }();
        if constexpr (other == sizeof...(Tools)) {
            return true;
        } else {
            using A = tool_at<first_with_context>;
            using B = tool_at<other>;
            return detail::different_contexts<decltype(detail::shown_name<A::name_text, detail::tool_named>()),
                                              decltype(detail::shown_name<B::name_text, detail::tool_named>())>::ok;
        }
    }
    static_assert(contexts_agree());

    // The diagnostic of a call without a context, naming a tool that takes one.
    static consteval auto missing_context_of() noexcept {
        if constexpr (std::is_void_v<context_type>) {
            return std::type_identity<void>{};
        } else {
            using A = tool_at<first_with_context>;
            return std::type_identity<
                detail::context_missing<decltype(detail::shown_name<A::name_text, detail::tool_named>())>>{};
        }
    }
    using missing_context = typename decltype(missing_context_of())::type;

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

    /// What a call gives besides the tool's name and arguments; every member may be left out
    /// but .context, which a registry whose tools take agentry::context<T> needs.
    struct call_args {
        /// The Registry::context_type& given to the tools that take agentry::context<T>. Leaving
        /// it out when a tool takes one, and giving one when none does, do not compile.
        std::conditional_t<std::is_void_v<context_type>, detail::no_context,
                           detail::context_slot<context_type, missing_context>>
            context{};
        /// The call's stop token, progress sink, run id and call id; by default a token that
        /// never stops, no sink and empty ids.
        const call_scope& scope = detail::no_scope();
        /// The index find(name) returned, for a caller that needs it anyway: the name is then
        /// not looked up again and only names the tool in the answer to an index of size().
        std::optional<std::size_t> index{};
    };

    /// Calls the tool `name` with JSON `arguments`: reads and checks them, calls the tool and
    /// writes its result. Never throws; safe from several threads at once.
    ///
    /// Without D the arguments are read as the definitions of every dialect ask the model to
    /// send them: an optional parameter may be left out or, as the strict dialects make it, sent
    /// as null. call<D> reads them exactly as definitions<D>() states them: null for an optional
    /// parameter is absent where D makes every property required and nullable (OpenAI strict
    /// mode), and an error elsewhere, unless the registry's call_options set
    /// read_options::null_as_absent.
    template <detail::call_dialect D = detail::any_dialect>
    tool_result call(std::string_view name, std::string_view arguments, const call_args& with = {}) const noexcept {
        if constexpr (!readable) {
            return {};
        } else {
            const std::size_t index = with.index ? *with.index : find(name);
            if (index >= sizeof...(Tools)) return unknown_tool(name);
            const bool null_as_absent = reads_null_as_absent<D>();
            void* const context = with.context.get();
            if (options_.arguments.null_as_absent == null_as_absent)
                return dispatch_[index](tool_address(index), arguments, options_, with.scope, context);
            call_options options = options_;
            options.arguments.null_as_absent = null_as_absent;
            return dispatch_[index](tool_address(index), arguments, options, with.scope, context);
        }
    }

    /// The `tools` payload of dialect D, as a constant.
    template <schema_dialect D = dialect::standard>
    static constexpr std::string_view definitions() noexcept {
        if constexpr (!readable) {
            return {};
        } else {
            static_assert(
                detail::all_of(std::array<bool, sizeof...(Tools)>{detail::check_tool_definition<D, Tools>()...}));
            static_assert(detail::check_request_limits<D, Tools...>());
            return detail::definitions_text<D, Tools...>::view;
        }
    }

    /// Each tool's definition in definitions<D>(), in the registry's order: the constant
    /// fragments a payload of any subset of the tools is joined from (select/catalog.hpp).
    template <schema_dialect D = dialect::standard>
    static constexpr std::span<const std::string_view, sizeof...(Tools)> definition_fragments() noexcept {
        if constexpr (!readable) {
            return detail::no_fragments<sizeof...(Tools)>;
        } else {
            static_cast<void>(definitions<D>());  // its checks
            return detail::definition_fragments<D, Tools...>::views;
        }
    }

    /// The tools, in the order given.
    constexpr const boost::hana::tuple<Tools...>& tools() const noexcept { return tools_; }

private:
    // Explicit types, not auto: the initializers then run only when call or find is used,
    // not whenever the registry type is instantiated.
    static constexpr detail::name_table<sizeof...(Tools)> table_ = detail::name_table<sizeof...(Tools)>::build(names);

    template <class D>
    bool reads_null_as_absent() const noexcept {
        if constexpr (std::is_same_v<D, detail::any_dialect>) return true;
        else return options_.arguments.null_as_absent || D::rules.all_required;
    }

    // The address of the tool at `index`. Where each tool lies in a registry is the same for
    // every object of its type: the offsets are taken once, from the first object called. One
    // unpack, not hana::at_c per tool: each at_c would be a function whose symbol spells the
    // whole registry, N symbols of O(N) length (at 200 tools, 5 s of GCC's time).
    const void* tool_address(std::size_t index) const noexcept {
        using offsets_t = std::array<std::ptrdiff_t, sizeof...(Tools)>;
        static const offsets_t offsets = boost::hana::unpack(tools_, [this](const auto&... tool) {
            const char* base = reinterpret_cast<const char*>(this);
            return offsets_t{(reinterpret_cast<const char*>(&tool) - base)...};
        });
        return reinterpret_cast<const char*>(this) + offsets[index];
    }

    using dispatch_fn = tool_result (*)(const void*, std::string_view, const call_options&, const call_scope&,
                                        void*) noexcept;
    static constexpr std::array<dispatch_fn, sizeof...(Tools)> dispatch_{&detail::invoke<Tools>...};

    static tool_result unknown_tool(std::string_view name) noexcept {
        tool_result result;
        result.status = tool_status::unknown_tool;
        try {
            result.content = detail::unknown_tool_text(name, names);
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
