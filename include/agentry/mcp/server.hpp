// SPDX-License-Identifier: BSL-1.0
#ifndef AGENTRY_MCP_SERVER_HPP
#define AGENTRY_MCP_SERVER_HPP

// agentry::mcp::server: a registry served over the Model Context Protocol, independent of the
// transport. handle() takes one JSON-RPC message and returns the answer to send, if any;
// notifications written while it answers (progress, log messages) go to the message_sink the
// transport gives.
//
//   agentry::mcp::server server{tools, {.name = "weather", .version = "1.0.0"},
//                               agentry::mcp::annotations<"get_weather">{.read_only = true}};
//   agentry::mcp::session session;
//   std::string answer = server.handle(session, R"({"jsonrpc":"2.0","id":1,"method":"ping"})");
//   // {"jsonrpc":"2.0","id":1,"result":{}}
//
// After the registry and the server_info come, in any order: mcp::annotations<"tool">
// (annotations.hpp), resources and resource templates (resources.hpp), prompts (prompts.hpp),
// a permission ceiling (ceiling.hpp) and a per-session context factory (session_context).
//
// Methods: initialize (protocol version negotiation, see version.hpp), ping, tools/list,
// tools/call, logging/setLevel, server/discover; resources/list, resources/templates/list,
// resources/read when the server has resources, and resources/subscribe, resources/unsubscribe
// in a session; prompts/list, prompts/get when it has prompts; completion/complete when a prompt
// or a resource template has a completer (completion.hpp); notifications/initialized and
// notifications/cancelled. notify_resource_updated(uri) tells the sessions subscribed to `uri`
// (over HTTP on their GET stream, over stdio on the output). Other requests are answered -32601,
// other notifications ignored. Before `initialize`, only `initialize`, `ping` and
// `server/discover` are answered with a result, unless the request names the stateless
// revision 2026-07-28 in its `_meta`: such a request is served on its own, without a session,
// and its result carries `resultType` (and `cacheScope`, `ttlMs` for lists). A `_meta` version
// not served is answered -32022 with the versions served. In a 2025-03-26 session a JSON array
// is a batch, answered with an array.
//
// Only what the version defines is sent (features_of in version.hpp): tool annotations from
// 2025-03-26 (with the tool's title in them in 2025-03-26); titles, outputSchema and
// structuredContent from 2025-06-18; icons (icons.hpp) from 2025-11-25. A tool's annotations are derived from its policy
// (with_policy<tool_policy{...}>): readOnlyHint, destructiveHint, idempotentHint; members of an
// mcp::annotations for it take precedence.
//
// tools/call answers, by tool_status:
//  - ok: a text content block with the result (JSON, or a std::string result as it is); when
//    the result is an object (the tool has an outputSchema) and the version has structured
//    content, the same JSON as structuredContent. An object result cut at the registry's result
//    cap cannot match its outputSchema, so it is then sent as text with isError true.
//    A tool returning MCP content (content.hpp) gets its blocks as the content, without
//    structuredContent; blocks the version lacks (audio before 2025-03-26, resource links
//    before 2025-06-18) as text blocks; content cut at the result cap as a text block saying
//    so, with isError true.
//  - invalid_arguments, tool_error: a text block with the precise message, isError true (MCP
//    2025-11-25: input validation errors are tool execution errors, so the model sees them).
//  - unknown_tool: JSON-RPC error -32602 with the "did you mean" message.
// A tool whose policy needs approval runs only once the client's user accepts it by
// elicitation, with the arguments shown (detail/call_approval.hpp); otherwise isError true. Rate
// limits, retries, fallbacks and timeouts of tool policies apply (detail/served_policies.hpp).
// Missing `arguments` mean {}.
//
// prompts/get writes each message's content block (prompts.hpp) as a tools/call result's, the
// blocks the version lacks as text blocks. resources/read answers `text` for a resource whose
// function returns text or JSON, and `blob` (base64) for one returning mcp::blob (resources.hpp).
//
// handle() never throws; a message that cannot be answered for lack of memory gets -32603.
// It may be called from several threads at once, with one session each or a shared one.
//
// A response is the client's answer to a request of the server (mcp::elicit, mcp::sample; see
// detail/server_requests.hpp): it goes to the call waiting on its id, and is dropped when none
// does.

