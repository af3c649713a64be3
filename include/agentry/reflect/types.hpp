// SPDX-License-Identifier: BSL-1.0
#ifndef AGENTRY_REFLECT_TYPES_HPP
#define AGENTRY_REFLECT_TYPES_HPP

// Helpers over types, one of each for the whole library: lists of types are Boost.Mp11's
// mp_list, worked on with Mp11's algorithms (no recursive templates); a distinct address per
// type; the first type of a list.

#include <boost/mp11/algorithm.hpp>
#include <boost/mp11/list.hpp>
#include <boost/mp11/utility.hpp>

#include <type_traits>

namespace agentry::reflect {

/// A list of types: boost::mp11::mp_list.
template <class... T>
using type_list = boost::mp11::mp_list<T...>;

/// A distinct address per type, to compare or key types held in a structural or constant value.
template <class T>
inline constexpr char type_tag = 0;

/// The first type of List without const, volatile and reference; void when List is empty.
template <class List>
using first_parameter = std::remove_cvref_t<boost::mp11::mp_eval_if<boost::mp11::mp_empty<List>, void,
                                                                    boost::mp11::mp_front, List>>;

} // namespace agentry::reflect

#endif
