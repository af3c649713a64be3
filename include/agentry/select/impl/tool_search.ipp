// SPDX-License-Identifier: BSL-1.0
#ifndef AGENTRY_SELECT_IMPL_TOOL_SEARCH_IPP
#define AGENTRY_SELECT_IMPL_TOOL_SEARCH_IPP

// The definitions of select/tool_search.hpp: included by it header-only, and by <agentry/src.hpp>
// in separate compilation (detail/separate.hpp).

#include <agentry/detail/separate.hpp>
#include <agentry/json/reader.hpp>
#include <agentry/json/writer.hpp>
#include <agentry/provider/detail/responses_request.hpp>
#include <agentry/provider/detail/wire_common.hpp>
#include <agentry/schema/raw_json.hpp>
#include <agentry/select/tool_search.hpp>
#include <agentry/tool/detail/invoke.hpp>

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <optional>
#include <span>
#include <stdexcept>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace agentry {

namespace detail::tool_search_impl {

/// The most matches one search returns.
inline constexpr std::uint32_t max_limit = 20;

struct arguments_in {
    std::string query;
    std::optional<std::int64_t> limit;
};

/// A portable result entry.
struct match_out {
    std::string_view name;
    std::string_view description;
};

/// {"type":"tool_reference","tool_name":...}
struct reference_out {
    std::string_view type;
    std::string_view tool_name;
};

/// What an earlier result names: a portable entry's or a definition's `name`, a reference's
/// `tool_name`.
struct named_in {
    std::optional<std::string> name;
    std::optional<std::string> tool_name;
};

inline tool_search_form form_of(dialect_kind kind, bool native) noexcept {
    if (!native) return tool_search_form::portable;
    if (kind == dialect_kind::anthropic || kind == dialect_kind::anthropic_strict) return tool_search_form::anthropic;
    if (kind == dialect_kind::openai_responses || kind == dialect_kind::openai_responses_strict)
        return tool_search_form::openai_responses;
    return tool_search_form::portable;
}

/// The parameters' schema; strict dialects want every property required and none other.
inline std::string parameters(dialect_kind kind) {
    const bool strict = kind == dialect_kind::openai_strict || kind == dialect_kind::anthropic_strict ||
                        kind == dialect_kind::openai_responses_strict;
    const std::string query = R"("query":{"type":"string","description":"What the tool must do, in a few words"})";
    if (strict)
        return R"({"type":"object","properties":{)" + query +
               R"(,"limit":{"type":["integer","null"],"description":"The most tools to return, 1 to 20"}},)"
               R"("required":["query","limit"],"additionalProperties":false})";
    return R"({"type":"object","properties":{)" + query +
           R"(,"limit":{"type":"integer","minimum":1,"maximum":20,"description":"The most tools to return"}},)"
           R"("required":["query"])" +
           std::string(kind == dialect_kind::gemini ? "}" : R"(,"additionalProperties":false})");
}

inline std::string definition(dialect_kind kind, tool_search_form form, const tool_search_options& o) {
    std::string name;
    std::string description;
    json::write(name, o.name);
    json::write(description, o.description);
    const std::string params = parameters(kind);
    if (form == tool_search_form::openai_responses)
        return R"({"type":"tool_search","execution":"client","description":)" + description +
               R"(,"parameters":)" + params + "}";
    switch (kind) {
    case dialect_kind::openai:
    case dialect_kind::openai_strict:
        return R"({"type":"function","function":{"name":)" + name + R"(,"description":)" + description +
               R"(,"parameters":)" + params + (kind == dialect_kind::openai_strict ? R"(,"strict":true}})" : "}}");
    case dialect_kind::openai_responses:
    case dialect_kind::openai_responses_strict:
        return R"({"type":"function","name":)" + name + R"(,"description":)" + description + R"(,"parameters":)" +
               params + (kind == dialect_kind::openai_responses_strict ? R"(,"strict":true})" : R"(,"strict":false})");
    case dialect_kind::anthropic:
    case dialect_kind::anthropic_strict:
        return R"({"name":)" + name + R"(,"description":)" + description + R"(,"input_schema":)" + params +
               (kind == dialect_kind::anthropic_strict ? R"(,"strict":true})" : "}");
    case dialect_kind::mcp:
        return R"({"name":)" + name + R"(,"description":)" + description + R"(,"inputSchema":)" + params + "}";
    case dialect_kind::standard:
    case dialect_kind::gemini:
        break;
    }
    return R"({"name":)" + name + R"(,"description":)" + description + R"(,"parameters":)" + params + "}";
}

/// `payload` (a tools array, for Gemini [{"functionDeclarations":[...]}]) with `entry` last.
inline std::string appended(dialect_kind kind, std::string payload, std::string_view entry) {
    const std::string_view tail = kind == dialect_kind::gemini ? "]}]" : "]";
    if (payload.size() < tail.size() || std::string_view(payload).substr(payload.size() - tail.size()) != tail)
        payload = kind == dialect_kind::gemini ? R"([{"functionDeclarations":[]}])" : "[]";
    const std::size_t at = payload.size() - tail.size();
    const bool empty = payload[at - 1] == '[';
    payload.insert(at, (empty ? std::string() : std::string(",")) + std::string(entry));
    return payload;
}

} // namespace detail::tool_search_impl

