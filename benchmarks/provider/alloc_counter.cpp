// SPDX-License-Identifier: BSL-1.0
// The counting global operator new and delete of alloc_counter.hpp.

#include "alloc_counter.hpp"

#include <cstdlib>
#include <new>

namespace {

bench::heap_counts counts;

void* take(std::size_t size) noexcept {
    ++counts.allocations;
    counts.bytes += size;
    return std::malloc(size == 0 ? 1 : size);
}

void* take_aligned(std::size_t size, std::align_val_t align) noexcept {
    ++counts.allocations;
    counts.bytes += size;
    const std::size_t a = static_cast<std::size_t>(align) < sizeof(void*) ? sizeof(void*) : static_cast<std::size_t>(align);
    const std::size_t rounded = size == 0 ? a : (size + a - 1) / a * a;
    return std::aligned_alloc(a, rounded);
}

void* or_throw(void* p) {
    if (p == nullptr) throw std::bad_alloc();
    return p;
}

void give(void* p) noexcept {
    if (p != nullptr) ++counts.frees;
    std::free(p);
}

} // namespace

bench::heap_counts bench::heap() noexcept { return counts; }

void* operator new(std::size_t n) { return or_throw(take(n)); }
void* operator new[](std::size_t n) { return or_throw(take(n)); }
void* operator new(std::size_t n, const std::nothrow_t&) noexcept { return take(n); }
void* operator new[](std::size_t n, const std::nothrow_t&) noexcept { return take(n); }
void* operator new(std::size_t n, std::align_val_t a) { return or_throw(take_aligned(n, a)); }
void* operator new[](std::size_t n, std::align_val_t a) { return or_throw(take_aligned(n, a)); }
void* operator new(std::size_t n, std::align_val_t a, const std::nothrow_t&) noexcept { return take_aligned(n, a); }
void* operator new[](std::size_t n, std::align_val_t a, const std::nothrow_t&) noexcept { return take_aligned(n, a); }

void operator delete(void* p) noexcept { give(p); }
void operator delete[](void* p) noexcept { give(p); }
void operator delete(void* p, std::size_t) noexcept { give(p); }
void operator delete[](void* p, std::size_t) noexcept { give(p); }
void operator delete(void* p, const std::nothrow_t&) noexcept { give(p); }
void operator delete[](void* p, const std::nothrow_t&) noexcept { give(p); }
void operator delete(void* p, std::align_val_t) noexcept { give(p); }
void operator delete[](void* p, std::align_val_t) noexcept { give(p); }
void operator delete(void* p, std::size_t, std::align_val_t) noexcept { give(p); }
void operator delete[](void* p, std::size_t, std::align_val_t) noexcept { give(p); }
void operator delete(void* p, std::align_val_t, const std::nothrow_t&) noexcept { give(p); }
void operator delete[](void* p, std::align_val_t, const std::nothrow_t&) noexcept { give(p); }
