// SPDX-License-Identifier: BSL-1.0
#ifndef AGENTRY_MCP_CLIENT_HPP
#define AGENTRY_MCP_CLIENT_HPP

// agentry::mcp::client: a connection to one MCP server, over stdio (the client starts the
// server as a child process and owns it) or Streamable HTTP (http:// and https:// URLs; https://
// needs the CMake target agentry::tls, which links OpenSSL and defines AGENTRY_WITH_TLS).
//
//   auto c = agentry::mcp::client::connect(agentry::mcp::stdio_command{{"./mcp_server"}});
//   if (!c) { std::fprintf(stderr, "%s\n", c.error().message.c_str()); return 1; }
//   auto tools = (*c)->list_tools();                      // every page
//   auto r = (*c)->call_tool("add", R"({"a":2,"b":3})");  // r->text == "5"
//
// The server's requests are answered on the thread that reads them (stdio: the reader thread;
// HTTP: the thread whose request's event stream carries them): ping, and elicitation/create and
// sampling/createMessage through client_options::on_elicit and on_sample (client_requests.hpp).
// A hook must not wait for a request of the same client; the time it takes counts towards the
// timeout of the request whose stream carried it (HTTP).
//
// connect() initializes the session: it offers the newest protocol version (2025-11-25) and
// accepts any of 2024-11-05, 2025-03-26, 2025-06-18, 2025-11-25 in the answer; another version
// ends the connection with an error. Every request has a timeout (client_options::timeout, or
// request_options::timeout) and can be cancelled; both send notifications/cancelled. Calls
// may run from several threads at once. Errors are agentry::failure values, never exceptions
// (except std::bad_alloc); their messages start with "agentry: mcp::client".
//
// Every message of the server is read by the typed reader's rules (json::parse): a message with
// a key twice in an object, bytes that are not UTF-8, nesting deeper than max_message_depth or
// more than client_options::max_message_size bytes breaks the request (stdio: the connection),
// with the reader's error and its JSON Pointer.

#include <agentry/detail/chrono.hpp>
#include <agentry/detail/text.hpp>
#include <agentry/json/value.hpp>
#include <agentry/mcp/client_requests.hpp>
#include <agentry/mcp/detail/client_channel.hpp>
#include <agentry/mcp/detail/client_http.hpp>
#include <agentry/mcp/detail/client_stdio.hpp>
#include <agentry/mcp/detail/listed_icons.hpp>
#include <agentry/mcp/detail/oauth_flow.hpp>
#include <agentry/mcp/limits.hpp>
#include <agentry/mcp/oauth.hpp>
#include <agentry/outcome.hpp>
#include <agentry/provider/detail/redact.hpp>
#include <agentry/telemetry/observer.hpp>
#include <agentry/trace_context.hpp>
#include <agentry/transport/detail/url.hpp>
#include <agentry/version.hpp>

#include <algorithm>
#include <array>
#include <atomic>
#include <concepts>
#include <cstdint>
#include <functional>
#include <memory>
#include <optional>
#include <set>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace agentry::mcp {

/// Which variables of the client's environment a server it starts inherits.
enum class inherit_env : unsigned char {
    allowed,  // only those named in stdio_command::allowed_env (the default)
    all,      // every one (API keys included)
    none,     // none: the server gets stdio_command::env only
};

/// The names stdio_command::allowed_env holds unless set: what a program needs to find its
/// tools, its files, its locale and its time zone, and no credential.
inline std::vector<std::string> default_allowed_env() {
    return {"PATH", "HOME", "USER", "LOGNAME", "SHELL", "TERM", "TMPDIR", "TZ", "LANG", "LC_ALL", "LC_CTYPE"};
}

/// A server the client starts: argv[0] is looked up in PATH. Its environment is the client's
/// variables that `inherit` lets through, then `env`: NAME=VALUE sets NAME, a bare NAME removes
/// it, either replacing the inherited variable of that name (never a second entry). Its standard
/// error is the client's.
struct stdio_command {
    std::vector<std::string> argv;
    std::vector<std::string> env{};
    inherit_env inherit = inherit_env::allowed;
    /// The variables inherited with inherit_env::allowed.
    std::vector<std::string> allowed_env = default_allowed_env();
};

