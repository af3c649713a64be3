// SPDX-License-Identifier: BSL-1.0
#ifndef AGENTRY_MCP_DETAIL_SUBSCRIPTION_HPP
#define AGENTRY_MCP_DETAIL_SUBSCRIPTION_HPP

// subscriptions/listen (2026-07-28): a client opens a long-lived stream for notifications,
// opting in to each kind. The subscription is a session of its own that hears only what its
// filter asks and the server supports (tool list changes with server_info::tool_list_changes;
// updates of the resources named, each a resource or matching a template; never resource or
// prompt list changes, which are fixed), acknowledged first with what was agreed, every message
// carrying the subscription's id in params._meta. The transport keeps the stream (http.hpp,
// stdio.hpp); it ends when the client leaves. And resources/subscribe of a session (before
// 2026-07-28).

#include <agentry/json/writer.hpp>
#include <agentry/mcp/detail/resource_answer.hpp>
#include <agentry/mcp/detail/server_methods.hpp>
#include <agentry/mcp/detail/subscribers.hpp>
#include <agentry/mcp/limits.hpp>
#include <agentry/mcp/message.hpp>
#include <agentry/mcp/resources.hpp>
#include <agentry/mcp/session.hpp>

#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace agentry::mcp::detail {

struct listen_filter {
    std::optional<bool> toolsListChanged;
    std::optional<bool> resourcesListChanged;
    std::optional<bool> promptsListChanged;
    std::optional<std::vector<std::string>> resourceSubscriptions;
};
struct listen_params {
    listen_filter notifications;
};

/// Whether `uri` names one of `resources` or matches one of its templates.
inline bool names_resource(const std::vector<resource_entry>& resources, std::string_view uri) {
    std::string variables;
    for (const resource_entry& r : resources)
        if (r.templated ? match_uri_template(r.uri, uri, variables) : r.uri == uri) return true;
    return false;
}

/// resources/subscribe (`on`) and resources/unsubscribe in a session: "" when done, else the
/// invalid-params message. The URI must name a resource or match a template.
inline std::string toggle_subscription(session& s, std::string_view params, bool on,
                                       const std::vector<resource_entry>& resources,
                                       const std::shared_ptr<subscriber_list>& listeners) {
    subscribe_params p;
    std::string problem;
    if (!read_params(params, p, problem)) return problem;
    if (p.uri.size() > max_subscription_uri_size)
        return "Invalid params: /uri: longer than " + std::to_string(max_subscription_uri_size) + " bytes";
    if (!names_resource(resources, p.uri)) {
        std::string message = "Invalid params: /uri: no resource or resource template matches ";
        json::write(message, std::string_view(p.uri).substr(0, 200));
        return message;
    }
    if (!on) s.unsubscribe(p.uri);
    else if (!s.subscribe(p.uri, listeners, max_session_subscriptions))
        return "Invalid params: the session holds " + std::to_string(max_session_subscriptions) +
               " subscriptions, the most it may; unsubscribe from one first";
    return {};
}

/// The subscription `m` asks for, and in `first` its acknowledgement; or null, with in `code`
/// and `problem` the error to answer.
inline std::shared_ptr<session> open_subscription(const received& m, bool tools_change,
                                                  const std::vector<resource_entry>& resources,
                                                  const std::shared_ptr<subscriber_list>& listeners, std::string& first,
                                                  error_code& code, std::string& problem) {
    if (const request_meta meta = read_meta(m.params); !meta.version || *meta.version != stateless_protocol_version) {
        code = error_code::method_not_found;
        problem = "Method not found: subscriptions/listen is a request of the stateless revision 2026-07-28; name it "
                  "in the request's _meta";
        return nullptr;
    }
    code = error_code::invalid_params;
    listen_params p;
    if (!read_params(m.params, p, problem)) return nullptr;
    const listen_filter& asked = p.notifications;
    const std::vector<std::string> uris = asked.resourceSubscriptions.value_or(std::vector<std::string>{});
    if (uris.size() > max_session_subscriptions) {
        problem = "Invalid params: /notifications/resourceSubscriptions: more than " +
                  std::to_string(max_session_subscriptions) + " URIs";
        return nullptr;
    }
    auto sub = std::make_shared<session>();
    const bool tools = asked.toolsListChanged.value_or(false) && tools_change;
    sub->make_subscription(m.id, tools ? session::tools_changes : 0u);
    std::vector<std::string> agreed;
    for (const std::string& uri : uris)
        if (uri.size() <= max_subscription_uri_size && names_resource(resources, uri) &&
            sub->subscribe(uri, listeners, max_session_subscriptions))
            agreed.push_back(uri);
    if (tools) sub->join(listeners);
    first = R"({"jsonrpc":"2.0","method":"notifications/subscriptions/acknowledged","params":{"notifications":{)";
    if (tools) first += R"("toolsListChanged":true)";
    if (!agreed.empty()) {
        first += tools ? R"(,"resourceSubscriptions":)" : R"("resourceSubscriptions":)";
        json::write(first, agreed);
    }
    first += R"(},"_meta":{"io.modelcontextprotocol/subscriptionId":)" + m.id + "}}}";
    return sub;
}

} // namespace agentry::mcp::detail

#endif
