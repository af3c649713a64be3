// SPDX-License-Identifier: BSL-1.0
#ifndef AGENTRY_REGEX_IMPL_PARSE_IPP
#define AGENTRY_REGEX_IMPL_PARSE_IPP

// The regular expression engine's parser (impl/pattern.ipp): ECMA-262 pattern syntax with
// the `u` flag to a syntax tree. Recurses on group nesting, limited to 128 levels.

#include <agentry/regex/impl/unicode.ipp>

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>
#include <unordered_map>
#include <utility>
#include <vector>

namespace agentry::regex::detail {

enum class node_kind : unsigned char {
    empty, chr, any, set, seq, alt, capture, look, repeat,
    line_begin, line_end, word_boundary, not_word_boundary, backref
};

struct node {
    node_kind kind = node_kind::empty;
    bool greedy = true;             // repeat
    bool negate = false;            // look
    bool behind = false;            // look
    std::uint32_t value = 0;        // chr: code point; set: set index; capture, backref: group number
    std::uint32_t min = 0;          // repeat
    std::uint32_t max = 0;          // repeat; `unbounded` for no limit
    std::uint32_t first_group = 0;  // repeat: the groups inside are [first_group, end_group)
    std::uint32_t end_group = 0;
    std::vector<std::uint32_t> kids;
};

struct syntax_tree {
    std::vector<node> nodes;
    std::vector<cp_set> sets;
    std::uint32_t root = 0;
    std::uint32_t groups = 0;  // capturing groups, numbered 1..groups
};

inline constexpr std::uint32_t bad = 0xFFFFFFFFu;  // parse failure

class parser {
public:
    explicit parser(std::string_view pattern) noexcept : p_(pattern) {}

    // Parses the whole pattern; on failure error() and error_offset() say why and where.
    bool parse(syntax_tree& out) {
        tree_ = &out;
        prescan_groups();
        const std::uint32_t root = parse_disjunction(0);
        if (root == bad) return false;
        if (i_ < p_.size()) {  // only an unmatched ')' stops the top level early
            fail("unmatched ')'", i_);
            return false;
        }
        for (const pending_name& b : pending_) {
            const auto it = std::find(names_.begin(), names_.end(), b.name);
            if (it == names_.end()) {
                fail("invalid named reference", b.at);
                return false;
            }
            out.nodes[b.node].value = static_cast<std::uint32_t>(it - names_.begin()) + 1;
        }
        out.root = root;
        out.groups = next_group_;
        return true;
    }

    const std::string& error() const noexcept { return error_; }
    std::size_t error_offset() const noexcept { return error_at_; }

private:
    static constexpr int max_depth = 128;  // nested groups and lookarounds

    struct pending_name {
        std::string name;
        std::uint32_t node;
        std::size_t at;
    };

    struct class_atom {
        bool is_set = false;
        char32_t cp = 0;
        cp_set set;
    };

    std::string_view p_;
    std::size_t i_ = 0;
    syntax_tree* tree_ = nullptr;
    std::string error_;
    std::size_t error_at_ = 0;
    std::uint32_t total_groups_ = 0;  // counted before parsing, for `\N` escapes
    std::uint32_t next_group_ = 0;
    std::vector<std::string> names_;  // names_[k - 1]: name of group k, empty when unnamed
    std::vector<pending_name> pending_;
    int depth_ = 0;
    std::unordered_map<std::uint64_t, std::uint32_t> set_index_;  // hash of a set -> index
    std::vector<std::pair<std::uint32_t, cp_set>> category_sets_;  // General_Category mask -> set

    int peek(std::size_t k = 0) const noexcept {
        return i_ + k < p_.size() ? static_cast<unsigned char>(p_[i_ + k]) : -1;
    }

    std::uint32_t fail(const char* message, std::size_t at) {
        if (error_.empty()) {
            error_ = message;
            error_at_ = at;
        }
        return bad;
    }

    std::uint32_t add(node n) {
        tree_->nodes.push_back(std::move(n));
        return static_cast<std::uint32_t>(tree_->nodes.size() - 1);
    }

    std::uint32_t add_simple(node_kind kind, std::uint32_t value = 0) {
        node n;
        n.kind = kind;
        n.value = value;
        return add(std::move(n));
    }

