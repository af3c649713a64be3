// SPDX-License-Identifier: BSL-1.0
// An MCP server whose tools ask the client, for requests.mjs: "signup" elicits a form
// (mcp::elicit), "summarise" asks the client's model (mcp::sample), "forecast" asks it with
// tools and sends back their results, "transfer" needs approval,
// which the server asks for by elicitation. stdio by default;
// Streamable HTTP on 127.0.0.1 with --http <port>.
#include <agentry/agentry.hpp>
#include <agentry/mcp/elicit.hpp>
#include <agentry/mcp/http.hpp>
#include <agentry/mcp/sample.hpp>
#include <agentry/mcp/stdio.hpp>

#include <csignal>
#include <cstdlib>
#include <iostream>
#include <optional>
#include <string>
#include <string_view>

namespace {

enum class plan { basic, pro };

struct signup {
    agentry::sized_string<1, 40> name;
    agentry::in_range<int, 18, 130> age;
    std::optional<agentry::email_string> email;
    std::optional<plan> tier;
    std::optional<bool> newsletter;
    static constexpr auto docs = agentry::field_docs("name", "Your name", "age", "Your age in years");
    static constexpr auto defaults = agentry::field_defaults("tier", plan::basic, "newsletter", false);
};

std::string ask_signup() {
    const auto r = agentry::mcp::elicit<signup>("Sign up?");
    if (r.error) return std::string(agentry::mcp::to_string(r.error->kind)) + ": " + r.error->message;
    if (r.action == agentry::mcp::elicit_action::decline) return "declined";
    if (r.action == agentry::mcp::elicit_action::cancel) return "cancelled";
    std::string out = "accepted " + r.content->name.value + " " + std::to_string(r.content->age.value);
    if (r.content->email) out += " " + r.content->email->value;
    if (r.content->tier) out += *r.content->tier == plan::pro ? " pro" : " basic";
    return out;
}

std::string summarise(const std::string& text) {
    agentry::mcp::sampling_request request;
    request.messages = {{agentry::mcp::role::user, "Summarise: " + text}};
    request.max_tokens = 100;
    request.system_prompt = "Be brief.";
    const auto r = agentry::mcp::sample(request);
    if (r.error) return std::string(agentry::mcp::to_string(r.error->kind)) + ": " + r.error->message;
    return r.model + ": " + r.text;
}

constexpr agentry::registry weather{
    agentry::tool<"get_weather", "Current weather for a city", "city">(+[](const std::string& city) {
        return city == "Paris" ? std::string("rain") : std::string("sun");
    }),
};

// Asks the client's model with weather's tools, runs the tools it uses, and asks again with
// their results.
std::string forecast(const std::string& city) {
    agentry::mcp::sampling_request request;
    request.messages = {{agentry::mcp::role::user, "Pack for " + city}};
    request.max_tokens = 100;
    request.tools = agentry::mcp::sampling_tools(weather);
    request.tool_choice = agentry::mcp::sampling_tool_mode::automatic;
    for (int round = 0; round != 3; ++round) {
        const auto r = agentry::mcp::sample(request);
        if (r.error) return std::string(agentry::mcp::to_string(r.error->kind)) + ": " + r.error->message;
        if (r.tool_uses.empty()) return r.model + " " + r.stop_reason + ": " + r.text;
        request.messages.push_back(agentry::mcp::sampling_message::assistant(r));
        std::vector<agentry::mcp::sampling_tool_result> results;
        for (const auto& use : r.tool_uses) results.push_back({use.id, weather.call(use.name, use.input).content, false});
        request.messages.push_back(agentry::mcp::sampling_message::results(std::move(results)));
    }
    return "too many rounds";
}

constexpr agentry::registry tools{
    agentry::tool<"signup", "Asks the user to sign up">(ask_signup),
    agentry::tool<"forecast", "Asks the client's model, which may use tools", "city">(forecast),
    agentry::tool<"summarise", "Summarises a text with the client's model", "text">(summarise),
    agentry::with_policy<agentry::tool_policy{.level = agentry::permission::destructive, .needs_approval = true}>(
        agentry::tool<"transfer", "Sends money", "amount", "to">(+[](long long amount, const std::string& to) {
            return "sent " + std::to_string(amount) + " to " + to;
        })),
};

} // namespace

int main(int argc, char** argv) {
    using namespace agentry::mcp;
    const server srv{tools, {.name = "asking", .version = "1"}};
    if (argc > 1 && std::string_view(argv[1]) == "--http") {
        http_options options;
        options.port = static_cast<unsigned short>(argc > 2 ? std::atoi(argv[2]) : 0);
        options.threads = 4;
        try {
            http_server http(srv, options);
            boost::asio::signal_set signals(http.context(), SIGINT, SIGTERM);
            signals.async_wait([&](const boost::system::error_code& ec, int) {
                if (!ec) http.stop();
            });
            std::cerr << "agentry: mcp: listening on " << http.url() << std::endl;
            http.run();
            return 0;
        } catch (const std::exception& e) {
            std::cerr << "agentry: mcp: " << e.what() << std::endl;
            return 1;
        }
    }
    return serve_stdio(srv);
}
