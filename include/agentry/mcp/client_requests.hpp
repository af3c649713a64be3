// SPDX-License-Identifier: BSL-1.0
#ifndef AGENTRY_MCP_CLIENT_REQUESTS_HPP
#define AGENTRY_MCP_CLIENT_REQUESTS_HPP

// What mcp::client answers to the requests of its server: ping with an empty result;
// elicitation/create (form mode) and sampling/createMessage through the hooks of
// client_options (on_elicit, on_sample), declared in initialize only when set; -32601 to
// anything else. A hook that throws becomes a JSON-RPC error answer (-32603 with its what());
// a sampling hook may also answer an error of its own (sampling_reply::fail).

#include <agentry/detail/text.hpp>
#include <agentry/json/value.hpp>
#include <agentry/json/writer.hpp>
#include <agentry/mcp/elicit_action.hpp>

#include <exception>
#include <functional>
#include <new>
#include <optional>
#include <string>
#include <string_view>
#include <utility>

namespace agentry::mcp {

/// The answer to an elicitation/create form.
struct elicitation_reply {
    elicit_action action = elicit_action::decline;
    /// For accept: the submitted values, a JSON object's text ("{}" when empty).
    std::string content{};

    static elicitation_reply accept(std::string content) { return {elicit_action::accept, std::move(content)}; }
    static elicitation_reply decline() { return {elicit_action::decline, {}}; }
    static elicitation_reply cancel() { return {elicit_action::cancel, {}}; }
};

/// Asked with the request's `message` and its `requestedSchema` as JSON text.
using elicitation_hook = std::function<elicitation_reply(std::string_view message, std::string_view requested_schema)>;

/// A JSON-RPC error answering a request of the server.
struct client_rpc_failure {
    int code = -32603;
    std::string message{};
};

/// The assistant message answering sampling/createMessage, or the error answering it.
struct sampling_reply {
    /// The assistant's text.
    std::string text{};
    /// The model that wrote it.
    std::string model{};
    /// "endTurn", "stopSequence", "maxTokens", ...; empty: not sent.
    std::string stop_reason = "endTurn";
    /// When not empty, the `content` sent instead of `text`: a content block's JSON (from
    /// 2025-11-25 also an array of blocks).
    std::string content{};
    /// When set, the request is answered with this JSON-RPC error instead (the other members are
    /// not sent).
    std::optional<client_rpc_failure> error{};

    /// The answer of a user who rejected the request: the error SDKs send, -1 "User rejected
    /// sampling request".
    static sampling_reply rejected() { return fail(-1, "User rejected sampling request"); }
    /// A JSON-RPC error with `code` and `message`.
    static sampling_reply fail(int code, std::string message) {
        sampling_reply r;
        r.error = client_rpc_failure{code, std::move(message)};
        return r;
    }
};

/// Asked with the request's params (messages, maxTokens, systemPrompt, ...) as JSON text.
using sampling_hook = std::function<sampling_reply(std::string_view params)>;

namespace detail {

inline std::string client_rpc_error(const json::value& id, int code, std::string_view message) {
    std::string out = R"({"jsonrpc":"2.0","id":)" + json::to_text(id) + R"(,"error":{"code":)" +
                      std::to_string(code) + R"(,"message":)";
    json::write(out, json::value(message));
    return out + "}}";
}

inline std::string client_rpc_result(const json::value& id, std::string_view result) {
    return R"({"jsonrpc":"2.0","id":)" + json::to_text(id) + R"(,"result":)" + std::string(result) + "}";
}

inline std::string elicitation_answer(const json::value& id, const json::value& params, const elicitation_hook& hook) {
    const json::value* mode = params.find("mode");
    if (mode && mode->is_string() && mode->as_string() != "form")
        return client_rpc_error(id, -32602,
                         "agentry: mcp::client: elicitation mode \"" + mode->as_string() +
                             "\" is not supported; this client answers form mode only");
    const json::value* message = params.find("message");
    const json::value* schema = params.find("requestedSchema");
    const elicitation_reply reply = hook(message && message->is_string() ? std::string_view(message->as_string()) : "",
                                         schema ? json::to_text(*schema) : std::string("{}"));
    switch (reply.action) {
    case elicit_action::decline: return client_rpc_result(id, R"({"action":"decline"})");
    case elicit_action::cancel: return client_rpc_result(id, R"({"action":"cancel"})");
    case elicit_action::accept: break;
    }
    const std::string_view text = reply.content.empty() ? std::string_view("{}") : std::string_view(reply.content);
    const json::parsed content = json::parse(text);
    if (!content.ok() || !content.value.is_object())
        return client_rpc_error(id, -32603,
                         "agentry: mcp::client: the elicitation hook accepted with content that is not a JSON "
                         "object; return elicitation_reply::accept with the text of a JSON object");
    return client_rpc_result(id, R"({"action":"accept","content":)" + json::to_text(content.value) + "}");
}

inline std::string sampling_answer(const json::value& id, const json::value& params, const sampling_hook& hook) {
    const sampling_reply reply = hook(json::to_text(params));
    if (reply.error) return client_rpc_error(id, reply.error->code, reply.error->message);
    std::string content;
    if (reply.content.empty()) {
        content = R"({"type":"text","text":)";
        json::write(content, json::value(reply.text));
        content += '}';
    } else {
        const json::parsed given = json::parse(reply.content);
        if (!given.ok() || !(given.value.is_object() || given.value.is_array()))
            return client_rpc_error(id, -32603,
                             "agentry: mcp::client: the sampling hook's sampling_reply::content is not a JSON "
                             "object or array; give a content block's JSON, or leave it empty and set text");
        content = json::to_text(given.value);
    }
    std::string result = R"({"role":"assistant","content":)" + content + R"(,"model":)";
    json::write(result, json::value(reply.model));
    if (!reply.stop_reason.empty()) {
        result += R"(,"stopReason":)";
        json::write(result, json::value(reply.stop_reason));
    }
    return client_rpc_result(id, result + "}");
}

/// The response (JSON-RPC text) to `request`, a request of the server; never throws but
/// std::bad_alloc.
inline std::string answer_server_request(const json::value& request, const elicitation_hook& on_elicit,
                                         const sampling_hook& on_sample) {
    static const json::value none = json::value::object();
    const json::value& id = *request.find("id");
    const json::value* m = request.find("method");
    const std::string method = m && m->is_string() ? m->as_string() : std::string();
    const json::value* p = request.find("params");
    const json::value& params = p && p->is_object() ? *p : none;
    const char* hook_name = method == "elicitation/create" ? "elicitation" : "sampling";
    try {
        if (method == "ping") return client_rpc_result(id, "{}");
        if (method == "elicitation/create" && on_elicit) return elicitation_answer(id, params, on_elicit);
        if (method == "sampling/createMessage" && on_sample) return sampling_answer(id, params, on_sample);
    } catch (const std::bad_alloc&) {
        throw;
    } catch (const std::exception& e) {
        return client_rpc_error(id, -32603, std::string("agentry: mcp::client: the ") + hook_name + " hook failed: " + e.what());
    } catch (...) {
        return client_rpc_error(id, -32603, std::string("agentry: mcp::client: the ") + hook_name + " hook failed");
    }
    std::string why = "agentry: mcp::client: this client does not offer \"" + agentry::detail::printable(method, 100) + "\"";
    if (method == "elicitation/create") why += "; set client_options::on_elicit to answer it";
    else if (method == "sampling/createMessage") why += "; set client_options::on_sample to answer it";
    return client_rpc_error(id, -32601, why);
}

} // namespace detail

} // namespace agentry::mcp

#endif
