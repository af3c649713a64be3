// SPDX-License-Identifier: BSL-1.0
#ifndef AGENTRY_OPENAPI_TOOLSET_HPP
#define AGENTRY_OPENAPI_TOOLSET_HPP

// agentry::openapi::toolset: one tool per operation of an OpenAPI 3.0 or 3.1 document (JSON
// text; YAML is not read), called over an agentry::transport, next to an agent's registry:
//
//   agentry::openapi::toolset_options o;
//   o.credentials["api_key"] = key;                               // by security scheme name
//   auto api = agentry::openapi::toolset::load(document, agentry::curl_transport{}, o);
//   if (!api) return fail(api.error().message);
//   if (auto r = agent.add_tools(*api); !r) return fail(r.error().message);
//
// A tool's arguments are the operation's path, query and header parameters (the path item's
// and the operation's, the operation's winning) and, for a JSON request body, `body`. Local
// $refs are inlined; an operation whose refs are external, dangling, cyclic or too large is
// left out naming the reason (or the tools are refused, by toolset_options::unsupported), as
// is one whose arguments' schema the provider's dialect cannot express. Names: the
// operationId with each character other than [A-Za-z0-9_-] as '_', at most 64 bytes, else the
// method and path; a clash gets "_2", "_3", ...; a name the agent already has gets the prefix.
// Arguments are checked against the schema (json::schema_checker) before any request. GET,
// HEAD and OPTIONS are read_only and idempotent; any other method destructive and needs
// approval (toolset_options::method_policies, policy_for). docs/openapi.md has the details.

#include <agentry/detail/text.hpp>
#include <agentry/json/schema_check.hpp>
#include <agentry/json/value.hpp>
#include <agentry/loop/dynamic_tools.hpp>
#include <agentry/mcp/detail/argument_check.hpp>
#include <agentry/mcp/detail/tool_schema.hpp>
#include <agentry/mcp/toolset.hpp>
#include <agentry/openapi/detail/request.hpp>
#include <agentry/openapi/detail/resolve.hpp>
#include <agentry/policy/tool_policy.hpp>
#include <agentry/stop_token.hpp>
#include <agentry/transport/detail/url.hpp>
#include <agentry/transport/transport.hpp>

#include <atomic>
#include <chrono>
#include <cstddef>
#include <cstdio>
#include <functional>
#include <map>
#include <memory>
#include <optional>
#include <set>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace agentry::openapi {

/// What becomes of an operation that cannot be a tool: left out and reported, or the tools refused.
using unsupported_schema = mcp::unsupported_schema;

/// One operation of the document, as policy_for and operations() see it.
struct operation_info {
    /// Upper case: "GET", "POST", ...
    std::string method;
    /// As in the document: "/pets/{petId}".
    std::string path;
    std::string operation_id;
    /// The tool's name (before a prefix the agent may need).
    std::string name;
    /// The operation's first tag; empty when it has none.
    std::string category;
};

struct toolset_options {
    /// The base URL; empty: the document's first server, its variables substituted.
    std::string server_url{};
    /// Values of the server's variables; a variable not given takes its default.
    std::map<std::string, std::string, std::less<>> server_variables{};
    /// Secrets by security scheme name: an apiKey's key, an http bearer's token.
    std::map<std::string, std::string, std::less<>> credentials{};
    /// Put before a name the agent already has; empty: info.title with each character other
    /// than a letter, digit or underscore as "_", then "_".
    std::string prefix{};
    unsupported_schema unsupported = unsupported_schema::leave_out;
    /// How the model's arguments are read (size, depth).
    json::read_options arguments{};
    /// The operations left out, one message each; empty: written to standard error.
    std::function<void(std::string_view message)> report{};
    /// The policy of every operation of a method ("POST"), in place of the default.
    std::map<std::string, tool_policy, std::less<>> method_policies{};
    /// The policy of one operation; a value replaces method_policies and the default.
    std::function<std::optional<tool_policy>(const operation_info&)> policy_for{};
    /// The largest response body read, in bytes; a larger one is a tool error.
    std::size_t max_response = std::size_t(1) << 20;
    /// The bytes of an error response's body quoted to the model.
    std::size_t max_error_excerpt = 300;
    /// One request, connecting included.
    std::chrono::milliseconds call_timeout{30000};
    /// Bounds on an operation's arguments' schema with its $refs inlined.
    std::size_t max_schema_nodes = 20000;
    std::size_t max_schema_depth = 64;
};

