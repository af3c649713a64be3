// SPDX-License-Identifier: BSL-1.0
#ifndef AGENTRY_MCP_DETAIL_CLIENT_SCHEMA_HPP
#define AGENTRY_MCP_DETAIL_CLIENT_SCHEMA_HPP

// A server's inputSchema at run time: rewritten into a provider's dialect (or the reason it
// cannot be), and a small check of arguments against it before a call.

#include <agentry/mcp/detail/client_json.hpp>
#include <agentry/schema/constraints.hpp>
#include <agentry/schema/dialect.hpp>

#include <cctype>
#include <cmath>
#include <cstddef>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace agentry::mcp::detail {

class schema_converter {
public:
    schema_converter(dialect_kind kind, const dialect_rules& rules) noexcept : kind_(kind), rules_(rules) {}

    /// `schema` in the dialect, or nothing with `why` naming the JSON pointer and the reason.
    std::optional<jvalue> convert(const jvalue& schema, std::string& why) {
        jvalue out = schema;
        out.erase("$schema");
        if (!out.get("type") && out.is(jtype::object)) out.set("type", jvalue::string("object"));
        if (!node(out, "", 0)) {
            why = why_;
            return std::nullopt;
        }
        return out;
    }

private:
    bool strict() const noexcept { return kind_ == dialect_kind::openai_strict || kind_ == dialect_kind::anthropic_strict; }
    bool standard() const noexcept { return kind_ == dialect_kind::standard || kind_ == dialect_kind::mcp; }

    bool refuse(std::string_view path, std::string reason) {
        why_ = "at \"" + std::string(path.empty() ? "/" : path) + "\": " + std::move(reason) + ", which the " +
               std::string(rules_.name) + " dialect cannot express";
        return false;
    }

    static void note(jvalue& s, std::string_view text) {
        std::string d(s.string_at("description"));
        if (!d.empty()) d += ' ';
        d += '(';
        d += text;
        d += ')';
        s.set("description", jvalue::string(std::move(d)));
    }

    // Moves `key` into the description as "key: value".
    static void demote(jvalue& s, std::string_view key) {
        const jvalue* v = s.get(key);
        if (!v) return;
        std::string text(key);
        text += ": ";
        text += v->is(jtype::string) ? v->text : to_json(*v);
        s.erase(key);
        note(s, text);
    }

    bool keyword_allowed(constraint_keyword k) const noexcept { return (rules_.keywords & keyword_bit(k)) != 0; }

    bool format_allowed(std::string_view name) const noexcept {
        if (!keyword_allowed(constraint_keyword::format)) return false;
        for (std::size_t i = 0; i != string_format_count; ++i)
            if (format_name(string_format(i)) == name) return (rules_.formats & format_bit(string_format(i))) != 0;
        return standard();
    }

    bool node(jvalue& s, const std::string& path, std::size_t depth) {
        if (s.is(jtype::boolean)) {
            if (standard() || s.boolean) {
                if (!rules_.any_value) return refuse(path, "a schema that accepts any value");
                return true;
            }
            return refuse(path, "a schema that accepts nothing");
        }
        if (!s.is(jtype::object)) return refuse(path, "a schema that is not an object");
        if (standard()) return true;
        if (depth > rules_.max_depth) return refuse(path, "nesting deeper than " + std::to_string(rules_.max_depth));
        if (!rules_.refs && (s.get("$ref") || s.get("$defs") || s.get("definitions")))
            return refuse(path, "a $ref");
        for (std::string_view k : {"allOf", "not", "if", "then", "else", "dependentSchemas", "patternProperties"})
            if (s.get(k) && (strict() || kind_ == dialect_kind::gemini)) return refuse(path, "\"" + std::string(k) + "\"");
        if (jvalue* one = s.get("oneOf")) {
            jvalue moved = std::move(*one);
            s.erase("oneOf");
            s.set("anyOf", std::move(moved));
        }
        if (const jvalue* any = s.get("anyOf"); any && any->is(jtype::array) && any->items.size() > rules_.max_union_types)
            return refuse(path, "a union of more than " + std::to_string(rules_.max_union_types) + " types");
        if (const jvalue* e = s.get("enum"); e && e->is(jtype::array) && e->items.size() > rules_.max_enum_values)
            return refuse(path, "an enum of more than " + std::to_string(rules_.max_enum_values) + " values");
        if (!rules_.prefix_items && s.get("prefixItems")) return refuse(path, "\"prefixItems\" (a tuple)");
        if (!rules_.default_keyword) demote(s, "default");
        for (std::size_t i = 0; i != constraint_keyword_count; ++i) {
            const auto k = constraint_keyword(i);
            if (k == constraint_keyword::format) continue;
            if (!keyword_allowed(k)) demote(s, keyword_name(k));
        }
        if (const jvalue* f = s.get("format"); f && !format_allowed(f->is(jtype::string) ? f->text : "")) demote(s, "format");
        if (k_has_min_items_over(s)) demote(s, "minItems");

        // type: a name, or a list of names.
        jvalue* type = s.get("type");
        bool nullable = false;
        std::string single;
        if (type && type->is(jtype::array)) {
            std::vector<std::string> names;
            for (const jvalue& t : type->items)
                if (t.is(jtype::string)) {
                    if (t.text == "null") nullable = true;
                    else names.push_back(t.text);
                }
            if (names.size() != 1 && !rules_.type_arrays) return refuse(path, "a value of several types");
            if (names.size() == 1) single = names[0];
        } else if (type && type->is(jtype::string)) {
            single = type->text;
        } else if (!type && !s.get("anyOf") && !s.get("enum") && !s.get("const") && !rules_.any_value) {
            return refuse(path, "a value of any type (no \"type\")");
        }
        if (!single.empty() && !rules_.type_arrays) {
            if (nullable) s.set("nullable", jvalue::boolean_value(true));
            s.set("type", jvalue::string(single));
        }
        if (rules_.upper_case_types) upper_types(s);

        if (single == "object" || (!type && s.get("properties"))) {
            if (!object(s, path, depth)) return false;
        }
        if (jvalue* items = s.get("items")) {
            if (!node(*items, path + "/items", depth + 1)) return false;
        }
        if (jvalue* any = s.get("anyOf"); any && any->is(jtype::array)) {
            for (std::size_t i = 0; i != any->items.size(); ++i)
                if (!node(any->items[i], path + "/anyOf/" + std::to_string(i), depth)) return false;
        }
        return true;
    }

