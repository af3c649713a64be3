// SPDX-License-Identifier: BSL-1.0
#ifndef AGENTRY_LOOP_DETAIL_PLAN_SCHEMA_HPP
#define AGENTRY_LOOP_DETAIL_PLAN_SCHEMA_HPP

// The tools payload of the built-in plan tool (agentry::plan_tool_name) for a registry, in the
// provider's dialect, as a constant. Its parameters are the plan schema:
//
//   {"steps": [ one of, per tool T of the registry:
//       {"id": string, "tool": T (an enum of one name), "arguments": T's parameters,
//        "depends_on": [string], "inputs": [{"argument": string, "step": string, "pointer": string}]} ]}
//
// Every property is required and every object closed, so that the strict dialects (OpenAI
// strict: all required, additionalProperties false) express it as they are. A value taken from
// an earlier step's result is not written inside `arguments` (whose schema, a strict dialect
// enforces, has no room for a reference): an entry of `inputs` names the argument (a JSON
// Pointer into `arguments`), the step and a JSON Pointer into that step's result.
//
// Cost in the number of tools N: the step shapes are written by one loop over an array of N
// writer functions (no recursion over the registry), which paste each tool's parameter schema
// (the constant definitions<D>() made); per tool, one more constant evaluation of the schema
// writer's measuring pass, started 3 levels deep, checks that the plan fits the dialect, with
// no new template instantiation.

#include <agentry/registry.hpp>
#include <agentry/reflect/detail/shown_name.hpp>
#include <agentry/schema/detail/sink.hpp>
#include <agentry/schema/dialect.hpp>
#include <agentry/schema/json_schema.hpp>

#include <array>
#include <cstddef>
#include <string_view>