#include <agentry/json/reader.hpp>
#include <agentry/json/writer.hpp>
#include <agentry/call_scope.hpp>
#include <agentry/mcp/annotations.hpp>
#include <agentry/mcp/completion.hpp>
#include <agentry/mcp/detail/call_approval.hpp>
#include <agentry/mcp/detail/completion_answer.hpp>
#include <agentry/mcp/detail/server_checks.hpp>
#include <agentry/mcp/detail/server_methods.hpp>
#include <agentry/mcp/detail/server_observe.hpp>
#include <agentry/mcp/detail/server_requests.hpp>
#include <agentry/mcp/detail/subscription.hpp>
#include <agentry/mcp/detail/tool_listing.hpp>
#include <agentry/mcp/ceiling.hpp>
#include <agentry/mcp/content.hpp>
#include <agentry/mcp/detail/content_result.hpp>
#include <agentry/mcp/detail/call_scope_for.hpp>
#include <agentry/mcp/detail/resource_answer.hpp>
#include <agentry/mcp/detail/runtime_tools.hpp>
#include <agentry/mcp/detail/served_policies.hpp>
#include <agentry/mcp/detail/server_results.hpp>
#include <agentry/mcp/detail/subscribers.hpp>
#include <agentry/mcp/detail/tool_table.hpp>
#include <agentry/mcp/icons.hpp>
#include <agentry/mcp/limits.hpp>
#include <agentry/mcp/logging.hpp>
#include <agentry/mcp/message.hpp>
#include <agentry/mcp/prompts.hpp>
#include <agentry/mcp/resources.hpp>
#include <agentry/mcp/session.hpp>
#include <agentry/mcp/version.hpp>
#include <agentry/reflect/fixed_string.hpp>
#include <agentry/schema/dialect.hpp>
#include <agentry/schema/raw_json.hpp>
#include <agentry/tool_result.hpp>

#include <algorithm>
#include <array>
#include <cstddef>
#include <exception>
#include <functional>
#include <map>
#include <memory>
#include <stdexcept>
#include <optional>
#include <string>
#include <string_view>
#include <type_traits>
#include <utility>
#include <vector>

namespace agentry::mcp {

/// What the server says about itself in `initialize`.
struct server_info {
    std::string_view name = "agentry";
    std::string_view version = "0.0.0";
    /// Display name (optional).
    std::string_view title{};
    /// How to use the server, for the model (optional).
    std::string_view instructions{};
    /// `description`, `websiteUrl` (an http(s) URL) and `icons` (icons.hpp): from 2025-11-25.
    std::string_view description{};
    std::string_view website_url{};
    std::vector<icon> icons{};
    /// Tools may be added and removed while the server runs (server::add_tools, remove_tool):
    /// `initialize` then says tools.listChanged, and each change sends
    /// notifications/tools/list_changed to the sessions that can receive it.
    bool tool_list_changes = false;
};

/// A server's per-session context factory: `make` builds the context<T> object the registry's
/// tools take (Registry::context_type), once per session, when a tool first needs it. It is
/// called with the session's identity (mcp/auth.hpp; nullptr without authorization), or with
/// nothing, and returns a T, or a std::shared_ptr<T> or std::unique_ptr<T> (for a T that cannot
/// be moved). A stateless (2026-07-28) request gets a context of its own.
template <class F>
struct session_context_t {
    F make;
};

/// The context factory of a server whose tools take agentry::context<T>:
///   mcp::server server{tools, info, mcp::session_context([](const mcp::identity* who) { return app_session{who}; })};
template <class F>
session_context_t<F> session_context(F make) {
    return {std::move(make)};
}

template <class T>
inline constexpr bool is_session_context = false;
template <class F>
inline constexpr bool is_session_context<session_context_t<F>> = true;

/// Dialect is the schema dialect of tools/list: dialect::mcp, or
/// dialect::with_natural_bounds<dialect::mcp> to state every number's C++ range.
template <class Registry, schema_dialect Dialect = dialect::mcp>
class server {
    static_assert(Dialect::kind == dialect_kind::mcp,
                  "agentry: mcp::server: the dialect must be dialect::mcp or a variant of it, such as "
                  "dialect::with_natural_bounds<dialect::mcp>");
    using table = detail::tool_table_of<Registry, Dialect>;
    using context_type = typename Registry::context_type;

public:
    /// Serves `tools` (copied), introduced as `info`, with `extras`: mcp::annotations, resources,
    /// resource templates, prompts, a ceiling, in any order (see above). An icon breaking the
    /// rules of icons.hpp throws std::invalid_argument.
    template <class... Extras>
    explicit server(Registry tools, const server_info& info = {}, const Extras&... extras)
        : tools_(std::move(tools)),
          name_(info.name),
          version_(info.version),
          title_(info.title),
          instructions_(info.instructions),
          info_icons_(detail::implementation_members(info.description, info.website_url, info.icons)),
          changes_(info.tool_list_changes) {
        static_assert(((is_annotations<Extras> || is_resource<Extras> || is_prompt<Extras> || is_ceiling<Extras> ||
                        is_session_context<Extras>) &&
                       ...),
                      "agentry: mcp::server: after the registry and the server_info come mcp::annotations, "
                      "mcp::resource, mcp::resource_template, mcp::prompt, mcp::ceiling and mcp::session_context only");
        constexpr std::size_t factories = (std::size_t(is_session_context<Extras>) + ... + 0);
        static_assert(std::is_void_v<context_type> || factories == 1,
                      "agentry: mcp::server: the registry's tools take agentry::context<T>; give the server one "
                      "mcp::session_context(factory) that makes a T for each session");
        static_assert(!std::is_void_v<context_type> || factories == 0,
                      "agentry: mcp::server: mcp::session_context is given, but no tool of the registry takes "
                      "agentry::context<T>");
        static_assert(detail::check_annotations<Registry, Extras...>(),
                      "agentry: mcp::server: two mcp::annotations name the same tool; give one per tool");
        static_assert((detail::within_ceiling<table, Extras>() && ...));
        std::array<detail::annotation_text, table::size> extra{};
        std::array<bool, table::size> annotated{};
        (add(extras, extra, annotated), ...);
        for (std::size_t i = 0; i != table::size; ++i)
            if (!annotated[i])
                extra[i] = detail::annotation_members({}, detail::policy_hints(table::policied[i], table::policies[i]));
        for (std::size_t v = 0; v != served_protocol_versions.size(); ++v) {
            const protocol_features f = features_of(served_protocol_versions[v]);
            std::string& list = tools_lists_[v];
            list = "{\"tools\":[";
            for (std::size_t i = 0; i != table::size; ++i) {
                const std::string_view definition = table::definitions[i];
                const std::size_t output = f.structured_content ? 0 : table::output_schema_sizes[i];
                if (i != 0) list += ',';
                list += definition.substr(0, definition.size() - 1 - output);
                if (f.titles) list += extra[i].title + extra[i].hints;
                else if (f.tool_annotations) list += extra[i].titled_hints;
                if (f.icons) list += extra[i].icons;
                list += '}';
            }
            list += "]}";
        }
    }

