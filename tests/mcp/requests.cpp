// SPDX-License-Identifier: BSL-1.0
// Requests of the server to its client: mcp::elicit and mcp::sample over stdio (the loop on
// in-memory streams, the client answering as it reads each request) and over the Streamable
// HTTP rules (the request on the POST's event stream, the answer as a POST of its own).
#include <agentry/mcp/elicit.hpp>
#include <agentry/mcp/http.hpp>
#include <agentry/mcp/sample.hpp>
#include <agentry/mcp/stdio.hpp>
#include <agentry/registry.hpp>
#include <agentry/schema/constraints.hpp>
#include <agentry/schema/enum_titles.hpp>
#include <agentry/schema/field_defaults.hpp>
#include <agentry/schema/field_docs.hpp>
#include <agentry/tool.hpp>

#include <doctest/doctest.h>

#include "doc_block.hpp"

#include <chrono>
#include <condition_variable>
#include <deque>
#include <functional>
#include <istream>
#include <mutex>
#include <optional>
#include <set>
#include <ostream>
#include <streambuf>
#include <string>
#include <string_view>
#include <thread>
#include <type_traits>
#include <utility>
#include <vector>

namespace {

namespace mcp = agentry::mcp;
namespace http = boost::beast::http;
using namespace std::chrono_literals;

enum class plan { basic, pro };

struct signup {
    agentry::sized_string<1, 40> name;
    agentry::in_range<int, 18, 130> age;
    std::optional<agentry::email_string> email;
    std::optional<agentry::matching<"^[A-Z]{2}$">> country;
    std::optional<plan> tier;
    std::optional<bool> newsletter;
    static constexpr auto docs = agentry::field_docs("name", "Your name", "age", "Your age in years");
    static constexpr auto defaults = agentry::field_defaults("tier", plan::basic, "newsletter", false);
};

// The requestedSchema is a constant.
static_assert(mcp::elicitation_schema<signup>().starts_with(R"({"type":"object","properties":{"name":)"));

constexpr std::string_view signup_schema =
    R"({"type":"object","properties":{)"
    R"("name":{"type":"string","minLength":1,"maxLength":40,"description":"Your name"},)"
    R"("age":{"type":"integer","minimum":18,"maximum":130,"description":"Your age in years"},)"
    R"("email":{"type":"string","format":"email"},)"
    R"("country":{"type":"string","description":"Must match the regular expression ^[A-Z]{2}$."},)"
    R"("tier":{"type":"string","enum":["basic","pro"],"default":"basic"},)"
    R"("newsletter":{"type":"boolean","default":false}},)"
    R"("required":["name","age"]})";

// 2025-06-18 defines `default` on booleans only: every default goes into the description.
constexpr std::string_view signup_schema_2025_06_18 =
    R"({"type":"object","properties":{)"
    R"("name":{"type":"string","minLength":1,"maxLength":40,"description":"Your name"},)"
    R"("age":{"type":"integer","minimum":18,"maximum":130,"description":"Your age in years"},)"
    R"("email":{"type":"string","format":"email"},)"
    R"("country":{"type":"string","description":"Must match the regular expression ^[A-Z]{2}$."},)"
    R"("tier":{"type":"string","enum":["basic","pro"],"description":"Default: \"basic\"."},)"
    R"("newsletter":{"type":"boolean","description":"Default: false."}},)"
    R"("required":["name","age"]})";

enum class shade { red, green, blue };
enum class fruit { apple, pear };
enum class legacy_size { small, large };
enum class topping { cheese, olives, basil };

} // namespace

template <>
struct agentry::enum_titles<fruit> {
    static constexpr std::pair<fruit, std::string_view> titles[] = {{fruit::apple, "Apple"}, {fruit::pear, "Pear \"Williams\""}};
};

template <>
struct agentry::enum_titles<legacy_size> {
    static constexpr std::pair<legacy_size, std::string_view> titles[] = {{legacy_size::small, "Small"},
                                                                           {legacy_size::large, "Large"}};
    static constexpr bool legacy_enum_names = true;
};

// basil has no title: its name stands for it.
template <>
struct agentry::enum_titles<topping> {
    static constexpr std::pair<topping, std::string_view> titles[] = {{topping::olives, "Olives"},
                                                                       {topping::cheese, "Cheese"}};
};

namespace {

// Every kind of choice a form offers.
struct choices {
    shade colour;
    fruit snack;
    legacy_size size;
    std::vector<shade> shades;
    agentry::constrained<std::vector<topping>, agentry::min_items<1>, agentry::max_items<2>> toppings;
    std::optional<std::set<shade>> walls;
};

constexpr std::string_view choices_schema =
    R"({"type":"object","properties":{)"
    R"("colour":{"type":"string","enum":["red","green","blue"]},)"
    R"("snack":{"type":"string","oneOf":[{"const":"apple","title":"Apple"},{"const":"pear","title":"Pear \"Williams\""}]},)"
    R"("size":{"type":"string","enum":["small","large"],"enumNames":["Small","Large"]},)"
    R"("shades":{"type":"array","items":{"type":"string","enum":["red","green","blue"]}},)"
    R"("toppings":{"type":"array","items":{"anyOf":[{"const":"cheese","title":"Cheese"},)"
    R"({"const":"olives","title":"Olives"},{"const":"basil","title":"basil"}]},"minItems":1,"maxItems":2},)"
    R"("walls":{"type":"array","items":{"type":"string","enum":["red","green","blue"]},)"
    R"("description":"Items must be unique."}},)"
    R"("required":["colour","snack","size","shades","toppings"]})";

// 2025-06-18 knows titles as enumNames only.
constexpr std::string_view choices_schema_2025_06_18 =
    R"({"type":"object","properties":{)"
    R"("colour":{"type":"string","enum":["red","green","blue"]},)"
    R"("snack":{"type":"string","enum":["apple","pear"],"enumNames":["Apple","Pear \"Williams\""]},)"
    R"("size":{"type":"string","enum":["small","large"],"enumNames":["Small","Large"]},)"
    R"("shades":{"type":"array","items":{"type":"string","enum":["red","green","blue"]}},)"
    R"("toppings":{"type":"array","items":{"type":"string","enum":["cheese","olives","basil"],)"
    R"("enumNames":["Cheese","Olives","basil"]},"minItems":1,"maxItems":2},)"
    R"("walls":{"type":"array","items":{"type":"string","enum":["red","green","blue"]},)"
    R"("description":"Items must be unique."}},)"
    R"("required":["colour","snack","size","shades","toppings"]})";

static_assert(mcp::elicitation_schema<choices>() == choices_schema);
static_assert(mcp::elicitation_schema<choices>("2025-06-18") == choices_schema_2025_06_18);

// Titles are for forms: a tool's input schema keeps the plain enum.
static_assert(agentry::json_schema<choices, agentry::dialect::mcp>().find("title") == std::string_view::npos);

std::string describe(const mcp::elicit_result<signup>& r) {
    if (r.error) return std::string(mcp::to_string(r.error->kind)) + ": " + r.error->message;
    if (r.action == mcp::elicit_action::decline) return "declined";
    if (r.action == mcp::elicit_action::cancel) return "cancelled";
    const signup& s = *r.content;
    std::string out = "accepted " + s.name.value + " " + std::to_string(s.age.value);
    if (s.email) out += " " + s.email->value;
    if (s.tier) out += *s.tier == plan::pro ? " pro" : " basic";
    if (s.newsletter) out += *s.newsletter ? " newsletter" : " no newsletter";
    return out;
}

// What the last call of a tool here found, for a test whose call's answer is not sent.
struct last_outcome {
    std::mutex mutex;
    std::string text;
    void set(std::string t) {
        std::lock_guard lock(mutex);
        text = std::move(t);
    }
    std::string get() {
        std::lock_guard lock(mutex);
        return text;
    }
} outcome;

std::string ask_signup() {
    std::string text = describe(mcp::elicit<signup>("Sign up?"));
    outcome.set(text);
    return text;
}

