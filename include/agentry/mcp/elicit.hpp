// SPDX-License-Identifier: BSL-1.0
#ifndef AGENTRY_MCP_ELICIT_HPP
#define AGENTRY_MCP_ELICIT_HPP

// agentry::mcp::elicit<T>(message): a tool (or a resource or prompt function) asks the user of
// the client of the request being served for a T, through the client's form (MCP
// elicitation/create, form mode, from protocol version 2025-06-18):
//
//   struct booking { std::string date; std::optional<int> guests = 2; };
//
//   std::string book(const std::string& hotel) {
//       auto answer = agentry::mcp::elicit<booking>("Which date, and for how many guests?");
//       if (answer.error) return answer.error->message;               // no capability, timeout, ...
//       if (!answer.accepted()) return "not booked";                   // declined or cancelled
//       return reserve(hotel, answer.content->date, *answer.content->guests);
//   }
//
// T is a flat struct: each field a string, a number, an integer, a boolean, an enum (a single
// choice) or a std::vector or std::set of an enum (a multiple choice, with min_items and max_items
// where constrained), or a std::optional of one (not required); a nested struct, another array or
// a map does not compile. An enum with agentry::enum_titles shows a title per value: `oneOf` of
// `const` and `title` (a multiple choice: `items` as `anyOf` of them) from 2025-11-25, `enum` with
// `enumNames` before, or when enum_titles sets legacy_enum_names.
// The requestedSchema is T's JSON Schema, a constant (elicitation_schema<T>()): field_docs give
// descriptions, defaults agentry knows give `default` (from 2025-11-25; before, they are written
// into the description), and constraints MCP's primitive schemas lack (a pattern, a multipleOf,
// an exclusive bound, a format other than date, date-time, email and uri, unique items) are
// written into the description. An accepted content is read into T by agentry's reader, which
// checks every constraint of T.
//
// The request is sent only when the client declared `capabilities.elicitation` (form mode) in
// `initialize`; otherwise, or outside a request, or where the transport cannot carry it, or
// after the timeout or the served request's cancellation, the result holds a ask_error and
// its message (ask.hpp).
//
// elicit_url(message, url) asks the user to open a URL instead (URL mode, 2025-11-25), for what
// must not pass through the client (a sign-in, a payment); the answer is the action only.

#include <agentry/detail/random_id.hpp>
#include <agentry/json/reader.hpp>
#include <agentry/mcp/detail/server_requests.hpp>
#include <agentry/mcp/elicit_action.hpp>
#include <agentry/mcp/message.hpp>
#include <agentry/mcp/ask.hpp>
#include <agentry/mcp/version.hpp>
#include <agentry/reflect/detail/shown_name.hpp>
#include <agentry/reflect/fields.hpp>
#include <agentry/schema/constraints.hpp>
#include <agentry/schema/detail/classify.hpp>
#include <agentry/schema/dialect.hpp>
#include <agentry/schema/json_schema.hpp>
#include <agentry/schema/raw_json.hpp>

#include <chrono>
#include <cstddef>
#include <optional>
#include <string>
#include <string_view>
#include <type_traits>
#include <utility>

namespace agentry::mcp {

/// The answer to elicit<T>: the user's action and, when accepted, the content read into T; or,
/// when there is no usable answer, `error`.
template <class T>
struct elicit_result {
    elicit_action action = elicit_action::cancel;
    /// The submitted content; present exactly when the action is accept and there is no error.
    std::optional<T> content;
    std::optional<ask_error> error;

