// SPDX-License-Identifier: BSL-1.0
#ifndef AGENTRY_JSON_DETAIL_READ_VARIANT_HPP
#define AGENTRY_JSON_DETAIL_READ_VARIANT_HPP

// Reading std::variant: the first alternative that reads without error wins, one that fits as
// sent before one that needs a repair; otherwise an error that says why each did not fit.

#include <agentry/json/detail/lexer.hpp>
#include <agentry/json/detail/read_state.hpp>
#include <agentry/reflect/function.hpp>
#include <agentry/schema/detail/defs.hpp>

#include <algorithm>
#include <cstddef>
#include <string>
#include <string_view>
#include <type_traits>
#include <utility>
#include <variant>
#include <vector>

namespace agentry::json::detail {

// How an alternative of a variant is named in a message: a struct by its name ("card"), a
// variant by its alternatives ("a boolean or voucher"), any other type by its JSON type.
template <class A>
std::string alternative_name() {
    if constexpr (kind_of<A>() == kind::object && std::is_class_v<A>) {
        return std::string(schema::detail::short_type_name_text<A>.view());
    } else if constexpr (kind_of<A>() == kind::variant) {
        return []<class... B>(std::variant<B...>*) {
            std::string names;
            ((names += (names.empty() ? "" : " or ") + alternative_name<std::remove_cv_t<B>>()), ...);
            return names;
        }(static_cast<A*>(nullptr));
    } else {
        return std::string(expected_name<A>());
    }
}

// Whether a value of type A can start with `c` (the first byte of a JSON value), repairs
// included: false means the value is not even of A's JSON type.
template <class A>
bool admits_start(char c, const read_options& options) noexcept {
    constexpr kind k = kind_of<A>();
    if constexpr (k == kind::constrained || k == kind::optional) {
        return (k == kind::optional && c == 'n') || admits_start<typename A::value_type>(c, options);
    } else if constexpr (k == kind::variant) {
        return [&]<class... B>(std::variant<B...>*) {
            return (admits_start<std::remove_cv_t<B>>(c, options) || ...);
        }(static_cast<A*>(nullptr));
    } else if constexpr (k == kind::boolean) {
        return c == 't' || c == 'f';
    } else if constexpr (k == kind::integer || k == kind::number) {
        return c == '-' || (c >= '0' && c <= '9') || (c == '"' && options.repairs.number_in_string);
    } else if constexpr (k == kind::string || k == kind::enumeration) {
        return c == '"';
    } else if constexpr (k == kind::fixed_array || k == kind::set || k == kind::array) {
        return c == '[' || (c == '"' && options.repairs.json_in_string);
    } else if constexpr (k == kind::map || k == kind::object) {
        return c == '{' || (c == '"' && options.repairs.json_in_string);
    } else if constexpr (k == kind::null) {
        return c == 'n';
    } else {
        return true;
    }
}

// Why one alternative did not fit: its errors, with pointers relative to the variant.
struct alternative_failure {
    std::string name;
    std::vector<read_error> errors;
    /// The value is not even of the alternative's JSON type: the farthest from fitting.
    bool wrong_type = false;
};

// "matches none of the allowed forms; as card: /last4 must match ...; as voucher: missing
// /code": the reasons of each alternative of the value's JSON type, the fewest errors first,
// then the alternatives of other types ("not null or an integer: got an object"). `got` is the
// value's JSON type and an excerpt.
inline std::string explain_no_alternative(std::vector<alternative_failure>& failures, std::string_view type,
                                          std::string_view excerpt) {
    constexpr std::size_t shown_per_alternative = 2;
    std::stable_sort(failures.begin(), failures.end(), [](const alternative_failure& a, const alternative_failure& b) {
        if (a.wrong_type != b.wrong_type) return b.wrong_type;
        return a.errors.size() < b.errors.size();
    });
    const auto names = [&](std::string_view separator, std::string_view last_separator) {
        std::string out;
        std::size_t count = 0, total = 0;
        for (const alternative_failure& f : failures) total += f.wrong_type;
        for (const alternative_failure& f : failures) {
            if (!f.wrong_type) continue;
            if (count != 0) out += count + 1 == total ? last_separator : separator;
            out += f.name;
            ++count;
        }
        return out;
    };
    std::string text = "matches none of the allowed forms";
    if (failures.empty() || failures.front().wrong_type)
        return text + "; got " + std::string(type) + " " + std::string(excerpt) + ", expected " + names(", ", " or ");
    for (const alternative_failure& f : failures) {
        if (f.wrong_type) break;
        text += "; as ";
        text += f.name;
        text += ": ";
        for (std::size_t i = 0; i != f.errors.size() && i != shown_per_alternative; ++i) {
            const read_error& e = f.errors[i];
            if (i != 0) text += ", ";
            if (e.kind == error_kind::required) {
                text += "missing " + e.pointer;
                continue;
            }
            if (!e.pointer.empty()) text += e.pointer + " ";
            text += e.message;
        }
        if (f.errors.size() > shown_per_alternative)
            text += " (and " + std::to_string(f.errors.size() - shown_per_alternative) + " more)";
    }
    if (failures.back().wrong_type) text += "; not " + names(", ", " or ") + ": got " + std::string(type);
    return text;
}

template <class V, class... A>
void read_variant(reader& r, V& out, reflect::type_list<A...>) {
    cursor start = r.in;
    if (!skip_value(r.in, r.depth, r.options().max_depth)) {
        r.syntax_error();
        return;
    }
    const std::string_view text(start.p, std::size_t(r.in.p - start.p));
    bool matched = false;
    // `options` null: the reader's own. The first alternative that reads without error wins.
    const auto attempt = [&]<class Alternative>(std::type_identity<Alternative>, const read_options* options) {
        if (matched) return;
        std::vector<read_error> errors;
        std::vector<std::string> repairs;
        reader probe = r.nested(text, true, errors, repairs, options);
        Alternative value{};
        read_value(probe, value);
        if (probe.error_count() != 0) return;
        // Read again, recording repairs, now that this alternative is known to fit.
        matched = true;
        reader inner = r.nested(text, false, errors, repairs, options);
        Alternative kept{};
        read_value(inner, kept);
        out = std::move(kept);
        for (auto& note : repairs) r.repaired_as_is(std::move(note));  // already carries its pointer
    };
    // An alternative that fits as sent wins over one that needs a repair.
    if (r.options().repairs == repairs{}) {
        (attempt(std::type_identity<std::remove_cv_t<A>>{}, nullptr), ...);
    } else {
        read_options strict = r.options();
        strict.repairs = {};
        (attempt(std::type_identity<std::remove_cv_t<A>>{}, &strict), ...);
        (attempt(std::type_identity<std::remove_cv_t<A>>{}, nullptr), ...);
    }
    if (matched) return;
    r.in = start;
    if (r.quiet()) {  // only the count matters: an enclosing variant is probing
        r.error(error_kind::no_alternative, std::string());
        r.skip();
        return;
    }
    // Read each alternative again, recording its errors relative to the variant.
    std::vector<alternative_failure> failures;
    const auto explain = [&]<class Alternative>(std::type_identity<Alternative>) {
        alternative_failure& f = failures.emplace_back();
        f.name = alternative_name<Alternative>();
        f.wrong_type = !admits_start<Alternative>(r.in.peek(), r.options());
        if (f.wrong_type) return;
        std::vector<std::string> repairs;
        reader inner(text, r.options(), f.errors, repairs);
        inner.depth = r.depth;
        Alternative value{};
        read_value(inner, value);
    };
    (explain(std::type_identity<std::remove_cv_t<A>>{}), ...);
    std::string message = explain_no_alternative(failures, json_type_at(r.in), excerpt_at(r.in));
    r.error(error_kind::no_alternative, std::move(message));
    r.skip();
}

template <class V>
struct alternatives;
template <class... A>
struct alternatives<std::variant<A...>> {
    using type = reflect::type_list<A...>;
};

} // namespace agentry::json::detail

#endif