struct tool_search::state {
    tool_catalog catalog;
    selector scorer;
    tool_search_options options;
    tool_search_form form = tool_search_form::portable;
    std::string name;
    std::string definition;
};

AGENTRY_DECL tool_search::tool_search(tool_catalog catalog, selector scorer, tool_search_options options) {
    namespace impl = detail::tool_search_impl;
    if (options.limit < 1 || options.limit > impl::max_limit)
        throw std::invalid_argument("agentry: tool_search: tool_search_options::limit is " +
                                    std::to_string(options.limit) + "; give a limit from 1 to 20");
    const tool_search_form form = impl::form_of(catalog.kind(), options.native);
    std::string name = form == tool_search_form::openai_responses
                           ? std::string(detail::responses_impl::tool_search_name)
                           : options.name;
    if (name.empty())
        throw std::invalid_argument("agentry: tool_search: tool_search_options::name is empty; give the search tool a name");
    if (auto at = catalog.find(name); at && !catalog[*at].added)
        throw std::invalid_argument("agentry: tool_search: the catalog already has a tool named '" + name +
                                    "'; give the search tool another name (tool_search_options::name)");
    auto s = std::make_shared<state>();
    s->definition = impl::definition(catalog.kind(), form, options);
    s->catalog = std::move(catalog);
    s->scorer = std::move(scorer);
    s->options = std::move(options);
    s->form = form;
    s->name = std::move(name);
    state_ = std::move(s);
}

AGENTRY_DECL tool_search_form tool_search::form() const noexcept { return state_->form; }
AGENTRY_DECL std::string_view tool_search::name() const noexcept { return state_->name; }
AGENTRY_DECL std::string_view tool_search::definition() const noexcept { return state_->definition; }
AGENTRY_DECL const tool_catalog& tool_search::catalog() const noexcept { return state_->catalog; }

AGENTRY_DECL tool_policy tool_search::policy() {
    tool_policy p;
    p.level = permission::read_only;
    p.idempotent = true;
    return p;
}

AGENTRY_DECL std::vector<std::size_t> tool_search::search(std::string_view query, std::size_t limit) const {
    const tool_catalog& catalog = state_->catalog;
    std::vector<double> scores(catalog.size(), 0.0);
    std::vector<std::string> called;
    turn_query q = turn_query::of({}, 1, called);
    q.text = query;
    state_->scorer.score(catalog, q, scores);
    for (std::size_t i = 0; i != catalog.size(); ++i)
        if (catalog[i].always || catalog[i].name == state_->name) scores[i] = 0;
    return highest(scores, limit);
}

