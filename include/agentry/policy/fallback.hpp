// SPDX-License-Identifier: BSL-1.0
#ifndef AGENTRY_POLICY_FALLBACK_HPP
#define AGENTRY_POLICY_FALLBACK_HPP

// Fallback chains (tool_policy::fallback): the adapter that lets a fallback take a failed
// call's arguments when its parameters differ, and the compile-time check of every chain of a
// registry, made by the agent.
//
//   cache_query to_cache(const quote_query& q) { return {q.symbol}; }
//   agentry::with_policy<agentry::tool_policy{.fallback = {agentry::adapt<&to_cache>("cached_quote")}}>(
//       agentry::tool<"live_quote", "...">(live_quote))
//
// A fallback named by a string literal takes the failed call's arguments as they are: its
// parameters must be the same type. With adapt<&f>, f must take the failed tool's parameter
// struct and return the fallback's; the agent reads the arguments into the first, calls f and
// writes the second.

#include <agentry/json/reader.hpp>
#include <agentry/json/writer.hpp>
#include <agentry/policy/registry_policies.hpp>
#include <agentry/policy/tool_policy.hpp>
#include <agentry/reflect/detail/shown_name.hpp>
#include <agentry/reflect/function.hpp>
#include <agentry/reflect/types.hpp>
#include <agentry/registry.hpp>

#include <array>
#include <cstddef>
#include <string>
#include <string_view>
#include <tuple>
#include <type_traits>

namespace agentry {

namespace detail {

/// The parameter and result types of an adapter function.
template <class F>
struct adapter_types {
    static constexpr bool ok = false;
};
template <class F>
    requires std::is_function_v<std::remove_pointer_t<F>>
struct adapter_types<F> {
    using signature = reflect::signature<F>;
    static constexpr bool ok = signature::arity == 1 && !std::is_void_v<typename signature::result>;
    using from = reflect::first_parameter<typename signature::parameters>;
    using to = std::remove_cvref_t<typename signature::result>;
};

template <auto F>
bool adapt_arguments(std::string_view arguments, const json::read_options& options, std::string& out) noexcept {
    using types = adapter_types<decltype(F)>;
    try {
        auto in = json::read<typename types::from>(arguments, options);
        if (!in.ok()) return false;
        const typename types::to converted = F(in.value);
        out.clear();
        return json::write(out, converted);
    } catch (...) {
        return false;
    }
}

template <auto F>
inline constexpr fallback_adapter adapter_of{&adapt_arguments<F>,
                                             &reflect::type_tag<typename adapter_types<decltype(F)>::from>,
                                             &reflect::type_tag<typename adapter_types<decltype(F)>::to>};

} // namespace detail

/// A fallback tool that takes the failed call's arguments through `F`, a function from the
/// failed tool's parameter struct to the fallback's (checked by the agent).
template <auto F, std::size_t N>
consteval fallback_tool adapt(const char (&name)[N]) {
    static_assert(detail::adapter_types<decltype(F)>::ok,
                  "agentry: adapt<&f>(\"tool\"): f must be a function taking one parameter (the failing tool's "
                  "parameter struct) and returning the fallback tool's parameter struct");
    fallback_tool out(name);
    if constexpr (detail::adapter_types<decltype(F)>::ok) out.adapter = &detail::adapter_of<F>;
    return out;
}

namespace detail {

enum class fallback_problem { none, missing, itself, needs_approval, parameters, adapter_from, adapter_to };

/// The two names of a fallback diagnostic (see shown_name): the tool that fails, its fallback.
template <auto... Name>
struct failing_tool {};
template <auto... Name>
struct fallback_named {};

/// Instantiated for a fallback chain that cannot work, with the tool that fails
/// (failing_tool<...>) and the fallback (fallback_named<...>).
template <fallback_problem Problem, class Tool, class Fallback>
struct fallback_diagnostic {
    static_assert(Problem != fallback_problem::missing,
                  "agentry: tool_policy::fallback: the fallback (named by fallback_named<...>) is not a tool of the "
                  "registry of the tool that names it (failing_tool<...>); add it or correct the name");
    static_assert(Problem != fallback_problem::itself,
                  "agentry: tool_policy::fallback: a tool (named by failing_tool<...>) names itself as its fallback; "
                  "use tool_policy::retry to try it again");
    static_assert(Problem != fallback_problem::needs_approval,
                  "agentry: tool_policy::fallback: the fallback (named by fallback_named<...>) needs approval, and a "
                  "fallback runs without asking; name another tool or drop its needs_approval");
    static_assert(Problem != fallback_problem::parameters,
                  "agentry: tool_policy::fallback: the fallback (named by fallback_named<...>) cannot take the "
                  "arguments of the tool that fails (failing_tool<...>): their parameter types differ; give an "
                  "adapter, agentry::adapt<&f>(\"name\"), with f from the first tool's parameters to the second's");
    static_assert(Problem != fallback_problem::adapter_from,
                  "agentry: tool_policy::fallback: the adapter of the fallback (named by fallback_named<...>) does not "
                  "take the parameter struct of the tool that fails (failing_tool<...>)");
    static_assert(Problem != fallback_problem::adapter_to,
                  "agentry: tool_policy::fallback: the adapter of the fallback (named by fallback_named<...>) does not "
                  "return the fallback's parameter struct");
    static constexpr bool ok = true;
};

struct fallback_finding {
    std::size_t tool = 0;
    std::size_t fallback = 0;
    fallback_problem problem = fallback_problem::none;
};

template <fallback_tool F>
consteval auto fallback_name() {
    return fixed_string<F.name_size>(F.name());
}

} // namespace detail

/// Every fallback chain of registry R names a tool of R that can take the failed call's
/// arguments and needs no approval; otherwise a compile error names both tools.
template <class R>
struct fallback_check {
    static consteval bool ok() noexcept { return true; }
};

template <class... Tools>
struct fallback_check<registry<Tools...>> {
    using policies = registry_policies<registry<Tools...>>;
    static constexpr std::array<const void*, sizeof...(Tools)> parameters{
        &reflect::type_tag<typename Tools::parameters_type>...};

