// SPDX-License-Identifier: BSL-1.0
#ifndef AGENTRY_COMPOSE_HPP
#define AGENTRY_COMPOSE_HPP

// Registries made of other registries, at compile time, so that agents with different tool sets
// share the tools' declarations:
//
//   constexpr agentry::registry files{read_file_tool, write_file_tool, delete_file_tool};
//   constexpr agentry::registry web{search_tool, fetch_tool};
//   constexpr auto everything = agentry::join(files, web);             // all five tools
//   constexpr auto reader = agentry::select<"read_file", "search">(everything);
//
// The tools keep their types, so their policies (with_policy), repairs and context types come
// along. A name in two joined registries, or twice in select, is the registry's duplicate-name
// error; a name select does not find is an error naming it. The result takes the call_options
// of the (first) registry given.

#include <agentry/tool/detail/unsupported.hpp>
#include <agentry/reflect/fixed_string.hpp>
#include <agentry/registry.hpp>

#include <boost/hana/at.hpp>

#include <array>
#include <cstddef>
#include <type_traits>
#include <utility>

namespace agentry {

namespace detail {

template <class R>
inline constexpr bool is_registry = false;
template <class... Tools>
inline constexpr bool is_registry<registry<Tools...>> = true;

/// Instantiated for a name given to select<...> that the registry does not hold; the name is its
/// argument.
template <class Tool>
struct select_unknown_tool {
    static_assert(sizeof(Tool) == 0,
                  "agentry: select<...>(registry): the registry has no tool of the name in "
                  "select_unknown_tool<tool_named<...>>; name tools the registry holds (registry::names lists them)");
};

/// The indices of `Names` in Registry, and the position of the first it does not hold (the
/// number of names when it holds every one): for select<...> and tools_named<...>.
template <class Registry, fixed_string... Names>
struct indices_of_names {
    static constexpr std::array<std::size_t, sizeof...(Names)> at{Registry::find(Names.view())...};
    static constexpr std::size_t unknown = [] {
        for (std::size_t i = 0; i != at.size(); ++i)
            if (at[i] == Registry::size()) return i;
        return at.size();
    }();
};

/// What select<...>(r) returns when a name is unknown: making it shows the diagnostic `Report`.
template <class Report>
struct bad_selection {
    static_assert(sizeof(Report) != 0);
};

template <class... A, class... B, std::size_t... I, std::size_t... J>
constexpr registry<A..., B...> join_two(const registry<A...>& a, const registry<B...>& b, std::index_sequence<I...>,
                                        std::index_sequence<J...>) {
    return registry<A..., B...>{boost::hana::at_c<I>(a.tools())..., boost::hana::at_c<J>(b.tools())...}
        .with_options(a.options());
}

template <class... A, class... B>
constexpr auto join_registries(const registry<A...>& a, const registry<B...>& b) {
    return join_two(a, b, std::index_sequence_for<A...>{}, std::index_sequence_for<B...>{});
}
template <class R1, class R2, class... Rest>
    requires(sizeof...(Rest) != 0)
constexpr auto join_registries(const R1& a, const R2& b, const Rest&... rest) {
    return join_registries(join_registries(a, b), rest...);
}

template <class... Tools, std::size_t... I>
constexpr auto pick(const registry<Tools...>& r, std::index_sequence<I...>) {
    return registry<std::remove_cvref_t<decltype(boost::hana::at_c<I>(r.tools()))>...>{
        boost::hana::at_c<I>(r.tools())...}
        .with_options(r.options());
}


} // namespace detail

/// One registry of the tools of all `registries`, in order. Names must stay unique.
template <class... Registries>
constexpr auto join(const Registries&... registries) {
    static_assert(sizeof...(Registries) >= 2, "agentry: join(r1, r2, ...): give at least two registries");
    static_assert((detail::is_registry<Registries> && ...),
                  "agentry: join(...) takes registries made with agentry::registry{...}, join or select; a registry "
                  "with a registry-wide rate limit (with_rate_limit) is not one, as its limit would not hold for the "
                  "result: compose the registries without it, then give the result its limit");
    if constexpr (sizeof...(Registries) >= 2 && (detail::is_registry<Registries> && ...))
        return detail::join_registries(registries...);
}

/// The registry of the tools of `r` named `Names`, in the order named.
template <fixed_string... Names, class Registry>
constexpr auto select(const Registry& r) {
    static_assert(sizeof...(Names) != 0,
                  "agentry: select<...>(registry): name at least one tool, select<\"a\", \"b\">(registry)");
    static_assert(detail::is_registry<Registry>,
                  "agentry: select<...>(r) takes a registry made with agentry::registry{...}, join or select; a "
                  "registry with a registry-wide rate limit (with_rate_limit) is not one, as its limit would not "
                  "hold for the result: select from the registry without it, then give the result its limit");
    if constexpr (sizeof...(Names) != 0 && detail::is_registry<Registry>) {
        constexpr auto at = detail::indices_of_names<Registry, Names...>::at;
        constexpr std::size_t unknown = detail::indices_of_names<Registry, Names...>::unknown;
        if constexpr (unknown != sizeof...(Names)) {
            using name = decltype(detail::shown_name<detail::nth_name<unknown, Names...>(), detail::tool_named>());
            return detail::bad_selection<detail::select_unknown_tool<name>>{};
        } else {
            return [&]<std::size_t... I>(std::index_sequence<I...>) {
                return detail::pick(r, std::index_sequence<at[I]...>{});
            }(std::make_index_sequence<sizeof...(Names)>{});
        }
    }
}

} // namespace agentry

#endif