    const Registry& tools() const noexcept { return tools_; }

    /// Tells `o` (null: none; it must outlive the server) of every request served and of every
    /// tool call (telemetry/observer.hpp); set it before serving.
    void set_observer(agentry::observer* o) noexcept { observer_ = o; }

    /// The result of tools/list for `version` (the latest negotiated by default): {"tools":[...]}
    /// with what that version defines of each tool (see features_of), the tools added at run
    /// time last.
    std::string tools_list(std::string_view version = latest_protocol_version) const {
        const std::size_t v = detail::version_index(version);
        const std::shared_ptr<const detail::runtime_list> added = runtime_->snapshot();
        if (added->empty()) return tools_lists_[v];
        std::string out = tools_lists_[v];
        out.resize(out.size() - 2);  // "]}"
        detail::runtime_tools::append_listed(out, *added, v, table::size == 0);
        out += "]}";
        return out;
    }

    /// Adds the tools of `source` (an mcp::toolset, or any dynamic_tool_source) to those served,
    /// all or none: their definitions in the MCP dialect, calls checked against their
    /// inputSchema, their policies applied (approval, the ceiling, rate limit, retries, timeout).
    /// Needs server_info::tool_list_changes. Sessions are told (tools/list_changed). Callable
    /// from any thread while the server runs.
    outcome<void> add_tools(const dynamic_tool_source& source) {
        if (!changes_)
            return fail(failure_kind::invalid_input,
                        "agentry: mcp::server::add_tools: the server was built without "
                        "server_info::tool_list_changes, so its clients were told its tools never change; set it");
        dynamic_tools_target target;
        target.kind = dialect_kind::mcp;
        target.rules = Dialect::rules;
        target.max_permission = ceiling_;
        const std::string why = runtime_->add(source, target, [](std::string_view name) {
            return Registry::find(name) != Registry::size();
        });
        if (!why.empty()) return fail(failure_kind::invalid_input, "agentry: mcp::server::add_tools: " + why);
        notify_tools_changed();
        return {};
    }

    /// Stops serving the tool `name` added by add_tools (a call in progress ends as it would);
    /// sessions are told. False when no such tool was added.
    bool remove_tool(std::string_view name) {
        if (!runtime_->remove(name)) return false;
        notify_tools_changed();
        return true;
    }

    /// Answers one message of at most `max_size` bytes: the JSON text to send back, or an
    /// empty string for a notification, a response, or a cancelled request. Notifications
    /// written meanwhile go to `out` (none when empty).
    std::string handle(session& s, std::string_view text, std::size_t max_size = default_max_message_size,
                       const message_sink& out = {}) const noexcept {
        try {
            return handle(s, read_message(text, max_size), out, max_size);
        } catch (...) {
            return out_of_memory({});
        }
    }

    /// Answers one message read with read_message (see above).
    std::string handle(session& s, received m, const message_sink& out = {},
                       std::size_t max_size = default_max_message_size) const noexcept {
        try {
            switch (m.kind) {
            case message_kind::invalid:
                if (!m.batch.empty() && s.initialized() && features_of(s.protocol_version()).batches)
                    return batch(s, m.batch, out, max_size);
                return error_response(m);
            case message_kind::response:
                s.requests().deliver(m.id, std::move(m.result), std::move(m.response_error));
                return {};
            case message_kind::notification: notify(s, m); return {};
            case message_kind::request: break;
            }
            s.expect(m.id);
            const detail::identity_scope caller(s.owner());
            std::string answer = s.cancelled(m.id) ? std::string() : request(s, m, out);
            if (s.finish(m.id)) return {};
            return answer;
        } catch (...) {
            s.finish(m.id);
            return m.kind == message_kind::request ? out_of_memory(m.id) : std::string();
        }
    }

