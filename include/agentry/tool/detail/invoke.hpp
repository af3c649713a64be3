// SPDX-License-Identifier: BSL-1.0
#ifndef AGENTRY_TOOL_DETAIL_INVOKE_HPP
#define AGENTRY_TOOL_DETAIL_INVOKE_HPP

// One tool call: read the arguments, call, write the result; every failure becomes a
// tool_result the model can act on.

#include <agentry/call_scope.hpp>
#include <agentry/detail/separate.hpp>
#include <agentry/detail/text.hpp>
#include <agentry/json/reader.hpp>
#include <agentry/json/writer.hpp>
#include <agentry/outcome.hpp>
#include <agentry/reflect/types.hpp>
#include <agentry/schema/adapter.hpp>
#include <agentry/stop_token.hpp>
#include <agentry/tool_result.hpp>

#include <array>
#include <cstddef>
#include <exception>
#include <string>
#include <string_view>
#include <system_error>
#include <tuple>
#include <type_traits>
#include <utility>
#include <vector>

namespace agentry::detail {

AGENTRY_DECL std::string invalid_arguments_text(std::string_view tool, const std::vector<json::read_error>& errors);

// The parts of a call that do not depend on the tool are functions, not parts of each tool's
// instantiation of invoke.

AGENTRY_DECL void set_invalid(tool_result& result, std::string_view tool, std::vector<json::read_error>& errors);

// Called in a handler: the exception being handled, as the tool's failure.
AGENTRY_DECL void set_thrown(tool_result& result, std::string_view tool);

// Cuts text longer than `cap` bytes the way json::write cuts a result: at a UTF-8 character
// boundary, followed by the truncation marker, `cap` bytes in all. True when it cut.
AGENTRY_DECL bool cut_text(std::string& text, std::size_t cap);

// Passes an argument as an rvalue when the callable takes it so, as an lvalue otherwise.
template <class F, class... A>
decltype(auto) call_with(const F& f, A&... args) {
    if constexpr (std::is_invocable_v<const F&, A&&...>) return f(std::move(args)...);
    else return f(args...);
}

template <class Tool>
auto call_tool(const Tool& tool, json::detail::storage_t<typename Tool::parameters_type>& arguments) {
    using P = typename Tool::parameters_type;
    if constexpr (schema::detail::is_named_parameters<P>)
        return std::apply([&](auto&... a) -> decltype(auto) { return call_with(tool.callable, a...); }, arguments);
    else if constexpr (std::is_invocable_v<const std::remove_cvref_t<decltype(tool.callable)>&, P&&>)
        return tool.callable(std::move(arguments));
    else
        return tool.callable(arguments);
}

/// What the caller supplies for a tool's injected parameters: the call's scope and the
/// registry's context, a Registry::context_type object (null when no tool takes one).
struct caller_injection {
    const call_scope& scope;
    void* context;
};

// The position among the schema's parameters of parameter I, a non-injected one.
template <class... A>
consteval std::array<std::size_t, sizeof...(A)> schema_positions() noexcept {
    constexpr std::array<bool, sizeof...(A)> injected{is_injected<A>...};
    std::array<std::size_t, sizeof...(A)> at{};
    std::size_t next = 0;
    for (std::size_t i = 0; i != sizeof...(A); ++i) {
        at[i] = next;
        if (!injected[i]) ++next;
    }
    return at;
}

// The argument for parameter A: an injected value, or the read argument, passed as an lvalue
// when A is a non-const lvalue reference and as an rvalue otherwise.
template <class A, std::size_t J, bool Named, class Storage>
decltype(auto) argument([[maybe_unused]] Storage& arguments, [[maybe_unused]] const caller_injection& in) {
    constexpr injected kind = injected_kind<A>;
    if constexpr (kind == injected::context) {
        using context_type = typename injected_of<std::remove_cvref_t<A>>::context_type;
        return std::remove_cvref_t<A>(*static_cast<context_type*>(in.context));
    } else if constexpr (kind == injected::stop) {
        return agentry::stop_token(in.scope.stop);
    } else if constexpr (kind == injected::progress) {
        return progress(&in.scope.on_progress);
    } else if constexpr (kind == injected::info) {
        return call_info{in.scope.run_id, in.scope.call_id};
    } else {
        auto& value = [&]() -> auto& {
            if constexpr (Named) return std::get<J>(arguments);
            else return arguments;
        }();
        if constexpr (std::is_lvalue_reference_v<A> && !std::is_const_v<std::remove_reference_t<A>>) return (value);
        else return std::move(value);
    }
}

template <class Tool, class Storage, class... A, std::size_t... I>
auto call_injected(const Tool& tool, Storage& arguments, const caller_injection& in, reflect::type_list<A...>,
                   std::index_sequence<I...>) {
    constexpr auto at = schema_positions<A...>();
    constexpr bool named = schema::detail::is_named_parameters<typename Tool::parameters_type>;
    return tool.callable(argument<A, at[I], named>(arguments, in)...);
}

template <class Tool>
auto call_tool(const Tool& tool, json::detail::storage_t<typename Tool::parameters_type>& arguments,
               const caller_injection& in) {
    using parameters = typename Tool::signature::parameters;
    return call_injected(tool, arguments, in, parameters{}, std::make_index_sequence<boost::mp11::mp_size<parameters>::value>{});
}

// The failure a std::expected's error stands for: a failure as it is, a failure_kind with its
// name as the message, a text, an error code's message, or the error written as JSON (the
// last three permanent).
template <class E>
failure failure_of(E&& error) {
    using U = std::remove_cvref_t<E>;
    if constexpr (std::is_same_v<U, failure>) return std::forward<E>(error);
    else if constexpr (std::is_same_v<U, failure_kind>) return {error, std::string(to_string(error))};
    else if constexpr (std::is_convertible_v<const U&, std::string_view>)
        return {failure_kind::permanent, std::string(std::string_view(error))};
    else if constexpr (std::is_same_v<U, std::error_code>) return {failure_kind::permanent, error.message()};
    else return {failure_kind::permanent, json::to_json(error)};
}

// Whether a U result is written as an MCP content array: its adapter says so (content_blocks),
// or maps it to a type whose adapter does.
template <class U>
consteval bool writes_content_blocks() noexcept {
    if constexpr (requires { requires adapter<U>::content_blocks; }) return true;
    else if constexpr (requires { typename adapter<U>::json_type; }) {
        using J = std::remove_cvref_t<typename adapter<U>::json_type>;
        if constexpr (std::is_same_v<J, U>) return false;
        else return writes_content_blocks<J>();
    } else return false;
}

// The content of a successful call. A std::string or std::string_view result is sent as its
// text, as is (not as a JSON string); any other value as its JSON text. A failed outcome or
// std::expected is a tool_error carrying the failure's kind.
template <class Tool, class V>
void set_content(tool_result& result, V&& value, const call_options& options) {
    using U = std::remove_cvref_t<V>;
    if constexpr (is_outcome<U> || is_std_expected<U>) {
        if (!value) {
            failure f = failure_of(std::forward<V>(value).error());
            result.status = tool_status::tool_error;
            result.failure = f.kind;
            result.content = std::string(Tool::name) + " failed: " + f.message;
        } else if constexpr (std::is_void_v<typename U::value_type>) {
            result.content = "null";
        } else {
            set_content<Tool>(result, *std::forward<V>(value), options);
        }
    } else if constexpr (std::is_same_v<U, std::string>) {
        result.content = std::forward<V>(value);
        result.truncated = cut_text(result.content, options.max_result_size);
    } else if constexpr (std::is_same_v<U, std::string_view>) {
        result.content.assign(value);
        result.truncated = cut_text(result.content, options.max_result_size);
    } else {
        if constexpr (writes_content_blocks<U>()) result.content_blocks = true;
        // json::write_reserved, without a function of its own per result type.
        namespace emit = json::detail::emit;
        result.truncated = !emit::write_reserved_erased(result.content, emit::reserve_hint<U>, &value, &emit::put_erased<U>,
                                                        {.max_size = options.max_result_size});
    }
}

// The registry's dispatch function for the tool at `address`, a template on the tool alone.
// `context` is the registry's context (its context_type, which every tool taking one shares),
// null when there is none; the scope and context reach only a tool with injected parameters.
template <class Tool>
tool_result invoke(const void* address, std::string_view arguments, const call_options& options,
                   [[maybe_unused]] const call_scope& scope, [[maybe_unused]] void* context) noexcept {
    const Tool& tool = *static_cast<const Tool*>(address);
    tool_result result;
    try {
        json::read_options read = options.arguments;
        if (tool.repairs) read.repairs = *tool.repairs;
        auto parsed = json::read<typename Tool::parameters_type>(arguments, read);
        result.repairs.swap(parsed.repairs);  // result.repairs is empty: nothing to destroy here
        if (!parsed.ok()) {
            set_invalid(result, Tool::name, parsed.errors);
            return result;
        }
        const auto call = [&]() -> decltype(auto) {
            if constexpr (Tool::injects) return call_tool(tool, parsed.value, caller_injection{scope, context});
            else return call_tool(tool, parsed.value);
        };
        using R = typename Tool::result_type;
        if constexpr (std::is_void_v<R>) {
            call();
            result.content = "null";
        } else {
            decltype(auto) value = call();
            set_content<Tool>(result, std::forward<decltype(value)>(value), options);
        }
    } catch (...) {
        set_thrown(result, Tool::name);
    }
    return result;
}

} // namespace agentry::detail

#if !defined(AGENTRY_SEPARATE_COMPILATION)
#include <agentry/tool/impl/invoke.ipp>
#endif

#endif
