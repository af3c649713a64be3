// SPDX-License-Identifier: BSL-1.0
#ifndef AGENTRY_DETAIL_SHA256_HPP
#define AGENTRY_DETAIL_SHA256_HPP

// SHA-256 as FIPS 180-4 defines it, with no library: the digest of the PKCE S256 code
// challenge (RFC 7636: base64url(sha256(code_verifier))).
// Cost: one pass, 64 rounds per 64-byte block, no allocation.

#include <array>
#include <cstddef>
#include <cstdint>
#include <string_view>

namespace agentry::detail {

/// SHA-256 over bytes given in pieces: update() as often as needed, then digest() once.
class sha256_state {
public:
    /// Adds `bytes` to the message.
    constexpr void update(std::string_view bytes) noexcept {
        for (const char c : bytes) {
            block_[filled_++] = static_cast<unsigned char>(c);
            if (filled_ == block_.size()) {
                compress();
                filled_ = 0;
            }
        }
        length_ += bytes.size();
    }

    /// The digest of the message added so far. The state is spent: update() and digest() may
    /// not be called after it.
    constexpr std::array<unsigned char, 32> digest() noexcept {
        const std::uint64_t bits = static_cast<std::uint64_t>(length_) * 8u;
        block_[filled_++] = 0x80;
        if (filled_ > 56) {
            while (filled_ != block_.size()) block_[filled_++] = 0;
            compress();
            filled_ = 0;
        }
        while (filled_ != 56) block_[filled_++] = 0;
        for (std::size_t i = 0; i != 8; ++i)
            block_[56 + i] = static_cast<unsigned char>(bits >> (56 - 8 * i) & 0xffu);
        compress();
        std::array<unsigned char, 32> out{};
        for (std::size_t i = 0; i != 32; ++i)
            out[i] = static_cast<unsigned char>(hash_[i / 4] >> (24 - 8 * (i % 4)) & 0xffu);
        return out;
    }

private:
    static constexpr std::uint32_t rotr(std::uint32_t x, int n) noexcept {
        return x >> n | x << (32 - n);
    }

    // One 64-byte block of block_ into hash_ (section 6.2.2).
    constexpr void compress() noexcept {
        constexpr std::array<std::uint32_t, 64> k = {
            0x428a2f98, 0x71374491, 0xb5c0fbcf, 0xe9b5dba5, 0x3956c25b, 0x59f111f1, 0x923f82a4, 0xab1c5ed5,
            0xd807aa98, 0x12835b01, 0x243185be, 0x550c7dc3, 0x72be5d74, 0x80deb1fe, 0x9bdc06a7, 0xc19bf174,
            0xe49b69c1, 0xefbe4786, 0x0fc19dc6, 0x240ca1cc, 0x2de92c6f, 0x4a7484aa, 0x5cb0a9dc, 0x76f988da,
            0x983e5152, 0xa831c66d, 0xb00327c8, 0xbf597fc7, 0xc6e00bf3, 0xd5a79147, 0x06ca6351, 0x14292967,
            0x27b70a85, 0x2e1b2138, 0x4d2c6dfc, 0x53380d13, 0x650a7354, 0x766a0abb, 0x81c2c92e, 0x92722c85,
            0xa2bfe8a1, 0xa81a664b, 0xc24b8b70, 0xc76c51a3, 0xd192e819, 0xd6990624, 0xf40e3585, 0x106aa070,
            0x19a4c116, 0x1e376c08, 0x2748774c, 0x34b0bcb5, 0x391c0cb3, 0x4ed8aa4a, 0x5b9cca4f, 0x682e6ff3,
            0x748f82ee, 0x78a5636f, 0x84c87814, 0x8cc70208, 0x90befffa, 0xa4506ceb, 0xbef9a3f7, 0xc67178f2};
        std::array<std::uint32_t, 64> w{};
        for (std::size_t t = 0; t != 16; ++t)
            w[t] = std::uint32_t{block_[4 * t]} << 24 | std::uint32_t{block_[4 * t + 1]} << 16 |
                   std::uint32_t{block_[4 * t + 2]} << 8 | std::uint32_t{block_[4 * t + 3]};
        for (std::size_t t = 16; t != 64; ++t) {
            const std::uint32_t s0 = rotr(w[t - 15], 7) ^ rotr(w[t - 15], 18) ^ w[t - 15] >> 3;
            const std::uint32_t s1 = rotr(w[t - 2], 17) ^ rotr(w[t - 2], 19) ^ w[t - 2] >> 10;
            w[t] = w[t - 16] + s0 + w[t - 7] + s1;
        }
        std::uint32_t a = hash_[0], b = hash_[1], c = hash_[2], d = hash_[3];
        std::uint32_t e = hash_[4], f = hash_[5], g = hash_[6], h = hash_[7];
        for (std::size_t t = 0; t != 64; ++t) {
            const std::uint32_t t1 = h + (rotr(e, 6) ^ rotr(e, 11) ^ rotr(e, 25)) + ((e & f) ^ (~e & g)) + k[t] + w[t];
            const std::uint32_t t2 = (rotr(a, 2) ^ rotr(a, 13) ^ rotr(a, 22)) + ((a & b) ^ (a & c) ^ (b & c));
            h = g;
            g = f;
            f = e;
            e = d + t1;
            d = c;
            c = b;
            b = a;
            a = t1 + t2;
        }
        hash_[0] += a;
        hash_[1] += b;
        hash_[2] += c;
        hash_[3] += d;
        hash_[4] += e;
        hash_[5] += f;
        hash_[6] += g;
        hash_[7] += h;
    }

    std::array<std::uint32_t, 8> hash_ = {0x6a09e667, 0xbb67ae85, 0x3c6ef372, 0xa54ff53a,
                                          0x510e527f, 0x9b05688c, 0x1f83d9ab, 0x5be0cd19};
    std::array<unsigned char, 64> block_{};
    std::size_t filled_ = 0;
    std::size_t length_ = 0;
};

/// The SHA-256 digest of `bytes`.
constexpr std::array<unsigned char, 32> sha256(std::string_view bytes) noexcept {
    sha256_state state;
    state.update(bytes);
    return state.digest();
}

} // namespace agentry::detail

#endif
