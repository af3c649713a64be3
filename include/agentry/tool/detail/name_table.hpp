// SPDX-License-Identifier: BSL-1.0
#ifndef AGENTRY_TOOL_DETAIL_NAME_TABLE_HPP
#define AGENTRY_TOOL_DETAIL_NAME_TABLE_HPP

// Name -> index in O(1): an open-addressing hash table built at compile time. Its capacity is
// the power of two at or above 4N, and the seed is chosen so that no name is more than
// `max_probe` slots from its home, so a lookup costs one hash and a few compares at any N.
//
// Cost of constant evaluation: each name is hashed once; each of at most 16 seeds then costs
// about 10 steps per name. Clang allows 1048576 steps per constant (-fconstexpr-steps): the
// build of 1000 names takes about 200000. C arrays, not std::array, inside the loops: each
// call of std::array::operator[] is a step of its own.

#include <array>
#include <cstddef>
#include <cstdint>
#include <string_view>

namespace agentry::detail {

/// FNV-1a of the name's bytes.
constexpr std::uint64_t name_hash(std::string_view name) noexcept {
    std::uint64_t h = 0xcbf29ce484222325ull;
    for (char c : name) {
        h ^= static_cast<unsigned char>(c);
        h *= 0x100000001b3ull;
    }
    return h;
}

/// The home slot of a name hash under `seed`, in a table of power-of-two capacity.
constexpr std::size_t home_slot(std::uint64_t h, std::uint64_t seed, std::size_t capacity) noexcept {
    h ^= seed * 0x9e3779b97f4a7c15ull;
    h = (h ^ (h >> 29)) * 0xbf58476d1ce4e5b9ull;
    return static_cast<std::size_t>(h ^ (h >> 32)) & (capacity - 1);
}

/// The power of two at or above 4n, and at least 4.
constexpr std::size_t table_capacity(std::size_t n) noexcept {
    std::size_t c = 4;
    while (c < 4 * n) c *= 2;
    return c;
}

/// The index of the first name equal to an earlier one, or N. O(N) expected: equal names
/// have equal hashes and so meet in one probe sequence; names are compared only when their
/// hashes are equal.
template <std::size_t N>
constexpr std::size_t first_duplicate(const std::array<std::string_view, N>& names) noexcept {
    constexpr std::size_t capacity = table_capacity(N);
    std::size_t slots[capacity]{};  // index + 1; 0 is empty
    std::uint64_t hashes[N + 1]{};  // N + 1: N may be 0
    for (std::size_t i = 0; i != N; ++i) {
        hashes[i] = name_hash(names[i]);
        std::size_t slot = home_slot(hashes[i], 0, capacity);
        for (; slots[slot] != 0; slot = (slot + 1) & (capacity - 1)) {
            const std::size_t other = slots[slot] - 1;
            if (hashes[other] == hashes[i] && names[other] == names[i]) return i;
        }
        slots[slot] = i + 1;
    }
    return N;
}

template <std::size_t N>
struct name_table {
    static constexpr std::size_t capacity = table_capacity(N);

    std::size_t slots[capacity]{};  // index + 1; 0 is empty
    std::uint64_t seed = 0;
    std::size_t max_probe = 0;

    static constexpr name_table build(const std::array<std::string_view, N>& names) noexcept {
        std::uint64_t hashes[N + 1]{};  // N + 1: N may be 0
        for (std::size_t i = 0; i != N; ++i) hashes[i] = name_hash(names[i]);
        name_table best;
        best.max_probe = capacity;
        for (std::uint64_t seed = 0; seed != 16 && best.max_probe > 1; ++seed) {
            name_table t;
            t.seed = seed;
            for (std::size_t i = 0; i != N; ++i) {
                std::size_t slot = home_slot(hashes[i], seed, capacity);
                std::size_t probe = 0;
                for (; t.slots[slot] != 0; ++probe) slot = (slot + 1) & (capacity - 1);
                t.slots[slot] = i + 1;
                if (probe > t.max_probe) t.max_probe = probe;
            }
            if (t.max_probe < best.max_probe) best = t;
        }
        return best;
    }

    /// The index of `name` in `names`, or N.
    constexpr std::size_t find(std::string_view name, const std::array<std::string_view, N>& names) const noexcept {
        if constexpr (N == 0) {
            return 0;
        } else {
            std::size_t slot = home_slot(name_hash(name), seed, capacity);
            for (std::size_t probe = 0; probe <= max_probe; ++probe) {
                const std::size_t entry = slots[slot];
                if (entry == 0) return N;
                if (names[entry - 1] == name) return entry - 1;
                slot = (slot + 1) & (capacity - 1);
            }
            return N;
        }
    }
};

} // namespace agentry::detail

#endif