    /// The capabilities object sent in `initialize` for `version`, and in `server/discover`
    /// (2026-07-28, which has no resources/subscribe).
    std::string capabilities(std::string_view version = latest_protocol_version) const {
        const protocol_features f = features_of(version);
        std::string out = changes_ ? R"({"tools":{"listChanged":true},"logging":{})"
                                   : R"({"tools":{"listChanged":false},"logging":{})";
        if (!resources_.empty())
            out += f.stateless ? R"(,"resources":{"listChanged":false})"
                               : R"(,"resources":{"subscribe":true,"listChanged":false})";
        if (!prompts_.empty()) out += R"(,"prompts":{"listChanged":false})";
        if (f.completions && completes()) out += R"(,"completions":{})";
        out += '}';
        return out;
    }

    /// Sends notifications/resources/updated {"uri"} to each session subscribed to exactly `uri`:
    /// over HTTP on the session's GET stream (a session without one misses it), over stdio as a
    /// line on the output. Callable from any thread, a tool's included. Returns the number of
    /// sessions it went to. Its cost grows with the sessions that hold a subscription.
    std::size_t notify_resource_updated(std::string_view uri) const noexcept {
        std::size_t sent = 0;
        try {
            std::string message = R"({"jsonrpc":"2.0","method":"notifications/resources/updated","params":{"uri":)";
            json::write(message, uri);
            message += "}}";
            subscribers_->each([&](const session& s) {
                if (s.subscribed(uri) && s.post(message)) ++sent;
            });
        } catch (...) {
        }
        return sent;
    }

    /// For transports: the subscription a 2026-07-28 subscriptions/listen request `m` opens
    /// (detail/subscription.hpp), with in `first` the acknowledgement to send before anything
    /// else; or null, with in `refusal` the error response to send instead.
    std::shared_ptr<session> open_subscription(const received& m, std::string& first, std::string& refusal) const {
        error_code code = error_code::invalid_params;
        auto sub = detail::open_subscription(m, changes_, resources_, subscribers_, first, code, refusal);
        if (!sub) refusal = error(m.id, code, refusal);
        return sub;
    }

private:
    // notifications/tools/list_changed to each session listening (sessions join at initialize
    // when tools may change).
    void notify_tools_changed() const noexcept {
        try {
            subscribers_->each([](const session& s) {
                if (s.hears_of(session::tools_changes))
                    s.post(R"({"jsonrpc":"2.0","method":"notifications/tools/list_changed"})");
            });
        } catch (...) {
        }
    }

    template <fixed_string Tool>
    void add(const annotations<Tool>& a, std::array<detail::annotation_text, table::size>& extra,
             std::array<bool, table::size>& annotated) {
        constexpr std::size_t i = Registry::find(Tool.view());
        detail::tool_hints h = detail::policy_hints(table::policied[i], table::policies[i]);
        if (a.read_only) h.readOnlyHint = a.read_only;
        if (a.destructive) h.destructiveHint = a.destructive;
        if (a.idempotent) h.idempotentHint = a.idempotent;
        if (a.open_world) h.openWorldHint = a.open_world;
        extra[i] = detail::annotation_members(a.title, h);
        extra[i].icons = detail::icon_members(a.icons, detail::icon_owner("tool", Tool.view()));
        annotated[i] = true;
    }
    template <class R>
        requires is_resource<R>
    void add(const R& r, auto&, auto&) {
        resources_.push_back(detail::make_entry(r));
    }
    template <class P>
        requires is_prompt<P>
    void add(const P& p, auto&, auto&) {
        prompts_.push_back(detail::make_entry(p));
    }
    template <permission Level>
    void add(const ceiling_t<Level>&, auto&, auto&) {
        ceiling_ = Level;
    }
    template <class F>
    void add(const session_context_t<F>& factory, auto&, auto&) {
        if constexpr (!std::is_void_v<context_type>) {
            static_assert(std::is_invocable_v<const F&, const identity*> || std::is_invocable_v<const F&>,
                          "agentry: mcp::session_context(factory): factory takes const mcp::identity* or nothing");
            make_context_ = [f = factory.make](const identity* who) -> std::shared_ptr<void> {
                const auto made = [&] {
                    if constexpr (std::is_invocable_v<const F&, const identity*>) return f(who);
                    else return f();
                };
                using made_type = decltype(made());
                if constexpr (std::is_convertible_v<made_type, std::shared_ptr<context_type>>) {
                    std::shared_ptr<context_type> context = made();
                    if (!context) throw std::runtime_error("the factory returned no object");
                    return context;
                } else {
                    static_assert(std::is_convertible_v<made_type, context_type>,
                                  "agentry: mcp::session_context(factory): factory returns the tools' context "
                                  "type T, or a std::shared_ptr<T> / std::unique_ptr<T> for a T that cannot move");
                    return std::make_shared<context_type>(made());
                }
            };
        }
    }

