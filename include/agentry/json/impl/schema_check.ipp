// SPDX-License-Identifier: BSL-1.0
#ifndef AGENTRY_JSON_IMPL_SCHEMA_CHECK_IPP
#define AGENTRY_JSON_IMPL_SCHEMA_CHECK_IPP

// The definitions of json/schema_check.hpp: included by that header (header-only) or by
// src.hpp and provider/src.hpp (separate compilation).

#include <agentry/detail/separate.hpp>
#include <agentry/detail/text.hpp>
#include <agentry/json/detail/decimal.hpp>
#include <agentry/json/detail/formats.hpp>
#include <agentry/json/detail/lexer.hpp>
#include <agentry/json/detail/suggest.hpp>
#include <agentry/json/schema_check.hpp>
#include <agentry/json/value.hpp>
#include <agentry/regex/pattern.hpp>

#include <algorithm>
#include <cmath>
#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace agentry::json {

namespace detail::schema_check_impl {

// Every pattern of a schema: the values of "pattern" and the keys of "patternProperties".
inline void collect_patterns(const value& schema, std::vector<std::string>& out) {
    if (schema.is_array()) {
        for (const value& item : schema.items()) collect_patterns(item, out);
        return;
    }
    if (!schema.is_object()) return;
    for (const member& m : schema.members()) {
        if (m.key == "pattern" && m.value.is_string()) out.push_back(m.value.as_string());
        if (m.key == "patternProperties" && m.value.is_object())
            for (const member& p : m.value.members()) out.push_back(p.key);
        collect_patterns(m.value, out);
    }
}

// "a string", "an integer", ... as the typed reader names what it expected.
inline std::string_view expected_type_name(std::string_view type) noexcept {
    if (type == "integer") return "an integer";
    if (type == "number") return "a number";
    if (type == "string") return "a string";
    if (type == "boolean") return "a boolean";
    if (type == "array") return "an array";
    if (type == "object") return "an object";
    if (type == "null") return "null";
    return type;
}

// The JSON type of a value as the typed reader names what it got.
inline std::string_view got_type_name(const value& v) noexcept {
    switch (v.type()) {
    case type::null: return "null";
    case type::boolean: return "a boolean";
    case type::number: return "a number";
    case type::string: return "a string";
    case type::array: return "an array";
    case type::object: return "an object";
    }
    return "a value";
}

inline bool has_type(const value& v, std::string_view type) noexcept {
    if (type == "integer") return v.is_integer();
    return type_name(v.type()) == type;
}

inline std::string excerpt(const value& v, std::size_t limit = 40) {
    return agentry::detail::printable(to_text(v), limit);
}

// A text for each value, equal exactly when the values are (value's operator==): members
// sorted by key, numbers as their exact decimal digits and exponent.
inline void canonical_key(const value& v, std::string& out) {
    switch (v.type()) {
    case type::null: out += 'n'; return;
    case type::boolean: out += v.as_bool() ? 't' : 'f'; return;
    case type::number: {
        const decimal d = to_decimal(v.number_text());
        if (d.count == 0) {
            out += "0;";
            return;
        }
        out += d.negative ? '-' : '+';
        out.append(d.digits, d.count);
        out += 'e';
        out += d.huge_exponent ? std::string("huge") : std::to_string(d.exponent);
        out += '/';
        out += std::to_string(d.dropped);
        out += ';';
        return;
    }
    case type::string:
        out += 's';
        out += std::to_string(v.as_string().size());
        out += ':';
        out += v.as_string();
        return;
    case type::array:
        out += '[';
        for (const value& item : v.items()) canonical_key(item, out);
        out += ']';
        return;
    case type::object: {
        std::vector<const member*> sorted;
        sorted.reserve(v.members().size());
        for (const member& m : v.members()) sorted.push_back(&m);
        std::sort(sorted.begin(), sorted.end(), [](const member* a, const member* b) { return a->key < b->key; });
        out += '{';
        for (const member* m : sorted) {
            out += std::to_string(m->key.size());
            out += ':';
            out += m->key;
            canonical_key(m->value, out);
        }
        out += '}';
        return;
    }
    }
}

inline std::size_t code_points(std::string_view s) noexcept {
    std::size_t n = 0;
    for (char c : s) n += (static_cast<unsigned char>(c) & 0xC0) != 0x80;
    return n;
}

inline std::string items_text(std::uint64_t n) {
    return std::to_string(n) + (n == 1 ? " item" : " items");
}

// "#/$defs/a~1b" to its subschema in `root`; null when it refers to nothing.
inline const value* resolve_ref(const value& root, std::string_view ref) {
    if (ref.empty() || ref[0] != '#') return nullptr;
    std::string decoded;  // percent-decoded (a URI fragment)
    for (std::size_t i = 1; i < ref.size(); ++i) {
        if (ref[i] == '%' && i + 2 < ref.size() && hex_value(ref[i + 1]) >= 0 && hex_value(ref[i + 2]) >= 0) {
            decoded.push_back(char(hex_value(ref[i + 1]) * 16 + hex_value(ref[i + 2])));
            i += 2;
        } else {
            decoded.push_back(ref[i]);
        }
    }
    const value* at = &root;
    std::string_view rest = decoded;
    if (rest.empty()) return at;
    if (rest[0] != '/') return nullptr;
    while (!rest.empty()) {
        rest.remove_prefix(1);
        const std::size_t end = rest.find('/');
        const std::string_view raw = rest.substr(0, end);
        rest = end == std::string_view::npos ? std::string_view() : rest.substr(end);
        std::string token;
        for (std::size_t i = 0; i < raw.size(); ++i) {
            if (raw[i] == '~' && i + 1 < raw.size() && (raw[i + 1] == '0' || raw[i + 1] == '1')) {
                token.push_back(raw[i + 1] == '0' ? '~' : '/');
                ++i;
            } else {
                token.push_back(raw[i]);
            }
        }
        if (at->is_object()) {
            at = at->find(token);
        } else if (at->is_array()) {
            std::size_t index = 0;
            bool digits = !token.empty() && (token == "0" || token[0] != '0');
            for (char c : token) {
                digits = digits && c >= '0' && c <= '9';
                if (digits) index = index * 10 + std::size_t(c - '0');
            }
            at = digits && index < at->items().size() ? &at->items()[index] : nullptr;
        } else {
            return nullptr;
        }
        if (at == nullptr) return nullptr;
    }
    return at;
}

// One check of an instance: the errors, the instance's pointer, the depth of subschemas.
struct schema_run {
    const schema_checker& checker;
    std::vector<read_error>& errors;
    std::size_t max_errors;
    std::vector<std::string> path;
    std::size_t depth = 0;
    bool stopped = false;

