// SPDX-License-Identifier: BSL-1.0
#ifndef AGENTRY_REGEX_IMPL_MATCH_IPP
#define AGENTRY_REGEX_IMPL_MATCH_IPP

// The regular expression engine's matching (impl/pattern.ipp): a backtracking machine with an
// explicit stack, so nothing recurses on the text, and a single pass for simple anchored
// patterns.

#include <agentry/regex/impl/program.ipp>

#include <cstddef>
#include <cstdint>
#include <optional>
#include <string_view>
#include <vector>

namespace agentry::regex::detail {

enum class frame_kind : unsigned char { choice, undo_slot, undo_register, barrier };

struct frame {
    frame_kind kind;
    std::uint32_t a;  // choice: pc; undo: slot or register; barrier: pc of the look_enter
    std::size_t b;    // choice, barrier: position; undo: old value
};

enum class outcome { match, no_match, too_complex };

// The machine's memory, kept per thread so that a search allocates nothing once warm.
struct scratch {
    std::vector<std::size_t> slots;
    std::vector<std::size_t> registers;
    std::vector<frame> stack;
};

inline scratch& thread_scratch() noexcept {
    thread_local scratch s;
    return s;
}

// One search over a text; throws std::bad_alloc only. One machine per thread at a time.
class machine {
public:
    machine(const program& p, std::string_view text, std::size_t max_steps)
        : p_(p), text_(text), slots_(thread_scratch().slots), registers_(thread_scratch().registers),
          stack_(thread_scratch().stack), max_steps_(max_steps) {
        slots_.assign(p.slots, no_pos);
        registers_.assign(p.registers, 0);
        stack_.clear();
    }
    machine(const machine&) = delete;
    machine& operator=(const machine&) = delete;
    ~machine() {
        // A hostile search may have grown the stack a lot: give that memory back.
        if (stack_.capacity() > max_kept_frames) std::vector<frame>().swap(stack_);
    }

    outcome search() {
        for (std::size_t start = 0;;) {
            if (p_.filtered) {  // a start whose byte cannot begin a match costs no step
                while (start < text_.size() && !p_.may_start(static_cast<unsigned char>(text_[start])))
                    start += next_code_point(text_, start).len;
                if (start >= text_.size()) return outcome::no_match;
            }
            const outcome r = run(start);
            if (r != outcome::no_match) return r;
            if (p_.anchored || start >= text_.size()) return outcome::no_match;
            start += next_code_point(text_, start).len;
        }
    }

private:
    static constexpr std::size_t max_kept_frames = 4096;

    const program& p_;
    std::string_view text_;
    std::vector<std::size_t>& slots_;
    std::vector<std::size_t>& registers_;
    std::vector<frame>& stack_;
    std::size_t steps_ = 0;
    std::size_t max_steps_;

    bool charge(std::size_t n) noexcept {
        steps_ += n;
        return steps_ <= max_steps_;
    }

    void set_slot(std::uint32_t s, std::size_t v) {
        stack_.push_back({frame_kind::undo_slot, s, slots_[s]});
        slots_[s] = v;
    }

    void set_register(std::uint32_t r, std::size_t v) {
        stack_.push_back({frame_kind::undo_register, r, registers_[r]});
        registers_[r] = v;
    }

    void undo(const frame& f) noexcept {
        if (f.kind == frame_kind::undo_slot) slots_[f.a] = f.b;
        else if (f.kind == frame_kind::undo_register) registers_[f.a] = f.b;
    }

    bool is_word_byte(std::size_t k) const noexcept {
        const char c = text_[k];
        return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '_';
    }

    bool at_word_boundary(std::size_t pos) const noexcept {
        const bool before = pos > 0 && is_word_byte(pos - 1);
        const bool after = pos < text_.size() && is_word_byte(pos);
        return before != after;
    }

    // Reads one code point in the instruction's direction; false at the end of the text.
    bool read(const inst& in, std::size_t& pos, char32_t& c) const noexcept {
        if (in.backward) {
            if (pos == 0) return false;
            const decoded d = previous_code_point(text_, pos);
            c = d.cp;
            pos -= d.len;
        } else {
            if (pos >= text_.size()) return false;
            const decoded d = next_code_point(text_, pos);
            c = d.cp;
            pos += d.len;
        }
        return true;
    }