    // Equal sets share one entry, so that a long pattern of `\p{L}` stays small.
    std::uint32_t add_set(cp_set s) {
        std::uint64_t h = 1469598103934665603u;
        for (const cp_range& r : s) h = (h ^ (std::uint64_t{r.lo} << 21 | r.hi)) * 1099511628211u;
        const auto [it, inserted] = set_index_.try_emplace(h, static_cast<std::uint32_t>(tree_->sets.size()));
        if (inserted) {
            tree_->sets.push_back(std::move(s));
        } else if (!std::equal(s.begin(), s.end(), tree_->sets[it->second].begin(), tree_->sets[it->second].end(),
                               [](const cp_range& a, const cp_range& b) { return a.lo == b.lo && a.hi == b.hi; })) {
            tree_->sets.push_back(std::move(s));  // a hash collision: keep both
            return add_simple(node_kind::set, static_cast<std::uint32_t>(tree_->sets.size() - 1));
        }
        return add_simple(node_kind::set, it->second);
    }

    const cp_set& category_set(std::uint32_t mask) {
        for (const auto& [m, set] : category_sets_)
            if (m == mask) return set;
        category_sets_.emplace_back(mask, general_category_set(mask));
        return category_sets_.back().second;
    }

    // Counts capturing groups: `(` not followed by `?`, and `(?<` not followed by `=` or `!`.
    void prescan_groups() noexcept {
        bool in_class = false;
        for (std::size_t k = 0; k < p_.size(); ++k) {
            const char c = p_[k];
            if (c == '\\') {
                ++k;
            } else if (in_class) {
                in_class = c != ']';
            } else if (c == '[') {
                in_class = true;
            } else if (c == '(') {
                const std::string_view rest = p_.substr(k + 1);
                if (rest.empty() || rest[0] != '?' ||
                    (rest.size() >= 3 && rest[1] == '<' && rest[2] != '=' && rest[2] != '!'))
                    ++total_groups_;
            }
        }
    }

    static bool is_syntax_char(int c) noexcept {
        return c >= 0 && std::string_view("^$\\.*+?()[]{}|").find(static_cast<char>(c)) != std::string_view::npos;
    }
    static bool is_digit(int c) noexcept { return c >= '0' && c <= '9'; }
    static int hex_value(int c) noexcept {
        if (c >= '0' && c <= '9') return c - '0';
        if (c >= 'a' && c <= 'f') return c - 'a' + 10;
        if (c >= 'A' && c <= 'F') return c - 'A' + 10;
        return -1;
    }

    // `opener`: the offset of the group's `(`, for the error.
    std::uint32_t parse_disjunction(std::size_t opener) {
        if (++depth_ > max_depth + 1) return fail("groups nested too deeply", opener);
        std::vector<std::uint32_t> alts;
        for (;;) {
            const std::uint32_t a = parse_alternative();
            if (a == bad) return bad;
            alts.push_back(a);
            if (peek() != '|') break;
            ++i_;
        }
        --depth_;
        if (alts.size() == 1) return alts[0];
        node n;
        n.kind = node_kind::alt;
        n.kids = std::move(alts);
        return add(std::move(n));
    }

    std::uint32_t parse_alternative() {
        std::vector<std::uint32_t> terms;
        while (i_ < p_.size() && peek() != '|' && peek() != ')') {
            const std::uint32_t t = parse_term();
            if (t == bad) return bad;
            terms.push_back(t);
        }
        if (terms.size() == 1) return terms[0];
        node n;
        n.kind = terms.empty() ? node_kind::empty : node_kind::seq;
        n.kids = std::move(terms);
        return add(std::move(n));
    }

    // An assertion: a quantifier may not follow it (u-mode).
    std::uint32_t assertion(std::uint32_t n) {
        const int c = peek();
        if (c == '*' || c == '+' || c == '?' || c == '{') return fail("nothing to repeat", i_);
        return n;
    }

    std::uint32_t parse_term() {
        const int c = peek();
        if (c == '^') return ++i_, assertion(add_simple(node_kind::line_begin));
        if (c == '$') return ++i_, assertion(add_simple(node_kind::line_end));
        if (c == '\\' && peek(1) == 'b') return i_ += 2, assertion(add_simple(node_kind::word_boundary));
        if (c == '\\' && peek(1) == 'B') return i_ += 2, assertion(add_simple(node_kind::not_word_boundary));
        if (c == '(' && peek(1) == '?') {
            const int d = peek(2);
            const bool behind = d == '<' && (peek(3) == '=' || peek(3) == '!');
            if (d == '=' || d == '!' || behind) {
                const std::size_t start = i_;
                node n;
                n.kind = node_kind::look;
                n.behind = behind;
                n.negate = (behind ? peek(3) : d) == '!';
                i_ += behind ? 4 : 3;
                const std::uint32_t body = parse_disjunction(start);
                if (body == bad) return bad;
                if (peek() != ')') return fail("missing ')'", start);
                ++i_;
                n.kids.push_back(body);
                return assertion(add(std::move(n)));
            }
        }
        const std::uint32_t groups_before = next_group_;
        const std::uint32_t atom = parse_atom();
        if (atom == bad) return bad;
        return parse_quantifier(atom, groups_before);
    }

