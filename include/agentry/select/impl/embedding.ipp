// SPDX-License-Identifier: BSL-1.0
#ifndef AGENTRY_SELECT_IMPL_EMBEDDING_IPP
#define AGENTRY_SELECT_IMPL_EMBEDDING_IPP

// The definitions of select/embedding.hpp: included by it header-only, and by <agentry/src.hpp>
// in separate compilation (detail/separate.hpp).

#include <agentry/detail/separate.hpp>
#include <agentry/detail/sha256.hpp>
#include <agentry/json/impl/src.ipp>
#include <agentry/json/reader.hpp>
#include <agentry/json/value.hpp>
#include <agentry/json/writer.hpp>
#include <agentry/select/embedding.hpp>

#include <algorithm>
#include <array>
#include <cmath>
#include <cstddef>
#include <cstdint>
#include <exception>
#include <memory>
#include <mutex>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <unordered_map>
#include <unordered_set>
#include <utility>
#include <vector>

namespace agentry {

namespace detail::embedding_saved {

struct entry {
    std::string hash;
    std::vector<float> vector;
};
struct index {
    std::string model;
    std::size_t dims = 0;
    std::vector<entry> entries;
};

/// The properties' descriptions of every schema in `v`, as lines "name: description".
inline void add_descriptions(const json::value& v, std::string& out) {
    if (v.is_array()) {
        for (const json::value& item : v.items()) add_descriptions(item, out);
        return;
    }
    if (!v.is_object()) return;
    if (const json::value* properties = v.find("properties"); properties != nullptr && properties->is_object())
        for (const json::member& p : properties->members())
            if (const json::value* d = p.value.find("description"); d != nullptr && !d->as_string().empty())
                out.append("\n").append(p.key).append(": ").append(d->as_string());
    for (const json::member& m : v.members()) add_descriptions(m.value, out);
}

inline bool is_key(std::string_view hash) noexcept {
    return hash.size() == 64 && hash.find_first_not_of("0123456789abcdef") == std::string_view::npos;
}

} // namespace detail::embedding_saved

struct embedding_selector::state {
    std::mutex mutex;
    embedder embed;
    std::string model;
    /// The size of every cached vector; 0 while the cache is empty.
    std::size_t dims = 0;
    /// Key (detail::embedding_key) -> vector. Elements keep their address as the map grows.
    std::unordered_map<std::string, std::vector<float>> cache;

    /// The catalog the index was built for, and its version and size then.
    const tool_catalog* catalog = nullptr;
    std::uint64_t version = 0;
    std::size_t size = 0;
    bool built = false;
    /// One vector per catalog entry.
    std::vector<const std::vector<float>*> index;

    bool has_query = false;
    std::string query_text;
    std::vector<float> query;

    std::optional<failure> error;

    /// Vectors of one embedder call, checked against the texts and the cache's size.
    std::optional<std::vector<std::vector<float>>> call(std::span<const std::string> texts, embed_purpose purpose) {
        outcome<std::vector<std::vector<float>>> got = embed(texts, purpose);
        if (!got) {
            error = std::move(got).error();
            return std::nullopt;
        }
        if (got->size() != texts.size()) {
            error = fail(failure_kind::permanent, "agentry: embedding_selector: the embedder returned " +
                                                      std::to_string(got->size()) + " vectors for " +
                                                      std::to_string(texts.size()) + " texts; fix the embedder");
            return std::nullopt;
        }
        for (const std::vector<float>& v : *got) {
            const std::size_t want = dims != 0 ? dims : got->front().size();
            if (v.empty() || v.size() != want) {
                error = fail(failure_kind::permanent,
                             "agentry: embedding_selector: the embedder returned a vector of " + std::to_string(v.size()) +
                                 " numbers where the index has " + std::to_string(want) +
                                 "; a changed model needs another model id (and a fresh saved index)");
                return std::nullopt;
            }
        }
        return std::move(*got);
    }

