// SPDX-License-Identifier: BSL-1.0
#ifndef AGENTRY_REFLECT_FUNCTION_HPP
#define AGENTRY_REFLECT_FUNCTION_HPP

// Signatures of callables: free functions, function pointers, member function pointers,
// lambdas and function objects with one non-template operator().

#include <agentry/reflect/types.hpp>

#include <cstddef>
#include <type_traits>

namespace agentry::reflect {

template <class R, class... A>
struct signature_of_function {
    using result = R;
    using parameters = type_list<A...>;
    static constexpr std::size_t arity = sizeof...(A);
};

template <class C, class R, class... A>
struct signature_of_member : signature_of_function<R, A...> {
    using class_type = C;
};

namespace detail {

template <class F>
struct signature_impl {};

template <class R, class... A>
struct signature_impl<R(A...)> : signature_of_function<R, A...> {};
template <class R, class... A>
struct signature_impl<R(A...) noexcept> : signature_of_function<R, A...> {};
template <class R, class... A>
struct signature_impl<R (*)(A...)> : signature_of_function<R, A...> {};
template <class R, class... A>
struct signature_impl<R (*)(A...) noexcept> : signature_of_function<R, A...> {};

template <class C, class R, class... A>
struct signature_impl<R (C::*)(A...)> : signature_of_member<C, R, A...> {};
template <class C, class R, class... A>
struct signature_impl<R (C::*)(A...) noexcept> : signature_of_member<C, R, A...> {};
template <class C, class R, class... A>
struct signature_impl<R (C::*)(A...) &> : signature_of_member<C, R, A...> {};
template <class C, class R, class... A>
struct signature_impl<R (C::*)(A...) & noexcept> : signature_of_member<C, R, A...> {};
template <class C, class R, class... A>
struct signature_impl<R (C::*)(A...) const> : signature_of_member<const C, R, A...> {};
template <class C, class R, class... A>
struct signature_impl<R (C::*)(A...) const noexcept> : signature_of_member<const C, R, A...> {};
template <class C, class R, class... A>
struct signature_impl<R (C::*)(A...) const&> : signature_of_member<const C, R, A...> {};
template <class C, class R, class... A>
struct signature_impl<R (C::*)(A...) const & noexcept> : signature_of_member<const C, R, A...> {};

template <class F>
concept has_call_operator = std::is_class_v<F> && requires { &F::operator(); };

template <class F>
    requires has_call_operator<F>
struct signature_impl<F> {
    using call_operator = signature_impl<decltype(&F::operator())>;
    using result = typename call_operator::result;
    using parameters = typename call_operator::parameters;
    static constexpr std::size_t arity = call_operator::arity;
};

} // namespace detail

template <class F>
struct signature : detail::signature_impl<std::remove_cvref_t<F>> {};

/// A callable whose parameter and result types can be read: not overloaded, not generic.
template <class F>
concept has_signature = requires { typename signature<F>::result; };

template <class F>
concept member_function_pointer = std::is_member_function_pointer_v<std::remove_cvref_t<F>>;

} // namespace agentry::reflect

#endif
