// SPDX-License-Identifier: BSL-1.0
#ifndef AGENTRY_OPENAPI_DETAIL_RESOLVE_HPP
#define AGENTRY_OPENAPI_DETAIL_RESOLVE_HPP

// A part of an OpenAPI document with every local $ref ("#/a/b", JSON Pointer with ~0 and ~1)
// replaced by a copy of what it names, or the reason it cannot be: an external $ref, a pointer
// to nothing, a cycle (named by its chain of refs), or a copy past the bounds on size and depth.
// The bounds also keep a document whose refs fan out from growing exponentially.

#include <agentry/json/value.hpp>

#include <cstddef>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace agentry::openapi::detail {

/// The value `pointer` ("#/components/schemas/Pet") names in `root`, or null.
inline const json::value* follow_pointer(const json::value& root, std::string_view pointer) {
    if (pointer.empty() || pointer.front() != '#') return nullptr;
    pointer.remove_prefix(1);
    const json::value* at = &root;
    while (!pointer.empty()) {
        if (pointer.front() != '/') return nullptr;
        pointer.remove_prefix(1);
        const std::size_t end = pointer.find('/');
        const std::string_view raw = pointer.substr(0, end);
        pointer = end == std::string_view::npos ? std::string_view() : pointer.substr(end);
        std::string token;
        for (std::size_t i = 0; i != raw.size(); ++i) {
            if (raw[i] == '~' && i + 1 != raw.size() && (raw[i + 1] == '0' || raw[i + 1] == '1')) {
                token += raw[++i] == '0' ? '~' : '/';
            } else if (raw[i] == '%' && i + 2 < raw.size()) {  // a pointer in a URI fragment may be percent-encoded
                const auto hex = [](char c) {
                    return c >= '0' && c <= '9' ? c - '0' : c >= 'a' && c <= 'f' ? c - 'a' + 10 : c >= 'A' && c <= 'F' ? c - 'A' + 10 : -1;
                };
                const int hi = hex(raw[i + 1]), lo = hex(raw[i + 2]);
                if (hi < 0 || lo < 0) return nullptr;
                token += char(hi * 16 + lo);
                i += 2;
            } else {
                token += raw[i];
            }
        }
        if (at->is_object()) {
            at = at->find(token);
        } else if (at->is_array()) {
            std::size_t index = 0;
            if (token.empty() || token.size() > 9) return nullptr;
            for (char c : token) {
                if (c < '0' || c > '9') return nullptr;
                index = index * 10 + std::size_t(c - '0');
            }
            at = index < at->items().size() ? &at->items()[index] : nullptr;
        } else {
            return nullptr;
        }
        if (!at) return nullptr;
    }
    return at;
}

class ref_resolver {
public:
    /// `siblings`: keep the members beside a $ref (OpenAPI 3.1); 3.0 ignores them.
    ref_resolver(const json::value& root, bool siblings, std::size_t max_nodes, std::size_t max_depth) noexcept
        : root_(root), siblings_(siblings), max_nodes_(max_nodes), max_depth_(max_depth) {}

    /// `v` with its refs replaced, or nothing with `why` set. Each call has its own budget.
    std::optional<json::value> resolve(const json::value& v, std::string& why) {
        nodes_ = 0;
        chain_.clear();
        why_.clear();
        json::value out;
        if (!copy(v, out, 0)) {
            why = why_;
            return std::nullopt;
        }
        return out;
    }

private:
    bool fail(std::string reason) {
        why_ = std::move(reason);
        return false;
    }

    bool copy(const json::value& v, json::value& out, std::size_t depth) {
        if (++nodes_ > max_nodes_)
            return fail("its schema, with the $refs inlined, is larger than " + std::to_string(max_nodes_) +
                        " nodes (toolset_options::max_schema_nodes)");
        if (depth > max_depth_)
            return fail("its schema, with the $refs inlined, is nested deeper than " + std::to_string(max_depth_) +
                        " levels (toolset_options::max_schema_depth)");
        if (v.is_array()) {
            out = json::value::array();
            out.items().reserve(v.items().size());
            for (const json::value& item : v.items()) {
                json::value copied;
                if (!copy(item, copied, depth + 1)) return false;
                out.items().push_back(std::move(copied));
            }
            return true;
        }
        if (!v.is_object()) {
            out = v;
            return true;
        }
        const json::value* ref = v.find("$ref");
        if (ref && ref->is_string()) return inline_ref(v, ref->as_string(), out, depth);
        out = json::value::object();
        out.members().reserve(v.members().size());
        for (const json::member& m : v.members()) {
            json::value copied;
            if (!copy(m.value, copied, depth + 1)) return false;
            out.members().push_back({m.key, std::move(copied)});
        }
        return true;
    }

