// SPDX-License-Identifier: BSL-1.0
// The server the MCP conformance suite's server scenarios expect of an SDK, built with agentry's
// public API only: the tools, resources and prompts each scenario calls by name, served over
// Streamable HTTP on 127.0.0.1 (scripts/conformance.sh runs the suite against it).
//   conformance_server [port]      (default 3001; the endpoint is /mcp)
#include <agentry/agentry.hpp>
#include <agentry/mcp/completion.hpp>
#include <agentry/mcp/content.hpp>
#include <agentry/mcp/elicit.hpp>
#include <agentry/mcp/http.hpp>
#include <agentry/mcp/logging.hpp>
#include <agentry/mcp/prompts.hpp>
#include <agentry/mcp/resources.hpp>
#include <agentry/mcp/sample.hpp>

#include <chrono>
#include <cstddef>
#include <cstdlib>
#include <optional>
#include <string>
#include <string_view>
#include <thread>
#include <utility>
#include <vector>

namespace {

using namespace std::chrono_literals;

// A 1x1 red PNG and a WAV of 8 silent samples (8 kHz, 8-bit mono), written out byte by byte.
constexpr unsigned char png_bytes[] = {
    0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0x00, 0x00, 0x00, 0x0d, 0x49, 0x48, 0x44, 0x52, 0x00, 0x00,
    0x00, 0x01, 0x00, 0x00, 0x00, 0x01, 0x08, 0x02, 0x00, 0x00, 0x00, 0x90, 0x77, 0x53, 0xde, 0x00, 0x00, 0x00,
    0x0c, 0x49, 0x44, 0x41, 0x54, 0x78, 0x9c, 0x63, 0xf8, 0xcf, 0xc0, 0x00, 0x00, 0x03, 0x01, 0x01, 0x00, 0xc9,
    0xfe, 0x92, 0xef, 0x00, 0x00, 0x00, 0x00, 0x49, 0x45, 0x4e, 0x44, 0xae, 0x42, 0x60, 0x82};
constexpr unsigned char wav_bytes[] = {
    0x52, 0x49, 0x46, 0x46, 0x2c, 0x00, 0x00, 0x00, 0x57, 0x41, 0x56, 0x45, 0x66, 0x6d, 0x74, 0x20, 0x10, 0x00,
    0x00, 0x00, 0x01, 0x00, 0x01, 0x00, 0x40, 0x1f, 0x00, 0x00, 0x40, 0x1f, 0x00, 0x00, 0x01, 0x00, 0x08, 0x00,
    0x64, 0x61, 0x74, 0x61, 0x08, 0x00, 0x00, 0x00, 0x80, 0x80, 0x80, 0x80, 0x80, 0x80, 0x80, 0x80};

template <std::size_t N>
std::string bytes_of(const unsigned char (&b)[N]) {
    return std::string(reinterpret_cast<const char*>(b), N);
}

std::string simple_text() { return "This is a simple text response for testing."; }

agentry::mcp::image image_content() { return {bytes_of(png_bytes), "image/png"}; }

agentry::mcp::audio audio_content() { return {bytes_of(wav_bytes), "audio/wav"}; }

agentry::mcp::embedded_resource embedded_resource() {
    return {"test://embedded-resource", "text/plain", std::string("This is an embedded resource content.")};
}

agentry::mcp::content multiple_content_types() {
    return {agentry::mcp::text_block{"Multiple content types test:"}, image_content(),
            agentry::mcp::embedded_resource{"test://mixed-content-resource", "application/json",
                                            std::string(R"({"test":"data","value":123})")}};
}

std::string with_logging() {
    agentry::mcp::log(agentry::mcp::log_level::info, "Tool execution started");
    std::this_thread::sleep_for(50ms);
    agentry::mcp::log(agentry::mcp::log_level::info, "Tool processing data");
    std::this_thread::sleep_for(50ms);
    agentry::mcp::log(agentry::mcp::log_level::info, "Tool execution completed");
    return "Logging test completed";
}

agentry::outcome<std::string> error_handling() {
    return agentry::fail(agentry::failure_kind::permanent, "This tool intentionally returns an error for testing");
}

std::string with_progress(agentry::progress p) {
    p.report(0, 100);
    std::this_thread::sleep_for(50ms);
    p.report(50, 100);
    std::this_thread::sleep_for(50ms);
    p.report(100, 100);
    return "Progress test completed";
}

std::string sampling(std::string prompt) {
    const agentry::mcp::sample_result r = agentry::mcp::sample(prompt, 100);
    if (r.error) return r.error->message;
    return "LLM response: " + r.text;
}

struct user_details {
    std::string username;
    std::string email;
    static constexpr auto docs =
        agentry::field_docs("username", "User's response", "email", "User's email address");
};

// "<action>" and, when accepted, ", content: <the form as JSON>".
template <class T>
std::string elicit_text(const agentry::mcp::elicit_result<T>& r) {
    std::string text(r.action == agentry::mcp::elicit_action::accept    ? "accept"
                     : r.action == agentry::mcp::elicit_action::decline ? "decline"
                                                                        : "cancel");
    if (r.content) {
        text += ", content: ";
        agentry::json::write(text, *r.content);
    }
    return text;
}

agentry::outcome<std::string> elicitation(std::string message) {
    const auto r = agentry::mcp::elicit<user_details>(message);
    if (r.error) return agentry::fail(agentry::failure_kind::permanent, r.error->message);
    return "User response: <action: " + elicit_text(r) + ">";
}

enum class account_status { active, inactive, pending };

struct sep1034_form {
    std::optional<std::string> name = "John Doe";
    std::optional<int> age = 30;
    std::optional<double> score = 95.5;
    std::optional<account_status> status = account_status::active;
    std::optional<bool> verified = true;
    static constexpr auto defaults = agentry::field_defaults("name", "John Doe", "age", 30, "score", 95.5, "status",
                                                             account_status::active, "verified", true);
};

agentry::outcome<std::string> elicitation_defaults() {
    const auto r = agentry::mcp::elicit<sep1034_form>("Please review and update the form fields with defaults");
    if (r.error) return agentry::fail(agentry::failure_kind::permanent, r.error->message);
    return "Elicitation completed: action=" + elicit_text(r);
}

enum class untitled_option { option1, option2, option3 };
enum class titled_option { value1, value2, value3 };
enum class legacy_option { opt1, opt2, opt3 };
enum class titled_choice { value1, value2, value3 };

} // namespace

