// SPDX-License-Identifier: BSL-1.0
#ifndef AGENTRY_POLICY_REGISTRY_POLICIES_HPP
#define AGENTRY_POLICY_REGISTRY_POLICIES_HPP

// The policies of a registry's tools, as constants indexed like registry::find, and the
// permission ceiling check. A registry whose tools declare no policy has `any == false`, and
// the agent loop then compiles no policy code at all.
//
// with_rate_limit<rate_limit{...}>(registry): the registry with a limit on all its tools' calls
// together, on top of each tool's own (registry_policies<R>::registry_rate).

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

/// A registry whose tools' calls share one rate limit, `Limit`, besides each tool's own. It is
/// the registry (a derived class): the same tools, definitions and registry.call.
template <rate_limit Limit, class Registry>
class rate_limited_registry : public Registry {
public:
    /// The limit on the calls of all the tools together.
    static constexpr rate_limit registry_rate = Limit;

    explicit constexpr rate_limited_registry(const Registry& tools) : Registry(tools) {}

    /// This registry with other call options, still with its limit.
    constexpr rate_limited_registry with_options(const call_options& options) const {
        return rate_limited_registry(Registry::with_options(options));
    }
};

/// `tools` with at most Limit.calls calls of all its tools together per Limit.per_ms ms, e.g.
/// with_rate_limit<rate_limit{.calls = 30, .per_ms = 60'000}>(tools).
template <rate_limit Limit, class... Tools>
constexpr rate_limited_registry<Limit, registry<Tools...>> with_rate_limit(const registry<Tools...>& tools) {
    static_assert(Limit.calls != 0, "agentry: with_rate_limit<rate_limit{...}>: rate_limit::calls must be at least 1");
    static_assert(Limit.per_ms > 0, "agentry: with_rate_limit<rate_limit{...}>: rate_limit::per_ms must be positive");
    return rate_limited_registry<Limit, registry<Tools...>>(tools);
}

/// Another type used as a registry declares no policies.
template <class Registry>
struct registry_policies {
    static constexpr bool any = false;
    static constexpr bool any_rate = false;
    static constexpr rate_limit registry_rate{};
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
    /// The limit on all the tools' calls together: none here (see with_rate_limit).
    static constexpr rate_limit registry_rate{};

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

/// decltype of a constexpr registry is const.
template <class Registry>
struct registry_policies<const Registry> : registry_policies<Registry> {};

/// A registry with a shared limit: its tools' policies, and the limit. `any` and `any_rate`
/// are true, so that the agent keeps a rate_limiter for it.
template <rate_limit Limit, class Registry>
struct registry_policies<rate_limited_registry<Limit, Registry>> : registry_policies<Registry> {
    static constexpr bool any = true;
    static constexpr bool any_rate = true;
    static constexpr rate_limit registry_rate = Limit;
};

} // namespace agentry

#endif
