// SPDX-License-Identifier: BSL-1.0
#ifndef AGENTRY_JSON_DETAIL_READ_MAP_HPP
#define AGENTRY_JSON_DETAIL_READ_MAP_HPP

// Reading objects into maps, keyed by strings, integers or enumerations.

#include <agentry/json/detail/read_container.hpp>
#include <agentry/json/detail/read_enum.hpp>
#include <agentry/json/detail/read_state.hpp>
#include <agentry/reflect/enum.hpp>
#include <agentry/schema/constraints.hpp>

#include <charconv>
#include <cstddef>
#include <limits>
#include <string>
#include <string_view>
#include <type_traits>
#include <utility>

namespace agentry::json::detail {

// A map key that is an integer (its decimal text) or an enum (its enumerator's name); false
// after reporting why `text` is not one.
template <class K>
bool read_key(reader& r, std::string_view text, K& key) {
    if constexpr (std::is_enum_v<K>) {
        if (const std::size_t i = name_index(text, reflect::enum_names<K>.data(), reflect::enum_count<K>);
            i != reflect::enum_count<K>) {
            key = reflect::enum_values<K>[i];
            return true;
        }
        std::string message = "the key \"" + std::string(text) + "\" is not one of [";
        for (std::size_t i = 0; i != reflect::enum_count<K>; ++i) {
            if (i != 0) message += ',';
            message += '"';
            message += reflect::enum_names<K>[i];
            message += '"';
        }
        r.error(error_kind::enum_value, message + "]");
        return false;
    } else {
        const bool canonical = !text.empty() && text != "-" && text != "-0" &&
                               (text.size() == 1 || text[text.starts_with('-') ? 1 : 0] != '0');
        const auto [end, ec] = std::from_chars(text.data(), text.data() + text.size(), key);
        if (canonical && ec == std::errc{} && end == text.data() + text.size()) return true;
        r.error(error_kind::pattern, "the key \"" + std::string(text) + "\" must be an integer from " +
                                         std::to_string(std::numeric_limits<K>::min()) + " to " +
                                         std::to_string(std::numeric_limits<K>::max()) + ", written in decimal");
        return false;
    }
}

template <class T>
void read_map(reader& r, T& out) {
    if (!expect_container(r, '{', &read_at<T>, &out)) return;
    out.clear();
    using K = std::remove_cv_t<typename T::key_type>;
    read_members(r, [&](std::string_view text) {
        K key{};
        if constexpr (agentry::detail::is_std_string<K>) {
            key.assign(text);
        } else if (!read_key(r, text, key)) {
            r.skip();
            return;
        }
        auto [it, inserted] = out.try_emplace(std::move(key));
        if (!inserted) {
            r.error(error_kind::duplicate_property, "duplicate property");
            r.skip();
            return;
        }
        read_value(r, it->second);
    });
}

} // namespace agentry::json::detail

#endif
