// SPDX-License-Identifier: BSL-1.0
#ifndef AGENTRY_OUTCOME_HPP
#define AGENTRY_OUTCOME_HPP

// agentry::outcome<T>: a value, or a failure with a kind and a message for the model.
//
//   agentry::outcome<weather> get_weather(const weather_query& q) {
//       if (q.city.empty()) return agentry::fail(agentry::failure_kind::invalid_input, "name a city");
//       return weather{21.5, "sunny"};
//   }
//
// A tool returning one answers with its value on success; on failure the call's status is
// tool_error, its content the message and tool_result::failure the kind. std::expected<T, E>
// (where the standard library has it) is sent the same way. Below every layer: no agentry
// include.

#include <string>
#include <string_view>
#include <type_traits>
#include <utility>
#include <variant>

namespace agentry {

/// Why a call failed, for the caller deciding what to do next (retry, report, ask).
enum class failure_kind : unsigned char {
    transient,      // may succeed if tried again later (a timeout, a busy service)
    permanent,      // will fail again with the same arguments
    invalid_input,  // the arguments are wrong in a way the schema cannot state
    not_found,      // what the arguments name does not exist
    permission,     // not allowed for this caller
};

constexpr std::string_view to_string(failure_kind k) noexcept {
    switch (k) {
    case failure_kind::transient: return "transient";
    case failure_kind::permanent: return "permanent";
    case failure_kind::invalid_input: return "invalid_input";
    case failure_kind::not_found: return "not_found";
    case failure_kind::permission: return "permission";
    }
    return "unknown";
}

/// A failure: its kind and a message that says the model what went wrong and what to do.
struct failure {
    failure_kind kind = failure_kind::permanent;
    std::string message;
};

/// A failure of `kind`, e.g. return agentry::fail(failure_kind::not_found, "no such order").
inline failure fail(failure_kind kind, std::string message) { return failure{kind, std::move(message)}; }

/// A value of type T, or a failure. T may be void.
template <class T>
class outcome {
    static_assert(!std::is_same_v<std::remove_cv_t<T>, failure> && !std::is_reference_v<T>,
                  "agentry: outcome<T>: T must be a value type other than agentry::failure");

public:
    using value_type = T;

    outcome(T value) : state_(std::in_place_index<0>, std::move(value)) {}
    outcome(failure f) : state_(std::in_place_index<1>, std::move(f)) {}

    bool has_value() const noexcept { return state_.index() == 0; }
    explicit operator bool() const noexcept { return has_value(); }

    /// The value; has_value() must be true.
    T& operator*() & noexcept { return *std::get_if<0>(&state_); }
    const T& operator*() const& noexcept { return *std::get_if<0>(&state_); }
    T&& operator*() && noexcept { return std::move(*std::get_if<0>(&state_)); }
    T* operator->() noexcept { return std::get_if<0>(&state_); }
    const T* operator->() const noexcept { return std::get_if<0>(&state_); }

    /// The failure; has_value() must be false.
    const failure& error() const& noexcept { return *std::get_if<1>(&state_); }
    failure&& error() && noexcept { return std::move(*std::get_if<1>(&state_)); }

private:
    std::variant<T, failure> state_;
};

template <>
class outcome<void> {
public:
    using value_type = void;

    outcome() = default;
    outcome(failure f) : failed_(true), failure_(std::move(f)) {}

    bool has_value() const noexcept { return !failed_; }
    explicit operator bool() const noexcept { return has_value(); }
    const failure& error() const& noexcept { return failure_; }
    failure&& error() && noexcept { return std::move(failure_); }

private:
    bool failed_ = false;
    failure failure_;
};

namespace detail {

template <class T>
inline constexpr bool is_outcome = false;
template <class T>
inline constexpr bool is_outcome<outcome<T>> = true;

} // namespace detail

} // namespace agentry

#endif