namespace detail {

struct security_scheme {
    enum class kind : unsigned char { api_key, bearer, other } type = kind::other;
    /// apiKey: "header", "query" or "cookie".
    std::string in;
    /// apiKey: the header, query parameter or cookie name.
    std::string key;
};

/// What the calls of one document share.
struct api {
    std::function<transport_result(const http_request&)> send;
    std::string base_url;
    std::map<std::string, security_scheme, std::less<>> schemes;
    toolset_options options;
};

struct operation {
    operation_info info;
    std::string description;
    /// Why the operation cannot be a tool; empty when it can.
    std::string why;
    json::value schema;
    std::shared_ptr<const json::schema_checker> checker;
    std::vector<parameter> parameters;
    /// The body's media type; empty: no body.
    std::string media_type;
    /// The alternatives of its security requirement, each a list of scheme names; an empty
    /// list among them: none needed.
    std::vector<std::vector<std::string>> security;
};

inline bool name_char(char c) noexcept {
    return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '_' || c == '-';
}

/// `text` with each character other than [A-Za-z0-9_-] as '_', runs of '_' made one when
/// `squeeze`, at most 64 bytes, starting with a letter or '_'.
inline std::string tool_name_of(std::string_view text, bool squeeze) {
    std::string out;
    for (char c : text) {
        const char k = name_char(c) ? c : '_';
        if (squeeze && k == '_' && !out.empty() && out.back() == '_') continue;
        out += k;
    }
    if (squeeze)
        while (!out.empty() && out.back() == '_') out.pop_back();
    if (out.empty() || out[0] == '-' || (out[0] >= '0' && out[0] <= '9')) out.insert(out.begin(), '_');
    if (out.size() > 64) out.resize(64);
    return out;
}

/// `base`, or with "_2", "_3", ... when `used` has it; the result is added to `used`.
inline std::string unique_name(std::string base, std::set<std::string, std::less<>>& used) {
    std::string name = base;
    for (int n = 2; used.count(name); ++n) {
        const std::string suffix = "_" + std::to_string(n);
        name = base.substr(0, 64 - suffix.size()) + suffix;
    }
    used.insert(name);
    return name;
}

/// The default policy of a method: read_only and idempotent for GET, HEAD and OPTIONS;
/// destructive with approval otherwise.
inline tool_policy method_policy(std::string_view method) {
    tool_policy p;
    if (method == "GET" || method == "HEAD" || method == "OPTIONS") {
        p.level = permission::read_only;
        p.idempotent = true;
    } else {
        p.level = permission::destructive;
        p.needs_approval = true;
    }
    return p;
}

inline std::string upper(std::string_view s) {
    std::string out(s);
    for (char& c : out)
        if (c >= 'a' && c <= 'z') c = char(c - 'a' + 'A');
    return out;
}

/// The JSON media type of a request body's content ("application/json" first, else one
/// ending in "+json"); empty when none.
inline std::string json_media_type(const json::value& content) {
    std::string found;
    for (const json::member& m : content.members()) {
        std::string type = m.key.substr(0, m.key.find(';'));
        while (!type.empty() && type.back() == ' ') type.pop_back();
        for (char& c : type)
            if (c >= 'A' && c <= 'Z') c = char(c - 'A' + 'a');
        if (type == "application/json") return m.key;
        if (found.empty() && type.size() > 5 && type.ends_with("+json")) found = m.key;
    }
    return found;
}

inline std::string text_of(const json::value& v, std::string_view key) {
    const json::value* s = v.find(key);
    return s && s->is_string() ? s->as_string() : std::string();
}

/// The requirement alternatives of a `security` array.
inline std::vector<std::vector<std::string>> requirements(const json::value& security) {
    std::vector<std::vector<std::string>> out;
    for (const json::value& r : security.items()) {
        std::vector<std::string> names;
        for (const json::member& m : r.members()) names.push_back(m.key);
        out.push_back(std::move(names));
    }
    return out;
}

/// Builds the operation `method` `path` of `doc`: its arguments' schema, parameters, body and
/// security, or `why` it cannot be a tool.
inline void build_operation(operation& op, const json::value& doc, const json::value& item, const json::value& raw,
                            ref_resolver& refs) {
    std::string why;
    const auto resolved = [&](const json::value* v) -> std::optional<json::value> {
        if (!v) return json::value();
        return refs.resolve(*v, why);
    };
    std::optional<json::value> shared = resolved(item.find("parameters"));
    std::optional<json::value> own = shared ? resolved(raw.find("parameters")) : std::nullopt;
    std::optional<json::value> body = own ? resolved(raw.find("requestBody")) : std::nullopt;
    if (!body) {
        op.why = std::move(why);
        return;
    }
    // The operation's parameters replace the path item's of the same name and location.
    std::vector<const json::value*> merged;
    for (const json::value* list : {&*shared, &*own})
        for (const json::value& p : list->items()) {
            if (!p.is_object()) continue;
            std::erase_if(merged, [&](const json::value* q) {
                return text_of(*q, "name") == text_of(p, "name") && text_of(*q, "in") == text_of(p, "in");
            });
            merged.push_back(&p);
        }
    json::value properties = json::value::object();
    json::value required = json::value::array();
    for (const json::value* p : merged) {
        const std::string name = text_of(*p, "name");
        const std::string in = text_of(*p, "in");
        const json::value* needed = p->find("required");
        const bool must = in == "path" || (needed && needed->as_bool());
        if (in == "header" && (agentry::detail::equal_ignoring_case(name, "accept") ||
                               agentry::detail::equal_ignoring_case(name, "content-type") ||
                               agentry::detail::equal_ignoring_case(name, "authorization")))
            continue;  // the specification says these are ignored
        if (in != "path" && in != "query" && in != "header") {
            if (!must) continue;
            op.why = "its required " + in + " parameter \"" + name + "\" is not supported";
            return;
        }
        const json::value* schema = p->find("schema");
        if (!schema) {
            op.why = "its parameter \"" + name + "\" has no schema (\"content\" is not supported)";
            return;
        }
        if (properties.find(name) || name == "body") {
            op.why = "two of its parameters (or a parameter and the body) are named \"" + name + "\"";
            return;
        }
        json::value s = *schema;
        if (const std::string d = text_of(*p, "description"); !d.empty()) s.set("description", d);
        properties.set(name, std::move(s));
        if (must) required.push_back(name);
        parameter param;
        param.name = name;
        param.in = in == "path" ? location::path : in == "query" ? location::query : location::header;
        if (const json::value* e = p->find("explode"); e && e->is_bool()) param.explode = e->as_bool();
        op.parameters.push_back(std::move(param));
    }
    if (const json::value* content = body->find("content"); content && content->is_object()) {
        op.media_type = json_media_type(*content);
        const json::value* needed = body->find("required");
        if (op.media_type.empty()) {
            if (needed && needed->as_bool()) {
                op.why = "its request body has no JSON media type (only \"" +
                         (content->members().empty() ? std::string() : content->members()[0].key) + "\")";
                return;
            }
        } else {
            const json::value* s = content->find(op.media_type)->find("schema");
            json::value b = s ? *s : json::value::object();
            if (const std::string d = text_of(*body, "description"); !d.empty() && b.is_object() && !b.find("description"))
                b.set("description", d);
            properties.set("body", std::move(b));
            if (needed && needed->as_bool()) required.push_back("body");
        }
    }
    op.schema = json::value::object();
    op.schema.set("type", "object");
    op.schema.set("properties", std::move(properties));
    if (!required.items().empty()) op.schema.set("required", std::move(required));
    normalize_schema(op.schema);
    json::schema_check_options check;
    check.max_errors = 16;
    auto checker = std::make_shared<const json::schema_checker>(op.schema, check);
    if (const auto* p = mcp::detail::broken_pattern(*checker, checker->schema())) {
        op.why = "its pattern \"" + agentry::detail::printable(p->source, 100) +
                 "\" is not a valid ECMA-262 regular expression (" + p->error + ")";
        return;
    }
    op.checker = std::move(checker);
    const json::value* security = raw.find("security");
    if (!security) security = doc.find("security");
    if (security && security->is_array()) op.security = requirements(*security);
}

/// The base URL from the first server of `doc` (or `o.server_url`), its variables substituted;
/// empty with `why` set when it cannot be made.
inline std::string base_url(const json::value& doc, const toolset_options& o, std::string& why) {
    std::string url = o.server_url;
    const json::value* variables = nullptr;
    if (url.empty()) {
        const json::value* servers = doc.find("servers");
        if (servers && servers->is_array() && !servers->items().empty()) {
            url = text_of(servers->items()[0], "url");
            variables = servers->items()[0].find("variables");
        }
    }
    std::string out;
    std::size_t at = 0;
    while (at < url.size()) {
        const std::size_t open = url.find('{', at);
        const std::size_t close = open == std::string::npos ? open : url.find('}', open);
        if (close == std::string::npos) break;
        out.append(url, at, open - at);
        const std::string name = url.substr(open + 1, close - open - 1);
        if (auto given = o.server_variables.find(name); given != o.server_variables.end()) {
            out += given->second;
        } else if (const json::value* v = variables ? variables->find(name) : nullptr; v && v->find("default")) {
            out += text_of(*v, "default");
        } else {
            why = "the server variable \"" + name + "\" has no default; give it in toolset_options::server_variables";
            return {};
        }
        at = close + 1;
    }
    out.append(url, at < url.size() ? at : url.size());
    if (out.find("://") == std::string::npos) {
        why = "the server URL \"" + agentry::detail::printable(out.empty() ? "/" : out, 200) +
              "\" is not absolute; give one in toolset_options::server_url";
        return {};
    }
    while (!out.empty() && out.back() == '/') out.pop_back();
    return out;
}

inline tool_result result_of(tool_status status, std::string content, std::optional<failure_kind> kind = std::nullopt) {
    tool_result out = mcp::detail::mcp_tool_result(status, std::move(content));
    out.failure = kind;
    return out;
}

} // namespace detail

