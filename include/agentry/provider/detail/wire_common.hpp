// SPDX-License-Identifier: BSL-1.0
#ifndef AGENTRY_PROVIDER_DETAIL_WIRE_COMMON_HPP
#define AGENTRY_PROVIDER_DETAIL_WIRE_COMMON_HPP

// What the Anthropic, Gemini and Ollama providers share: how provider messages are read,
// checks on JSON text, request headers and URLs, and the tool results of one turn in the
// order of its calls.

#include <agentry/json/reader.hpp>
#include <agentry/provider/http_settings.hpp>
#include <agentry/provider/message.hpp>
#include <agentry/schema/raw_json.hpp>
#include <agentry/transport/transport.hpp>

#include <atomic>
#include <cstddef>
#include <cstdlib>
#include <limits>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <vector>

namespace agentry::detail {

/// How provider messages are read: unknown members skipped, null as absent, no size cap.
inline constexpr json::read_options wire_read_options{
    .max_size = std::numeric_limits<std::size_t>::max(),
    .max_depth = 64,
    .max_errors = 1,
    .null_as_absent = true,
    .ignore_unknown_properties = true,
};

/// `s` without the JSON white space (space, tab, CR, LF) around it.
constexpr std::string_view trim_space(std::string_view s) noexcept {
    while (!s.empty() && (s.front() == ' ' || s.front() == '\t' || s.front() == '\r' || s.front() == '\n'))
        s.remove_prefix(1);
    while (!s.empty() && (s.back() == ' ' || s.back() == '\t' || s.back() == '\r' || s.back() == '\n'))
        s.remove_suffix(1);
    return s;
}

/// The first reader error as "pointer: message".
inline std::string first_error(const std::vector<json::read_error>& errors) {
    return errors.empty() ? std::string("unreadable") : errors.front().to_string();
}

/// Whether `text` is one well-formed JSON value.
inline bool is_json(std::string_view text) {
    if (text.find_first_not_of(" \t\r\n") == std::string_view::npos) return false;
    return json::read<raw_json>(text, wire_read_options).ok();
}

/// Whether `text` is one well-formed JSON object.
inline bool is_json_object(std::string_view text) {
    const std::size_t first = text.find_first_not_of(" \t\r\n");
    return first != std::string_view::npos && text[first] == '{' && is_json(text);
}

/// Tool arguments for a request, where providers demand an object: the text when it is one,
/// else "{}" (the model wrote something else; the registry has already answered with an error).
inline raw_json arguments_object(std::string_view arguments) {
    return raw_json(is_json_object(arguments) ? std::string(arguments) : std::string("{}"));
}

/// A JSON value kept as text, as plain text: a string decoded, null or absent empty, anything
/// else as written.
inline std::string plain_text(const std::optional<raw_json>& value) {
    if (!value || value->text() == "null") return {};
    const std::string& text = value->text();
    if (!text.empty() && text.front() == '"') {
        auto decoded = json::read<std::string>(text, wire_read_options);
        return decoded.ok() ? std::move(decoded.value) : std::string{};
    }
    return text;
}

/// `body`, a JSON object, with the members of the JSON object `extra` added at its end; `body`
/// unchanged when `extra` is empty or not an object.
inline void append_members(std::string& body, std::string_view extra) {
    if (!is_json_object(extra) || body.empty() || body.back() != '}') return;
    const std::size_t open = extra.find('{');
    const std::size_t close = extra.rfind('}');
    std::string_view members = extra.substr(open + 1, close - open - 1);
    const std::size_t first = members.find_first_not_of(" \t\r\n");
    if (first == std::string_view::npos) return;
    members = members.substr(first, members.find_last_not_of(" \t\r\n") - first + 1);
    body.pop_back();
    if (body.back() != '{') body.push_back(',');
    body.append(members);
    body.push_back('}');
}

/// base_url without its trailing slashes, then `path`.
inline std::string join_url(std::string_view base_url, std::string_view path) {
    while (!base_url.empty() && base_url.back() == '/') base_url.remove_suffix(1);
    std::string url(base_url);
    url.append(path);
    return url;
}

/// The value of environment variable `name`; empty when unset.
inline std::string environment(const char* name) {
    const char* value = std::getenv(name);
    return value == nullptr ? std::string{} : std::string(value);
}

/// The provider's headers (those with a value), then the user's `extra` headers; a provider
/// header the user also gives is left out, so the user's value wins.
inline std::vector<http_header> merge_headers(std::vector<http_header> defaults, const std::vector<http_header>& extra) {
    std::vector<http_header> out;
    out.reserve(defaults.size() + extra.size());
    for (http_header& h : defaults) {
        bool given = false;
        for (const http_header& e : extra) given = given || same_header_name(e.name, h.name);
        if (!given && !h.value.empty()) out.push_back(std::move(h));
    }
    out.insert(out.end(), extra.begin(), extra.end());
    return out;
}

/// A request to {base_url or default_base_url}{path} with the provider's headers `own` merged
/// with the settings' and the rest of the settings; the request's own cancel flag wins.
inline http_request start_request(const http_settings& settings, std::string_view default_base_url,
                                  std::string_view path, std::vector<http_header> own,
                                  const std::atomic<bool>* request_cancel) {
    http_request http;
    http.url = join_url(settings.base_url.empty() ? default_base_url : std::string_view(settings.base_url), path);
    http.headers = merge_headers(std::move(own), settings.headers);
    http.connect_timeout = settings.connect_timeout;
    http.total_timeout = settings.total_timeout;
    http.cancel = request_cancel != nullptr ? request_cancel : settings.cancel;
    http.max_body = settings.limits.max_body;
    http.allow_plain_http_credentials = settings.allow_plain_http_credentials;
    return http;
}

/// The calls of the assistant message before messages[at], or none.
inline std::span<const tool_call> calls_before(std::span<const message> messages, std::size_t at) noexcept {
    while (at != 0) {
        --at;
        if (messages[at].role == role::assistant) return messages[at].tool_calls;
    }
    return {};
}

/// `results` (tool messages) in the order of `calls`; results whose id is not among them keep
/// their relative order after those that are.
inline std::vector<const message*> in_call_order(std::span<const message> results, std::span<const tool_call> calls) {
    std::vector<const message*> out;
    out.reserve(results.size());
    std::vector<bool> taken(results.size(), false);
    for (const tool_call& call : calls)
        for (std::size_t i = 0; i != results.size(); ++i)
            if (!taken[i] && !call.id.empty() && results[i].tool_call_id == call.id) {
                out.push_back(&results[i]);
                taken[i] = true;
                break;
            }
    for (std::size_t i = 0; i != results.size(); ++i)
        if (!taken[i]) out.push_back(&results[i]);
    return out;
}

/// The name of the function a tool result answers: its tool_name, else the name of the call
/// with its id.
inline std::string_view result_name(const message& result, std::span<const tool_call> calls) noexcept {
    if (!result.tool_name.empty()) return result.tool_name;
    for (const tool_call& call : calls)
        if (call.id == result.tool_call_id) return call.name;
    return {};
}

/// One past the last of the role::tool messages that start at messages[first].
inline std::size_t end_of_tool_run(std::span<const message> messages, std::size_t first) noexcept {
    std::size_t last = first;
    while (last != messages.size() && messages[last].role == role::tool) ++last;
    return last;
}

} // namespace agentry::detail

#endif