    /// The user submitted the form and `content` holds it.
    bool accepted() const noexcept { return !error && action == elicit_action::accept && content.has_value(); }
};

namespace detail {

// The requestedSchema's dialect: a flat object without additionalProperties whose properties
// are MCP's primitive schemas, with the keywords they define (minLength, maxLength, format of
// date, date-time, email or uri; minimum, maximum; minItems, maxItems of a multiple choice); other
// constraints go into the description. From 2025-11-25 (Current): `default`, and titles of enum
// values as oneOf/anyOf; 2025-06-18 defines `default` for booleans only, so there every default is
// written into the description, and titles as enumNames.
template <bool Current>
struct elicitation_dialect {
    static constexpr dialect_kind kind = dialect_kind::mcp;
    static constexpr dialect_rules rules{
        .name = "mcp elicitation",
        .closed_objects = false,
        .maps = false,
        .prefix_items = false,
        .any_value = false,
        .refs = false,
        .default_keyword = Current,
        .enum_titles = Current ? enum_title_form::one_of : enum_title_form::enum_names,
        .keywords = keyword_bit(constraint_keyword::minimum) | keyword_bit(constraint_keyword::maximum) |
                    keyword_bit(constraint_keyword::min_length) | keyword_bit(constraint_keyword::max_length) |
                    keyword_bit(constraint_keyword::format) | keyword_bit(constraint_keyword::min_items) |
                    keyword_bit(constraint_keyword::max_items),
        .formats = format_bit(string_format::date) | format_bit(string_format::date_time) |
                   format_bit(string_format::email) | format_bit(string_format::uri),
        .max_depth = 2,
    };
};

template <class V>
consteval bool primitive_value() noexcept {
    using namespace schema::detail;
    using U = std::remove_cv_t<V>;
    constexpr kind k = kind_of<U>();
    if constexpr (k == kind::constrained) return primitive_value<typename U::value_type>();
    else if constexpr (k == kind::adapted) return primitive_value<json_type_of<U>>();
    else return k == kind::boolean || k == kind::integer || k == kind::number || k == kind::string || k == kind::enumeration;
}

// A multiple choice: a std::vector or std::set of an enum, constrained or not.
template <class V>
consteval bool choices_value() noexcept {
    using namespace schema::detail;
    using U = std::remove_cv_t<V>;
    constexpr kind k = kind_of<U>();
    if constexpr (k == kind::constrained) return choices_value<typename U::value_type>();
    else if constexpr (k == kind::array || k == kind::set)
        return kind_of<std::remove_cv_t<typename U::value_type>>() == kind::enumeration;
    else return false;
}

template <class F>
consteval bool primitive_field() noexcept {
    using U = std::remove_cv_t<F>;
    if constexpr (schema::detail::kind_of<U>() == schema::detail::kind::optional)
        return primitive_value<typename U::value_type>() || choices_value<typename U::value_type>();
    else return primitive_value<U>() || choices_value<U>();
}

/// The field's name, as agentry::detail::shown_name shows it.
template <auto... Name>
struct form_field {};

/// Instantiated for a field of elicit<T>'s T that is not primitive; the field's name is its
/// first argument.
template <class Field, bool Primitive>
struct elicit_field {
    static_assert(Primitive,
                  "agentry: mcp::elicit<T>: the field in form_field<...> is not a string, a number, an "
                  "integer, a boolean, an enum or a std::vector or std::set of an enum (or a std::optional of "
                  "one): elicitation takes flat objects of primitive fields and lists of choices; ask for a nested "
                  "struct or another array in its own elicitation, or flatten it into fields of T");
};

template <class T, std::size_t I>
inline constexpr std::string_view field_name_of = reflect::field_names<T>[I];

template <class T>
consteval bool object_type() noexcept {
    return std::is_class_v<T> && !schema::detail::is_named_parameters<T> &&
           schema::detail::kind_of<T>() == schema::detail::kind::object;
}

template <class T>
consteval bool flat_fields() noexcept {
    if constexpr (!object_type<T>()) {
        return false;
    } else {
        return []<std::size_t... I>(std::index_sequence<I...>) {
            return (primitive_field<reflect::field_type<I, T>>() && ...);
        }(std::make_index_sequence<reflect::field_count<T>>{});
    }
}

/// T can be asked for: a struct of primitive fields. Decided without instantiating a
/// diagnostic, so that a T that cannot be asked for stops at report() alone.
template <class T>
inline constexpr bool elicitable = flat_fields<std::remove_cv_t<T>>();

/// Shows why T cannot be asked for: one diagnostic, naming the field when there is one.
template <class T>
constexpr void report() noexcept {
    using U = std::remove_cv_t<T>;
    static_assert(object_type<U>(), "agentry: mcp::elicit<T>: T must be a struct (an aggregate) whose fields are "
                                    "strings, numbers, integers, booleans, enums or lists of enums: elicitation "
                                    "takes flat objects of primitive fields");
    if constexpr (object_type<U>()) {
        []<std::size_t... I>(std::index_sequence<I...>) {
            ((void)sizeof(elicit_field<decltype(agentry::detail::shown_name<
                                                agentry::detail::fixed_prefix<field_name_of<U, I>.size()>(field_name_of<U, I>),
                                                form_field>()),
                                       primitive_field<reflect::field_type<I, U>>()>),
             ...);
        }(std::make_index_sequence<reflect::field_count<U>>{});
    }
}

// ElicitResult, as far as elicit reads it (`_meta` and members of later revisions are skipped).
struct elicit_answer {
    elicit_action action = elicit_action::cancel;
    std::optional<raw_json> content;
};

/// The client's answer to an elicitation/create, or why there is none.
struct elicited {
    elicit_answer answer;
    std::optional<ask_error> error;
};

/// The checks and the request both modes share: form mode (from 2025-06-18) or URL mode (`url`,
/// from 2025-11-25); `params(version)` writes the request's params. Messages begin
/// "agentry: <who>: ".
template <class Params>
elicited ask_elicitation(std::string_view who, bool url, const Params& params, std::chrono::milliseconds timeout) {
    elicited out;
    const asking_scope* scope = current_asking_;
    if ((out.error = cannot_ask(scope, who))) return out;
    const std::string head = "agentry: " + std::string(who) + ": ";
    const std::string_view since = url ? "2025-11-25" : "2025-06-18";
    if (scope->protocol() < since) {
        out.error = ask_error{ask_failure::no_capability,
                              head + (url ? "URL-mode elicitation" : "elicitation/create") +
                                  " is defined from protocol version " + std::string(since) + "; this session uses " +
                                  std::string(scope->protocol())};
        return out;
    }
    const client_abilities can = scope->abilities();
    if (!(url ? can.elicitation_url : can.elicitation_form)) {
        out.error = ask_error{ask_failure::no_capability,
                              head + "the client did not declare the elicitation capability " +
                                  (url ? "in URL mode (elicitation.url)" : "(form mode)") + " in " +
                                  (scope->version.empty() ? "the request's _meta clientCapabilities" : "initialize")};
        return out;
    }
    asked answer = ask(*scope, who, "elicitation/create", params(scope->protocol()), timeout);
    if (answer.error) {
        out.error = std::move(answer.error);
        return out;
    }
    auto result = json::read<elicit_answer>(answer.result, answer_reading(answer.result));
    if (!result.ok()) {
        out.error = ask_error{ask_failure::invalid_answer,
                              join_errors(head + "the client's answer to elicitation/create is not an ElicitResult",
                                          result.errors)};
        return out;
    }
    out.answer = std::move(result.value);
    return out;
}

} // namespace detail

/// The requestedSchema elicit<T> sends in a session of protocol `version` (2025-06-18 writes
/// defaults into descriptions; later versions state them as `default`).
template <class T>
constexpr std::string_view elicitation_schema(std::string_view version = latest_protocol_version) noexcept {
    if constexpr (!detail::elicitable<T>) {
        detail::report<T>();
        return {};
    } else {
        if (version <= "2025-06-18") return json_schema<std::remove_cv_t<T>, detail::elicitation_dialect<false>>();
        return json_schema<std::remove_cv_t<T>, detail::elicitation_dialect<true>>();
    }
}

/// Asks the user of the client of the request being served to fill in a T, with `message` saying
/// why (elicitation/create in form mode), and waits for the answer at most options.timeout.
/// Never throws but std::bad_alloc.
template <class T>
elicit_result<T> elicit(std::string_view message, const ask_options& options = {}) {
    elicit_result<T> out;
    if constexpr (detail::elicitable<T>) {
        detail::elicited asked = detail::ask_elicitation(
            "mcp::elicit", false,
            [&](std::string_view version) {
                std::string params = version <= "2025-06-18" ? R"({"message":)" : R"({"mode":"form","message":)";
                json::write(params, message);
                params += R"(,"requestedSchema":)";
                params += elicitation_schema<T>(version);
                params += '}';
                return params;
            },
            options.timeout);
        if (asked.error) {
            out.error = std::move(asked.error);
            return out;
        }
        out.action = asked.answer.action;
        if (out.action != elicit_action::accept) return out;
        const std::string_view content = asked.answer.content ? std::string_view(asked.answer.content->text()) : "{}";
        json::read_options fields;
        fields.max_size = content.size();
        fields.null_as_absent = true;
        auto value = json::read<std::remove_cv_t<T>>(content, fields);
        if (!value.ok()) {
            out.error = ask_error{ask_failure::invalid_content,
                                      detail::join_errors("agentry: mcp::elicit: the content the client accepted does "
                                                          "not fit the requested schema",
                                                          value.errors)};
            return out;
        }
        out.content.emplace(std::move(value.value));
    } else {
        detail::report<T>();
        (void)message;
        (void)options;
    }
    return out;
}

/// The answer to elicit_url: the user's action, or, when there is no usable answer, `error`.
struct elicit_url_result {
    elicit_action action = elicit_action::cancel;
    /// The elicitationId sent with the request (32 hexadecimal digits).
    std::string elicitation_id;
    std::optional<ask_error> error;