    static std::string out_of_memory(std::string_view id) noexcept {
        try {
            std::string out;
            write_error(out, id, error_code::internal_error, "Internal error: out of memory");
            return out;
        } catch (...) {
            return {};
        }
    }

    static std::string result(std::string_view id, std::string_view body) {
        std::string out;
        write_result(out, id, body);
        return out;
    }
    static std::string error(std::string_view id, error_code code, std::string_view message,
                             std::string_view data = {}) {
        std::string out;
        write_error(out, id, code, message, data);
        return out;
    }

    void notify(session& s, const received& m) const {
        if (m.method != "notifications/cancelled") return;
        detail::cancelled_params p;
        std::string problem;
        if (!detail::read_params(m.params, p, problem) || !p.requestId) return;
        if (detail::valid_id(p.requestId->text())) s.cancel(p.requestId->text());
    }

    // A 2025-03-26 batch: each message answered in turn; the answers as one array, or nothing
    // when none has an answer.
    std::string batch(session& s, std::string_view text, const message_sink& out, std::size_t max_size) const {
        json::read_options options;
        options.max_size = max_size;
        options.max_depth = max_message_depth;
        options.max_errors = 8;
        auto r = json::read<std::vector<raw_json>>(text, options);
        if (!r.ok()) return error({}, error_code::invalid_request, detail::join_errors("Invalid Request", r.errors));
        if (r.value.empty()) return error({}, error_code::invalid_request, "Invalid Request: an empty batch");
        std::string answers;
        for (const raw_json& element : r.value) {
            received m = read_message(element.text(), max_size);
            if (!m.batch.empty()) m.error = "Invalid Request: a batch inside a batch";
            if (m.kind == message_kind::request && m.method == "initialize")
                m = {message_kind::invalid, m.id, {}, {}, error_code::invalid_request,
                     "Invalid Request: initialize cannot be part of a batch", {}, {}, {}};
            std::string answer = m.kind == message_kind::invalid ? error_response(m) : handle(s, std::move(m), out, max_size);
            if (answer.empty()) continue;
            answers += answers.empty() ? "[" : ",";
            answers += answer;
        }
        if (!answers.empty()) answers += ']';
        return answers;
    }

    std::string request(session& s, const received& m, const message_sink& out) const {
        const std::string_view method = m.method;
        const detail::request_meta meta = detail::read_meta(m.params);
        const bool stateless = meta.version && *meta.version == stateless_protocol_version;
        if (meta.version && !stateless && !detail::served_version(*meta.version)) {
            std::string data = R"({"requested":)";
            json::write(data, std::string_view(*meta.version).substr(0, 100));
            data += R"(,"supported":)";
            json::write(data, served_protocol_versions);
            data += '}';
            std::string message = "Unsupported protocol version ";
            json::write(message, std::string_view(*meta.version).substr(0, 100));
            return error(m.id, error_code::unsupported_protocol_version, message, data);
        }
        const detail::method_row* row = detail::find_method(method);
        if (row == nullptr || !serves(*row, stateless)) {
            std::string message = "Method not found: ";
            json::write(message, method.substr(0, 100));
            return error(m.id, error_code::method_not_found, message);
        }
        if (row->id == detail::method::discover) return discover(m.id, s);
        if (row->id == detail::method::initialize) return initialize(s, m);
        if (row->id == detail::method::ping && !stateless) return result(m.id, "{}");
        if (!stateless && !s.initialized())
            return error(m.id, error_code::invalid_request,
                         "Invalid Request: the session is not initialized; send \"initialize\" first, or name the "
                         "protocol version 2026-07-28 in the request's _meta");
        const std::string version = stateless ? std::string(stateless_protocol_version) : s.protocol_version();
        const protocol_features f = features_of(version);
        const detail::request_scope scope{&out, stateless ? meta.level : s.level()};
        const detail::request_scope_guard current(&scope);
        const detail::asking_scope asking{&s.requests(), &out, s.stop_token(m.id),
                                          stateless ? std::string_view{} : std::string_view(version), nullptr,
                                          stateless ? meta.abilities : detail::client_abilities{}};
        const detail::asking_scope_guard asking_current(&asking);
        detail::observed_request seen(observer_, method, meta.trace, m.id, s);
        std::string answered = answer(row->id, s, m, version, f, meta);
        seen.end(answered);
        return answered;
    }

    bool serves(const detail::method_row& row, bool stateless) const noexcept {
        switch (row.needs) {
        case detail::method_needs::nothing: return true;
        case detail::method_needs::session: return !stateless;
        case detail::method_needs::resources: return !resources_.empty();
        case detail::method_needs::prompts: return !prompts_.empty();
        case detail::method_needs::subscriptions: return !stateless && !resources_.empty();
        case detail::method_needs::completions: return completes();
        case detail::method_needs::stateless: return stateless;
        }
        return false;
    }

