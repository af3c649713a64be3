// SPDX-License-Identifier: BSL-1.0
#ifndef AGENTRY_MCP_TOOLSET_HPP
#define AGENTRY_MCP_TOOLSET_HPP

// agentry::mcp::toolset: the tools of one or more MCP servers (mcp::client connections) for
// an agent, next to its registry's:
//
//   agentry::mcp::toolset mcp_tools;
//   if (auto r = mcp_tools.add(*client); !r) return fail(r.error().message);   // tools/list now
//   agentry::agent<config> agent{model, tools, "system prompt", http};
//   if (auto r = agent.add_tools(mcp_tools); !r) return fail(r.error().message);
//
// When the tools join the agent, each inputSchema is rewritten into the provider's dialect; a
// schema the dialect cannot express is reported naming the server and the tool, and the tool
// is left out (or add_tools fails, by toolset_options::unsupported). A name the agent already
// has gets the prefix. Before each call, the model's arguments are checked against the
// server's inputSchema (see detail::argument_checker for what is covered); what the check
// does not cover is the server's to refuse, and its isError answer reaches the model.
//
// Each tool gets a tool_policy (toolset_options::policy, policy_for, and, from a trusted
// server, its annotations), which the agent applies as to a registry tool's: approval, rate
// limit, timeout, retries of an idempotent tool, the permission ceiling. A tool above
// loop_config::max_permission that needs no approval is left out or refused like an
// unsupported schema.

#include <agentry/detail/text.hpp>
#include <agentry/loop/dynamic_tools.hpp>
#include <agentry/mcp/client.hpp>
#include <agentry/mcp/detail/client_schema.hpp>
#include <agentry/policy/tool_policy.hpp>

#include <atomic>
#include <chrono>
#include <cstdio>
#include <functional>
#include <memory>
#include <optional>
#include <stop_token>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace agentry::mcp {

/// What becomes of a tool whose inputSchema the provider's dialect cannot express.
enum class unsupported_schema : unsigned char { leave_out, refuse };

/// When a server's tool names get the prefix.
enum class prefix_mode : unsigned char { on_clash, always };

struct toolset_options {
    /// Put before a tool's name when needed (prefix_mode); empty: the server's label with
    /// every character other than a letter, digit or underscore as "_", then "_".
    std::string prefix{};
    prefix_mode prefixing = prefix_mode::on_clash;
    unsupported_schema unsupported = unsupported_schema::leave_out;
    /// Check the model's arguments against the inputSchema before calling the server.
    bool check_arguments = true;
    /// The time a call may take (0: the client's timeout). loop_config::tool_timeout applies
    /// as well; a call the client times out is cancelled on the server.
    std::chrono::milliseconds call_timeout{0};
    /// The tools left out, one message each; empty: written to standard error.
    std::function<void(std::string_view message)> report{};
    /// The policy of this server's tools (see tool_policy; a fallback chain is for registry
    /// tools only). None: each counts as destructive and needs no approval.
    std::optional<tool_policy> policy{};
    /// The policy of one tool, given its listing; a value replaces `policy` (and the
    /// annotations) for that tool, nothing keeps them.
    std::function<std::optional<tool_policy>(const tool_info&)> policy_for{};
    /// Take the server's annotations into the policy: readOnlyHint true makes the level
    /// read_only and the tool idempotent; readOnlyHint false or a destructiveHint makes it
    /// destructive, or write with destructiveHint false; idempotentHint true makes it
    /// idempotent. Annotations are the server's claims, so only for a server you trust.
    bool trust_annotations = false;
};

