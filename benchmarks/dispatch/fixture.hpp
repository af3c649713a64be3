// SPDX-License-Identifier: BSL-1.0
#ifndef AGENTRY_BENCH_DISPATCH_FIXTURE_HPP
#define AGENTRY_BENCH_DISPATCH_FIXTURE_HPP

// The fixtures of the dispatch benchmark: the argument types of two tools, one realistic
// argument text for each, the tools themselves (trivial: they copy a few arguments into a
// result) and the result types. Shared by the agentry cases, the nlohmann::json and Boost.JSON
// baselines and print_fixture (which hands the schema and the arguments to the Python baseline).

#include <agentry/agentry.hpp>

#include <algorithm>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace bench {

enum class cabin_class { economy, premium_economy, business, first };

/// A nested object: the acceptable departure hours.
struct hour_window {
    agentry::in_range<int, 0, 23> earliest;
    agentry::in_range<int, 0, 23> latest;
};

/// Fixture 1: nine fields, one of each kind.
struct flight_search {
    agentry::matching<"^[A-Z]{3}$"> origin;                       // string with a pattern (IATA code)
    cabin_class cabin;                                            // enum
    agentry::in_range<int, 1, 9> passengers;                      // bounded integer
    agentry::in_range<double, 0, 100000> max_price;               // bounded double
    bool refundable;                                              // bool
    std::optional<agentry::in_range<int, 0, 3>> max_stops;        // optional
    agentry::sized_vector<std::string, 0, 5> airlines;            // array of strings, max size
    hour_window depart_window;                                    // nested object
    agentry::sized_string<0, 120> note;                           // string with a length limit

    static constexpr auto docs = agentry::field_docs(
        "origin", "IATA airport code of departure, e.g. CDG",
        "cabin", "Cabin class",
        "passengers", "Number of passengers",
        "max_price", "Highest acceptable fare in EUR",
        "refundable", "Only refundable fares",
        "max_stops", "Most stops accepted; any when absent",
        "airlines", "IATA airline codes to prefer",
        "depart_window", "Acceptable departure hours, local time",
        "note", "Free-text request for the agent");
};

/// One realistic argument object for flight_search (208 bytes, compact and in declaration
/// order, as models send it).
inline constexpr std::string_view flight_args =
    R"({"origin":"CDG","cabin":"business","passengers":2,"max_price":1250.5,"refundable":true,)"
    R"("max_stops":1,"airlines":["AF","KL","DL"],"depart_window":{"earliest":6,"latest":22},)"
    R"("note":"Aisle seat, near the front"})";

/// The same object with one constraint broken in each of a few ways, for the self-test: every
/// implementation must reject each of them.
inline constexpr std::string_view flight_args_invalid[] = {
    R"({"origin":"cdg","cabin":"business","passengers":2,"max_price":1250.5,"refundable":true,"airlines":[],"depart_window":{"earliest":6,"latest":22},"note":""})",
    R"({"origin":"CDG","cabin":"coach","passengers":2,"max_price":1250.5,"refundable":true,"airlines":[],"depart_window":{"earliest":6,"latest":22},"note":""})",
    R"({"origin":"CDG","cabin":"business","passengers":10,"max_price":1250.5,"refundable":true,"airlines":[],"depart_window":{"earliest":6,"latest":22},"note":""})",
    R"({"origin":"CDG","cabin":"business","passengers":2,"max_price":-1,"refundable":true,"airlines":[],"depart_window":{"earliest":6,"latest":22},"note":""})",
    R"({"origin":"CDG","cabin":"business","passengers":2,"max_price":1250.5,"refundable":"yes","airlines":[],"depart_window":{"earliest":6,"latest":22},"note":""})",
    R"({"origin":"CDG","cabin":"business","passengers":2,"max_price":1250.5,"refundable":true,"max_stops":4,"airlines":[],"depart_window":{"earliest":6,"latest":22},"note":""})",
    R"({"origin":"CDG","cabin":"business","passengers":2,"max_price":1250.5,"refundable":true,"airlines":["A","B","C","D","E","F"],"depart_window":{"earliest":6,"latest":22},"note":""})",
    R"({"origin":"CDG","cabin":"business","passengers":2,"max_price":1250.5,"refundable":true,"airlines":[],"depart_window":{"earliest":6,"latest":24},"note":""})",
    R"({"origin":"CDG","cabin":"business","passengers":2,"max_price":1250.5,"refundable":true,"airlines":[],"depart_window":{"earliest":6,"latest":22},"note":"xxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxx"})",
    R"({"origin":"CDG","cabin":"business","passengers":2,"max_price":1250.5,"refundable":true,"airlines":[],"depart_window":{"earliest":6,"latest":22}})",
    R"({"origin":"CDG","cabin":"business","passengers":2,"max_price":1250.5,"refundable":true,"airlines":[],"depart_window":{"earliest":6,"latest":22},"note":"","seat":"12A"})",
    R"({"origin":"CDG","cabin":"business","passengers":2.5,"max_price":1250.5,"refundable":true,"airlines":[],"depart_window":{"earliest":6,"latest":22},"note":""})",
};

/// The result of search_flights: 95 bytes of JSON. No string is longer than 15 bytes, so
/// building it allocates nothing (libstdc++ keeps such strings in the object).
struct flight_offer {
    std::string offer_id;
    std::string from;
    double price;
    int stops;
    bool refundable;
    std::string departs;
};