std::string ask_signup_quickly() {
    std::string text = describe(mcp::elicit<signup>("Sign up?", {.timeout = 100ms}));
    outcome.set(text);
    return text;
}

std::string ask_choices() {
    const auto r = mcp::elicit<choices>("Choose");
    if (r.error) return std::string(mcp::to_string(r.error->kind)) + ": " + r.error->message;
    if (!r.accepted()) return "not chosen";
    std::string text;
    agentry::json::write(text, *r.content);
    return text;
}

std::string summarise(const std::string& text) {
    mcp::sampling_request request;
    request.messages = {{mcp::role::user, "Summarise: " + text}, {mcp::role::assistant, "Sure."}};
    request.max_tokens = 50;
    request.system_prompt = "Be brief.";
    request.preferences = mcp::model_preferences{.hints = {"sonnet"}, .cost_priority = 0.25, .speed_priority = {},
                                                 .intelligence_priority = 1};
    const mcp::sample_result r = mcp::sample(request);
    if (r.error) return std::string(mcp::to_string(r.error->kind)) + ": " + r.error->message;
    return r.model + " (" + r.stop_reason + "): " + r.text;
}

// The tools a sampling request offers the client's model.
constexpr agentry::registry weather_tools{
    agentry::tool<"get_weather", "Current weather for a city", "city">(+[](const std::string& city) {
        return city == "Paris" ? std::string("rain") : std::string("sun");
    }),
};

// Samples with weather_tools, runs the tools the model uses with the registry, and samples again
// with their results: the model's last text, or the failure.
std::string plan_trip(const std::string& city) {
    mcp::sampling_request request;
    request.messages = {{mcp::role::user, "Pack for " + city}};
    request.max_tokens = 100;
    request.tools = mcp::sampling_tools(weather_tools);
    request.tools.push_back({"note", "Writes a note", R"({"type":"object","properties":{"text":{"type":"string"}}})"});
    request.tool_choice = mcp::sampling_tool_mode::automatic;
    for (int round = 0; round != 3; ++round) {
        const mcp::sample_result r = mcp::sample(request);
        if (r.error) return std::string(mcp::to_string(r.error->kind)) + ": " + r.error->message;
        if (r.tool_uses.empty()) return r.stop_reason + ": " + r.text;
        request.messages.push_back(mcp::sampling_message::assistant(r));
        std::vector<mcp::sampling_tool_result> results;
        for (const mcp::sampling_tool_use& use : r.tool_uses) {
            const agentry::tool_result done = weather_tools.call(use.name, use.input);
            results.push_back({use.id, done.content, !done.ok()});
        }
        request.messages.push_back(mcp::sampling_message::results(std::move(results)));
    }
    return "too many rounds";
}

std::string get_weather(const std::string& city) { return city == "Paris" ? "rain" : "sun"; }

// The example of docs/mcp.md (sampling with tools), byte for byte.
constexpr agentry::registry weather{
    agentry::tool<"get_weather", "Current weather for a city", "city">(get_weather)};

std::string pack_for(const std::string& city) {
    agentry::mcp::sampling_request request;
    request.messages = {{agentry::mcp::role::user, "Pack for " + city}};
    request.tools = agentry::mcp::sampling_tools(weather);
    for (int round = 0; round != 3; ++round) {
        const agentry::mcp::sample_result r = agentry::mcp::sample(request);
        if (r.error) return r.error->message;
        if (r.tool_uses.empty()) return r.text;
        request.messages.push_back(agentry::mcp::sampling_message::assistant(r));
        std::vector<agentry::mcp::sampling_tool_result> results;
        for (const auto& use : r.tool_uses) {
            const agentry::tool_result done = weather.call(use.name, use.input);
            results.push_back({use.id, done.content, !done.ok()});
        }
        request.messages.push_back(agentry::mcp::sampling_message::results(std::move(results)));
    }
    return "no answer";
}

constexpr agentry::registry tools{
    agentry::tool<"signup", "Asks the user to sign up">(ask_signup),
    agentry::tool<"pack_for", "The example of docs/mcp.md", "city">(pack_for),
    agentry::tool<"plan_trip", "Asks the client's model, which may use tools", "city">(plan_trip),
    agentry::tool<"signup_quick", "Asks the user to sign up, waiting 100 ms">(ask_signup_quickly),
    agentry::tool<"choose", "Asks the user to choose">(ask_choices),
    agentry::tool<"summarise", "Summarises a text with the client's model", "text">(summarise),
    agentry::tool<"ask_short", "Asks with the short form of sample", "prompt">(+[](const std::string& prompt) {
        const mcp::sample_result r = mcp::sample(prompt, 10);
        return r.ok() ? r.text : r.error->message;
    }),
    agentry::with_policy<agentry::tool_policy{.level = agentry::permission::destructive, .needs_approval = true}>(
        agentry::tool<"transfer", "Sends money", "amount", "to">(+[](long long amount, const std::string& to) {
            return "sent " + std::to_string(amount) + " to " + to;
        })),
    agentry::with_policy<agentry::tool_policy{.level = agentry::permission::write, .needs_approval = true}>(
        agentry::tool<"approved_signup", "Asks for approval, then asks the user to sign up">(ask_signup)),
    agentry::tool<"pay", "Asks the user to pay on a web page">(+[]() -> std::string {
        const mcp::elicit_url_result r = mcp::elicit_url("Pay the invoice", "https://pay.example.com/i/42");
        if (r.error) return std::string(mcp::to_string(r.error->kind)) + ": " + r.error->message;
        outcome.set(r.elicitation_id);
        return r.accepted() ? "opened" : r.action == mcp::elicit_action::decline ? "declined" : "cancelled";
    }),
};
using registry = std::remove_const_t<decltype(tools)>;

const mcp::server server{tools, {.name = "asking", .version = "1"}};

std::string initialize_line(std::string_view version, std::string_view capabilities) {
    return R"({"jsonrpc":"2.0","id":0,"method":"initialize","params":{"protocolVersion":")" + std::string(version) +
           R"(","capabilities":)" + std::string(capabilities) + R"(,"clientInfo":{"name":"test","version":"1"}}})";
}

std::string call_line(std::string_view id, std::string_view tool, std::string_view arguments = "{}") {
    return R"({"jsonrpc":"2.0","id":)" + std::string(id) + R"(,"method":"tools/call","params":{"name":")" +
           std::string(tool) + R"(","arguments":)" + std::string(arguments) + "}}";
}

std::string text_result(std::string_view id, std::string_view text) {
    std::string out = R"({"jsonrpc":"2.0","id":)" + std::string(id) + R"(,"result":{"content":[{"type":"text","text":)";
    agentry::json::write(out, text);
    out += R"(}],"isError":false}})";
    return out;
}

// The input of the stdio loop: lines pushed while it runs, then the end.
class pipe_input : public std::streambuf {
public:
    void push(std::string line) {
        std::lock_guard lock(mutex_);
        lines_.push_back(std::move(line) + "\n");
        changed_.notify_all();
    }
    void close() {
        std::lock_guard lock(mutex_);
        closed_ = true;
        changed_.notify_all();
    }

protected:
    int_type underflow() override {
        if (gptr() != egptr()) return traits_type::to_int_type(*gptr());
        std::unique_lock lock(mutex_);
        changed_.wait(lock, [&] { return closed_ || !lines_.empty(); });
        if (lines_.empty()) return traits_type::eof();
        current_ = std::move(lines_.front());
        lines_.pop_front();
        setg(current_.data(), current_.data(), current_.data() + current_.size());
        return traits_type::to_int_type(*gptr());
    }

private:
    std::mutex mutex_;
    std::condition_variable changed_;
    std::deque<std::string> lines_;
    std::string current_;
    bool closed_ = false;
};

// The output of the stdio loop: each line is kept and shown to `on_line` as it is written.
class line_output : public std::streambuf {
public:
    explicit line_output(std::function<void(const std::string&)> on_line) : on_line_(std::move(on_line)) {}

