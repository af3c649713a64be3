// SPDX-License-Identifier: BSL-1.0
#ifndef AGENTRY_SELECT_EMBEDDINGS_HPP
#define AGENTRY_SELECT_EMBEDDINGS_HPP

// Clients of the providers' embeddings endpoints, over any agentry::transport:
//
//   agentry::openai_embeddings small{.model = "text-embedding-3-small"};   // key from OPENAI_API_KEY
//   agentry::embed_result r = agentry::embed(small, transport, texts, agentry::embed_purpose::document);
//   agentry::embedder e = agentry::make_embedder(small, agentry::curl_transport{});
//
//   openai_embeddings   POST {base_url}/embeddings, base_url with the API version as the openai
//                       provider takes it ("https://api.openai.com/v1"; a compatible server's
//                       "http://127.0.0.1:8080/v1"): {"model","input":[texts]}, Authorization:
//                       Bearer; reads data[].embedding in the order of data[].index.
//   gemini_embeddings   POST {base_url}/models/{model}:batchEmbedContents ("https://generativelanguage
//                       .googleapis.com/v1beta"): {"requests":[{"model":"models/{model}","content":
//                       {"parts":[{"text"}]},"taskType"}]}, x-goog-api-key; taskType RETRIEVAL_DOCUMENT
//                       for documents, RETRIEVAL_QUERY for queries (task_types = false: none);
//                       reads embeddings[].values.
//   ollama_embeddings   POST {base_url}/api/embed ("http://127.0.0.1:11434"): {"model","input":[texts]};
//                       reads embeddings[][].
//
// embed() sends the texts in batches of at most `batch` texts, one request after another, and
// returns one vector per text, in their order, or a provider_error: a non-2xx typed by its status
// with the provider's message from the body ({"error":{"message"}}, {"error":"..."}), a transport
// failure, a body past http.limits.max_body (too_large), a body it cannot read or with another
// number of vectors than texts, or vectors of different sizes (malformed). Credentials (the key,
// or any credential header in http.headers) are never sent over plain http:// to a host that is
// not loopback unless http.allow_plain_http_credentials is set (provider_error_kind::insecure,
// nothing sent). Nothing here throws except std::bad_alloc.

#include <agentry/detail/separate.hpp>
#include <agentry/outcome.hpp>
#include <agentry/provider/http_settings.hpp>
#include <agentry/provider/message.hpp>
#include <agentry/transport/transport.hpp>

#include <concepts>
#include <cstddef>
#include <functional>
#include <memory>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace agentry {

/// What texts are embedded for: the documents searched (tools), or a query searching them.
enum class embed_purpose { document, query };

/// One vector per text, in the texts' order, or why there are none.
struct embed_result {
    std::vector<std::vector<float>> vectors;
    std::optional<provider_error> error;

    bool ok() const noexcept { return !error.has_value(); }
};

/// OpenAI's embeddings endpoint, and the servers that speak it (vLLM, llama.cpp, Ollama's /v1).
struct openai_embeddings {
    static constexpr std::string_view default_base_url = "https://api.openai.com/v1";

    std::string model{};
    /// Empty: OPENAI_API_KEY, read when each request is built; neither: no Authorization header.
    std::string api_key{};
    http_settings http{};
    /// Texts per request (OpenAI takes at most 2048).
    std::size_t batch = 256;

    /// The model's name in saved indexes and cache keys: "openai:" and the model.
    std::string id() const { return "openai:" + model; }
    /// The request of one batch.
    http_request request(std::span<const std::string> texts, embed_purpose purpose) const;
    /// The vectors of a 2xx response.
    embed_result parse(const http_response& response) const;
};

/// The Gemini API's batchEmbedContents.
struct gemini_embeddings {
    static constexpr std::string_view default_base_url = "https://generativelanguage.googleapis.com/v1beta";

    /// "gemini-embedding-001", or a resource name with its collection ("tunedModels/x").
    std::string model{};
    /// Empty: GOOGLE_API_KEY, else GEMINI_API_KEY, read when each request is built.
    std::string api_key{};
    http_settings http{};
    /// Texts per request (Gemini takes at most 100).
    std::size_t batch = 100;
    /// Send taskType RETRIEVAL_DOCUMENT or RETRIEVAL_QUERY by the purpose (models before
    /// text-embedding-004 refuse it).
    bool task_types = true;

