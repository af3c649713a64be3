// SPDX-License-Identifier: BSL-1.0
#ifndef AGENTRY_REGEX_IMPL_PROGRAM_IPP
#define AGENTRY_REGEX_IMPL_PROGRAM_IPP

// The regular expression engine's code generator (impl/pattern.ipp): a syntax tree to a
// program for the backtracking machine (impl/match.ipp).

#include <agentry/regex/impl/parse.ipp>

#include <algorithm>
#include <array>
#include <cstddef>
#include <cstdint>
#include <vector>

namespace agentry::regex::detail {

enum class op : unsigned char {
    chr,                // a: code point
    any,                // any code point but \n \r U+2028 U+2029
    set,                // a: set index
    line_begin,
    line_end,
    word_boundary,
    not_word_boundary,
    split,              // try a, on failure b
    jump,               // a
    save,               // slot a = position
    clear,              // slots [a, b) = unset
    backref,            // a: group
    look_enter,         // a: register, b: continuation; flag: negative
    look_exit,          // a: register
    rep_enter,          // a: register (count; a + 1: start of the iteration)
    rep_test,           // a: register, b: min, c: max, d: exit; flag: greedy; body at the next pc
    rep_body,           // a: register
    rep_end,            // a: register, b: min, c: the rep_test
    match,
};

struct inst {
    op code = op::match;
    bool backward = false;  // chr, any, set, backref: read the text right to left
    bool flag = false;
    std::uint32_t a = 0;
    std::uint32_t b = 0;
    std::uint32_t c = 0;
    std::uint32_t d = 0;
};

struct program {
    std::vector<inst> code;
    std::vector<cp_set> sets;
    std::uint32_t slots = 0;      // 2 per group, group 0 unused
    std::uint32_t registers = 0;  // 2 per counted loop, 1 per lookaround
    bool anchored = false;        // every match starts at position 0
    bool filtered = false;        // every match starts with a byte in first_bytes
    std::array<std::uint64_t, 4> first_bytes{};

    bool may_start(unsigned char b) const noexcept { return (first_bytes[b >> 6] >> (b & 63) & 1u) != 0; }
};

class code_generator {
public:
    code_generator(const syntax_tree& tree, program& out) noexcept : t_(tree), out_(out) {}

    void generate() {
        emit(t_.root, false);
        out_.code.push_back(inst{});  // match
        out_.slots = 2 * (t_.groups + 1);
        out_.anchored = anchored(t_.root);
        const first_info f = first(t_.root);
        out_.filtered = !f.nullable;
        out_.first_bytes = f.bytes;
    }

private:
    const syntax_tree& t_;
    program& out_;

    std::uint32_t pc() const noexcept { return static_cast<std::uint32_t>(out_.code.size()); }

    std::uint32_t push(op code, std::uint32_t a = 0, std::uint32_t b = 0, bool backward = false) {
        inst in;
        in.code = code;
        in.a = a;
        in.b = b;
        in.backward = backward;
        out_.code.push_back(in);
        return pc() - 1;
    }

    struct first_info {
        std::array<std::uint64_t, 4> bytes{};  // bytes a match may start with
        bool nullable = true;                  // may match without reading a code point
    };

    static void add_bytes(first_info& f, unsigned lo, unsigned hi) noexcept {
        for (unsigned b = lo; b <= hi; ++b) f.bytes[b >> 6] |= std::uint64_t{1} << (b & 63);
    }

    // Any byte from 0x80 stands for every non-ASCII code point (and U+FFFD, read from invalid bytes).
    static void add_code_points(first_info& f, char32_t lo, char32_t hi) noexcept {
        if (lo < 0x80) add_bytes(f, lo, std::min<unsigned>(hi, 0x7F));
        if (hi >= 0x80) add_bytes(f, 0x80, 0xFF);
    }

    // The bytes that can begin a match of a node (read forward), to skip start positions.
    first_info first(std::uint32_t id) const noexcept {
        const node& n = t_.nodes[id];
        first_info f;
        switch (n.kind) {
        case node_kind::chr: add_code_points(f, n.value, n.value); f.nullable = false; break;
        case node_kind::any:
            add_code_points(f, 0, 0x10FFFF);
            f.bytes[0] &= ~((std::uint64_t{1} << '\n') | (std::uint64_t{1} << '\r'));
            f.nullable = false;
            break;
        case node_kind::set:
            for (const cp_range& r : t_.sets[n.value]) add_code_points(f, r.lo, r.hi);
            f.nullable = false;
            break;
        case node_kind::backref: add_bytes(f, 0, 0xFF); break;
        case node_kind::seq:
            for (const std::uint32_t k : n.kids) {
                const first_info g = first(k);
                for (std::size_t w = 0; w < 4; ++w) f.bytes[w] |= g.bytes[w];
                if (!g.nullable) {
                    f.nullable = false;
                    break;
                }
            }
            break;
        case node_kind::alt:
            f.nullable = false;
            for (const std::uint32_t k : n.kids) {
                const first_info g = first(k);
                for (std::size_t w = 0; w < 4; ++w) f.bytes[w] |= g.bytes[w];
                f.nullable = f.nullable || g.nullable;
            }
            break;
        case node_kind::capture: return first(n.kids[0]);
        case node_kind::repeat:
            if (n.max == 0) break;
            f = first(n.kids[0]);
            f.nullable = f.nullable || n.min == 0;
            break;
        default: break;  // empty, assertions and lookarounds read nothing
        }
        return f;
    }