    // Decimal digits at i_: the value saturated to `unbounded - 1`, and the digits without
    // leading zeros, to compare exact values.
    std::pair<std::uint32_t, std::string_view> parse_number() noexcept {
        const std::size_t start = i_;
        std::uint64_t v = 0;
        while (is_digit(peek())) {
            v = std::min<std::uint64_t>(v * 10 + static_cast<std::uint64_t>(peek() - '0'), unbounded - 1);
            ++i_;
        }
        std::string_view digits = p_.substr(start, i_ - start);
        while (digits.size() > 1 && digits[0] == '0') digits.remove_prefix(1);
        return {static_cast<std::uint32_t>(v), digits};
    }

    static bool less(std::string_view a, std::string_view b) noexcept {
        return a.size() != b.size() ? a.size() < b.size() : a < b;
    }

    std::uint32_t parse_quantifier(std::uint32_t atom, std::uint32_t groups_before) {
        const std::size_t start = i_;
        std::uint32_t min = 0;
        std::uint32_t max = unbounded;
        switch (peek()) {
        case '*': ++i_; break;
        case '+': min = 1, ++i_; break;
        case '?': max = 1, ++i_; break;
        case '{': {
            ++i_;
            if (!is_digit(peek())) return fail("incomplete quantifier", start);
            const auto [lo, lo_digits] = parse_number();
            min = lo;
            max = lo;
            if (peek() == ',') {
                ++i_;
                max = unbounded;
                if (is_digit(peek())) {
                    const auto [hi, hi_digits] = parse_number();
                    if (less(hi_digits, lo_digits)) return fail("numbers out of order in {} quantifier", start);
                    max = hi;
                }
            }
            if (peek() != '}') return fail("incomplete quantifier", start);
            ++i_;
            break;
        }
        default: return atom;
        }
        node n;
        n.kind = node_kind::repeat;
        n.min = min;
        n.max = max;
        if (peek() == '?') n.greedy = false, ++i_;
        n.first_group = groups_before + 1;
        n.end_group = next_group_ + 1;
        n.kids.push_back(atom);
        return add(std::move(n));
    }

    std::uint32_t parse_atom() {
        const std::size_t start = i_;
        const int c = peek();
        switch (c) {
        case '.': ++i_; return add_simple(node_kind::any);
        case '[': return parse_class();
        case '\\': return parse_atom_escape();
        case '(': return parse_group();
        case '*': case '+': case '?': case '{': return fail("nothing to repeat", start);
        case '}': return fail("lone quantifier bracket", start);
        case ']': return fail("lone ']'", start);
        default: {
            const decoded d = decode_utf8(p_, i_);
            if (d.len == 0) return fail("invalid UTF-8", start);
            i_ += d.len;
            return add_simple(node_kind::chr, d.cp);
        }
        }
    }

    std::uint32_t parse_group() {
        const std::size_t start = i_;
        ++i_;
        std::string name;
        bool capturing = true;
        if (peek() == '?') {
            if (peek(1) == ':') {
                capturing = false;
                i_ += 2;
            } else if (peek(1) == '<') {
                i_ += 2;
                if (!parse_group_name(name)) return bad;
                if (std::find(names_.begin(), names_.end(), name) != names_.end())
                    return fail("duplicate group name", start);
            } else {
                return fail("invalid group", start);
            }
        }
        std::uint32_t group = 0;
        if (capturing) {
            group = ++next_group_;
            names_.push_back(std::move(name));
        }
        const std::uint32_t body = parse_disjunction(start);
        if (body == bad) return bad;
        if (peek() != ')') return fail("missing ')'", start);
        ++i_;
        if (!capturing) return body;
        node n;
        n.kind = node_kind::capture;
        n.value = group;
        n.kids.push_back(body);
        return add(std::move(n));
    }

    // RegExpIdentifierName then `>`; non-ASCII letters approximate ID_Start and ID_Continue.
    bool parse_group_name(std::string& out) {
        const std::size_t start = i_;
        for (;;) {
            if (peek() == '>') break;
            char32_t c = 0;
            if (peek() == '\\') {
                ++i_;
                if (peek() != 'u' || !parse_unicode_escape(c)) {
                    fail("invalid group name", start);
                    return false;
                }
            } else {
                if (peek() < 0) {
                    fail("invalid group name", start);
                    return false;
                }
                const decoded d = decode_utf8(p_, i_);
                if (d.len == 0) {
                    fail("invalid UTF-8", i_);
                    return false;
                }
                c = d.cp;
                i_ += d.len;
            }
            if (!is_identifier_char(c, out.empty())) {
                fail("invalid group name", start);
                return false;
            }
            append_utf8(out, c);
        }
        if (out.empty()) {
            fail("invalid group name", start);
            return false;
        }
        ++i_;  // '>'
        return true;
    }