    /// Brings the index up to date with `catalog`; false (error set) when embedding failed.
    bool update(const tool_catalog& c) {
        if (built && catalog == &c && version == c.version() && size == c.size()) return true;
        built = false;
        std::vector<std::string> keys, missing, missing_keys;
        std::unordered_set<std::string_view> asked;
        keys.reserve(c.size());
        missing_keys.reserve(c.size());
        for (const catalog_entry& e : c.entries()) {
            std::string text = embedding_text(e);
            std::string key = detail::embedding_key(model, text);
            if (!cache.contains(key) && !asked.contains(key)) {
                missing.push_back(std::move(text));
                missing_keys.push_back(key);
                asked.insert(missing_keys.back());  // reserved: the views stay valid
            }
            keys.push_back(std::move(key));
        }
        if (!missing.empty()) {
            std::optional<std::vector<std::vector<float>>> got = call(missing, embed_purpose::document);
            if (!got) return false;
            if (dims == 0) dims = got->front().size();
            for (std::size_t i = 0; i != missing.size(); ++i) cache.emplace(std::move(missing_keys[i]), std::move((*got)[i]));
        }
        index.clear();
        for (const std::string& key : keys) index.push_back(&cache.find(key)->second);
        catalog = &c;
        version = c.version();
        size = c.size();
        built = true;
        return true;
    }

