// SPDX-License-Identifier: BSL-1.0
#ifndef AGENTRY_MCP_DETAIL_TOOL_SCHEMA_HPP
#define AGENTRY_MCP_DETAIL_TOOL_SCHEMA_HPP

// A server's inputSchema rewritten into a provider's dialect, or the reason it cannot be. The
// arguments are checked against the server's own schema by json::schema_checker
// (json/schema_check.hpp), not here.

#include <agentry/json/value.hpp>
#include <agentry/schema/constraints.hpp>
#include <agentry/schema/dialect.hpp>

#include <cctype>
#include <cstddef>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace agentry::mcp::detail {

/// Removes the member `key` of an object.
inline void erase_member(json::value& v, std::string_view key) {
    std::erase_if(v.members(), [&](const json::member& m) { return m.key == key; });
}

class schema_converter {
public:
    schema_converter(dialect_kind kind, const dialect_rules& rules) noexcept : kind_(kind), rules_(rules) {}

    /// `schema` in the dialect, or nothing with `why` naming the JSON pointer and the reason.
    std::optional<json::value> convert(const json::value& schema, std::string& why) {
        json::value out = schema;
        erase_member(out, "$schema");
        if (!out.find("type") && out.is_object()) out.set("type", "object");
        if (!node(out, "", 0)) {
            why = why_;
            return std::nullopt;
        }
        return out;
    }

private:
    bool strict() const noexcept {
        return kind_ == dialect_kind::openai_strict || kind_ == dialect_kind::anthropic_strict ||
               kind_ == dialect_kind::openai_responses_strict;
    }
    bool standard() const noexcept { return kind_ == dialect_kind::standard || kind_ == dialect_kind::mcp; }

    bool refuse(std::string_view path, std::string reason) {
        why_ = "at \"" + std::string(path.empty() ? "/" : path) + "\": " + std::move(reason) + ", which the " +
               std::string(rules_.name) + " dialect cannot express";
        return false;
    }

    static std::string_view string_of(const json::value& s, std::string_view key) noexcept {
        const json::value* v = s.find(key);
        return v && v->is_string() ? std::string_view(v->as_string()) : std::string_view();
    }

    static void note(json::value& s, std::string_view text) {
        std::string d(string_of(s, "description"));
        if (!d.empty()) d += ' ';
        d += '(';
        d += text;
        d += ')';
        s.set("description", std::move(d));
    }

    // Moves `key` into the description as "key: value".
    static void demote(json::value& s, std::string_view key) {
        const json::value* v = s.find(key);
        if (!v) return;
        std::string text(key);
        text += ": ";
        text += v->is_string() ? v->as_string() : json::to_text(*v);
        erase_member(s, key);
        note(s, text);
    }

    bool keyword_allowed(constraint_keyword k) const noexcept { return (rules_.keywords & keyword_bit(k)) != 0; }

    bool format_allowed(std::string_view name) const noexcept {
        if (!keyword_allowed(constraint_keyword::format)) return false;
        for (std::size_t i = 0; i != string_format_count; ++i)
            if (format_name(string_format(i)) == name) return (rules_.formats & format_bit(string_format(i))) != 0;
        return standard();
    }

