// SPDX-License-Identifier: BSL-1.0
#ifndef AGENTRY_POLICY_DETAIL_CALLBACK_HPP
#define AGENTRY_POLICY_DETAIL_CALLBACK_HPP

// How the library calls the application's callbacks (the approver, agent_events, the token
// estimator, ...): an exception from one becomes a callback_error naming it.

#include <exception>
#include <stdexcept>
#include <string>
#include <string_view>
#include <utility>

namespace agentry {

namespace detail {

/// A user callback (an agent_events member, the approver, the token estimator) threw; the run
/// stops with stop_reason::callback_error and this message.
struct callback_error : std::runtime_error {
    using std::runtime_error::runtime_error;
};

template <class F, class... A>
decltype(auto) invoke_callback(std::string_view name, const F& f, A&&... args) {
    try {
        return f(std::forward<A>(args)...);
    } catch (const std::exception& e) {
        throw callback_error("agentry: the " + std::string(name) + " callback threw: " + e.what() +
                             "; the run stopped");
    } catch (...) {
        throw callback_error("agentry: the " + std::string(name) +
                             " callback threw an exception that is not a std::exception; the run stopped");
    }
}

} // namespace detail

} // namespace agentry

#endif