    void score(const tool_catalog& c, const turn_query& q, std::span<double> out) {
        if (!update(c)) return;
        if (q.text.empty()) {
            error.reset();
            return;
        }
        if (!has_query || query_text != q.text) {
            has_query = false;
            const std::string text(q.text);
            std::optional<std::vector<std::vector<float>>> got = call(std::span<const std::string>(&text, 1), embed_purpose::query);
            if (!got) return;
            query = std::move(got->front());
            query_text = text;
            has_query = true;
        }
        const std::size_t n = std::min(out.size(), index.size());
        for (std::size_t i = 0; i != n; ++i) out[i] += detail::positive_cosine(query, *index[i]);
        error.reset();
    }
};

AGENTRY_DECL embedding_selector::embedding_selector(embedder embed, std::string model)
    : state_(std::make_shared<state>()) {
    state_->embed = std::move(embed);
    state_->model = std::move(model);
}

AGENTRY_DECL void embedding_selector::score(const tool_catalog& catalog, const turn_query& query,
                                            std::span<double> out) noexcept {
    try {
        const std::lock_guard lock(state_->mutex);
        try {
            state_->score(catalog, query, out);
        } catch (const std::exception& e) {
            state_->built = false;
            state_->error = fail(failure_kind::transient, std::string("agentry: embedding_selector: the embedder threw: ") +
                                                              e.what() + "; no tool was scored on this turn");
        } catch (...) {
            state_->built = false;
            state_->error = fail(failure_kind::transient,
                                 "agentry: embedding_selector: the embedder threw; no tool was scored on this turn");
        }
    } catch (...) {
        // The mutex could not be locked, or the error could not be recorded: nothing scored.
    }
}

AGENTRY_DECL std::string embedding_selector::save() const {
    detail::embedding_saved::index saved;
    {
        const std::lock_guard lock(state_->mutex);
        saved.model = state_->model;
        saved.dims = state_->dims;
        saved.entries.reserve(state_->cache.size());
        for (const auto& [key, vector] : state_->cache) saved.entries.push_back({key, vector});
    }
    std::sort(saved.entries.begin(), saved.entries.end(),
              [](const auto& a, const auto& b) { return a.hash < b.hash; });
    std::string out;
    json::write(out, saved);
    return out;
}

AGENTRY_DECL outcome<void> embedding_selector::load(std::string_view text) {
    json::read_options options;
    options.max_size = text.size() + 1;
    options.max_depth = 8;
    options.max_errors = 1;
    auto read = json::read<detail::embedding_saved::index>(text, options);
    const std::string what = "agentry: embedding_selector::load: ";
    if (!read.ok())
        return fail(failure_kind::invalid_input, what + "unreadable saved index: " + read.errors.front().to_string() +
                                                     "; pass the text save() wrote");
    detail::embedding_saved::index& saved = read.value;
    const std::lock_guard lock(state_->mutex);
    if (saved.model != state_->model)
        return fail(failure_kind::invalid_input, what + "the saved index is of model '" + saved.model +
                                                     "', this selector's is '" + state_->model +
                                                     "'; embed again (discard the saved index) or use that model");
    if (saved.dims == 0 && !saved.entries.empty())
        return fail(failure_kind::invalid_input, what + "the saved index has entries and \"dims\" 0; pass the text save() wrote");
    if (state_->dims != 0 && saved.dims != 0 && saved.dims != state_->dims)
        return fail(failure_kind::invalid_input, what + "the saved index has vectors of " + std::to_string(saved.dims) +
                                                     " numbers, this selector's of " + std::to_string(state_->dims) +
                                                     "; discard the saved index");
    for (std::size_t i = 0; i != saved.entries.size(); ++i) {
        const detail::embedding_saved::entry& e = saved.entries[i];
        if (!detail::embedding_saved::is_key(e.hash))
            return fail(failure_kind::invalid_input, what + "entry " + std::to_string(i) +
                                                         ": \"hash\" is not 64 lowercase hex digits; pass the text save() wrote");
        if (e.vector.size() != saved.dims)
            return fail(failure_kind::invalid_input, what + "entry " + std::to_string(i) + " has a vector of " +
                                                         std::to_string(e.vector.size()) + " numbers, not \"dims\" " +
                                                         std::to_string(saved.dims) + "; pass the text save() wrote");
    }
    if (saved.dims != 0) state_->dims = saved.dims;
    for (detail::embedding_saved::entry& e : saved.entries) state_->cache.emplace(std::move(e.hash), std::move(e.vector));
    return {};
}

AGENTRY_DECL std::optional<failure> embedding_selector::last_error() const {
    const std::lock_guard lock(state_->mutex);
    return state_->error;
}

AGENTRY_DECL std::size_t embedding_selector::cached() const {
    const std::lock_guard lock(state_->mutex);
    return state_->cache.size();
}

AGENTRY_DECL std::string embedding_selector::model() const { return state_->model; }

AGENTRY_DECL std::string embedding_text(const catalog_entry& entry) {
    std::string out(entry.name);
    if (!entry.description.empty()) out.append("\n").append(entry.description);
    const json::parsed definition = json::parse(entry.definition);
    if (definition.ok()) detail::embedding_saved::add_descriptions(definition.value, out);
    return out;
}

namespace detail {

AGENTRY_DECL double positive_cosine(std::span<const float> a, std::span<const float> b) noexcept {
    if (a.size() != b.size() || a.empty()) return 0;
    double dot = 0, aa = 0, bb = 0;
    for (std::size_t i = 0; i != a.size(); ++i) {
        dot += double(a[i]) * double(b[i]);
        aa += double(a[i]) * double(a[i]);
        bb += double(b[i]) * double(b[i]);
    }
    if (aa == 0 || bb == 0) return 0;
    const double c = dot / std::sqrt(aa * bb);
    return c > 0 ? c : 0;
}

AGENTRY_DECL std::string embedding_key(std::string_view model, std::string_view text) {
    sha256_state h;
    h.update(model);
    h.update(std::string_view("\0", 1));
    h.update(text);
    const std::array<unsigned char, 32> digest = h.digest();
    static constexpr char hex[] = "0123456789abcdef";
    std::string out(64, '0');
    for (std::size_t i = 0; i != digest.size(); ++i) {
        out[2 * i] = hex[digest[i] >> 4];
        out[2 * i + 1] = hex[digest[i] & 0xf];
    }
    return out;
}

} // namespace detail

} // namespace agentry

#endif