    bool node(json::value& s, const std::string& path, std::size_t depth) {
        if (s.is_bool()) {
            if (standard() || s.as_bool()) {
                if (!rules_.any_value) return refuse(path, "a schema that accepts any value");
                return true;
            }
            return refuse(path, "a schema that accepts nothing");
        }
        if (!s.is_object()) return refuse(path, "a schema that is not an object");
        if (standard()) return true;
        if (depth > rules_.max_depth) return refuse(path, "nesting deeper than " + std::to_string(rules_.max_depth));
        if (!rules_.refs && (s.find("$ref") || s.find("$defs") || s.find("definitions")))
            return refuse(path, "a $ref");
        for (std::string_view k : {"allOf", "not", "if", "then", "else", "dependentSchemas", "patternProperties"})
            if (s.find(k) && (strict() || kind_ == dialect_kind::gemini)) return refuse(path, "\"" + std::string(k) + "\"");
        if (json::value* one = s.find("oneOf")) {
            json::value moved = std::move(*one);
            erase_member(s, "oneOf");
            s.set("anyOf", std::move(moved));
        }
        if (const json::value* any = s.find("anyOf"); any && any->is_array() && any->items().size() > rules_.max_union_types)
            return refuse(path, "a union of more than " + std::to_string(rules_.max_union_types) + " types");
        if (const json::value* e = s.find("enum"); e && e->is_array() && e->items().size() > rules_.max_enum_values)
            return refuse(path, "an enum of more than " + std::to_string(rules_.max_enum_values) + " values");
        if (!rules_.prefix_items && s.find("prefixItems")) return refuse(path, "\"prefixItems\" (a tuple)");
        if (!rules_.default_keyword) demote(s, "default");
        for (std::size_t i = 0; i != constraint_keyword_count; ++i) {
            const auto k = constraint_keyword(i);
            if (k == constraint_keyword::format) continue;
            if (!keyword_allowed(k)) demote(s, keyword_name(k));
        }
        if (s.find("format") && !format_allowed(string_of(s, "format"))) demote(s, "format");
        if (const json::value* m = s.find("minItems"); m && m->is_number() && m->as_double() > double(rules_.max_min_items))
            demote(s, "minItems");

        // type: a name, or a list of names.
        const json::value* type = s.find("type");
        const bool has_type = type != nullptr;
        bool nullable = false;
        std::string single;
        if (type && type->is_array()) {
            std::vector<std::string> names;
            for (const json::value& t : type->items())
                if (t.is_string()) {
                    if (t.as_string() == "null") nullable = true;
                    else names.push_back(t.as_string());
                }
            if (names.size() != 1 && !rules_.type_arrays) return refuse(path, "a value of several types");
            if (names.size() == 1) single = names[0];
        } else if (type && type->is_string()) {
            single = type->as_string();
        } else if (!type && !s.find("anyOf") && !s.find("enum") && !s.find("const") && !rules_.any_value) {
            if (s.find("$ref")) {
                why_ = "at \"" + std::string(path.empty() ? "/" : path) +
                       "\": a $ref; the schema it names is not rewritten into the " + std::string(rules_.name) +
                       " dialect";
                return false;
            }
            return refuse(path, "a value of any type (no \"type\")");
        }
        if (!single.empty() && !rules_.type_arrays) {
            if (nullable) s.set("nullable", true);
            s.set("type", single);
        }
        if (rules_.upper_case_types) upper_types(s);

        if (single == "object" || (!has_type && s.find("properties"))) {
            if (!object(s, path, depth)) return false;
        }
        if (json::value* items = s.find("items")) {
            if (!node(*items, path + "/items", depth + 1)) return false;
        }
        if (json::value* any = s.find("anyOf"); any && any->is_array()) {
            for (std::size_t i = 0; i != any->items().size(); ++i)
                if (!node(any->items()[i], path + "/anyOf/" + std::to_string(i), depth)) return false;
        }
        return true;
    }

    static void upper_types(json::value& s) {
        const auto up = [](json::value& t) {
            if (!t.is_string()) return;
            std::string text = t.as_string();
            for (char& c : text) c = char(std::toupper(static_cast<unsigned char>(c)));
            t = json::value(std::move(text));
        };
        if (json::value* t = s.find("type")) {
            if (t->is_string()) up(*t);
            else
                for (json::value& x : t->items()) up(x);
        }
    }

    static bool listed(const json::value& required, std::string_view name) noexcept {
        for (const json::value& r : required.items())
            if (r.is_string() && r.as_string() == name) return true;
        return false;
    }

    bool object(json::value& s, const std::string& path, std::size_t depth) {
        const json::value* props = s.find("properties");
        const std::size_t count = props && props->is_object() ? props->members().size() : 0;
        if (count > rules_.max_properties)
            return refuse(path, "an object of more than " + std::to_string(rules_.max_properties) + " properties");
        if (const json::value* extra = s.find("additionalProperties"); extra && extra->is_object() && !rules_.maps)
            return refuse(path, "\"additionalProperties\" with a schema (a map)");
        if (kind_ == dialect_kind::gemini) erase_member(s, "additionalProperties");
        else if (strict()) s.set("additionalProperties", false);
        json::value* properties = s.find("properties");  // set() may have moved the members
        if (properties && properties->is_object()) {
            for (json::member& m : properties->members())
                if (!node(m.value, path + "/properties/" + m.key, depth + 1)) return false;
        }
        if (rules_.all_required && properties && properties->is_object()) {
            json::value required = json::value::array();
            if (const json::value* r = s.find("required"); r && r->is_array()) required = *r;
            for (json::member& m : properties->members()) {
                if (listed(required, m.key)) continue;
                if (!make_nullable(m.value))
                    return refuse(path + "/properties/" + m.key, "an optional property without a \"type\"");
                required.push_back(m.key);
            }
            s.set("required", std::move(required));
        }
        return true;
    }

    static bool make_nullable(json::value& s) {
        if (json::value* e = s.find("enum"); e && e->is_array()) {
            bool has_null = false;
            for (const json::value& x : e->items()) has_null = has_null || x.is_null();
            if (!has_null) e->push_back(json::value());
        }
        json::value* t = s.find("type");
        if (!t) return false;
        if (t->is_string()) {
            if (t->as_string() == "null") return true;
            json::value list = json::value::array();
            list.push_back(*t);
            list.push_back("null");
            *t = std::move(list);
            return true;
        }
        for (const json::value& x : t->items())
            if (x.is_string() && x.as_string() == "null") return true;
        t->push_back("null");
        return true;
    }

    dialect_kind kind_;
    const dialect_rules& rules_;
    std::string why_;
};

} // namespace agentry::mcp::detail

#endif
