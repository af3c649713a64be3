// SPDX-License-Identifier: BSL-1.0
#ifndef AGENTRY_DETAIL_RANDOM_ID_HPP
#define AGENTRY_DETAIL_RANDOM_ID_HPP

// Identifiers no one can guess: run ids, worker names, MCP session ids.

#include <cstdint>
#include <mutex>
#include <random>
#include <string>

namespace agentry::detail {

/// 32 hexadecimal digits, 128 bits from std::random_device. Safe from several threads at once.
inline std::string random_name() {
    static constexpr char digits[] = "0123456789abcdef";
    static std::mutex mutex;
    static std::random_device device;
    std::string out(32, '0');
    std::lock_guard lock(mutex);
    for (std::size_t i = 0; i != out.size(); i += 8) {
        std::uint32_t word = device();
        for (std::size_t j = 0; j != 8; ++j, word >>= 4) out[i + j] = digits[word & 15];
    }
    return out;
}

} // namespace agentry::detail

#endif
