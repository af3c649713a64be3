// SPDX-License-Identifier: BSL-1.0
#ifndef AGENTRY_TOOL_HPP
#define AGENTRY_TOOL_HPP

// agentry::tool<"name", "description", "p1", ...>(callable): a function the model can call.
//
// Parameter forms:
//  - one aggregate parameter (by value or const&): its fields are the tool's parameters;
//  - parameters named in the template arguments, one name per parameter;
//  - no parameters.
// Callables: functions, function pointers, lambdas (capturing or not), function objects with
// one non-template operator(), and member functions bound to an object with
// tool<...>(&type::member, &object).
// Besides these, the function may take, in any position, agentry::context<T>,
// agentry::stop_token and agentry::progress (call_scope.hpp): the caller supplies them, and the
// schema, the definitions and the parameter names leave them out.

#include <agentry/call_scope.hpp>
#include <agentry/tool/detail/name_table.hpp>
#include <agentry/tool/detail/unsupported.hpp>
#include <agentry/json/error.hpp>
#include <agentry/reflect/detail/names.hpp>
#include <agentry/reflect/fixed_string.hpp>
#include <agentry/reflect/function.hpp>
#include <agentry/reflect/types.hpp>
#include <agentry/schema/dialect.hpp>
#include <agentry/schema/json_schema.hpp>

#include <cstddef>
#include <optional>
#include <string_view>
#include <type_traits>
#include <utility>

namespace agentry {

namespace detail {

template <class M, class Object>
struct bound_member {
    using signature = reflect::signature<M>;
    M method;
    Object* object;