template <>
struct agentry::enum_titles<titled_option> {
    static constexpr std::pair<titled_option, std::string_view> titles[] = {
        {titled_option::value1, "First Option"}, {titled_option::value2, "Second Option"},
        {titled_option::value3, "Third Option"}};
};

template <>
struct agentry::enum_titles<legacy_option> {
    static constexpr std::pair<legacy_option, std::string_view> titles[] = {
        {legacy_option::opt1, "Option One"}, {legacy_option::opt2, "Option Two"}, {legacy_option::opt3, "Option Three"}};
    static constexpr bool legacy_enum_names = true;
};

template <>
struct agentry::enum_titles<titled_choice> {
    static constexpr std::pair<titled_choice, std::string_view> titles[] = {
        {titled_choice::value1, "First Choice"}, {titled_choice::value2, "Second Choice"},
        {titled_choice::value3, "Third Choice"}};
};

namespace {

// The field names are the scenario's.
struct sep1330_form {
    untitled_option untitledSingle;
    titled_option titledSingle;
    legacy_option legacyEnum;
    std::vector<untitled_option> untitledMulti;
    std::vector<titled_choice> titledMulti;
};

agentry::outcome<std::string> elicitation_enums() {
    const auto r = agentry::mcp::elicit<sep1330_form>("Please choose from the options");
    if (r.error) return agentry::fail(agentry::failure_kind::permanent, r.error->message);
    return "Elicitation completed: action=" + elicit_text(r);
}

struct street_address {
    std::optional<std::string> street;
    std::optional<std::string> city;
};

struct schema_2020_12_args {
    std::optional<std::string> name;
    std::optional<street_address> address;
};

std::string schema_2020_12(const schema_2020_12_args& a) { return "Hello, " + a.name.value_or("nobody"); }

constexpr agentry::registry tools{
    agentry::tool<"test_simple_text", "Returns simple text content">(simple_text),
    agentry::tool<"test_image_content", "Returns an image">(image_content),
    agentry::tool<"test_audio_content", "Returns audio">(audio_content),
    agentry::tool<"test_embedded_resource", "Returns an embedded resource">(embedded_resource),
    agentry::tool<"test_multiple_content_types", "Returns text, an image and a resource">(multiple_content_types),
    agentry::tool<"test_tool_with_logging", "Sends three log messages while it runs">(with_logging),
    agentry::tool<"test_error_handling", "Always fails">(error_handling),
    agentry::tool<"test_tool_with_progress", "Reports progress 0, 50 and 100 of 100">(with_progress),
    agentry::tool<"test_sampling", "Asks the client's model to answer a prompt", "prompt">(sampling),
    agentry::tool<"test_elicitation", "Asks the user for a user name and an email address", "message">(elicitation),
    agentry::tool<"test_elicitation_sep1034_defaults", "Asks the user for a form whose fields have defaults">(
        elicitation_defaults),
    agentry::tool<"test_elicitation_sep1330_enums", "Asks the user to choose, in every form of enum">(
        elicitation_enums),
    agentry::tool<"json_schema_2020_12_tool", "Tool with JSON Schema 2020-12 features">(schema_2020_12),
};

struct template_ref {
    std::string id;
};

std::string template_data(const template_ref& r) {
    std::string text = R"({"id":)";
    agentry::json::write(text, r.id);
    text += R"(,"templateTest":true,"data":)";
    agentry::json::write(text, "Data for ID: " + r.id);
    return text + "}";
}

// Words that begin with what the client typed so far.
std::vector<std::string> complete_arg1(std::string_view partial) {
    std::vector<std::string> out;
    for (std::string_view word : {"paris", "park", "party", "hello", "help"})
        if (word.starts_with(partial)) out.emplace_back(word);
    return out;
}

struct embedded_resource_args {
    std::string resourceUri;
    static constexpr auto docs = agentry::field_docs("resourceUri", "URI of the resource to embed");
};

std::vector<agentry::mcp::prompt_message> prompt_with_embedded_resource(const embedded_resource_args& a) {
    using agentry::mcp::role;
    return {{role::user, agentry::mcp::embedded_resource{a.resourceUri, "text/plain",
                                                         std::string("Embedded resource content for testing.")}},
            {role::user, "Please process the embedded resource above."}};
}

std::vector<agentry::mcp::prompt_message> prompt_with_image() {
    using agentry::mcp::role;
    return {{role::user, image_content()}, {role::user, "Please analyze the image above."}};
}

struct prompt_args {
    std::string arg1;
    std::string arg2;
    static constexpr auto docs = agentry::field_docs("arg1", "First test argument", "arg2", "Second test argument");
};

} // namespace

