// SPDX-License-Identifier: BSL-1.0
#ifndef AGENTRY_MCP_DETAIL_TOOL_TABLE_HPP
#define AGENTRY_MCP_DETAIL_TOOL_TABLE_HPP

// Per-tool constants of a registry for MCP: each tool's tools/list entry (the registry's own
// MCP definition of that one tool), whether its result goes out as structuredContent (an
// object result, the results the MCP dialect writes an outputSchema for), and the length of
// the `,"outputSchema":...` member that ends such a definition, left out for protocol
// versions older than 2025-06-18. Whether its result is MCP content (mcp/content.hpp), sent
// as the result's content blocks.
// D is dialect::mcp, or a variant of it (dialect::with_natural_bounds<dialect::mcp>).
// Also each tool's policy (policy/tool_policy.hpp), for the annotations derived from it and the
// server's permission ceiling.
// Cost: one single-tool definitions<D>() instantiation per tool.

#include <agentry/mcp/content.hpp>
#include <agentry/policy/tool_policy.hpp>
#include <agentry/registry.hpp>
#include <agentry/schema/dialect.hpp>

#include <boost/hana/tuple.hpp>

#include <array>
#include <cstddef>
#include <string_view>
#include <tuple>
#include <type_traits>
#include <utility>

namespace agentry::mcp::detail {

/// {"name":...,"description":...,"inputSchema":...[,"outputSchema":...]} of one tool.
template <class Tool, class D>
inline constexpr std::string_view tool_definition = [] {
    using one = decltype(agentry::registry{std::declval<Tool>()});
    constexpr std::string_view list = one::template definitions<D>();
    return list.substr(1, list.size() - 2);
}();

/// Length of `,"outputSchema":<schema>` at the end of tool_definition<Tool>; 0 without one.
template <class Tool, class D>
consteval std::size_t output_schema_size() {
    using R = typename Tool::result_type;
    if constexpr (!agentry::detail::is_object_result<R>()) return 0;
    else return std::string_view(",\"outputSchema\":").size() +
                schema::detail::schema_text<std::remove_cvref_t<R>, D>::view.size();
}

template <class Tuple, class D>
struct tool_table;

template <class... Tools, class D>
struct tool_table<boost::hana::tuple<Tools...>, D> {
    static constexpr std::size_t size = sizeof...(Tools);
    static constexpr std::array<std::string_view, size> definitions{tool_definition<Tools, D>...};
    static constexpr std::array<bool, size> structured{agentry::detail::is_object_result<typename Tools::result_type>()...};
    static constexpr std::array<bool, size> content_results{is_content_result<typename Tools::result_type>()...};
    static constexpr std::array<std::size_t, size> output_schema_sizes{output_schema_size<Tools, D>()...};
    /// Whether each tool declares a policy, and the policy (destructive for one without).
    static constexpr std::array<bool, size> policied{has_policy<Tools>...};
    static constexpr std::array<tool_policy, size> policies{policy_of<Tools>()...};
    template <std::size_t I>
    using tool_at = std::tuple_element_t<I, std::tuple<Tools...>>;
};

template <class Registry, class D>
using tool_table_of = tool_table<std::remove_cvref_t<decltype(std::declval<const Registry&>().tools())>, D>;

} // namespace agentry::mcp::detail

#endif
