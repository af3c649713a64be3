// SPDX-License-Identifier: BSL-1.0
#ifndef AGENTRY_JSON_DETAIL_READ_SEQUENCE_HPP
#define AGENTRY_JSON_DETAIL_READ_SEQUENCE_HPP

// Reading arrays into sequences (std::vector, std::array, sets, ...) and into std::pair and
// std::tuple.

#include <agentry/json/detail/read_container.hpp>
#include <agentry/json/detail/read_state.hpp>
#include <agentry/schema/detail/classify.hpp>

#include <cstddef>
#include <string>
#include <tuple>
#include <type_traits>
#include <utility>

namespace agentry::json::detail {

template <class T>
void read_sequence(reader& r, T& out) {
    if (!expect_container(r, '[', &read_at<T>, &out)) return;
    using E = std::remove_cv_t<typename T::value_type>;
    if constexpr (schema::detail::is_std_array<T>) {
        constexpr std::size_t n = std::tuple_size_v<T>;
        std::size_t count = 0;
        read_elements(r, [&](std::size_t index) {
            if (index < n) read_value(r, out[index]);
            else r.skip();
            ++count;
        });
        if (!r.stopped() && count != n)
            r.error(count < n ? error_kind::min_items : error_kind::max_items,
                    "must have exactly " + std::to_string(n) + (n == 1 ? " item" : " items") + ", not " +
                        std::to_string(count));
    } else if constexpr (schema::detail::is_set<T>) {
        out.clear();
        read_elements(r, [&](std::size_t) {
            E element{};
            const std::size_t before = r.error_count();
            read_value(r, element);
            if (r.error_count() != before) return;
            if (!out.insert(std::move(element)).second)
                r.error(error_kind::unique_items, "repeats an earlier item; items must be unique");
        });
    } else {
        out.clear();
        read_elements(r, [&](std::size_t) {
            if constexpr (std::is_same_v<E, bool>) {  // std::vector<bool> has no bool&
                bool element = false;
                read_value(r, element);
                out.push_back(element);
            } else {
                if constexpr (schema::detail::is_vector<T>)
                    if (out.capacity() == 0) out.reserve(4);
                out.emplace_back();
                read_value(r, out.back());
            }
        });
    }
}

// std::pair / std::tuple: an array of exactly its size, one type per position.
template <class T>
void read_tuple(reader& r, T& out) {
    if (!expect_container(r, '[', &read_at<T>, &out)) return;
    constexpr std::size_t n = std::tuple_size_v<T>;
    std::size_t count = 0;
    read_elements(r, [&](std::size_t index) {
        [&]<std::size_t... I>(std::index_sequence<I...>) {
            if (!((index == I ? (read_value(r, std::get<I>(out)), true) : false) || ...)) r.skip();
        }(std::make_index_sequence<n>{});
        ++count;
    });
    if (!r.stopped() && count != n)
        r.error(count < n ? error_kind::min_items : error_kind::max_items,
                "must have exactly " + std::to_string(n) + (n == 1 ? " item" : " items") + ", not " +
                    std::to_string(count));
}

} // namespace agentry::json::detail

#endif
