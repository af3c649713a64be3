// SPDX-License-Identifier: BSL-1.0
#ifndef AGENTRY_POLICY_REGISTRY_POLICIES_HPP
#define AGENTRY_POLICY_REGISTRY_POLICIES_HPP

// The policies of a registry's tools, as constants indexed like registry::find, and the
// permission ceiling check. A registry whose tools declare no policy has `any == false`, and
// the agent loop then compiles no policy code at all.

#include <agentry/policy/tool_policy.hpp>
#include <agentry/registry.hpp>

#include <array>
#include <cstddef>
#include <tuple>
#include <utility>

namespace agentry {

namespace detail {

/// Instantiated for a tool above loop_config::max_permission without needs_approval; its
/// arguments are the tool's name (see shown_name).
template <auto... Name>
struct tool_above_ceiling {
    static_assert(sizeof...(Name) == 0 && sizeof...(Name) != 0,
                  "agentry: loop_config::max_permission: the registry holds a tool (named by "
                  "tool_above_ceiling<...>) whose permission level is above the ceiling and that needs no approval; declare it with "
                  "with_policy<tool_policy{..., .needs_approval = true}>, lower its level, or raise the ceiling");
    static constexpr bool ok = true;
};

} // namespace detail

/// Another type used as a registry declares no policies.
template <class Registry>
struct registry_policies {
    static constexpr bool any = false;
    static constexpr bool any_rate = false;
    template <permission>
    static consteval bool within() noexcept {
        return true;
    }
};

template <class... Tools>
struct registry_policies<registry<Tools...>> {
    static constexpr std::size_t size = sizeof...(Tools);
    /// Some tool declares a policy.
    static constexpr bool any = !detail::all_of(std::array<bool, size>{!has_policy<Tools>...});
    /// Per tool, in registry order.
    static constexpr std::array<tool_policy, size> table{policy_of<Tools>()...};
    /// Some tool has a rate limit.
    static constexpr bool any_rate = [] {
        for (const tool_policy& p : table)
            if (p.rate.limited()) return true;
        return false;
    }();

    /// Every tool is at or below `ceiling`, or needs approval; otherwise a compile error names
    /// the first tool that is not.
    template <permission Ceiling>
    static consteval bool within() noexcept {
        constexpr std::size_t first = [] {
            for (std::size_t i = 0; i != size; ++i)
                if (table[i].level > Ceiling && !table[i].needs_approval) return i;
            return size;
        }();
        if constexpr (first == size) {
            return true;
        } else {
            using T = std::tuple_element_t<first, std::tuple<Tools...>>;
            return decltype(detail::shown_name<T::name_text, detail::tool_above_ceiling>())::ok;
        }
    }
};

} // namespace agentry

#endif