    std::vector<std::string> lines() {
        std::lock_guard lock(mutex_);
        return lines_;
    }

protected:
    int_type overflow(int_type c) override {
        if (traits_type::eq_int_type(c, traits_type::eof())) return traits_type::not_eof(c);
        if (traits_type::to_char_type(c) != '\n') {
            line_ += traits_type::to_char_type(c);
            return c;
        }
        {
            std::lock_guard lock(mutex_);
            lines_.push_back(line_);
        }
        on_line_(line_);
        line_.clear();
        return c;
    }

private:
    std::function<void(const std::string&)> on_line_;
    std::mutex mutex_;
    std::vector<std::string> lines_;
    std::string line_;
};

// A client over stdio: sends `input` lines, then answers each line the server writes with the
// lines `react` returns; the input ends when the server answers the request "end".
std::vector<std::string> converse(const std::vector<std::string>& input,
                                  std::function<std::vector<std::string>(const std::string&)> react,
                                  const mcp::server<registry>& srv = server) {
    pipe_input in_buffer;
    line_output out_buffer([&](const std::string& line) {
        for (std::string& reply : react(line)) in_buffer.push(std::move(reply));
        if (line == R"({"jsonrpc":"2.0","id":"end","result":{}})") in_buffer.close();
    });
    std::istream in(&in_buffer);
    std::ostream out(&out_buffer);
    for (const std::string& line : input) in_buffer.push(line);
    in_buffer.push(R"({"jsonrpc":"2.0","id":"end","method":"ping"})");
    mcp::stdio_options options;
    options.log = nullptr;
    CHECK(mcp::serve(srv, in, out, options) == 0);
    return out_buffer.lines();
}

constexpr std::string_view elicitation_capability = R"({"elicitation":{}})";

std::string elicit_request(std::string_view id, std::string_view mode, std::string_view schema,
                           std::string_view message = "Sign up?") {
    return R"({"jsonrpc":"2.0","id":)" + std::string(id) + R"(,"method":"elicitation/create","params":{)" +
           std::string(mode) + R"("message":")" + std::string(message) + R"(","requestedSchema":)" +
           std::string(schema) + "}}";
}

// A client answering every elicitation/create with `result`.
std::function<std::vector<std::string>(const std::string&)> answering(std::string result) {
    return [result](const std::string& line) -> std::vector<std::string> {
        if (line.find(R"("method":"elicitation/create")") == std::string::npos &&
            line.find(R"("method":"sampling/createMessage")") == std::string::npos)
            return {};
        const std::size_t at = line.find(R"("id":)") + 5;
        const std::string id = line.substr(at, line.find(',', at) - at);
        return {R"({"jsonrpc":"2.0","id":)" + id + R"(,"result":)" + result + "}"};
    };
}

} // namespace

TEST_CASE("elicit over stdio: the request sent, and an accepted content read into T") {
    const auto lines = converse({initialize_line("2025-11-25", elicitation_capability), call_line("2", "signup")},
                                answering(R"({"action":"accept","content":{"name":"Ada","age":36,"email":"ada@example.com","tier":"pro"},"_meta":{}})"));
    REQUIRE(lines.size() == 4);
    CHECK(lines[1] == elicit_request("1", R"("mode":"form",)", signup_schema));
    CHECK(lines[2] == text_result("2", "accepted Ada 36 ada@example.com pro"));
    CHECK(lines[3] == R"({"jsonrpc":"2.0","id":"end","result":{}})");
}

TEST_CASE("elicit over stdio: a 2025-06-18 session has no mode and no default keywords") {
    const auto lines = converse({initialize_line("2025-06-18", elicitation_capability), call_line("2", "signup")},
                                answering(R"({"action":"accept","content":{"name":"Ada","age":36,"newsletter":true}})"));
    REQUIRE(lines.size() == 4);
    CHECK(lines[1] == elicit_request("1", "", signup_schema_2025_06_18));
    CHECK(lines[2] == text_result("2", "accepted Ada 36 newsletter"));
    CHECK(mcp::elicitation_schema<signup>("2025-06-18") == signup_schema_2025_06_18);
    CHECK(mcp::elicitation_schema<signup>("2025-11-25") == signup_schema);
}

TEST_CASE("elicit over stdio: single and multiple choices, titled and not, read back into T") {
    auto lines = converse({initialize_line("2025-11-25", elicitation_capability), call_line("2", "choose")},
                          answering(R"({"action":"accept","content":{"colour":"green","snack":"pear","size":"large",)"
                                    R"("shades":["blue","red"],"toppings":["basil","cheese"],"walls":["red","blue"]}})"));
    REQUIRE(lines.size() == 4);
    CHECK(lines[1] == elicit_request("1", R"("mode":"form",)", choices_schema, "Choose"));
    CHECK(lines[2] == text_result("2", R"({"colour":"green","snack":"pear","size":"large","shades":["blue","red"],)"
                                       R"("toppings":["basil","cheese"],"walls":["red","blue"]})"));
    lines = converse({initialize_line("2025-11-25", elicitation_capability), call_line("2", "choose")},
                     answering(R"({"action":"accept","content":{"colour":"green","snack":"plum","size":"large",)"
                               R"("shades":[],"toppings":[]}})"));
    REQUIRE(lines.size() == 4);
    CHECK(lines[2].find(R"(/snack: \"plum\" is not one of [\"apple\",\"pear\"])") != std::string::npos);
    CHECK(lines[2].find("/toppings: ") != std::string::npos);
    lines = converse({initialize_line("2025-06-18", elicitation_capability), call_line("2", "choose")},
                     answering(R"({"action":"decline"})"));
    REQUIRE(lines.size() == 4);
    CHECK(lines[1] == elicit_request("1", "", choices_schema_2025_06_18, "Choose"));
}

TEST_CASE("elicit over stdio: decline and cancel") {
    auto lines = converse({initialize_line("2025-11-25", elicitation_capability), call_line("2", "signup")},
                          answering(R"({"action":"decline"})"));
    REQUIRE(lines.size() == 4);
    CHECK(lines[2] == text_result("2", "declined"));
    lines = converse({initialize_line("2025-11-25", R"({"elicitation":{"form":{},"url":{}}})"), call_line("2", "signup")},
                     answering(R"({"action":"cancel"})"));
    REQUIRE(lines.size() == 4);
    CHECK(lines[2] == text_result("2", "cancelled"));
}

TEST_CASE("elicit over stdio: content that does not fit T, and an answer that is no ElicitResult") {
    auto lines = converse({initialize_line("2025-11-25", elicitation_capability), call_line("2", "signup")},
                          answering(R"({"action":"accept","content":{"name":"","age":12,"tier":"gold"}})"));
    REQUIRE(lines.size() == 4);
    CHECK(lines[2] ==
          text_result("2", "invalid_content: agentry: mcp::elicit: the content the client accepted does not fit the "
                           "requested schema: /name: must be at least 1 character long; /age: must be at least 18; "
                           "/tier: \"gold\" is not one of [\"basic\",\"pro\"]"));
    lines = converse({initialize_line("2025-11-25", elicitation_capability), call_line("2", "signup")},
                     answering(R"({"action":"maybe"})"));
    REQUIRE(lines.size() == 4);
    CHECK(lines[2] ==
          text_result("2", "invalid_answer: agentry: mcp::elicit: the client's answer to elicitation/create is not an "
                           "ElicitResult: /action: \"maybe\" is not one of [\"accept\",\"decline\",\"cancel\"]"));
}

