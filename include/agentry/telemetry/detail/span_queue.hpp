// SPDX-License-Identifier: BSL-1.0
#ifndef AGENTRY_TELEMETRY_DETAIL_SPAN_QUEUE_HPP
#define AGENTRY_TELEMETRY_DETAIL_SPAN_QUEUE_HPP

// A bounded queue of many producers and one consumer, without locks (D. Vyukov's bounded queue:
// each cell carries a sequence number that says whose turn it is). A producer claims a cell with
// one compare-and-swap on the tail, fills it in place and publishes it with one release store;
// a full queue refuses at once. The consumer reads the oldest published cell in place and frees
// it. Nothing allocates after construction, nothing blocks, nothing makes a system call.

#include <atomic>
#include <cstddef>
#include <cstdint>
#include <memory>

namespace agentry::detail {

template <class T>
class span_queue {
public:
    /// `capacity` is rounded up to a power of two (at least 2).
    explicit span_queue(std::size_t capacity) {
        std::size_t size = 2;
        while (size < capacity) size <<= 1;
        cells_ = std::make_unique<cell[]>(size);
        mask_ = size - 1;
        for (std::size_t i = 0; i != size; ++i) cells_[i].sequence.store(i, std::memory_order_relaxed);
    }

    std::size_t capacity() const noexcept { return mask_ + 1; }

    /// Claims a cell, calls fill(T&) on it and publishes it; false, without calling fill, when
    /// the queue is full.
    template <class Fill>
    bool try_push(Fill&& fill) noexcept {
        std::size_t position = tail_.load(std::memory_order_relaxed);
        for (;;) {
            cell& c = cells_[position & mask_];
            const std::size_t sequence = c.sequence.load(std::memory_order_acquire);
            const auto lag = static_cast<std::ptrdiff_t>(sequence - position);
            if (lag == 0) {
                if (tail_.compare_exchange_weak(position, position + 1, std::memory_order_relaxed)) {
                    fill(c.value);
                    c.sequence.store(position + 1, std::memory_order_release);
                    return true;
                }
            } else if (lag < 0) {
                return false;
            } else {
                position = tail_.load(std::memory_order_relaxed);
            }
        }
    }

    /// The oldest published value; null when there is none. Consumer only.
    T* front() noexcept {
        cell& c = cells_[head_ & mask_];
        return c.sequence.load(std::memory_order_acquire) == head_ + 1 ? &c.value : nullptr;
    }

    /// Frees the cell front() returned. Consumer only.
    void pop() noexcept {
        cells_[head_ & mask_].sequence.store(head_ + mask_ + 1, std::memory_order_release);
        ++head_;
    }

    /// Cells claimed by producers so far (published or about to be).
    std::size_t claimed() const noexcept { return tail_.load(std::memory_order_acquire); }
    /// Cells popped so far. Consumer only.
    std::size_t popped() const noexcept { return head_; }

private:
    struct cell {
        std::atomic<std::size_t> sequence{0};
        T value{};
    };

    std::unique_ptr<cell[]> cells_;
    std::size_t mask_ = 0;
    alignas(64) std::atomic<std::size_t> tail_{0};
    alignas(64) std::size_t head_ = 0;
};

} // namespace agentry::detail

#endif
