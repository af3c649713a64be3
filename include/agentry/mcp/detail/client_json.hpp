// SPDX-License-Identifier: BSL-1.0
#ifndef AGENTRY_MCP_DETAIL_CLIENT_JSON_HPP
#define AGENTRY_MCP_DETAIL_CLIENT_JSON_HPP

// A JSON value whose shape is known only at run time (a server's inputSchema, the members of a
// JSON-RPC message), for the MCP client: parse with a depth limit, look up, write back. Numbers
// keep their text, so that they are written back unchanged.

#include <agentry/json/detail/lexer.hpp>
#include <agentry/json/writer.hpp>

#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace agentry::mcp::detail {

enum class jtype : unsigned char { null, boolean, number, string, array, object };

struct jmember;

struct jvalue {
    jtype type = jtype::null;
    bool boolean = false;
    double number = 0;
    /// A string's value, or a number's text.
    std::string text;
    std::vector<jvalue> items;
    std::vector<jmember> members;

    bool is(jtype t) const noexcept { return type == t; }
    bool is_integer() const noexcept {
        return type == jtype::number && text.find_first_of(".eE") == std::string::npos;
    }

    /// The member `key` of an object, or null when absent (or not an object).
    const jvalue* get(std::string_view key) const noexcept;
    jvalue* get(std::string_view key) noexcept;
    /// The string member `key`, or `fallback`.
    std::string_view string_at(std::string_view key, std::string_view fallback = {}) const noexcept;
    void set(std::string key, jvalue value);
    void erase(std::string_view key);

    static jvalue string(std::string s);
    static jvalue boolean_value(bool b);
    static jvalue object();
    static jvalue array();
};

/// A member of an object (a struct, not a std::pair, so that it can hold an incomplete jvalue's
/// vector).
struct jmember {
    std::string first;
    jvalue second;
};

inline const jvalue* jvalue::get(std::string_view key) const noexcept {
    if (type != jtype::object) return nullptr;
    for (auto it = members.rbegin(); it != members.rend(); ++it)
        if (it->first == key) return &it->second;
    return nullptr;
}
inline jvalue* jvalue::get(std::string_view key) noexcept {
    return const_cast<jvalue*>(static_cast<const jvalue&>(*this).get(key));
}
inline std::string_view jvalue::string_at(std::string_view key, std::string_view fallback) const noexcept {
    const jvalue* v = get(key);
    return v && v->type == jtype::string ? std::string_view(v->text) : fallback;
}
inline void jvalue::set(std::string key, jvalue value) {
    if (jvalue* v = get(key)) *v = std::move(value);
    else members.push_back(jmember{std::move(key), std::move(value)});
}
inline void jvalue::erase(std::string_view key) {
    std::erase_if(members, [&](const auto& m) { return m.first == key; });
}
inline jvalue jvalue::string(std::string s) {
    jvalue v;
    v.type = jtype::string;
    v.text = std::move(s);
    return v;
}
inline jvalue jvalue::boolean_value(bool b) {
    jvalue v;
    v.type = jtype::boolean;
    v.boolean = b;
    return v;
}
inline jvalue jvalue::object() {
    jvalue v;
    v.type = jtype::object;
    return v;
}
inline jvalue jvalue::array() {
    jvalue v;
    v.type = jtype::array;
    return v;
}

class jparser {
public:
    jparser(std::string_view text, std::size_t max_depth) noexcept : text_(text), max_depth_(max_depth) {}