TEST_CASE("elicit over stdio: without the capability no request is sent") {
    auto lines = converse({initialize_line("2025-11-25", R"({"sampling":{}})"), call_line("2", "signup")},
                          answering(R"({"action":"accept"})"));
    REQUIRE(lines.size() == 3);
    CHECK(lines[1] == text_result("2", "no_capability: agentry: mcp::elicit: the client did not declare the "
                                       "elicitation capability (form mode) in initialize"));
    lines = converse({initialize_line("2025-11-25", R"({"elicitation":{"url":{}}})"), call_line("2", "signup")},
                     answering(R"({"action":"accept"})"));
    REQUIRE(lines.size() == 3);
    CHECK(lines[1].find("no_capability: ") != std::string::npos);
    lines = converse({initialize_line("2025-03-26", elicitation_capability), call_line("2", "signup")},
                     answering(R"({"action":"accept"})"));
    REQUIRE(lines.size() == 3);
    CHECK(lines[1] == text_result("2", "no_capability: agentry: mcp::elicit: elicitation/create is defined from "
                                       "protocol version 2025-06-18; this session uses 2025-03-26"));
}

TEST_CASE("elicit over stdio: a timeout cancels the request on the client, a late answer is dropped") {
    const std::string late = R"({"jsonrpc":"2.0","id":1,"result":{"action":"accept","content":{"name":"Ada","age":36}}})";
    const auto lines = converse({initialize_line("2025-11-25", elicitation_capability), call_line("2", "signup_quick")},
                                [&](const std::string& line) -> std::vector<std::string> {
                                    if (line.find("notifications/cancelled") != std::string::npos) return {late};
                                    return {};
                                });
    REQUIRE(lines.size() == 5);
    CHECK(lines[1] == elicit_request("1", R"("mode":"form",)", signup_schema));
    CHECK(lines[2] ==
          R"({"jsonrpc":"2.0","method":"notifications/cancelled","params":{"requestId":1,"reason":"timed out"}})");
    CHECK(lines[3] == text_result("2", "timeout: agentry: mcp::elicit: the client did not answer elicitation/create "
                                       "within 100 ms"));
}

TEST_CASE("elicit over stdio: the served request's cancellation ends the wait") {
    outcome.set({});
    const auto lines = converse({initialize_line("2025-11-25", elicitation_capability), call_line("2", "signup")},
                                [](const std::string& line) -> std::vector<std::string> {
                                    if (line.find("elicitation/create") == std::string::npos) return {};
                                    return {R"({"jsonrpc":"2.0","method":"notifications/cancelled","params":{"requestId":2}})"};
                                });
    REQUIRE(lines.size() == 4);
    CHECK(lines[2] == R"({"jsonrpc":"2.0","method":"notifications/cancelled","params":{"requestId":1,"reason":"the request that asked was cancelled"}})");
    CHECK(lines[3] == R"({"jsonrpc":"2.0","id":"end","result":{}})");
    CHECK(outcome.get() == "cancelled: agentry: mcp::elicit: the request being served was cancelled");
}

TEST_CASE("elicit over stdio: the end of input ends the wait") {
    pipe_input in_buffer;
    line_output out_buffer([&](const std::string& line) {
        if (line.find("elicitation/create") != std::string::npos) in_buffer.close();
    });
    std::istream in(&in_buffer);
    std::ostream out(&out_buffer);
    in_buffer.push(initialize_line("2025-11-25", elicitation_capability));
    in_buffer.push(call_line("2", "signup"));
    mcp::stdio_options options;
    options.log = nullptr;
    CHECK(mcp::serve(server, in, out, options) == 0);
    const auto lines = out_buffer.lines();
    REQUIRE(lines.size() == 3);
    CHECK(lines[2] == text_result("2", "closed: agentry: mcp::elicit: the client can no longer answer (its input ended)"));
}

TEST_CASE("elicit: outside a request served by a server") {
    const auto r = mcp::elicit<signup>("Sign up?");
    REQUIRE(r.error);
    CHECK(r.error->kind == mcp::ask_failure::outside_request);
    CHECK(r.error->message == "agentry: mcp::elicit: called outside a request served by an mcp::server");
    CHECK(!r.accepted());
    const auto s = mcp::sample("hello", 10);
    REQUIRE(s.error);
    CHECK(s.error->message == "agentry: mcp::sample: called outside a request served by an mcp::server");
}

TEST_CASE("server: a response nobody waits for is dropped") {
    mcp::session s;
    CHECK(server.handle(s, initialize_line("2025-11-25", elicitation_capability)).find(R"("result")") != std::string::npos);
    CHECK(server.handle(s, R"({"jsonrpc":"2.0","id":7,"result":{"action":"accept"}})").empty());
    CHECK(server.handle(s, R"({"jsonrpc":"2.0","id":"x","error":{"code":-1,"message":"no"}})").empty());
    CHECK(s.requests().waiting() == 0);
}

TEST_CASE("sample over stdio: the request sent, text back, errors") {
    const std::string call = call_line("2", "summarise", R"({"text":"a long story"})");
    const std::string request =
        R"({"jsonrpc":"2.0","id":1,"method":"sampling/createMessage","params":{"messages":[)"
        R"({"role":"user","content":{"type":"text","text":"Summarise: a long story"}},)"
        R"({"role":"assistant","content":{"type":"text","text":"Sure."}}],"systemPrompt":"Be brief.",)"
        R"("modelPreferences":{"hints":[{"name":"sonnet"}],"costPriority":0.25,"intelligencePriority":1},"maxTokens":50}})";
    auto lines = converse({initialize_line("2025-11-25", R"({"sampling":{}})"), call},
                          answering(R"({"role":"assistant","content":{"type":"text","text":"A story."},"model":"m-1","stopReason":"endTurn"})"));
    REQUIRE(lines.size() == 4);
    CHECK(lines[1] == request);
    CHECK(lines[2] == text_result("2", "m-1 (endTurn): A story."));

    lines = converse({initialize_line("2025-11-25", R"({"sampling":{}})"), call},
                     answering(R"({"role":"assistant","content":[{"type":"text","text":"A "},{"type":"text","text":"story."}],"model":"m-1"})"));
    REQUIRE(lines.size() == 4);
    CHECK(lines[2] == text_result("2", "m-1 (): A story."));

    lines = converse({initialize_line("2025-11-25", R"({"sampling":{}})"), call},
                     answering(R"({"role":"assistant","content":{"type":"image","data":"AAAA","mimeType":"image/png"},"model":"m-1"})"));
    REQUIRE(lines.size() == 4);
    CHECK(lines[2] == text_result("2", "invalid_answer: agentry: mcp::sample: the client's model answered with image "
                                       "content; mcp::sample takes text"));

    lines = converse({initialize_line("2025-11-25", R"({"sampling":{}})"), call},
                     [](const std::string& line) -> std::vector<std::string> {
                         if (line.find("sampling/createMessage") == std::string::npos) return {};
                         return {R"({"jsonrpc":"2.0","id":1,"error":{"code":-1,"message":"User rejected sampling request"}})"};
                     });
    REQUIRE(lines.size() == 4);
    CHECK(lines[2] == text_result("2", "client_error: agentry: mcp::sample: the client answered sampling/createMessage "
                                       "with the error -1 User rejected sampling request"));

    lines = converse({initialize_line("2025-11-25", elicitation_capability), call}, answering("{}"));
    REQUIRE(lines.size() == 3);
    CHECK(lines[1] == text_result("2", "no_capability: agentry: mcp::sample: the client did not declare the sampling "
                                       "capability in initialize"));

    lines = converse({initialize_line("2024-11-05", R"({"sampling":{}})"), call_line("2", "ask_short", R"({"prompt":"Hi"})")},
                     answering(R"({"role":"assistant","content":{"type":"text","text":"Hello"},"model":"m"})"));
    REQUIRE(lines.size() == 4);
    CHECK(lines[1] == R"({"jsonrpc":"2.0","id":1,"method":"sampling/createMessage","params":{"messages":[{"role":"user","content":{"type":"text","text":"Hi"}}],"maxTokens":10}})");
    CHECK(lines[2] == text_result("2", "Hello"));
}