namespace detail {

/// Whether the dialect accepts `name`. In every dialect a name is 1 to 128 bytes without a
/// control character, space or DEL (the MCP specification's tool names are narrower still: letters,
/// digits, '_', '-' and '.'); the provider dialects allow 64 bytes of their own characters.
inline bool valid_tool_name(dialect_kind kind, std::string_view name) noexcept {
    if (name.empty() || name.size() > 128) return false;
    for (char c : name)
        if (static_cast<unsigned char>(c) <= 0x20 || c == 0x7F) return false;
    if (kind == dialect_kind::standard || kind == dialect_kind::mcp) return true;
    if (name.size() > 64) return false;
    const auto letter = [](char c) { return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z'); };
    const auto digit = [](char c) { return c >= '0' && c <= '9'; };
    if (kind == dialect_kind::gemini && !letter(name[0]) && name[0] != '_') return false;
    for (char c : name) {
        const bool extra = kind == dialect_kind::gemini && (c == '.' || c == ':');
        if (!letter(c) && !digit(c) && c != '_' && c != '-' && !extra) return false;
    }
    return true;
}

inline std::string prefix_of(std::string_view label) {
    std::string out;
    for (char c : label)
        out += (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '_' ? c : '_';
    return out + "_";
}

/// One tool's entry of the tools payload in the dialect.
inline std::string dynamic_definition(dialect_kind kind, std::string_view name, std::string_view description,
                                   const jvalue& schema) {
    std::string out;
    const bool openai = kind == dialect_kind::openai || kind == dialect_kind::openai_strict;
    out += openai ? R"({"type":"function","function":{"name":)" : R"({"name":)";
    json::write(out, name);
    out += R"(,"description":)";
    json::write(out, description);
    const jvalue* props = schema.get("properties");
    const bool empty = !props || props->members.empty();
    if (!(kind == dialect_kind::gemini && empty)) {
        if (kind == dialect_kind::anthropic || kind == dialect_kind::anthropic_strict) out += R"(,"input_schema":)";
        else if (kind == dialect_kind::mcp) out += R"(,"inputSchema":)";
        else out += R"(,"parameters":)";
        write_json(out, schema);
    }
    if (kind == dialect_kind::openai_strict) out += R"(,"strict":true}})";
    else if (kind == dialect_kind::openai) out += "}}";
    else if (kind == dialect_kind::anthropic_strict) out += R"(,"strict":true})";
    else out += '}';
    return out;
}

/// The model's arguments as the server should get them: JSON null for an optional property
/// (what a dialect with every property required sends for "absent") is left out.
inline void drop_null_optionals(jvalue& args, const jvalue& schema) {
    const jvalue* required = schema.get("required");
    std::erase_if(args.members, [&](const auto& m) {
        if (!m.second.is(jtype::null)) return false;
        if (required)
            for (const jvalue& r : required->items)
                if (r.text == m.first) return false;
        return true;
    });
}

inline tool_result mcp_tool_result(tool_status status, std::string content) {
    tool_result out;
    out.status = status;
    out.content = std::move(content);
    return out;
}

/// The policy of `tool` by `options`: policy_for's answer, else `policy` with, from a trusted
/// server, the annotations' hints (on a destructive policy when there is none).
inline std::optional<tool_policy> policy_of_tool(const toolset_options& options, const tool_info& tool) {
    if (options.policy_for)
        if (std::optional<tool_policy> own = options.policy_for(tool)) return own;
    std::optional<tool_policy> out = options.policy;
    if (!options.trust_annotations || tool.annotations.empty()) return out;
    std::string error;
    const std::optional<jvalue> hints = parse_json(tool.annotations, error);
    if (!hints || !hints->is(jtype::object)) return out;
    const auto hint = [&](std::string_view key) -> std::optional<bool> {
        const jvalue* v = hints->get(key);
        if (!v || !v->is(jtype::boolean)) return std::nullopt;
        return v->boolean;
    };
    const std::optional<bool> read_only = hint("readOnlyHint");
    const std::optional<bool> destructive = hint("destructiveHint");
    const std::optional<bool> idempotent = hint("idempotentHint");
    if (!read_only && !destructive && !idempotent) return out;
    if (!out) out = tool_policy{.level = permission::destructive};
    if (read_only == true) {
        out->level = permission::read_only;
        out->idempotent = true;
    } else if (read_only || destructive) {  // not read-only: destructive unless it says otherwise
        out->level = destructive == false ? permission::write : permission::destructive;
    }
    if (idempotent == true) out->idempotent = true;
    return out;
}

} // namespace detail

class toolset {
public:
    /// Lists the tools of `server` now (every page) and keeps them with `options`; the failure
    /// of tools/list, with nothing added.
    outcome<void> add(std::shared_ptr<client> server, toolset_options options = {}) {
        if (!server) return fail(failure_kind::invalid_input, "agentry: mcp::toolset::add: the client is null");
        outcome<std::vector<tool_info>> tools = server->list_tools();
        if (!tools) return std::move(tools).error();
        auto e = std::make_shared<entry>();
        e->server = std::move(server);
        e->options = std::move(options);
        if (e->options.prefix.empty()) e->options.prefix = detail::prefix_of(e->server->label());
        e->tools = std::move(*tools);
        entries_.push_back(std::move(e));
        return {};
    }

    /// The number of tools listed, over all servers.
    std::size_t size() const noexcept {
        std::size_t n = 0;
        for (const auto& e : entries_) n += e->tools.size();
        return n;
    }

    /// The source agent::add_tools takes.
    operator dynamic_tool_source() const {
        return [entries = entries_](const dynamic_tools_target& target) { return resolve(entries, target); };
    }

private:
    struct entry {
        std::shared_ptr<client> server;
        toolset_options options;
        std::vector<tool_info> tools;
    };

    static outcome<std::vector<dynamic_tool>> resolve(const std::vector<std::shared_ptr<entry>>& entries,
                                                      const dynamic_tools_target& target) {
        std::vector<dynamic_tool> out;
        const auto taken = [&](std::string_view name) {
            if (target.taken && target.taken(name)) return true;
            for (const dynamic_tool& t : out)
                if (t.name == name) return true;
            return false;
        };
        for (const auto& e : entries) {
            const toolset_options& o = e->options;
            for (const tool_info& tool : e->tools) {
                const std::string where = "agentry: mcp::toolset: server \"" + agentry::detail::printable(e->server->label(), 100) +
                                          "\", tool \"" + agentry::detail::printable(tool.name, 130) + "\": ";
                const auto unsupported = [&](std::string why) -> std::optional<failure> {
                    if (o.unsupported == unsupported_schema::refuse)
                        return fail(failure_kind::invalid_input,
                                    where + why + "; the tools were refused (toolset_options::unsupported is refuse; "
                                                  "leave_out drops such a tool instead)");
                    const std::string message = where + why + "; the tool was left out";
                    if (o.report) o.report(message);
                    else std::fprintf(stderr, "%s\n", message.c_str());
                    return std::nullopt;
                };
                std::string error;
                std::optional<detail::jvalue> schema = detail::parse_json(tool.input_schema.empty() ? "{}" : tool.input_schema, error);
                std::string why;
                std::optional<detail::jvalue> converted;
                if (!schema || !schema->is(detail::jtype::object)) why = "its inputSchema is not a JSON object";
                else if (!(converted = detail::schema_converter(target.kind, target.rules).convert(*schema, why)))
                    why = "its inputSchema " + why;
                std::string name = o.prefixing == prefix_mode::always ? o.prefix + tool.name : tool.name;
                if (why.empty() && taken(name)) name = o.prefix + tool.name;
                if (why.empty() && taken(name)) why = "its name is taken even with the prefix \"" + o.prefix + "\"";
                if (why.empty() && !detail::valid_tool_name(target.kind, name))
                    why = "the name \"" + agentry::detail::printable(name, 130) + "\" is not a valid tool name for the " +
                          std::string(target.rules.name) + " dialect";
                std::optional<tool_policy> policy;
                if (why.empty()) {
                    policy = detail::policy_of_tool(o, tool);
                    if (const std::string problem = policy ? agentry::detail::dynamic_policy_problem(*policy) : std::string();
                        !problem.empty())
                        return fail(failure_kind::invalid_input, where + problem + "; the tools were refused");
                    why = agentry::detail::above_ceiling(policy, target.max_permission);
                }
                if (!why.empty()) {
                    if (auto refused = unsupported(std::move(why))) return std::move(*refused);
                    continue;
                }
                dynamic_tool t;
                t.name = name;
                t.policy = policy;
                t.definition = detail::dynamic_definition(target.kind, name,
                                                       !tool.description.empty() ? tool.description : tool.title, *converted);
                t.call = [server = e->server, original = tool.name, exposed = name,
                          schema = std::make_shared<const detail::jvalue>(std::move(*schema)), check = o.check_arguments,
                          timeout = o.call_timeout,
                          nulls = target.rules.all_required](std::string_view arguments, std::stop_token stop) {
                    return call(*server, original, exposed, *schema, check, timeout, nulls, arguments, stop);
                };
                out.push_back(std::move(t));
            }
        }
        return out;
    }

    static tool_result call(client& server, const std::string& original, const std::string& exposed,
                            const detail::jvalue& schema, bool check, std::chrono::milliseconds timeout, bool nulls,
                            std::string_view arguments, std::stop_token stop) {
        std::string error;
        std::optional<detail::jvalue> args = detail::parse_json(arguments.empty() ? "{}" : arguments, error, 64);
        if (!args || !args->is(detail::jtype::object))
            return detail::mcp_tool_result(tool_status::invalid_arguments,
                                           exposed + ": invalid arguments: " +
                                               (args ? std::string("not a JSON object") : error) +
                                               ". Send a JSON object and call " + exposed + " again.");
        if (nulls) detail::drop_null_optionals(*args, schema);
        if (check) {
            const std::vector<std::string> problems = detail::argument_checker().check(schema, *args);
            if (!problems.empty()) {
                std::string text = exposed + ": invalid arguments: ";
                for (std::size_t i = 0; i != problems.size(); ++i) text += (i ? "; " : "") + problems[i];
                return detail::mcp_tool_result(tool_status::invalid_arguments,
                                               text + ". Fix the arguments and call " + exposed + " again.");
            }
        }
        // The agent's stop (the call's timeout, agent::cancel) cancels the request on the server.
        std::atomic<bool> cancelled{false};
        const std::stop_callback on_stop(stop, [&cancelled] { cancelled.store(true); });
        request_options options;
        options.timeout = timeout;
        options.cancel = &cancelled;
        outcome<call_result> r = server.call_tool(original, detail::to_json(*args), options);
        if (!r) {  // the connection's failure, with its kind (a timeout is transient: retried for an idempotent tool)
            tool_result out = detail::mcp_tool_result(tool_status::tool_error, exposed + " failed: " + r.error().message);
            out.failure = r.error().kind;
            return out;
        }
        if (r->is_error) return detail::mcp_tool_result(tool_status::tool_error, exposed + " failed: " + r->text);
        return detail::mcp_tool_result(tool_status::ok, r->text.empty() && !r->structured_content.empty()
                                                            ? r->structured_content
                                                            : r->text);
    }

    std::vector<std::shared_ptr<entry>> entries_;
};

} // namespace agentry::mcp

#endif