    // Executes one instruction; false when it fails.
    bool step(std::uint32_t& pc, std::size_t& pos) {
        const inst& in = p_.code[pc];
        switch (in.code) {
        case op::chr: {
            char32_t c = 0;
            if (!read(in, pos, c) || c != in.a) return false;
            break;
        }
        case op::any: {
            char32_t c = 0;
            if (!read(in, pos, c) || c == 0x0A || c == 0x0D || c == 0x2028 || c == 0x2029) return false;
            break;
        }
        case op::set: {
            char32_t c = 0;
            if (!read(in, pos, c) || !contains(p_.sets[in.a], c)) return false;
            break;
        }
        case op::line_begin:
            if (pos != 0) return false;
            break;
        case op::line_end:
            if (pos != text_.size()) return false;
            break;
        case op::word_boundary:
            if (!at_word_boundary(pos)) return false;
            break;
        case op::not_word_boundary:
            if (at_word_boundary(pos)) return false;
            break;
        case op::split:
            stack_.push_back({frame_kind::choice, in.b, pos});
            pc = in.a;
            return true;
        case op::jump: pc = in.a; return true;
        case op::save: set_slot(in.a, pos); break;
        case op::clear:
            if (!charge(in.b - in.a)) return false;
            for (std::uint32_t s = in.a; s < in.b; ++s)
                if (slots_[s] != no_pos) set_slot(s, no_pos);
            break;
        case op::backref: {
            const std::size_t from = slots_[2 * in.a];
            const std::size_t to = slots_[2 * in.a + 1];
            if (from == no_pos || to == no_pos || to <= from) break;  // unset: matches empty
            const std::size_t len = to - from;
            if (!charge(len / 16)) return false;
            const std::string_view captured = text_.substr(from, len);
            if (in.backward) {
                if (pos < len || text_.substr(pos - len, len) != captured) return false;
                pos -= len;
            } else {
                if (text_.size() - pos < len || text_.substr(pos, len) != captured) return false;
                pos += len;
            }
            break;
        }
        case op::look_enter:
            registers_[in.a] = stack_.size();
            stack_.push_back({frame_kind::barrier, pc, pos});
            break;
        case op::look_exit: {
            // The body matched: lookarounds are atomic, so its choices are dropped.
            const std::size_t at = registers_[in.a];
            const frame barrier = stack_[at];
            const inst& enter = p_.code[barrier.a];
            if (!charge(stack_.size() - at)) return false;
            if (enter.flag) {  // negative: undo the body, then fail
                while (stack_.size() > at) {
                    undo(stack_.back());
                    stack_.pop_back();
                }
                return false;
            }
            std::size_t w = at;  // positive: keep the undo records of the captures it set
            for (std::size_t k = at + 1; k < stack_.size(); ++k)
                if (stack_[k].kind == frame_kind::undo_slot || stack_[k].kind == frame_kind::undo_register)
                    stack_[w++] = stack_[k];
            stack_.resize(w);
            pos = barrier.b;
            pc = enter.b;
            return true;
        }
        case op::rep_enter: set_register(in.a, 0); break;
        case op::rep_test: {
            const std::size_t count = registers_[in.a];
            if (count < in.b) break;  // mandatory iteration
            if (count >= in.c) {
                pc = in.d;
                return true;
            }
            if (in.flag) {
                stack_.push_back({frame_kind::choice, in.d, pos});
            } else {
                stack_.push_back({frame_kind::choice, pc + 1, pos});
                pc = in.d;
                return true;
            }
            break;
        }
        case op::rep_body: set_register(in.a + 1, pos); break;
        case op::rep_end:
            if (registers_[in.a] >= in.b && registers_[in.a + 1] == pos) return false;  // optional and empty
            set_register(in.a, registers_[in.a] + 1);
            pc = in.c;
            return true;
        case op::match: return true;
        }
        ++pc;
        return true;
    }

