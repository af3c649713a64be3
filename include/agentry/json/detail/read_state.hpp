// SPDX-License-Identifier: BSL-1.0
#ifndef AGENTRY_JSON_DETAIL_READ_STATE_HPP
#define AGENTRY_JSON_DETAIL_READ_STATE_HPP

// The state of one read (cursor, JSON Pointer of the value being read, errors collected), the
// descriptions of values in messages, and the declaration of read_value, which
// json/detail/read_value.hpp defines over the readers of each kind of type.

#include <agentry/detail/text.hpp>
#include <agentry/json/detail/lexer.hpp>
#include <agentry/json/error.hpp>
#include <agentry/schema/detail/classify.hpp>

#include <cstddef>
#include <memory>
#include <string>
#include <string_view>
#include <type_traits>
#include <utility>
#include <vector>

namespace agentry::json::detail {

using schema::detail::kind;
using schema::detail::kind_of;

// Trivially default-constructible (no std::string_view member), so that the reader's path
// array is left unwritten when a reader is made: only its first path_size_ entries are read.
// Two words, written with two stores: a key is `value >> 1` bytes at key_data (the low bit of
// `value` clear); an index is `value >> 1` with the low bit set.
struct path_segment {
    const char* key_data;
    std::size_t value;
    bool is_index() const noexcept { return (value & 1) != 0; }
};
static_assert(std::is_trivially_default_constructible_v<path_segment>);

class reader {
public:
    static constexpr std::size_t max_path = 128;

    reader(std::string_view text, const read_options& options, std::vector<read_error>& errors,
           std::vector<std::string>& repairs) noexcept
        : options_(options), errors_(errors), repairs_(repairs) {
        in.begin = in.p = text.data();
        in.end = text.data() + text.size();
    }

    cursor in;
    std::size_t depth = 0;
    /// Where std::string_view values that cannot view the input are copied (read_result::owned_text).
    std::vector<std::unique_ptr<char[]>>* owned_text = nullptr;
    /// The input outlives the value read (false for text decoded by a repair).
    bool stable_input = true;

    const read_options& options() const noexcept { return options_; }
    bool stopped() const noexcept { return stopped_; }
    std::size_t error_count() const noexcept { return error_count_; }

    /// While probing an alternative of a variant, errors are counted but not recorded.
    bool quiet() const noexcept { return quiet_; }

    void push_key(std::string_view key) noexcept { push({key.data(), key.size() << 1}); }
    void push_index(std::size_t index) noexcept { push({nullptr, index << 1 | 1}); }
    void pop() noexcept { --path_size_; }

    /// The JSON Pointer of the value being read.
    AGENTRY_JSON_COLD_DECL std::string pointer() const;

    template <class Message>
    void error(error_kind kind, Message&& message) {
        ++error_count_;
        if (quiet_ || stopped_) return;
        record(kind, std::string(std::forward<Message>(message)));
    }

    /// A syntax error stops reading: nothing after it can be trusted.
    AGENTRY_JSON_COLD_DECL void syntax_error();

    AGENTRY_JSON_COLD_DECL void repaired(std::string note);

    /// A repair note from a nested reader, whose pointer it already holds.
    void repaired_as_is(std::string note) {
        if (!quiet_) repairs_.push_back(std::move(note));
    }

    /// Skips the value at the cursor after an error about it.
    void skip() {
        in.skip_ws();
        if (!skip_value(in, depth, options_.max_depth)) syntax_error();
    }

    /// A reader for text found inside this one (an alternative of a variant, a repaired
    /// string): same options and path, its own cursor.
    /// `options`, when given, replaces this reader's options and must outlive the nested reader.
    reader nested(std::string_view text, bool quiet, std::vector<read_error>& errors, std::vector<std::string>& repairs,
                  const read_options* options = nullptr) const noexcept {
        reader r(text, options ? *options : options_, errors, repairs);
        for (std::size_t i = 0; i != path_size_ && i != max_path; ++i) r.path_[i] = path_[i];
        r.path_size_ = path_size_;
        r.depth = depth;
        r.quiet_ = quiet || quiet_;
        r.owned_text = owned_text;
        r.stable_input = stable_input && text.data() >= in.begin && text.data() + text.size() <= in.end;
        return r;
    }

    /// Takes the errors and stop state of a nested reader.
    void absorb(const reader& inner) noexcept {
        error_count_ += inner.error_count_;
        stopped_ = stopped_ || inner.stopped_;
    }

private:
    /// Records an error that is neither quiet nor past the stop.
    AGENTRY_JSON_COLD_DECL void record(error_kind kind, std::string message);

    void push(path_segment s) noexcept {
        if (path_size_ < max_path) path_[path_size_] = s;
        ++path_size_;
    }

    const read_options& options_;
    std::vector<read_error>& errors_;
    std::vector<std::string>& repairs_;
    path_segment path_[max_path];
    std::size_t path_size_ = 0;
    std::size_t error_count_ = 0;
    bool stopped_ = false;
    bool quiet_ = false;
};

/// The JSON type of the value at the cursor: "string", "number", ...
inline std::string_view json_type_at(const cursor& in) noexcept {
    switch (in.peek()) {
    case '"': return "a string";
    case '{': return "an object";
    case '[': return "an array";
    case 't':
    case 'f': return "a boolean";
    case 'n': return "null";
    case '\0': return "nothing";
    default: return "a number";
    }
}

/// The value at the cursor as text, cut to a readable length, with bytes that are not
/// printable UTF-8 written as \xNN; the cursor does not move.
AGENTRY_JSON_COLD_DECL std::string excerpt_at(const cursor& in);

template <class T>
consteval std::string_view expected_name() noexcept {
    constexpr kind k = kind_of<T>();
    if constexpr (k == kind::adapted) return expected_name<schema::detail::json_type_of<T>>();
    else if constexpr (k == kind::boolean) return "a boolean";
    else if constexpr (k == kind::integer) return "an integer";
    else if constexpr (k == kind::number) return "a number";
    else if constexpr (k == kind::string || k == kind::enumeration) return "a string";
    else if constexpr (k == kind::constrained) return expected_name<typename T::value_type>();
    else if constexpr (k == kind::optional) return expected_name<typename T::value_type>();
    else if constexpr (k == kind::fixed_array || k == kind::set || k == kind::array || k == kind::tuple)
        return "an array";
    else if constexpr (k == kind::map || k == kind::object) return "an object";
    else if constexpr (k == kind::null) return "null";
    else return "a value";
}

template <class T>
void type_error(reader& r);
AGENTRY_JSON_COLD_DECL void type_error_as(reader& r, std::string_view expected);

// The value at the cursor is not a T. Text that is not JSON there is a syntax error, alone:
// a type would describe bytes that are no value.
template <class T>
void type_error(reader& r) {
    type_error_as(r, expected_name<T>());
}

template <class T>
void read_value(reader& r, T& out);

inline bool read_literal(reader& r, std::string_view word) {
    if (!r.in.literal(word)) {
        r.syntax_error();
        return false;
    }
    return true;
}

} // namespace agentry::json::detail

#endif
