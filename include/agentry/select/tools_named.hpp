// SPDX-License-Identifier: BSL-1.0
#ifndef AGENTRY_SELECT_TOOLS_NAMED_HPP
#define AGENTRY_SELECT_TOOLS_NAMED_HPP

// agentry::tools_named<Registry, "a", "b">(): a choice of registry tools for one turn, the names
// checked at compile time (a name the registry does not hold is a compile error naming it):
//
//   .select_tools = [](const agentry::tool_catalog&, const agentry::turn_query& q) {
//       if (q.turn == 1) return agentry::tools_named<decltype(tools), "search_flights", "find_hotels">();
//       return agentry::active_tools::every();
//   }
//
// A registry's tools come first in an agent's catalog, in the registry's order, so their
// indices are known at compile time; tools added at run time are chosen by name
// (active_tools::names), checked when the turn is chosen.

#include <agentry/reflect/fixed_string.hpp>
#include <agentry/select/catalog.hpp>
#include <agentry/compose.hpp>
#include <agentry/reflect/detail/names.hpp>
#include <agentry/reflect/detail/shown_name.hpp>

#include <array>
#include <cstddef>

namespace agentry {

namespace detail {

/// Instantiated for a name given to tools_named<...> that the registry does not hold; the name
/// is its argument.
template <class Tool>
struct tools_named_unknown_tool {
    static_assert(sizeof(Tool) == 0,
                  "agentry: tools_named<Registry, ...>(): the registry has no tool of the name in "
                  "tools_named_unknown_tool<tool_named<...>>; name tools the registry holds (Registry::names lists "
                  "them), or choose an added tool by name with active_tools::names");
    static constexpr bool ok = true;
};

} // namespace detail

/// The registry tools `Names` as one turn's choice.
template <class Registry, fixed_string... Names>
active_tools tools_named() {
    static_assert(sizeof...(Names) != 0,
                  "agentry: tools_named<Registry, ...>(): name at least one tool, tools_named<Registry, \"a\">()");
    using found = detail::indices_of_names<Registry, Names...>;
    constexpr std::size_t unknown = found::unknown;
    if constexpr (unknown != sizeof...(Names)) {
        using name = decltype(detail::shown_name<detail::nth_name<unknown, Names...>(), detail::tool_named>());
        static_assert(detail::tools_named_unknown_tool<name>::ok);
        return {};
    } else {
        active_tools chosen;
        chosen.indices.assign(found::at.begin(), found::at.end());
        return chosen;
    }
}

} // namespace agentry

#endif