    bool k_has_min_items_over(const jvalue& s) const noexcept {
        const jvalue* m = s.get("minItems");
        return m && m->is(jtype::number) && m->number > double(rules_.max_min_items);
    }

    static void upper_types(jvalue& s) {
        const auto up = [](std::string& t) {
            for (char& c : t) c = char(std::toupper(static_cast<unsigned char>(c)));
        };
        if (jvalue* t = s.get("type")) {
            if (t->is(jtype::string)) up(t->text);
            else
                for (jvalue& x : t->items) up(x.text);
        }
    }

    bool object(jvalue& s, const std::string& path, std::size_t depth) {
        jvalue* props = s.get("properties");
        const std::size_t count = props && props->is(jtype::object) ? props->members.size() : 0;
        if (count > rules_.max_properties)
            return refuse(path, "an object of more than " + std::to_string(rules_.max_properties) + " properties");
        if (const jvalue* extra = s.get("additionalProperties"); extra && extra->is(jtype::object) && !rules_.maps)
            return refuse(path, "\"additionalProperties\" with a schema (a map)");
        if (kind_ == dialect_kind::gemini) s.erase("additionalProperties");
        else if (strict()) s.set("additionalProperties", jvalue::boolean_value(false));
        props = s.get("properties");  // set() may have moved the members
        if (props && props->is(jtype::object)) {
            for (auto& [name, sub] : props->members)
                if (!node(sub, path + "/properties/" + name, depth + 1)) return false;
        }
        if (rules_.all_required && props && props->is(jtype::object)) {
            jvalue required = jvalue::array();
            if (const jvalue* r = s.get("required"); r && r->is(jtype::array)) required = *r;
            for (auto& [name, sub] : props->members) {
                bool listed = false;
                for (const jvalue& r : required.items) listed = listed || (r.is(jtype::string) && r.text == name);
                if (listed) continue;
                if (!make_nullable(sub)) return refuse(path + "/properties/" + name, "an optional property without a \"type\"");
                required.items.push_back(jvalue::string(name));
            }
            s.set("required", std::move(required));
        }
        return true;
    }

    static bool make_nullable(jvalue& s) {
        if (jvalue* e = s.get("enum"); e && e->is(jtype::array)) {
            bool has_null = false;
            for (const jvalue& x : e->items) has_null = has_null || x.is(jtype::null);
            if (!has_null) e->items.emplace_back();
        }
        jvalue* t = s.get("type");
        if (!t) return false;
        if (t->is(jtype::string)) {
            if (t->text == "null") return true;
            jvalue list = jvalue::array();
            list.items.push_back(*t);
            list.items.push_back(jvalue::string("null"));
            *t = std::move(list);
            return true;
        }
        for (const jvalue& x : t->items)
            if (x.text == "null") return true;
        t->items.push_back(jvalue::string("null"));
        return true;
    }

    dialect_kind kind_;
    const dialect_rules& rules_;
    std::string why_;
};

/// Checks `value` against `schema` for what the check covers: type (and integer), enum, const,
/// required, properties, additionalProperties false, items, minimum, maximum, exclusiveMinimum,
/// exclusiveMaximum, minLength, maxLength, minItems, maxItems; anyOf/oneOf pass when one branch
/// does. Everything else ($ref, pattern, format, ...) is left to the server. Appends one message
/// per problem (at most `limit`).
class argument_checker {
public:
    explicit argument_checker(std::size_t limit = 16) noexcept : limit_(limit) {}

