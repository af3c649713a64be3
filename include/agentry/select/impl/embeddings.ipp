// SPDX-License-Identifier: BSL-1.0
#ifndef AGENTRY_SELECT_IMPL_EMBEDDINGS_IPP
#define AGENTRY_SELECT_IMPL_EMBEDDINGS_IPP

// The definitions of select/embeddings.hpp: included by it header-only, and by <agentry/src.hpp>
// in separate compilation (detail/separate.hpp).

#include <agentry/detail/separate.hpp>
#include <agentry/json/impl/src.ipp>
#include <agentry/json/reader.hpp>
#include <agentry/json/value.hpp>
#include <agentry/json/writer.hpp>
#include <agentry/provider/detail/wire_common.hpp>
#include <agentry/provider/provider.hpp>
#include <agentry/select/embeddings.hpp>

#include <algorithm>
#include <cstddef>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace agentry {

namespace detail::embeddings_wire {

struct texts_out {
    std::string_view model;
    std::vector<std::string_view> input;
};

inline std::string texts_body(std::string_view model, std::span<const std::string> texts) {
    std::string out;
    json::write(out, texts_out{model, std::vector<std::string_view>(texts.begin(), texts.end())});
    return out;
}

struct part_out {
    std::string_view text;
};
struct content_out {
    std::vector<part_out> parts;
};
struct gemini_request_out {
    std::string_view model;
    content_out content;
    std::optional<std::string_view> taskType;
};
struct gemini_batch_out {
    std::vector<gemini_request_out> requests;
};

struct openai_item_in {
    std::optional<std::size_t> index;
    std::optional<std::vector<float>> embedding;
};
struct openai_in {
    std::optional<std::vector<openai_item_in>> data;
};

struct gemini_item_in {
    std::optional<std::vector<float>> values;
};
struct gemini_in {
    std::optional<std::vector<gemini_item_in>> embeddings;
};

struct ollama_in {
    std::optional<std::vector<std::vector<float>>> embeddings;
};

/// `what` could not be read from a 2xx body.
inline embed_result unreadable(std::string_view what, const std::vector<json::read_error>& errors) {
    return {{}, malformed("agentry: unreadable " + std::string(what) + " response: " + first_error(errors) +
                          "; check that base_url names that endpoint")};
}

inline embed_result missing(std::string_view what, std::string_view member) {
    return {{}, malformed("agentry: the " + std::string(what) + " response has no \"" + std::string(member) +
                          "\"; check that base_url names that endpoint")};
}

} // namespace detail::embeddings_wire

AGENTRY_DECL http_request openai_embeddings::request(std::span<const std::string> texts, embed_purpose) const {
    const std::string key = api_key.empty() ? detail::environment("OPENAI_API_KEY") : api_key;
    http_request out = detail::start_request(http, default_base_url, "/embeddings",
                                             {{"Content-Type", "application/json"},
                                              {"Accept", "application/json"},
                                              {"Authorization", key.empty() ? std::string{} : "Bearer " + key}},
                                             nullptr);
    out.body = detail::embeddings_wire::texts_body(model, texts);
    return out;
}

AGENTRY_DECL embed_result openai_embeddings::parse(const http_response& response) const {
    namespace wire = detail::embeddings_wire;
    auto read = json::read<wire::openai_in>(response.body, detail::wire_read_options);
    if (!read.ok()) return wire::unreadable("OpenAI embeddings", read.errors);
    if (!read.value.data) return wire::missing("OpenAI embeddings", "data");
    std::vector<wire::openai_item_in>& items = *read.value.data;
    embed_result out;
    out.vectors.resize(items.size());
    std::vector<bool> seen(items.size(), false);
    for (std::size_t i = 0; i != items.size(); ++i) {
        const std::size_t at = items[i].index.value_or(i);
        if (at >= items.size() || seen[at])
            return {{}, detail::malformed("agentry: the OpenAI embeddings response has index " + std::to_string(at) +
                                          " twice or past its " + std::to_string(items.size()) + " items")};
        if (!items[i].embedding) return wire::missing("OpenAI embeddings", "embedding");
        seen[at] = true;
        out.vectors[at] = std::move(*items[i].embedding);
    }
    return out;
}

AGENTRY_DECL http_request gemini_embeddings::request(std::span<const std::string> texts, embed_purpose purpose) const {
    namespace wire = detail::embeddings_wire;
    std::string key = api_key;
    if (key.empty()) key = detail::environment("GOOGLE_API_KEY");
    if (key.empty()) key = detail::environment("GEMINI_API_KEY");
    const bool named = model.find('/') != std::string::npos;
    const std::string name = named ? model : "models/" + model;
    http_request out = detail::start_request(http, default_base_url, "/" + name + ":batchEmbedContents",
                                             {{"content-type", "application/json"}, {"x-goog-api-key", std::move(key)}},
                                             nullptr);
    wire::gemini_batch_out body;
    body.requests.reserve(texts.size());
    std::optional<std::string_view> task;
    if (task_types) task = purpose == embed_purpose::query ? "RETRIEVAL_QUERY" : "RETRIEVAL_DOCUMENT";
    for (const std::string& text : texts) body.requests.push_back({name, {{{text}}}, task});
    json::write(out.body, body, {.omit_empty_optionals = true});
    return out;
}

