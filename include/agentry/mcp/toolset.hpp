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
// has gets the prefix. Before each call, the model's arguments are read by the typed reader's
// rules (json::parse with toolset_options::arguments: size, depth, UTF-8, no key twice) and
// checked against the server's inputSchema by json::schema_checker (json/schema_check.hpp:
// pattern and format included); arguments that fail either never reach the server, and the
// model is told what to fix. A tool whose schema has a pattern that is not a valid ECMA-262
// regular expression is left out (or refused) when arguments are checked.
//
// Each tool gets a tool_policy (toolset_options::policy, policy_for, and, from a trusted
// server, its annotations), which the agent applies as to a registry tool's: approval, rate
// limit, timeout, retries of an idempotent tool, the permission ceiling. A tool above
// loop_config::max_permission that needs no approval is left out or refused like an
// unsupported schema.
//
// A result whose content holds only text blocks reaches the model as their text (or the
// structuredContent when there is no text); one with an image, audio or resource block as the
// content array itself, marked as MCP content (message::content_blocks), which each provider
// sends in its own shape or refuses (docs/providers.md).

#include <agentry/detail/chrono.hpp>
#include <agentry/detail/text.hpp>
#include <agentry/json/schema_check.hpp>
#include <agentry/json/value.hpp>
#include <agentry/loop/dynamic_tools.hpp>
#include <agentry/mcp/client.hpp>
#include <agentry/mcp/detail/argument_check.hpp>
#include <agentry/mcp/detail/tool_schema.hpp>
#include <agentry/policy/tool_policy.hpp>
#include <agentry/stop_token.hpp>

#include <atomic>
#include <cstdio>
#include <functional>
#include <memory>
#include <optional>
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
    /// How the model's arguments are read (size, depth, errors listed), whether checked or not.
    json::read_options arguments{};
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
                                      const json::value& schema) {
    std::string out;
    const bool openai = kind == dialect_kind::openai || kind == dialect_kind::openai_strict;
    const bool responses = kind == dialect_kind::openai_responses || kind == dialect_kind::openai_responses_strict;
    out += openai ? R"({"type":"function","function":{"name":)" : responses ? R"({"type":"function","name":)" : R"({"name":)";
    write_string(out, name);
    out += R"(,"description":)";
    write_string(out, description);
    const json::value* props = schema.find("properties");
    const bool empty = !props || props->members().empty();
    if (!(kind == dialect_kind::gemini && empty)) {
        if (kind == dialect_kind::anthropic || kind == dialect_kind::anthropic_strict) out += R"(,"input_schema":)";
        else if (kind == dialect_kind::mcp) out += R"(,"inputSchema":)";
        else out += R"(,"parameters":)";
        json::write(out, schema);
    }
    if (kind == dialect_kind::openai_strict) out += R"(,"strict":true}})";
    else if (kind == dialect_kind::openai) out += "}}";
    else if (kind == dialect_kind::anthropic_strict || kind == dialect_kind::openai_responses_strict)
        out += R"(,"strict":true})";
    else if (kind == dialect_kind::openai_responses) out += R"(,"strict":false})";
    else out += '}';
    return out;
}

/// The model's arguments as the server should get them: JSON null for an optional property
/// (what a dialect with every property required sends for "absent") is left out.
inline void drop_null_optionals(json::value& args, const json::value& schema) {
    const json::value* required = schema.find("required");
    std::erase_if(args.members(), [&](const json::member& m) {
        if (!m.value.is_null()) return false;
        if (required)
            for (const json::value& r : required->items())
                if (r.is_string() && r.as_string() == m.key) return false;
        return true;
    });
}

/// A text the client wrote from a message it read (tool_info's schema and annotations): read
/// again without a size limit, as deep as a message may be.
inline json::parsed reread(std::string_view text) {
    json::read_options options;
    options.max_size = static_cast<std::size_t>(-1);
    options.max_depth = max_message_depth;
    return json::parse(text, options);
}