    // Fewest code points a node can match, saturated.
    std::uint32_t min_width(std::uint32_t id) const noexcept {
        const node& n = t_.nodes[id];
        switch (n.kind) {
        case node_kind::chr: case node_kind::any: case node_kind::set: return 1;
        case node_kind::seq: {
            std::uint64_t w = 0;
            for (const std::uint32_t k : n.kids) w = std::min<std::uint64_t>(w + min_width(k), unbounded);
            return static_cast<std::uint32_t>(w);
        }
        case node_kind::alt: {
            std::uint32_t w = unbounded;
            for (const std::uint32_t k : n.kids) w = std::min(w, min_width(k));
            return w;
        }
        case node_kind::capture: return min_width(n.kids[0]);
        case node_kind::repeat:
            return static_cast<std::uint32_t>(
                std::min<std::uint64_t>(std::uint64_t{n.min} * min_width(n.kids[0]), unbounded));
        default: return 0;
        }
    }

    bool anchored(std::uint32_t id) const noexcept {
        const node& n = t_.nodes[id];
        switch (n.kind) {
        case node_kind::line_begin: return true;
        case node_kind::seq: return !n.kids.empty() && anchored(n.kids[0]);
        case node_kind::alt:
            return std::all_of(n.kids.begin(), n.kids.end(), [&](std::uint32_t k) { return anchored(k); });
        case node_kind::capture: return anchored(n.kids[0]);
        case node_kind::repeat: return n.min > 0 && anchored(n.kids[0]);
        default: return false;
        }
    }

    void emit(std::uint32_t id, bool backward) {
        const node& n = t_.nodes[id];
        switch (n.kind) {
        case node_kind::empty: break;
        case node_kind::chr: push(op::chr, n.value, 0, backward); break;
        case node_kind::any: push(op::any, 0, 0, backward); break;
        case node_kind::set: push(op::set, n.value, 0, backward); break;
        case node_kind::line_begin: push(op::line_begin); break;
        case node_kind::line_end: push(op::line_end); break;
        case node_kind::word_boundary: push(op::word_boundary); break;
        case node_kind::not_word_boundary: push(op::not_word_boundary); break;
        case node_kind::backref: push(op::backref, n.value, 0, backward); break;
        case node_kind::seq:
            if (backward) {
                for (auto k = n.kids.rbegin(); k != n.kids.rend(); ++k) emit(*k, true);
            } else {
                for (const std::uint32_t k : n.kids) emit(k, false);
            }
            break;
        case node_kind::alt: {
            std::vector<std::uint32_t> jumps;
            for (std::size_t k = 0; k < n.kids.size(); ++k) {
                if (k + 1 == n.kids.size()) {
                    emit(n.kids[k], backward);
                    break;
                }
                const std::uint32_t split = push(op::split, pc() + 1);
                emit(n.kids[k], backward);
                jumps.push_back(push(op::jump));
                out_.code[split].b = pc();
            }
            for (const std::uint32_t j : jumps) out_.code[j].a = pc();
            break;
        }
        case node_kind::capture: {
            // Read right to left, a group meets its end first.
            const std::uint32_t first = 2 * n.value + (backward ? 1 : 0);
            const std::uint32_t second = 2 * n.value + (backward ? 0 : 1);
            push(op::save, first);
            emit(n.kids[0], backward);
            push(op::save, second);
            break;
        }
        case node_kind::look: {
            const std::uint32_t reg = out_.registers++;
            const std::uint32_t enter = push(op::look_enter, reg);
            out_.code[enter].flag = n.negate;
            emit(n.kids[0], n.behind);
            push(op::look_exit, reg);
            out_.code[enter].b = pc();
            break;
        }
        case node_kind::repeat: emit_repeat(n, backward); break;
        }
    }

    // Split with the preferred branch first: greedy prefers `body`.
    std::uint32_t push_split(bool greedy, std::uint32_t body, std::uint32_t exit) {
        return greedy ? push(op::split, body, exit) : push(op::split, exit, body);
    }

    void emit_clear(const node& n) {
        if (n.first_group < n.end_group) push(op::clear, 2 * n.first_group, 2 * n.end_group);
    }

    void emit_repeat(const node& n, bool backward) {
        const std::uint32_t body = n.kids[0];
        if (n.max == 0) return;
        if (n.min == 1 && n.max == 1) return emit(body, backward);
        // An iteration beyond the minimum that matches empty fails (ECMA-262 RepeatMatcher):
        // without an empty match, simple loops need no check.
        if (min_width(body) > 0) {
            if (n.min == 0 && n.max == 1) {
                const std::uint32_t split = push(op::split);
                emit(body, backward);
                const inst s = n.greedy ? inst{op::split, false, false, split + 1, pc(), 0, 0}
                                        : inst{op::split, false, false, pc(), split + 1, 0, 0};
                out_.code[split] = s;
                return;
            }
            if (n.min == 0 && n.max == unbounded) {
                const std::uint32_t split = push(op::split);
                emit_clear(n);
                emit(body, backward);
                push(op::jump, split);
                const inst s = n.greedy ? inst{op::split, false, false, split + 1, pc(), 0, 0}
                                        : inst{op::split, false, false, pc(), split + 1, 0, 0};
                out_.code[split] = s;
                return;
            }
            if (n.min == 1 && n.max == unbounded) {
                const std::uint32_t start = pc();
                emit_clear(n);
                emit(body, backward);
                push_split(n.greedy, start, pc() + 1);
                return;
            }
        }
        const std::uint32_t reg = out_.registers;
        out_.registers += 2;
        push(op::rep_enter, reg);
        const std::uint32_t test = push(op::rep_test, reg, n.min);
        out_.code[test].c = n.max;
        out_.code[test].flag = n.greedy;
        push(op::rep_body, reg);
        if (n.max > 1) emit_clear(n);
        emit(body, backward);
        const std::uint32_t end = push(op::rep_end, reg, n.min);
        out_.code[end].c = test;
        out_.code[test].d = pc();
    }
};

} // namespace agentry::regex::detail

#endif
