// SPDX-License-Identifier: BSL-1.0
#ifndef AGENTRY_LOOP_STOP_HPP
#define AGENTRY_LOOP_STOP_HPP

// Stop conditions beyond the turn limit: tools whose result is the answer
// (loop_config::stop_at_tools, checked against the registry at compile time), the token and
// tool-call budgets (loop_config::max_total_tokens, max_tool_calls), and the application's
// predicate over the run so far (agent_options::stop_condition).
//
//   constexpr agentry::loop_config config{.stop_at_tools = {"book_table"}, .max_total_tokens = 20000};
//   agentry::agent_options options{.stop_condition = [](const agentry::run_state_view& s) {
//       return s.result.steps.size() >= 5;
//   }};

#include <agentry/detail/chrono.hpp>
#include <agentry/loop/result.hpp>
#include <agentry/provider/message.hpp>
#include <agentry/reflect/detail/names.hpp>
#include <agentry/reflect/detail/shown_name.hpp>
#include <agentry/reflect/fixed_string.hpp>

#include <cstddef>
#include <cstdint>
#include <functional>
#include <span>
#include <string_view>
#include <type_traits>

namespace agentry {

/// The most tools loop_config::stop_at_tools names, and the longest name.
inline constexpr std::size_t max_stop_tools = 4;
inline constexpr std::size_t max_stop_tool_name_size = detail::max_name_size;

/// Tool names, as a structural value: .stop_at_tools = {"book_table", "give_up"}.
struct stop_tool_names {
    // Public, so that the type is structural.
    char text[max_stop_tools][max_stop_tool_name_size + 1]{};
    std::size_t sizes[max_stop_tools]{};
    std::size_t size = 0;

    constexpr stop_tool_names() = default;
    template <std::size_t... N>
        requires(sizeof...(N) >= 1)
    constexpr stop_tool_names(const char (&... names)[N]) {  // NOLINT: implicit on purpose
        static_assert(sizeof...(N) <= max_stop_tools, "agentry: loop_config::stop_at_tools names at most 4 tools");
        static_assert(detail::name_check<((N - 1 <= max_stop_tool_name_size) && ...)
                                             ? detail::name_error::none
                                             : detail::name_error::stop_name_too_long>::ok);
        (add(names, N - 1), ...);
    }

    constexpr std::string_view operator[](std::size_t i) const noexcept { return {text[i], sizes[i]}; }
    constexpr bool empty() const noexcept { return size == 0; }
    constexpr bool contains(std::string_view name) const noexcept {
        for (std::size_t i = 0; i != size; ++i)
            if ((*this)[i] == name) return true;
        return false;
    }

private:
    constexpr void add(const char* name, std::size_t n) {
        for (std::size_t i = 0; i != n; ++i) text[size][i] = name[i];
        sizes[size++] = n;
    }
};

/// What a stop condition sees after each turn whose tool calls have run.
struct run_state_view {
    /// The run so far: turns, steps, usage (its text and stop are not set yet).
    const run_result& result;
    /// The conversation, with this turn's results.
    std::span<const message> conversation;
    /// Since the run (or this part of it: a run from approvals or a continuation) started.
    std::chrono::milliseconds elapsed;
};

/// True to stop the run (stop_reason::stop_condition); a throw stops it with
/// stop_reason::callback_error.
using stop_condition = std::function<bool(const run_state_view&)>;

namespace detail {

/// The tokens a run has used, input and output, as the token budget counts them: every model
/// turn and every summary request (whatever adds to run_result::usage).
inline std::uint64_t tokens_used(const run_result& r) noexcept {
    return r.usage.input_tokens + r.usage.output_tokens;
}

/// Instantiated for a stop_at_tools name the registry does not hold, with the name.
template <class Name>
struct stop_at_unknown_tool {
    static_assert(sizeof(Name) == 0,
                  "agentry: loop_config::stop_at_tools: the registry has no tool of the name in "
                  "stop_at_unknown_tool<tool_named<...>>; name a tool of the agent's registry, or name a tool "
                  "named at run time in agent_options::stop_at_tools");
    static constexpr bool ok = true;
};

template <stop_tool_names Names, std::size_t I>
consteval auto stop_tool_name() {
    return fixed_string<Names.sizes[I]>(Names[I]);
}

/// Every name of `Names` is a tool of Registry; otherwise a compile error shows the first that
/// is not.
template <class Registry, stop_tool_names Names>
consteval bool stop_tools_known() noexcept {
    constexpr std::size_t unknown = [] {
        for (std::size_t i = 0; i != Names.size; ++i)
            if (Registry::find(Names[i]) == Registry::size()) return i;
        return Names.size;
    }();
    if constexpr (unknown == Names.size) {
        return true;
    } else {
        using name = decltype(shown_name<stop_tool_name<Names, unknown>(), tool_named>());
        return stop_at_unknown_tool<name>::ok;
    }
}

} // namespace detail

} // namespace agentry

#endif
