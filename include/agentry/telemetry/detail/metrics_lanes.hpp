// SPDX-License-Identifier: BSL-1.0
#ifndef AGENTRY_TELEMETRY_DETAIL_METRICS_LANES_HPP
#define AGENTRY_TELEMETRY_DETAIL_METRICS_LANES_HPP

// The lanes of agentry::metrics: every name's counters exist once per lane. A thread takes a lane
// of its own the first time it records into a metrics object, and adds to its counters with a
// plain load and store (no locked instruction, no cache line shared with another thread); it
// gives the lane back when it exits, to the next thread that needs one. When every lane is
// taken, a thread records into the last, shared lane with atomic additions. Readers add the
// lanes up.
//
// Cost: a recording thread looks its lane up in a thread_local cache of one entry (the last
// metrics object it recorded into); a miss searches the thread's leases, then takes a lane (one
// compare-and-swap per lane tried, and a lease appended to a thread_local vector).

#include <atomic>
#include <cstddef>
#include <cstdint>
#include <memory>
#include <vector>

namespace agentry::detail {

using counter = std::atomic<std::uint64_t>;

/// The owners of a metrics object's lanes (kept by a shared_ptr, so that a thread exiting after
/// the object is gone does not touch it).
struct lane_registry {
    explicit lane_registry(std::size_t own_lanes) : taken(own_lanes) {}

    /// Never 0; never reused in the process.
    const std::uint64_t id = next_id();
    std::vector<std::atomic<bool>> taken;

    static std::uint64_t next_id() noexcept {
        static std::atomic<std::uint64_t> last{0};
        return last.fetch_add(1, std::memory_order_relaxed) + 1;
    }
};

/// Where a thread records: a lane, and whether it is the shared one.
struct lane {
    std::uint32_t index = 0;
    bool shared = true;
};

/// The last metrics object this thread recorded into and its lane there. Constant-initialized
/// and trivially destructible: usable until the thread's end without a guard.
struct lane_cache {
    std::uint64_t id = 0;
    lane where{};
    /// The thread's leases were given back: it records into shared lanes from now on.
    bool exiting = false;
};
inline thread_local constinit lane_cache last_lane{};

/// The lanes this thread holds; given back when it exits.
struct lane_leases {
    struct lease {
        std::weak_ptr<lane_registry> registry;
        std::uint64_t id = 0;
        std::uint32_t index = 0;
    };
    std::vector<lease> held;

    ~lane_leases() {
        last_lane.exiting = true;
        last_lane.id = 0;
        for (const lease& l : held)
            if (const auto r = l.registry.lock()) r->taken[l.index].store(false, std::memory_order_release);
    }
};
inline thread_local lane_leases leases{};

/// This thread's lane in `registry`, whose shared lane is `taken.size()`.
inline lane lane_of(const std::shared_ptr<lane_registry>& registry) noexcept {
    const lane shared{static_cast<std::uint32_t>(registry->taken.size()), true};
    if (last_lane.exiting) return shared;
    try {
        for (const lane_leases::lease& l : leases.held)
            if (l.id == registry->id) {
                last_lane.id = registry->id;
                last_lane.where = {l.index, false};
                return last_lane.where;
            }
        std::erase_if(leases.held, [](const lane_leases::lease& l) { return l.registry.expired(); });
        leases.held.reserve(leases.held.size() + 1);
        for (std::size_t i = 0; i != registry->taken.size(); ++i) {
            bool expected = false;
            if (registry->taken[i].compare_exchange_strong(expected, true, std::memory_order_acq_rel)) {
                leases.held.push_back({registry, registry->id, static_cast<std::uint32_t>(i)});
                last_lane.id = registry->id;
                last_lane.where = {static_cast<std::uint32_t>(i), false};
                return last_lane.where;
            }
        }
    } catch (...) {
    }
    last_lane.id = registry->id;
    last_lane.where = shared;
    return shared;
}

/// This thread's lane in `registry`: from the cache when it was the last one used.
inline lane current_lane(const std::shared_ptr<lane_registry>& registry) noexcept {
    if (last_lane.id == registry->id) return last_lane.where;
    return lane_of(registry);
}

/// Adds `n` to a counter of lane `where` (a plain load and store in a lane of its own).
inline void add(counter& c, std::uint64_t n, lane where) noexcept {
    if (n == 0) return;
    if (where.shared) c.fetch_add(n, std::memory_order_relaxed);
    else c.store(c.load(std::memory_order_relaxed) + n, std::memory_order_relaxed);
}

} // namespace agentry::detail

#endif