    std::vector<std::string> check(const jvalue& schema, const jvalue& value) {
        errors_.clear();
        node(schema, value, "", 0);
        return std::move(errors_);
    }

private:
    void add(const std::string& path, std::string text) {
        if (errors_.size() < limit_) errors_.push_back((path.empty() ? std::string("/") : path) + ": " + std::move(text));
    }

    static std::string_view type_of(const jvalue& v) noexcept {
        switch (v.type) {
        case jtype::null: return "null";
        case jtype::boolean: return "boolean";
        case jtype::number: return v.is_integer() ? "integer" : "number";
        case jtype::string: return "string";
        case jtype::array: return "array";
        case jtype::object: return "object";
        }
        return "null";
    }

    static bool has_type(const jvalue& v, std::string_view t) noexcept {
        if (t == "number") return v.is(jtype::number);
        if (t == "integer") return v.is(jtype::number) && (v.is_integer() || std::floor(v.number) == v.number);
        return type_of(v) == t;
    }

    static std::size_t code_points(std::string_view s) noexcept {
        std::size_t n = 0;
        for (char c : s) n += (static_cast<unsigned char>(c) & 0xC0) != 0x80;
        return n;
    }

    void bound(const jvalue& s, std::string_view key, double actual, const std::string& path, bool below,
               bool exclusive, std::string_view what) {
        const jvalue* b = s.get(key);
        if (!b || !b->is(jtype::number)) return;
        const bool bad = below ? (exclusive ? actual <= b->number : actual < b->number)
                               : (exclusive ? actual >= b->number : actual > b->number);
        if (bad) add(path, std::string(what) + " must be " + (below ? (exclusive ? "above " : "at least ") : (exclusive ? "below " : "at most ")) + b->text);
    }

    void node(const jvalue& s, const jvalue& v, const std::string& path, std::size_t depth) {
        if (!s.is(jtype::object) || depth > 64) return;
        if (const jvalue* t = s.get("type")) {
            bool ok = false;
            std::string names;
            if (t->is(jtype::string)) {
                ok = has_type(v, t->text);
                names = t->text;
            } else {
                for (const jvalue& x : t->items) {
                    ok = ok || has_type(v, x.text);
                    names += names.empty() ? x.text : " or " + x.text;
                }
            }
            if (!ok) return add(path, "expected " + names + ", got " + std::string(type_of(v)));
        }
        if (const jvalue* e = s.get("enum"); e && e->is(jtype::array)) {
            bool found = false;
            for (const jvalue& x : e->items) found = found || x == v;
            if (!found) return add(path, to_json(v) + " is not one of " + to_json(*e));
        }
        if (const jvalue* c = s.get("const"); c && !(*c == v)) return add(path, "must be " + to_json(*c));
        for (std::string_view key : {"anyOf", "oneOf"}) {
            const jvalue* any = s.get(key);
            if (!any || !any->is(jtype::array) || any->items.empty()) continue;
            bool one = false;
            for (const jvalue& branch : any->items) {
                argument_checker inner(1);
                inner.node(branch, v, path, depth + 1);
                one = one || inner.errors_.empty();
            }
            if (!one) return add(path, "matches none of the allowed forms");
        }
        if (v.is(jtype::number)) {
            bound(s, "minimum", v.number, path, true, false, "the value");
            bound(s, "exclusiveMinimum", v.number, path, true, true, "the value");
            bound(s, "maximum", v.number, path, false, false, "the value");
            bound(s, "exclusiveMaximum", v.number, path, false, true, "the value");
        } else if (v.is(jtype::string)) {
            const double n = double(code_points(v.text));
            bound(s, "minLength", n, path, true, false, "the length");
            bound(s, "maxLength", n, path, false, false, "the length");
        } else if (v.is(jtype::array)) {
            bound(s, "minItems", double(v.items.size()), path, true, false, "the number of items");
            bound(s, "maxItems", double(v.items.size()), path, false, false, "the number of items");
            if (const jvalue* items = s.get("items"))
                for (std::size_t i = 0; i != v.items.size(); ++i)
                    node(*items, v.items[i], path + "/" + std::to_string(i), depth + 1);
        } else if (v.is(jtype::object)) {
            if (const jvalue* r = s.get("required"); r && r->is(jtype::array))
                for (const jvalue& name : r->items)
                    if (name.is(jtype::string) && !v.get(name.text)) add(path + "/" + name.text, "missing required property");
            const jvalue* props = s.get("properties");
            const jvalue* extra = s.get("additionalProperties");
            for (const auto& [name, member] : v.members) {
                const jvalue* sub = props ? props->get(name) : nullptr;
                if (sub) node(*sub, member, path + "/" + name, depth + 1);
                else if (extra && extra->is(jtype::boolean) && !extra->boolean) add(path + "/" + name, "unknown property");
                else if (extra && extra->is(jtype::object)) node(*extra, member, path + "/" + name, depth + 1);
            }
        }
    }

    std::size_t limit_;
    std::vector<std::string> errors_;
};

} // namespace agentry::mcp::detail

#endif