namespace {

constexpr std::string_view trip_tools =
    R"("tools":[{"name":"get_weather","description":"Current weather for a city","inputSchema":{"type":"object",)"
    R"("properties":{"city":{"type":"string"}},"required":["city"],"additionalProperties":false}},)"
    R"({"name":"note","description":"Writes a note","inputSchema":{"type":"object","properties":{"text":{"type":"string"}}}}],)"
    R"("toolChoice":{"mode":"auto"})";

// A client whose model uses get_weather for Paris, then answers with the result it was sent.
std::vector<std::string> trip_client(const std::string& line) {
    if (line.find("sampling/createMessage") == std::string::npos) return {};
    const std::size_t at = line.find(R"("id":)") + 5;
    const std::string id = line.substr(at, line.find(',', at) - at);
    if (line.find("tool_result") == std::string::npos)
        return {R"({"jsonrpc":"2.0","id":)" + id +
                R"(,"result":{"role":"assistant","content":[{"type":"text","text":"Checking."},)"
                R"({"type":"tool_use","id":"u1","name":"get_weather","input":{"city":"Paris"}},)"
                R"({"type":"tool_use","id":"u2","name":"get_weather","input":{}}],"model":"m-2","stopReason":"toolUse"}})"};
    return {R"({"jsonrpc":"2.0","id":)" + id +
            R"(,"result":{"role":"assistant","content":{"type":"text","text":"Take an umbrella."},"model":"m-2","stopReason":"endTurn"}})"};
}

} // namespace

TEST_CASE("sample with tools over stdio: tools from a registry, tool uses back, tool results sent") {
    const std::string call = call_line("2", "plan_trip", R"({"city":"Paris"})");
    const auto lines = converse({initialize_line("2025-11-25", R"({"sampling":{"tools":{}}})"), call}, trip_client);
    REQUIRE(lines.size() == 5);
    CHECK(lines[1] == R"({"jsonrpc":"2.0","id":1,"method":"sampling/createMessage","params":{"messages":[)"
                      R"({"role":"user","content":{"type":"text","text":"Pack for Paris"}}],"maxTokens":100,)" +
                          std::string(trip_tools) + "}}");
    CHECK(lines[2] ==
          R"({"jsonrpc":"2.0","id":2,"method":"sampling/createMessage","params":{"messages":[)"
          R"({"role":"user","content":{"type":"text","text":"Pack for Paris"}},)"
          R"({"role":"assistant","content":[{"type":"text","text":"Checking."},)"
          R"({"type":"tool_use","id":"u1","name":"get_weather","input":{"city":"Paris"}},)"
          R"({"type":"tool_use","id":"u2","name":"get_weather","input":{}}]},)"
          R"({"role":"user","content":[{"type":"tool_result","toolUseId":"u1","content":[{"type":"text","text":"rain"}]},)"
          R"({"type":"tool_result","toolUseId":"u2","content":[{"type":"text","text":"get_weather: invalid arguments: /city: )"
          R"(missing required property. Fix the arguments and call get_weather again."}],"isError":true}]}],)"
          R"("maxTokens":100,)" +
              std::string(trip_tools) + "}}");
    CHECK(lines[3] == text_result("2", "endTurn: Take an umbrella."));
}

TEST_CASE("sample with tools: refused without capabilities.sampling.tools, before 2025-11-25, and with a bad schema") {
    const std::string call = call_line("2", "plan_trip", R"({"city":"Paris"})");
    auto lines = converse({initialize_line("2025-11-25", R"({"sampling":{}})"), call}, trip_client);
    REQUIRE(lines.size() == 3);
    CHECK(lines[1] == text_result("2", "no_capability: agentry: mcp::sample: the request offers the tool \"get_weather\", "
                                       "but the client does not support sampling with tools (it did not declare "
                                       "capabilities.sampling.tools in initialize); send the request without tools"));
    lines = converse({initialize_line("2025-06-18", R"({"sampling":{"tools":{}}})"), call}, trip_client);
    REQUIRE(lines.size() == 3);
    CHECK(lines[1] == text_result("2", "no_capability: agentry: mcp::sample: the request offers the tool \"get_weather\", "
                                       "but the client does not support sampling with tools: the session's protocol "
                                       "version 2025-06-18 predates it (2025-11-25); send the request without tools"));
    // A tool use the request offered no tools for is not text.
    lines = converse({initialize_line("2025-11-25", R"({"sampling":{"tools":{}}})"), call_line("2", "ask_short", R"({"prompt":"Hi"})")},
                     answering(R"({"role":"assistant","content":[{"type":"tool_use","id":"u","name":"x","input":{}}],"model":"m"})"));
    REQUIRE(lines.size() == 4);
    CHECK(lines[2] == text_result("2", "agentry: mcp::sample: the client's model answered with tool_use content; "
                                       "mcp::sample takes text"));
}

TEST_CASE("docs/mcp.md: the example of sampling with tools is in this file, and sends what it shows") {
    const std::string block = mcp_test::doc_block("**Sampling with tools (2025-11-25).**");
    CHECK(block.starts_with("constexpr agentry::registry weather{"));
    CHECK(mcp_test::in_test_file(block, "requests.cpp"));
    const auto lines = converse({initialize_line("2025-11-25", R"({"sampling":{"tools":{}}})"),
                                 call_line("2", "pack_for", R"({"city":"Paris"})")},
                                trip_client);
    REQUIRE(lines.size() == 5);
    const std::string doc = mcp_test::read_file(AGENTRY_TEST_SOURCE_DIR "/docs/mcp.md");
    const std::size_t shown = doc.find("```json\n", doc.find("**Sampling with tools (2025-11-25).**")) + 8;
    CHECK(doc.substr(shown, doc.find('\n', shown) - shown) == lines[1]);
    CHECK(lines[2].find(R"({"role":"user","content":[{"type":"tool_result","toolUseId":"u1","content":[{"type":"text","text":"rain"}]},)") !=
          std::string::npos);
    CHECK(lines[3] == text_result("2", "Take an umbrella."));
}

TEST_CASE("sample with tools: a bad input_schema is refused before anything is sent") {
    mcp::sampling_request request;
    request.messages = {{mcp::role::user, "x"}};
    request.tools = {{"bad", "", "[1]"}};
    // Outside a request the scope is checked first.
    CHECK(mcp::sample(request).error->kind == mcp::ask_failure::outside_request);
    CHECK(mcp::to_string(mcp::ask_failure::invalid_request) == "invalid_request");
    const auto tools = mcp::sampling_tools(weather_tools);
    REQUIRE(tools.size() == 1);
    CHECK(tools[0].name == "get_weather");
    CHECK(tools[0].description == "Current weather for a city");
    CHECK(tools[0].input_schema ==
          R"({"type":"object","properties":{"city":{"type":"string"}},"required":["city"],"additionalProperties":false})");
}

namespace {

http::request<http::string_body> post(std::string body, std::string_view session = {},
                                      std::string_view accept = "application/json, text/event-stream") {
    http::request<http::string_body> r{http::verb::post, "/mcp", 11};
    r.set(http::field::host, "127.0.0.1:8080");
    r.set(http::field::content_type, "application/json");
    r.set(http::field::accept, accept);
    if (!session.empty()) r.set("Mcp-Session-Id", session);
    r.body() = std::move(body);
    r.prepare_payload();
    return r;
}

std::string body_text(const mcp::detail::http_reply& reply) { return reply.response.body(); }

} // namespace

