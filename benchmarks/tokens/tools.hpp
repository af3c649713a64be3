// SPDX-License-Identifier: BSL-1.0
#ifndef AGENTRY_BENCH_TOKENS_TOOLS_HPP
#define AGENTRY_BENCH_TOKENS_TOOLS_HPP

// The tools whose definitions the token benchmark measures: create_ticket (an 8-field object
// with an enum, an optional, a vector of strings and a nested object), add (two integers) and
// the dispatch benchmark's search_flights. models.py and schemas.mjs write the same tools as
// Pydantic models and zod schemas, with the same names, descriptions and constraints.

#include "../dispatch/fixture.hpp"

#include <agentry/agentry.hpp>

#include <optional>
#include <string>
#include <vector>

namespace bench {

enum class severity { low, normal, high, urgent };

struct customer {
    std::string name;
    std::string email;
};

struct ticket {
    std::string title;
    std::string description;
    severity level;
    std::optional<std::string> assignee;
    std::vector<std::string> tags;
    customer reporter;
    int order_id;
    double amount;

    static constexpr auto docs = agentry::field_docs(
        "level", "How urgent the customer's problem is",
        "assignee", "Agent to assign; the queue decides when absent",
        "amount", "Order value in EUR");
};

inline int create_ticket(const ticket& t) { return t.order_id; }

inline int add(int a, int b) { return a + b; }

inline constexpr auto ticket_tool = agentry::tool<"create_ticket", "Open a customer support ticket.">(create_ticket);
inline constexpr auto add_tool = agentry::tool<"add", "Add two integers.", "a", "b">(add);
inline constexpr auto flight_tool = agentry::tool<"search_flights", "Search flights from an airport.">(search_flights);

/// The measured sets of tools.
inline constexpr agentry::registry ticket_add_tools{ticket_tool, add_tool};
inline constexpr agentry::registry flight_tools{flight_tool};
inline constexpr agentry::registry all_tools{ticket_tool, add_tool, flight_tool};

} // namespace bench

#endif