    std::string pointer() const {
        std::string out;
        for (const std::string& segment : path) {
            out.push_back('/');
            for (char c : segment) {
                if (c == '~') out += "~0";
                else if (c == '/') out += "~1";
                else out.push_back(c);
            }
        }
        return out;
    }

    void error(error_kind kind, std::string message) {
        if (stopped) return;
        if (errors.size() >= (max_errors == 0 ? 1 : max_errors)) {
            errors.push_back({pointer(), error_kind::too_many_errors,
                              errors.size() == 1 ? std::string("too many errors; only the first is listed")
                                                 : "too many errors; only the first " + std::to_string(errors.size()) +
                                                       " are listed"});
            stopped = true;
            return;
        }
        errors.push_back({pointer(), kind, std::move(message)});
    }

    // The errors `schema` finds in `v`, at most `limit`, without reporting them.
    std::vector<read_error> trial(const value& schema, const value& v, std::size_t limit) const {
        std::vector<read_error> found;
        schema_run inner{checker, found, limit, path, depth};
        inner.apply(schema, v);
        return found;
    }

    void apply(const value& schema, const value& v) {
        if (stopped) return;
        if (schema.is_bool()) {
            if (!schema.as_bool()) error(error_kind::type, "no value is allowed here (the schema is false)");
            return;
        }
        if (!schema.is_object()) return;
        if (depth >= checker.options().max_depth) {
            error(error_kind::too_deep, "the schema applies subschemas deeper than " +
                                            std::to_string(checker.options().max_depth) +
                                            " levels here; a $ref may refer to itself");
            stopped = true;
            return;
        }
        ++depth;
        check(schema, v);
        --depth;
    }

