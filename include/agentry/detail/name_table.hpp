#ifndef AGENTRY_DETAIL_NAME_TABLE_HPP
#define AGENTRY_DETAIL_NAME_TABLE_HPP

// Name -> index in O(1): an open-addressing hash table built at compile time. Its capacity is
// the power of two at or above 4N, and the seed is chosen so that no name is more than
// `max_probe` slots from its home, so a lookup costs one hash and a few compares at any N.

#include <array>
#include <cstddef>
#include <cstdint>
#include <string_view>

namespace agentry::detail {

constexpr std::uint64_t name_hash(std::string_view name, std::uint64_t seed) noexcept {
    std::uint64_t h = 0xcbf29ce484222325ull ^ seed;
    for (char c : name) {
        h ^= static_cast<unsigned char>(c);
        h *= 0x100000001b3ull;
    }
    h ^= h >> 29;
    h *= 0xbf58476d1ce4e5b9ull;
    h ^= h >> 32;
    return h;
}

template <std::size_t N>
struct name_table {
    static constexpr std::size_t capacity = [] {
        std::size_t c = 4;
        while (c < 4 * N) c *= 2;
        return c;
    }();
    static constexpr std::size_t empty = std::size_t(-1);

    std::array<std::size_t, capacity> slots{};
    std::uint64_t seed = 0;
    std::size_t max_probe = 0;

    static constexpr name_table build(const std::array<std::string_view, N>& names) noexcept {
        name_table best;
        best.max_probe = capacity;
        for (std::uint64_t seed = 0; seed != 16 && best.max_probe > 1; ++seed) {
            name_table t;
            t.seed = seed;
            for (auto& s : t.slots) s = empty;
            for (std::size_t i = 0; i != N; ++i) {
                std::size_t slot = name_hash(names[i], seed) & (capacity - 1);
                std::size_t probe = 0;
                while (t.slots[slot] != empty) {
                    slot = (slot + 1) & (capacity - 1);
                    ++probe;
                }
                t.slots[slot] = i;
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
            std::size_t slot = name_hash(name, seed) & (capacity - 1);
            for (std::size_t probe = 0; probe <= max_probe; ++probe) {
                const std::size_t index = slots[slot];
                if (index == empty) return N;
                if (names[index] == name) return index;
                slot = (slot + 1) & (capacity - 1);
            }
            return N;
        }
    }
};

} // namespace agentry::detail

#endif