    // Whether a prompt or a resource template has a completer.
    bool completes() const noexcept {
        for (const detail::prompt_entry& p : prompts_)
            if (!p.completions.empty()) return true;
        for (const detail::resource_entry& r : resources_)
            if (!r.completions.empty()) return true;
        return false;
    }

    // The answer to an initialized or stateless request of a known method other than
    // initialize, ping (before 2026-07-28) and server/discover.
    std::string answer(detail::method method, session& s, const received& m, const std::string& version,
                       const protocol_features& f, const detail::request_meta& meta) const {
        const bool is_private = s.owner() != nullptr;
        const auto done = [&](std::string body, bool cacheable) {
            return result(m.id, f.stateless ? detail::complete_result(std::move(body), cacheable, is_private) : body);
        };
        std::string problem;
        switch (method) {
        case detail::method::ping: return done("{}", false);
        case detail::method::set_level: {
            detail::set_level_params p;
            if (!detail::read_params(m.params, p, problem)) return error(m.id, error_code::invalid_params, problem);
            const std::optional<log_level> level = parse_log_level(p.level);
            if (!level) {
                std::string message = "Invalid params: /level: ";
                json::write(message, std::string_view(p.level).substr(0, 40));
                message += " is not one of [\"debug\",\"info\",\"notice\",\"warning\",\"error\",\"critical\",\"alert\","
                           "\"emergency\"]";
                return error(m.id, error_code::invalid_params, message);
            }
            s.set_level(*level);
            return done("{}", false);
        }
        case detail::method::tools_list:
        case detail::method::resources_list:
        case detail::method::resource_templates_list:
        case detail::method::prompts_list: {
            detail::list_params p;
            if (!detail::read_params(m.params, p, problem)) return error(m.id, error_code::invalid_params, problem);
            if (p.cursor) return error(m.id, error_code::invalid_params, "Invalid params: /cursor: unknown cursor");
            if (method == detail::method::tools_list) return done(std::string(tools_list(version)), true);
            if (method == detail::method::prompts_list) return done(prompts_list(f), true);
            return done(resources_list(f, method == detail::method::resource_templates_list), true);
        }
        case detail::method::resources_read: return read_resource(m, f, done);
        case detail::method::prompts_get: return get_prompt(m, version, done);
        case detail::method::tools_call: return call(s, m, version, f, meta, done);
        case detail::method::resources_subscribe:
        case detail::method::resources_unsubscribe:
            return subscribe(s, m, method == detail::method::resources_subscribe, done);
        case detail::method::complete: return complete(m, done);
        case detail::method::listen:
            return error(m.id, error_code::method_not_found,
                         "Method not found: subscriptions/listen needs a transport that keeps its stream open "
                         "(serve_stdio, http_server)");
        case detail::method::discover:
        case detail::method::initialize: break;
        }
        return error(m.id, error_code::method_not_found, "Method not found");
    }

    std::string discover(std::string_view id, const session& s) const {
        std::string body = R"({"supportedVersions":)";
        json::write(body, served_protocol_versions);
        body += R"(,"capabilities":)";
        body += capabilities(stateless_protocol_version);
        if (!instructions_.empty()) {
            body += R"(,"instructions":)";
            json::write(body, instructions_);
        }
        body += '}';
        return result(id, detail::complete_result(std::move(body), true, s.owner() != nullptr));
    }

    std::string initialize(session& s, const received& m) const {
        detail::initialize_params p;
        std::string problem;
        if (!detail::read_params(m.params, p, problem)) return error(m.id, error_code::invalid_params, problem);
        const std::string_view version = negotiate_protocol_version(p.protocolVersion);
        if (!s.initialize(version))
            return error(m.id, error_code::invalid_request, "Invalid Request: the session is already initialized");
        s.requests().declare(detail::read_client_abilities(m.params));
        if (changes_) s.join(subscribers_);
        detail::implementation info{name_, version_, std::nullopt};
        if (!title_.empty() && features_of(version).titles) info.title = title_;
        std::string body = R"({"protocolVersion":)";
        json::write(body, version);
        body += R"(,"capabilities":)";
        body += capabilities(version);
        body += R"(,"serverInfo":)";
        json::write(body, info, {.omit_empty_optionals = true});
        if (features_of(version).icons && !info_icons_.empty()) body.insert(body.size() - 1, info_icons_);
        if (!instructions_.empty()) {
            body += R"(,"instructions":)";
            json::write(body, instructions_);
        }
        body += '}';
        return result(m.id, body);
    }

    std::string resources_list(const protocol_features& f, bool templates) const {
        return detail::list_resources(resources_, f, templates);
    }