    void check(const value& s, const value& v) {
        if (const value* ref = s.find("$ref"); ref && ref->is_string()) {
            const value* target = resolve_ref(checker.schema(), ref->as_string());
            if (target == nullptr) {
                error(error_kind::format, "the schema's $ref \"" + agentry::detail::printable(ref->as_string()) +
                                              "\" cannot be checked: only references inside the schema "
                                              "(\"#\", \"#/$defs/name\") are supported");
                return;
            }
            apply(*target, v);
        }
        if (const value* t = s.find("type"); t && !check_type(*t, v)) return;
        if (const value* e = s.find("enum"); e && e->is_array()) {
            bool found = false;
            for (const value& x : e->items()) found = found || x == v;
            if (!found) error(error_kind::enum_value, excerpt(v) + " is not one of " + excerpt(*e, 200));
        }
        if (const value* c = s.find("const"); c && !(*c == v)) error(error_kind::enum_value, "must be " + excerpt(*c, 200));
        if (v.is_number()) check_number(s, v);
        else if (v.is_string()) check_string(s, v.as_string());
        else if (v.is_array()) check_array(s, v);
        else if (v.is_object()) check_object(s, v);
        check_combinations(s, v);
    }

    bool check_type(const value& t, const value& v) {
        std::string names;
        bool ok = false;
        const auto one = [&](const value& name) {
            if (!name.is_string()) return;
            ok = ok || has_type(v, name.as_string());
            if (!names.empty()) names += " or ";
            names += expected_type_name(name.as_string());
        };
        if (t.is_array()) {
            for (const value& name : t.items()) one(name);
        } else if (t.is_string()) {
            one(t);
        } else {
            return true;
        }
        if (ok) return true;
        if (v.is_null()) error(error_kind::null_value, "must not be null; expected " + names);
        else error(error_kind::type, "expected " + names + ", got " + std::string(got_type_name(v)) + " " + excerpt(v));
        return false;
    }

    void check_number(const value& s, const value& v) {
        const std::string& text = v.number_text();
        const auto bound = [&](std::string_view key, error_kind kind, std::string_view what, auto broken) {
            const value* b = s.find(key);
            if (b && b->is_number() && broken(decimal_compare(text, b->number_text())))
                error(kind, std::string(what) + b->number_text());
        };
        bound("minimum", error_kind::minimum, "must be at least ", [](int order) { return order < 0; });
        bound("exclusiveMinimum", error_kind::exclusive_minimum, "must be greater than ",
              [](int order) { return order <= 0; });
        bound("maximum", error_kind::maximum, "must be at most ", [](int order) { return order > 0; });
        bound("exclusiveMaximum", error_kind::exclusive_maximum, "must be less than ",
              [](int order) { return order >= 0; });
        if (const value* m = s.find("multipleOf"); m && m->is_number() && decimal_compare(m->number_text(), "0") > 0) {
            bool multiple = true;
            if (const std::optional<bool> exact = decimal_multiple(text, m->number_text())) {
                multiple = *exact;
            } else {
                const double q = v.as_double() / m->as_double();
                multiple = std::isfinite(q) ? q == std::floor(q) : false;
            }
            if (!multiple) error(error_kind::multiple_of, "must be a multiple of " + m->number_text());
        }
    }

    // A nonnegative integer keyword (minLength, maxItems, ...).
    static std::optional<std::uint64_t> count_keyword(const value& s, std::string_view key) noexcept {
        const value* k = s.find(key);
        return k ? k->as_uint64() : std::nullopt;
    }

    void check_string(const value& s, const std::string& text) {
        const auto length = [](std::uint64_t n) {
            return std::to_string(n) + (n == 1 ? " character long" : " characters long");
        };
        if (const auto n = count_keyword(s, "minLength"); n && (text.size() < *n || code_points(text) < *n))
            error(error_kind::min_length, "must be at least " + length(*n));
        if (const auto n = count_keyword(s, "maxLength"); n && text.size() > *n && code_points(text) > *n)
            error(error_kind::max_length, "must be at most " + length(*n));
        if (const value* p = s.find("pattern"); p && p->is_string()) {
            const std::string& source = p->as_string();
            switch (search(source, text)) {
            case regex::pattern::match_result::match: break;
            case regex::pattern::match_result::no_match:
                error(error_kind::pattern, "must match the regular expression " + source);
                break;
            case regex::pattern::match_result::too_complex: pattern_unchecked(source); break;
            }
        }
        if (const value* f = s.find("format"); f && f->is_string()) {
            for (std::size_t i = 0; i != string_format_count; ++i) {
                const auto format = string_format(i);
                if (format_name(format) != f->as_string()) continue;
                if (!valid_format(format, text)) error(error_kind::format, "must be a valid " + f->as_string());
            }
        }
    }

    regex::pattern::match_result search(const std::string& source, std::string_view text) const {
        const schema_checker::compiled_pattern* p = checker.find_pattern(source);
        if (p == nullptr || !p->compiled) return regex::pattern::match_result::too_complex;
        return p->compiled->search_bounded(text, checker.options().pattern_step_limit);
    }

