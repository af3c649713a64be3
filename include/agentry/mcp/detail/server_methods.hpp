// SPDX-License-Identifier: BSL-1.0
#ifndef AGENTRY_MCP_DETAIL_SERVER_METHODS_HPP
#define AGENTRY_MCP_DETAIL_SERVER_METHODS_HPP

// What the MCP server reads of a request before it answers: the params of each method, the
// request's _meta, and the table of the methods it serves (mcp/server.hpp).

#include <agentry/trace_context.hpp>
#include <agentry/json/reader.hpp>
#include <agentry/json/writer.hpp>
#include <agentry/call_scope.hpp>
#include <agentry/mcp/annotations.hpp>
#include <agentry/mcp/ceiling.hpp>
#include <agentry/mcp/detail/tool_table.hpp>
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

namespace agentry::mcp::detail {


// The params of each method, read with agentry's reader. Members are named as on the wire;
// members not listed here (`capabilities`, `task`, ...) are accepted and ignored.
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
struct set_level_params {
    std::string level;
};
struct read_resource_params {
    std::string uri;
};
struct get_prompt_params {
    std::string name;
    std::optional<std::map<std::string, std::string>> arguments;
};
struct meta_params {
    std::optional<std::map<std::string, raw_json>> _meta;
};
struct subscribe_params {
    std::string uri;
};
struct complete_ref {
    std::string type;
    std::optional<std::string> name;
    std::optional<std::string> uri;
};
struct complete_argument {
    std::string name;
    std::string value;
};
struct complete_context {
    std::optional<std::map<std::string, std::string>> arguments;
};
struct complete_params {
    complete_ref ref;
    complete_argument argument;
    std::optional<complete_context> context;
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

/// What a request's params._meta says: its protocol version (2026-07-28), its progress token
/// (JSON text, a string or an integer), its log level and its client's capabilities (2026-07-28).
struct request_meta {
    std::optional<std::string> version;
    std::string progress_token;
    std::optional<log_level> level;
    client_abilities abilities{};
    /// The W3C trace context of _meta.traceparent, when valid.
    std::optional<trace_context> trace;
};

inline constexpr std::string_view meta_version_key = "io.modelcontextprotocol/protocolVersion";
inline constexpr std::string_view meta_level_key = "io.modelcontextprotocol/logLevel";

inline request_meta read_meta(std::string_view params) {
    request_meta out;
    meta_params p;
    std::string ignored;
    // A member named _meta is spelled out, or escaped (with a backslash): without either,
    // there is none, and the params need not be read.
    if (params.find("_meta") == std::string_view::npos && params.find('\\') == std::string_view::npos) return out;
    if (params.empty() || !read_params(params, p, ignored) || !p._meta) return out;
    const auto text_of = [](const raw_json& value) -> std::optional<std::string> {
        auto r = json::read<std::string>(value.text());
        return r.ok() ? std::optional<std::string>(std::move(r.value)) : std::nullopt;
    };
    if (const auto it = p._meta->find(std::string(meta_version_key)); it != p._meta->end())
        out.version = text_of(it->second).value_or(std::string("(not a string)"));
    if (const auto it = p._meta->find("progressToken"); it != p._meta->end() && valid_id(it->second.text()))
        out.progress_token = it->second.text();
    if (const auto it = p._meta->find(std::string(meta_level_key)); it != p._meta->end())
        if (const auto name = text_of(it->second)) out.level = parse_log_level(*name);
    if (const auto it = p._meta->find("traceparent"); it != p._meta->end())
        if (const auto text = text_of(it->second)) out.trace = trace_context::from_traceparent(*text);
    if (const auto it = p._meta->find("io.modelcontextprotocol/clientCapabilities"); it != p._meta->end())
        out.abilities = read_client_abilities(R"({"capabilities":)" + std::string(it->second.text()) + "}");
    return out;
}

/// The methods the server answers, each named once: the request's method is looked up here,
/// and what it needs decides whether this server, in this mode, knows it.
enum class method { discover, initialize, ping, set_level, tools_list, tools_call, resources_list,
                    resource_templates_list, resources_read, prompts_list, prompts_get, resources_subscribe,
                    resources_unsubscribe, complete, listen };
// subscriptions: resources and a session (not stateless); completions: a completer; stateless:
// a 2026-07-28 request.
enum class method_needs { nothing, session, resources, prompts, subscriptions, completions, stateless };

struct method_row {
    std::string_view name;
    method id;
    method_needs needs;
};

inline constexpr method_row method_table[] = {
    {"server/discover", method::discover, method_needs::nothing},
    {"initialize", method::initialize, method_needs::session},
    {"ping", method::ping, method_needs::nothing},
    {"logging/setLevel", method::set_level, method_needs::session},
    {"tools/list", method::tools_list, method_needs::nothing},
    {"tools/call", method::tools_call, method_needs::nothing},
    {"resources/list", method::resources_list, method_needs::resources},
    {"resources/templates/list", method::resource_templates_list, method_needs::resources},
    {"resources/read", method::resources_read, method_needs::resources},
    {"prompts/list", method::prompts_list, method_needs::prompts},
    {"prompts/get", method::prompts_get, method_needs::prompts},
    {"resources/subscribe", method::resources_subscribe, method_needs::subscriptions},
    {"resources/unsubscribe", method::resources_unsubscribe, method_needs::subscriptions},
    {"completion/complete", method::complete, method_needs::completions},
    {"subscriptions/listen", method::listen, method_needs::stateless},
};

constexpr const method_row* find_method(std::string_view name) noexcept {
    for (const method_row& row : method_table)
        if (row.name == name) return &row;
    return nullptr;
}

} // namespace agentry::mcp::detail

#endif