class toolset {
public:
    /// Reads `document` (OpenAPI 3.0.x or 3.1.x, JSON) and keeps its operations, called over
    /// `http`; the failure when it is not such a document or has no usable server URL. An
    /// operation that cannot be a tool is reported when the tools join an agent.
    template <transport T>
    static outcome<toolset> load(std::string_view document, T http, toolset_options options = {}) {
        auto a = std::make_shared<detail::api>();
        a->send = [t = std::make_shared<T>(std::move(http))](const http_request& r) { return t->send(r); };
        a->options = std::move(options);
        return read(document, std::move(a));
    }

    /// The operations read, those that cannot be tools included.
    std::vector<operation_info> operations() const {
        std::vector<operation_info> out;
        for (const auto& op : ops_) out.push_back(op->info);
        return out;
    }
    std::size_t size() const noexcept { return ops_.size(); }

    /// The first tag of the operation whose tool is named `name` (with the prefix or not);
    /// empty when it has none or there is no such tool.
    std::string_view category_of(std::string_view name) const noexcept {
        for (const auto& op : ops_)
            if (op->info.name == name ||
                (name.size() == prefix_.size() + op->info.name.size() && name.starts_with(prefix_) &&
                 name.ends_with(op->info.name)))
                return op->info.category;
        return {};
    }