    template <class Done>
    std::string read_resource(const received& m, const protocol_features&, const Done& done) const {
        detail::read_resource_params p;
        std::string text;
        if (!detail::read_params(m.params, p, text)) return error(m.id, error_code::invalid_params, text);
        error_code code = error_code::resource_not_found;
        if (!detail::answer_read_resource(p, resources_, code, text)) return error(m.id, code, text);
        return done(std::move(text), true);
    }

    // resources/subscribe and resources/unsubscribe: the URI must name a resource or match a
    // template.
    template <class Done>
    std::string subscribe(session& s, const received& m, bool on, const Done& done) const {
        std::string problem = detail::toggle_subscription(s, m.params, on, resources_, subscribers_);
        return problem.empty() ? done("{}", false) : error(m.id, error_code::invalid_params, problem);
    }

    // completion/complete (detail/completion_answer.hpp).
    template <class Done>
    std::string complete(const received& m, const Done& done) const {
        detail::complete_params p;
        std::string text;
        if (!detail::read_params(m.params, p, text)) return error(m.id, error_code::invalid_params, text);
        error_code code = error_code::invalid_params;
        if (!detail::answer_completion(p, prompts_, resources_, code, text)) return error(m.id, code, text);
        return done(std::move(text), false);
    }

    std::string prompts_list(const protocol_features& f) const {
        std::string out = R"({"prompts":[)";
        for (std::size_t i = 0; i != prompts_.size(); ++i) {
            const detail::prompt_entry& p = prompts_[i];
            out += i == 0 ? R"({"name":)" : R"(,{"name":)";
            json::write(out, p.name);
            if (f.titles && !p.title.empty()) {
                out += R"(,"title":)";
                json::write(out, p.title);
            }
            out += R"(,"description":)";
            json::write(out, p.description);
            out += R"(,"arguments":[)";
            for (std::size_t a = 0; a != p.arguments.size(); ++a) {
                out += a == 0 ? R"({"name":)" : R"(,{"name":)";
                json::write(out, p.arguments[a].name);
                if (!p.arguments[a].description.empty()) {
                    out += R"(,"description":)";
                    json::write(out, p.arguments[a].description);
                }
                out += p.arguments[a].required ? R"(,"required":true})" : R"(,"required":false})";
            }
            out += f.icons ? "]" + p.icons + "}" : "]}";
        }
        out += "]}";
        return out;
    }

    template <class Done>
    std::string get_prompt(const received& m, std::string_view version, const Done& done) const {
        detail::get_prompt_params p;
        std::string problem;
        if (!detail::read_params(m.params, p, problem)) return error(m.id, error_code::invalid_params, problem);
        for (const detail::prompt_entry& entry : prompts_) {
            if (entry.name != p.name) continue;
            std::string arguments;
            json::write(arguments, p.arguments.value_or(std::map<std::string, std::string>{}));
            std::vector<prompt_message> messages;
            bool invalid = false;
            if (!entry.get(arguments, messages, problem, invalid)) {
                if (invalid) return error(m.id, error_code::invalid_params, problem);
                return error(m.id, error_code::internal_error, "Prompt \"" + entry.name + "\" failed: " + problem);
            }
            std::string body = R"({"description":)";
            json::write(body, entry.description);
            body += R"(,"messages":[)";
            for (std::size_t i = 0; i != messages.size(); ++i) {
                body += i == 0 ? R"({"role":)" : R"(,{"role":)";
                body += messages[i].role == role::user ? R"("user")" : R"("assistant")";
                body += R"(,"content":)";
                detail::append_block(body, messages[i].content, version);
                body += '}';
            }
            body += "]}";
            return done(std::move(body), false);
        }
        std::string message = "Invalid params: unknown prompt ";
        json::write(message, std::string_view(p.name).substr(0, 100));
        message += "; prompts: ";
        for (std::size_t i = 0; i != prompts_.size(); ++i) message += (i == 0 ? "" : ", ") + prompts_[i].name;
        return error(m.id, error_code::invalid_params, message);
    }

    template <class Done>
    std::string call(session& s, const received& m, std::string_view version, const protocol_features& f,
                     const detail::request_meta& meta, const Done& done) const {
        detail::call_params p;
        std::string problem;
        if (!detail::read_params(m.params, p, problem)) return error(m.id, error_code::invalid_params, problem);
        const std::string_view arguments = p.arguments ? std::string_view(p.arguments->text()) : "{}";
        const std::size_t index = Registry::find(p.name);
        const std::shared_ptr<const detail::runtime_tool> added =
            index == Registry::size() ? runtime_->find(p.name) : nullptr;
        const bool known = index != Registry::size() || added;
        const tool_policy* policy = added ? (added->tool.policy ? &*added->tool.policy : nullptr)
                                    : known && table::policied[index] ? &table::policies[index]
                                                                      : nullptr;
        detail::prepared_call prepared(p.name, known, policy, arguments, m.params);
        std::string failure;
        detail::observed_call seen(p.name, m.id, arguments);
        const tool_result r = prepared.held() ? prepared.refused()
                              : added ? call_added(s, m, *added, prepared.arguments(), f, meta, seen.trace())
                                      : invoke(s, m, p.name, index, prepared.arguments(), f, meta, failure, seen.trace());
        seen.end(r);
        if (const std::optional<std::string> asked = prepared.input_required()) return result(m.id, *asked);
        if (!failure.empty()) return error(m.id, error_code::internal_error, failure);
        const std::size_t cap = tools_.options().max_result_size;
        if (!added && index == Registry::size())
            return error(m.id, error_code::invalid_params, unknown_text(p.name, r.content));
        std::string body = added ? detail::tool_call_result(r, p.name, version, r.content_blocks, false, cap)
                                 : detail::tool_call_result(r, p.name, version, table::content_results[index],
                                                            f.structured_content && table::structured[index], cap);
        seen.answered(body);
        return done(std::move(body), false);
    }