AGENTRY_DECL tool_result tool_search::call(std::string_view arguments) const {
    namespace impl = detail::tool_search_impl;
    tool_result out;
    json::read_options options;
    options.null_as_absent = true;
    auto args = json::read<impl::arguments_in>(arguments, options);
    if (args.ok() && args.value.limit && (*args.value.limit < 1 || *args.value.limit > impl::max_limit)) {
        json::read_error e;
        e.pointer = "/limit";
        e.kind = *args.value.limit < 1 ? json::error_kind::minimum : json::error_kind::maximum;
        e.message = std::to_string(*args.value.limit) + " is not between 1 and 20";
        args.errors.push_back(std::move(e));
    }
    if (!args.errors.empty()) {
        out.status = tool_status::invalid_arguments;
        out.content = detail::invalid_arguments_text(state_->name, args.errors);
        out.errors = std::move(args.errors);
        return out;
    }
    const std::size_t limit = args.value.limit ? std::size_t(*args.value.limit) : state_->options.limit;
    const tool_catalog& catalog = state_->catalog;
    const std::vector<std::size_t> matches = search(args.value.query, limit);
    switch (state_->form) {
    case tool_search_form::portable: {
        std::vector<impl::match_out> list;
        for (std::size_t i : matches) list.push_back({catalog[i].name, catalog[i].description});
        json::write(out.content, list);
        break;
    }
    case tool_search_form::anthropic: {
        std::vector<impl::reference_out> list;
        for (std::size_t i : matches) list.push_back({"tool_reference", catalog[i].name});
        json::write(out.content, list);
        out.content_blocks = true;
        break;
    }
    case tool_search_form::openai_responses: {
        out.content = "[";
        for (std::size_t i : matches) {
            if (out.content.size() > 1) out.content += ',';
            out.content += catalog[i].definition;
        }
        out.content += ']';
        break;
    }
    }
    return out;
}

AGENTRY_DECL std::vector<std::string> tool_search::found(std::span<const message> conversation) const {
    namespace impl = detail::tool_search_impl;
    std::vector<std::string> out;
    for (const message& m : conversation) {
        if (m.role != role::tool || m.is_error || m.tool_name != state_->name) continue;
        auto named = json::read<std::vector<impl::named_in>>(m.text, detail::wire_read_options);
        if (!named.ok()) continue;
        for (impl::named_in& n : named.value) {
            std::string name = n.tool_name ? std::move(*n.tool_name) : std::move(n.name).value_or(std::string{});
            if (!name.empty() && std::find(out.begin(), out.end(), name) == out.end()) out.push_back(std::move(name));
        }
    }
    return out;
}

AGENTRY_DECL active_tools tool_search::choose(const tool_catalog& catalog, const turn_query& query) const {
    active_tools out;
    out.defer_others = state_->form != tool_search_form::portable;
    const auto add = [&](std::string_view name) {
        const std::optional<std::size_t> at = catalog.find(name);
        if (at && std::find(out.indices.begin(), out.indices.end(), *at) == out.indices.end())
            out.indices.push_back(*at);
    };
    add(state_->name);
    for (const std::string& name : found(query.conversation)) add(name);
    for (const std::string& name : query.called) add(name);
    return out;
}

AGENTRY_DECL std::string tool_search::payload(const tool_catalog& catalog, const active_tools& chosen) const {
    std::vector<std::size_t> indices = chosen.indices;
    for (const std::string& name : chosen.names)
        if (const std::optional<std::size_t> at = catalog.find(name)) indices.push_back(*at);
    if (chosen.all) {
        indices.clear();
        for (std::size_t i = 0; i != catalog.size(); ++i) indices.push_back(i);
    }
    std::string out = chosen.defer_others ? catalog.deferred_payload(indices) : catalog.payload(indices);
    if (!catalog.find(state_->name))
        out = detail::tool_search_impl::appended(catalog.kind(), std::move(out), state_->definition);
    return out;
}

AGENTRY_DECL tool_chooser searched_tools(tool_search search) {
    return [search = std::move(search)](const tool_catalog& catalog, const turn_query& query) {
        return search.choose(catalog, query);
    };
}

} // namespace agentry

#endif
