// SPDX-License-Identifier: BSL-1.0
#ifndef AGENTRY_BENCH_DISPATCH_CASES_HPP
#define AGENTRY_BENCH_DISPATCH_CASES_HPP

// What each implementation (agentry, nlohmann::json, Boost.JSON, and glaze when the build is
// given a glaze checkout) offers to main.cpp: the read and call functions the self-test
// checks, and the registration of its benchmarks. Boost.JSON has no ticket case.

#include "fixture.hpp"

#include <string>
#include <string_view>
#include <vector>

namespace bench {

/// The arguments read into T, or the errors that rejected them.
template <class T>
struct parsed {
    T value{};
    std::vector<std::string> errors;
    bool ok() const noexcept { return errors.empty(); }
};

/// The outcome of a call by name: the result's JSON text, or the reason it failed.
struct outcome {
    bool ok = false;
    std::string content;
};

namespace agentry_impl {
parsed<flight_search> read_flight(std::string_view text);
parsed<fare_quote> read_fare(std::string_view text);
parsed<support_ticket> read_ticket(std::string_view text);
outcome call(std::string_view tool, std::string_view arguments);
/// The tools called through the policy paths (scope and context, policy, rate_limiter) answer
/// as registry::call does; the differences, or "".
std::string policy_paths_differ();
void register_benchmarks();
} // namespace agentry_impl

namespace nlohmann_impl {
parsed<flight_search> read_flight(std::string_view text);
parsed<fare_quote> read_fare(std::string_view text);
parsed<support_ticket> read_ticket(std::string_view text);
outcome call(std::string_view tool, std::string_view arguments);
void register_benchmarks();
} // namespace nlohmann_impl

namespace boost_json_impl {
parsed<flight_search> read_flight(std::string_view text);
parsed<fare_quote> read_fare(std::string_view text);
outcome call(std::string_view tool, std::string_view arguments);
void register_benchmarks();
} // namespace boost_json_impl

#if defined(BENCH_GLAZE)
/// glaze (its version in BENCH_GLAZE, e.g. "glaze-2.9.5"): read into plain mirror structs,
/// then the schema's constraints checked by hand.
namespace glaze_impl {
parsed<flight_search> read_flight(std::string_view text);
parsed<fare_quote> read_fare(std::string_view text);
parsed<support_ticket> read_ticket(std::string_view text);
outcome call(std::string_view tool, std::string_view arguments);
void register_benchmarks();
} // namespace glaze_impl
#endif

/// The registries of many tools (many_tools.cpp.in, one translation unit per size).
struct many_tools_case {
    std::size_t size;
    outcome (*call)(std::string_view tool, std::string_view arguments);
    std::string_view middle_name;    // a generated tool in the middle ("" when size is 1)
    std::string_view middle_args;
    std::string_view middle_result;  // the JSON text it returns
};

} // namespace bench

#endif
