// SPDX-License-Identifier: BSL-1.0
#ifndef AGENTRY_BENCH_PROVIDER_FIXTURE_HPP
#define AGENTRY_BENCH_PROVIDER_FIXTURE_HPP

// The fixture of one model turn, shared by the provider benchmark and the loop benchmark
// (benchmarks/loop/): a registry of 10 tools of a travel assistant, a conversation of 20
// messages with tool calls and results, the OpenAI provider settings, and two recorded-style
// Chat Completions responses (two tool calls; a final answer), pretty-printed as the API
// sends them.

#include <agentry/agentry.hpp>
#include <agentry/provider/message.hpp>
#include <agentry/provider/openai.hpp>

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace bench {

// ---- tools -------------------------------------------------------------------------------

enum class temperature_unit { celsius, fahrenheit };
enum class cabin_class { economy, premium_economy, business, first };
enum class price_level { budget, moderate, upscale, fine_dining };
enum class travel_mode { walking, driving, transit, cycling };

struct weather_query {
    std::string city;
    std::optional<temperature_unit> unit;
    std::optional<agentry::in_range<int, 1, 14>> days;
    static constexpr auto docs = agentry::field_docs(
        "city", "City name, e.g. 'Lisbon'",
        "unit", "Temperature unit; celsius when absent",
        "days", "Days of forecast from today; today only when absent");
};

struct weather_report {
    std::string city;
    double temperature;
    std::string condition;
    int humidity;
};

inline weather_report get_weather(const weather_query& q) { return {q.city, 23.5, "sunny", 41}; }

struct flight_search {
    agentry::matching<"^[A-Z]{3}$"> origin;
    agentry::matching<"^[A-Z]{3}$"> destination;
    agentry::date_string date;
    agentry::in_range<int, 1, 9> passengers;
    std::optional<cabin_class> cabin;
    std::optional<agentry::in_range<double, 0, 100000>> max_price;
    static constexpr auto docs = agentry::field_docs(
        "origin", "IATA code of the departure airport, e.g. CDG",
        "destination", "IATA code of the arrival airport",
        "date", "Departure date",
        "passengers", "Number of passengers",
        "cabin", "Cabin class; economy when absent",
        "max_price", "Highest acceptable fare per passenger in EUR");
};

struct flight_offer {
    std::string number;
    std::string departs;
    double price_eur;
};

inline std::vector<flight_offer> search_flights(const flight_search&) { return {{"TP443", "2026-06-14T07:05", 389.0}}; }

struct hotel_search {
    std::string city;
    agentry::date_string check_in;
    agentry::in_range<int, 1, 30> nights;
    agentry::in_range<int, 1, 8> guests;
    std::optional<agentry::in_range<double, 0, 10000>> max_price_per_night;
    std::optional<std::string> neighbourhood;
    static constexpr auto docs = agentry::field_docs(
        "city", "City to stay in",
        "check_in", "Arrival date",
        "nights", "Number of nights",
        "guests", "Number of guests",
        "max_price_per_night", "Highest acceptable price per night in EUR",
        "neighbourhood", "Preferred neighbourhood, e.g. 'Alfama'");
};

struct hotel_offer {
    std::string hotel_id;
    std::string name;
    double price_per_night;
};

inline std::vector<hotel_offer> search_hotels(const hotel_search&) { return {{"H204518", "Casa Alfama", 174.0}}; }

struct hotel_booking {
    agentry::matching<"^H[0-9]{6}$"> hotel_id;
    agentry::date_string check_in;
    agentry::in_range<int, 1, 30> nights;
    agentry::sized_string<1, 100> guest_name;
    std::optional<agentry::email_string> email;
    static constexpr auto docs = agentry::field_docs(
        "hotel_id", "Id of an offer returned by search_hotels",
        "check_in", "Arrival date",
        "nights", "Number of nights",
        "guest_name", "Full name of the main guest",
        "email", "Where to send the confirmation");
};

struct booking_confirmation {
    std::string reference;
    std::string status;
};

inline booking_confirmation book_hotel(const hotel_booking&) { return {"BK-7Q2M9", "confirmed"}; }

struct restaurant_search {
    std::string city;
    std::optional<std::string> cuisine;
    std::optional<std::string> near;
    std::optional<price_level> price;
    std::optional<bool> open_now;
    static constexpr auto docs = agentry::field_docs(
        "city", "City to search in",
        "cuisine", "Kind of food, e.g. 'seafood'",
        "near", "A landmark or address to search around",
        "price", "Price level",
        "open_now", "Only places open now");
};

struct restaurant {
    std::string name;
    double rating;
    std::string address;
};

inline std::vector<restaurant> search_restaurants(const restaurant_search&) {
    return {{"Taberna da Rua", 4.6, "Rua de Sao Miguel 12"}};
}

struct calendar_event {
    agentry::sized_string<1, 200> title;
    agentry::date_time_string start;
    agentry::in_range<int, 5, 1440> duration_minutes;
    std::optional<std::string> location;
    agentry::sized_vector<agentry::in_range<int, 0, 10080>, 0, 5> reminders_minutes;
    static constexpr auto docs = agentry::field_docs(
        "title", "Title of the event",
        "start", "Start, with its UTC offset",
        "duration_minutes", "Length of the event",
        "location", "Where it takes place",
        "reminders_minutes", "Reminders, in minutes before the start");
};

struct event_created {
    std::string event_id;
    std::string status;
};

inline event_created create_calendar_event(const calendar_event&) { return {"evt_31k9", "created"}; }

struct directions_query {
    std::string origin;
    std::string destination;
    travel_mode mode;
    std::optional<agentry::date_time_string> depart_at;
    static constexpr auto docs = agentry::field_docs(
        "origin", "Start address or place",
        "destination", "End address or place",
        "mode", "How to travel",
        "depart_at", "Departure time; now when absent");
};

struct route {
    int minutes;
    double kilometres;
    std::string summary;
};

inline route get_directions(const directions_query&) { return {24, 9.8, "Metro red line, then 6 min walk"}; }

struct email_message {
    agentry::sized_vector<agentry::email_string, 1, 10> to;
    agentry::sized_string<1, 200> subject;
    agentry::sized_string<1, 5000> body;
    static constexpr auto docs = agentry::field_docs(
        "to", "Recipients",
        "subject", "Subject line",
        "body", "Plain-text body");
};

inline std::string send_email(const email_message&) { return "sent"; }

inline double convert_currency(double amount, std::string, std::string) { return amount * 1.17; }

inline std::string translate_text(std::string text, std::string) { return text; }

inline constexpr agentry::registry tools{
    agentry::tool<"get_weather", "Current weather and forecast for a city. Not for climate averages.">(get_weather),
    agentry::tool<"search_flights", "Find flights between two airports on a date, cheapest first.">(search_flights),
    agentry::tool<"search_hotels", "Find hotel offers in a city for given dates, cheapest first.">(search_hotels),
    agentry::tool<"book_hotel", "Book a hotel offer found by search_hotels. Ask the user first.">(book_hotel),
    agentry::tool<"search_restaurants", "Find restaurants in a city, best rated first.">(search_restaurants),
    agentry::tool<"create_calendar_event", "Add an event to the user's calendar.">(create_calendar_event),
    agentry::tool<"get_directions", "Route, duration and distance between two places.">(get_directions),
    agentry::tool<"send_email", "Send an email on the user's behalf. Ask the user first.">(send_email),
    agentry::tool<"convert_currency", "Convert an amount between ISO 4217 currencies at today's rate.", "amount",
                  "from", "to">(convert_currency),
    agentry::tool<"translate_text", "Translate text into a language given by its ISO 639-1 code.", "text",
                  "target_language">(translate_text),
};

/// What agent<> sends as `tools` with agentry::openai.
inline constexpr std::string_view tools_payload = tools.definitions<agentry::openai::dialect>();

// ---- provider and request ----------------------------------------------------------------

/// The provider of every case; a key is given so that no request reads the environment.
inline agentry::openai make_provider() {
    agentry::openai p;
    p.model = "gpt-4o-2024-08-06";
    p.api_key = "sk-bench-0000000000000000000000000000000000000000";
    return p;
}

/// The saved conversation, 20 messages: the system prompt, 5 user messages, 8 assistant
/// messages (4 of them with 6 tool calls in all) and the 6 tool results; the last is a user
/// message, so that it is the history of the next request.
inline std::vector<agentry::message> conversation() {
    using agentry::message;
    using agentry::tool_call;
    std::vector<message> m;
    m.push_back(message::system(
        "You are a travel assistant for a busy professional. Plan trips, compare options and keep the user's "
        "calendar up to date. Use the tools for every fact you state about weather, prices, availability, routes "
        "or exchange rates; never guess them. Prices are in EUR unless the user asks otherwise. Before booking "
        "anything or sending an email, summarise what you are about to do and ask for confirmation. Keep answers "
        "short: a few sentences, or a list when comparing options. The user's home airport is Paris Charles de "
        "Gaulle (CDG), they prefer aisle seats, and their work calendar is in Central European Time. Today is "
        "2026-06-08."));
    m.push_back(message::user(
        "I have a conference in Lisbon from the 15th to the 17th of June. What's the weather going to be like?"));
    m.push_back(message::assistant(
        "", {tool_call{"call_Xk3pQ9vT2mWb7LcN4rYd8sHf", "get_weather", R"({"city":"Lisbon","unit":"celsius","days":10})", {}}}));
    m.push_back(message::tool_result(
        m.back().tool_calls[0],
        R"({"city":"Lisbon","temperature":23.5,"condition":"sunny","humidity":41,"forecast":[)"
        R"({"date":"2026-06-14","max":26,"min":17,"condition":"sunny"},{"date":"2026-06-15","max":27,"min":18,"condition":"sunny"},)"
        R"({"date":"2026-06-16","max":25,"min":18,"condition":"partly cloudy"},{"date":"2026-06-17","max":24,"min":17,"condition":"light rain"}]})"));
    m.push_back(message::assistant(
        "Lisbon looks warm and mostly dry for your conference: sunny with highs of 26-27 \u00b0C on the 14th and "
        "15th, partly cloudy on the 16th, and a chance of light rain on the 17th (high 24 \u00b0C). Evenings cool "
        "to about 17 \u00b0C, so pack a light jacket and a compact umbrella for the last day."));
    m.push_back(message::user(
        "Find me a flight from Paris on the 14th, business class, and tell me what it costs in US dollars."));
    m.push_back(message::assistant(
        "", {tool_call{"call_9fHq2LmX4cVb8NzR1tKw6pYe", "search_flights",
                       R"({"origin":"CDG","destination":"LIS","date":"2026-06-14","passengers":1,"cabin":"business","max_price":null})",
                       {}},
             tool_call{"call_R2dW8nKq5tLm3XbV7cZp1fGh", "convert_currency", R"({"amount":1,"from":"EUR","to":"USD"})", {}}}));
    m.push_back(message::tool_result(
        m.back().tool_calls[0],
        R"([{"number":"TP443","departs":"2026-06-14T07:05","arrives":"2026-06-14T08:50","price_eur":389.0,"stops":0,"aircraft":"A321neo"},)"
        R"({"number":"AF1024","departs":"2026-06-14T09:40","arrives":"2026-06-14T11:20","price_eur":452.0,"stops":0,"aircraft":"A320"},)"
        R"({"number":"TP439","departs":"2026-06-14T13:25","arrives":"2026-06-14T15:10","price_eur":398.0,"stops":0,"aircraft":"A321neo"},)"
        R"({"number":"IB3407","departs":"2026-06-14T11:15","arrives":"2026-06-14T16:35","price_eur":311.0,"stops":1,"aircraft":"A320"},)"
        R"({"number":"AF1124","departs":"2026-06-14T18:05","arrives":"2026-06-14T19:45","price_eur":467.0,"stops":0,"aircraft":"A319"}])"));
    m.push_back(message::tool_result(m[6].tool_calls[1], "1.17"));
    m.push_back(message::assistant(
        "Here are the best business-class options from CDG to Lisbon on Sunday 14 June:\n\n"
        "1. TAP TP443, 07:05 \u2192 08:50, non-stop: \u20ac389 (about $455)\n"
        "2. TAP TP439, 13:25 \u2192 15:10, non-stop: \u20ac398 (about $466)\n"
        "3. Air France AF1024, 09:40 \u2192 11:20, non-stop: \u20ac452 (about $529)\n\n"
        "Iberia is cheaper at \u20ac311 but stops in Madrid and lands at 16:35. TP443 gets you in early enough "
        "to settle in before the conference. Shall I hold it?"));
    m.push_back(message::user(
        "TP443 is good, I'll book it myself. Now find me a hotel near Alfama for 3 nights from the 14th, under "
        "200 euros a night."));
    m.push_back(message::assistant(
        "", {tool_call{"call_bT7yN3qW9kHx2RmC5vLd8pZs", "search_hotels",
                       R"({"city":"Lisbon","check_in":"2026-06-14","nights":3,"guests":1,"max_price_per_night":200,"neighbourhood":"Alfama"})",
                       {}}}));
    m.push_back(message::tool_result(
        m.back().tool_calls[0],
        R"([{"hotel_id":"H204518","name":"Casa Alfama","price_per_night":174.0,"rating":4.7,"distance_km":0.3,)"
        R"("amenities":["wifi","breakfast","air conditioning"],"free_cancellation":true},)"
        R"({"hotel_id":"H118842","name":"Memmo Alfama","price_per_night":196.0,"rating":4.8,"distance_km":0.5,)"
        R"("amenities":["wifi","pool","rooftop bar","air conditioning"],"free_cancellation":false},)"
        R"({"hotel_id":"H330915","name":"Palacio Belmonte Suites","price_per_night":189.0,"rating":4.5,"distance_km":0.6,)"
        R"("amenities":["wifi","garden","breakfast"],"free_cancellation":true},)"
        R"({"hotel_id":"H402267","name":"Alfama Patio Hostel & Rooms","price_per_night":92.0,"rating":4.4,"distance_km":0.2,)"
        R"("amenities":["wifi","shared kitchen"],"free_cancellation":true},)"
        R"({"hotel_id":"H557310","name":"Solar do Castelo","price_per_night":199.0,"rating":4.6,"distance_km":0.7,)"
        R"("amenities":["wifi","breakfast","parking"],"free_cancellation":true}])"));
    m.push_back(message::assistant(
        "Four hotels near Alfama fit your budget for 14\u201317 June (3 nights):\n\n"
        "- Casa Alfama: \u20ac174/night, 4.7\u2605, 300 m away, breakfast included, free cancellation\n"
        "- Palacio Belmonte Suites: \u20ac189/night, 4.5\u2605, garden, free cancellation\n"
        "- Memmo Alfama: \u20ac196/night, 4.8\u2605, rooftop pool, non-refundable\n"
        "- Solar do Castelo: \u20ac199/night, 4.6\u2605, inside the castle walls\n\n"
        "Casa Alfama is the best value. Do you want me to book it for you (\u20ac522 in total)?"));
    m.push_back(message::user(
        "Yes, book Casa Alfama in my name, Claire Martin, confirmation to claire.martin@example.com. And put the "
        "conference keynote (16th, 9:30 to 11:00, Centro de Congressos) in my calendar, with a reminder."));
    m.push_back(message::assistant(
        "", {tool_call{"call_Lm4Qz8Xc1VbN6tKr3WpY9dHs", "book_hotel",
                       R"({"hotel_id":"H204518","check_in":"2026-06-14","nights":3,"guest_name":"Claire Martin","email":"claire.martin@example.com"})",
                       {}},
             tool_call{"call_Hs3Kx9Ld6QwN2bVr8TmZ5cYp", "create_calendar_event",
                       R"({"title":"Conference keynote","start":"2026-06-16T09:30:00+01:00","duration_minutes":90,"location":"Centro de Congressos de Lisboa","reminders_minutes":[30]})",
                       {}}}));
    m.push_back(message::tool_result(m.back().tool_calls[0], R"({"reference":"BK-7Q2M9","status":"confirmed"})"));
    m.push_back(message::tool_result(m[15].tool_calls[1], R"({"event_id":"evt_31k9","status":"created"})"));
    m.push_back(message::assistant(
        "Done. Casa Alfama is booked for 14\u201317 June under Claire Martin (reference BK-7Q2M9); the confirmation "
        "goes to claire.martin@example.com. Your calendar now has the keynote on Tuesday 16 June from 09:30 to "
        "11:00 at the Centro de Congressos de Lisboa, with a reminder 30 minutes before. I have not added the "
        "flight, since you are booking it yourself."));
    m.push_back(message::user(
        "Great. What will the weather be on the evening I arrive, and can you find a good seafood place near the "
        "hotel for dinner that night?"));
    return m;
}

/// The user input the loop benchmark runs: the last message of conversation().
inline std::string last_user_input() { return conversation().back().text; }

/// The request of one turn with the whole conversation, as agent<> builds it with
/// loop_config{.parallel_tool_calls = true, .max_output_tokens = 1024}.
inline agentry::chat_request make_request(const std::vector<agentry::message>& messages) {
    agentry::chat_request r;
    r.messages = messages;
    r.tools = tools_payload;
    r.parallel_tool_calls = true;
    r.max_tokens = 1024;
    return r;
}

// ---- responses ---------------------------------------------------------------------------

/// A non-streamed response with a short text and two tool calls (get_weather and
/// search_restaurants), as the API sends it: pretty-printed, with the members agentry does
/// not read. The arguments follow strict mode: an optional parameter is sent as null.
inline constexpr std::string_view tool_calls_response = R"({
  "id": "chatcmpl-BQm8vT3xKp2LwN9rYc4dHf6sJq1Za",
  "object": "chat.completion",
  "created": 1780913472,
  "model": "gpt-4o-2024-08-06",
  "choices": [
    {
      "index": 0,
      "message": {
        "role": "assistant",
        "content": "Sure. I'll check the forecast for the evening of Sunday 14 June in Lisbon, when your flight lands, and look for well-rated seafood restaurants within walking distance of Casa Alfama on Rua de S\u00e3o Miguel. I'll prefer places that take reservations for a table around 20:30 and are open on Sundays, and I'll keep to a moderate price level unless you tell me otherwise.",
        "tool_calls": [
          {
            "id": "call_Wq8Lx3Nd5Tk2Rb9Zm4Yc7Hv1",
            "type": "function",
            "function": {
              "name": "get_weather",
              "arguments": "{\"city\":\"Lisbon\",\"unit\":\"celsius\",\"days\":7}"
            }
          },
          {
            "id": "call_Fd6Kp1Xs9Vm4Nq7Lb2Tw8Rz3",
            "type": "function",
            "function": {
              "name": "search_restaurants",
              "arguments": "{\"city\":\"Lisbon\",\"cuisine\":\"seafood\",\"near\":\"Casa Alfama, Rua de S\u00e3o Miguel, Alfama, Lisbon\",\"price\":\"moderate\",\"open_now\":null}"
            }
          }
        ],
        "refusal": null,
        "annotations": []
      },
      "logprobs": null,
      "finish_reason": "tool_calls"
    }
  ],
  "usage": {
    "prompt_tokens": 4187,
    "completion_tokens": 96,
    "total_tokens": 4283,
    "prompt_tokens_details": {
      "cached_tokens": 3968,
      "audio_tokens": 0
    },
    "completion_tokens_details": {
      "reasoning_tokens": 0,
      "audio_tokens": 0,
      "accepted_prediction_tokens": 0,
      "rejected_prediction_tokens": 0
    }
  },
  "service_tier": "default",
  "system_fingerprint": "fp_a7d06e42a7"
}
)";