    template <class... A>
    constexpr decltype(auto) operator()(A&&... args) const {
        return (object->*method)(std::forward<A>(args)...);
    }
};

template <class F>
struct tool_signature : reflect::signature<F> {};
template <class M, class Object>
struct tool_signature<bound_member<M, Object>> : reflect::signature<M> {};

template <class F>
concept readable_callable = requires { typename tool_signature<F>::result; };

template <class A>
using is_injected_t = std::bool_constant<is_injected<A>>;

/// The signature the schema is made of: the callable's, without its injected parameters.
template <class F>
struct schema_signature {
    using result = typename tool_signature<F>::result;
    using parameters = boost::mp11::mp_remove_if<typename tool_signature<F>::parameters, is_injected_t>;
    static constexpr std::size_t arity = boost::mp11::mp_size<parameters>::value;
};

template <class List>
struct injection_of;
template <class... A>
struct injection_of<reflect::type_list<A...>> {
    static constexpr std::size_t count = (std::size_t{0} + ... + std::size_t{is_injected<A>});
    static constexpr std::size_t contexts = (std::size_t{0} + ... + std::size_t{injected_kind<A> == injected::context});
    /// An injected parameter taken by non-const lvalue reference.
    static constexpr bool by_mutable_reference =
        (false || ... ||
         (is_injected<A> && std::is_lvalue_reference_v<A> && !std::is_const_v<std::remove_reference_t<A>>));
};

template <class A>
struct context_type_one {
    using type = void;
};
template <class T>
struct context_type_one<context<T>> {
    using type = std::remove_cv_t<T>;
};
template <class A>
using context_type_one_t = typename context_type_one<std::remove_cvref_t<A>>::type;

/// The T of the first agentry::context<T> in List (without const), or void.
template <class List>
using context_type_of = reflect::first_parameter<
    boost::mp11::mp_remove<boost::mp11::mp_transform<context_type_one_t, List>, void>>;

template <class Sig, fixed_string... Params>
consteval bool takes_one_aggregate() noexcept {
    using P = reflect::first_parameter<typename Sig::parameters>;
    if constexpr (Sig::arity != 1 || sizeof...(Params) != 0) return false;
    else return reflect::aggregate<P> && !schema::detail::is_std_array<P>;
}

template <class Sig, fixed_string... Params>
struct parameters_of {
    using type = named_parameters<typename Sig::parameters, Params...>;
};
template <class Sig, fixed_string... Params>
    requires(takes_one_aggregate<Sig, Params...>())
struct parameters_of<Sig, Params...> {
    using type = reflect::first_parameter<typename Sig::parameters>;
};

enum class parameter_form { ok, unnamed, not_aggregate, name_count, invalid_name, repeated_name };

/// Instantiated when the parameters of the tool whose name is its first argument are not
/// given in one of the three forms.
template <class Tool, parameter_form Form>
struct parameter_form_diagnostic {
    static_assert(Form != parameter_form::unnamed,
                  "agentry: tool<\"name\", \"description\">: the function takes several parameters; name each "
                  "one, tool<\"name\", \"description\", \"p1\", \"p2\">(f), or take one aggregate struct");
    static_assert(Form != parameter_form::not_aggregate,
                  "agentry: tool<\"name\", \"description\">: the only parameter is not an aggregate struct (it has a "
                  "constructor, private members or virtual functions); name it, tool<\"name\", \"description\", "
                  "\"p1\">(f), or take a plain struct with public fields whose fields are the parameters");
    static_assert(Form != parameter_form::name_count,
                  "agentry: tool<\"name\", \"description\", \"p1\", ...>: the number of parameter names differs "
                  "from the number of the function's parameters; give one name per parameter");
};

template <class Sig, fixed_string... Params>
consteval parameter_form form_of() {
    constexpr std::size_t arity = Sig::arity;
    constexpr std::size_t names = sizeof...(Params);
    if constexpr (names == 0 && arity > 1) return parameter_form::unnamed;
    else if constexpr (names == 0 && arity == 1 && !takes_one_aggregate<Sig>()) return parameter_form::not_aggregate;
    else if constexpr (names != 0 && names != arity) return parameter_form::name_count;
    else if constexpr (first_invalid_name<name_kind::parameter, Params...>() != names)
        return parameter_form::invalid_name;
    else if constexpr (first_duplicate(std::array<std::string_view, names>{Params.view()...}) != names)
        return parameter_form::repeated_name;
    else return parameter_form::ok;
}

// The diagnostic of a parameter form, as a type; one about a name shows the tool's and the parameter's.
template <class Tool, parameter_form Form, fixed_string... Params>
consteval auto form_report() {
    constexpr std::size_t n = sizeof...(Params);
    if constexpr (Form == parameter_form::invalid_name) {
        constexpr auto parameter = nth_name<first_invalid_name<name_kind::parameter, Params...>(), Params...>();
        return std::type_identity<name_check<name_error::parameter_name, Tool,
                                             decltype(shown_name<parameter, parameter_named>())>>{};
    } else if constexpr (Form == parameter_form::repeated_name) {
        constexpr auto parameter =
            nth_name<first_duplicate(std::array<std::string_view, n>{Params.view()...}), Params...>();
        return std::type_identity<name_check<name_error::repeated_parameter, Tool,
                                             decltype(shown_name<parameter, parameter_named>())>>{};
    } else {
        return std::type_identity<parameter_form_diagnostic<Tool, Form>>{};
    }
}

enum class parameter_problem { none, form, type, mutable_callable, injection };

enum class injection_problem { two_contexts, by_mutable_reference };

/// Instantiated when the injected parameters of the tool named in its first argument are
/// taken wrongly.
template <class Tool, injection_problem Problem>
struct injection_diagnostic {
    static_assert(Problem != injection_problem::two_contexts,
                  "agentry: tool<...>(f): f takes more than one agentry::context<T>; a call has one context: take "
                  "one agentry::context<T> whose T holds everything the tool needs");
    static_assert(Problem != injection_problem::by_mutable_reference,
                  "agentry: tool<...>(f): f takes agentry::context<T>, agentry::stop_token, agentry::progress or "
                  "agentry::call_info by non-const reference; take them by value (they are cheap to copy) or by const "
                  "reference");
};

template <class F>
consteval injection_problem injection_problem_of() {
    using injection = injection_of<typename tool_signature<F>::parameters>;
    if constexpr (injection::contexts > 1) return injection_problem::two_contexts;
    else return injection_problem::by_mutable_reference;
}

template <class F>
consteval bool injection_ok() {
    using injection = injection_of<typename tool_signature<F>::parameters>;
    return injection::contexts <= 1 && !injection::by_mutable_reference;
}

// The first thing wrong with f's parameters: their form, a type with no JSON Schema, a
// callable that is not const, injected parameters taken wrongly.
template <class F, fixed_string... Params>
consteval parameter_problem problem_of() {
    using sig = schema_signature<F>;
    if constexpr (form_of<sig, Params...>() != parameter_form::ok) return parameter_problem::form;
    else if constexpr (first_unsupported<typename parameters_of<sig, Params...>::type>::reason != unsupported::none)
        return parameter_problem::type;
    else if constexpr (!const_callable<F, typename tool_signature<F>::parameters>)
        return parameter_problem::mutable_callable;
    else if constexpr (!injection_ok<F>()) return parameter_problem::injection;
    else return parameter_problem::none;
}

// Its one diagnostic, naming the tool, as a type (std::type_identity<diagnostic>).
template <fixed_string Name, class F, fixed_string... Params>
consteval auto report_of() {
    using sig = schema_signature<F>;
    using tool = decltype(shown_name<Name, tool_named>());
    constexpr parameter_problem problem = problem_of<F, Params...>();
    if constexpr (problem == parameter_problem::form)
        return form_report<tool, form_of<sig, Params...>(), Params...>();
    else if constexpr (problem == parameter_problem::type)
        return std::type_identity<unsupported_report<Name, typename parameters_of<sig, Params...>::type>>{};
    else if constexpr (problem == parameter_problem::mutable_callable)
        return std::type_identity<mutable_callable<tool>>{};
    else
        return std::type_identity<injection_diagnostic<tool, injection_problem_of<F>()>>{};
}

/// What tool<...>(f) returns when f cannot be a tool. Making one shows the diagnostic
/// `Report` first, in the return statement of tool<...>(f); nothing else there fails after it.
template <class Report = void>
struct unreadable_tool {
    static_assert(sizeof(Report) != 0);
};
template <>
struct unreadable_tool<void> {};

template <class T>
inline constexpr bool is_unreadable_tool = false;
template <class Report>
inline constexpr bool is_unreadable_tool<unreadable_tool<Report>> = true;

} // namespace detail

/// A tool: its name, description and callable, with its schemas computed from the signature.
template <fixed_string Name, fixed_string Description, class F, fixed_string... Params>
struct tool_t {
    using callable_type = F;
    /// The callable's signature, with its injected parameters.
    using signature = detail::tool_signature<F>;
    using result_type = typename signature::result;
    /// The aggregate whose fields are the parameters, or agentry::named_parameters<...>;
    /// without the injected parameters (agentry::context<T>, agentry::stop_token, agentry::progress,
    /// agentry::call_info).
    using parameters_type = typename detail::parameters_of<detail::schema_signature<F>, Params...>::type;
    /// The T of the agentry::context<T> the callable takes (without const), or void.
    using context_type = detail::context_type_of<typename signature::parameters>;
    /// The callable takes some injected parameter.
    static constexpr bool injects = detail::injection_of<typename signature::parameters>::count != 0;

