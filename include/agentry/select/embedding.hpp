// SPDX-License-Identifier: BSL-1.0
#ifndef AGENTRY_SELECT_EMBEDDING_HPP
#define AGENTRY_SELECT_EMBEDDING_HPP

// agentry::embedding_selector: scores each tool by the cosine similarity of its embedding and
// the turn's query text's (negatives as 0).
//
//   agentry::openai_embeddings small{.model = "text-embedding-3-small"};
//   agentry::embedding_selector by_meaning{agentry::make_embedder(small, agentry::curl_transport{}), small.id()};
//   if (auto saved = read_file("tools.embeddings.json")) by_meaning.load(*saved);
//   auto choose = agentry::top_k(by_meaning, 8);
//   ...
//   write_file("tools.embeddings.json", by_meaning.save());
//
// The index: one vector per catalog entry, of embedding_text(entry) (its name, description and
// parameter descriptions). It is brought up to date when the catalog's version changes: only the
// entries whose text is not in the cache are embedded, in one embedder call (which the clients
// send in batches), so tools added later embed only themselves. The cache maps sha256(model id,
// NUL, text) to the vector; save() writes it as JSON text and load() reads it back, so that a
// program embeds its tools once across restarts.
//
// Cost per turn: one embedder call for the query text (none when the text is the previous
// turn's, or empty), then one dot product per tool (dimensions x tools multiply-adds).
//
// Failures: an embedder call that fails (or throws) makes score() add nothing on that turn
// (with top_k and nothing else scoring, every tool is sent) and records the failure in
// last_error(); score() never throws into the agent. An index that failed is built again on the
// next turn.
//
// Copies share the index, the cache and the last error (an agent keeps a copy, the program
// another for save()); calls are serialised by a mutex, embedder calls included.

#include <agentry/detail/separate.hpp>
#include <agentry/outcome.hpp>
#include <agentry/select/catalog.hpp>
#include <agentry/select/embeddings.hpp>

#include <cstddef>
#include <memory>
#include <optional>
#include <span>
#include <string>
#include <string_view>

namespace agentry {

class embedding_selector {
public:
    /// Embeds with `embed`; `model` names the model in cache keys and saved indexes (e.g.
    /// openai_embeddings::id()), so that vectors of another model are never mixed in.
    AGENTRY_DECL embedding_selector(embedder embed, std::string model);

    /// Adds max(0, cosine(query, tool)) to out[i] for each entry i (see the top of this header).
    AGENTRY_DECL void score(const tool_catalog& catalog, const turn_query& query, std::span<double> out) noexcept;

    /// The cache as JSON: {"model":...,"dims":N,"entries":[{"hash":"<64 hex digits>","vector":[...]}]},
    /// entries by hash.
    AGENTRY_DECL std::string save() const;
    /// Adds the entries of a text save() wrote to the cache. Refused, with nothing added: a text
    /// that is not such JSON, or of another model, or of other dimensions than the vectors
    /// already cached.
    AGENTRY_DECL outcome<void> load(std::string_view text);

    /// The failure of the latest score() that could not embed what it needed; empty once a
    /// later score() has.
    AGENTRY_DECL std::optional<failure> last_error() const;
    /// Vectors in the cache.
    AGENTRY_DECL std::size_t cached() const;
    /// The model id given at construction.
    AGENTRY_DECL std::string model() const;

private:
    struct state;
    std::shared_ptr<state> state_;
};

/// What the index embeds for a tool: its name, its description, then a line "name: description"
/// per property of its definition's schemas that has a description, in the definition's order.
AGENTRY_DECL std::string embedding_text(const catalog_entry& entry);

namespace detail {

/// max(0, cosine(a, b)); 0 when the sizes differ or either is zero.
AGENTRY_DECL double positive_cosine(std::span<const float> a, std::span<const float> b) noexcept;

/// The cache key of `text` under `model`: the hex sha256 of model, NUL, text.
AGENTRY_DECL std::string embedding_key(std::string_view model, std::string_view text);

} // namespace detail

} // namespace agentry

#if !defined(AGENTRY_SEPARATE_COMPILATION)
#include <agentry/select/impl/embedding.ipp>
#endif

#endif
