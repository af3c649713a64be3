// SPDX-License-Identifier: BSL-1.0
// The fixtures of reasoning.hpp. The responses and streams are written here with
// nlohmann::ordered_json, member for member as the APIs document them (the Responses API
// pretty-prints its bodies with two spaces and echoes the request's instructions and tools;
// the Messages API writes compact JSON), so that they are built once, at startup.

#include "reasoning.hpp"

#include <nlohmann/json.hpp>

#include <array>
#include <cstdint>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace bench {

namespace {

using ojson = nlohmann::ordered_json;

/// `size` characters of `alphabet` drawn from a fixed seed.
std::string random_text(std::size_t size, std::uint64_t seed, std::string_view alphabet) {
    std::string out;
    out.reserve(size);
    std::uint64_t x = seed * 0x9E3779B97F4A7C15ull + 0x632BE59BD9B4E019ull;
    while (out.size() < size) {
        x = x * 6364136223846793005ull + 1442695040888963407ull;
        out.push_back(alphabet[(x >> 33) % alphabet.size()]);
    }
    return out;
}

constexpr std::string_view base64_chars = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";
constexpr std::string_view base64url_chars = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_";
constexpr std::string_view base62_chars = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789";
constexpr std::string_view hex_chars = "0123456789abcdef";

/// An OpenAI encrypted_content of `size` bytes: a Fernet token, base64url.
std::string encrypted_content(std::size_t size, std::uint64_t seed) {
    return "gAAAAABo" + random_text(size - 10, seed, base64url_chars) + "==";
}

/// An Anthropic signature or redacted_thinking data of `size` bytes: base64.
std::string signature(std::size_t size, std::uint64_t seed) {
    return "Eq" + random_text(size - 4, seed, base64_chars) + "==";
}

/// `s` in pieces whose sizes cycle through `sizes`, never cut inside a UTF-8 sequence.
std::vector<std::string> pieces(std::string_view s, std::initializer_list<std::size_t> sizes) {
    std::vector<std::string> out;
    const std::vector<std::size_t> cycle(sizes);
    for (std::size_t i = 0; !s.empty(); ++i) {
        std::size_t k = std::min(cycle[i % cycle.size()], s.size());
        while (k < s.size() && (static_cast<unsigned char>(s[k]) & 0xC0) == 0x80) ++k;
        out.emplace_back(s.substr(0, k));
        s.remove_prefix(k);
    }
    return out;
}

// ---- what the model thought at each of the 4 turns with calls, and at the measured turn -----

constexpr std::array<std::string_view, 5> summaries = {
    "**Checking Lisbon's forecast**\n\nThe user asks about the weather for a conference from 15 to 17 June. "
    "Today is 8 June, so a 10-day forecast covers the dates; I'll call get_weather for Lisbon in celsius.",
    "**Finding a business-class flight**\n\nThe user wants a flight from Paris on the 14th in business class, "
    "priced in US dollars. Their home airport is CDG; I'll search CDG to LIS and fetch the EUR to USD rate at "
    "the same time.",
    "**Searching hotels near Alfama**\n\nThree nights from 14 June, one guest, under \u20ac200 a night, near "
    "Alfama. I'll pass the neighbourhood and the price cap to search_hotels.",
    "**Booking and adding the keynote**\n\nThe user confirmed Casa Alfama (H204518) with name and email, so I "
    "can book it. The keynote is on 16 June, 09:30 to 11:00 Lisbon time (+01:00); I'll add it with a 30-minute "
    "reminder.",
    "**Planning the arrival evening**\n\nThe user lands on Sunday 14 June on TP443 and stays at Casa Alfama. "
    "I need the evening forecast for that day and seafood restaurants near the hotel; both calls are "
    "independent, so I'll make them together.",
};

constexpr std::array<std::string_view, 5> thoughts = {
    "The user has a conference in Lisbon from 15 to 17 June and wants to know the weather. Today is 2026-06-08, "
    "so the conference starts in 7 days and ends in 9. The get_weather tool gives today's conditions and a "
    "forecast of up to 14 days, so asking for 10 days covers the whole trip, including the 14th in case they "
    "travel the day before, which is likely since the conference starts on a weekday morning. The unit should "
    "be celsius: the user is based in Paris and the system prompt says nothing about Fahrenheit. I should not "
    "guess the weather from climate averages: the instructions say to use the tools for every fact about "
    "weather. Once I have the forecast I'll summarise each conference day in a sentence with the high and the "
    "conditions, mention the evening temperatures, and give a packing hint (a light jacket, maybe an umbrella "
    "if any day shows rain). Keep it short, as the user is busy. One call is enough here.",
    "Next the user wants a flight from Paris on the 14th in business class and the cost in US dollars. Their "
    "home airport is CDG according to the system prompt, and Lisbon is LIS. One passenger, since nothing says "
    "otherwise. The search_flights tool takes the origin and destination as IATA codes, the date as "
    "YYYY-MM-DD, the number of passengers, the cabin and an optional max_price; there is no budget, so "
    "max_price stays null. Prices come back in EUR, so I also need today's EUR to USD rate: convert_currency "
    "with an amount of 1 gives me the rate, and I can multiply each fare myself instead of calling the tool "
    "once per fare. The two calls do not depend on each other, so they can go out together. When I answer I "
    "should list the best options with departure and arrival times, the EUR price and the USD equivalent, note "
    "the aisle-seat preference for later, and ask before holding anything, since booking needs confirmation.",
    "The user will book TP443 themselves and now wants a hotel near Alfama for 3 nights from the 14th, under "
    "200 euros a night. search_hotels takes the city, the check-in date, the number of nights, the number of "
    "guests, an optional max_price_per_night and an optional neighbourhood. Check-in 2026-06-14, 3 nights, one "
    "guest (the user travels alone as far as I know), a cap of 200 and the neighbourhood Alfama. I should not "
    "book anything yet: the system prompt says to summarise and ask before booking. When the results come back "
    "I will filter out anything over the cap, sort by value, and mention free cancellation, since plans for a "
    "conference can change. The hostel-style places are cheap but probably not what a busy professional wants "
    "for a conference trip, so I'll leave them out of the short list unless nothing else fits. Give the total "
    "for the 3 nights for the best option so the user can decide quickly.",
    "The user confirmed: book Casa Alfama in the name of Claire Martin with the confirmation going to "
    "claire.martin@example.com, and add the conference keynote on the 16th from 9:30 to 11:00 at the Centro de "
    "Congressos, with a reminder. The hotel id from the search was H204518, check-in 2026-06-14 for 3 nights. "
    "The user gave explicit confirmation and all the details, so booking now is what they asked for. For the "
    "calendar: the keynote is in Lisbon, which is on WEST, UTC+01:00 in June, while the user's calendar is in "
    "Central European Time; the start must carry its offset, so 2026-06-16T09:30:00+01:00, and the duration "
    "is 90 minutes. The location is the Centro de Congressos de Lisboa. They asked for a reminder without "
    "saying when, so 30 minutes before is a sensible default that I will mention. The two calls are "
    "independent and can run together.",
    "The user asks what the weather will be on the evening they arrive and for a good seafood place near the "
    "hotel for dinner that night. They arrive on Sunday 14 June on TP443, landing at 08:50, and they stay at "
    "Casa Alfama on Rua de S\u00e3o Miguel in Alfama. For the weather I need the forecast for the 14th: "
    "get_weather with days covering the next week gives it, in celsius as before. For dinner, "
    "search_restaurants takes the city, a cuisine, a place to search near, a price level and open_now; "
    "open_now is about the present moment, not Sunday evening, so I will leave it out. The price level should "
    "be moderate unless they say otherwise, since they did not ask for fine dining. Searching near the hotel's "
    "address is better than near the neighbourhood as a whole. Both calls can go out at once. Then I will "
    "suggest one place that takes reservations around 20:30 and offer to put it in their calendar.",
};

// ---- the measured turn ------------------------------------------------------------------------

constexpr std::string_view reply_text =
    "Sure. I'll check the forecast for the evening of Sunday 14 June in Lisbon, when your flight lands, and "
    "look for well-rated seafood restaurants within walking distance of Casa Alfama on Rua de S\u00e3o Miguel. "
    "I'll prefer places that take reservations for a table around 20:30 and are open on Sundays, and I'll keep "
    "to a moderate price level unless you tell me otherwise.";

struct call {
    std::string_view call_id;  // OpenAI call_id; Anthropic tool_use id
    std::string_view name;
    std::string_view openai_arguments;     // strict: null for an absent optional
    std::string_view anthropic_arguments;  // as Claude writes them: absent optionals left out
};

constexpr std::array<call, 2> openai_calls = {{
    {"call_Wq8Lx3Nd5Tk2Rb9Zm4Yc7Hv1", "get_weather", R"({"city":"Lisbon","unit":"celsius","days":7})", ""},
    {"call_Fd6Kp1Xs9Vm4Nq7Lb2Tw8Rz3", "search_restaurants",
     "{\"city\":\"Lisbon\",\"cuisine\":\"seafood\",\"near\":\"Casa Alfama, Rua de S\u00e3o Miguel, Alfama, "
     "Lisbon\",\"price\":\"moderate\",\"open_now\":null}",
     ""},
}};

constexpr std::array<call, 2> anthropic_calls = {{
    {"toolu_01Kx7QmV3nRt8LwB2pZc5YhD", "get_weather", "", R"({"city":"Lisbon","unit":"celsius","days":7})"},
    {"toolu_01Fh2WsN9cTq4KxM6vLb8RzJ", "search_restaurants", "",
     "{\"city\":\"Lisbon\",\"cuisine\":\"seafood\",\"near\":\"Casa Alfama, Rua de S\u00e3o Miguel, Alfama, "
     "Lisbon\",\"price\":\"moderate\"}"},
}};

/// The indexes of the assistant messages with calls.
std::vector<std::size_t> calling_turns(const std::vector<agentry::message>& m) {
    std::vector<std::size_t> out;
    for (std::size_t i = 0; i != m.size(); ++i)
        if (m[i].role == agentry::role::assistant && !m[i].tool_calls.empty()) out.push_back(i);
    return out;
}

std::string sse(std::string_view name, const ojson& data) {
    return "event: " + std::string(name) + "\ndata: " + data.dump() + "\n\n";
}

// ---- OpenAI Responses -----------------------------------------------------------------------

constexpr std::array<std::size_t, 5> encrypted_sizes = {1604, 2052, 2408, 2916, 2264};

ojson reasoning_item(std::size_t turn) {
    return ojson{{"id", "rs_68e4" + random_text(44, 100 + turn, hex_chars)},
                 {"type", "reasoning"},
                 {"encrypted_content", encrypted_content(encrypted_sizes[turn], 200 + turn)},
                 {"summary", ojson::array({ojson{{"type", "summary_text"}, {"text", summaries[turn]}}})}};
}

std::string function_call_id(std::size_t turn, std::size_t call) {
    return "fc_68e4" + random_text(44, 300 + 10 * turn + call, hex_chars);
}

ojson message_item(std::string_view status, std::string_view text) {
    ojson content = ojson::array();
    if (status == "completed")
        content.push_back(ojson{{"type", "output_text"}, {"annotations", ojson::array()}, {"logprobs", ojson::array()},
                                {"text", text}});
    return ojson{{"id", "msg_68e4" + random_text(44, 400, hex_chars)},
                 {"type", "message"},
                 {"status", status},
                 {"content", std::move(content)},
                 {"role", "assistant"}};
}

ojson function_call_item(std::size_t i, std::string_view status) {
    return ojson{{"id", function_call_id(4, i)},
                 {"type", "function_call"},
                 {"status", status},
                 {"arguments", status == "completed" ? openai_calls[i].openai_arguments : std::string_view()},
                 {"call_id", openai_calls[i].call_id},
                 {"name", openai_calls[i].name}};
}

/// The response object of the measured turn: in progress (no output, no usage) or completed.
ojson responses_object(const responses_turn& t, bool completed) {
    ojson output = ojson::array();
    if (completed) {
        output.push_back(reasoning_item(4));
        output.push_back(message_item("completed", reply_text));
        for (std::size_t i = 0; i != openai_calls.size(); ++i) output.push_back(function_call_item(i, "completed"));
    }
    ojson usage = nullptr;
    if (completed)
        usage = ojson{{"input_tokens", 6134},
                      {"input_tokens_details", {{"cached_tokens", 5760}}},
                      {"output_tokens", 538},
                      {"output_tokens_details", {{"reasoning_tokens", 320}}},
                      {"total_tokens", 6672}};
    return ojson{{"id", "resp_68e4" + random_text(44, 500, hex_chars)},
                 {"object", "response"},
                 {"created_at", 1780913472},
                 {"status", completed ? "completed" : "in_progress"},
                 {"background", false},
                 {"error", nullptr},
                 {"incomplete_details", nullptr},
                 {"instructions", t.messages.front().text},
                 {"max_output_tokens", *t.request.max_tokens},
                 {"max_tool_calls", nullptr},
                 {"model", "gpt-5-2025-08-07"},
                 {"output", std::move(output)},
                 {"parallel_tool_calls", true},
                 {"previous_response_id", nullptr},
                 {"prompt_cache_key", nullptr},
                 {"reasoning", {{"effort", t.provider.reasoning_effort}, {"summary", "detailed"}}},
                 {"safety_identifier", nullptr},
                 {"service_tier", completed ? "default" : "auto"},
                 {"store", false},
                 {"temperature", 1.0},
                 {"text", {{"format", {{"type", "text"}}}, {"verbosity", "medium"}}},
                 {"tool_choice", "auto"},
                 {"tools", ojson::parse(responses_tools_payload)},
                 {"top_logprobs", 0},
                 {"top_p", 1.0},
                 {"truncation", "disabled"},
                 {"usage", std::move(usage)},
                 {"user", nullptr},
                 {"metadata", ojson::object()}};
}

/// The same turn as the Responses API streams it.
std::string responses_stream(const responses_turn& t) {
    std::string out;
    int sequence = 0;
    const auto event = [&](std::string_view type, ojson members) {
        ojson e{{"type", type}, {"sequence_number", sequence++}};
        for (auto& [k, v] : members.items()) e[k] = std::move(v);
        out += sse(type, e);
    };
    const auto obfuscation = [&](std::string_view delta) {
        return random_text(delta.size() < 16 ? 16 - delta.size() : 2, 600 + std::uint64_t(sequence), base62_chars);
    };
    event("response.created", {{"response", responses_object(t, false)}});
    event("response.in_progress", {{"response", responses_object(t, false)}});

    const ojson reasoning = reasoning_item(4);
    const std::string rs_id = reasoning["id"];
    event("response.output_item.added",
          {{"output_index", 0}, {"item", {{"id", rs_id}, {"type", "reasoning"}, {"summary", ojson::array()}}}});
    const ojson empty_summary{{"type", "summary_text"}, {"text", ""}};
    event("response.reasoning_summary_part.added",
          {{"item_id", rs_id}, {"output_index", 0}, {"summary_index", 0}, {"part", empty_summary}});
    for (const std::string& p : pieces(summaries[4], {4, 6, 3, 5, 7, 4}))
        event("response.reasoning_summary_text.delta", {{"item_id", rs_id},
                                                         {"output_index", 0},
                                                         {"summary_index", 0},
                                                         {"delta", p},
                                                         {"obfuscation", obfuscation(p)}});
    event("response.reasoning_summary_text.done",
          {{"item_id", rs_id}, {"output_index", 0}, {"summary_index", 0}, {"text", summaries[4]}});
    event("response.reasoning_summary_part.done",
          {{"item_id", rs_id}, {"output_index", 0}, {"summary_index", 0}, {"part", reasoning["summary"][0]}});
    event("response.output_item.done", {{"output_index", 0}, {"item", reasoning}});

    const ojson message = message_item("completed", reply_text);
    const std::string msg_id = message["id"];
    event("response.output_item.added", {{"output_index", 1}, {"item", message_item("in_progress", "")}});
    ojson part{{"type", "output_text"}, {"annotations", ojson::array()}, {"logprobs", ojson::array()}, {"text", ""}};
    event("response.content_part.added", {{"item_id", msg_id}, {"output_index", 1}, {"content_index", 0}, {"part", part}});
    for (const std::string& p : pieces(reply_text, {4, 6, 3, 5, 7, 4}))
        event("response.output_text.delta", {{"item_id", msg_id},
                                             {"output_index", 1},
                                             {"content_index", 0},
                                             {"delta", p},
                                             {"logprobs", ojson::array()},
                                             {"obfuscation", obfuscation(p)}});
    event("response.output_text.done", {{"item_id", msg_id},
                                        {"output_index", 1},
                                        {"content_index", 0},
                                        {"text", reply_text},
                                        {"logprobs", ojson::array()}});
    part["text"] = reply_text;
    event("response.content_part.done", {{"item_id", msg_id}, {"output_index", 1}, {"content_index", 0}, {"part", part}});
    event("response.output_item.done", {{"output_index", 1}, {"item", message}});

    for (std::size_t i = 0; i != openai_calls.size(); ++i) {
        const int index = int(2 + i);
        const std::string fc_id = function_call_id(4, i);
        event("response.output_item.added", {{"output_index", index}, {"item", function_call_item(i, "in_progress")}});
        for (const std::string& p : pieces(openai_calls[i].openai_arguments, {3, 5, 4, 6, 2}))
            event("response.function_call_arguments.delta",
                  {{"item_id", fc_id}, {"output_index", index}, {"delta", p}, {"obfuscation", obfuscation(p)}});
        event("response.function_call_arguments.done",
              {{"item_id", fc_id}, {"output_index", index}, {"arguments", openai_calls[i].openai_arguments}});
        event("response.output_item.done", {{"output_index", index}, {"item", function_call_item(i, "completed")}});
    }
    event("response.completed", {{"response", responses_object(t, true)}});
    return out;
}

responses_turn make_responses_turn() {
    responses_turn t;
    t.provider.model = "gpt-5-2025-08-07";
    t.provider.api_key = "sk-bench-0000000000000000000000000000000000000000";
    t.provider.reasoning_effort = "medium";
    t.provider.reasoning_summary = "detailed";
    t.messages = conversation();
    const std::vector<std::size_t> turns = calling_turns(t.messages);
    for (std::size_t k = 0; k != turns.size(); ++k) {
        agentry::message& m = t.messages[turns[k]];
        std::vector<agentry::provider_part> parts;
        parts.push_back({"openai_responses", "reasoning", reasoning_item(k).dump(), 0});
        for (std::size_t i = 0; i != m.tool_calls.size(); ++i)
            parts.push_back({"openai_responses", "function_call_id", ojson(function_call_id(k, i)).dump(),
                             std::uint32_t(i + 1)});
        m.parts = std::move(parts);
    }
    t.request.messages = t.messages;
    t.request.tools = responses_tools_payload;
    t.request.parallel_tool_calls = true;
    t.request.max_tokens = 4096;
    t.response = make_response(responses_object(t, true).dump(2));
    t.stream = responses_stream(t);
    return t;
}

// ---- Anthropic with thinking ----------------------------------------------------------------

constexpr std::array<std::size_t, 5> signature_sizes = {392, 412, 404, 428, 396};

ojson thinking_block(std::size_t turn) {
    return ojson{{"type", "thinking"}, {"thinking", thoughts[turn]}, {"signature", signature(signature_sizes[turn], 700 + turn)}};
}

ojson tool_use(std::size_t i) {
    return ojson{{"type", "tool_use"},
                 {"id", anthropic_calls[i].call_id},
                 {"name", anthropic_calls[i].name},
                 {"input", ojson::parse(anthropic_calls[i].anthropic_arguments)}};
}

constexpr std::string_view anthropic_text =
    "I'll check the forecast for the evening you land and look for seafood near Casa Alfama at the same time.";

const ojson anthropic_usage{{"input_tokens", 22},
                            {"cache_creation_input_tokens", 734},
                            {"cache_read_input_tokens", 6952},
                            {"cache_creation", {{"ephemeral_5m_input_tokens", 734}, {"ephemeral_1h_input_tokens", 0}}},
                            {"output_tokens", 611},
                            {"service_tier", "standard"}};

constexpr std::string_view anthropic_model = "claude-sonnet-4-5-20250929";
constexpr std::string_view anthropic_message_id = "msg_01XbQ7vN3kLp9TzR5wYc2HdM";

std::string anthropic_response() {
    ojson content = ojson::array({thinking_block(4), ojson{{"type", "text"}, {"text", anthropic_text}}});
    for (std::size_t i = 0; i != anthropic_calls.size(); ++i) content.push_back(tool_use(i));
    return ojson{{"model", anthropic_model},
                 {"id", anthropic_message_id},
                 {"type", "message"},
                 {"role", "assistant"},
                 {"content", std::move(content)},
                 {"stop_reason", "tool_use"},
                 {"stop_sequence", nullptr},
                 {"usage", anthropic_usage}}
        .dump();
}

/// The same turn as the Messages API streams it.
std::string anthropic_stream() {
    std::string out;
    ojson start_usage = anthropic_usage;
    start_usage["output_tokens"] = 8;
    out += sse("message_start", {{"type", "message_start"},
                                 {"message",
                                  {{"model", anthropic_model},
                                   {"id", anthropic_message_id},
                                   {"type", "message"},
                                   {"role", "assistant"},
                                   {"content", ojson::array()},
                                   {"stop_reason", nullptr},
                                   {"stop_sequence", nullptr},
                                   {"usage", start_usage}}}});
    const auto start = [&](int index, const ojson& block) {
        out += sse("content_block_start", {{"type", "content_block_start"}, {"index", index}, {"content_block", block}});
    };
    const auto delta = [&](int index, const ojson& d) {
        out += sse("content_block_delta", {{"type", "content_block_delta"}, {"index", index}, {"delta", d}});
    };
    const auto stop = [&](int index) {
        out += sse("content_block_stop", {{"type", "content_block_stop"}, {"index", index}});
    };
    const ojson thinking = thinking_block(4);
    start(0, {{"type", "thinking"}, {"thinking", ""}, {"signature", ""}});
    out += sse("ping", {{"type", "ping"}});
    for (const std::string& p : pieces(thoughts[4], {64, 96, 128, 80}))
        delta(0, {{"type", "thinking_delta"}, {"thinking", p}});
    delta(0, {{"type", "signature_delta"}, {"signature", thinking["signature"]}});
    stop(0);
    start(1, {{"type", "text"}, {"text", ""}});
    for (const std::string& p : pieces(anthropic_text, {24, 40, 32})) delta(1, {{"type", "text_delta"}, {"text", p}});
    stop(1);
    for (std::size_t i = 0; i != anthropic_calls.size(); ++i) {
        const int index = int(2 + i);
        start(index, {{"type", "tool_use"},
                      {"id", anthropic_calls[i].call_id},
                      {"name", anthropic_calls[i].name},
                      {"input", ojson::object()}});
        delta(index, {{"type", "input_json_delta"}, {"partial_json", ""}});
        for (const std::string& p : pieces(anthropic_calls[i].anthropic_arguments, {12, 18, 9, 15}))
            delta(index, {{"type", "input_json_delta"}, {"partial_json", p}});
        stop(index);
    }
    out += sse("message_delta", {{"type", "message_delta"},
                                 {"delta", {{"stop_reason", "tool_use"}, {"stop_sequence", nullptr}}},
                                 {"usage",
                                  {{"input_tokens", 22},
                                   {"cache_creation_input_tokens", 734},
                                   {"cache_read_input_tokens", 6952},
                                   {"output_tokens", 611}}}});
    out += sse("message_stop", {{"type", "message_stop"}});
    return out;
}

anthropic_turn make_anthropic_turn() {
    anthropic_turn t;
    t.provider.model = std::string(anthropic_model);
    t.provider.api_key = "sk-ant-bench-00000000000000000000000000000000000000000000";
    agentry::anthropic_thinking thinking;
    thinking.budget_tokens = 2048;
    t.provider.thinking = thinking;
    t.messages = conversation();
    const std::vector<std::size_t> turns = calling_turns(t.messages);
    for (std::size_t k = 0; k != turns.size(); ++k) {
        agentry::message& m = t.messages[turns[k]];
        std::vector<agentry::provider_part> parts;
        parts.push_back({"anthropic", "thinking", thinking_block(k).dump(), 0});
        // Interleaved thinking the safety system redacted, before the last turn's second call.
        if (k + 1 == turns.size())
            parts.push_back({"anthropic", "redacted_thinking",
                             ojson{{"type", "redacted_thinking"}, {"data", signature(712, 800)}}.dump(), 2});
        m.parts = std::move(parts);
    }
    t.request.messages = t.messages;
    t.request.tools = anthropic_tools_payload;
    t.request.parallel_tool_calls = true;
    t.request.max_tokens = 4096;
    t.response = make_response(anthropic_response());
    t.response.headers = {{"Content-Type", "application/json"},
                          {"request-id", "req_011CUbVx7n3Kq9LmT2wRz5Ye"},
                          {"anthropic-organization-id", "00000000-0000-0000-0000-000000000000"}};
    t.stream = anthropic_stream();
    return t;
}

std::size_t data_lines(const std::string& body) {
    std::size_t n = 0;
    for (std::size_t at = 0; (at = body.find("data:", at)) != std::string::npos; at += 5)
        if (at == 0 || body[at - 1] == '\n') ++n;
    return n;
}

} // namespace

const responses_turn& responses_fixture() {
    static const responses_turn f = [] {
        responses_turn t = make_responses_turn();
        t.stream_events = data_lines(t.stream);
        return t;
    }();
    return f;
}

const anthropic_turn& anthropic_fixture() {
    static const anthropic_turn f = [] {
        anthropic_turn t = make_anthropic_turn();
        t.stream_events = data_lines(t.stream);
        return t;
    }();
    return f;
}

} // namespace bench