    /// The user agreed to open the URL. What happens there is out of band: the server learns it
    /// from its own web application, not from this answer.
    bool accepted() const noexcept { return !error && action == elicit_action::accept; }
};

/// Asks the user of the client of the request being served to open `url` (MCP elicitation/create
/// in URL mode, from protocol version 2025-11-25), for an interaction that must not pass through
/// the client: a sign-in, a payment, credentials. The request is sent only when the client declared
/// `capabilities.elicitation.url`; otherwise, and in the cases elicit<T> lists, the result holds an
/// ask_error. Never throws but std::bad_alloc.
inline elicit_url_result elicit_url(std::string_view message, std::string_view url, const ask_options& options = {}) {
    elicit_url_result out;
    out.elicitation_id = agentry::detail::random_name();
    detail::elicited asked = detail::ask_elicitation(
        "mcp::elicit_url", true,
        [&](std::string_view) {
            std::string params = R"({"mode":"url","message":)";
            json::write(params, message);
            params += R"(,"url":)";
            json::write(params, url);
            params += R"(,"elicitationId":)";
            json::write(params, out.elicitation_id);
            params += '}';
            return params;
        },
        options.timeout);
    out.error = std::move(asked.error);
    out.action = asked.answer.action;
    return out;
}

} // namespace agentry::mcp

#endif