    std::optional<jvalue> parse(std::string& error) {
        jvalue v;
        if (!value(v, 0)) {
            error = error_ + " at byte " + std::to_string(at_);
            return std::nullopt;
        }
        space();
        if (at_ != text_.size()) {
            error = "unexpected text after the value at byte " + std::to_string(at_);
            return std::nullopt;
        }
        return v;
    }

private:
    bool fail(std::string message) {
        if (error_.empty()) error_ = std::move(message);
        return false;
    }
    void space() noexcept {
        while (at_ < text_.size() && (text_[at_] == ' ' || text_[at_] == '\t' || text_[at_] == '\n' || text_[at_] == '\r'))
            ++at_;
    }
    bool literal(std::string_view word) noexcept {
        if (text_.substr(at_, word.size()) != word) return false;
        at_ += word.size();
        return true;
    }
    bool value(jvalue& out, std::size_t depth) {
        space();
        if (at_ == text_.size()) return fail("unexpected end of input");
        const char c = text_[at_];
        if (c == '{' || c == '[') {
            if (depth >= max_depth_) return fail("nesting deeper than " + std::to_string(max_depth_) + " levels");
            ++at_;
            return c == '{' ? object(out, depth + 1) : array(out, depth + 1);
        }
        if (c == '"') {
            out.type = jtype::string;
            return string(out.text);
        }
        if (literal("true")) {
            out.type = jtype::boolean;
            out.boolean = true;
            return true;
        }
        if (literal("false")) {
            out.type = jtype::boolean;
            return true;
        }
        if (literal("null")) return true;
        return number(out);
    }
    bool object(jvalue& out, std::size_t depth) {
        out.type = jtype::object;
        space();
        if (at_ < text_.size() && text_[at_] == '}') return ++at_, true;
        for (;;) {
            space();
            if (at_ == text_.size() || text_[at_] != '"') return fail("expected a member name");
            std::string key;
            if (!string(key)) return false;
            space();
            if (at_ == text_.size() || text_[at_] != ':') return fail("expected ':'");
            ++at_;
            jvalue v;
            if (!value(v, depth)) return false;
            out.members.push_back(jmember{std::move(key), std::move(v)});
            space();
            if (at_ < text_.size() && text_[at_] == ',') {
                ++at_;
                continue;
            }
            if (at_ < text_.size() && text_[at_] == '}') return ++at_, true;
            return fail("expected ',' or '}'");
        }
    }
    bool array(jvalue& out, std::size_t depth) {
        out.type = jtype::array;
        space();
        if (at_ < text_.size() && text_[at_] == ']') return ++at_, true;
        for (;;) {
            jvalue v;
            if (!value(v, depth)) return false;
            out.items.push_back(std::move(v));
            space();
            if (at_ < text_.size() && text_[at_] == ',') {
                ++at_;
                continue;
            }
            if (at_ < text_.size() && text_[at_] == ']') return ++at_, true;
            return fail("expected ',' or ']'");
        }
    }
    bool hex4(std::uint32_t& out) noexcept {
        if (text_.size() - at_ < 4) return false;
        out = 0;
        for (int i = 0; i != 4; ++i) {
            const char c = text_[at_++];
            out <<= 4;
            if (c >= '0' && c <= '9') out |= std::uint32_t(c - '0');
            else if (c >= 'a' && c <= 'f') out |= std::uint32_t(c - 'a' + 10);
            else if (c >= 'A' && c <= 'F') out |= std::uint32_t(c - 'A' + 10);
            else return false;
        }
        return true;
    }
    bool string(std::string& out) {
        ++at_;  // the opening quote
        for (;;) {
            if (at_ == text_.size()) return fail("unterminated string");
            const char c = text_[at_++];
            if (c == '"') return true;
            if (static_cast<unsigned char>(c) < 0x20) return fail("control character in a string");
            if (c != '\\') {
                out += c;
                continue;
            }
            if (at_ == text_.size()) return fail("unterminated string");
            const char e = text_[at_++];
            switch (e) {
            case '"': out += '"'; break;
            case '\\': out += '\\'; break;
            case '/': out += '/'; break;
            case 'b': out += '\b'; break;
            case 'f': out += '\f'; break;
            case 'n': out += '\n'; break;
            case 'r': out += '\r'; break;
            case 't': out += '\t'; break;
            case 'u': {
                std::uint32_t cp = 0;
                if (!hex4(cp)) return fail("invalid \\u escape");
                if (cp >= 0xD800 && cp < 0xDC00) {
                    std::uint32_t low = 0;
                    if (text_.substr(at_, 2) != "\\u" || (at_ += 2, !hex4(low)) || low < 0xDC00 || low > 0xDFFF)
                        return fail("unpaired surrogate");
                    cp = 0x10000 + ((cp - 0xD800) << 10) + (low - 0xDC00);
                } else if (cp >= 0xDC00 && cp < 0xE000) {
                    return fail("unpaired surrogate");
                }
                json::detail::append_utf8(out, cp);
                break;
            }
            default: return fail("invalid escape");
            }
        }
    }
    bool number(jvalue& out) {
        const std::size_t start = at_;
        const auto digits = [&] {
            const std::size_t from = at_;
            while (at_ < text_.size() && text_[at_] >= '0' && text_[at_] <= '9') ++at_;
            return at_ != from;
        };
        if (at_ < text_.size() && text_[at_] == '-') ++at_;
        if (at_ < text_.size() && text_[at_] == '0') ++at_;
        else if (!digits()) return fail("invalid value");
        if (at_ < text_.size() && text_[at_] == '.' && (++at_, !digits())) return fail("invalid number");
        if (at_ < text_.size() && (text_[at_] == 'e' || text_[at_] == 'E')) {
            ++at_;
            if (at_ < text_.size() && (text_[at_] == '+' || text_[at_] == '-')) ++at_;
            if (!digits()) return fail("invalid number");
        }
        out.type = jtype::number;
        out.text = std::string(text_.substr(start, at_ - start));
        out.number = std::strtod(out.text.c_str(), nullptr);
        return true;
    }

    std::string_view text_;
    std::size_t max_depth_;
    std::size_t at_ = 0;
    std::string error_;
};

/// `text` as a value, or nothing with `error` set.
inline std::optional<jvalue> parse_json(std::string_view text, std::string& error, std::size_t max_depth = 128) {
    return jparser(text, max_depth).parse(error);
}

inline void write_json(std::string& out, const jvalue& v) {
    switch (v.type) {
    case jtype::null: out += "null"; break;
    case jtype::boolean: out += v.boolean ? "true" : "false"; break;
    case jtype::number: out += v.text; break;
    case jtype::string: json::write(out, std::string_view(v.text)); break;
    case jtype::array:
        out += '[';
        for (std::size_t i = 0; i != v.items.size(); ++i) {
            if (i != 0) out += ',';
            write_json(out, v.items[i]);
        }
        out += ']';
        break;
    case jtype::object:
        out += '{';
        for (std::size_t i = 0; i != v.members.size(); ++i) {
            if (i != 0) out += ',';
            json::write(out, std::string_view(v.members[i].first));
            out += ':';
            write_json(out, v.members[i].second);
        }
        out += '}';
        break;
    }
}

inline std::string to_json(const jvalue& v) {
    std::string out;
    write_json(out, v);
    return out;
}

inline bool operator==(const jvalue& a, const jvalue& b) {
    if (a.type != b.type) return false;
    switch (a.type) {
    case jtype::null: return true;
    case jtype::boolean: return a.boolean == b.boolean;
    case jtype::number: return a.number == b.number;
    case jtype::string: return a.text == b.text;
    case jtype::array: return a.items == b.items;
    case jtype::object:
        if (a.members.size() != b.members.size()) return false;
        for (const auto& [k, v] : a.members) {
            const jvalue* o = b.get(k);
            if (!o || !(*o == v)) return false;
        }
        return true;
    }
    return false;
}

} // namespace agentry::mcp::detail

#endif