    /// The source agent::add_tools takes.
    operator dynamic_tool_source() const {
        return [api = api_, ops = ops_, prefix = prefix_](const dynamic_tools_target& target) {
            return resolve(api, ops, prefix, target);
        };
    }

private:
    using operations_list = std::vector<std::shared_ptr<const detail::operation>>;

    static outcome<toolset> read(std::string_view document, std::shared_ptr<detail::api> a) {
        const toolset_options& o = a->options;
        json::read_options read;
        read.max_size = static_cast<std::size_t>(-1);
        read.max_depth = 512;
        const json::parsed doc = json::parse(document, read);
        if (!doc.ok() || !doc.value.is_object())
            return fail(failure_kind::invalid_input,
                        "agentry: openapi::toolset::load: the document is not a JSON object" +
                            (doc.ok() ? std::string() : ": " + mcp::detail::join_read_errors(doc.errors)) +
                            " (YAML is not read; convert it to JSON)");
        const std::string version = detail::text_of(doc.value, "openapi");
        if (!version.starts_with("3.0") && !version.starts_with("3.1"))
            return fail(failure_kind::invalid_input, "agentry: openapi::toolset::load: the document's \"openapi\" is \"" +
                                                         agentry::detail::printable(version, 40) +
                                                         "\"; only OpenAPI 3.0 and 3.1 are read");
        std::string why;
        a->base_url = detail::base_url(doc.value, o, why);
        if (!why.empty()) return fail(failure_kind::invalid_input, "agentry: openapi::toolset::load: " + why);
        if (const json::value* c = doc.value.find("components"))
            if (const json::value* s = c->find("securitySchemes"); s && s->is_object())
                for (const json::member& m : s->members()) {
                    const json::value* def = &m.value;
                    if (const json::value* r = m.value.find("$ref"); r && r->is_string())
                        def = detail::follow_pointer(doc.value, r->as_string());
                    if (!def) continue;
                    detail::security_scheme scheme;
                    const std::string type = detail::text_of(*def, "type");
                    if (type == "apiKey") {
                        scheme.type = detail::security_scheme::kind::api_key;
                        scheme.in = detail::text_of(*def, "in");
                        scheme.key = detail::text_of(*def, "name");
                    } else if (type == "http" &&
                               agentry::detail::equal_ignoring_case(detail::text_of(*def, "scheme"), "bearer")) {
                        scheme.type = detail::security_scheme::kind::bearer;
                    }
                    a->schemes[m.key] = std::move(scheme);
                }
        toolset out;
        out.api_ = a;
        out.prefix_ = o.prefix;
        if (out.prefix_.empty()) {
            const json::value* info = doc.value.find("info");
            const std::string title = info ? detail::text_of(*info, "title") : std::string();
            out.prefix_ = mcp::detail::prefix_of(title.empty() ? "api" : title);
        }
        detail::ref_resolver refs(doc.value, version.starts_with("3.1"), o.max_schema_nodes, o.max_schema_depth);
        std::set<std::string, std::less<>> used;
        const json::value* paths = doc.value.find("paths");
        if (!paths) return out;
        for (const json::member& p : paths->members()) {
            const json::value* item = &p.value;
            if (const json::value* r = item->find("$ref"); r && r->is_string()) {
                item = detail::follow_pointer(doc.value, r->as_string());
                if (!item) continue;
            }
            for (const json::member& m : item->members()) {
                static constexpr std::string_view methods[] = {"get",     "put",  "post",  "delete",
                                                               "options", "head", "patch", "trace"};
                bool known = false;
                for (std::string_view k : methods) known = known || m.key == k;
                if (!known || !m.value.is_object()) continue;
                auto op = std::make_shared<detail::operation>();
                op->info.method = detail::upper(m.key);
                op->info.path = p.key;
                op->info.operation_id = detail::text_of(m.value, "operationId");
                op->info.name = detail::unique_name(
                    op->info.operation_id.empty() ? detail::tool_name_of(m.key + "_" + p.key, true)
                                                  : detail::tool_name_of(op->info.operation_id, false),
                    used);
                if (const json::value* tags = m.value.find("tags"); tags && !tags->items().empty())
                    op->info.category = tags->items()[0].as_string();
                const std::string summary = detail::text_of(m.value, "summary");
                const std::string description = detail::text_of(m.value, "description");
                op->description = summary.empty() ? description
                                  : description.empty() || description == summary ? summary
                                                                                   : summary + "\n\n" + description;
                if (op->description.empty()) op->description = op->info.method + " " + p.key;
                detail::build_operation(*op, doc.value, *item, m.value, refs);
                out.ops_.push_back(std::move(op));
            }
        }
        return out;
    }