    outcome run(std::size_t start) {
        std::fill(slots_.begin(), slots_.end(), no_pos);
        stack_.clear();
        std::uint32_t pc = 0;
        std::size_t pos = start;
        for (;;) {
            if (!charge(1)) return outcome::too_complex;
            if (p_.code[pc].code == op::match) return outcome::match;
            if (step(pc, pos)) continue;
            for (;;) {  // backtrack
                if (steps_ > max_steps_ || !charge(1)) return outcome::too_complex;
                if (stack_.empty()) return outcome::no_match;
                const frame f = stack_.back();
                stack_.pop_back();
                if (f.kind == frame_kind::choice) {
                    pc = f.a;
                    pos = f.b;
                    break;
                }
                if (f.kind == frame_kind::barrier) {
                    const inst& enter = p_.code[f.a];
                    if (!enter.flag) continue;  // positive lookaround: the body failed
                    pc = enter.b;               // negative lookaround: the body failed, so it holds
                    pos = f.b;
                    break;
                }
                undo(f);
            }
        }
    }
};

// Patterns of the form ^a{m,n}b{m,n}...$ whose atoms are characters, sets or '.', where each
// atom of variable count is last or followed by an atom of count >= 1 that shares no code point
// with it: its extent is then forced, so one greedy left-to-right pass decides the match with
// no backtracking and no memory. Most tool parameter patterns (codes, identifiers, dates) are
// of this form.
struct simple_atom {
    node_kind kind;       // chr, any or set
    std::uint32_t value;  // chr: code point; set: index into the sets
    std::uint32_t min;
    std::uint32_t max;
    std::uint64_t ascii[2] = {0, 0};  // bit c: the atom accepts the ASCII character c
};

struct simple_sequence {
    std::vector<simple_atom> atoms;

    static std::optional<simple_sequence> from(const syntax_tree& t) {
        const node& root = t.nodes[t.root];
        if (root.kind != node_kind::seq || root.kids.size() < 2) return std::nullopt;
        if (t.nodes[root.kids.front()].kind != node_kind::line_begin ||
            t.nodes[root.kids.back()].kind != node_kind::line_end)
            return std::nullopt;
        simple_sequence out;
        for (std::size_t k = 1; k + 1 < root.kids.size(); ++k) {
            const node* n = &t.nodes[root.kids[k]];
            std::uint32_t min = 1, max = 1;
            if (n->kind == node_kind::repeat) {
                min = n->min;
                max = n->max;
                n = &t.nodes[n->kids[0]];
            }
            if (n->kind != node_kind::chr && n->kind != node_kind::any && n->kind != node_kind::set) return std::nullopt;
            simple_atom atom{n->kind, n->value, min, max};
            for (char32_t c = 0; c != 0x80; ++c)
                if (accepts(atom, c, t.sets)) atom.ascii[c >> 6] |= std::uint64_t(1) << (c & 63);
            out.atoms.push_back(atom);
        }
        for (std::size_t i = 0; i + 1 < out.atoms.size(); ++i) {
            const simple_atom& a = out.atoms[i];
            const simple_atom& b = out.atoms[i + 1];
            if (a.min != a.max && (b.min == 0 || !disjoint(t.sets, a, b))) return std::nullopt;
        }
        return out;
    }

    bool match(std::string_view text, const std::vector<cp_set>& sets) const noexcept {
        std::size_t pos = 0;
        for (const simple_atom& a : atoms) {
            std::uint32_t count = 0;
            while (count < a.max && pos < text.size()) {
                // An ASCII byte is its own code point: one bit of the atom's table decides it.
                if (const auto b = static_cast<unsigned char>(text[pos]); b < 0x80) {
                    if (((a.ascii[b >> 6] >> (b & 63)) & 1) == 0) break;
                    ++pos;
                    ++count;
                    continue;
                }
                const decoded d = next_code_point(text, pos);
                if (!accepts(a, d.cp, sets)) break;
                pos += d.len;
                ++count;
            }
            if (count < a.min) return false;
        }
        return pos == text.size();
    }

private:
    static bool accepts(const simple_atom& a, char32_t c, const std::vector<cp_set>& sets) noexcept {
        switch (a.kind) {
        case node_kind::chr: return c == a.value;
        case node_kind::set: return contains(sets[a.value], c);
        default: return c != 0x0A && c != 0x0D && c != 0x2028 && c != 0x2029;  // any
        }
    }

    static bool disjoint(const std::vector<cp_set>& sets, const simple_atom& a, const simple_atom& b) {
        if (a.kind == node_kind::any || b.kind == node_kind::any) return false;
        const cp_set one = a.kind == node_kind::chr ? cp_set{{char32_t(a.value), char32_t(a.value)}} : sets[a.value];
        const cp_set two = b.kind == node_kind::chr ? cp_set{{char32_t(b.value), char32_t(b.value)}} : sets[b.value];
        for (const cp_range& x : one)
            for (const cp_range& y : two)
                if (x.lo <= y.hi && y.lo <= x.hi) return false;
        return true;
    }
};

} // namespace agentry::regex::detail

#endif