/// A Streamable HTTP endpoint, e.g. "http://127.0.0.1:8080/mcp" or "https://mcp.example.com/mcp",
/// with extra request headers (e.g. {"Authorization", "Bearer ..."}). A credential header
/// (Authorization, Cookie, x-api-key, ...) is refused over http:// (or https:// without
/// verification) for a host that is not loopback, as the providers refuse it, unless
/// `allow_plain_http_credentials` says the network path is trusted.
///
/// https:// verifies the server's certificate against the system's trust store and the URL's
/// host name (or IP address); the tls_ options apply to https:// only.
struct http_url {
    std::string url;
    std::vector<std::pair<std::string, std::string>> headers{};
    bool allow_plain_http_credentials = false;
    /// A PEM file of CA certificates trusted besides the system's (e.g. a self-signed server's).
    std::string tls_ca_file{};
    /// CA certificates as PEM text, trusted besides the system's.
    std::string tls_ca_pem{};
    /// INSECURE: true accepts any certificate for any name, so anyone on the network path can
    /// read and change the session. For tests against a server whose CA cannot be given.
    bool insecure_skip_tls_verify = false;
    /// Authorize with OAuth 2.1 when the server asks (oauth.hpp); its token replaces an
    /// Authorization header of `headers`.
    std::optional<mcp::oauth> oauth{};
};

/// For an oauth::authorize of an authorization server that approves without a user (tests, a
/// server that trusts the client already): requests `authorization_url` and returns the URL it
/// redirects to, or "" when it does not redirect.
inline std::string authorization_redirect(const std::string& authorization_url, const http_url& trust = {}) {
    const detail::fetched r = detail::http_fetch(
        "GET", authorization_url, {}, {},
        detail::tls_settings{trust.tls_ca_file, trust.tls_ca_pem, !trust.insecure_skip_tls_verify}, 64 * 1024,
        detail::client_clock::now() + std::chrono::seconds(30));
    return r.status >= 300 && r.status < 400 ? r.location : std::string();
}

/// The versions the client accepts in the initialize answer, oldest first, and the one it offers.
inline constexpr std::array<std::string_view, 4> client_protocol_versions{"2024-11-05", "2025-03-26", "2025-06-18",
                                                                          "2025-11-25"};
inline constexpr std::string_view client_protocol_version = client_protocol_versions.back();