    static outcome<std::vector<dynamic_tool>> resolve(const std::shared_ptr<const detail::api>& a,
                                                      const operations_list& ops, const std::string& prefix,
                                                      const dynamic_tools_target& target) {
        const toolset_options& o = a->options;
        std::vector<dynamic_tool> out;
        const auto taken = [&](std::string_view name) {
            if (target.taken && target.taken(name)) return true;
            for (const dynamic_tool& t : out)
                if (t.name == name) return true;
            return false;
        };
        for (const auto& op : ops) {
            const std::string where = "agentry: openapi::toolset: operation " + op->info.method + " " +
                                      agentry::detail::printable(op->info.path, 200) + " (\"" + op->info.name + "\"): ";
            std::string why = op->why;
            std::optional<json::value> converted;
            if (why.empty() && !(converted = mcp::detail::schema_converter(target.kind, target.rules).convert(op->schema, why)))
                why = "its arguments' schema " + why;
            std::string name = op->info.name;
            if (why.empty() && taken(name)) name = prefix + name;
            if (why.empty() && taken(name)) why = "its name is taken even with the prefix \"" + prefix + "\"";
            if (why.empty() && !mcp::detail::valid_tool_name(target.kind, name))
                why = "the name \"" + agentry::detail::printable(name, 130) + "\" is not a valid tool name for the " +
                      std::string(target.rules.name) + " dialect";
            std::optional<tool_policy> policy;
            if (why.empty()) {
                if (o.policy_for) policy = o.policy_for(op->info);
                if (!policy)
                    if (auto m = o.method_policies.find(op->info.method); m != o.method_policies.end()) policy = m->second;
                if (!policy) policy = detail::method_policy(op->info.method);
                if (const std::string problem = agentry::detail::dynamic_policy_problem(*policy); !problem.empty())
                    return fail(failure_kind::invalid_input, where + problem + "; the tools were refused");
                why = agentry::detail::above_ceiling(policy, target.max_permission);
            }
            if (!why.empty()) {
                if (o.unsupported == unsupported_schema::refuse)
                    return fail(failure_kind::invalid_input,
                                where + why + "; the tools were refused (toolset_options::unsupported is refuse; "
                                              "leave_out drops such an operation instead)");
                const std::string message = where + why + "; the operation was left out";
                if (o.report) o.report(message);
                else std::fprintf(stderr, "%s\n", message.c_str());
                continue;
            }
            dynamic_tool t;
            t.name = name;
            t.policy = policy;
            t.category = op->info.category;
            t.definition = mcp::detail::dynamic_definition(target.kind, name, op->description, *converted);
            t.call = [a, op, name, nulls = target.rules.all_required](std::string_view arguments, const call_scope& scope) {
                return call(*a, *op, name, nulls, arguments, scope);
            };
            out.push_back(std::move(t));
        }
        return out;
    }

