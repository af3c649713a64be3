// SPDX-License-Identifier: BSL-1.0
#ifndef AGENTRY_MCP_SERVER_HPP
#define AGENTRY_MCP_SERVER_HPP

// agentry::mcp::server: a registry served over the Model Context Protocol, independent of the
// transport. handle() takes one JSON-RPC message and returns the answer to send, if any.
//
//   agentry::mcp::server server{tools, {.name = "weather", .version = "1.0.0"},
//                               agentry::mcp::annotations<"get_weather">{.read_only = true}};
//   agentry::mcp::session session;
//   std::string answer = server.handle(session, R"({"jsonrpc":"2.0","id":1,"method":"ping"})");
//   // {"jsonrpc":"2.0","id":1,"result":{}}
//
// Methods: initialize (protocol version negotiation, see version.hpp), ping, tools/list,
// tools/call; notifications/initialized and notifications/cancelled. Other requests are
// answered -32601, other notifications ignored. Before `initialize`, only `initialize` and
// `ping` are answered with a result.
//
// Only what the session's negotiated version defines is sent (features_of in version.hpp):
// tool annotations from 2025-03-26 (with the tool's title in them in 2025-03-26); titles,
// outputSchema and structuredContent from 2025-06-18.
//
// tools/call answers, by tool_status:
//  - ok: a text content block with the result (JSON, or a std::string result as it is); when
//    the result is an object (the tool has an outputSchema) and the version has structured
//    content, the same JSON as structuredContent. An object result cut at the registry's result
//    cap cannot match its outputSchema, so it is then sent as text with isError true.
//  - invalid_arguments, tool_error: a text block with the precise message, isError true (MCP
//    2025-11-25: input validation errors are tool execution errors, so the model sees them).
//  - unknown_tool: JSON-RPC error -32602 with the "did you mean" message.
// Missing `arguments` mean {}.
//
// handle() never throws; a message that cannot be answered for lack of memory gets -32603.
// It may be called from several threads at once, with one session each or a shared one.

#include <agentry/json/reader.hpp>
#include <agentry/json/writer.hpp>
#include <agentry/mcp/annotations.hpp>
#include <agentry/mcp/detail/tool_table.hpp>
#include <agentry/mcp/message.hpp>
#include <agentry/mcp/session.hpp>
#include <agentry/mcp/version.hpp>
#include <agentry/reflect/fixed_string.hpp>
#include <agentry/schema/dialect.hpp>
#include <agentry/schema/raw_json.hpp>
#include <agentry/tool_result.hpp>

#include <array>
#include <cstddef>
#include <optional>
#include <string>
#include <string_view>
#include <utility>