TEST_CASE("elicit over HTTP: the request on the POST's event stream, the answer a POST of its own (202)") {
    const mcp::http_options options;
    mcp::detail::http_endpoint<registry> endpoint(server, options, true);
    const std::string session(
        endpoint.handle(post(initialize_line("2025-11-25", elicitation_capability))).response["Mcp-Session-Id"]);
    REQUIRE(!session.empty());

    // The client answers from another thread, after the call started waiting.
    std::vector<std::string> events;
    std::thread client;
    http::status answered{};
    const mcp::message_sink sink = [&](std::string_view event) {
        events.emplace_back(event);
        if (event.find("elicitation/create") == std::string_view::npos) return;
        client = std::thread([&] {
            std::this_thread::sleep_for(20ms);
            answered = endpoint
                           .handle(post(R"({"jsonrpc":"2.0","id":1,"result":{"action":"accept","content":{"name":"Ada","age":36}}})",
                                        session))
                           .response.result();
        });
    };
    auto reply = endpoint.handle(post(call_line("2", "signup"), session), {}, sink);
    if (client.joinable()) client.join();
    CHECK(answered == http::status::accepted);
    CHECK(reply.response.result() == http::status::ok);
    CHECK(body_text(reply) == text_result("2", "accepted Ada 36"));
    REQUIRE(events.size() == 1);
    CHECK(events[0] == elicit_request("1", R"("mode":"form",)", signup_schema));

    // Decline, answered at once; the next request of the session has the next id.
    events.clear();
    const mcp::message_sink decline = [&](std::string_view event) {
        events.emplace_back(event);
        CHECK(endpoint.handle(post(R"({"jsonrpc":"2.0","id":2,"result":{"action":"decline"}})", session))
                  .response.result() == http::status::accepted);
    };
    reply = endpoint.handle(post(call_line("3", "signup"), session), {}, decline);
    CHECK(body_text(reply) == text_result("3", "declined"));
    REQUIRE(events.size() == 1);
    CHECK(events[0].starts_with(R"({"jsonrpc":"2.0","id":2,"method":"elicitation/create",)"));

    // An answer with an unknown id is accepted and dropped.
    CHECK(endpoint.handle(post(R"({"jsonrpc":"2.0","id":99,"result":{"action":"cancel"}})", session)).response.result() ==
          http::status::accepted);
}

TEST_CASE("elicit over HTTP: a client that does not accept an event stream cannot be asked") {
    const mcp::http_options options;
    mcp::detail::http_endpoint<registry> endpoint(server, options, true);
    const std::string session(
        endpoint.handle(post(initialize_line("2025-11-25", elicitation_capability))).response["Mcp-Session-Id"]);
    std::vector<std::string> events;
    const mcp::message_sink sink = [&](std::string_view event) { events.emplace_back(event); };
    const auto reply = endpoint.handle(post(call_line("2", "signup"), session, "application/json"), {}, sink);
    CHECK(events.empty());
    CHECK(body_text(reply) ==
          text_result("2", "no_channel: agentry: mcp::elicit: the transport cannot carry a request to the client here "
                           "(over Streamable HTTP, the client must accept text/event-stream on the POST being answered)"));
}

TEST_CASE("elicit over HTTP: a timeout, and the session's end while a call waits") {
    const mcp::http_options options;
    mcp::detail::http_endpoint<registry> endpoint(server, options, true);
    const std::string session(
        endpoint.handle(post(initialize_line("2025-11-25", elicitation_capability))).response["Mcp-Session-Id"]);
    std::vector<std::string> events;
    const mcp::message_sink sink = [&](std::string_view event) { events.emplace_back(event); };
    auto reply = endpoint.handle(post(call_line("2", "signup_quick"), session), {}, sink);
    CHECK(body_text(reply) == text_result("2", "timeout: agentry: mcp::elicit: the client did not answer "
                                               "elicitation/create within 100 ms"));
    REQUIRE(events.size() == 2);
    CHECK(events[1] == R"({"jsonrpc":"2.0","method":"notifications/cancelled","params":{"requestId":1,"reason":"timed out"}})");

    std::thread client;
    const mcp::message_sink ending = [&](std::string_view) {
        client = std::thread([&] {
            http::request<http::string_body> remove{http::verb::delete_, "/mcp", 11};
            remove.set(http::field::host, "127.0.0.1:8080");
            remove.set("Mcp-Session-Id", session);
            CHECK(endpoint.handle(remove).response.result() == http::status::ok);
        });
    };
    reply = endpoint.handle(post(call_line("3", "signup"), session), {}, ending);
    if (client.joinable()) client.join();
    CHECK(body_text(reply) == text_result("3", "closed: agentry: mcp::elicit: the client can no longer answer (the "
                                               "session ended)"));
}

TEST_CASE("sample over HTTP, and a stateless 2026-07-28 request whose _meta declares no elicitation") {
    const mcp::http_options options;
    mcp::detail::http_endpoint<registry> endpoint(server, options, true);
    const std::string session(
        endpoint.handle(post(initialize_line("2025-06-18", R"({"sampling":{}})"))).response["Mcp-Session-Id"]);
    const mcp::message_sink sink = [&](std::string_view event) {
        CHECK(event.starts_with(R"({"jsonrpc":"2.0","id":1,"method":"sampling/createMessage",)"));
        CHECK(endpoint
                  .handle(post(R"({"jsonrpc":"2.0","id":1,"result":{"role":"assistant","content":{"type":"text","text":"Hi"},"model":"m"}})",
                               session))
                  .response.result() == http::status::accepted);
    };
    auto reply = endpoint.handle(post(call_line("2", "ask_short", R"({"prompt":"Hello"})"), session), {}, sink);
    CHECK(body_text(reply) == text_result("2", "Hi"));

    auto stateless = post(R"({"jsonrpc":"2.0","id":3,"method":"tools/call","params":{"name":"signup","arguments":{},)"
                          R"("_meta":{"io.modelcontextprotocol/protocolVersion":"2026-07-28"}}})");
    stateless.set("MCP-Protocol-Version", "2026-07-28");
    stateless.set("Mcp-Method", "tools/call");
    stateless.set("Mcp-Name", "signup");
    reply = endpoint.handle(stateless, {}, sink);
    CHECK(body_text(reply).find("no_capability: agentry: mcp::elicit: the client did not declare the elicitation "
                                "capability (form mode) in the request's _meta clientCapabilities") != std::string::npos);
}

// ---- approval of a tool that needs it, asked by elicitation ---------------------------------

namespace {

constexpr std::string_view approval_question =
    R"(Allow the tool \"transfer\" (permission: destructive) to run with these arguments?\n{\"amount\":1000000,\"to\":\"bob\"})";

std::string approval_request(std::string_view id, std::string_view mode) {
    return R"({"jsonrpc":"2.0","id":)" + std::string(id) + R"(,"method":"elicitation/create","params":{)" +
           std::string(mode) + R"("message":")" + std::string(approval_question) +
           R"(","requestedSchema":{"type":"object","properties":{}}}})";
}

std::string error_result(std::string_view id, std::string_view text) {
    std::string out = R"({"jsonrpc":"2.0","id":)" + std::string(id) + R"(,"result":{"content":[{"type":"text","text":)";
    agentry::json::write(out, text);
    out += R"(}],"isError":true}})";
    return out;
}

// The model's spelling: members out of order, spaces, 1e6 for the amount.
constexpr std::string_view transfer_arguments = R"({ "to": "bob", "amount": 1e6 })";

} // namespace

TEST_CASE("approval over stdio: the question names the canonical arguments, accept runs the call with them") {
    const auto lines = converse({initialize_line("2025-11-25", elicitation_capability),
                                 call_line("2", "transfer", transfer_arguments)},
                                answering(R"({"action":"accept","content":{}})"));
    REQUIRE(lines.size() == 4);
    CHECK(lines[1] == approval_request("1", R"("mode":"form",)"));
    CHECK(lines[2] == text_result("2", "sent 1000000 to bob"));
}

TEST_CASE("approval over stdio: decline and cancel do not run the call") {
    auto lines = converse({initialize_line("2025-06-18", elicitation_capability),
                           call_line("2", "transfer", transfer_arguments)},
                          answering(R"({"action":"decline"})"));
    REQUIRE(lines.size() == 4);
    CHECK(lines[1] == approval_request("1", ""));
    CHECK(lines[2] == error_result("2", "The user denied this call of transfer. It was not run; do not make it again "
                                        "unchanged."));
    lines = converse({initialize_line("2025-11-25", elicitation_capability), call_line("2", "transfer", transfer_arguments)},
                     answering(R"({"action":"cancel"})"));
    REQUIRE(lines.size() == 4);
    CHECK(lines[2] == error_result("2", "The user dismissed the approval of this call of transfer without deciding. It "
                                        "was not run."));
    lines = converse({initialize_line("2025-11-25", elicitation_capability), call_line("2", "transfer", transfer_arguments)},
                     answering(R"({"action":"yes"})"));
    REQUIRE(lines.size() == 4);
    CHECK(lines[2] == error_result("2", "agentry: the approval of transfer: the client's answer to elicitation/create "
                                        "is not an ElicitResult; the call was not run: /action: \"yes\" is not one of "
                                        "[\"accept\",\"decline\",\"cancel\"]"));
}

