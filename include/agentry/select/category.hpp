// SPDX-License-Identifier: BSL-1.0
#ifndef AGENTRY_SELECT_CATEGORY_HPP
#define AGENTRY_SELECT_CATEGORY_HPP

// Tool categories, for selection in two stages (agentry::by_category, select/selector.hpp):
//
//   constexpr agentry::registry tools{
//       agentry::in_category<"travel">(agentry::tool<"search_flights", "...">(search_flights)),
//       agentry::in_category<"billing">(agentry::with_policy<refund_policy>(agentry::tool<"refund", "...">(refund))),
//   };
//   static_assert(agentry::categories<decltype(tools)>()[1] == "billing");
//   agentry::category_schema<decltype(tools)>()   // {"type":"string","enum":["travel","billing"]}
//
// A category is a constant of the tool's type; the registry's categories, in the order they
// first appear, and the JSON Schema enum of them are constants too (the portable search tool
// takes a category among them). Added tools carry theirs in dynamic_tool::category.

#include <agentry/policy/tool_policy.hpp>
#include <agentry/reflect/fixed_string.hpp>
#include <agentry/registry.hpp>
#include <agentry/schema/detail/sink.hpp>
#include <agentry/tool.hpp>

#include <array>
#include <cstddef>
#include <string_view>
#include <utility>

namespace agentry {

/// A tool with a category: the tool itself (its type as base) plus the constant `category`.
template <fixed_string Category, class Tool>
struct categorized_tool : Tool {
    static constexpr std::string_view category = Category.view();
};

template <fixed_string Category, class Tool>
inline constexpr bool is_tool<categorized_tool<Category, Tool>> = is_tool<Tool>;
template <fixed_string Category, class Tool>
inline constexpr bool has_policy<categorized_tool<Category, Tool>> = has_policy<Tool>;

namespace detail {
constexpr bool valid_category(std::string_view c) noexcept {
    if (c.empty() || c.size() > 64) return false;
    for (char ch : c)
        if (!((ch >= 'a' && ch <= 'z') || (ch >= 'A' && ch <= 'Z') || (ch >= '0' && ch <= '9') || ch == '_' ||
              ch == '-'))
            return false;
    return true;
}
template <class T>
inline constexpr bool categorizable = is_tool_t<T> || has_policy<T>;
} // namespace detail

/// `tool` (made by agentry::tool, or with_policy of one) in the category `Category`.
template <fixed_string Category, class Tool>
constexpr auto in_category(Tool tool) {
    static_assert(detail::valid_category(Category.view()),
                  "agentry: in_category<\"name\">(t): a category is 1 to 64 letters, digits, '_' or '-'");
    static_assert(detail::categorizable<Tool>,
                  "agentry: in_category<\"name\">(t): t must be one tool made with agentry::tool<\"name\", "
                  "\"description\">(f) or with_policy<p>(tool), given a category once");
    return categorized_tool<Category, Tool>{std::move(tool)};
}

namespace detail {

template <class Registry>
struct category_list {
    static constexpr std::size_t count = [] {
        std::size_t n = 0;
        for (std::size_t i = 0; i != Registry::categories.size(); ++i) {
            const std::string_view c = Registry::categories[i];
            bool seen = c.empty();
            for (std::size_t j = 0; j != i && !seen; ++j) seen = Registry::categories[j] == c;
            n += seen ? 0 : 1;
        }
        return n;
    }();
    static constexpr auto values = [] {
        std::array<std::string_view, count> out{};
        std::size_t n = 0;
        for (std::size_t i = 0; i != Registry::categories.size(); ++i) {
            const std::string_view c = Registry::categories[i];
            bool seen = c.empty();
            for (std::size_t j = 0; j != n && !seen; ++j) seen = out[j] == c;
            if (!seen) out[n++] = c;
        }
        return out;
    }();
    static constexpr void write(schema::detail::sink& s) noexcept {
        s.put("{\"type\":\"string\",\"enum\":[");
        for (std::size_t i = 0; i != count; ++i) {
            if (i != 0) s.put(',');
            s.put_string(values[i]);
        }
        s.put("]}");
    }
    static constexpr std::size_t schema_size = [] {
        schema::detail::sink s;
        write(s);
        return s.size;
    }();
    static constexpr auto schema_storage = [] {
        std::array<char, schema_size + 1> text{};
        schema::detail::sink s;
        s.out = text.data();
        write(s);
        return text;
    }();
};

} // namespace detail

/// The registry's categories, each once, in the order they first appear.
template <class Registry>
constexpr std::span<const std::string_view, detail::category_list<Registry>::count> categories() noexcept {
    return detail::category_list<Registry>::values;
}

/// The JSON Schema of one of the registry's categories: {"type":"string","enum":[...]}.
template <class Registry>
constexpr std::string_view category_schema() noexcept {
    return {detail::category_list<Registry>::schema_storage.data(), detail::category_list<Registry>::schema_size};
}

} // namespace agentry

#endif