namespace agentry::mcp {

/// What the server says about itself in `initialize`.
struct server_info {
    std::string_view name = "agentry";
    std::string_view version = "0.0.0";
    /// Display name (optional).
    std::string_view title{};
    /// How to use the server, for the model (optional).
    std::string_view instructions{};
};

namespace detail {

// The params of each method, read with agentry's reader. Members are named as on the wire;
// members not listed here (`_meta`, `capabilities`, ...) are accepted and ignored.
struct initialize_params {
    std::string protocolVersion;
};
struct list_params {
    std::optional<std::string> cursor;
};
struct call_params {
    std::string name;
    std::optional<raw_json> arguments;
};
struct cancelled_params {
    std::optional<raw_json> requestId;
    std::optional<std::string> reason;
};

/// Reads the members of `text` (a JSON object; empty means {}) that T declares into `out`,
/// skipping the others. On failure, `error` says what is wrong, each problem with its JSON
/// Pointer.
template <class T>
bool read_params(std::string_view text, T& out, std::string& error) {
    if (text.empty()) text = "{}";
    json::read_options options;
    options.max_size = text.size();
    options.max_depth = max_message_depth;
    options.max_errors = 8;
    options.ignore_unknown_properties = true;
    auto r = json::read<T>(text, options);
    if (!r.ok()) {
        error = join_errors("Invalid params", r.errors);
        return false;
    }
    out = std::move(r.value);
    return true;
}

// The results the server builds, written with the JSON writer (members named as on the wire).
struct tools_capability {
    bool listChanged;
};
struct server_capabilities {
    tools_capability tools;
};
struct implementation {
    std::string name;
    std::string version;
    std::optional<std::string> title;
};
struct initialize_result {
    std::string protocolVersion;
    server_capabilities capabilities;
    implementation serverInfo;
    std::optional<std::string> instructions;
};
struct tool_hints {
    std::optional<std::string> title;
    std::optional<bool> readOnlyHint;
    std::optional<bool> destructiveHint;
    std::optional<bool> idempotentHint;
    std::optional<bool> openWorldHint;
};

/// Instantiated for an mcp::annotations<Tool> whose Tool the registry lacks; Tool is spelled
/// out in its arguments.
template <bool Known, char... Tool>
struct annotated_tool {
    static_assert(Known, "agentry: mcp::annotations: the registry has no tool of this name (its letters are the "
                         "template arguments of annotated_tool above)");
    static constexpr bool ok = true;
};

template <class Registry, fixed_string Tool>
consteval bool known_tool() {
    return []<std::size_t... I>(std::index_sequence<I...>) {
        return annotated_tool<Registry::find(Tool.view()) != Registry::size(), Tool.value[I]...>::ok;
    }(std::make_index_sequence<Tool.size()>{});
}

template <class Registry, fixed_string... Tools>
consteval bool check_annotations() {
    constexpr std::array<std::string_view, sizeof...(Tools)> names{Tools.view()...};
    bool unique = true;
    for (std::size_t i = 0; i != names.size(); ++i)
        for (std::size_t j = 0; j != i; ++j) unique = unique && names[i] != names[j];
    return (known_tool<Registry, Tools>() && ... && unique);
}

/// The members a tools/list entry gains from its annotations, each after a comma.
struct annotation_text {
    std::string title;         // ,"title":...
    std::string hints;         // ,"annotations":{...}
    std::string titled_hints;  // ,"annotations":{"title":...,...}: 2025-03-26 has no tool title
};

template <fixed_string Tool>
annotation_text annotation_members(const annotations<Tool>& a) {
    annotation_text out;
    if (!a.title.empty()) {
        out.title = ",\"title\":";
        json::write(out.title, a.title);
    }
    tool_hints hints{std::nullopt, a.read_only, a.destructive, a.idempotent, a.open_world};
    if (hints.readOnlyHint || hints.destructiveHint || hints.idempotentHint || hints.openWorldHint) {
        out.hints = ",\"annotations\":";
        json::write(out.hints, hints, {.omit_empty_optionals = true});
    }
    if (!a.title.empty()) hints.title = std::string(a.title);
    if (hints.title || !out.hints.empty()) {
        out.titled_hints = ",\"annotations\":";
        json::write(out.titled_hints, hints, {.omit_empty_optionals = true});
    }
    return out;
}

/// The index of a served `version` in protocol_versions; the latest's for another.
constexpr std::size_t version_index(std::string_view version) noexcept {
    for (std::size_t i = 0; i != protocol_versions.size(); ++i)
        if (protocol_versions[i] == version) return i;
    return protocol_versions.size() - 1;
}

} // namespace detail

/// Dialect is the schema dialect of tools/list: dialect::mcp, or
/// dialect::with_natural_bounds<dialect::mcp> to state every number's C++ range.
template <class Registry, schema_dialect Dialect = dialect::mcp>
class server {
    static_assert(Dialect::kind == dialect_kind::mcp,
                  "agentry: mcp::server: the dialect must be dialect::mcp or a variant of it, such as "
                  "dialect::with_natural_bounds<dialect::mcp>");
    using table = detail::tool_table_of<Registry, Dialect>;

public:
    /// Serves `tools` (copied), introduced as `info`, with optional per-tool annotations.
    template <fixed_string... Tools>
    explicit server(Registry tools, const server_info& info = {}, const annotations<Tools>&... notes)
        : tools_(std::move(tools)),
          name_(info.name),
          version_(info.version),
          title_(info.title),
          instructions_(info.instructions) {
        static_assert(detail::check_annotations<Registry, Tools...>(),
                      "agentry: mcp::server: two mcp::annotations name the same tool; give one per tool");
        std::array<detail::annotation_text, table::size> extra{};
        ((extra[Registry::find(Tools.view())] = detail::annotation_members(notes)), ...);
        for (std::size_t v = 0; v != protocol_versions.size(); ++v) {
            const protocol_features f = features_of(protocol_versions[v]);
            std::string& list = tools_lists_[v];
            list = "{\"tools\":[";
            for (std::size_t i = 0; i != table::size; ++i) {
                const std::string_view definition = table::definitions[i];
                const std::size_t output = f.structured_content ? 0 : table::output_schema_sizes[i];
                if (i != 0) list += ',';
                list += definition.substr(0, definition.size() - 1 - output);
                if (f.titles) list += extra[i].title + extra[i].hints;
                else if (f.tool_annotations) list += extra[i].titled_hints;
                list += '}';
            }
            list += "]}";
        }
    }

    const Registry& tools() const noexcept { return tools_; }

    /// The result of tools/list for `version` (the latest by default): {"tools":[...]} with
    /// what that version defines of each tool (see features_of).
    std::string_view tools_list(std::string_view version = latest_protocol_version) const noexcept {
        return tools_lists_[detail::version_index(version)];
    }