    void pattern_unchecked(const std::string& source) {
        const schema_checker::compiled_pattern* p = checker.find_pattern(source);
        if (p != nullptr && !p->compiled)
            error(error_kind::pattern, "could not be checked against the regular expression " + source +
                                           ": the schema's pattern is not a valid ECMA-262 regular expression (" +
                                           p->error + ")");
        else
            error(error_kind::pattern, "could not be checked against the regular expression " + source +
                                           ": the match needs more than " +
                                           std::to_string(checker.options().pattern_step_limit) +
                                           " steps; send a shorter or simpler value");
    }

    void check_array(const value& s, const value& v) {
        const std::vector<value>& items = v.items();
        if (const auto n = count_keyword(s, "minItems"); n && items.size() < *n)
            error(error_kind::min_items, "must have at least " + items_text(*n));
        if (const auto n = count_keyword(s, "maxItems"); n && items.size() > *n)
            error(error_kind::max_items, "must have at most " + items_text(*n));
        if (const value* u = s.find("uniqueItems"); u && u->as_bool() && items.size() > 1) check_unique(items);
        std::size_t first = 0;
        if (const value* prefix = s.find("prefixItems"); prefix && prefix->is_array()) {
            for (; first != items.size() && first != prefix->items().size() && !stopped; ++first) {
                path.push_back(std::to_string(first));
                apply(prefix->items()[first], items[first]);
                path.pop_back();
            }
        }
        if (const value* each = s.find("items"); each && (each->is_object() || each->is_bool())) {
            for (std::size_t i = first; i != items.size() && !stopped; ++i) {
                path.push_back(std::to_string(i));
                apply(*each, items[i]);
                path.pop_back();
            }
        }
    }

    // The first two equal items (by the smaller second index), in n log n.
    void check_unique(const std::vector<value>& items) {
        std::vector<std::pair<std::string, std::size_t>> keys(items.size());
        for (std::size_t i = 0; i != items.size(); ++i) {
            canonical_key(items[i], keys[i].first);
            keys[i].second = i;
        }
        std::sort(keys.begin(), keys.end());
        std::size_t best_first = 0, best_second = items.size();
        for (std::size_t i = 1; i < keys.size(); ++i) {
            if (keys[i].first != keys[i - 1].first) continue;
            std::size_t j = i;
            while (j != 0 && keys[j - 1].first == keys[i].first) --j;
            if (keys[i].second < best_second) {
                best_second = keys[i].second;
                best_first = keys[j].second;
            }
        }
        if (best_second != items.size())
            error(error_kind::unique_items, "items must be unique; items " + std::to_string(best_first) + " and " +
                                                std::to_string(best_second) + " are equal");
    }

    void check_object(const value& s, const value& v) {
        if (const value* required = s.find("required"); required && required->is_array()) {
            for (const value& name : required->items()) {
                if (!name.is_string() || v.find(name.as_string())) continue;
                path.push_back(name.as_string());
                error(error_kind::required, "missing required property");
                path.pop_back();
            }
        }
        const value* properties = s.find("properties");
        if (properties && !properties->is_object()) properties = nullptr;
        const value* patterns = s.find("patternProperties");
        if (patterns && !patterns->is_object()) patterns = nullptr;
        const value* additional = s.find("additionalProperties");
        for (const member& m : v.members()) {
            if (stopped) return;
            path.push_back(m.key);
            bool declared = false;
            if (const value* sub = properties ? properties->find(m.key) : nullptr) {
                declared = true;
                apply(*sub, m.value);
            }
            if (patterns) {
                for (const member& p : patterns->members()) {
                    const regex::pattern::match_result r = search(p.key, m.key);
                    if (r == regex::pattern::match_result::too_complex) {
                        pattern_unchecked(p.key);
                        declared = true;
                    } else if (r == regex::pattern::match_result::match) {
                        declared = true;
                        apply(p.value, m.value);
                    }
                }
            }
            if (!declared && additional) {
                if (additional->is_bool() && !additional->as_bool()) unknown_property(m.key, properties);
                else apply(*additional, m.value);
            }
            path.pop_back();
        }
    }

