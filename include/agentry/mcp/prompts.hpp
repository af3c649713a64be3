// SPDX-License-Identifier: BSL-1.0
#ifndef AGENTRY_MCP_PROMPTS_HPP
#define AGENTRY_MCP_PROMPTS_HPP

// MCP prompts served beside the tools. A prompt's arguments are the members of its function's
// parameter struct, reflected at compile time like a tool's schema (names, descriptions from
// field_docs, required unless std::optional):
//
//   struct review_args {
//       std::string code;
//       std::optional<std::string> focus;
//       static constexpr auto docs = agentry::field_docs("code", "The code to review", "focus", "What to look at");
//   };
//   agentry::mcp::server server{tools, info,
//       agentry::mcp::prompt<"review", "Asks for a code review">(+[](const review_args& a) {
//           return "Review this code" + (a.focus ? " for " + *a.focus : std::string()) + ":\n" + a.code;
//       })};
//
// The function returns std::string (one user message) or std::vector<mcp::prompt_message>, each
// message one content block (content.hpp) from the user or the assistant:
//
//   agentry::mcp::prompt<"describe", "Asks for a description of an image">(+[] {
//       return std::vector<agentry::mcp::prompt_message>{
//           {agentry::mcp::role::user, agentry::mcp::image{load_png(), "image/png"}},
//           {agentry::mcp::role::user, "Describe the image above."}};
//   })
//
// prompts/get reads its `arguments` (strings) into the struct with agentry's reader, so a
// member may be a string, an enum, or an optional of either; a missing required argument or an
// unknown one is an Invalid params error with the reader's message. A prompt without arguments
// takes no parameters. Each message's block is written as in a tools/call result: blocks the
// session's version lacks (audio before 2025-03-26, resource links before 2025-06-18) as text
// blocks. Completers of its arguments (completion.hpp) follow the function, or its
// title: prompt<"review", "...">(review, "Review", mcp::completer<"focus">(focuses)), or its
// prompt_info, which has icons (icons.hpp): prompt<"review", "...">(review, {.title = "Review",
// .icons = {{.src = "https://example.com/review.png"}}}).

#include <agentry/json/reader.hpp>
#include <agentry/json/writer.hpp>
#include <agentry/mcp/completion.hpp>
#include <agentry/mcp/content.hpp>
#include <agentry/mcp/icons.hpp>
#include <agentry/mcp/resources.hpp>
#include <agentry/reflect/fields.hpp>
#include <agentry/reflect/fixed_string.hpp>
#include <agentry/reflect/function.hpp>
#include <agentry/schema/field_docs.hpp>

#include <array>
#include <cstddef>
#include <exception>
#include <functional>
#include <optional>
#include <string>
#include <string_view>
#include <tuple>
#include <type_traits>
#include <utility>
#include <vector>

namespace agentry::mcp {

enum class role : unsigned char { user, assistant };

/// One message of a prompt: one content block (content.hpp) from `role`.
///   mcp::prompt_message{mcp::role::user, "Describe this image:"}
///   mcp::prompt_message{mcp::role::user, mcp::image{png, "image/png"}}
struct prompt_message {
    mcp::role role = mcp::role::user;
    content_block content;