    /// Answers one message of at most `max_size` bytes: the JSON text to send back, or an
    /// empty string for a notification, a response, or a cancelled request.
    std::string handle(session& s, std::string_view text,
                       std::size_t max_size = default_max_message_size) const noexcept {
        try {
            return handle(s, read_message(text, max_size));
        } catch (...) {
            return out_of_memory({});
        }
    }

    /// Answers one message read with read_message (see above).
    std::string handle(session& s, received m) const noexcept {
        try {
            switch (m.kind) {
            case message_kind::invalid: return error_response(m);
            case message_kind::response: return {};
            case message_kind::notification: notify(s, m); return {};
            case message_kind::request: break;
            }
            s.expect(m.id);
            const detail::identity_scope caller(s.owner());
            std::string answer = s.cancelled(m.id) ? std::string() : request(s, m);
            if (s.finish(m.id)) return {};
            return answer;
        } catch (...) {
            s.finish(m.id);
            return m.kind == message_kind::request ? out_of_memory(m.id) : std::string();
        }
    }

private:
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
    static std::string error(std::string_view id, error_code code, std::string_view message) {
        std::string out;
        write_error(out, id, code, message);
        return out;
    }

    void notify(session& s, const received& m) const {
        if (m.method != "notifications/cancelled") return;
        detail::cancelled_params p;
        std::string problem;
        if (!detail::read_params(m.params, p, problem) || !p.requestId) return;
        if (detail::valid_id(p.requestId->text())) s.cancel(p.requestId->text());
    }

    std::string request(session& s, const received& m) const {
        const std::string_view method = m.method;
        if (method == "initialize") return initialize(s, m);
        if (method == "ping") return result(m.id, "{}");
        if (method != "tools/list" && method != "tools/call") {
            std::string message = "Method not found: ";
            json::write(message, method.substr(0, 100));
            return error(m.id, error_code::method_not_found, message);
        }
        if (!s.initialized())
            return error(m.id, error_code::invalid_request,
                         "Invalid Request: the session is not initialized; send \"initialize\" first");
        const std::string version = s.protocol_version();
        if (method == "tools/list") return list(m, version);
        return call(m, features_of(version));
    }

    std::string initialize(session& s, const received& m) const {
        detail::initialize_params p;
        std::string problem;
        if (!detail::read_params(m.params, p, problem)) return error(m.id, error_code::invalid_params, problem);
        const std::string_view version = negotiate_protocol_version(p.protocolVersion);
        if (!s.initialize(version))
            return error(m.id, error_code::invalid_request, "Invalid Request: the session is already initialized");
        detail::initialize_result r{std::string(version),
                                    {{false}},
                                    {name_, version_, std::nullopt},
                                    std::nullopt};
        if (!title_.empty() && features_of(version).titles) r.serverInfo.title = title_;
        if (!instructions_.empty()) r.instructions = instructions_;
        std::string body;
        json::write(body, r, {.omit_empty_optionals = true});
        return result(m.id, body);
    }

    std::string list(const received& m, std::string_view version) const {
        detail::list_params p;
        std::string problem;
        if (!detail::read_params(m.params, p, problem)) return error(m.id, error_code::invalid_params, problem);
        if (p.cursor) return error(m.id, error_code::invalid_params, "Invalid params: /cursor: unknown cursor");
        return result(m.id, tools_list(version));
    }

    std::string call(const received& m, const protocol_features& f) const {
        detail::call_params p;
        std::string problem;
        if (!detail::read_params(m.params, p, problem)) return error(m.id, error_code::invalid_params, problem);
        const std::string_view arguments = p.arguments ? std::string_view(p.arguments->text()) : "{}";
        const std::size_t index = Registry::find(p.name);
        if (index == Registry::size())
            return error(m.id, error_code::invalid_params, tools_.call(p.name, arguments).content);
        const tool_result r = tools_.call_index(index, arguments);
        const bool object_result = f.structured_content && table::structured[index];
        const bool structured = r.ok() && !r.truncated && object_result;
        const bool failed = !r.ok() || (r.truncated && object_result);
        std::string body = R"({"content":[{"type":"text","text":)";
        json::write(body, std::string_view(r.content));
        body += "}]";
        if (structured) {
            body += ",\"structuredContent\":";
            body += r.content;
        }
        body += failed ? ",\"isError\":true}" : ",\"isError\":false}";
        return result(m.id, body);
    }

    Registry tools_;
    std::string name_;
    std::string version_;
    std::string title_;
    std::string instructions_;
    std::array<std::string, protocol_versions.size()> tools_lists_;
};

template <class Registry, fixed_string... Tools>
server(Registry, const server_info&, const annotations<Tools>&...) -> server<Registry>;
template <class Registry>
server(Registry) -> server<Registry>;

} // namespace agentry::mcp

#endif