int main(int argc, char** argv) {
    const agentry::mcp::server server{
        tools,
        {.name = "agentry-conformance-server", .version = "1.0.0"},
        agentry::mcp::resource<"test://static-text", "static-text">(
            +[] { return std::string("This is the content of the static text resource."); },
            {.description = "A static text resource", .mime_type = "text/plain"}),
        agentry::mcp::resource<"test://static-binary", "static-binary">(
            +[] { return agentry::mcp::blob{bytes_of(png_bytes)}; },
            {.description = "A static binary resource", .mime_type = "image/png"}),
        agentry::mcp::resource<"test://watched-resource", "watched-resource">(
            +[] { return std::string("Watched resource content"); },
            {.description = "A resource to subscribe to", .mime_type = "text/plain"}),
        agentry::mcp::resource_template<"test://template/{id}/data", "template-data">(
            template_data, {.description = "Data for an id", .mime_type = "application/json"}),
        agentry::mcp::prompt<"test_simple_prompt", "A prompt without arguments">(
            +[] { return std::string("This is a simple prompt for testing."); }),
        agentry::mcp::prompt<"test_prompt_with_arguments", "A prompt with two arguments">(
            +[](const prompt_args& a) { return "Prompt with arguments: arg1='" + a.arg1 + "', arg2='" + a.arg2 + "'"; },
            agentry::mcp::completer<"arg1">(complete_arg1)),
        agentry::mcp::prompt<"test_prompt_with_embedded_resource", "A prompt with an embedded resource">(
            prompt_with_embedded_resource),
        agentry::mcp::prompt<"test_prompt_with_image", "A prompt with an image">(prompt_with_image),
    };
    const auto port = static_cast<unsigned short>(argc > 1 ? std::atoi(argv[1]) : 3001);
    return agentry::mcp::serve_http(server, {.port = port});
}