/// The final answer after the two tool results.
inline constexpr std::string_view final_answer_response = R"({
  "id": "chatcmpl-BQm8xR7vLp4KwM2tYd9cNf3sHq6Zb",
  "object": "chat.completion",
  "created": 1780913475,
  "model": "gpt-4o-2024-08-06",
  "choices": [
    {
      "index": 0,
      "message": {
        "role": "assistant",
        "content": "The evening you arrive (Sunday 14 June) should be clear and mild in Lisbon: about 22 \u00b0C at 20:00, falling to 18 \u00b0C by midnight, with a light breeze from the river.\n\nFor seafood near Casa Alfama, Taberna da Rua (4.6\u2605) is a 3-minute walk away on Rua de S\u00e3o Miguel. It is known for grilled sardines, clams \u00e0 Bulh\u00e3o Pato and a short list of vinho verde, with mains around \u20ac18\u201326. It fills up on Sundays, so book for 20:30 or arrive before 19:30. Shall I add the dinner to your calendar?",
        "refusal": null,
        "annotations": []
      },
      "logprobs": null,
      "finish_reason": "stop"
    }
  ],
  "usage": {
    "prompt_tokens": 4391,
    "completion_tokens": 142,
    "total_tokens": 4533,
    "prompt_tokens_details": {
      "cached_tokens": 4224,
      "audio_tokens": 0
    },
    "completion_tokens_details": {
      "reasoning_tokens": 0,
      "audio_tokens": 0,
      "accepted_prediction_tokens": 0,
      "rejected_prediction_tokens": 0
    }
  },
  "service_tier": "default",
  "system_fingerprint": "fp_a7d06e42a7"
}
)";

/// A 200 response with `body`, with the headers the API sends.
inline agentry::http_response make_response(std::string_view body) {
    agentry::http_response r;
    r.status = 200;
    r.headers = {{"Content-Type", "application/json"},
                 {"x-request-id", "req_5f1c9a7e2b8d4c3a9e6f0b1d2c3a4e5f"},
                 {"openai-processing-ms", "812"}};
    r.body.assign(body);
    return r;
}

} // namespace bench

#endif