    static constexpr std::string_view name = Name.view();
    static constexpr std::string_view description = Description.view();
    static constexpr fixed_string<Name.size()> name_text = Name;

    F callable;
    /// Repairs for this tool's arguments, instead of the registry's (see with_repairs).
    std::optional<json::repairs> repairs{};

    /// This tool with its own repairs of model mistakes, e.g.
    /// tool<...>(f).with_repairs({.number_in_string = true}).
    constexpr tool_t with_repairs(json::repairs r) const {
        tool_t copy = *this;
        copy.repairs = r;
        return copy;
    }

    /// The schema of the tool's arguments object in dialect D.
    template <schema_dialect D = dialect::standard>
    static constexpr std::string_view parameters_schema() noexcept {
        static_assert(schema::detail::check_schema<parameters_type, D, Name>());
        return schema::detail::schema_text<parameters_type, D>::view;
    }

    /// The schema of the result in dialect D (the tool must return a value).
    template <schema_dialect D = dialect::standard>
    static constexpr std::string_view result_schema() noexcept {
        if constexpr (std::is_void_v<result_type>) {
            static_assert(!std::is_void_v<result_type>, "agentry: tool<...>::result_schema: the tool returns void");
            return std::string_view{};
        } else {
            using R = std::remove_cvref_t<result_type>;
            static_assert(schema::detail::check_schema<R, D, Name>());
            return schema::detail::schema_text<R, D>::view;
        }
    }
};

template <class T>
inline constexpr bool is_tool = false;
template <fixed_string Name, fixed_string Description, class F, fixed_string... Params>
inline constexpr bool is_tool<tool_t<Name, Description, F, Params...>> = true;

/// Makes a tool of a callable: tool<"name", "description">(f), or with parameter names
/// tool<"name", "description", "a", "b">(f).
template <fixed_string Name, fixed_string Description, fixed_string... Params, class F>
constexpr auto tool(F callable) {
    if constexpr (!detail::valid_name(Name.view(), detail::name_kind::tool))
        static_assert(detail::check_name<detail::name_error::tool_name, Name>());
    static_assert(!Description.empty(),
                  "agentry: tool<\"name\", \"description\">: the description is empty; models choose tools by "
                  "their descriptions, so say what the tool does and when to use it");
    if constexpr (!detail::readable_callable<F>) {
        static_assert(detail::readable_callable<F>,
                      "agentry: tool<...>(f): the parameters of f cannot be read: its operator() is a template (a "
                      "generic lambda) or overloaded, or f is C-variadic; give it one set of concrete parameter types");
        return detail::unreadable_tool<>{};
    } else if constexpr (detail::problem_of<F, Params...>() != detail::parameter_problem::none) {
        return detail::unreadable_tool<typename decltype(detail::report_of<Name, F, Params...>())::type>{};
    } else {
        return tool_t<Name, Description, F, Params...>{std::move(callable)};
    }
}

/// Makes a tool of a member function called on `object`, which must outlive the tool.
template <fixed_string Name, fixed_string Description, fixed_string... Params, class M, class Object>
    requires std::is_member_function_pointer_v<M>
constexpr auto tool(M method, Object* object) {
    return tool<Name, Description, Params...>(detail::bound_member<M, Object>{method, object});
}

} // namespace agentry

#endif