    bool inline_ref(const json::value& v, const std::string& ref, json::value& out, std::size_t depth) {
        if (ref.empty() || ref.front() != '#')
            return fail("the $ref \"" + ref + "\" is not a local reference (\"#/...\"); external references are not "
                        "supported");
        for (const std::string& seen : chain_)
            if (seen == ref) {
                std::string cycle;
                bool in = false;
                for (const std::string& s : chain_) {
                    in = in || s == ref;
                    if (in) cycle += s + " -> ";
                }
                return fail("its $refs form a cycle: " + cycle + ref);
            }
        const json::value* target = follow_pointer(root_, ref);
        if (!target) return fail("the $ref \"" + ref + "\" names nothing in the document");
        chain_.push_back(ref);
        if (!copy(*target, out, depth + 1)) return false;
        chain_.pop_back();
        if (!siblings_ || v.members().size() == 1) return true;
        if (!out.is_object()) return true;
        for (const json::member& m : v.members()) {
            if (m.key == "$ref") continue;
            json::value copied;
            if (!copy(m.value, copied, depth + 1)) return false;
            out.set(m.key, std::move(copied));
        }
        return true;
    }

    const json::value& root_;
    bool siblings_;
    std::size_t max_nodes_;
    std::size_t max_depth_;
    std::size_t nodes_ = 0;
    std::vector<std::string> chain_;
    std::string why_;
};

/// Removes the member `key` of an object.
inline void drop(json::value& v, std::string_view key) {
    std::erase_if(v.members(), [&](const json::member& m) { return m.key == key; });
}

/// An OpenAPI schema object as JSON Schema 2020-12: 3.0's `nullable` as a "null" type, its
/// boolean exclusiveMinimum/exclusiveMaximum as numbers; the annotations only OpenAPI reads
/// (discriminator, xml, externalDocs, example) and readOnly properties of a request left out.
inline void normalize_schema(json::value& s) {
    if (s.is_array()) {
        for (json::value& item : s.items()) normalize_schema(item);
        return;
    }
    if (!s.is_object()) return;
    for (std::string_view k : {"discriminator", "xml", "externalDocs", "example", "examples", "deprecated", "writeOnly"})
        drop(s, k);
    if (const json::value* n = s.find("nullable")) {
        const bool nullable = n->as_bool();
        drop(s, "nullable");
        json::value* t = s.find("type");
        if (nullable && t && t->is_string()) {
            json::value list = json::value::array();
            list.push_back(*t);
            list.push_back("null");
            *t = std::move(list);
        }
    }
    for (std::string_view bound : {"Minimum", "Maximum"}) {
        const std::string exclusive = "exclusive" + std::string(bound);
        std::string plain(bound);
        plain[0] = char(plain[0] - 'A' + 'a');
        json::value* e = s.find(exclusive);
        if (!e || !e->is_bool()) continue;
        const bool on = e->as_bool();
        drop(s, exclusive);
        if (!on) continue;
        if (const json::value* limit = s.find(plain)) {
            json::value moved = *limit;
            drop(s, plain);
            s.set(exclusive, std::move(moved));
        }
    }
    if (json::value* props = s.find("properties"); props && props->is_object()) {
        std::vector<std::string> read_only;
        for (const json::member& m : props->members())
            if (const json::value* r = m.value.find("readOnly"); r && r->as_bool()) read_only.push_back(m.key);
        for (const std::string& k : read_only) drop(*props, k);
        if (json::value* req = s.find("required"); req && req->is_array() && !read_only.empty())
            std::erase_if(req->items(), [&](const json::value& r) {
                for (const std::string& k : read_only)
                    if (r.is_string() && r.as_string() == k) return true;
                return false;
            });
    }
    for (json::member& m : s.members()) {
        if (m.key == "properties" || m.key == "$defs" || m.key == "patternProperties") {
            for (json::member& p : m.value.members()) normalize_schema(p.value);
        } else if (m.key != "enum" && m.key != "const" && m.key != "default" && m.key != "required") {
            normalize_schema(m.value);
        }
    }
    drop(s, "readOnly");
}

} // namespace agentry::openapi::detail

#endif