    static tool_result call(const detail::api& a, const detail::operation& op, const std::string& exposed, bool nulls,
                            std::string_view arguments, const call_scope& scope) {
        const toolset_options& o = a.options;
        json::parsed args = json::parse(arguments.empty() ? "{}" : arguments, o.arguments);
        if (!args.ok() || !args.value.is_object())
            return detail::result_of(tool_status::invalid_arguments,
                                     exposed + ": invalid arguments: " +
                                         (args.ok() ? std::string("not a JSON object")
                                                    : mcp::detail::join_read_errors(args.errors)) +
                                         ". Send a JSON object and call " + exposed + " again.");
        if (nulls) mcp::detail::drop_null_optionals(args.value, op.schema);
        if (const std::vector<json::read_error> problems = (*op.checker)(args.value); !problems.empty())
            return detail::result_of(tool_status::invalid_arguments,
                                     exposed + ": invalid arguments: " + mcp::detail::join_read_errors(problems) +
                                         ". Fix the arguments and call " + exposed + " again.");
        http_request request;
        request.method = op.info.method;
        request.url = a.base_url;
        std::string missing;
        if (!detail::fill_path(request.url, op.info.path, args.value, missing))
            return detail::result_of(tool_status::invalid_arguments,
                                     exposed + ": invalid arguments: the path parameter \"" + missing +
                                         "\" is missing. Fix the arguments and call " + exposed + " again.");
        std::string query;
        for (const detail::parameter& p : op.parameters) {
            const json::value* v = args.value.find(p.name);
            if (!v || v->is_null()) continue;
            if (p.in == detail::location::query) detail::query_parameter(query, p, *v);
            else if (p.in == detail::location::header) request.headers.push_back({p.name, detail::joined(*v)});
        }
        // The first alternative of the security requirement whose schemes all have credentials.
        const std::vector<std::string>* chosen = nullptr;
        for (const std::vector<std::string>& alternative : op.security) {
            bool usable = true;
            for (const std::string& name : alternative) {
                const auto s = a.schemes.find(name);
                usable = usable && s != a.schemes.end() && s->second.type != detail::security_scheme::kind::other &&
                         o.credentials.count(name);
            }
            if (usable) {
                chosen = &alternative;
                break;
            }
        }
        if (!op.security.empty() && !chosen) {
            std::string names;
            for (const std::vector<std::string>& alternative : op.security)
                for (const std::string& name : alternative) names += (names.empty() ? "\"" : ", \"") + name + "\"";
            return detail::result_of(tool_status::tool_error,
                                     "agentry: openapi: " + exposed + " needs credentials of the security scheme " +
                                         names + " (apiKey or http bearer); give them in toolset_options::credentials",
                                     failure_kind::permission);
        }
        std::string cookie;
        if (chosen)
            for (const std::string& name : *chosen) {
                const detail::security_scheme& s = a.schemes.find(name)->second;
                const std::string& secret = o.credentials.find(name)->second;
                if (s.type == detail::security_scheme::kind::bearer) request.headers.push_back({"Authorization", "Bearer " + secret});
                else if (s.in == "header") request.headers.push_back({s.key, secret});
                else if (s.in == "query") detail::add_query(query, s.key, secret);
                else if (s.in == "cookie") cookie += (cookie.empty() ? "" : "; ") + s.key + "=" + secret;
            }
        if (!cookie.empty()) request.headers.push_back({"Cookie", cookie});
        request.url += query;
        if (chosen && !chosen->empty()) {
            const agentry::detail::url_parts parts = agentry::detail::split_url(request.url);
            if (agentry::detail::equal_ignoring_case(parts.scheme, "http") && !agentry::detail::is_loopback_host(parts.host))
                return detail::result_of(tool_status::tool_error,
                                         "agentry: openapi: " + exposed + ": refused to send a credential over plain http:// to \"" +
                                             agentry::detail::printable(parts.host, 100) +
                                             "\", which is not a loopback host; use an https:// server "
                                             "(toolset_options::server_url)",
                                         failure_kind::permission);
        }
        request.headers.push_back({"Accept", "application/json"});
        if (const json::value* body = args.value.find("body"); body && !op.media_type.empty()) {
            request.headers.push_back({"Content-Type", op.media_type});
            request.body = json::to_text(*body);
        }
        request.total_timeout = o.call_timeout;
        request.max_body = o.max_response;
        std::atomic<bool> cancelled{false};
        const agentry::stop_callback on_stop(scope.stop, [&cancelled] { cancelled.store(true); });
        request.cancel = &cancelled;
        const transport_result r = a.send(request);
        if (!r.ok()) {
            if (r.error.kind == transport_error_kind::too_large)
                return detail::result_of(tool_status::tool_error,
                                         exposed + " failed: the response is larger than " +
                                             std::to_string(o.max_response) + " bytes (toolset_options::max_response)",
                                         failure_kind::permanent);
            const bool again = r.error.kind == transport_error_kind::timeout || r.error.kind == transport_error_kind::connect ||
                               r.error.kind == transport_error_kind::reset;
            return detail::result_of(tool_status::tool_error, exposed + " failed: " + r.error.message,
                                     again ? failure_kind::transient : failure_kind::permanent);
        }
        const int status = r.response.status;
        if (status >= 200 && status < 300)
            return detail::result_of(tool_status::ok, r.response.body.empty()
                                                          ? "HTTP " + std::to_string(status) + " (no content)"
                                                          : r.response.body);
        const failure_kind kind = status == 429 || status >= 500 ? failure_kind::transient
                                  : status == 404                ? failure_kind::not_found
                                  : status == 401 || status == 403 ? failure_kind::permission
                                                                   : failure_kind::permanent;
        return detail::result_of(tool_status::tool_error,
                                 exposed + " failed: HTTP " + std::to_string(status) + ": " +
                                     agentry::detail::printable(r.response.body, o.max_error_excerpt),
                                 kind);
    }

    std::shared_ptr<const detail::api> api_;
    operations_list ops_;
    std::string prefix_;
};

} // namespace agentry::openapi

#endif