AGENTRY_DECL embed_result gemini_embeddings::parse(const http_response& response) const {
    namespace wire = detail::embeddings_wire;
    auto read = json::read<wire::gemini_in>(response.body, detail::wire_read_options);
    if (!read.ok()) return wire::unreadable("Gemini batchEmbedContents", read.errors);
    if (!read.value.embeddings) return wire::missing("Gemini batchEmbedContents", "embeddings");
    embed_result out;
    out.vectors.reserve(read.value.embeddings->size());
    for (wire::gemini_item_in& e : *read.value.embeddings) {
        if (!e.values) return wire::missing("Gemini batchEmbedContents", "values");
        out.vectors.push_back(std::move(*e.values));
    }
    return out;
}

AGENTRY_DECL http_request ollama_embeddings::request(std::span<const std::string> texts, embed_purpose) const {
    http_request out =
        detail::start_request(http, default_base_url, "/api/embed", {{"content-type", "application/json"}}, nullptr);
    out.body = detail::embeddings_wire::texts_body(model, texts);
    return out;
}

AGENTRY_DECL embed_result ollama_embeddings::parse(const http_response& response) const {
    namespace wire = detail::embeddings_wire;
    auto read = json::read<wire::ollama_in>(response.body, detail::wire_read_options);
    if (!read.ok()) return wire::unreadable("Ollama /api/embed", read.errors);
    if (!read.value.embeddings) return wire::missing("Ollama /api/embed", "embeddings");
    return {std::move(*read.value.embeddings), std::nullopt};
}

namespace detail {

AGENTRY_DECL provider_error embedding_http_error(const http_response& response) {
    std::string message, type;
    const json::parsed body = json::parse(response.body);
    if (const json::value* error = body.ok() ? body.value.find("error") : nullptr) {
        if (error->is_string()) {
            message = error->as_string();
        } else if (error->is_object()) {
            if (const json::value* m = error->find("message")) message = m->as_string();
            for (std::string_view name : {"code", "status", "type"})
                if (const json::value* t = error->find(name); t != nullptr && t->is_string() && type.empty())
                    type = t->as_string();
        }
    }
    return http_error(response, std::move(message), std::move(type));
}

AGENTRY_DECL embed_result embed_batches(const embed_parts& parts, std::span<const std::string> texts,
                                        embed_purpose purpose) noexcept {
    try {
        embed_result out;
        out.vectors.reserve(texts.size());
        const std::size_t batch = std::max<std::size_t>(parts.batch, 1);
        for (std::size_t at = 0; at < texts.size(); at += batch) {
            const std::span<const std::string> some = texts.subspan(at, std::min(batch, texts.size() - at));
            const http_request request = parts.request(parts.client, some, purpose);
            if (std::optional<provider_error> refused = refuse_plain_http(request)) return {{}, std::move(refused)};
            const transport_result sent = parts.send(parts.transport, request);
            if (!sent.ok()) return {{}, transport_failure(sent.error)};
            if (request.max_body != 0 && sent.response.body.size() > request.max_body)
                return {{}, too_large("an embeddings response", request.max_body)};
            if (sent.response.status < 200 || sent.response.status > 299)
                return {{}, embedding_http_error(sent.response)};
            embed_result got = parts.parse(parts.client, sent.response);
            if (got.error) return got;
            if (got.vectors.size() != some.size())
                return {{}, malformed("agentry: the embeddings response has " + std::to_string(got.vectors.size()) +
                                      " vectors for " + std::to_string(some.size()) +
                                      " texts; check that the server embeds each text of \"input\"")};
            for (std::vector<float>& v : got.vectors) {
                const std::size_t dims = out.vectors.empty() ? got.vectors.front().size() : out.vectors.front().size();
                if (v.empty() || v.size() != dims)
                    return {{}, malformed("agentry: the embeddings response has a vector of " + std::to_string(v.size()) +
                                          " numbers among vectors of " + std::to_string(dims) +
                                          "; check the server's model")};
                out.vectors.push_back(std::move(v));
            }
        }
        return out;
    } catch (...) {
        return {{}, malformed("agentry: embedding failed: out of memory")};
    }
}

AGENTRY_DECL failure embedding_failure(const provider_error& error) {
    failure f;
    switch (error.kind) {
    case provider_error_kind::authentication:
    case provider_error_kind::permission:
    case provider_error_kind::insecure: f.kind = failure_kind::permission; break;
    case provider_error_kind::bad_request: f.kind = failure_kind::invalid_input; break;
    default: f.kind = error.retryable ? failure_kind::transient : failure_kind::permanent; break;
    }
    f.message = "agentry: embeddings request failed (" + std::string(to_string(error.kind));
    if (error.status != 0) f.message += ", HTTP " + std::to_string(error.status);
    f.message += "): " + error.message;
    return f;
}

} // namespace detail

} // namespace agentry

#endif