    // A call of a tool added at run time (detail/runtime_tools.hpp), with the scope of invoke.
    tool_result call_added(session& s, const received& m, const detail::runtime_tool& t, std::string_view arguments,
                           const protocol_features& f, const detail::request_meta& meta, trace_context trace) const {
        double last = 0;
        bool reported = false;
        call_scope scope = detail::call_scope_for(s, m.id, f, meta, last, reported);
        scope.trace = trace;
        return runtime_->call(t, arguments, scope, json::read_options{}, tools_.options().max_result_size);
    }

    // The unknown-tool text with the names of the tools added at run time as well.
    std::string unknown_text(std::string_view name, std::string text) const {
        const std::shared_ptr<const detail::runtime_list> added = runtime_->snapshot();
        if (added->empty()) return text;
        std::vector<std::string> names(Registry::names.begin(), Registry::names.end());
        for (const auto& t : *added) names.push_back(t->tool.name);
        tool_result out;
        out.status = tool_status::unknown_tool;
        agentry::detail::name_unknown_tool(out, name, names);
        return out.content;
    }

    // Calls the tool with the request's stop token (signalled by notifications/cancelled), a
    // progress sink writing notifications/progress when the request has a progress token, and
    // the session's context. `failure` is set when the context cannot be made.
    tool_result invoke(session& s, const received& m, std::string_view name, std::size_t index, std::string_view arguments,
                       const protocol_features& f, const detail::request_meta& meta, std::string& failure,
                       trace_context trace) const {
        double last = 0;
        bool reported = false;
        call_scope scope = detail::call_scope_for(s, m.id, f, meta, last, reported);
        scope.trace = trace;
        // An index of size(), an unknown name, is answered naming the closest tool.
        if constexpr (std::is_void_v<context_type>) {
            (void)failure;
            if constexpr (served::any)
                if (index != Registry::size())
                    return served_(name, arguments, scope, [tools = tools_](std::string_view n, std::string_view a,
                                                                            const call_scope& c) {
                        return tools.call(n, a, {.scope = c});
                    });
            return tools_.call(name, arguments, {.scope = scope, .index = index});
        } else {
            std::shared_ptr<void> context;
            try {
                context = s.context_or([&] { return make_context_(s.owner()); });
            } catch (const std::exception& e) {
                failure = std::string("Internal error: the session's context could not be made: ") + e.what();
                return {};
            } catch (...) {
                failure = "Internal error: the session's context could not be made";
                return {};
            }
            if constexpr (served::any)
                if (index != Registry::size())
                    return served_(name, arguments, scope, [tools = tools_, context](std::string_view n, std::string_view a,
                                                                                     const call_scope& c) {
                        return tools.call(n, a, {.context = *static_cast<context_type*>(context.get()), .scope = c});
                    });
            return tools_.call(name, arguments,
                               {.context = *static_cast<context_type*>(context.get()), .scope = scope, .index = index});
        }
    }

    Registry tools_;
    using served = detail::served_policies<Registry>;
    served served_;
    std::string name_;
    std::string version_;
    std::string title_;
    std::string instructions_;
    std::string info_icons_;  // ,"description":...,"icons":[...],"websiteUrl":... (2025-11-25)
    std::array<std::string, served_protocol_versions.size()> tools_lists_;
    std::vector<detail::resource_entry> resources_;
    std::vector<detail::prompt_entry> prompts_;
    std::function<std::shared_ptr<void>(const identity*)> make_context_;
    bool changes_ = false;
    permission ceiling_ = permission::destructive;
    agentry::observer* observer_ = nullptr;
    std::shared_ptr<detail::runtime_tools> runtime_ = std::make_shared<detail::runtime_tools>();
    std::shared_ptr<detail::subscriber_list> subscribers_ = std::make_shared<detail::subscriber_list>();
};

template <class Registry, class... Extras>
server(Registry, const server_info&, const Extras&...) -> server<Registry>;
template <class Registry>
server(Registry) -> server<Registry>;

} // namespace agentry::mcp

#endif