    static bool is_identifier_char(char32_t c, bool first) noexcept {
        if ((c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || c == '$' || c == '_') return true;
        if (c < 0x80) return !first && c >= '0' && c <= '9';
        const unsigned g = general_category(c);
        if ((gc_letter | bit(gc_nl)) >> g & 1u) return true;
        return !first && (((bit(gc_mn) | bit(gc_mc) | bit(gc_nd) | bit(gc_pc)) >> g & 1u) || c == 0x200C || c == 0x200D);
    }

    // At `u` after a backslash: `uHHHH` (a lead and a trail surrogate escape form one code
    // point) or `u{H...}` up to 10FFFF. Does not set an error.
    bool parse_unicode_escape(char32_t& out) noexcept {
        const auto hex4 = [&](std::size_t at, char32_t& v) {
            v = 0;
            for (std::size_t k = 0; k < 4; ++k) {
                const int h = at + k < p_.size() ? hex_value(static_cast<unsigned char>(p_[at + k])) : -1;
                if (h < 0) return false;
                v = v * 16 + static_cast<char32_t>(h);
            }
            return true;
        };
        ++i_;  // 'u'
        if (peek() == '{') {
            std::size_t k = i_ + 1;
            std::uint32_t v = 0;
            while (k < p_.size() && hex_value(static_cast<unsigned char>(p_[k])) >= 0) {
                v = v * 16 + static_cast<std::uint32_t>(hex_value(static_cast<unsigned char>(p_[k])));
                if (v > max_code_point) return false;
                ++k;
            }
            if (k == i_ + 1 || k >= p_.size() || p_[k] != '}') return false;
            i_ = k + 1;
            out = v;
            return true;
        }
        char32_t v = 0;
        if (!hex4(i_, v)) return false;
        i_ += 4;
        char32_t trail = 0;
        if (v >= 0xD800 && v <= 0xDBFF && peek() == '\\' && peek(1) == 'u' && hex4(i_ + 2, trail) && trail >= 0xDC00 &&
            trail <= 0xDFFF) {
            i_ += 6;
            v = 0x10000 + ((v - 0xD800) << 10) + (trail - 0xDC00);
        }
        out = v;
        return true;
    }

    // A CharacterEscape after the backslash (at i_), in a class or not.
    bool parse_character_escape(char32_t& out, bool in_class) {
        const std::size_t start = i_ - 1;
        const int c = peek();
        switch (c) {
        case 't': out = 0x09; break;
        case 'n': out = 0x0A; break;
        case 'v': out = 0x0B; break;
        case 'f': out = 0x0C; break;
        case 'r': out = 0x0D; break;
        case 'c': {
            const int l = peek(1);
            if (!((l >= 'a' && l <= 'z') || (l >= 'A' && l <= 'Z'))) return fail("invalid escape", start), false;
            out = static_cast<char32_t>(l % 32);
            i_ += 2;
            return true;
        }
        case '0':
            if (is_digit(peek(1))) return fail("invalid decimal escape", start), false;
            out = 0;
            break;
        case 'x': {
            const int h1 = hex_value(peek(1));
            const int h2 = hex_value(peek(2));
            if (h1 < 0 || h2 < 0) return fail("invalid escape", start), false;
            out = static_cast<char32_t>(h1 * 16 + h2);
            i_ += 3;
            return true;
        }
        case 'u':
            if (!parse_unicode_escape(out)) return fail("invalid Unicode escape", start), false;
            return true;
        default:
            if (is_syntax_char(c) || c == '/' || (in_class && c == '-')) {
                out = static_cast<char32_t>(c);
                break;
            }
            return fail("invalid escape", start), false;
        }
        ++i_;
        return true;
    }

    // `\p{...}` or `\P{...}` at the `p` or `P`.
    bool parse_property(cp_set& out) {
        const std::size_t start = i_ - 1;
        const bool negated = peek() == 'P';
        ++i_;
        if (peek() != '{') return fail("invalid property name", start), false;
        const std::size_t name_start = i_ + 1;
        std::size_t k = name_start;
        while (k < p_.size() && p_[k] != '}') {
            const char ch = p_[k];
            if (!((ch >= 'a' && ch <= 'z') || (ch >= 'A' && ch <= 'Z') || (ch >= '0' && ch <= '9') || ch == '_' || ch == '='))
                return fail("invalid property name", start), false;
            ++k;
        }
        if (k >= p_.size()) return fail("invalid property name", start), false;
        const std::string_view text = p_.substr(name_start, k - name_start);
        i_ = k + 1;
        const std::size_t eq = text.find('=');
        std::optional<std::uint32_t> mask;
        if (eq != std::string_view::npos) {
            const std::string_view property = text.substr(0, eq);
            const std::string_view value = text.substr(eq + 1);
            if (property == "General_Category" || property == "gc") {
                mask = find_gc_value(value);
            } else if (property == "Script" || property == "sc" || property == "Script_Extensions" || property == "scx") {
                return fail("unsupported Unicode property (scripts are not supported)", start), false;
            }
            if (!mask) return fail("invalid property name", start), false;
            out = category_set(*mask);
        } else if ((mask = find_gc_value(text))) {
            out = category_set(*mask);
        } else if (text == "Any") {
            out = {{0, max_code_point}};
        } else if (text == "ASCII") {
            out = {{0, 0x7F}};
        } else if (text == "Assigned") {
            out = complement(category_set(bit(gc_cn)));
        } else {
            return fail("unsupported or unknown Unicode property", start), false;
        }
        if (negated) out = complement(out);
        return true;
    }

    std::uint32_t parse_atom_escape() {
        const std::size_t start = i_;
        ++i_;
        const int c = peek();
        if (c < 0) return fail("\\ at end of pattern", start);
        switch (c) {
        case 'd': case 'D': case 's': case 'S': case 'w': case 'W':
            ++i_;
            return add_set(class_escape_set(static_cast<char>(c)));
        case 'p': case 'P': {
            cp_set s;
            if (!parse_property(s)) return bad;
            return add_set(std::move(s));
        }
        case 'k': {
            ++i_;
            if (peek() != '<') return fail("invalid named reference", start);
            ++i_;
            std::string name;
            if (!parse_group_name(name)) return bad;
            const std::uint32_t n = add_simple(node_kind::backref);
            pending_.push_back({std::move(name), n, start});
            return n;
        }
        default: break;
        }
        if (c >= '1' && c <= '9') {
            const std::uint32_t group = parse_number().first;
            if (group > total_groups_) return fail("invalid escape (no such group)", start);
            return add_simple(node_kind::backref, group);
        }
        char32_t cp = 0;
        if (!parse_character_escape(cp, false)) return bad;
        return add_simple(node_kind::chr, cp);
    }

    bool parse_class_atom(class_atom& out) {
        const std::size_t start = i_;
        if (peek() != '\\') {
            const decoded d = decode_utf8(p_, i_);
            if (d.len == 0) return fail("invalid UTF-8", start), false;
            out.cp = d.cp;
            i_ += d.len;
            return true;
        }
        ++i_;
        const int c = peek();
        if (c < 0) return fail("\\ at end of pattern", start), false;
        switch (c) {
        case 'b': out.cp = 0x08; ++i_; return true;
        case 'd': case 'D': case 's': case 'S': case 'w': case 'W':
            out.is_set = true;
            out.set = class_escape_set(static_cast<char>(c));
            ++i_;
            return true;
        case 'p': case 'P':
            out.is_set = true;
            return parse_property(out.set);
        default: break;
        }
        if (c >= '1' && c <= '9') return fail("invalid class escape", start), false;
        return parse_character_escape(out.cp, true);
    }

    std::uint32_t parse_class() {
        const std::size_t start = i_;
        ++i_;
        const bool negated = peek() == '^';
        if (negated) ++i_;
        cp_set s;
        for (;;) {
            if (i_ >= p_.size()) return fail("missing ']'", start);
            if (peek() == ']') {
                ++i_;
                break;
            }
            const std::size_t atom_start = i_;
            class_atom a;
            if (!parse_class_atom(a)) return bad;
            if (peek() == '-' && peek(1) >= 0 && peek(1) != ']') {
                ++i_;
                class_atom b;
                if (!parse_class_atom(b)) return bad;
                if (a.is_set || b.is_set) return fail("invalid character class range", atom_start);
                if (a.cp > b.cp) return fail("range out of order in character class", atom_start);
                s.push_back({a.cp, b.cp});
            } else if (a.is_set) {
                s.insert(s.end(), a.set.begin(), a.set.end());
            } else {
                s.push_back({a.cp, a.cp});
            }
        }
        normalize(s);
        return add_set(negated ? complement(s) : std::move(s));
    }
};

} // namespace agentry::regex::detail

#endif