    /// "gemini:" and the model.
    std::string id() const { return "gemini:" + model; }
    http_request request(std::span<const std::string> texts, embed_purpose purpose) const;
    embed_result parse(const http_response& response) const;
};

/// Ollama's native /api/embed.
struct ollama_embeddings {
    static constexpr std::string_view default_base_url = "http://127.0.0.1:11434";

    std::string model{};
    http_settings http{};
    /// Texts per request.
    std::size_t batch = 64;

    /// "ollama:" and the model.
    std::string id() const { return "ollama:" + model; }
    http_request request(std::span<const std::string> texts, embed_purpose purpose) const;
    embed_result parse(const http_response& response) const;
};

/// A client of an embeddings endpoint (the three above, or a user's own).
template <class C>
concept embedding_client = requires(const C& c, std::span<const std::string> texts, const http_response& response) {
    { c.request(texts, embed_purpose::document) } -> std::same_as<http_request>;
    { c.parse(response) } -> std::same_as<embed_result>;
    { c.batch } -> std::convertible_to<std::size_t>;
};

namespace detail {

/// A client and a transport seen through plain functions, so that embed_batches is compiled once.
struct embed_parts {
    const void* client;
    void* transport;
    std::size_t batch;
    http_request (*request)(const void* client, std::span<const std::string> texts, embed_purpose purpose);
    embed_result (*parse)(const void* client, const http_response& response);
    transport_result (*send)(void* transport, const http_request& request);
};

AGENTRY_DECL embed_result embed_batches(const embed_parts& parts, std::span<const std::string> texts,
                                        embed_purpose purpose) noexcept;

/// The error of a non-2xx embeddings response: its status, and the message and type or code of
/// the body's "error" (an object or a string).
AGENTRY_DECL provider_error embedding_http_error(const http_response& response);

/// `error` as an outcome's failure: "agentry: embeddings request failed (kind, HTTP status): message".
AGENTRY_DECL failure embedding_failure(const provider_error& error);

} // namespace detail

/// The vectors of `texts` for `purpose` from `client` over `transport`: batches of client.batch
/// texts (0 counts as 1), sent one after another; the first failure ends it. Never throws.
template <embedding_client C, transport T>
embed_result embed(const C& client, T& transport, std::span<const std::string> texts, embed_purpose purpose) noexcept {
    const detail::embed_parts parts{
        &client,
        &transport,
        static_cast<std::size_t>(client.batch),
        [](const void* self, std::span<const std::string> t, embed_purpose p) {
            return static_cast<const C*>(self)->request(t, p);
        },
        [](const void* self, const http_response& r) { return static_cast<const C*>(self)->parse(r); },
        [](void* self, const http_request& r) { return static_cast<T*>(self)->send(r); },
    };
    return detail::embed_batches(parts, texts, purpose);
}

/// Embeds texts for a purpose: one vector per text in their order, or a failure (its message
/// starts with "agentry:" and holds the provider's). What embedding_selector calls.
using embedder =
    std::function<outcome<std::vector<std::vector<float>>>(std::span<const std::string> texts, embed_purpose purpose)>;

/// An embedder sending with `client` over `transport` (both kept, shared by the embedder's copies;
/// calls on copies are not synchronised, as a transport's are not).
template <embedding_client C, transport T>
embedder make_embedder(C client, T transport) {
    struct parts {
        C client;
        T transport;
    };
    auto kept = std::make_shared<parts>(parts{std::move(client), std::move(transport)});
    return [kept](std::span<const std::string> texts,
                  embed_purpose purpose) -> outcome<std::vector<std::vector<float>>> {
        embed_result r = embed(kept->client, kept->transport, texts, purpose);
        if (r.error) return detail::embedding_failure(*r.error);
        return std::move(r.vectors);
    };
}

} // namespace agentry

#if !defined(AGENTRY_SEPARATE_COMPILATION)
#include <agentry/select/impl/embeddings.ipp>
#endif

#endif