/// The trivial tool: copies some arguments into a fixed offer.
inline flight_offer search_flights(const flight_search& q) {
    return flight_offer{
        "AF1234",
        q.origin.value,
        std::min(q.max_price.value, 1187.4),
        q.max_stops ? q.max_stops->value : 0,
        q.refundable,
        q.depart_window.earliest.value < 9 ? "08:35" : "10:05",
    };
}

/// Fixture 2: numbers, enums and bools only (plus a nested object of numbers).
struct fare_quote {
    cabin_class cabin;
    agentry::in_range<int, 1, 9> passengers;
    agentry::in_range<double, 0, 100000> base_fare;
    bool refundable;
    std::optional<agentry::in_range<int, 0, 3>> max_stops;
    hour_window depart_window;
};

inline constexpr std::string_view fare_args =
    R"({"cabin":"economy","passengers":3,"base_fare":412.75,"refundable":false,"max_stops":0,)"
    R"("depart_window":{"earliest":7,"latest":21}})";

struct fare_total {
    double total;
    double taxes;
    int passengers;
    bool refundable;
};

inline fare_total quote_fare(const fare_quote& q) {
    const double fare = q.base_fare.value * q.passengers.value;
    const double taxes = 41.5 * q.passengers.value;
    return fare_total{fare + taxes, taxes, q.passengers.value, q.refundable};
}

enum class ticket_priority { low, normal, high, urgent };

/// Who asked: a nested object of two strings.
struct ticket_contact {
    agentry::sized_string<1, 80> name;
    agentry::sized_string<3, 254> email;
};

/// Fixture 3: a support ticket, eight fields (an enum, an optional, a vector of strings, a
/// nested object).
struct support_ticket {
    agentry::sized_string<1, 120> title;                     // string with a length limit
    ticket_priority priority;                                // enum
    std::optional<agentry::in_range<int, 1, 90>> due_in_days; // optional
    agentry::sized_vector<std::string, 0, 8> tags;           // array of strings, max size
    ticket_contact requester;                                // nested object
    agentry::in_range<std::int64_t, 1, 999999999> order_id;  // bounded 64-bit integer
    agentry::in_range<double, 0, 100000> amount;             // bounded double
    bool notify;                                             // bool
};

/// One realistic argument object for support_ticket (195 bytes, compact, declaration order).
inline constexpr std::string_view ticket_args =
    R"({"title":"Refund missing","priority":"high","due_in_days":3,"tags":["billing","refund","eu"],)"
    R"("requester":{"name":"Ana","email":"ana@example.com"},"order_id":88123456,"amount":129.9,"notify":true})";

inline constexpr std::string_view ticket_args_invalid[] = {
    R"({"title":"","priority":"high","tags":[],"requester":{"name":"Ana","email":"ana@example.com"},"order_id":1,"amount":1,"notify":true})",
    R"({"title":"x","priority":"later","tags":[],"requester":{"name":"Ana","email":"ana@example.com"},"order_id":1,"amount":1,"notify":true})",
    R"({"title":"x","priority":"high","due_in_days":91,"tags":[],"requester":{"name":"Ana","email":"ana@example.com"},"order_id":1,"amount":1,"notify":true})",
    R"({"title":"x","priority":"high","tags":["a","b","c","d","e","f","g","h","i"],"requester":{"name":"Ana","email":"ana@example.com"},"order_id":1,"amount":1,"notify":true})",
    R"({"title":"x","priority":"high","tags":[],"requester":{"name":"","email":"ana@example.com"},"order_id":1,"amount":1,"notify":true})",
    R"({"title":"x","priority":"high","tags":[],"requester":{"name":"Ana","email":"ana@example.com"},"order_id":0,"amount":1,"notify":true})",
    R"({"title":"x","priority":"high","tags":[],"requester":{"name":"Ana","email":"ana@example.com"},"order_id":2.5,"amount":1,"notify":true})",
    R"({"title":"x","priority":"high","tags":[],"requester":{"name":"Ana","email":"ana@example.com"},"order_id":1,"amount":-1,"notify":true})",
    R"({"title":"x","priority":"high","tags":[],"requester":{"name":"Ana","email":"ana@example.com"},"order_id":1,"amount":1})",
    R"({"title":"x","priority":"high","tags":[],"requester":{"name":"Ana","email":"ana@example.com"},"order_id":1,"amount":1,"notify":true,"cc":"x"})",
};

/// The result of open_ticket: numbers and a bool only.
struct ticket_receipt {
    std::int64_t ticket;
    int queue_position;
    bool notified;
};

inline ticket_receipt open_ticket(const support_ticket& t) {
    return ticket_receipt{t.order_id.value % 100000 + 700000, 3 + int(t.tags.value.size()),
                          t.notify && !t.requester.email.value.empty()};
}

/// Strings viewed, not copied: read from text with no escapes, they allocate nothing.
struct contact_views {
    std::string_view name;
    std::string_view email;
};

inline constexpr std::string_view contact_args = R"({"name":"Ana Lima-Fernandes","email":"ana.lima-fernandes@example.com"})";

/// A tool that only reads its strings: returns the length of the email's domain.
inline int email_domain_length(const contact_views& c) {
    const std::size_t at = c.email.find('@');
    return at == std::string_view::npos ? 0 : int(c.email.size() - at - 1);
}

} // namespace bench

#endif