namespace agentry {

/// The name of the built-in tool through which the model hands over a plan.
inline constexpr std::string_view plan_tool_name = "make_plan";

namespace detail {

/// Levels the plan adds above a tool's parameters: the plan object, `steps`, the step object.
inline constexpr std::size_t plan_levels = 3;

/// Whether the parameters P fit dialect D below the plan's own levels: the measuring pass of
/// the schema writer (the functions definitions<D>() instantiates already), started that deep.
template <class P, class D>
inline constexpr bool fits_in_plan = [] {
    schema::detail::sink s;
    s.depth = plan_levels;
    schema::detail::write_root<P, D>(s);
    return s.error != schema::detail::schema_error::too_deep;
}();

template <auto... Name>
struct in_planned_tool {};

/// Instantiated when a plan for the registry cannot be written in dialect D.
template <class D, class Tool, bool Fits>
struct plan_depth {
    static_assert(Fits,
                  "agentry: agent::run(agentry::planned{...}): this tool's parameters nest too deep to be planned in this dialect "
                  "(a plan puts them 3 levels below its root; OpenAI strict allows 10 levels in all); flatten the "
                  "parameter struct, or use another dialect");
    static constexpr bool ok = true;
};

// The limits over the whole plan; the tools' optional parameters are counted as in their
// definitions, which definitions<D>() checks.
template <class D, std::size_t Enums, std::size_t Properties, std::size_t Unions>
struct plan_limits {
    static_assert(Enums <= D::rules.max_enum_values,
                  "agentry: agent::run(agentry::planned{...}): the plan schema has more enum values in all than this dialect allows "
                  "(the tools' own and one per tool name; OpenAI strict: 1000)");
    static_assert(Properties <= D::rules.max_properties,
                  "agentry: agent::run(agentry::planned{...}): the plan schema has more properties than this dialect allows "
                  "(OpenAI strict: 5000 in all)");
    static_assert(Unions <= D::rules.max_union_types,
                  "agentry: agent::run(agentry::planned{...}): the plan schema has more union types than this dialect allows (the "
                  "tools' own and one for the choice of tool; Anthropic strict: 16); plan with fewer tools or use "
                  "agentry::dialect::anthropic");
    static constexpr bool ok = true;
};

template <class D, class Tool>
consteval bool check_planned_tool() noexcept {
    return plan_depth<D, decltype(shown_name<Tool::name_text, in_planned_tool>()),
                      fits_in_plan<typename Tool::parameters_type, D>>::ok;
}

template <class D, class... Tools>
consteval bool check_plan_limits() noexcept {
    using schema::detail::schema_text;
    constexpr std::size_t n = sizeof...(Tools);
    constexpr std::size_t enums = sum_of(std::array<std::size_t, n>{
                                      schema_text<typename Tools::parameters_type, D>::measured.enum_values...}) + n;
    constexpr std::size_t properties =
        sum_of(std::array<std::size_t, n>{schema_text<typename Tools::parameters_type, D>::measured.properties...}) +
        8 * n + 1;
    constexpr std::size_t unions =
        sum_of(std::array<std::size_t, n>{schema_text<typename Tools::parameters_type, D>::measured.union_types...}) +
        (n > 1 ? 1 : 0);
    return plan_limits<D, enums, properties, unions>::ok;
}

template <class D>
constexpr void put_type(schema::detail::sink& s, std::string_view lower, std::string_view upper) noexcept {
    s.put_key("type");
    s.put_quoted(D::rules.upper_case_types ? upper : lower);
}

template <class D>
constexpr void put_closed(schema::detail::sink& s) noexcept {
    if constexpr (D::rules.closed_objects) s.put(",\"additionalProperties\":false");
}

template <class D>
constexpr void put_string_schema(schema::detail::sink& s, std::string_view description) noexcept {
    s.put('{');
    put_type<D>(s, "string", "STRING");
    s.put(",\"description\":");
    s.put_string(description);
    s.put('}');
}

template <class D>
constexpr void put_string_array(schema::detail::sink& s, std::string_view description) noexcept {
    s.put('{');
    put_type<D>(s, "array", "ARRAY");
    s.put(",\"description\":");
    s.put_string(description);
    s.put(",\"items\":{");
    put_type<D>(s, "string", "STRING");
    s.put("}}");
}

template <class D>
constexpr void put_inputs(schema::detail::sink& s) noexcept {
    s.put('{');
    put_type<D>(s, "array", "ARRAY");
    s.put(",\"description\":");
    s.put_string("Argument values taken from the results of steps this one depends on; [] when none.");
    s.put(",\"items\":{");
    put_type<D>(s, "object", "OBJECT");
    s.put(",\"properties\":{\"argument\":");
    put_string_schema<D>(s, "JSON Pointer of the argument to set, e.g. \"/flight_id\" (the value in arguments is "
                            "replaced).");
    s.put(",\"step\":");
    put_string_schema<D>(s, "The id of the step whose result is used; it must be in depends_on.");
    s.put(",\"pointer\":");
    put_string_schema<D>(s, "JSON Pointer into that step's result, e.g. \"/flights/0/id\"; \"\" for the whole "
                            "result.");
    s.put("},\"required\":[\"argument\",\"step\",\"pointer\"]");
    put_closed<D>(s);
    s.put("}}");
}

template <class D, class Tool>
constexpr void write_plan_step(schema::detail::sink& s) noexcept {
    s.put('{');
    put_type<D>(s, "object", "OBJECT");
    s.put(",\"description\":");
    s.put_string(Tool::description);
    s.put(",\"properties\":{\"id\":");
    put_string_schema<D>(s, "A unique id for this step, e.g. \"s1\".");
    s.put(",\"tool\":{");
    put_type<D>(s, "string", "STRING");
    s.put(",\"enum\":[");
    s.put_quoted(Tool::name);
    s.put("]},\"arguments\":");
    s.put(schema::detail::schema_text<typename Tool::parameters_type, D>::view);
    s.put(",\"depends_on\":");
    put_string_array<D>(s, "The ids of the steps that must finish before this one; [] when none.");
    s.put(",\"inputs\":");
    put_inputs<D>(s);
    s.put("},\"required\":[\"id\",\"tool\",\"arguments\",\"depends_on\",\"inputs\"]");
    put_closed<D>(s);
    s.put('}');
}

inline constexpr std::string_view plan_tool_description =
    "Hand over a plan: the tool calls that answer the request, each a step with an id, the tool, its arguments and "
    "the ids of the steps it depends on. Steps that do not depend on each other run in parallel. To use a value "
    "from an earlier step's result, list that step in depends_on and add an input naming the argument (a JSON "
    "Pointer into arguments), the step and a JSON Pointer into its result; give the argument any valid "
    "placeholder value. The results of every step are sent back to you for your answer.";

template <class D, class... Tools>
constexpr void write_plan_payload(schema::detail::sink& s) noexcept {
    using writer = void (*)(schema::detail::sink&) noexcept;
    constexpr std::array<writer, sizeof...(Tools)> steps{&write_plan_step<D, Tools>...};
    constexpr dialect_kind k = D::kind;
    if constexpr (k == dialect_kind::gemini) s.put("[{\"functionDeclarations\":[{");
    else if constexpr (k == dialect_kind::openai || k == dialect_kind::openai_strict)
        s.put("[{\"type\":\"function\",\"function\":{");
    else if constexpr (k == dialect_kind::openai_responses || k == dialect_kind::openai_responses_strict)
        s.put("[{\"type\":\"function\",");
    else s.put("[{");
    s.put_key("name");
    s.put_quoted(plan_tool_name);
    s.put(",\"description\":");
    s.put_string(plan_tool_description);
    s.put(',');
    if constexpr (k == dialect_kind::anthropic || k == dialect_kind::anthropic_strict) s.put_key("input_schema");
    else if constexpr (k == dialect_kind::mcp) s.put_key("inputSchema");
    else s.put_key("parameters");
    s.put('{');
    put_type<D>(s, "object", "OBJECT");
    s.put(",\"properties\":{\"steps\":{");
    put_type<D>(s, "array", "ARRAY");
    s.put(",\"items\":");
    if (steps.size() != 1) s.put("{\"anyOf\":[");
    for (std::size_t i = 0; i != steps.size(); ++i) {
        if (i != 0) s.put(',');
        steps[i](s);
    }
    if (steps.size() != 1) s.put("]}");
    s.put("}},\"required\":[\"steps\"]");
    put_closed<D>(s);
    s.put('}');
    if constexpr (k == dialect_kind::gemini) s.put("}]}]");
    else if constexpr (k == dialect_kind::openai_strict) s.put(",\"strict\":true}}]");
    else if constexpr (k == dialect_kind::openai) s.put("}}]");
    else if constexpr (k == dialect_kind::anthropic_strict || k == dialect_kind::openai_responses_strict)
        s.put(",\"strict\":true}]");
    else if constexpr (k == dialect_kind::openai_responses) s.put(",\"strict\":false}]");
    else s.put("}]");
}

template <class D, class... Tools>
struct plan_payload_text {
    static constexpr std::size_t size = [] {
        schema::detail::sink s;
        write_plan_payload<D, Tools...>(s);
        return s.size;
    }();
    static constexpr auto storage = [] {
        std::array<char, size + 1> text{};
        schema::detail::sink s;
        s.out = text.data();
        write_plan_payload<D, Tools...>(s);
        return text;
    }();
    static constexpr std::string_view view{storage.data(), size};
};

template <class D, class Registry>
struct plan_schema_of;

template <class D, class... Tools>
struct plan_schema_of<D, registry<Tools...>> {
    static_assert(sizeof...(Tools) != 0, "agentry: agent::run(agentry::planned{...}): the registry has no tools to plan with");
    static_assert(registry<Tools...>::find(plan_tool_name) == sizeof...(Tools),
                  "agentry: agent::run(agentry::planned{...}): the registry has a tool named make_plan, the name of the built-in "
                  "plan tool; rename that tool");
    static constexpr std::string_view payload() noexcept {
        static_assert(all_of(std::array<bool, sizeof...(Tools)>{check_planned_tool<D, Tools>()...}));
        static_assert(check_plan_limits<D, Tools...>());
        return plan_payload_text<D, Tools...>::view;
    }
};

} // namespace detail

/// The tools payload holding only the plan tool, whose parameters are the plan schema of
/// `Registry` in dialect D; a compile error when D cannot express that plan.
template <schema_dialect D, class Registry>
constexpr std::string_view plan_definitions() noexcept {
    return detail::plan_schema_of<D, std::remove_cvref_t<Registry>>::payload();
}

} // namespace agentry

#endif