/// The policy of `tool` by `options`: policy_for's answer, else `policy` with, from a trusted
/// server, the annotations' hints (on a destructive policy when there is none).
inline std::optional<tool_policy> policy_of_tool(const toolset_options& options, const tool_info& tool) {
    if (options.policy_for)
        if (std::optional<tool_policy> own = options.policy_for(tool)) return own;
    std::optional<tool_policy> out = options.policy;
    if (!options.trust_annotations || tool.annotations.empty()) return out;
    const json::parsed hints = reread(tool.annotations);
    if (!hints.ok() || !hints.value.is_object()) return out;
    const auto hint = [&](std::string_view key) -> std::optional<bool> {
        const json::value* v = hints.value.find(key);
        if (!v || !v->is_bool()) return std::nullopt;
        return v->as_bool();
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
                json::parsed schema = detail::reread(tool.input_schema.empty() ? "{}" : tool.input_schema);
                std::string why;
                std::optional<json::value> converted;
                std::shared_ptr<const json::schema_checker> checker;
                if (!schema.ok() || !schema.value.is_object()) why = "its inputSchema is not a JSON object";
                else if (!(converted = detail::schema_converter(target.kind, target.rules).convert(schema.value, why)))
                    why = "its inputSchema " + why;
                if (why.empty() && o.check_arguments) {
                    json::schema_check_options check;
                    check.max_errors = 16;
                    checker = std::make_shared<const json::schema_checker>(schema.value, check);
                    if (const auto* p = detail::broken_pattern(*checker, checker->schema()))
                        why = "its inputSchema's pattern \"" + agentry::detail::printable(p->source, 100) +
                              "\" is not a valid ECMA-262 regular expression (" + p->error +
                              "), so arguments cannot be checked against it";
                }
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
                auto schema_value = std::make_shared<const json::value>(std::move(schema.value));
                t.call = [server = e->server, original = tool.name, exposed = name, schema = std::move(schema_value),
                          checker = std::move(checker), read = o.arguments, timeout = o.call_timeout,
                          nulls = target.rules.all_required](std::string_view arguments, const call_scope& scope) {
                    return call(*server, original, exposed, *schema, checker.get(), read, timeout, nulls, arguments,
                                scope);
                };
                out.push_back(std::move(t));
            }
        }
        return out;
    }

    // `checker`: null when the arguments are not checked.
    static tool_result call(client& server, const std::string& original, const std::string& exposed,
                            const json::value& schema, const json::schema_checker* checker,
                            const json::read_options& read, std::chrono::milliseconds timeout, bool nulls,
                            std::string_view arguments, const call_scope& scope) {
        json::parsed args = json::parse(arguments.empty() ? "{}" : arguments, read);
        if (!args.ok() || !args.value.is_object())
            return detail::mcp_tool_result(tool_status::invalid_arguments,
                                           exposed + ": invalid arguments: " +
                                               (args.ok() ? std::string("not a JSON object")
                                                          : detail::join_read_errors(args.errors)) +
                                               ". Send a JSON object and call " + exposed + " again.");
        if (nulls) detail::drop_null_optionals(args.value, schema);
        if (checker) {
            const std::vector<json::read_error> problems = (*checker)(args.value);
            if (!problems.empty())
                return detail::mcp_tool_result(tool_status::invalid_arguments,
                                               exposed + ": invalid arguments: " + detail::join_read_errors(problems) +
                                                   ". Fix the arguments and call " + exposed + " again.");
        }
        // The agent's stop (the call's timeout, agent::cancel) cancels the request on the server.
        std::atomic<bool> cancelled{false};
        const agentry::stop_callback on_stop(scope.stop, [&cancelled] { cancelled.store(true); });
        request_options options;
        options.timeout = timeout;
        options.cancel = &cancelled;
        options.trace = scope.trace;
        outcome<call_result> r = server.call_tool(original, args.value, options);
        if (!r) {  // the connection's failure, with its kind (a timeout is transient: retried for an idempotent tool)
            tool_result out = detail::mcp_tool_result(tool_status::tool_error, exposed + " failed: " + r.error().message);
            out.failure = r.error().kind;
            return out;
        }
        if (r->is_error) return detail::mcp_tool_result(tool_status::tool_error, exposed + " failed: " + r->text);
        if (r->media) {  // images and the like go to the model as content blocks
            tool_result out = detail::mcp_tool_result(tool_status::ok, std::move(r->content));
            out.content_blocks = true;
            return out;
        }
        return detail::mcp_tool_result(tool_status::ok, r->text.empty() && !r->structured_content.empty()
                                                            ? r->structured_content
                                                            : r->text);
    }

    std::vector<std::shared_ptr<entry>> entries_;
};

} // namespace agentry::mcp

#endif
