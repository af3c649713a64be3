// SPDX-License-Identifier: BSL-1.0
#ifndef AGENTRY_MCP_DETAIL_SERVER_CHECKS_HPP
#define AGENTRY_MCP_DETAIL_SERVER_CHECKS_HPP

// The compile-time checks of mcp::server's extras (server.hpp): annotations name tools of the
// registry, once each; no served tool is above a ceiling without needing approval.

#include <agentry/mcp/annotations.hpp>
#include <agentry/mcp/ceiling.hpp>
#include <agentry/policy/tool_policy.hpp>
#include <agentry/reflect/fixed_string.hpp>

#include <array>
#include <cstddef>
#include <string_view>
#include <utility>

namespace agentry::mcp {

namespace detail {
/// Instantiated for an mcp::annotations<Tool> whose Tool the registry lacks; Tool is spelled
/// out in its arguments.
template <bool Known, char... Tool>
struct annotated_tool {
    static_assert(Known, "agentry: mcp::annotations: the registry has no tool of this name (its letters are the "
                         "template arguments of annotated_tool above)");
    static constexpr bool ok = true;
};

template <class Registry, fixed_string Tool>
consteval bool known_tool() {
    return []<std::size_t... I>(std::index_sequence<I...>) {
        return annotated_tool<Registry::find(Tool.view()) != Registry::size(), Tool.value[I]...>::ok;
    }(std::make_index_sequence<Tool.size()>{});
}

template <class T>
struct annotation_name {
    static constexpr std::string_view value{};
};
template <fixed_string Tool>
struct annotation_name<annotations<Tool>> {
    static constexpr std::string_view value = Tool.view();
};

template <class Registry, class T>
struct annotation_check {
    static consteval bool ok() { return true; }
};
template <class Registry, fixed_string Tool>
struct annotation_check<Registry, annotations<Tool>> {
    static consteval bool ok() { return known_tool<Registry, Tool>(); }
};

template <class Registry, class... Extras>
consteval bool check_annotations() {
    constexpr std::array<std::string_view, sizeof...(Extras) + 1> names{annotation_name<Extras>::value..., {}};
    bool unique = true;
    for (std::size_t i = 0; i != sizeof...(Extras); ++i)
        for (std::size_t j = 0; j != i; ++j) unique = unique && (names[i].empty() || names[i] != names[j]);
    return (annotation_check<Registry, Extras>::ok() && ... && unique);
}

/// The first tool above `Level` that needs no approval, or table::size.
template <class Table, permission Level>
consteval std::size_t first_above() {
    for (std::size_t i = 0; i != Table::size; ++i)
        if (Table::policies[i].level > Level && !Table::policies[i].needs_approval) return i;
    return Table::size;
}

template <class Table, class T>
consteval bool within_ceiling() {
    if constexpr (!is_ceiling<T>) {
        return true;
    } else {
        constexpr std::size_t first = first_above<Table, T::level>();
        if constexpr (first == Table::size) return true;
        else return served_tool_above_ceiling<Table::template tool_at<first>::name_text>::ok;
    }
}

} // namespace detail

} // namespace agentry::mcp

#endif
