// SPDX-License-Identifier: BSL-1.0
#ifndef AGENTRY_MCP_DETAIL_TOOL_TABLE_HPP
#define AGENTRY_MCP_DETAIL_TOOL_TABLE_HPP

// Per-tool constants of a registry for MCP: each tool's tools/list entry (the registry's own
// MCP definition of that one tool) and whether its result goes out as structuredContent (an
// object result, the results the MCP dialect writes an outputSchema for).
// Cost: one single-tool definitions<dialect::mcp>() instantiation per tool.

#include <agentry/registry.hpp>
#include <agentry/schema/dialect.hpp>

#include <boost/hana/tuple.hpp>

#include <array>
#include <cstddef>
#include <string_view>
#include <type_traits>
#include <utility>

namespace agentry::mcp::detail {

/// {"name":...,"description":...,"inputSchema":...[,"outputSchema":...]} of one tool.
template <class Tool>
inline constexpr std::string_view tool_definition = [] {
    using one = decltype(agentry::registry{std::declval<Tool>()});
    constexpr std::string_view list = one::template definitions<dialect::mcp>();
    return list.substr(1, list.size() - 2);
}();

template <class Tuple>
struct tool_table;

template <class... Tools>
struct tool_table<boost::hana::tuple<Tools...>> {
    static constexpr std::size_t size = sizeof...(Tools);
    static constexpr std::array<std::string_view, size> definitions{tool_definition<Tools>...};
    static constexpr std::array<bool, size> structured{agentry::detail::is_object_result<typename Tools::result_type>()...};
};

template <class Registry>
using tool_table_of = tool_table<std::remove_cvref_t<decltype(std::declval<const Registry&>().tools())>>;

} // namespace agentry::mcp::detail

#endif
