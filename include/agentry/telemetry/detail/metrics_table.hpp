// SPDX-License-Identifier: BSL-1.0
#ifndef AGENTRY_TELEMETRY_DETAIL_METRICS_TABLE_HPP
#define AGENTRY_TELEMETRY_DETAIL_METRICS_TABLE_HPP

// The lock-free tables of agentry::metrics (telemetry/metrics.hpp): counters kept by a name of
// two parts (a tool and nothing, a provider and a model, an agent and a stop reason), once per
// lane (metrics_lanes.hpp).
//
// A table holds at most `capacity` names in a dense array of entries, found through an index of
// open addressing (linear probing) at most half full. A name is copied into its entry once,
// when it is first seen; a name seen when the table is full is counted under the overflow entry
// ("_other"). Finding a name: one hash of its bytes, eight at a time, one probe in the common
// case, no lock, no allocation. Only the first sight of a name takes an entry (its counters
// allocated, one compare-and-swap, the name copied); a thread that meets a name another thread is
// copying waits for that copy to end.

#include <agentry/telemetry/detail/metrics_lanes.hpp>

#include <algorithm>
#include <array>
#include <atomic>
#include <bit>
#include <cstddef>
#include <cstdint>
#include <cstring>
#include <memory>
#include <new>
#include <string>
#include <string_view>
#include <thread>

namespace agentry::detail {

inline std::uint64_t read(const counter& c) noexcept { return c.load(std::memory_order_relaxed); }

/// A 64-bit hash of `text`, eight bytes at a time; never 0 (0 marks an empty index slot).
inline std::uint64_t metrics_hash(std::string_view text, std::uint64_t seed) noexcept {
    constexpr std::uint64_t k = 0x9E3779B97F4A7C15ull;
    std::uint64_t h = seed ^ (text.size() * k);
    const char* p = text.data();
    std::size_t n = text.size();
    for (; n >= 8; p += 8, n -= 8) {
        std::uint64_t w;
        std::memcpy(&w, p, 8);
        h = (h ^ w) * k;
        h ^= h >> 32;
    }
    if (n != 0) {
        std::uint64_t w = 0;
        std::memcpy(&w, p, n);
        h = (h ^ w) * k;
        h ^= h >> 32;
    }
    h *= k;
    h ^= h >> 29;
    return h == 0 ? 1 : h;
}

/// Counts of a histogram whose bucket edges are `Bounds`: counts[i] holds the observations in
/// (Bounds[i-1], Bounds[i]], the last one those past every edge; `sum` their sum, in the unit
/// the caller chose.
template <std::size_t Bounds>
struct histogram_counts {
    std::array<counter, Bounds + 1> counts{};
    counter sum{0};

    /// Counts `value` in the bucket `edges` (ascending, in the unit of `value`) say.
    void observe(const std::array<std::uint64_t, Bounds>& edges, std::uint64_t value, lane where) noexcept {
        std::size_t i = 0;
        for (std::uint64_t edge : edges) i += value > edge ? 1 : 0;
        add(counts[i], 1, where);
        add(sum, value, where);
    }
};

/// One name's counters in a table, one Counters per lane.
template <class Counters>
struct metrics_entry {
    std::atomic<bool> ready{false};
    std::string first;
    std::string second;
    std::unique_ptr<Counters[]> lanes;
};

template <class Counters>
class metrics_table {
public:
    using entry = metrics_entry<Counters>;

    /// `overflow_first` and `overflow_second` name the overflow entry; every entry has `lanes`
    /// lanes.
    metrics_table(std::size_t capacity, std::size_t lanes, std::string_view overflow_first,
                  std::string_view overflow_second)
        : capacity_(capacity),
          lanes_(lanes),
          mask_(std::bit_ceil(std::max<std::size_t>(2 * capacity, 2)) - 1),
          index_(new slot[mask_ + 1]),
          entries_(new entry[capacity + 1]) {
        entry& other = entries_[capacity_];
        other.first = overflow_first;
        other.second = overflow_second;
        other.lanes.reset(new Counters[lanes_]);
        other.ready.store(true, std::memory_order_release);
    }

    /// The lanes of the name (`first`, `second`): found, taken now, or the overflow entry's.
    Counters* find(std::string_view first, std::string_view second) noexcept {
        const std::uint64_t h0 = metrics_hash(first, 0);
        const std::uint64_t h = second.empty() ? h0 : metrics_hash(second, h0);
        for (std::size_t i = h & mask_;; i = (i + 1) & mask_) {
            slot& s = index_[i];
            std::uint64_t seen = s.hash.load(std::memory_order_acquire);
            if (seen == 0) {
                std::unique_ptr<Counters[]> lanes;
                if (taken_.fetch_add(1, std::memory_order_relaxed) < capacity_)
                    lanes.reset(new (std::nothrow) Counters[lanes_]);
                if (!lanes) {
                    taken_.fetch_sub(1, std::memory_order_relaxed);
                    return entries_[capacity_].lanes.get();
                }
                if (!s.hash.compare_exchange_strong(seen, h, std::memory_order_acq_rel)) {
                    taken_.fetch_sub(1, std::memory_order_relaxed);
                    if (seen != h) continue;
                } else {
                    return claim(s, std::move(lanes), first, second);
                }
            }
            if (seen != h) continue;
            std::uint32_t at = s.entry.load(std::memory_order_acquire);
            while (at == 0) {
                std::this_thread::yield();
                at = s.entry.load(std::memory_order_acquire);
            }
            entry& e = entries_[at - 1];
            if (e.first == first && e.second == second) return e.lanes.get();
        }
    }

    /// Calls `f(entry)` for every entry that holds a name, the overflow entry last.
    template <class F>
    void each(F&& f) const {
        const std::size_t n = std::min(used_.load(std::memory_order_acquire), capacity_);
        for (std::size_t i = 0; i != n; ++i)
            if (entries_[i].ready.load(std::memory_order_acquire)) f(entries_[i]);
        f(entries_[capacity_]);
    }

    std::size_t lanes() const noexcept { return lanes_; }

private:
    struct slot {
        std::atomic<std::uint64_t> hash{0};
        /// The entry's index plus 1; 0 while the name is being copied.
        std::atomic<std::uint32_t> entry{0};
    };

    Counters* claim(slot& s, std::unique_ptr<Counters[]> lanes, std::string_view first,
                    std::string_view second) noexcept {
        const std::size_t at = used_.fetch_add(1, std::memory_order_relaxed);
        entry& e = entries_[at];
        e.lanes = std::move(lanes);
        try {
            e.first = first;
            e.second = second;
        } catch (...) {
            e.first.clear();
            e.second.clear();
        }
        e.ready.store(true, std::memory_order_release);
        s.entry.store(static_cast<std::uint32_t>(at + 1), std::memory_order_release);
        return e.lanes.get();
    }

    std::size_t capacity_;
    std::size_t lanes_;
    std::size_t mask_;
    std::unique_ptr<slot[]> index_;
    std::unique_ptr<entry[]> entries_;
    std::atomic<std::size_t> taken_{0};
    std::atomic<std::size_t> used_{0};
};

} // namespace agentry::detail

#endif
