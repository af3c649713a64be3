// SPDX-License-Identifier: BSL-1.0
#ifndef AGENTRY_TESTS_INTEGRATION_AGENT_TOOLS_HPP
#define AGENTRY_TESTS_INTEGRATION_AGENT_TOOLS_HPP

// The tools the scripted models call.

#include <agentry/registry.hpp>
#include <agentry/tool.hpp>

#include <atomic>
#include <chrono>
#include <optional>
#include <stdexcept>
#include <string>
#include <thread>

namespace agentry_test {

enum class unit { celsius, fahrenheit };

struct weather_query {
    std::string city;
    std::optional<unit> unit_;
};

inline std::string weather(const weather_query& q) { return q.city + ": 18 C, rain"; }

/// Set to end every running slow() at once.
inline std::atomic<bool> slow_release{false};

inline int slow(int ms) {
    const auto until = std::chrono::steady_clock::now() + std::chrono::milliseconds(ms);
    while (std::chrono::steady_clock::now() < until && !slow_release.load())
        std::this_thread::sleep_for(std::chrono::milliseconds(5));
    return ms;
}

inline int add(int a, int b) { return a + b; }

inline int fail() { throw std::runtime_error("disk full"); }

constexpr agentry::registry tools{
    agentry::tool<"get_weather", "Current weather for a city">(weather),
    agentry::tool<"add", "Add two integers", "a", "b">(add),
    agentry::tool<"fail", "Always fails">(fail),
    agentry::tool<"slow", "Waits", "ms">(slow),
};

} // namespace agentry_test

#endif