struct client_options {
    /// The client's name in initialize (`clientInfo.name`) and version.
    std::string name = "agentry";
    std::string version = AGENTRY_VERSION_STRING;
    /// How the server is named in messages; empty: its `serverInfo.name`.
    std::string label{};
    /// The time a request may take, unless request_options says otherwise.
    std::chrono::milliseconds timeout{30'000};
    /// stdio: after closing the server's input, the wait before SIGTERM, and again before
    /// SIGKILL. HTTP: the time the DELETE of the session may take.
    std::chrono::milliseconds grace{2'000};
    /// Longest message accepted from the server; a longer one breaks the connection.
    std::size_t max_message_size = default_max_message_size;
    /// Most bytes list_tools, list_resources and list_prompts keep over all the pages of one
    /// listing (the texts of the entries and the cursors); past it the listing fails.
    std::size_t max_list_size = 16 * 1024 * 1024;
    /// Server notifications other than progress (logging, list changes, ...), called on the
    /// thread that reads them.
    std::function<void(std::string_view method, std::string_view params)> on_notification{};
    /// Every message the client sends, as sent (for traces and tests).
    std::function<void(std::string_view message)> on_send{};
    /// When set, answers the server's elicitation/create in form mode, and initialize declares
    /// the `elicitation` capability. Without it the request is answered -32601.
    elicitation_hook on_elicit{};
    /// When set, answers the server's sampling/createMessage, and initialize declares the
    /// `sampling` capability. Without it the request is answered -32601.
    sampling_hook on_sample{};
    /// With on_sample: initialize declares `capabilities.sampling.tools` too (2025-11-25), so the
    /// server may offer the model tools (answer_sampling_with in sampling_provider.hpp maps them).
    bool sampling_tools = false;
    /// Told of every request (a client span each, telemetry/observer.hpp); it must outlive the
    /// client. Null: none.
    agentry::observer* observer = nullptr;
};

/// A notifications/progress of a running request.
struct progress {
    double progress = 0;
    std::optional<double> total;
    std::string message;
};

struct request_options {
    /// 0: client_options::timeout.
    std::chrono::milliseconds timeout{0};
    /// When set, polled while waiting: true cancels the request.
    const std::atomic<bool>* cancel = nullptr;
    /// When set, a progress token is sent and each progress notification is given here (on
    /// the thread that reads the server's messages).
    std::function<void(const progress&)> on_progress{};
    /// The caller's span: the request's client span is its child (client_options::observer),
    /// and the server gets the request's span, else this one, as params._meta.traceparent.
    trace_context trace{};
};

struct tool_info {
    std::string name;
    std::string title;
    std::string description;
    /// JSON text.
    std::string input_schema;
    /// JSON text; empty when the server gives none.
    std::string annotations;
    /// Its `icons` that keep icons.hpp's rules (detail/listed_icons.hpp).
    std::vector<listed_icon> icons;
};

/// The result of tools/call.
struct call_result {
    bool is_error = false;
    /// The text blocks of `content`, joined by newlines; other blocks as their JSON.
    std::string text;
    /// `content` as JSON text.
    std::string content;
    /// `structuredContent` as JSON text; empty when absent.
    std::string structured_content;
    /// `content` holds a block that is not text (an image, audio, a resource, a link).
    bool media = false;
};

struct listed_resource {
    std::string uri;
    std::string name;
    std::string description;
    std::string mime_type;
    /// Its `icons` that keep icons.hpp's rules (detail/listed_icons.hpp).
    std::vector<listed_icon> icons;
};

struct listed_prompt {
    std::string name;
    std::string description;
    /// `arguments` as JSON text; empty when absent.
    std::string arguments;
    /// Its `icons` that keep icons.hpp's rules (detail/listed_icons.hpp).
    std::vector<listed_icon> icons;
};

class client {
    struct private_tag {};

public:
    /// Starts the server and initializes the session.
    static outcome<std::shared_ptr<client>> connect(const stdio_command& command, client_options options = {}) {
        if (command.argv.empty() || command.argv[0].empty())
            return fail(failure_kind::invalid_input, "agentry: mcp::client: stdio_command::argv is empty; name the server "
                                                     "program in argv[0]");
        std::string why;
        std::optional<std::vector<std::string>> env = detail::spawn_environment(
            environ, command.inherit == inherit_env::all,
            command.inherit == inherit_env::allowed ? command.allowed_env : std::vector<std::string>{}, command.env, why);
        if (!env) return fail(failure_kind::invalid_input, "agentry: mcp::client: " + why);
        auto c = std::make_shared<client>(private_tag{}, options);
        const std::string what = options.label.empty() ? command.argv[0] : options.label;
        try {
            c->channel_ = std::make_unique<detail::stdio_channel>(command.argv, *env, options.max_message_size,
                                                                  options.grace, c->notification_handler(),
                                                                  c->request_handler(), options.on_send);
        } catch (const detail::stdio_channel::spawn_failed& e) {
            return fail(failure_kind::not_found, "agentry: mcp::client: " + e.message);
        }
        return initialize(std::move(c), what);
    }

    /// Connects to a Streamable HTTP endpoint and initializes a session.
    static outcome<std::shared_ptr<client>> connect(const http_url& endpoint, client_options options = {}) {
        std::string why;
        std::optional<detail::http_target> target = detail::parse_http_url(endpoint.url, why);
        if (!target) return fail(failure_kind::invalid_input, "agentry: mcp::client: \"" + endpoint.url + "\": " + why);
        const bool exposed = !target->tls || endpoint.insecure_skip_tls_verify;
        if (exposed && !endpoint.allow_plain_http_credentials && !agentry::detail::is_loopback_host(target->host)) {
            if (endpoint.oauth)
                return fail(failure_kind::permission,
                            "agentry: mcp::client: refusing OAuth over " +
                                std::string(target->tls ? "https:// without certificate verification" : "plain http://") +
                                " to '" + agentry::detail::printable(target->host, 100) +
                                "', which is not a loopback address: its tokens could be read on the way; reach the "
                                "server through https:// with verification, or set "
                                "http_url::allow_plain_http_credentials = true if the network path is trusted");
            for (const auto& [name, value] : endpoint.headers)
                if (!value.empty() && agentry::detail::is_credential_name(name, agentry::detail::credential_headers))
                    return fail(failure_kind::permission,
                                "agentry: mcp::client: refusing to send the credential header \"" +
                                    agentry::detail::printable(name, 60) + "\" over " +
                                    (target->tls ? "https:// without certificate verification" : "plain http://") +
                                    " to '" + agentry::detail::printable(target->host, 100) +
                                    "', which is not a loopback address; reach the server through https:// with "
                                    "verification, or set http_url::allow_plain_http_credentials = true if the "
                                    "network path is trusted");
        }
        const detail::tls_settings tls{endpoint.tls_ca_file, endpoint.tls_ca_pem, !endpoint.insecure_skip_tls_verify};
        std::shared_ptr<detail::http_authorizer> auth;
        if (endpoint.oauth) {
            const std::chrono::milliseconds wait = endpoint.oauth->timeout;
            const std::size_t most = endpoint.oauth->max_answer_size;
            auth = std::make_shared<detail::oauth_flow>(
                *endpoint.oauth, endpoint.url, endpoint.allow_plain_http_credentials,
                [tls, wait, most](std::string_view method, const std::string& url, const detail::header_list& headers,
                                  std::string_view body) {
                    return detail::http_fetch(method, url, headers, body, tls, most, detail::client_clock::now() + wait);
                });
        }
        auto c = std::make_shared<client>(private_tag{}, options);
        auto channel = std::make_unique<detail::http_channel>(std::move(*target), endpoint.headers,
                                                              options.max_message_size, options.grace,
                                                              c->notification_handler(), c->request_handler(),
                                                              options.on_send, tls, std::move(auth));
        if (const std::string& e = channel->setup_error(); !e.empty())
            return fail(failure_kind::invalid_input, "agentry: mcp::client: \"" + endpoint.url + "\": " + e);
        detail::http_channel* http = channel.get();
        c->channel_ = std::move(channel);
        auto r = initialize(std::move(c), options.label.empty() ? endpoint.url : options.label);
        // The server's requests not tied to one of ours come on the GET stream.
        if (r && (options.on_elicit || options.on_sample))
            http->listen(detail::client_clock::now() + options.timeout);
        return r;
    }

    client(private_tag, client_options options) : options_(std::move(options)) {}
    client(const client&) = delete;
    client& operator=(const client&) = delete;
    ~client() { close(); }

    /// The version both sides speak.
    const std::string& protocol_version() const noexcept { return version_; }
    /// The server's `serverInfo.name` and `instructions`.
    const std::string& server_name() const noexcept { return server_name_; }
    const std::string& instructions() const noexcept { return instructions_; }
    /// The icons of `serverInfo` that keep icons.hpp's rules, and its `websiteUrl` when it is an
    /// http(s) URL (2025-11-25).
    const std::vector<listed_icon>& server_icons() const noexcept { return server_icons_; }
    const std::string& website_url() const noexcept { return website_url_; }
    /// How messages name the server: client_options::label, else its serverInfo.name.
    const std::string& label() const noexcept { return label_; }
    /// Whether the server declared the capability (`tools`, `resources`, `prompts`, ...).
    bool has_capability(std::string_view name) const { return capabilities_.find(name) != nullptr; }

    /// Every tool, following nextCursor across pages (at most 1,000 pages, no cursor twice,
    /// client_options::max_list_size bytes in all).
    outcome<std::vector<tool_info>> list_tools(const request_options& options = {}) {
        std::vector<tool_info> out;
        outcome<void> r = pages("tools/list", "tools", options, [&](const json::value& t) {
            tool_info info;
            info.name = detail::string_at(t, "name");
            info.title = detail::string_at(t, "title");
            info.description = detail::string_at(t, "description");
            if (const json::value* s = t.find("inputSchema")) info.input_schema = json::to_text(*s);
            if (const json::value* a = t.find("annotations")) info.annotations = json::to_text(*a);
            if (info.title.empty())
                if (const json::value* a = t.find("annotations")) info.title = detail::string_at(*a, "title");
            std::size_t kept = info.name.size() + info.title.size() + info.description.size() +
                               info.input_schema.size() + info.annotations.size();
            info.icons = detail::read_icons(t, kept);
            out.push_back(std::move(info));
            return kept;
        });
        if (!r) return std::move(r).error();
        return out;
    }

    /// Calls a tool; `arguments` is a JSON object, read by the typed reader's rules (default
    /// json::read_options: at most 1 MiB and 64 levels, UTF-8, no key twice). A tool that fails
    /// is a call_result with is_error (the server's message in text); a protocol failure is a
    /// failure.
    outcome<call_result> call_tool(std::string_view name, std::string_view arguments = "{}",
                                   const request_options& options = {}) {
        json::parsed args = json::parse(arguments.empty() ? "{}" : arguments);
        if (!args.ok() || !args.value.is_object()) {
            std::string why;
            for (const json::read_error& e : args.errors) why += (why.empty() ? " (" : "; ") + e.to_string();
            return fail(failure_kind::invalid_input, "agentry: mcp::client: the arguments of " +
                                                         agentry::detail::printable(name, 130) +
                                                         " must be a JSON object" + (why.empty() ? "" : why + ")"));
        }
        return call_tool(name, args.value, options);
    }

    /// Calls a tool with arguments already read (a JSON object). A template on exactly
    /// json::value, so that a text converts to the string_view of the overload above only.
    template <std::same_as<json::value> Arguments>
    outcome<call_result> call_tool(std::string_view name, const Arguments& arguments,
                                   const request_options& options = {}) {
        if (!arguments.is_object())
            return fail(failure_kind::invalid_input, "agentry: mcp::client: the arguments of " +
                                                         agentry::detail::printable(name, 130) +
                                                         " must be a JSON object");
        std::string params = R"({"name":)";
        detail::write_string(params, name);
        params += R"(,"arguments":)";
        json::write(params, arguments);
        params += '}';
        outcome<json::value> r =
            request("tools/call", std::move(params), options, "tools/call " + std::string(name), name);
        if (!r) return std::move(r).error();
        call_result out;
        if (const json::value* err = r->find("isError")) out.is_error = err->as_bool();
        if (const json::value* content = r->find("content")) {
            out.content = json::to_text(*content);
            for (const json::value& block : content->items()) {
                if (!out.text.empty()) out.text += '\n';
                if (detail::string_at(block, "type") == "text") {
                    out.text += detail::string_at(block, "text");
                } else {
                    out.text += json::to_text(block);
                    out.media = true;
                }
            }
        }
        if (const json::value* s = r->find("structuredContent")) out.structured_content = json::to_text(*s);
        return out;
    }

    /// Every resource (resources/list), following nextCursor.
    outcome<std::vector<listed_resource>> list_resources(const request_options& options = {}) {
        std::vector<listed_resource> out;
        outcome<void> r = pages("resources/list", "resources", options, [&](const json::value& v) {
            out.push_back({std::string(detail::string_at(v, "uri")), std::string(detail::string_at(v, "name")),
                           std::string(detail::string_at(v, "description")),
                           std::string(detail::string_at(v, "mimeType")), {}});
            listed_resource& e = out.back();
            std::size_t kept = e.uri.size() + e.name.size() + e.description.size() + e.mime_type.size();
            e.icons = detail::read_icons(v, kept);
            return kept;
        });
        if (!r) return std::move(r).error();
        return out;
    }

    /// Every prompt (prompts/list), following nextCursor.
    outcome<std::vector<listed_prompt>> list_prompts(const request_options& options = {}) {
        std::vector<listed_prompt> out;
        outcome<void> r = pages("prompts/list", "prompts", options, [&](const json::value& v) {
            const json::value* a = v.find("arguments");
            out.push_back({std::string(detail::string_at(v, "name")), std::string(detail::string_at(v, "description")),
                           a ? json::to_text(*a) : std::string(), {}});
            listed_prompt& e = out.back();
            std::size_t kept = e.name.size() + e.description.size() + e.arguments.size();
            e.icons = detail::read_icons(v, kept);
            return kept;
        });
        if (!r) return std::move(r).error();
        return out;
    }

    outcome<void> ping(const request_options& options = {}) {
        outcome<json::value> r = request("ping", "", options, "ping");
        if (!r) return std::move(r).error();
        return {};
    }

    /// Ends the session: a stdio server's input is closed, and it is stopped if it does not
    /// exit within client_options::grace; an HTTP session is deleted. Later requests fail.
    void close() noexcept {
        if (channel_) channel_->close();
    }

private:
    detail::request_handler request_handler() {
        return [elicit = options_.on_elicit, sample = options_.on_sample](const json::value& request) {
            return detail::answer_server_request(request, elicit, sample);
        };
    }

    detail::notification_handler notification_handler() {
        return [hook = options_.on_notification](std::string_view method, const json::value& params) {
            if (hook) hook(method, json::to_text(params));
        };
    }

    failure error(failure_kind kind, std::string_view what, std::string_view text) const {
        return fail(kind, "agentry: mcp::client: " + label_ + ": " + std::string(what) + ": " + std::string(text));
    }

    static outcome<std::shared_ptr<client>> initialize(std::shared_ptr<client> self, std::string label) {
        if (auto failed = self->initialize(std::move(label))) return std::move(*failed);
        return self;
    }

    // The initialize exchange; the failure that ended the connection, if any.
    std::optional<failure> initialize(std::string label) {
        label_ = std::move(label);
        std::string capabilities;
        if (options_.on_elicit) capabilities += R"("elicitation":{})";
        if (options_.on_sample)
            capabilities += std::string(capabilities.empty() ? "" : ",") +
                            (options_.sampling_tools ? R"("sampling":{"tools":{}})" : R"("sampling":{})");
        std::string params = R"({"protocolVersion":")" + std::string(client_protocol_version) +
                             R"(","capabilities":{)" + capabilities + R"(},"clientInfo":{"name":)";
        detail::write_string(params, options_.name);
        params += R"(,"version":)";
        detail::write_string(params, options_.version);
        params += "}}";
        outcome<json::value> r = request("initialize", std::move(params), {}, "initialize");
        if (!r) {
            close();
            return std::move(r).error();
        }
        if (const json::value* info = r->find("serverInfo")) {
            server_name_ = detail::string_at(*info, "name");
            std::size_t kept = 0;
            server_icons_ = detail::read_icons(*info, kept);
            website_url_ = detail::website_url(detail::string_at(*info, "websiteUrl"));
        }
        if (options_.label.empty() && !server_name_.empty()) label_ = agentry::detail::printable(server_name_, 100);
        const std::string version(detail::string_at(*r, "protocolVersion"));
        if (std::find(client_protocol_versions.begin(), client_protocol_versions.end(), version) ==
            client_protocol_versions.end()) {
            close();
            std::string known;
            for (std::string_view v : client_protocol_versions) known += (known.empty() ? "" : ", ") + std::string(v);
            return error(failure_kind::permanent, "initialize",
                         "the server answered with protocol version \"" + detail::client_excerpt(version, 40) +
                             "\", which this client does not speak (it speaks " + known +
                             "); the connection was closed");
        }
        version_ = version;
        channel_->set_protocol_version(version_);
        instructions_ = detail::string_at(*r, "instructions");
        if (const json::value* caps = r->find("capabilities"); caps && caps->is_object()) capabilities_ = *caps;
        if (std::string e = channel_->notify(R"({"jsonrpc":"2.0","method":"notifications/initialized"})",
                                             detail::client_clock::now() + options_.timeout);
            !e.empty()) {
            close();
            return error(failure_kind::transient, "notifications/initialized", e);
        }
        return std::nullopt;
    }

    // Requests `method` page by page; `each` takes one entry of the `key` array and returns the
    // bytes it kept. Stops at a cursor given before (the pages would repeat) and past
    // max_list_size bytes kept (entries and cursors together).
    template <class F>
    outcome<void> pages(std::string_view method, std::string_view key, const request_options& options, F&& each) {
        std::string cursor;
        std::set<std::string, std::less<>> seen;
        std::size_t kept = 0;
        for (int page = 0; page != 1000; ++page) {
            std::string params;
            if (!cursor.empty()) {
                params = R"({"cursor":)";
                detail::write_string(params, cursor);
                params += '}';
            }
            outcome<json::value> r = request(method, std::move(params), options, method);
            if (!r) return std::move(r).error();
            const json::value* list = r->find(key);
            if (!list || !list->is_array())
                return error(failure_kind::permanent, method,
                             "the result has no \"" + std::string(key) + "\" array: " +
                                 detail::client_excerpt(json::to_text(*r)));
            for (const json::value& v : list->items()) {
                kept += each(v);
                if (kept > options_.max_list_size) return too_long(method, page);
            }
            const json::value* next = r->find("nextCursor");
            if (!next || !next->is_string()) return {};
            const std::string& text = next->as_string();
            if (text.empty() || seen.contains(text))
                return error(failure_kind::permanent, method,
                             "the server gave the nextCursor \"" + agentry::detail::printable(text, 60) +
                                 "\" " + (text.empty() ? "(empty)" : "a second time") + " (page " +
                                 std::to_string(page + 1) + "), which would list the same pages again; the listing "
                                 "was stopped");
            kept += text.size();
            if (kept > options_.max_list_size) return too_long(method, page);
            cursor = text;
            seen.insert(cursor);
        }
        return error(failure_kind::permanent, method, "more than 1,000 pages");
    }

    failure too_long(std::string_view method, int page) const {
        return error(failure_kind::permanent, method,
                     "the pages listed so far hold more than " + std::to_string(options_.max_list_size) +
                         " bytes (client_options::max_list_size), at page " + std::to_string(page + 1) +
                         "; the listing was stopped; raise the limit if the server legitimately lists more");
    }

    // One request: `params` is a JSON object's text (empty: none). Returns the result. With an
    // observer, the request is a client span (of `target`, the tool a tools/call names).
    outcome<json::value> request(std::string_view method, std::string params, const request_options& options,
                                 std::string_view what, std::string_view target = {}) {
        using clock = std::chrono::steady_clock;
        agentry::observer* const seen = options_.observer;
        const trace_context* parent = options.trace.valid() ? &options.trace : nullptr;
        mcp_end_event end;
        if (!seen) return exchange(method, std::move(params), options, what, parent, end);
        mcp_event e;
        e.method = method;
        e.target = target;
        const std::string session = channel_ ? channel_->session() : std::string();
        e.session_id = session;
        const span_begun span = seen->begin_mcp(parent, e, clock::now());
        outcome<json::value> r =
            exchange(method, std::move(params), options, what, span.context.valid() ? &span.context : parent, end);
        if (r)
            if (const json::value* is_error = r->find("isError"); is_error && is_error->is_bool())
                end.tool_error = is_error->as_bool();
        end.end = clock::now();
        seen->end_mcp(span, e, end);
        return r;
    }

    outcome<json::value> exchange(std::string_view method, std::string params, const request_options& options,
                                  std::string_view what, const trace_context* trace, mcp_end_event& end) {
        if (!channel_) return error(failure_kind::permanent, what, "not connected");
        const std::string id = std::to_string(next_id_.fetch_add(1));
        detail::exchange_wait wait;
        const std::chrono::milliseconds timeout = options.timeout.count() > 0 ? options.timeout : options_.timeout;
        wait.deadline = detail::client_clock::now() + timeout;
        wait.cancel = options.cancel;
        if (options.on_progress) {
            wait.progress_token = id;
            wait.on_progress = [f = options.on_progress](const json::value& p) {
                progress out;
                if (const json::value* v = p.find("progress"); v && v->is_number()) out.progress = v->as_double();
                if (const json::value* v = p.find("total"); v && v->is_number()) out.total = v->as_double();
                out.message = detail::string_at(p, "message");
                f(out);
            };
        }
        // The progress token and the trace context go in params._meta.
        std::string meta;
        if (options.on_progress) meta = R"("progressToken":)" + id;
        if (trace) meta += (meta.empty() ? R"("traceparent":")" : R"(,"traceparent":")") + trace->traceparent() + '"';
        if (!meta.empty()) {
            meta = R"("_meta":{)" + meta + "}";
            if (params.empty()) params = "{" + meta + "}";
            else params.insert(1, params.size() > 2 ? meta + "," : meta);
        }
        std::string message = R"({"jsonrpc":"2.0","id":)" + id + R"(,"method":)";
        detail::write_string(message, method);
        if (!params.empty()) {
            message += R"(,"params":)";
            message += params;
        }
        message += '}';
        detail::exchange_result r = channel_->exchange(id, message, wait);
        switch (r.status) {
        case detail::exchange_status::response: break;
        case detail::exchange_status::timeout:
            end.error_type = "timeout";
            cancel_request(id, "timeout");
            return error(failure_kind::transient, what,
                         "no answer within " + std::to_string(timeout.count()) + " ms; the request was cancelled");
        case detail::exchange_status::cancelled:
            end.error_type = "cancelled";
            cancel_request(id, "cancelled by the client");
            return error(failure_kind::transient, what, "cancelled");
        case detail::exchange_status::failed:
            end.error_type = "transport";
            return error(failure_kind::transient, what, r.error);
        }
        if (const json::value* e = r.response.find("error")) {
            const json::value* code = e->find("code");
            if (code && code->is_number()) end.error_code = int(code->as_double());
            return error(failure_kind::permanent, what,
                         "the server answered with error " +
                             (code && code->is_number() ? code->number_text()
                                                        : code && code->is_string() ? code->as_string() : std::string("?")) +
                             ": " + std::string(detail::string_at(*e, "message")));
        }
        json::value* result = r.response.find("result");
        if (!result || !result->is_object())
            return error(failure_kind::permanent, what,
                         "the answer has no result object: " + detail::client_excerpt(json::to_text(r.response)));
        return std::move(*result);
    }

    void cancel_request(const std::string& id, std::string_view reason) {
        std::string message = R"({"jsonrpc":"2.0","method":"notifications/cancelled","params":{"requestId":)" + id +
                              R"(,"reason":)";
        detail::write_string(message, reason);
        message += "}}";
        channel_->notify(message, detail::client_clock::now() + options_.grace);
    }

    client_options options_;
    std::unique_ptr<detail::client_channel> channel_;
    std::atomic<std::int64_t> next_id_{1};
    std::string version_;
    std::string server_name_;
    std::string instructions_;
    std::vector<listed_icon> server_icons_;
    std::string website_url_;
    std::string label_;
    json::value capabilities_ = json::value::object();
};

} // namespace agentry::mcp

#endif