TEST_CASE("approval over stdio: a client that cannot be asked is refused, and nothing runs") {
    auto lines = converse({initialize_line("2025-11-25", R"({"sampling":{}})"), call_line("2", "transfer", transfer_arguments)},
                          answering(R"({"action":"accept"})"));
    REQUIRE(lines.size() == 3);
    CHECK(lines[1] == error_result("2", "agentry: transfer needs approval (its policy says needs_approval), which this "
                                        "MCP server asks the client's user for by elicitation, but the client did not "
                                        "declare the elicitation capability (form mode) in initialize; the call was not "
                                        "run."));
    lines = converse({initialize_line("2025-03-26", elicitation_capability), call_line("2", "transfer", transfer_arguments)},
                     answering(R"({"action":"accept"})"));
    REQUIRE(lines.size() == 3);
    CHECK(lines[1] == error_result("2", "agentry: transfer needs approval (its policy says needs_approval), which this "
                                        "MCP server asks the client's user for by elicitation, but protocol version "
                                        "2025-03-26 has no elicitation (it is defined from 2025-06-18); the call was not "
                                        "run."));
}

TEST_CASE("approval: arguments that read two ways are refused before anyone is asked") {
    // The message reader refuses them whole, so the approval never sees them.
    const std::string duplicate = R"({"amount":1,"to":"friend","amount":1000000})";
    const std::string bad_utf8 = "{\"amount\":1000000,\"to\":\"attacker\xff\"}";
    for (const std::string& arguments : {duplicate, bad_utf8}) {
        const auto lines = converse({initialize_line("2025-11-25", elicitation_capability),
                                     call_line("2", "transfer", arguments)},
                                    answering(R"({"action":"accept"})"));
        REQUIRE(lines.size() == 3);
        CHECK(lines[1].starts_with(R"({"jsonrpc":"2.0","id":2,"error":{"code":-32)"));
    }
    mcp::session s;
    CHECK(server.handle(s, call_line("2", "transfer", duplicate)) ==
          R"({"jsonrpc":"2.0","id":2,"error":{"code":-32600,"message":"Invalid Request: /params/arguments/amount: duplicate property"}})");
}

TEST_CASE("approval over HTTP: the question on the POST's event stream, the call run once accepted") {
    const mcp::http_options options;
    mcp::detail::http_endpoint<registry> endpoint(server, options, true);
    const std::string session(
        endpoint.handle(post(initialize_line("2025-11-25", elicitation_capability))).response["Mcp-Session-Id"]);
    std::vector<std::string> sent;
    const mcp::message_sink sink = [&](std::string_view message) {
        sent.emplace_back(message);
        if (message.find("elicitation/create") != std::string_view::npos)
            CHECK(endpoint.handle(post(R"({"jsonrpc":"2.0","id":1,"result":{"action":"accept"}})", session))
                      .response.result() == http::status::accepted);
    };
    const auto reply = endpoint.handle(post(call_line("2", "transfer", transfer_arguments), session), {}, sink);
    REQUIRE(sent.size() == 1);
    CHECK(sent[0] == approval_request("1", R"("mode":"form",)"));
    CHECK(reply.response.body() == text_result("2", "sent 1000000 to bob"));
}

namespace {

std::string stateless_call(std::string_view arguments, std::string_view capabilities, std::string_view more = "") {
    return R"({"jsonrpc":"2.0","id":5,"method":"tools/call","params":{"name":"transfer","arguments":)" +
           std::string(arguments) + std::string(more) +
           R"(,"_meta":{"io.modelcontextprotocol/protocolVersion":"2026-07-28","io.modelcontextprotocol/clientCapabilities":)" +
           std::string(capabilities) + "}}}";
}

std::string input_required(std::string_view state) {
    return R"({"jsonrpc":"2.0","id":5,"result":{"resultType":"input_required","inputRequests":{"approval":{"method":"elicitation/create","params":{"mode":"form","message":")" +
           std::string(approval_question) + R"(","requestedSchema":{"type":"object","properties":{}}}}},"requestState":")" +
           std::string(state) + R"("}})";
}

std::string answered(std::string_view action, std::string_view state) {
    return R"(,"inputResponses":{"approval":{"action":")" + std::string(action) + R"("}},"requestState":")" +
           std::string(state) + '"';
}

} // namespace

TEST_CASE("approval in a stateless 2026-07-28 request: input_required, then the call again with the answer") {
    mcp::session s;
    const std::string asked = server.handle(s, stateless_call(transfer_arguments, elicitation_capability));
    const std::size_t at = asked.find(R"("requestState":")");
    REQUIRE(at != std::string::npos);
    const std::string state = asked.substr(at + 16, asked.find('"', at + 16) - at - 16);
    CHECK(state.ends_with(".e30="));  // no answers yet: base64 of {}
    CHECK(state.size() == 16 + 5);
    CHECK(asked == input_required(state));

    // The same arguments in another spelling carry the same state.
    CHECK(server.handle(s, stateless_call(R"({"amount":1000000,"to":"bob"})", elicitation_capability)) == asked);

    CHECK(server.handle(s, stateless_call(transfer_arguments, "{}", answered("accept", state))) ==
          R"({"jsonrpc":"2.0","id":5,"result":{"content":[{"type":"text","text":"sent 1000000 to bob"}],"isError":false,"resultType":"complete"}})");
    CHECK(server.handle(s, stateless_call(transfer_arguments, "{}", answered("decline", state))) ==
          R"({"jsonrpc":"2.0","id":5,"result":{"content":[{"type":"text","text":"The user denied this call of transfer. It was not run; do not make it again unchanged."}],"isError":true,"resultType":"complete"}})");
    CHECK(server.handle(s, stateless_call(transfer_arguments, "{}", answered("cancel", state))).find(
              "The user dismissed the approval of this call of transfer without deciding.") != std::string::npos);
}

TEST_CASE("approval in a stateless request: an answer for other arguments is not used, a client without elicitation is refused") {
    mcp::session s;
    const std::string asked = server.handle(s, stateless_call(transfer_arguments, elicitation_capability));
    const std::size_t at = asked.find(R"("requestState":")") + 16;
    const std::string state = asked.substr(at, asked.find('"', at) - at);
    // Accepted for 1000000 to bob, sent again for 2000000: asked again, with the new arguments' state.
    const std::string again = server.handle(
        s, stateless_call(R"({"amount":2000000,"to":"bob"})", elicitation_capability, answered("accept", state)));
    CHECK(again.find(R"("resultType":"input_required")") != std::string::npos);
    CHECK(again.find(state) == std::string::npos);
    CHECK(again.find("sent ") == std::string::npos);
    // An answer without the state is not used either.
    CHECK(server.handle(s, stateless_call(transfer_arguments, elicitation_capability,
                                          R"(,"inputResponses":{"approval":{"action":"accept"}})")) == asked);
    CHECK(server.handle(s, stateless_call(transfer_arguments, "{}")) ==
          R"({"jsonrpc":"2.0","id":5,"result":{"content":[{"type":"text","text":"agentry: transfer needs approval (its policy says needs_approval), which this MCP server asks the client's user for by elicitation, but the request's _meta clientCapabilities do not include elicitation (form mode); the call was not run."}],"isError":true,"resultType":"complete"}})");
}

namespace {

// A stateless tools/call of `tool`, with `more` params members; the client declares elicitation and sampling.
std::string round_call(std::string_view tool, std::string_view more = "") {
    return R"({"jsonrpc":"2.0","id":7,"method":"tools/call","params":{"name":")" + std::string(tool) +
           R"(","arguments":{})" + std::string(more) +
           R"(,"_meta":{"io.modelcontextprotocol/protocolVersion":"2026-07-28","io.modelcontextprotocol/clientCapabilities":{"elicitation":{},"sampling":{}}}}})";
}