    prompt_message() = default;
    /// A text message.
    prompt_message(mcp::role from, std::string text) : role(from), content(text_block{std::move(text)}) {}
    /// A message of one block: a block type or a content_block.
    template <detail::block_or_variant B>
    prompt_message(mcp::role from, B&& block) : role(from), content(std::forward<B>(block)) {}
};

/// One argument of a prompt, as listed.
struct prompt_argument {
    std::string_view name;
    std::string_view description;
    bool required;
};

template <fixed_string Name, fixed_string Description, class F, class... Completers>
struct prompt_t {
    F function;
    /// Display name (sent from 2025-06-18).
    std::string_view title{};
    /// Completers of its arguments (completion.hpp).
    std::tuple<Completers...> completers{};
    /// `icons` (icons.hpp; sent from 2025-11-25).
    std::vector<icon> icons{};
};

/// What a client is told about a prompt besides its name, description and arguments.
struct prompt_info {
    /// Display name (sent from 2025-06-18).
    std::string_view title{};
    /// `icons` (icons.hpp; sent from 2025-11-25).
    std::vector<icon> icons{};
};

namespace detail {

template <class T>
inline constexpr bool is_std_optional = false;
template <class T>
inline constexpr bool is_std_optional<std::optional<T>> = true;

template <class P, std::size_t... I>
consteval std::array<prompt_argument, sizeof...(I)> prompt_arguments_of(std::index_sequence<I...>) {
    std::array<prompt_argument, sizeof...(I)> out{};
    ((out[I] = prompt_argument{reflect::field_names<P>[I], {},
                               !is_std_optional<std::remove_cvref_t<decltype(reflect::field<I>(std::declval<P&>()))>>}),
     ...);
    if constexpr (has_field_docs<P>)
        for (prompt_argument& a : out) a.description = P::docs.find(a.name);
    return out;
}

/// The arguments of a prompt whose function takes `Params` (void: none).
template <class Params>
inline constexpr auto prompt_arguments = [] {
    if constexpr (std::is_void_v<Params>) return std::array<prompt_argument, 0>{};
    else return prompt_arguments_of<Params>(std::make_index_sequence<reflect::field_count<Params>>{});
}();

/// The arguments of a prompt whose function takes `Params`, for completers_fit.
template <class Params>
struct prompt_argument_names {
    static consteval bool has(std::string_view name) {
        for (const prompt_argument& a : prompt_arguments<Params>)
            if (a.name == name) return true;
        return false;
    }
};

/// Each completer names an argument of the prompt whose function is F, once (a function whose
/// signature cannot be read is reported where the server takes the prompt).
template <class F, class... Completers>
consteval bool prompt_completers_fit() {
    if constexpr (sizeof...(Completers) == 0 || !reflect::has_signature<F>) {
        return true;
    } else {
        using P = reflect::first_parameter<typename reflect::signature<F>::parameters>;
        return completers_fit<prompt_has_no_argument, prompt_argument_names<P>, Completers...>();
    }
}

struct prompt_entry {
    std::string name;
    std::string description;
    std::string title;
    std::vector<prompt_argument> arguments;
    /// Renders the prompt for `arguments` (a JSON object of strings) into `messages`; on
    /// failure false, with the problem in `error`. `invalid` tells bad arguments from a
    /// failing function.
    std::function<bool(std::string_view arguments, std::vector<prompt_message>& messages, std::string& error,
                       bool& invalid)>
        get;
    /// Completers of its arguments.
    std::vector<completion_entry> completions;
    /// `,"icons":[...]`, or empty (icons.hpp).
    std::string icons{};
};

inline std::vector<prompt_message> as_messages(std::string text) { return {{role::user, std::move(text)}}; }
inline std::vector<prompt_message> as_messages(std::vector<prompt_message> messages) { return messages; }

template <fixed_string Name, fixed_string Description, class F, class... Completers>
prompt_entry make_entry(const prompt_t<Name, Description, F, Completers...>& p) {
    static_assert(reflect::has_signature<F> && reflect::signature<F>::arity <= 1,
                  "agentry: mcp::prompt: the function takes no parameter or one struct of arguments");
    using P = reflect::first_parameter<typename reflect::signature<F>::parameters>;
    using R = typename reflect::signature<F>::result;
    static_assert(std::is_convertible_v<R, std::string> || std::is_same_v<std::remove_cvref_t<R>, std::vector<prompt_message>>,
                  "agentry: mcp::prompt: the function returns std::string or std::vector<mcp::prompt_message>");
    constexpr auto& arguments = prompt_arguments<P>;
    prompt_entry e{std::string(Name.view()), std::string(Description.view()), std::string(p.title),
                   std::vector<prompt_argument>(arguments.begin(), arguments.end()), {},
                   make_completions(p.completers)};
    e.icons = icon_members(p.icons, icon_owner("prompt", e.name));
    e.get = [f = p.function](std::string_view args, std::vector<prompt_message>& messages, std::string& error,
                             bool& invalid) {
        invalid = false;
        try {
            if constexpr (std::is_void_v<P>) {
                if (args != "{}") {
                    invalid = true;
                    error = "Invalid params: /arguments: this prompt takes no arguments";
                    return false;
                }
                messages = as_messages(f());
            } else {
                json::read_options options;
                options.max_size = args.size();
                auto r = json::read<P>(args, options);
                if (!r.ok()) {
                    invalid = true;
                    error = "Invalid params";
                    for (std::size_t i = 0; i != r.errors.size(); ++i)
                        error += (i == 0 ? ": /arguments" : "; /arguments") + r.errors[i].pointer + ": " +
                                 r.errors[i].message;
                    return false;
                }
                messages = as_messages(f(r.value));
            }
            return true;
        } catch (const std::exception& failure) {
            error = failure.what();
        } catch (...) {
            error = "unknown exception";
        }
        return false;
    };
    return e;
}

} // namespace detail

/// A prompt named `Name`, rendered by `function(arguments)` (or `function()`), with completers
/// of its arguments.
template <fixed_string Name, fixed_string Description, class F, class... Completers>
    requires(is_completer<Completers> && ...)
prompt_t<Name, Description, F, Completers...> prompt(F function, std::string_view title = {},
                                                     Completers... completers) {
    static_assert(detail::prompt_completers_fit<F, Completers...>());
    return {std::move(function), title, {std::move(completers)...}};
}

/// A prompt with a title and icons, with completers of its arguments.
template <fixed_string Name, fixed_string Description, class F, class... Completers>
    requires(is_completer<Completers> && ...)
prompt_t<Name, Description, F, Completers...> prompt(F function, prompt_info info, Completers... completers) {
    static_assert(detail::prompt_completers_fit<F, Completers...>());
    return {std::move(function), info.title, {std::move(completers)...}, std::move(info.icons)};
}

/// A prompt without a title, with completers of its arguments.
template <fixed_string Name, fixed_string Description, class F, class First, class... Completers>
    requires(is_completer<First> && (is_completer<Completers> && ...))
prompt_t<Name, Description, F, First, Completers...> prompt(F function, First first, Completers... completers) {
    return prompt<Name, Description>(std::move(function), std::string_view{}, std::move(first),
                                     std::move(completers)...);
}

template <class T>
inline constexpr bool is_prompt = false;
template <fixed_string N, fixed_string D, class F, class... C>
inline constexpr bool is_prompt<prompt_t<N, D, F, C...>> = true;

} // namespace agentry::mcp

#endif
