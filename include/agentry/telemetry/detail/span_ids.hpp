// SPDX-License-Identifier: BSL-1.0
#ifndef AGENTRY_TELEMETRY_DETAIL_SPAN_IDS_HPP
#define AGENTRY_TELEMETRY_DETAIL_SPAN_IDS_HPP

// Trace and span ids: random, as W3C Trace Context asks, from a xoshiro256** generator per
// thread, seeded once per thread from std::random_device. A few nanoseconds an id; no lock, no
// system call after a thread's first id.

#include <agentry/detail/chrono.hpp>

#include <array>
#include <cstddef>
#include <cstdint>
#include <cstring>
#include <random>

namespace agentry::detail::spans {

class id_generator {
public:
    id_generator() noexcept {
        std::uint64_t seed[4] = {};
        try {
            std::random_device device;
            for (std::uint64_t& s : seed) s = (std::uint64_t(device()) << 32) ^ device();
        } catch (...) {
            // No entropy source: the clock and this object's address, mixed by splitmix64.
            seed[0] = std::uint64_t(std::chrono::steady_clock::now().time_since_epoch().count());
            seed[1] = std::uint64_t(reinterpret_cast<std::uintptr_t>(this));
        }
        std::uint64_t mix = seed[0] ^ seed[1] ^ seed[2] ^ seed[3];
        for (std::size_t i = 0; i != 4; ++i) state_[i] = seed[i] ^ splitmix(mix);
    }

    std::uint64_t next() noexcept {
        const std::uint64_t result = rotl(state_[1] * 5, 7) * 9;
        const std::uint64_t t = state_[1] << 17;
        state_[2] ^= state_[0];
        state_[3] ^= state_[1];
        state_[1] ^= state_[2];
        state_[0] ^= state_[3];
        state_[2] ^= t;
        state_[3] = rotl(state_[3], 45);
        return result;
    }

private:
    static std::uint64_t rotl(std::uint64_t x, int k) noexcept { return (x << k) | (x >> (64 - k)); }
    static std::uint64_t splitmix(std::uint64_t& x) noexcept {
        std::uint64_t z = (x += 0x9e3779b97f4a7c15);
        z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9;
        z = (z ^ (z >> 27)) * 0x94d049bb133111eb;
        return z ^ (z >> 31);
    }

    std::uint64_t state_[4];
};

inline id_generator& thread_ids() noexcept {
    thread_local id_generator ids;
    return ids;
}

/// 8 random bytes, never all zero.
inline std::array<std::uint8_t, 8> new_span_id() noexcept {
    std::uint64_t v = 0;
    while (v == 0) v = thread_ids().next();
    std::array<std::uint8_t, 8> out;
    std::memcpy(out.data(), &v, 8);
    return out;
}

/// 16 random bytes, never all zero.
inline std::array<std::uint8_t, 16> new_trace_id() noexcept {
    std::uint64_t v[2] = {0, 0};
    while ((v[0] | v[1]) == 0) {
        v[0] = thread_ids().next();
        v[1] = thread_ids().next();
    }
    std::array<std::uint8_t, 16> out;
    std::memcpy(out.data(), v, 16);
    return out;
}

} // namespace agentry::detail::spans

#endif