std::string state_of(const std::string& answer) {
    const std::size_t at = answer.find(R"("requestState":")") + 16;
    return answer.substr(at, answer.find('"', at) - at);
}

} // namespace

TEST_CASE("a stateless 2026-07-28 tools/call asks by InputRequiredResult, and runs again with the answers") {
    mcp::session s;
    // Round 1: the tool's elicit becomes the question "input-1".
    const std::string first = server.handle(s, round_call("signup"));
    const std::string state = state_of(first);
    CHECK(first == R"({"jsonrpc":"2.0","id":7,"result":{"resultType":"input_required","inputRequests":{"input-1":)"
                   R"({"method":"elicitation/create","params":{"mode":"form","message":"Sign up?","requestedSchema":)" +
                       std::string(signup_schema) + R"(}}},"requestState":")" + state + R"("}})");
    // Round 2: the answer, with the state.
    const std::string answer =
        R"(,"inputResponses":{"input-1":{"action":"accept","content":{"name":"Ada","age":36}}},"requestState":")" + state + '"';
    CHECK(server.handle(s, round_call("signup", answer)) ==
          R"({"jsonrpc":"2.0","id":7,"result":{"content":[{"type":"text","text":"accepted Ada 36"}],"isError":false,"resultType":"complete"}})");
    // The answer without the state is not used: asked again.
    CHECK(server.handle(s, round_call("signup", R"(,"inputResponses":{"input-1":{"action":"accept","content":{"name":"Ada","age":36}}})")) ==
          first);
    // Sampling, the same way.
    const std::string sampled = server.handle(s, round_call("ask_short").replace(round_call("ask_short").find(R"("arguments":{})"), 14,
                                                                               R"("arguments":{"prompt":"Hello"})"));
    CHECK(sampled.find(R"("inputRequests":{"input-1":{"method":"sampling/createMessage","params":{"messages":[{"role":"user","content":{"type":"text","text":"Hello"}}],"maxTokens":10}}})") !=
          std::string::npos);
}

TEST_CASE("a stateless call that needs approval and then asks: each round's answers come back in the state") {
    mcp::session s;
    const std::string first = server.handle(s, round_call("approved_signup"));
    CHECK(first.find(R"("inputRequests":{"approval":{"method":"elicitation/create")") != std::string::npos);
    const std::string approved = server.handle(
        s, round_call("approved_signup", R"(,"inputResponses":{"approval":{"action":"accept"}},"requestState":")" +
                                              state_of(first) + '"'));
    CHECK(approved.find(R"("inputRequests":{"input-1":{"method":"elicitation/create","params":{"mode":"form","message":"Sign up?")") !=
          std::string::npos);
    // The approval is kept in the new state; only input-1 is sent in the last round.
    CHECK(state_of(approved) != state_of(first));
    CHECK(server.handle(s, round_call("approved_signup",
                                      R"(,"inputResponses":{"input-1":{"action":"decline"}},"requestState":")" +
                                          state_of(approved) + '"')) ==
          R"({"jsonrpc":"2.0","id":7,"result":{"content":[{"type":"text","text":"declined"}],"isError":false,"resultType":"complete"}})");
}

TEST_CASE("elicit_url over stdio: the URL-mode request, the action back, and clients that cannot be asked") {
    const auto lines = converse({initialize_line("2025-11-25", R"({"elicitation":{"url":{}}})"), call_line("2", "pay")},
                                answering(R"({"action":"accept"})"));
    REQUIRE(lines.size() == 4);
    const std::string id = outcome.get();
    CHECK(id.size() == 32);
    CHECK(lines[1] == R"({"jsonrpc":"2.0","id":1,"method":"elicitation/create","params":{"mode":"url","message":"Pay the invoice","url":"https://pay.example.com/i/42","elicitationId":")" +
                          id + R"("}})");
    CHECK(lines[2] == text_result("2", "opened"));
    auto refused = converse({initialize_line("2025-11-25", elicitation_capability), call_line("2", "pay")},
                            answering(R"({"action":"accept"})"));
    REQUIRE(refused.size() == 3);
    CHECK(refused[1] == text_result("2", "no_capability: agentry: mcp::elicit_url: the client did not declare the "
                                         "elicitation capability in URL mode (elicitation.url) in initialize"));
    refused = converse({initialize_line("2025-06-18", R"({"elicitation":{"url":{}}})"), call_line("2", "pay")},
                       answering(R"({"action":"accept"})"));
    REQUIRE(refused.size() == 3);
    CHECK(refused[1] == text_result("2", "no_capability: agentry: mcp::elicit_url: URL-mode elicitation is defined "
                                         "from protocol version 2025-11-25; this session uses 2025-06-18"));
    const auto declined = converse({initialize_line("2025-11-25", R"({"elicitation":{"form":{},"url":{}}})"), call_line("2", "pay")},
                                   answering(R"({"action":"decline"})"));
    REQUIRE(declined.size() == 4);
    CHECK(declined[2] == text_result("2", "declined"));
}

TEST_CASE("sample with tools in a stateless 2026-07-28 tools/call: an input request, then the answers") {
    mcp::session s;
    const std::string meta_tools =
        R"("io.modelcontextprotocol/clientCapabilities":{"sampling":{"tools":{}}})";
    const auto trip_call = [&](std::string_view more) {
        return R"({"jsonrpc":"2.0","id":7,"method":"tools/call","params":{"name":"plan_trip","arguments":{"city":"Paris"})" +
               std::string(more) + R"(,"_meta":{"io.modelcontextprotocol/protocolVersion":"2026-07-28",)" + meta_tools + "}}}";
    };
    const std::string first = server.handle(s, trip_call(""));
    CHECK(first.find(R"("inputRequests":{"input-1":{"method":"sampling/createMessage","params":{"messages":[{"role":"user","content":{"type":"text","text":"Pack for Paris"}}],"maxTokens":100,)" +
                     std::string(trip_tools) + "}}}") != std::string::npos);
    const std::string used =
        R"({"role":"assistant","content":[{"type":"tool_use","id":"u1","name":"get_weather","input":{"city":"Paris"}}],"model":"m","stopReason":"toolUse"})";
    const std::string second =
        server.handle(s, trip_call(R"(,"inputResponses":{"input-1":)" + used + R"(},"requestState":")" + state_of(first) + '"'));
    CHECK(second.find(R"("input-2":{"method":"sampling/createMessage","params":{"messages":[{"role":"user","content":{"type":"text","text":"Pack for Paris"}},)"
                      R"({"role":"assistant","content":[{"type":"tool_use","id":"u1","name":"get_weather","input":{"city":"Paris"}}]},)"
                      R"({"role":"user","content":[{"type":"tool_result","toolUseId":"u1","content":[{"type":"text","text":"rain"}]}]}],)") !=
          std::string::npos);
    const std::string done = server.handle(
        s, trip_call(R"(,"inputResponses":{"input-2":{"role":"assistant","content":{"type":"text","text":"Umbrella."},"model":"m"}},"requestState":")" +
                     state_of(second) + '"'));
    CHECK(done == R"({"jsonrpc":"2.0","id":7,"result":{"content":[{"type":"text","text":": Umbrella."}],"isError":false,"resultType":"complete"}})");
    // The request's _meta without sampling.tools: refused.
    const std::string refused = server.handle(
        s, R"({"jsonrpc":"2.0","id":8,"method":"tools/call","params":{"name":"plan_trip","arguments":{"city":"Paris"},"_meta":{"io.modelcontextprotocol/protocolVersion":"2026-07-28","io.modelcontextprotocol/clientCapabilities":{"sampling":{}}}}})");
    CHECK(refused.find("capabilities.sampling.tools in the request's _meta clientCapabilities") != std::string::npos);
}