    void unknown_property(std::string_view key, const value* properties) {
        std::vector<std::string_view> names;
        if (properties)
            for (const member& p : properties->members()) names.push_back(p.key);
        std::string message = "unknown property";
        const std::string_view guess = closest(key, names);
        if (!guess.empty()) {
            message += "; did you mean \"" + std::string(guess) + "\"?";
        } else {
            message += "; allowed: ";
            for (std::size_t i = 0; i != names.size(); ++i) {
                if (i != 0) message += ", ";
                message += names[i];
            }
            if (names.empty()) message += "none";
        }
        error(error_kind::unknown_property, std::move(message));
    }

    void check_combinations(const value& s, const value& v) {
        if (const value* all = s.find("allOf"); all && all->is_array())
            for (const value& branch : all->items()) apply(branch, v);
        if (const value* any = s.find("anyOf"); any && any->is_array() && !any->items().empty()) {
            std::vector<std::vector<read_error>> failures;
            bool one = false;
            for (const value& branch : any->items()) {
                failures.push_back(trial(branch, v, 3));
                if (failures.back().empty()) {
                    one = true;
                    break;
                }
            }
            if (!one) error(error_kind::no_alternative, explain("anyOf", failures));
        }
        if (const value* of = s.find("oneOf"); of && of->is_array() && !of->items().empty()) {
            std::vector<std::vector<read_error>> failures;
            std::vector<std::size_t> passed;
            for (std::size_t i = 0; i != of->items().size(); ++i) {
                failures.push_back(trial(of->items()[i], v, 3));
                if (failures.back().empty()) passed.push_back(i);
            }
            if (passed.empty()) error(error_kind::no_alternative, explain("oneOf", failures));
            else if (passed.size() > 1)
                error(error_kind::no_alternative, "matches more than one of the allowed forms (oneOf/" +
                                                      std::to_string(passed[0]) + " and oneOf/" +
                                                      std::to_string(passed[1]) + "); exactly one must match");
        }
        if (const value* n = s.find("not"); n && trial(*n, v, 1).empty())
            error(error_kind::no_alternative, "must not match the schema under \"not\"");
    }

    // "matches none of the allowed forms; as anyOf/0: /x must be at least 1; as anyOf/1: ..."
    static std::string explain(std::string_view keyword, const std::vector<std::vector<read_error>>& failures) {
        constexpr std::size_t shown_per_alternative = 2;
        std::string text = "matches none of the allowed forms";
        for (std::size_t a = 0; a != failures.size(); ++a) {
            text += "; as " + std::string(keyword) + "/" + std::to_string(a) + ": ";
            const std::vector<read_error>& f = failures[a];
            for (std::size_t i = 0; i != f.size() && i != shown_per_alternative; ++i) {
                if (i != 0) text += ", ";
                if (f[i].kind == error_kind::required) {
                    text += "missing " + f[i].pointer;
                    continue;
                }
                if (!f[i].pointer.empty()) text += f[i].pointer + " ";
                text += f[i].message;
            }
            if (f.size() > shown_per_alternative) text += " (and more)";
        }
        return text;
    }
};

} // namespace detail::schema_check_impl

AGENTRY_DECL schema_checker::schema_checker(value schema, const schema_check_options& options)
    : schema_(std::move(schema)), options_(options) {
    std::vector<std::string> sources;
    detail::schema_check_impl::collect_patterns(schema_, sources);
    std::sort(sources.begin(), sources.end());
    sources.erase(std::unique(sources.begin(), sources.end()), sources.end());
    patterns_.reserve(sources.size());
    for (std::string& source : sources) {
        compiled_pattern p;
        p.compiled = regex::pattern::compile(source, &p.error);
        p.source = std::move(source);
        patterns_.push_back(std::move(p));
    }
}

AGENTRY_DECL const schema_checker::compiled_pattern* schema_checker::find_pattern(std::string_view source) const noexcept {
    const auto it = std::lower_bound(patterns_.begin(), patterns_.end(), source,
                                     [](const compiled_pattern& p, std::string_view s) { return p.source < s; });
    return it != patterns_.end() && it->source == source ? &*it : nullptr;
}

AGENTRY_DECL std::vector<read_error> schema_checker::operator()(const value& instance) const {
    std::vector<read_error> errors;
    detail::schema_check_impl::schema_run run{*this, errors, options_.max_errors, {}};
    run.apply(schema_, instance);
    return errors;
}

AGENTRY_DECL std::vector<read_error> check_schema(const value& schema, const value& instance,
                                                  const schema_check_options& options) {
    return schema_checker(schema, options)(instance);
}

} // namespace agentry::json

#endif