    static consteval detail::fallback_finding first_problem() noexcept {
        using detail::fallback_problem;
        for (std::size_t i = 0; i != sizeof...(Tools); ++i) {
            const fallback_chain& chain = policies::table[i].fallback;
            for (std::size_t j = 0; j != chain.size; ++j) {
                const fallback_tool& f = chain.tools[j];
                const std::size_t k = registry<Tools...>::find(f.name());
                fallback_problem p = fallback_problem::none;
                if (k == sizeof...(Tools)) p = fallback_problem::missing;
                else if (k == i) p = fallback_problem::itself;
                else if (policies::table[k].needs_approval) p = fallback_problem::needs_approval;
                else if (!f.adapter && parameters[i] != parameters[k]) p = fallback_problem::parameters;
                else if (f.adapter && f.adapter->from != parameters[i]) p = fallback_problem::adapter_from;
                else if (f.adapter && f.adapter->to != parameters[k]) p = fallback_problem::adapter_to;
                if (p != fallback_problem::none) return {i, j, p};
            }
        }
        return {};
    }

    static consteval bool ok() noexcept {
        constexpr detail::fallback_finding found = first_problem();
        if constexpr (found.problem == detail::fallback_problem::none) {
            return true;
        } else {
            using T = std::tuple_element_t<found.tool, std::tuple<Tools...>>;
            constexpr fallback_tool f = policies::table[found.tool].fallback.tools[found.fallback];
            return detail::fallback_diagnostic<
                found.problem, decltype(detail::shown_name<T::name_text, detail::failing_tool>()),
                decltype(detail::shown_name<detail::fallback_name<f>(), detail::fallback_named>())>::ok;
        }
    }
};

} // namespace agentry

#endif
