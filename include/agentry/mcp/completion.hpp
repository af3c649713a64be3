// SPDX-License-Identifier: BSL-1.0
#ifndef AGENTRY_MCP_COMPLETION_HPP
#define AGENTRY_MCP_COMPLETION_HPP

// Completion of prompt arguments and resource template variables (completion/complete). A
// completer is given with the prompt or the resource template whose argument it completes, one
// per argument; the argument's name is checked at compile time against the members of the
// prompt's parameter struct, or the template's {variables}:
//
//   std::vector<std::string> languages(std::string_view partial) {
//       std::vector<std::string> out;
//       for (std::string_view l : {"c", "c++", "python", "rust"})
//           if (l.starts_with(partial)) out.emplace_back(l);
//       return out;
//   }
//   agentry::mcp::prompt<"review", "Asks for a code review">(review, agentry::mcp::completer<"language">(languages))
//   agentry::mcp::resource_template<"notes://{folder}/{id}", "note">(read_note, {.mime_type = "text/markdown"},
//       agentry::mcp::completer<"id">(+[](std::string_view partial, const agentry::mcp::completion_arguments& given) {
//           const auto folder = given.find("folder");
//           return note_ids(folder == given.end() ? "" : folder->second, partial);
//       }))
//
// The function takes the partial value, and optionally the arguments the client has already
// given (the request's context.arguments), and returns the candidates, best first. The answer
// carries the first max_completion_values of them, `total` (how many the function returned) and
// `hasMore` (whether that is more than were sent). An argument without a completer has none.

#include <agentry/reflect/detail/shown_name.hpp>
#include <agentry/reflect/fixed_string.hpp>

#include <array>
#include <cstddef>
#include <functional>
#include <map>
#include <string>
#include <string_view>
#include <tuple>
#include <type_traits>
#include <utility>
#include <vector>

namespace agentry::mcp {

/// The most values one completion/complete answer carries (the specification's limit).
inline constexpr std::size_t max_completion_values = 100;

/// The arguments the client has already given, by name (context.arguments of the request).
using completion_arguments = std::map<std::string, std::string>;

template <fixed_string Argument, class F>
struct completer_t {
    static constexpr auto argument = Argument;
    F function;
};

/// Completes the argument (or template variable) `Argument`: function(partial), or
/// function(partial, given), returns the candidates.
template <fixed_string Argument, class F>
completer_t<Argument, F> completer(F function) {
    static_assert(std::is_invocable_r_v<std::vector<std::string>, const F&, std::string_view> ||
                      std::is_invocable_r_v<std::vector<std::string>, const F&, std::string_view,
                                            const completion_arguments&>,
                  "agentry: mcp::completer: the function takes (std::string_view partial) or (std::string_view "
                  "partial, const mcp::completion_arguments& given) and returns std::vector<std::string>");
    return {std::move(function)};
}

template <class T>
inline constexpr bool is_completer = false;
template <fixed_string A, class F>
inline constexpr bool is_completer<completer_t<A, F>> = true;

namespace detail {

/// A completer, its function type-erased.
struct completion_entry {
    std::string argument;
    std::function<std::vector<std::string>(std::string_view partial, const completion_arguments& given)> complete;
};

template <fixed_string Argument, class F>
completion_entry make_completion(const completer_t<Argument, F>& c) {
    completion_entry e{std::string(Argument.view()), {}};
    e.complete = [f = c.function](std::string_view partial,
                                  const completion_arguments& given) -> std::vector<std::string> {
        if constexpr (std::is_invocable_r_v<std::vector<std::string>, const F&, std::string_view,
                                            const completion_arguments&>)
            return f(partial, given);
        else
            return f(partial);
    };
    return e;
}

template <class... Completers>
std::vector<completion_entry> make_completions(const std::tuple<Completers...>& completers) {
    return std::apply([](const auto&... c) { return std::vector<completion_entry>{make_completion(c)...}; },
                      completers);
}

/// The argument of a completer, as a diagnostic shows it (see shown_name).
template <auto... Name>
struct completer_named {};

/// Instantiated for a completer of an argument the prompt does not have.
template <class Shown>
struct prompt_has_no_argument {
    static_assert(sizeof(Shown) == 0,
                  "agentry: mcp::completer: the prompt has no argument of the name in completer_named<...>; name a "
                  "member of the prompt function's parameter struct, or remove the completer");
    static constexpr bool ok = true;
};

/// Instantiated for a completer of a variable the resource template does not have.
template <class Shown>
struct template_has_no_variable {
    static_assert(sizeof(Shown) == 0,
                  "agentry: mcp::completer: the resource template has no {variable} of the name in "
                  "completer_named<...>; name a variable of its URI template, or remove the completer");
    static constexpr bool ok = true;
};

/// Instantiated for a second completer of one argument.
template <class Shown>
struct completer_twice {
    static_assert(sizeof(Shown) == 0,
                  "agentry: mcp::completer: two completers name the argument in completer_named<...>; keep one");
    static constexpr bool ok = true;
};

/// The first completer whose argument `Known::has` refuses, or the count.
template <class Known, class... Completers>
consteval std::size_t first_unknown_argument() {
    constexpr std::array<std::string_view, sizeof...(Completers) + 1> names{Completers::argument.view()..., {}};
    for (std::size_t i = 0; i != sizeof...(Completers); ++i)
        if (!Known::has(names[i])) return i;
    return sizeof...(Completers);
}

/// The first completer whose argument an earlier one names, or the count.
template <class... Completers>
consteval std::size_t first_repeated_argument() {
    constexpr std::array<std::string_view, sizeof...(Completers) + 1> names{Completers::argument.view()..., {}};
    for (std::size_t i = 0; i != sizeof...(Completers); ++i)
        for (std::size_t j = 0; j != i; ++j)
            if (names[i] == names[j]) return i;
    return sizeof...(Completers);
}

/// True when each completer names an argument `Known::has` and no argument has two; otherwise
/// a compile error (Unknown's, or completer_twice's) shows the first name at fault. The cost
/// grows with the square of the number of completers of one prompt or template.
template <template <class> class Unknown, class Known, class... Completers>
consteval bool completers_fit() {
    constexpr std::size_t count = sizeof...(Completers);
    constexpr std::size_t unknown = first_unknown_argument<Known, Completers...>();
    constexpr std::size_t repeated = first_repeated_argument<Completers...>();
    if constexpr (unknown != count) {
        using named = std::tuple_element_t<unknown, std::tuple<Completers...>>;
        return Unknown<decltype(agentry::detail::shown_name<named::argument, completer_named>())>::ok;
    } else if constexpr (repeated != count) {
        using named = std::tuple_element_t<repeated, std::tuple<Completers...>>;
        return completer_twice<decltype(agentry::detail::shown_name<named::argument, completer_named>())>::ok;
    } else {
        return true;
    }
}

} // namespace detail

} // namespace agentry::mcp

#endif
